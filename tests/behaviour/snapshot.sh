#!/usr/bin/env bash
# snapshot.sh — what gpubench shows a user, captured as plain text, so that a refactoring can
# prove it changed nothing: the CSV header and every row's identity and status of a `--quick`
# CPU run, `list` (without the machine-specific devices), `doctor --assume` on hypothetical
# cards and builds (text and JSON), `compare` in both modes and formats and its refusals on the
# fixed files of tests/data/compare (regression mode on one run and on five runs per side), and
# `merge` on fixed files.
#
# usage: snapshot.sh GPUBENCH OUT_DIR              write one file per case into OUT_DIR
#        snapshot.sh GPUBENCH --check GOLDEN_DIR   compare with GOLDEN_DIR; exit 1 on a change
#        snapshot.sh GPUBENCH --update GOLDEN_DIR  rewrite GOLDEN_DIR (an intended change)
#
# Each case file holds the exit code, stdout and stderr. Paths are written as $DATA (the
# repository's tests/data) and $WORK (a scratch folder), so the snapshot does not depend on
# where the tree is; machine facts (host name, CPU model, timings) are left out of the cases.
set -u
unset COLUMNS # the wide form, as for a file or pipe (tables fit COLUMNS when it is set)
bin=$(readlink -f "${1:?usage: snapshot.sh GPUBENCH OUT_DIR | --check DIR | --update DIR}")
mode=write
case "${2:-}" in
--check | --update) mode=${2#--}; dest=${3:?missing GOLDEN_DIR} ;;
*) dest=${2:?missing OUT_DIR} ;;
esac
mkdir -p "$dest" && dest=$(cd "$dest" && pwd) || exit 2
data=$(cd "$(dirname "$0")/../data" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
out=$work/snapshot
mkdir -p "$out"
cd "$work" || exit 1

# case NAME ARGS... — run gpubench ARGS, keep exit code, stdout and stderr, paths normalized.
case_() {
    local name=$1
    shift
    "$bin" "$@" >"$work/o" 2>"$work/e"
    local rc=$?
    {
        echo "exit: $rc"
        echo "--- stdout"
        cat "$work/o"
        echo "--- stderr"
        cat "$work/e"
    } | sed -e "s|$data|\$DATA|g" -e "s|$work|\$WORK|g" >"$out/$name.txt"
}

# --- run: the header and each row's identity and status (timings and machine facts vary) ---
"$bin" --quick -d cpu --reps 1 --warmup 0 --min-time 0 --out run.csv >/dev/null 2>"$work/e"
echo "exit: $?" >"$out/run_quick_cpu.txt"
# Columns by name, so that a reordering would show: device workload impl dtype shape status.
awk -F, 'NR == 1 { print; for (i = 1; i <= NF; i++) col[$i] = i; next }
         { print $col["device"] "," $col["workload"] "," $col["impl"] "," $col["dtype"] "," \
                 $col["shape"] "," $col["status"] }' run.csv >>"$out/run_quick_cpu.txt"

# --- list: everything up to the machine's devices -----------------------------------------
"$bin" list | sed '/^devices:/,$d' >"$out/list.txt"

# --- doctor on assumed cards and builds --------------------------------------------------
B13="cuda=13.0,archs=75-real 80-real 86-real 89-real 90-real 100-real 120,cublas=yes,cudnn=9.19"
B11="cuda=11.8,archs=35-real 37-real 50-real 60-real 70-real 75-real 80-real 86-real 89-real 90,cublas=yes,cudnn=8.9"
B8="cuda=8.0,archs=20-real 30-real 35-real 50-real 60,cublas=yes,cudnn=none"
K40M='cc=3.5,name="Tesla K40m",mem=12GiB,driver=470.82'
NVS310='cc=2.1,name="NVS 310",mem=512MiB,driver=390.157'
for fmt in text json; do
    case_ doctor_k40m_cuda13_$fmt doctor --assume "$K40M" --assume-build "$B13" --format $fmt
    case_ doctor_k40m_cuda118_$fmt doctor --assume "$K40M" --assume-build "$B11" --format $fmt
    case_ doctor_nvs310_cuda8_$fmt doctor --assume "$NVS310" --assume-build "$B8" --format $fmt
    case_ doctor_nvs310_cuda13_$fmt doctor --assume "$NVS310" --assume-build "$B13" --format $fmt
    case_ doctor_old_driver_$fmt doctor --assume cc=8.9,name=RTX4090,driver=535.54.03 \
        --assume-build "$B13" --format $fmt
    case_ doctor_jit_$fmt doctor --assume cc=12.0,name=RTX5090,driver=570.26 --assume-build "$B11" \
        --format $fmt
    case_ doctor_two_$fmt doctor --assume "$K40M" --assume cc=7.5,name=T4,driver=580.95.05 \
        --assume-build "$B13" --format $fmt
    case_ doctor_no_driver_$fmt doctor --assume cc=8.0,name=A100,driver=none --assume-build "$B13" \
        --format $fmt
done
case_ doctor_bad_key doctor --assume cc=3.5,foo=1
case_ doctor_bad_build doctor --assume cc=3.5 --assume-build archs=35-foo

# --- compare on the fixed files -----------------------------------------------------------
c=$data/compare
for fmt in table markdown csv json; do
    case_ compare_slowdown_$fmt compare --baseline cpu "$c/sd_a.csv" "$c/sd_b.csv" --format $fmt
    case_ compare_regression_$fmt compare "$c/reg_base.csv" "$c/reg_new.csv" --format $fmt
    case_ compare_runs_$fmt compare "$c/reg_runs_base.csv" "$c/reg_runs_new.csv" --format $fmt
    case_ compare_real_$fmt compare "$c/real/quick_cpu.csv" "$c/real/quick_cpu.csv" \
        --samples "$c/real/quick_cpu.samples.csv" --format $fmt
done
case_ compare_file_baseline compare --baseline "$c/sd_b.csv:cuda:0" "$c/sd_a.csv" "$c/sd_b.csv"
case_ compare_same compare "$c/reg_base.csv" "$c/reg_same.csv"
case_ compare_runs_sides_strict compare --base "$c/reg_runs_base.csv" --new "$c/reg_runs_new.csv" \
    --strict --threshold 3
case_ compare_two_hosts compare "$c/sd_a.csv" "$c/sd_b.csv"
case_ compare_sweep compare --baseline cpu "$c/real/sweep_vecadd_cpu.csv"
case_ compare_crlf compare --baseline cpu "$c/crlf_quoted.csv"
for fmt in table json; do
    case_ compare_tiers_$fmt compare --baseline cpu "$c/tiers.csv" --format $fmt
done
for f in "$c"/bad/*.csv; do
    name=$(basename "$f" .csv)
    case "$name" in
    *.samples) case_ "compare_bad_${name%.samples}_samples" compare "$c/sd_a.csv" "$c/sd_a.csv" \
        --samples "$f" ;;
    *) case_ "compare_bad_$name" compare "$c/sd_a.csv" "$f" ;;
    esac
done

# --- merge on the fixed files ---------------------------------------------------------------
case_ merge_two merge "$c/real/quick_cpu.csv" "$c/real/sweep_vecadd_cpu.csv" --out merged.csv
{ echo "--- merged.csv"; cat merged.csv 2>/dev/null; } >>"$out/merge_two.txt"
case_ merge_same_twice merge "$c/real/quick_cpu.csv" "$c/real/quick_cpu.csv" --out m2.csv
case_ merge_bad merge "$c/bad/ragged.csv" --out m3.csv

case $mode in
write)
    mkdir -p "$dest" && cp "$out"/*.txt "$dest"/
    ;;
update)
    rm -rf "$dest" && mkdir -p "$dest" && cp "$out"/*.txt "$dest"/ &&
        echo "snapshot: updated $dest ($(ls "$out" | wc -l) cases)"
    ;;
check)
    if diff -ru "$dest" "$out" >"$work/diff"; then
        echo "snapshot: $(ls "$out" | wc -l) cases unchanged"
    else
        cat "$work/diff"
        echo "snapshot: behaviour changed (above). If intended: $0 $bin --update $dest"
        exit 1
    fi
    ;;
esac
