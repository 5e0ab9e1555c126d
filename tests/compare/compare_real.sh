#!/bin/sh
# compare_real.sh — `gpubench compare` and scripts/plot on real CSVs: two short CPU invocations
# of this machine, two runs each (workload W at its three smallest sweep sizes, so there is a
# sweep to plot, and W2 at its smallest, as `gpubench list` gives them), compared in both modes
# and plotted.
# The timings are real and noisy, so the verdicts are not asserted, only that they are made
# the right way and the exit code means what it says.
# usage: compare_real.sh GPUBENCH PYTHON PLOT_SCRIPT TEST_COMPARE_PLOT W W2
#        (W, W2: workloads with CPU implementations, tests/CMakeLists.txt's test workloads)
set -u
G=$1 PY=$2 PLOT=$3 PLOTTEST=$4 W=$5 W2=$6
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail=0
check() { # check DESCRIPTION COMMAND...: count a failure unless the command succeeds
    what=$1
    shift
    if ! "$@"; then
        echo "FAIL: $what"
        fail=1
    fi
}
# sweep W N: the first N shapes of workload W's sweep (smallest first), one per line
sweep() {
    "$G" list | awk -v w="$1" -v n="$2" '/^devices:/ { exit }
        /^  [^ ]/ { mine = ($1 == w) }
        mine && $1 == "sweep" { for (i = 2; i <= n + 1 && i <= NF; i++) print $i; exit }'
}
shapes=""
for s in $(sweep "$W" 3); do shapes="$shapes -s $W:$s"; done
for s in $(sweep "$W2" 1); do shapes="$shapes -s $W2:$s"; done
check "three sweep shapes of $W and one of $W2 in gpubench list:$shapes" \
    [ "$(echo "$shapes" | wc -w)" = 8 ]
run() {
    # shellcheck disable=SC2086 # $shapes: -s W:SHAPE pairs, no spaces inside
    "$G" -d cpu -w "$W,$W2" $shapes --min-time 0.02 --reps 8 --warmup 1 --runs 2 \
        --out "$1.csv" --samples "$1.samples.csv" >"$1.txt" 2>&1
}
check "first run" run a
check "second run" run b
rows=$((($(wc -l <a.csv) - 1) / 2))
check "a row for each shape and CPU implementation, twice ($rows)" [ "$rows" -ge 4 ]

"$G" compare a.csv b.csv --samples a.samples.csv --samples b.samples.csv >reg.txt 2>&1
rc=$?
cat reg.txt
check "regression mode exits 0 or 1, got $rc" [ "$rc" = 0 -o "$rc" = 1 ]
check "every row tested on its runs" \
    grep -q "$rows rows with 2 or more runs on a side: Welch" reg.txt
check "two runs a side" [ "$(grep -c ' 2/2 ' reg.txt)" = "$rows" ]
if [ "$rc" = 1 ]; then
    check "exit 1 comes with REGRESSION" grep -q "^REGRESSION: " reg.txt
else
    check "exit 0 comes with no regression" grep -q "^no regression" reg.txt
fi
check "same machine: nothing differs" grep -q "differs: nothing recorded" reg.txt

"$G" compare --baseline cpu a.csv b.csv --format csv >sd.csv 2>sd.err
check "slowdown mode exits 0" [ $? = 0 ]
# a.csv's first row (workload, shape, dtype, impl, device) has its ratio lines for b.csv
first=$("$PY" -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(",".join(r[k] for k in ("workload", "shape", "dtype", "impl", "device")))' a.csv)
check "slowdown csv has ratios for the second run ($first)" grep -q "^line,$first,.*,b.csv," sd.csv
"$G" compare a.csv b.csv --format json >reg.json
check "regression json is JSON" "$PY" -m json.tool reg.json >/dev/null

# The same shape given three times, once with its powers of two written as 2^k (n=4096 and
# n=2^12 are one shape): one row per implementation, a file compare accepts (issue 33: the rows
# ran three times and compare refused the file as holding duplicates).
s1=$(sweep "$W" 1)
s2=$(echo "$s1" | awk -F, '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v = kv[2]; k = 0
        while (v > 1 && v % 2 == 0) { v /= 2; k++ }
        printf "%s%s=%s", (i > 1 ? "," : ""), kv[1], (v == 1 && k > 0 ? "2^" k : kv[2]) } }')
"$G" -d cpu -w "$W" -s "$W:$s1" -s "$W:$s2" -s "$W:$s1" --min-time 0.01 --reps 3 --warmup 0 \
    --out dup.csv >dup.txt 2>&1
check "a repeated --shape runs ($?)" [ -s dup.csv ]
check "the repeats are noted ($s1, $s2)" [ "$(grep -c 'the same shape as one given before' dup.txt)" = 2 ]
"$G" -d cpu -w "$W" -s "$W:$s1" --min-time 0.01 --reps 3 --warmup 0 --out once.csv >/dev/null 2>&1
check "one row per implementation" [ "$(wc -l <dup.csv)" = "$(wc -l <once.csv)" ]
check "compare accepts it" "$G" compare dup.csv -f csv >/dev/null

# the plots, from these real files
"$PLOTTEST" "$PY" "$PLOT" "$dir" a.csv b.csv
prc=$?
check "plots from real CSVs (exit $prc)" [ "$prc" = 0 -o "$prc" = 77 ]
if [ $fail = 0 ]; then
    echo "1 passed, 0 failed"
    [ "$prc" = 77 ] && exit 77
    exit 0
fi
echo "0 passed, 1 failed"
exit 1
