#!/usr/bin/env bash
# first_card_sim.sh — `scripts/kernel-lease --first` (the first card run,
# scripts/lib/first_card.py) rehearsed on the simulated H100 (tests/sim), with this build's
# gpubench-sim (--binary, no build) and stand-ins on PATH for compute-sanitizer (runs the
# program unchecked) and ncu (runs the program, then answers --import with a raw page of made-up
# figures: the reading of ncu's page is what is checked, not a card's counters). The big shapes
# are the scripts' scaled ones (wgmma_edges.SCALED_BIG, SCALED_MEMCHECK,
# first_card.SIM_RATIO_SHAPES): on a card the same steps run at 4104×4360×1032, 2176×2056×328,
# 2048³ and 4096³.
#
# usage: first_card_sim.sh SOURCE_DIR BUILD_DIR
# Checks:
#   1. the whole run: exit 0; the screen says nothing hung, every step ok, every forced row on its
#      kernel (wgmma 128x128, 128x256 and its scaled big shape, tf32's 128x128 and 128x256 and the
#      latter's scaled big shape, both DMMA kernels, conv2d's
#      mma.sync; the mma.sync GEMM runs not on this card), memcheck on the four wgmma kernels,
#      all ten own ÷ vendor ratios with a value marked emulated, the three ncu figures read from
#      the stand-in's page, and the choices: each pair's time ratio, the model's pick and (wgmma)
#      the tile cost it implies;
#   2. a hang in the first probe (GPUBENCH_SIM_HANG, the simulated card's own: the persistent
#      kernel never finishes; gpubench's row deadline, --row-timeout from
#      scripts/lib/deadline.py, or the probe's own ends it): exit 4, the screen names the probe, no
#      later step ran, every ratio "not measured";
#   3. a shape that falls back from the kernel its run forces fails the edge check: the 128×128
#      wgmma kernel forced at N = 64 (TMA-legal) and N = 65 (ldb not a multiple of 8: another
#      kernel runs): the second row fails naming the kernel it ran (not only the first row's note
#      is read), the first does not.
set -u
src=$(cd "${1:?usage: first_card_sim.sh SOURCE_DIR BUILD_DIR}" && pwd)
build=$(cd "${2:?usage: first_card_sim.sh SOURCE_DIR BUILD_DIR}" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
bin=$work/bin
mkdir -p "$bin"
cp "$src/tests/gpuinfo/stand_in_sanitizer.sh" "$bin/compute-sanitizer"
cat >"$bin/ncu" <<'EOF'
#!/bin/sh
# stand-in ncu: runs the program (its own options dropped, --export FILE made); --import answers
# with a raw page of made-up figures in ncu's CSV form (header, units, one kernel)
case " $* " in
*" --import "*)
    case " $* " in
    *" raw "*)
        echo '"ID","Kernel Name","sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active","lts__throughput.avg.pct_of_peak_sustained_elapsed","smsp__average_warp_latency_issue_stalled_membar.ratio","smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio","smsp__average_warp_latency_issue_stalled_wait.ratio"'
        echo '"","","%","%","","",""'
        echo '"0","gb_hgemm_wgmma_persist_128x256","71.5","33.3","1","3","4"' ;;
    *) echo "stand-in ncu: details page" ;;
    esac
    exit 0 ;;
esac
while [ $# -gt 0 ]; do
    case "$1" in
    --export) : >"$2.ncu-rep"; shift 2 ;;
    --clock-control | --target-processes | --kernel-name | --launch-count | --section) shift 2 ;;
    --*) shift ;;
    *) break ;;
    esac
