#!/bin/sh
# gpu_quick.sh — every workload and implementation on cuda:0 at the quick shapes (CTest label
# `gpu`): the run must exit 0, i.e. no row is `wrong`, `error` or `timeout` (`unsupported` and
# `oom` rows are allowed: a Kepler card without cuDNN support is a pass). Exits 77 (skipped)
# when this machine has no usable CUDA device.
# usage: gpu_quick.sh PATH/TO/gpubench
set -u
gpubench=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$gpubench" --quick --device cuda:0 --out "$dir/run.csv" >"$dir/out.txt" 2>&1
rc=$?
cat "$dir/out.txt"
if [ "$rc" = 2 ] && grep -q "no such CUDA device" "$dir/out.txt"; then
    echo "no usable CUDA device: skipped"
    exit 77
fi
if [ "$rc" != 0 ]; then
    echo "FAIL: gpubench exited $rc (a row is wrong, error or timeout, or the run failed)"
    exit 1
fi
exit 0
