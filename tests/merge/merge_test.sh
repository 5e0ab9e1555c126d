#!/bin/bash
# tests/merge/merge_test.sh — `gpubench merge` on real run CSVs and hand-made fleet folders:
# good merges, every kind of bad input, and the accounting of missing and failed tasks.
#
# usage: merge_test.sh GPUBENCH WORKLOAD IMPL   (runs WORKLOAD/IMPL, a CPU implementation, to
#        have real run CSVs: tests/CMakeLists.txt's test workload)
# Each case: arguments -> exit code, a pattern its stderr must match, and whether the output
# file may exist. A refused merge (exit 1 without --allow-missing, exit 2) must leave no file.
set -u
bin=$(readlink -f "${1:?usage: merge_test.sh GPUBENCH WORKLOAD IMPL}")
wl=${2:?usage: merge_test.sh GPUBENCH WORKLOAD IMPL}
impl=${3:?usage: merge_test.sh GPUBENCH WORKLOAD IMPL}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fails=0 cases=0
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

# check NAME WANT_RC REGEX OUT_SHOULD_EXIST(yes|no) ARGS... — runs `gpubench merge ARGS`.
check() {
  local name=$1 want=$2 regex=$3 exists=$4
  shift 4
  rm -f out.csv out.csv.partial
  cases=$((cases + 1))
  "$bin" merge "$@" >stdout.txt 2>stderr.txt
  local rc=$? why=""
  [ "$rc" = "$want" ] || why="exit $rc, expected $want"
  [ -z "$regex" ] || grep -Eq -- "$regex" stderr.txt || why="$why; stderr does not match /$regex/"
  if [ "$exists" = no ] && [ -e out.csv ]; then why="$why; out.csv was written"; fi
  if [ "$exists" = yes ] && [ ! -s out.csv ]; then why="$why; no out.csv"; fi
  [ -e out.csv.partial ] && why="$why; out.csv.partial left behind"
  if [ "$want" = 2 ] && [ "$(grep -c . stderr.txt)" != 1 ]; then why="$why; not one line"; fi
  if [ -n "$why" ]; then
    bad "$name: ${why#; }"
    sed 's/^/    /' stderr.txt
  else
    echo "ok   $name"
  fi
}

# also NAME REGEX — the last case's stderr must also match REGEX.
also() { grep -Eq -- "$2" stderr.txt || bad "$1: stderr does not match /$2/"; }

# Real runs to merge: three tiny CPU runs.
for r in r1 r2 r3; do
  "$bin" --quick -d cpu -w "$wl" -i "$impl" --reps 1 --warmup 0 --min-time 0 \
    --out $r.csv --samples $r.samples.csv >/dev/null 2>&1 ||
    { echo "FAIL: gpubench could not make $r.csv"; exit 1; }
done
rows1=$(($(wc -l <r1.csv) - 1))

# --- plain files ----------------------------------------------------------------------------
check one_file 0 "wrote out.csv: $rows1 rows from 1 run CSV$" yes r1.csv --out out.csv
check two_files 0 "wrote out.csv: $((2 * rows1)) rows from 2 run CSVs" yes \
  r1.csv r2.csv --out out.csv
[ "$(head -n 1 out.csv)" = "$(head -n 1 r1.csv)" ] || bad "two_files: header changed"
[ "$(tail -n +2 out.csv)" = "$(tail -q -n +2 r1.csv r2.csv)" ] ||
  bad "two_files: rows are not r1's then r2's, unchanged"
cp out.csv both.csv
check remerge_merged 2 "r1.csv:2: column run_id: run .* is also in both.csv:2 \(the same run" no \
  both.csv r1.csv --out out.csv
check same_file_twice 2 "the same run given twice" no r1.csv r3.csv r1.csv --out out.csv
check samples_file 2 "r1.samples.csv:1: column schema: missing: this is a samples file, not a \
run CSV$" no r1.csv r1.samples.csv --out out.csv
head -n 2 r1.csv >ragged.csv
tail -n 1 r1.csv | sed 's/,[^,]*$//' >>ragged.csv
last=$(head -n 1 r1.csv | awk -F, '{ print $NF }') # the column the ragged row lacks
check ragged_row 2 "ragged.csv:3: column $last: missing" no \
  r2.csv ragged.csv --out out.csv
