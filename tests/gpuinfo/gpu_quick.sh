#!/bin/sh
# gpu_quick.sh — every workload and implementation on cuda:0 at the quick shapes (CTest label
# `gpu`). Every row must be `ok`, or `unsupported` with a reason (a Kepler card without cuDNN
# support, a build without code for the card: facts about the device, not failures). `oom` is a
# failure here: the quick shapes fit the smallest supported card (512 MiB), as do the defaults.
# The exit code must agree (0 exactly when no row failed). Exits 77 (skipped) when this machine
# has no usable CUDA device.
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
[ -s "$dir/run.csv" ] || { echo "FAIL: gpubench exited $rc and wrote no CSV"; exit 1; }
# Rows by status, from the CSV's own header (columns found by name).
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { st = $col["status"]; n[st]++
           if (st != "ok" && st != "unsupported") print "FAIL row:", $col["device"], $col["workload"] "/" $col["impl"], st }
         END { for (s in n) print n[s], s > "/dev/stderr" }' "$dir/run.csv" >"$dir/bad.txt"
cat "$dir/bad.txt"
if [ -s "$dir/bad.txt" ]; then
    [ "$rc" = 1 ] || echo "FAIL: rows failed but gpubench exited $rc, not 1"
    exit 1
fi
if [ "$rc" != 0 ]; then
    echo "FAIL: every row is ok or unsupported but gpubench exited $rc"
    exit 1
fi
grep -q ",cuda:0,.*,ok," "$dir/run.csv" || echo "note: no CUDA row was ok (all unsupported)"
exit 0
