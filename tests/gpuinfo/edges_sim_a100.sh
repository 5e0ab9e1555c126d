#!/usr/bin/env bash
# edges_sim_a100.sh — the three edge scripts (scripts/lib/wgmma_edges.py, dmma_edges.py,
# conv2d_tc_edges.py) on the simulated A100 (tests/sim), this build's gpubench-sim: a card of
# compute capability 8.0 has none of the Hopper kernels, so every run of them is left out with
# the reason, and every run it can take must show each row on the kernel that run forced
# (scripts/lib/edge_rows.py). The simulated H100's runs are first_card_sim.sh's.
#
# usage: edges_sim_a100.sh SOURCE_DIR BUILD_DIR
# Checks: each script exits 0; the wgmma kernels (128x128, 128x256, tf32, tf32-128x256) and the
# m16n8k16 DMMA kernel are "not on this card"; both mma.sync kernels (64x32, 64x64 warps) at M = 1
# and 129, the 8x8x4 DMMA kernel and conv2d's mma.sync kernel in each of its tiles (128x128,
# 64x256, forced by GPUBENCH_CONV_KERNEL) have every row verified on their kernel; and a
# shape that falls back fails: the 64x64-warp kernel forced at N = 65 (rows of 130 bytes, not the
# 16-byte multiple its cp.async needs: the WMMA kernel runs), the second row of its run, fails
# naming the kernel it ran, beside N = 64, which passes.
set -u
src=$(cd "${1:?usage: edges_sim_a100.sh SOURCE_DIR BUILD_DIR}" && pwd)
build=$(cd "${2:?usage: edges_sim_a100.sh SOURCE_DIR BUILD_DIR}" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export GPUBENCH_SIM=a100
gb=$build/gpubench-sim
for s in wgmma_edges dmma_edges conv2d_tc_edges; do
    python3 "$src/scripts/lib/$s.py" "$gb" "$work/out" 600 >>"$work/lines" 2>&1 ||
        fail "$s.py exited $?"
done
has() { grep -qE -- "$1" "$work/lines" || fail "no line /$1/"; }
for k in 128x128 128x256 tf32 tf32-128x256; do
    has "^wgmma edges $k: not on this card \(wgmma is sm_90a code, for a 9.0 card; this one is 8.0\)"
done
has "^dmma edges 16x8x16: not on this card"
for k in 64x32 64x64; do
    for m in 1 129; do
        has "^wgmma edges $k M=$m: 32 rows × f16,bf16 verified on $k .*own mma.sync f16 128x128 tiles, $k warps: forced by GPUBENCH_MMA_KERNEL"
    done
done
for m in 1 129; do
    has "^dmma edges 8x8x4 M=$m: 12 rows × f64 verified on 8x8x4"
done
for k in 128x128 64x256; do
    has "^conv2d/cuda_tc edges $k: 13 rows × f16 verified on $k .*own mma.sync f16 implicit GEMM, $k tiles .*: forced by GPUBENCH_CONV_KERNEL"
done
! grep -q FAIL "$work/lines" || fail "a run failed"

PYTHONPATH=$src/scripts/lib python3 "$src/tests/gpuinfo/edge_fallback.py" "$gb" "$work/fallback" \
    M64 gemm:m=129,n=64,k=64 gemm:m=129,n=65,k=64 >"$work/fallback.out"
rc=$?
[ $rc = 1 ] || fail "a forced 64x64-warp row on another kernel passed the check (exit $rc)"
grep -q "FAIL 64x64 f16 m=129;n=65;k=64: ok, not own mma.sync f16 128x128 tiles, 64x64 warps: own WMMA" \
    "$work/fallback.out" || fail "the fallen-back row is not named: $(cat "$work/fallback.out")"
! grep -q "n=64;k=64" "$work/fallback.out" || fail "the 16-byte row failed too"
if [ $fails -gt 0 ]; then
    cat "$work/lines" "$work/fallback.out"
    exit 1
fi
echo "edge runs on the simulated A100: ok ($(wc -l <"$work/lines") lines)"