sed '2s/^gpubench-1,/gpubench-2,/' r1.csv >v2.csv
check other_schema 2 "v2.csv:2: column schema: 'gpubench-2' is not gpubench-1" no \
  v2.csv --out out.csv
head -n 1 r1.csv >header_only.csv
check no_rows 2 "header_only.csv:2: .*no result rows" no header_only.csv --out out.csv
check missing_file 2 "nope.csv: cannot open" no r1.csv nope.csv --out out.csv
check out_folder_missing 2 "--out: folder nowhere does not exist" no r1.csv --out nowhere/out.csv
check out_unwritable 2 "--out: .*/proc" no r1.csv --out /proc/out.csv
# a write that fails (a full disk) is exit 1, as a run's, not bad usage
if [ -w /dev/full ]; then
  check out_full 1 "--out: /dev/full: write (error|failed)" no r1.csv --out /dev/full
fi
check no_out 2 "--out FLEET.csv is required" no r1.csv
check no_input 2 "no input" no --out out.csv
check unknown_option 2 "unknown option '--bogus'" no r1.csv --out out.csv --bogus
check help 0 "" no --help
grep -q "usage: gpubench merge" stdout.txt || bad "help: no usage on stdout"

# Extra columns: the union, in first-seen order; empty where a file lacks one.
awk -F, -v OFS=, 'NR == 1 { print $0, "site" } NR > 1 { print $0, "lab-" NR }' r3.csv >site.csv
check extra_columns 0 "wrote out.csv" yes r1.csv site.csv --out out.csv
head -n 1 out.csv | grep -q ",$last,site\$" ||
  bad "extra_columns: header $(head -n 1 out.csv)"
[ "$(sed -n 2p out.csv | awk -F, '{print $NF}')" = "" ] || bad "extra_columns: r1 has a site"
[ "$(tail -n 1 out.csv | awk -F, '{print $NF}')" = "lab-$((rows1 + 1))" ] ||
  bad "extra_columns: site.csv's site cells lost"

# --- a fleet folder: task 0 ok, 1 failed (exit 2, log says why), 2 missing, 3 ok, 4 partial ---
f=fleet
mkdir $f
printf 'job=77\ntasks=5\nexpect_gpu=no\n' >$f/fleet.conf
cp r1.csv $f/task-0.csv
printf 'task=0\nnode=n0\nexit=0\nreason=\n' >$f/task-0.exit
printf 'task=1\nnode=n1\nexit=2\nreason=gpubench rejected its arguments or input\n' >$f/task-1.exit
printf 'fleet-task: ...\ngpubench: --device: cuda:3: no such CUDA device\n' >$f/task-1.log
cp r2.csv $f/task-3.csv
printf 'task=3\nnode=n3\nexit=0\n' >$f/task-3.exit
head -n 2 r3.csv >$f/task-4.csv.partial
check fleet_incomplete 1 "task 1 on n1: failed: exit 2, no CSV: gpubench rejected its arguments \
or input: gpubench: --device: cuda:3: no such CUDA device \(log fleet/task-1.log\)" no \
  $f --out out.csv
also fleet_incomplete "task 2: missing: no CSV and no exit record"
also fleet_incomplete "task 4: missing: no CSV, only its .partial"
also fleet_incomplete "3 of 5 tasks missing or failed; nothing written"
check fleet_allow_missing 1 "wrote out.csv: $((2 * rows1)) rows from 2 run CSVs \(some tasks" \
  yes $f --out out.csv --allow-missing --list list.txt
[ "$(cat list.txt)" = "$(printf '%s\n' $f/task-0.csv $f/task-3.csv)" ] ||
  bad "fleet_allow_missing: --list holds $(cat list.txt)"
also fleet_allow_missing "task 0 on n0: ok, $rows1 rows"

# A task whose CSV is broken, one that exited 1 (rows wrong: merged, but named), and in a GPU
# fleet a node that had no GPU (merged, named with gpubench's reason).
g=fleet2
mkdir $g
printf 'tasks=3\nexpect_gpu=yes\n' >$g/fleet.conf
cp ragged.csv $g/task-0.csv
cp r1.csv $g/task-1.csv
printf 'node=n1\nexit=1\nreason=some rows are wrong or error\n' >$g/task-1.exit
cp r2.csv $g/task-2.csv
printf 'node=n2\nexit=0\n' >$g/task-2.exit
printf 'gpubench: no GPU rows: no NVIDIA driver is loaded (cudaErrorInsufficientDriver)\n' \
  >$g/task-2.log
