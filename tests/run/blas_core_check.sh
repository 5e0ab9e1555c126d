#!/bin/sh
# blas_core_check.sh — OpenBLAS's core choice end to end (harness/run/blas_core.h), on any CPU:
# OpenBLAS's pick (Prescott) and an AVX-512 CPU are injected, and the trial's hook makes
# candidates crash or verify wrong. Checked: the trial's line, the remembered choice (one line
# per key, tried again when a week old or with --blas-core trial), three processes started
# together sharing one trial, and doctor's verdict and fix for each way the core came to be.
# Where the environment sets OPENBLAS_CORETYPE, the user's value must win, and only that is
# checked; where it does not, one part sets values OpenBLAS ignores (Bogus, "SkylakeX ") for a
# single command, to see them said as such.
# usage: blas_core_check.sh PATH/TO/gpubench
set -u
G=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fails=0 passes=0
check() { # check NAME FILE REGEX: FILE matches REGEX
    if grep -Eq -- "$3" "$2"; then passes=$((passes + 1)); else
        echo "FAIL $1: /$3/ not in:"; cat "$2"; fails=$((fails + 1)); fi
}
check_not() { # check_not NAME FILE REGEX
    if grep -Eq -- "$3" "$2"; then echo "FAIL $1: /$3/ in:"; cat "$2"; fails=$((fails + 1))
    else passes=$((passes + 1)); fi
}
export GPUBENCH_TEST_BLAS_OWN_CORE=Prescott GPUBENCH_TEST_CPU_FEATURES=avx512f,avx2,fma,avx
T="-w gemm -i openblas -d cpu -q --min-time 0 --reps 1 --warmup 0 -s gemm:m=64,n=64,k=64"

if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
    XDG_CACHE_HOME=$dir/c0 "$G" doctor >user.txt 2>&1
    check user_wins user.txt "core $OPENBLAS_CORETYPE \\(OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE set by the user\\)"
    check_not user_no_trial user.txt "trial \\(SGEMM"
    echo "$passes passed, $fails failed (OPENBLAS_CORETYPE is set: only the user's value checked)"
    [ "$fails" = 0 ]; exit
fi

# Every newer candidate fails: one crashes, one verifies wrong; OpenBLAS's pick is kept, and said.
XDG_CACHE_HOME=$dir/c1 GPUBENCH_TEST_BLAS_TRIAL_FAULT=SkylakeX:crash,Haswell:wrong \
    "$G" doctor >fail.txt 2>&1
check crash_dropped fail.txt "SkylakeX died \\("
check wrong_dropped fail.txt "Haswell verified wrong"
check own_kept fail.txt "running Prescott, remembered in $dir/c1/gpubench/blas-core"
check own_verdict fail.txt "BLAS verdict +slow: OpenBLAS's generic Prescott \\(SSE3\\) kernels on an AVX-512 CPU \\(every newer core failed its trial\\)"

# A crashing candidate is dropped and the next one that verifies runs: the row says so.
XDG_CACHE_HOME=$dir/c2 GPUBENCH_TEST_BLAS_TRIAL_FAULT=SkylakeX:crash \
    "$G" $T --out r1.csv >run1.txt 2>&1
check trial_line run1.txt "OpenBLAS picked Prescott \\(SSE3\\) on this AVX-512 CPU; trial .*SkylakeX died .*Haswell [0-9.]+ ms.*; running Haswell"
check blas_lib r1.csv "core=Haswell threads=[0-9]+ \\(chosen by gpubench; OpenBLAS picked Prescott\\)"
check footer run1.txt "OpenBLAS core Haswell \\(chosen by gpubench; OpenBLAS picked Prescott\\)"
check row_ok r1.csv ",ok,"
# Remembered: no trial the second time (the hook would now fail Haswell, were it tried again).
XDG_CACHE_HOME=$dir/c2 GPUBENCH_TEST_BLAS_TRIAL_FAULT=SkylakeX:crash,Haswell:crash \
    "$G" doctor >doc2.txt 2>&1
check_not cached_no_trial doc2.txt "trial \\(SGEMM"
check cached_doctor doc2.txt "core Haswell \\(chosen by gpubench, remembered; OpenBLAS picked Prescott\\)"
check chosen_verdict doc2.txt "BLAS verdict +slow: OpenBLAS's Haswell \\(AVX2\\) kernels on an AVX-512 CPU \\(remembered from an earlier trial"
check remembered_fix doc2.txt "BLAS fix +redo the trial with --blas-core trial"
check_not remembered_not_newest doc2.txt "newest core that passed|build against a current OpenBLAS"
# A trial that every candidate passes: whatever wins, this library has the newer kernels, so no
# fix sends the user to another OpenBLAS.
XDG_CACHE_HOME=$dir/c8 "$G" doctor >passed.txt 2>&1
check passed_trial passed.txt "trial \\(SGEMM"
check_not passed_no_rebuild passed.txt "build against a current OpenBLAS"
# A forced core: the fix is to drop the option, not another OpenBLAS.
XDG_CACHE_HOME=$dir/c5 "$G" doctor --blas-core Haswell >forced.txt 2>&1
check forced_verdict forced.txt "BLAS verdict +slow: .*Haswell .*\\(forced by --blas-core\\)"
check forced_fix forced.txt "BLAS fix +drop --blas-core \\(gpubench then chooses\\)"
# --blas-core trial tries again, whatever is remembered, and the file keeps one line for the key.
XDG_CACHE_HOME=$dir/c2 GPUBENCH_TEST_BLAS_TRIAL_FAULT=SkylakeX:crash \
    "$G" doctor --blas-core trial >redo.txt 2>&1
