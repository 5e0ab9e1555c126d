#!/bin/bash
# tests/merge/fleet_test.sh — the fleet scripts against a real Slurm on this machine.
#
# usage: fleet_test.sh GPUBENCH REPO WORKLOAD   (fleets 2 and 3 run WORKLOAD on the CPU:
#        tests/CMakeLists.txt's test workload)
# Installs slurm-wlm and munge when missing (exit 77 = skipped when they cannot be installed),
# starts munged, slurmctld and slurmd with everything in a temporary folder
# (tests/merge/local_slurm.sh), then runs scripts/slurm/fleet three times:
#   1. three array tasks of `gpubench --quick -d cpu`, afterok merge: fleet.csv must hold three
#      runs with their Slurm job and task ids and the node name, report.txt must exist;
#   2. four tasks, --afterany: task 1 crashes (its exit record says so), task 2's task script is
#      killed before it can write one (the merge job asks Slurm instead); the merge names both
#      and why, merges tasks 0 and 3, and exits 1;
#   3. task 1 crashing, afterok: the merge job never runs (Slurm cancels it), nothing is merged.
# Each wait polls squeue under a time limit. An EXIT trap stops exactly the daemons this script
# started, whatever happens; a watchdog turns a hang into a failure before CTest's timeout.
# GPUBENCH_SLURM_KEEP=1 keeps the temporary folder for inspection.
set -u
bin=$(readlink -f "${1:?usage: fleet_test.sh GPUBENCH REPO WORKLOAD}")
repo=$(readlink -f "${2:?usage: fleet_test.sh GPUBENCH REPO WORKLOAD}")
wl=${3:?usage: fleet_test.sh GPUBENCH REPO WORKLOAD}
fleet=$repo/scripts/slurm/fleet
WAIT_LIMIT=${GPUBENCH_SLURM_WAIT:-240} # seconds per fleet
TOTAL_LIMIT=1500                       # seconds for everything, below CTest's TIMEOUT

. "$repo/tests/merge/local_slurm.sh"

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

[ -x "$bin" ] || { echo "FAIL: $bin is not an executable"; exit 1; }
local_slurm_install
rc=$?
if [ "$rc" = 77 ]; then echo "SKIP: slurm-wlm and munge cannot be installed here"; exit 77; fi
[ "$rc" = 0 ] || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/gpubench-slurm.XXXXXX") && chmod 755 "$work" || exit 1
cluster=$work/cluster
watchdog=""
cleanup() {
  local rc=$?
  [ -n "$watchdog" ] && kill "$watchdog" 2>/dev/null
  local_slurm_stop "$cluster"
  # Prove it: no daemon of ours may survive the test, pass or fail.
  local f left=""
  for f in "$cluster/slurmd.pid:slurmd" "$cluster/slurmctld.pid:slurmctld" \
    "$cluster/munge/munged.pid:munged"; do
    local_slurm_pid_alive "${f%%:*}" "${f##*:}" && left="$left ${f##*:}"
  done
  left="$left$(local_slurm_own_pids "$cluster/slurm.conf" | tr '\n' ' ')"
  if [ -n "${left// /}" ]; then
    echo "FAIL: left behind after stopping:$left"
    rc=1
  fi
  if [ "${GPUBENCH_SLURM_KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "FAIL: interrupted or out of time"; exit 1' INT TERM HUP
( sleep "$TOTAL_LIMIT"; kill -TERM $$ ) >/dev/null 2>&1 &
watchdog=$!

mkdir -p "$cluster" "$work/results"
cd "$work" || exit 1 # jobs start in the folder sbatch ran in
local_slurm_start "$cluster" || { echo "FAIL: the local cluster did not start"; exit 1; }
node=$(sinfo -h -N -o %N | head -n 1)

# A gpubench that crashes in array task 1 (like a node with a broken driver), kills the task
# script of task 2 (like a node that died) and is the real one everywhere else, including the
# merge job's `merge` and `compare`.
cat >"$work/crashy-gpubench" <<EOF
#!/bin/sh
case "\${1:-}" in merge|compare) exec "$bin" "\$@" ;; esac
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ]; then
  echo "gpubench: simulated crash in task 1" >&2
  ulimit -c 0
  kill -SEGV \$\$