check fleet_bad_tasks 1 "task 0: failed: its CSV is not usable: $g/task-0.csv:3: column \
$last: missing" yes $g --out out.csv --allow-missing
also fleet_bad_tasks "task 1 on n1: failed: exit 1: some rows are wrong or error"
also fleet_bad_tasks "task 2 on n2: failed: no usable GPU: no NVIDIA driver is loaded"
[ $(($(wc -l <out.csv) - 1)) = $((2 * rows1)) ] || bad "fleet_bad_tasks: tasks 1, 2 not merged"

# Each task's real exit status, and what happens to the rows of a task that failed: task 0
# exited 0 without a CSV (not "gpubench failed"), task 1 crashed after writing its CSV (139: its
# rows are merged with --allow-missing, and the line says so), task 2 never ran and Slurm
# recorded no exit status for it (no made-up "exit 0").
h=fleet3
mkdir $h
printf 'tasks=3\nexpect_gpu=no\n' >$h/fleet.conf
printf 'task=0\nnode=n0\nexit=0\nreason=\n' >$h/task-0.exit
cp r1.csv $h/task-1.csv
printf 'task=1\nnode=n1\nexit=139\nreason=gpubench killed by signal 11\n' >$h/task-1.exit
printf 'task=2\nexit=0\nsource=slurm\nreason=Slurm says NODE_FAIL, exit code 0:0\n' >$h/task-2.exit
check fleet_exit_status 1 "task 0 on n0: failed: exit 0, no CSV: .*left no CSV" no $h --out out.csv
also fleet_exit_status "task 1 on n1: failed: exit 139: gpubench killed by signal 11; its CSV's \
$rows1 rows would be merged with --allow-missing"
also fleet_exit_status "task 2: failed: no CSV: Slurm says NODE_FAIL"
grep -q "exit 0, no CSV: Slurm" stderr.txt && bad "fleet_exit_status: Slurm's record read as exit 0"
check fleet_crash_merged 1 "task 1 on n1: failed: exit 139: .*its CSV's $rows1 rows are merged" \
  yes $h --out out.csv --allow-missing
[ $(($(wc -l <out.csv) - 1)) = "$rows1" ] || bad "fleet_crash_merged: task 1's rows not merged"
rm -f $h/task-1.exit && printf 'task=1\nnode=n1\nexit=139\n' >$h/task-1.exit
check fleet_signal_named 1 "task 1 on n1: failed: exit 139: killed by signal 11 \(" no \
  $h --out out.csv
# An exit record that is there but cannot be read is said so, with why; never a made-up status
# ("exit 255: killed by signal 127").
: >$h/task-1.exit
rm -f $h/task-0.exit && printf 'task=0\nnode=n0\nexit=\n' >$h/task-0.exit
check fleet_exit_unreadable 1 "task 1 .*failed: its exit record is unreadable: task-1.exit is empty \(the task was killed" \
  no $h --out out.csv
also fleet_exit_unreadable "task 0: failed: no CSV, and its exit record is unreadable: task-0.exit holds no exit status"
grep -q "signal 127\|exit 255" stderr.txt && bad "fleet_exit_unreadable: a made-up exit status"
rm -f $h/task-1.exit && mkdir $h/task-1.exit
check fleet_exit_not_file 1 "task 1 .*failed: its exit record is unreadable: task-1.exit is not a regular file" \
  no $h --out out.csv

# A fleet folder with a duplicate of another task's run is bad input, not a failed task.
cp -r $f dup && cp dup/task-0.csv dup/task-3.csv
check fleet_duplicate 2 "dup/task-3.csv:2: column run_id: run .* is also in dup/task-0.csv:2" no \
  dup --out out.csv --allow-missing
mkdir empty
check not_a_fleet 2 "^gpubench merge: empty: not a fleet results folder" no empty --out out.csv
printf 'tasks=zero\n' >empty/fleet.conf
check bad_conf 2 "empty/fleet.conf: tasks='zero' is not a task count" no empty --out out.csv
# Without fleet.conf the tasks are those that left a trace: 0..3 here, 1 and 2 missing.
mkdir bare && cp r1.csv bare/task-0.csv && cp r2.csv bare/task-3.csv
check no_conf 1 "task 1: missing" no bare --out out.csv
also no_conf "task 2: missing"

echo "$cases cases, $fails failed"
[ "$fails" = 0 ]