check redo_trial redo.txt "trial \\(SGEMM.*SkylakeX died .*; running Haswell"
check one_line_per_key "$dir/c2/gpubench/blas-core" "."
[ "$(wc -l <"$dir/c2/gpubench/blas-core")" = 1 ] && passes=$((passes + 1)) ||
    { echo "FAIL one_line: the cache holds:"; cat "$dir/c2/gpubench/blas-core"; fails=$((fails + 1)); }
# A remembered choice older than a week is tried again (its trial time made old here).
awk 'BEGIN { FS = OFS = "\t" } { $3 = 1000; print }' "$dir/c2/gpubench/blas-core" >old.txt &&
    cp old.txt "$dir/c2/gpubench/blas-core"
XDG_CACHE_HOME=$dir/c2 GPUBENCH_TEST_BLAS_TRIAL_FAULT=SkylakeX:crash "$G" doctor >aged.txt 2>&1
check aged_retrial aged.txt "trial \\(SGEMM \\+ DGEMM, verified, the remembered choice proved again\\)"
XDG_CACHE_HOME=$dir/c2 "$G" doctor >aged2.txt 2>&1
check_not aged_then_kept aged2.txt "trial \\(SGEMM"

# A gemm row that verifies wrong on the remembered core strikes it (the hook poisons the
# openblas row's output after its run, so the real verification fails): the row says so, and
# the next run tries again without it.
XDG_CACHE_HOME=$dir/c2 GPUBENCH_TEST_BLAS_ROW_WRONG=1 "$G" $T --out r2.csv >run2.txt 2>&1
check wrong_row r2.csv ",wrong,"
check struck_note r2.csv "OpenBLAS core Haswell was chosen by gpubench's trial \\(OpenBLAS picked Prescott\\): struck from the remembered choices"
XDG_CACHE_HOME=$dir/c2 GPUBENCH_TEST_BLAS_TRIAL_FAULT=SkylakeX:crash \
    "$G" doctor >doc3.txt 2>&1
check struck_retrial doc3.txt "trial \\(SGEMM.*SkylakeX died .*not tried: Haswell \\(a gemm row verified wrong on it here\\); running Prescott"
# OpenBLAS's own pick is never struck: nothing of gpubench's to undo.
XDG_CACHE_HOME=$dir/c3 GPUBENCH_TEST_BLAS_ROW_WRONG=1 "$G" $T --blas-core own --out r3.csv \
    >run3.txt 2>&1
check own_wrong_row r3.csv ",wrong,"
check_not own_not_struck r3.csv "struck"

# --blas-core own: OpenBLAS's pick, no trial, and doctor says what to do.
XDG_CACHE_HOME=$dir/c3 "$G" doctor --blas-core own >own.txt 2>&1
check_not own_no_trial own.txt "trial \\(SGEMM"
check own_named own.txt "core Prescott \\(OpenBLAS's own pick, --blas-core own\\)"
check own_fix own.txt "BLAS fix +drop --blas-core own"

# Three processes started together share one trial (the lock): one trial line among them, one
# line in the file, the same core in all three.
for i in 1 2 3; do
    XDG_CACHE_HOME=$dir/c6 "$G" doctor >together$i.txt 2>&1 &
done
wait
cat together1.txt together2.txt together3.txt >together.txt
[ "$(grep -c "trial (SGEMM" together.txt)" = 1 ] && passes=$((passes + 1)) ||
    { echo "FAIL one_trial: not one trial line in:"; cat together.txt; fails=$((fails + 1)); }
[ "$(wc -l <"$dir/c6/gpubench/blas-core")" = 1 ] && passes=$((passes + 1)) ||
    { echo "FAIL together_one_line:"; cat "$dir/c6/gpubench/blas-core"; fails=$((fails + 1)); }
[ "$(grep -ho "core [A-Za-z]* (chosen by gpubench" together.txt | sort -u | wc -l)" = 1 ] &&
    passes=$((passes + 1)) || { echo "FAIL together_same_core:"; cat together.txt; fails=$((fails + 1)); }

# A value OpenBLAS ignores (not one of its names, exactly): said so, with the core it runs. Given
# as GPUBENCH_TEST_BLAS_USER_CORETYPE (blas_core.h), judged as a user's OPENBLAS_CORETYPE that
# OpenBLAS ignored: no test sets OPENBLAS_CORETYPE (and this part runs only where the
# environment sets none).
for v in Bogus "SkylakeX "; do
    GPUBENCH_TEST_BLAS_USER_CORETYPE=$v XDG_CACHE_HOME=$dir/c7 "$G" doctor >ignored.txt 2>&1
    check ignored_verdict ignored.txt "BLAS verdict +OPENBLAS_CORETYPE='$v' is not a core this OpenBLAS knows: it runs its own pick, [A-Za-z]+"
    check ignored_fix ignored.txt "BLAS fix +unset OPENBLAS_CORETYPE"
    check_not ignored_not_user ignored.txt "set by the user"
done
GPUBENCH_TEST_BLAS_USER_CORETYPE=Bogus XDG_CACHE_HOME=$dir/c7 "$G" $T --out r7.csv >run7.txt 2>&1
check ignored_blas_lib r7.csv "OPENBLAS_CORETYPE='Bogus' is not a core this OpenBLAS knows"

# This machine as it is: a verdict in every case.
env -u GPUBENCH_TEST_BLAS_OWN_CORE -u GPUBENCH_TEST_CPU_FEATURES XDG_CACHE_HOME=$dir/c4 \
    "$G" doctor >real.txt 2>&1
check real_verdict real.txt "BLAS verdict +(ok|slow|OpenBLAS)"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