fi
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 2 ]; then
  kill -KILL \$PPID
  exit 0
fi
exec "$bin" "\$@"
EOF
chmod +x "$work/crashy-gpubench"

# Submits a fleet of $1 tasks; sets job, mjob and dir from the launcher's output.
submit() {
  local out n=$1
  shift
  out=$("$fleet" --results "$work/results" --tasks "$n" --time 10 "$@" 2>&1)
  local rc=$?
  echo "$out"
  [ "$rc" = 0 ] || { fail "scripts/slurm/fleet $* exited $rc"; return 1; }
  dir=$(sed -n 's/^results: *//p' <<<"$out")
  local ids
  ids=$(sed -n 's/^watch: *squeue -j //p' <<<"$out")
  job=${ids%%,*}
  mjob=${ids##*,}
  [ -n "$dir" ] && [ -n "$job" ] && [ -n "$mjob" ] || {
    fail "no job ids or folder printed"; return 1
  }
}

# Waits until jobs $1 and $2 have left the queue; fails after WAIT_LIMIT seconds.
wait_jobs() {
  local t0=$SECONDS q
  while :; do
    q=$(squeue -h -j "$1,$2" -o '%i %T %r' 2>/dev/null)
    [ -z "$q" ] && { echo "jobs $1,$2 done after $((SECONDS - t0)) s"; return 0; }
    if [ $((SECONDS - t0)) -ge "$WAIT_LIMIT" ]; then
      fail "jobs $1,$2 still queued after $WAIT_LIMIT s:"
      echo "$q"
      local_slurm_logs "$cluster"
      return 1
    fi
    sleep 2
  done
}

# Field of `scontrol show job $1` (JobState, ExitCode, ...).
job_field() {
  scontrol -o show job "$1" 2>/dev/null | head -n 1 | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# Prints the folder's logs (for a failed check).
show_dir() {
  local f
  for f in "$dir"/merge.log "$dir"/task-*.log "$dir"/task-*.exit "$dir"/compare.err; do
    [ -f "$f" ] && { echo "--- $f"; cat "$f"; }
  done
}

# The distinct values of slurm_job_id, slurm_array_task_id, run_id and host of a merged CSV, one
# "job task run host" line per run. Those four never hold quotes or commas, and they sit before
# the first free-text column (note) and after the last one: the Slurm pair is counted from the
# end, past the columns after it (telemetry: numbers and words without commas).
runs_of() {
  local after
  after=$(head -n 1 "$1" | awk -F, '{ for (i = 1; i <= NF; i++)
                                        if ($i == "slurm_array_task_id") print NF - i }')
  tail -n +2 "$1" | awk -F, -v a="$after" '{ print $(NF-1-a), $(NF-a), $2, $4 }' | sort -u
}

echo "=== 1. three tasks, afterok"
if submit 3 --gpubench "$bin" -- --quick -d cpu; then
  wait_jobs "$job" "$mjob"
  csv=$dir/fleet.csv
  if [ -s "$csv" ]; then
    head -n 1 "$csv" | grep -Eq ',slurm_job_id,slurm_array_task_id(,|$)' ||
      fail "fleet.csv header lacks the Slurm columns: $(head -n 1 "$csv")"
    runs=$(runs_of "$csv")
    echo "$runs"
    [ "$(wc -l <<<"$runs")" = 3 ] && pass "fleet.csv holds 3 runs" ||
      fail "fleet.csv does not hold 3 runs"
    [ "$(awk '{print $1}' <<<"$runs" | sort -u)" = "$job" ] &&
      pass "every row carries slurm_job_id $job" || fail "slurm_job_id is not $job on every row"
    [ "$(awk '{print $2}' <<<"$runs" | sort -n | tr '\n' ' ')" = "0 1 2 " ] &&
      pass "slurm_array_task_id 0, 1, 2" || fail "task ids are not 0 1 2"
    [ "$(awk '{print $4}' <<<"$runs" | sort -u)" = "$node" ] &&
      pass "host is the node name $node" || fail "host is not $node"
    rows=$(($(wc -l <"$csv") - 1))
    per=$(($(wc -l <"$dir/task-0.csv") - 1))
    [ "$rows" = $((3 * per)) ] && [ "$per" -gt 0 ] && pass "$rows rows = 3 x $per" ||
      fail "fleet.csv has $rows rows, expected 3 x $per"
    "$bin" merge "$csv" --out "$work/recheck.csv" >/dev/null 2>&1 &&
      pass "fleet.csv reads back as a gpubench-1 CSV" || fail "fleet.csv does not read back"
  else
    fail "no fleet.csv"
  fi
  [ -s "$dir/report.txt" ] && pass "report.txt exists" || fail "no report.txt"
  [ "$(job_field "$mjob" ExitCode)" = "0:0" ] && pass "merge job exit 0" ||
    fail "merge job ExitCode $(job_field "$mjob" ExitCode)"
  for t in 0 1 2; do
    grep -qx "exit=0" "$dir/task-$t.exit" 2>/dev/null || fail "task-$t.exit does not say exit=0"
  done
  [ "$fails" = 0 ] && { echo "--- report.txt"; cat "$dir/report.txt"; } || show_dir
fi

echo "=== 2. task 1 crashes, task 2 dies, --afterany"
f0=$fails
if submit 4 --gpubench "$work/crashy-gpubench" --afterany -- --quick -d cpu -w "$wl"; then
  wait_jobs "$job" "$mjob"
  [ "$(job_field "$mjob" ExitCode)" = "1:0" ] && pass "merge job exit 1 (a task failed)" ||
    fail "merge job ExitCode $(job_field "$mjob" ExitCode), expected 1:0"
  grep -q "task 1 on $node: failed: exit 139.*signal 11.*simulated crash in task 1" \
    "$dir/merge.log" && pass "the merge names task 1, its node, exit code and why" ||
    fail "merge.log does not explain task 1"
  grep -q "task 2 on $node: failed: exit 137, no CSV: Slurm says FAILED, exit code 0:9" \
    "$dir/merge.log" && pass "the merge names task 2 with what Slurm recorded" ||
    fail "merge.log does not explain task 2"
  if [ -s "$dir/fleet.csv" ]; then
    [ "$(runs_of "$dir/fleet.csv" | awk '{print $2}' | sort -n | tr '\n' ' ')" = "0 3 " ] &&
      pass "tasks 0 and 3 merged" || fail "fleet.csv does not hold exactly tasks 0 and 3"
  else
    fail "no fleet.csv from the tasks that finished"
  fi
  [ -s "$dir/report.txt" ] && pass "report.txt exists" || fail "no report.txt"
  [ "$fails" = "$f0" ] || show_dir
fi

echo "=== 3. task 1 crashes, afterok"
f0=$fails
if submit 3 --gpubench "$work/crashy-gpubench" -- --quick -d cpu -w "$wl"; then
  wait_jobs "$job" "$mjob"
  state=$(job_field "$mjob" JobState)
  [ "$state" = CANCELLED ] && pass "merge job cancelled (dependency never satisfied)" ||
    fail "merge job state $state, expected CANCELLED"
  [ ! -e "$dir/fleet.csv" ] && pass "nothing merged" || fail "fleet.csv exists although afterok"
  [ "$fails" = "$f0" ] || show_dir
fi

if [ "$fails" = 0 ]; then
  echo "all passed"
  exit 0
fi
echo "$fails check(s) failed"
exit 1
