#!/bin/bash
# tests/merge/sweep_small_card.sh — a --sweep on a 512 MiB card (CTest label `gpu`): the ladder
# sizes that cannot fit the card at all are `unsupported` rows that say how much they need and
# how much the card has, never `oom`, so the run exits 0 and a fleet's afterok merge still runs.
# The card is made that small by GPUBENCH_TEST_DEVICE_MEM_MIB (read only for tests, by
# kernels/common/cuda_impl.c); the run is scripts/slurm/fleet --local, as a fleet would run it.
# Exits 77 (skipped) without a usable CUDA device.
#
# usage: sweep_small_card.sh GPUBENCH REPO WORKLOAD   (WORKLOAD: one whose sweep ladder ends
#        above 512 MiB on the device: tests/CMakeLists.txt's test workload)
set -u
bin=$(readlink -f "${1:?usage: sweep_small_card.sh GPUBENCH REPO WORKLOAD}")
repo=$(readlink -f "${2:?usage: sweep_small_card.sh GPUBENCH REPO WORKLOAD}")
wl=${3:?usage: sweep_small_card.sh GPUBENCH REPO WORKLOAD}
MIB=512
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
if ! "$bin" list 2>/dev/null | grep -q "^  cuda:0 "; then
  echo "no usable CUDA device: skipped"
  exit 77
fi
# The workload's first CUDA implementation, from `gpubench list`.
impl=$("$bin" list | awk -v w="$wl" '/^devices:/ { exit }
  /^  [^ ]/ { mine = ($1 == w) } mine && $2 == "[cuda]" { print $1; exit }')
[ -n "$impl" ] || { echo "FAIL: $wl has no CUDA implementation in gpubench list"; exit 1; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

GPUBENCH_TEST_DEVICE_MEM_MIB=$MIB "$repo/scripts/slurm/fleet" --gpubench "$bin" --local \
  --results "$work/res" -- --sweep --quick -d cuda:0 -w "$wl" -i "$impl" >fleet.out 2>&1
rc=$?
cat fleet.out
dir=$(sed -n 's/^fleet: .* results in //p' fleet.out)
[ "$rc" = 0 ] || fail "the fleet exited $rc, not 0"
[ -s "$dir/fleet.csv" ] || fail "no fleet.csv: the afterok merge did not run"
python3 - "$dir/task-0.csv" "$MIB" >rows.txt <<'PY' || fail "rows: $(cat rows.txt)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
big = [r for r in rows if r["status"] == "unsupported" and
       "the card has %s.0 MiB" % sys.argv[2] in r["note"] and "needs at least" in r["note"]]
oom = [r for r in rows if r["status"] == "oom"]
for r in rows:
    print(r["shape"], r["status"], r["note"][:120])
sys.exit(0 if big and not oom and len(big) < len(rows) else 1)
PY
cat rows.txt
echo "$fails check(s) failed"
[ "$fails" = 0 ]
