#!/bin/bash
# tests/compare/runs_test.sh — `gpubench --runs N`, the evidence of compare's verdicts: N runs
# in separate processes, each with its own row order and samples, in one CSV with a `run`
# column; Ctrl-C (SIGINT) keeps the runs finished; a usage error leaves nothing behind; two
# such files compare as N runs against N.
#
# usage: runs_test.sh GPUBENCH W W2   (workloads with CPU implementations: tests/CMakeLists.txt)
set -u
bin=$(readlink -f "${1:?usage: runs_test.sh GPUBENCH W W2}")
w=${2:?usage: runs_test.sh GPUBENCH W W2}
w2=${3:-$w}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }
col() { # col FILE NAME...: the values of columns NAME..., one row a line, '/'-joined
  python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print("/".join(r[c] for c in sys.argv[2:]))' "$@"
}
quick=(--quick -d cpu -w "$w,$w2" --min-time 0.01 --reps 3 --warmup 0)

echo "=== three runs"
"$bin" "${quick[@]}" --runs 3 --out a.csv --samples a.samples.csv >a.out 2>a.err
rc=$?
[ "$rc" = 0 ] && pass "exit 0" || { fail "exit $rc"; cat a.err; }
[ -s a.csv ] && [ ! -e a.csv.partial ] && pass "one CSV, committed" || fail "no a.csv"
ls a.csv.run* a.samples.csv.run* >/dev/null 2>&1 && fail "a run's own file left behind" ||
  pass "no per-run files left"
[ "$(head -n 1 a.csv | grep -c ',note,\(.*,\)\?run,slurm_job_id,slurm_array_task_id\(,\|$\)')" = 1 ] &&
  pass "header: note, run, then the Slurm columns (then telemetry)" ||
  fail "header $(head -n 1 a.csv)"
runs=$(col a.csv run_id | sort -u | wc -l)
[ "$runs" = 3 ] && pass "3 run ids" || fail "$runs run ids"
[ "$(col a.csv run | sort -u | tr '\n' ' ')" = "0 1 2 " ] && pass "run column 0, 1, 2" ||
  fail "run column: $(col a.csv run | sort -u | tr '\n' ' ')"
per=$(($(wc -l <a.csv) - 1))
[ $((per % 3)) = 0 ] && [ "$per" -ge 6 ] && pass "$per rows, the same in each run" ||
  fail "$per rows"
[ "$(col a.samples.csv run_id | sort -u | wc -l)" = 3 ] && pass "samples of all 3 runs" ||
  fail "samples: $(col a.samples.csv run_id | sort -u | wc -l) runs"
orders=$(for r in 0 1 2; do
  col a.csv run workload impl shape | grep "^$r/" | tr '\n' ' '
  echo
done | sort -u | wc -l)
[ "$orders" -gt 1 ] && pass "rows in $orders different orders (shuffled per run)" ||
  fail "every run ran its rows in the same order"
[ "$(grep -c '^gpubench: run [0-9] of 3 done$' a.err)" = 3 ] && pass "says when each run is done" ||
  fail "no 'run i of 3 done' lines"
grep -q "^gpubench: wrote a.csv (3 runs)$" a.err && pass "wrote a.csv (3 runs)" ||
  fail "no 'wrote' line: $(tail -n 1 a.err)"

echo "=== compared: runs against runs"
"$bin" "${quick[@]}" --runs 3 --out b.csv >/dev/null 2>&1 || fail "second set of runs"
"$bin" compare a.csv b.csv >cmp.txt 2>&1
rc=$?
if [ "$rc" = 0 ] || [ "$rc" = 1 ]; then pass "compare exit $rc"; else
  fail "compare exit $rc"
  cat cmp.txt
fi
grep -q "^base: 3 runs of a.csv" cmp.txt && grep -q " 3/3 " cmp.txt &&
  grep -q "Welch's t-test on the log medians" cmp.txt && pass "3 runs against 3, Welch on runs" ||
  { fail "not compared as runs"; cat cmp.txt; }

echo "=== usage errors leave nothing behind"
"$bin" "${quick[@]}" --runs 2 -w nosuchworkload --out c.csv >c.out 2>c.err
rc=$?
[ "$rc" = 2 ] && [ "$(grep -c . c.err)" = 1 ] && pass "exit 2, one line: $(cat c.err)" ||
  { fail "exit $rc"; cat c.err; }
[ -z "$(ls c.csv* 2>/dev/null)" ] && pass "no c.csv" || fail "left $(ls c.csv*)"
"$bin" --runs 2 --format csv --out d.csv >/dev/null 2>d.err
[ $? = 2 ] && grep -q "with --runs the run CSV (--out) holds every run" d.err &&
  pass "--format csv with --runs refused" || fail "--format csv with --runs: $(cat d.err)"
"$bin" --runs 2 --format gbench --out d.csv >/dev/null 2>d.err
[ $? = 2 ] && grep -q -- "--format gbench: one document per run" d.err &&
  pass "--format gbench with --runs refused" || fail "--format gbench with --runs: $(cat d.err)"
for extra in "--json d.json" "--no-out" "--out d.json" "-o /dev/null"; do
  # shellcheck disable=SC2086 # the option and its value are two words
  "$bin" --runs 2 $extra >/dev/null 2>d.err
  [ $? = 2 ] && [ "$(wc -l <d.err)" = 1 ] &&
    grep -q -- "^gpubench: --runs: gathers the runs" d.err && [ -z "$(ls d.json* 2>/dev/null)" ] &&
    pass "--runs with $extra refused, one line, no file" ||
    fail "--runs with $extra: $(cat d.err)"
done
"$bin" --runs 0 --out d.csv >/dev/null 2>d.err
[ $? = 2 ] && grep -q -- "--runs" d.err && pass "--runs 0 refused" || fail "--runs 0: $(cat d.err)"

echo "=== Ctrl-C keeps the runs finished"
# a name no other process has (other builds' runs of gpubench may be going on): the check below
# looks for this test's runs by it
e="e-$$.csv"
"$bin" -d cpu -w "$w" --min-time 2 --runs 5 --out "$e" >/dev/null 2>e.err &
pid=$!
# after the first run is done (a run interrupted before any row leaves no file: stop_signals.py)
for _ in $(seq 600); do grep -q "run 1 of 5 done" e.err && break; sleep 0.1; done
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] && pass "exit 130" || fail "exit $rc after SIGINT"
[ -s "$e" ] && [ ! -e "$e.partial" ] && pass "$e committed" || fail "no $e"
ls "$e".run* >/dev/null 2>&1 && fail "a run's file left behind" || pass "no per-run files"
grep -q "interrupted" e.err && pass "says it was interrupted" || fail "$(tail -n 2 e.err)"
sleep 1
pgrep -f -- "--out e-$$\\.csv\\.run" >/dev/null && fail "a run still runs after the parent ended" ||
  pass "no run left running"

echo "$fails check(s) failed"
[ "$fails" = 0 ]
