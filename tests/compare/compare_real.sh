#!/bin/sh
# compare_real.sh — `gpubench compare` and scripts/plot on real CSVs: two short CPU runs of this
# machine (three vecadd sizes, so there is a sweep to plot), compared in both modes and plotted.
# The timings are real and noisy, so the verdicts are not asserted, only that they are made
# the right way and the exit code means what it says.
# usage: compare_real.sh GPUBENCH PYTHON PLOT_SCRIPT TEST_COMPARE_PLOT
set -u
G=$1 PY=$2 PLOT=$3 PLOTTEST=$4
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
run() {
    "$G" -d cpu -w vecadd,gemm -s vecadd:n=4096 -s vecadd:n=65536 -s vecadd:n=1048576 \
        -s gemm:m=64,n=64,k=64 --min-time 0.02 --reps 8 --warmup 1 \
        --out "$1.csv" --samples "$1.samples.csv" >"$1.txt" 2>&1
}
check "first run" run a
check "second run" run b

"$G" compare a.csv b.csv --samples a.samples.csv --samples b.samples.csv >reg.txt 2>&1
rc=$?
cat reg.txt
check "regression mode exits 0 or 1, got $rc" [ "$rc" = 0 -o "$rc" = 1 ]
check "every row tested on its samples" grep -q "7 rows: Mann-Whitney U test on the samples" reg.txt
if [ "$rc" = 1 ]; then
    check "exit 1 comes with REGRESSION" grep -q "^REGRESSION: " reg.txt
else
    check "exit 0 comes with no regression" grep -q "^no regression" reg.txt
fi
check "same machine: nothing differs" grep -q "differs: nothing recorded" reg.txt

"$G" compare --baseline cpu a.csv b.csv --format csv >sd.csv 2>sd.err
check "slowdown mode exits 0" [ $? = 0 ]
check "slowdown csv has ratios for the second run" grep -q "^line,vecadd,n=4096,float32,cpu,cpu,.*,b.csv," sd.csv
"$G" compare a.csv b.csv --format json >reg.json
check "regression json is JSON" "$PY" -m json.tool reg.json >/dev/null

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
