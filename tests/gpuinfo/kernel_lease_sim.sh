#!/usr/bin/env bash
# kernel_lease_sim.sh — scripts/kernel-lease on the simulated device (tests/sim), reusing this
# build's gpubench-sim (--binary, no build), so that a round on a lent card can only fail on what
# the card does. --quick keeps the shapes small (the CPU emulation needs minutes for 4096³);
# --no-edges leaves out its edge-shape runs, which sim_gpu_check_h100 runs on the same build and
# card (scripts/gpu-check calls the same scripts/lib/*_edges.py): they were half of this test's
# three minutes.
#
# usage: kernel_lease_sim.sh SOURCE_DIR BUILD_DIR PROFILE
# Checks: a bad option exits 2 in one line; the rehearsal exits 0, writes each workload's CSV and
# table, and prints an own ÷ vendor ratio with a value for every workload that has GPU_RATIOS
# (gemm's in float32 and float64, mlp_train's by step time, conv2d's, conv2d/cuda_tc's in float16,
# vecadd's against the copy), said first to be CPU emulation and judged against no target.
set -u
src=$(cd "${1:?usage: kernel_lease_sim.sh SOURCE_DIR BUILD_DIR PROFILE}" && pwd)
build=$(cd "${2:?usage: kernel_lease_sim.sh SOURCE_DIR BUILD_DIR PROFILE}" && pwd)
profile=${3:?usage: kernel_lease_sim.sh SOURCE_DIR BUILD_DIR PROFILE}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$src/scripts/kernel-lease" --no-such-option >"$work/usage.out" 2>"$work/usage.err"
rc=$?
[ $rc = 2 ] || fail "a bad option exited $rc, want 2"
[ "$(wc -l <"$work/usage.err")" = 1 ] || fail "a bad option printed $(wc -l <"$work/usage.err") lines"

# emulated rows on a loaded machine: a deadline for a hang, not for the emulation
GPUBENCH_ROW_TIMEOUT=900 GPUBENCH_SIM=$profile "$src/scripts/kernel-lease" --binary "$build/gpubench-sim" --quick \
    --no-edges --out "$work/out" >"$work/ratios.md" 2>"$work/progress.txt"
rc=$?
[ $rc = 0 ] || fail "kernel-lease exited $rc: $(tail -n 3 "$work/progress.txt")"
grep -q "edge shapes: left out (--no-edges)" "$work/progress.txt" ||
    fail "--no-edges is not said in the progress lines"
! ls -d "$work/out"/*-edges 2>/dev/null || fail "--no-edges still ran edge shapes"
for w in gemm vecadd memcpy conv2d mlp_train; do
    [ -s "$work/out/$w.csv" ] || fail "no $w.csv"
    [ -s "$work/out/$w.log" ] || fail "no $w.log"
done
# a ratio row with a number: | name | cuda:0 | dtype | shape | 0.123 | target |
ratio() { grep -E "^\| $1[^|]* \| cuda:0 \| $2 \| [^|]+ \| [0-9]+\.[0-9]{3} \|" "$work/ratios.md"; }
ratio "own GEMM ÷ cuBLAS" float32 >/dev/null || fail "no own GEMM ÷ cuBLAS ratio in float32"
# the FP64 FMA peak comes from the row's peak_pct (scripts/lib/gpu_ratios.py), and a simulated
# row has none (its time is emulation): the ratio's line is there, naming the peak as unknown
grep -qE "^\| own SIMT DGEMM ÷ FP64 FMA peak \[FP64 FMA peak unknown\][^|]* \| cuda:0 \| float64 \|" \
    "$work/ratios.md" || fail "no SIMT DGEMM ÷ FMA peak line (FP64 FMA peak unknown on the sim)"
ratio "mlp_train/cuda ÷ mlp_train/cublas \(step time\)" float32 >/dev/null ||
    fail "no mlp_train step-time ratio"
# the times are emulation: said before the table, and no ratio judged against a card's target
grep -q "not judged: emulation (≤ 1.15 on a card)" "$work/ratios.md" ||
    fail "the step-time ratio does not show its ≤ target as not judged"
! grep -q "MISSES\|meets" "$work/ratios.md" || fail "an emulated ratio is judged against a target"
sed -n '/^## Ratios/q;p' "$work/ratios.md" | grep -q "CPU emulation (gpubench-sim), not measurements" ||
    fail "no line before the ratio table says the times are emulation"
ratio "own conv2d ÷ cuDNN" float32 >/dev/null || fail "no conv2d ratio"
ratio "own tensor-core conv2d ÷ cuDNN" float16 >/dev/null || fail "no conv2d/cuda_tc f16 ratio"
ratio "vecadd/cuda ÷ device-to-device copy" float16 >/dev/null || fail "no f16 vecadd ÷ copy ratio"
if [ $fails -gt 0 ]; then
    cat "$work/ratios.md" "$work/progress.txt"
    exit 1
fi
echo "kernel-lease on the simulated $profile: ok ($(grep -c '^| ' "$work/ratios.md") table lines)"
