#!/usr/bin/env bash
# kernel_lease_cli.sh — scripts/kernel-lease --binary GPUBENCH on a machine where that gpubench
# can use no GPU: exit 3 (its help and docs/gpu-check.md: no GPU, driver or toolkit) with one
# line saying why, no table and no result folder (it once exited 1 with an empty ratio table).
# Skipped (77) where an NVIDIA driver is loaded.
# usage: kernel_lease_cli.sh SOURCE_DIR GPUBENCH
set -u
[ ! -e /proc/driver/nvidia/version ] || { echo "skipped: an NVIDIA driver is loaded here"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
python3 "$1/scripts/kernel-lease" --binary "$2" --out "$work/out" >"$work/stdout" 2>"$work/stderr"
rc=$?
fails=0
[ "$rc" = 3 ] || { echo "FAIL: exit $rc, expected 3"; fails=1; }
[ "$(grep -c . "$work/stderr")" = 1 ] || { echo "FAIL: not one line on stderr"; fails=1; }
grep -Eq "^kernel-lease: no GPU: .+" "$work/stderr" || { echo "FAIL: no reason given"; fails=1; }
[ ! -s "$work/stdout" ] || { echo "FAIL: a table was printed"; fails=1; }
[ ! -e "$work/out" ] || { echo "FAIL: a result folder was left"; fails=1; }
cat "$work/stderr"
exit $fails