done
exec "$@"
EOF
chmod +x "$bin"/*
export PATH="$bin:$PATH" GPUBENCH_SIM=h100
lease=$src/scripts/kernel-lease

# 1. the whole run
"$lease" --first --binary "$build/gpubench-sim" --out "$work/first" >"$work/screen" 2>"$work/err"
rc=$?
[ $rc = 0 ] || fail "the rehearsal exited $rc, want 0"
screen=$work/first/screen.txt
[ -s "$screen" ] || fail "no screen.txt"
has() { grep -qE -- "$1" "$screen" || fail "the screen lacks /$1/"; }
has "^hung: nothing"
has "^SIMULATED DEVICE"
for step in "1 hang probes" "2 edge runs" "3 memcheck" "4 ratio round" "5 ncu, persistent" \
    "6 choices"; do
    has "^$step +ok "
done
has "probe 128x256 at m=128,n=64,k=512: 2 rows × f16,bf16 verified on 128x256"
has "probe tf32-128x256 at m=128,n=64,k=512: 1 rows × tf32 verified on tf32-128x256"
has "probe 128x128 at m=129,n=8,k=520: 2 rows × f16,bf16 verified on 128x128"
for run in "128x128 M=1" "128x128 M=129" "128x256 M=1" "128x256 M=129"; do
    has "wgmma edges $run: 24 rows × f16,bf16 verified on ${run% *}"
done
has "wgmma edges 128x256 big, scaled for the emulation: 2 rows × f16,bf16 verified on 128x256"
for run in "tf32 M=1" "tf32 M=129" "tf32-128x256 M=1" "tf32-128x256 M=129"; do
    has "wgmma edges $run: 16 rows × tf32 verified on ${run% *}"
done
has "wgmma edges tf32-128x256 big, scaled for the emulation: 1 rows × tf32 verified on tf32-128x256"
has "wgmma edges 64x32: not on this card \(the wgmma path"
has "dmma edges 16x8x16 M=129: 12 rows × f64 verified on 16x8x16"
has "dmma edges 8x8x4 M=129: 12 rows × f64 verified on 8x8x4"
for k in 128x128 64x256; do
    has "conv2d/cuda_tc edges $k: 13 rows × f16 verified on $k "
done
# the ratio round's conv2d row (k = 32 filters): the 64-filter tile, by the modelled work
has "^  conv2d f16: own mma.sync f16 implicit GEMM, 64x256 tiles of 32x64 warps: k=32: modelled"
for k in 128x128 128x256 tf32 tf32-128x256; do
    has "memcheck $k at m=264,n=264,k=328: [0-9]+ rows on $k, ERROR SUMMARY"
done
[ "$(grep -c "cuda_tc ÷ cublas: .*[0-9]\.[0-9]{3} \(emulated\).*[0-9]\.[0-9]{3} \(emulated\)" -E \
    "$screen")" = 4 ] || fail "not four GEMM tiers with both ratios"
conv='conv2d f16 cuda_tc ÷ cudnn(_gemm)?.*: [0-9]\.[0-9]{3} \(emulated\)'
[ "$(grep -cE "$conv" "$screen")" = 2 ] ||
    fail "not both conv2d ratios"
! grep -q "not measured" "$screen" || fail "a ratio of the full rehearsal is not measured"
has "tensor pipe active: 71\.5% \(sm__pipe_tensor_op_gmma"
has "L2 throughput: 33\.3% of peak"
has "membar: 12\.5% of the stall reasons summed"
# the choices: each pair forced in turn, its time ratio, the model's pick and the tile cost
for t in f16 tf32; do
    has "^    gemm $t m=264;n=520;k=64: 128x256 ÷ 128x128 time [0-9.]+ \(emulated\); faster: 128x(128|256)$"
done
[ "$(grep -cE "^      the model picks 128x128 \(1 rounds × 1\.8 vs 1 on 132 SMs\); tile cost from this pair [0-9.]+$" "$screen")" = 2 ] ||
    fail "not both wgmma pairs' model line"
has "^    conv2d f16 n=1;c=32;h=28;w=28;k=32;r=3;s=3: 64x256 ÷ 128x128 time [0-9.]+ \(emulated\); faster: (64x256|128x128)$"
has "^      the rule picks 64x256 \(modelled work of 64x256 0\.[0-9]+ of 128x128's\)$"
# the screen is the last thing printed
tail -n 1 "$work/screen" | grep -q "^====" || fail "the screen is not printed last"

# 2. a hang in the first probe, the simulated card's own (GPUBENCH_SIM_HANG: the persistent
# kernel's launch never completes, tests/sim/stage.c): gpubench's row deadline (3/4 of the
# probe's, scripts/lib/deadline.py) or the probe's own ends it, at 20 s × 0.5
GPUBENCH_SIM_HANG=gb_hgemm_wgmma_persist "$lease" --first \
    --binary "$build/gpubench-sim" --out "$work/hang" --deadline-scale 0.5 >"$work/hang.out" 2>&1
rc=$?
[ $rc = 4 ] || fail "the hang exited $rc, want 4"
grep -rqs "never completes (GPUBENCH_SIM_HANG=gb_hgemm_wgmma_persist" "$work/hang" ||
    fail "the probe never reached the hung kernel (a start-up past the deadline?)"
screen=$work/hang/screen.txt
has "^HUNG: 1 hang probes: 128x256 "
has "^1 hang probes +HUNG "
for step in "2 edge runs" "3 memcheck" "4 ratio round" "5 ncu, persistent" "6 choices"; do
    has "^$step +not run "
done
[ "$(grep -o "not measured" "$screen" | wc -l)" = 10 ] ||
    fail "not every ratio reads 'not measured'"
! ls "$work/hang"/probe-128x128* 2>/dev/null || fail "the second probe ran after the hang"

# 3. a shape that falls back fails the check
PYTHONPATH=$src/scripts/lib python3 "$src/tests/gpuinfo/edge_fallback.py" "$build/gpubench-sim" \
    "$work/fallback" W128 gemm:m=1,n=64,k=64 gemm:m=1,n=65,k=64 >"$work/fallback.out"
rc=$?
[ $rc = 1 ] || fail "a forced 128x128 row on another kernel passed the check (exit $rc)"
grep -q "FAIL 128x128 f16 m=1;n=65;k=64: ok, not own wgmma f16 128x128 tiles: own " \
    "$work/fallback.out" || fail "the fallen-back row is not named: $(cat "$work/fallback.out")"
! grep -q "n=64;k=64" "$work/fallback.out" || fail "the TMA-legal row failed too"

if [ $fails -gt 0 ]; then
    cat "$work/first/screen.txt" "$work/err" "$work/hang.out" 2>/dev/null
    exit 1
fi
echo "first card run rehearsed on the simulated H100: ok (a staged hang stopped it at the probe)"
