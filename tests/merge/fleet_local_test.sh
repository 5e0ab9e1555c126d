#!/bin/bash
# tests/merge/fleet_local_test.sh — scripts/slurm/fleet without Slurm (--local: the same task
# and merge scripts, run here one after another) and its checks of bad input. Fast: no daemons.
#
# usage: fleet_local_test.sh GPUBENCH REPO WORKLOAD IMPL   (the tasks run WORKLOAD/IMPL, a CPU
#        implementation: tests/CMakeLists.txt's test workload)
set -u
use="usage: fleet_local_test.sh GPUBENCH REPO WORKLOAD IMPL"
bin=$(readlink -f "${1:?$use}")
repo=$(readlink -f "${2:?$use}")
wl=${3:?$use}
impl=${4:?$use}
fleet=$repo/scripts/slurm/fleet
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }
# run NAME WANT_RC ARGS... — runs the fleet, output in NAME.out; sets dir from "results:".
run() {
  local name=$1 want=$2
  shift 2
  "$fleet" --gpubench "$bin" "$@" >"$name.out" 2>&1
  local rc=$?
  dir=$(sed -n 's/^fleet: .* results in //p' "$name.out")
  if [ "$rc" = "$want" ]; then pass "$name: exit $rc"; else
    fail "$name: exit $rc, expected $want"
    cat "$name.out"
  fi
}

echo "=== two tasks on the CPU"
run two 0 --local --tasks 2 --results "$work/res" -- --quick -d cpu -w "$wl" -i "$impl"
if [ -s "$dir/fleet.csv" ]; then
  n=$(tail -n +2 "$dir/fleet.csv" | cut -d, -f2 | sort -u | wc -l)
  [ "$n" = 2 ] && pass "fleet.csv holds 2 runs" || fail "fleet.csv holds $n runs"
else
  fail "no fleet.csv"
fi
grep -q '\[task-1.csv\]' "$dir/report.txt" 2>/dev/null && pass "report.txt compares task 1" ||
  fail "report.txt missing or does not compare task 1"
grep -q '^expect_gpu=no$' "$dir/fleet.conf" && pass "-d cpu: no GPU expected" ||
  fail "fleet.conf expect_gpu"

echo "=== a task that fails, afterok: nothing merged"
run failing 1 --local --tasks 1 --results "$work/res" -- --quick -w nosuchworkload
grep -q "not merging (afterok)" failing.out && pass "says it does not merge" ||
  fail "no afterok message"
[ ! -e "$dir/fleet.csv" ] && pass "no fleet.csv" || fail "fleet.csv written although a task failed"
grep -q "^exit=2$" "$dir/task-0.exit" && pass "task-0.exit records exit 2" || fail "task-0.exit"

echo "=== CPU-only fleets on a node without a usable GPU merge: -d cpu, or CPU implementations"
for args in "-d cpu" "-i $impl"; do
  name=cpu_only_${args%% *}
  # shellcheck disable=SC2086 # two words on purpose
  run "$name" 0 --local --tasks 1 --results "$work/res" -- --quick -w "$wl" $args
  grep -q "task 0 on .*: ok" "$name.out" && [ -s "$dir/fleet.csv" ] &&
    pass "$args: merged, no 'no usable GPU'" || { fail "$args: not merged"; cat "$name.out"; }
  grep -q "^merged: *$dir/fleet.csv" "$name.out" && pass "$args: names fleet.csv" ||
    fail "$args: merged file not named"
done

echo "=== a GPU fleet on a node without a usable GPU, --afterany"
if "$bin" list 2>&1 | grep -q "no CUDA device"; then
  run nogpu 1 --local --tasks 1 --afterany --results "$work/res" -- --quick -w "$wl"
  grep -Eq "task 0 on .*: failed: no usable GPU: .*(driver|without CUDA|No NVIDIA GPU on this machine)" nogpu.out &&
    pass "the merge says the node has no usable GPU, and why" ||
    { fail "no 'no usable GPU'"; cat nogpu.out; }
  grep -q "its CSV's [0-9]* rows are merged" nogpu.out && pass "and that its CPU rows are merged" ||
    fail "the merge does not say what happens to the task's rows"
  [ -s "$dir/fleet.csv" ] && pass "its CPU rows merged anyway" ||
    fail "nothing merged with --afterany"
else
  echo "skipped: this machine has a CUDA device"
fi

echo "=== nothing merged: no path printed for files not written"
run refused 1 --local --tasks 1 --results "$work/res" -- --quick -w nosuchworkload
grep -q "^merged:\|^report:" refused.out && fail "names a merged file or report it did not write" ||
  pass "no merged: or report: line"
run fail_any 2 --local --tasks 1 --afterany --results "$work/res" -- --quick -w nosuchworkload
grep -q "^merged:\|^report:" fail_any.out && fail "afterany: names files it did not write" ||
  pass "afterany, nothing usable: no merged: or report: line"

echo "=== bad input"
run unwritable 2 --local --results /proc/gpubench-fleet -- --quick
grep -q "results folder /proc/gpubench-fleet cannot be created" unwritable.out &&
  pass "names the folder" ||
  fail "unwritable: wrong message"
run own_out 2 --local --results "$work/res" -- --quick -o x.csv
grep -q "gpubench option -o is set by the fleet" own_out.out && pass "refuses -o" ||
  fail "own_out: wrong message"
run bad_tasks 2 --local --tasks 0 --results "$work/res"
run bad_baseline 2 --local --baseline task:x --results "$work/res"
run no_binary 2 --gpubench /nonexistent/gpubench --local --results "$work/res"

echo "=== what would be submitted (--dry-run)"
run dry 0 --dry-run --tasks 4 --per-gpu --partition gpu --time 20 --sbatch=--account=lab \
  --results "$work/shared" --afterany --baseline host:k80-01 -- -w "$wl"
for want in "--array=0-3" "--gres=gpu:1" "--partition=gpu" "--time=20" "--account=lab" \
  "--output=$work/shared/%A/task-%a.log" "--dependency=afterany:@JOB@" "--kill-on-invalid-dep=yes" \
  "fleet-task.sbatch $work/shared $bin -w $wl -d cuda" "host:k80-01 --allow-missing"; do
  grep -qF -- "$want" dry.out && pass "dry run has $want" ||
    { fail "dry run lacks $want"; cat dry.out; }
done
run dry_node 0 --dry-run --tasks 2 --results "$work/shared" -- --quick -d cpu
grep -qF -- "--exclusive" dry_node.out && grep -qF -- "--dependency=afterok:@JOB@" dry_node.out &&
  pass "per node: --exclusive, afterok" || fail "per-node dry run"

echo "$fails check(s) failed"
[ "$fails" = 0 ]
