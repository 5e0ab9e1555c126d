#!/usr/bin/env python3
"""wgmma_edges.py — gemm/cuda_tc's f16, bf16 and tf32 at the Hopper kernels' edge shapes (issue
39 items 6 and 2, issue 46 item 1), for scripts/gpu-check, scripts/kernel-lease and its --first
run: each run forces one kernel, and a row whose note does not name that kernel fails
(scripts/lib/edge_rows.py), so that a shape which falls back to another kernel cannot read `ok`.

On a 9.0 card: f16 and bf16 on the 128×128 and the persistent 128×256 wgmma kernels
(GPUBENCH_WGMMA_KERNEL=128x128, 128x256: kernels/gemm/cuda_tc.c) at M ∈ {1, 129},
N ∈ {8, 72, 136, 264}, K ∈ {8, 72, 328}; the 128×256 kernel again at BIG; tf32 on its 128×128
and persistent 128×256 kernels (kernels/gemm/wgmma_tf32.cuh, forced by the same variable), the
latter again at BIG. On a card from 8.0 without the wgmma path (or a 9.0 card
running plain sm_90 code): f16 and bf16 on each mma.sync kernel (GPUBENCH_MMA_KERNEL=64x32,
64x64: the warp tiles, kernels/gemm/mma.cuh) at their own edges. A run whose kernel the card
cannot run is left out with the reason; one the build cannot run reads "not on this build".

Why each shape. TMA reads A and B only where lda = K and ldb = N are multiples of 8 (16 bytes of
f16); elsewhere the mma.sync kernel runs, so N and K are multiples of 8, ragged against the tile
(128 or 256 columns, 128 rows) and the 64-deep slice:
  - N = 8 and 72 leave whole 64-column B boxes outside the matrix (the 128×128 kernel's second;
    the 128×256 kernel's third and fourth, and its second at N = 8), N = 136 a second column tile
    of 8, N = 264 a last 128×256 column 8 wide;
  - K = 8 one partial slice, K = 72 one and a partial, K = 328 six slices: the 4 pipeline stages
    are reused (the mbarrier parities flip);
  - M = 1 all but empty, M = 129 a second tile row of one row (the 128×256 kernel's second block
    of a cluster wholly below M: its A box wholly outside).
BIG (4104×4360×1032 on a card) on the persistent kernels: 33 tile rows (an odd count: the last
cluster's second block below M), 18 tile columns the last 8 wide, 17 slices, and 306 pairs of
tiles for 66 clusters on 132 SMs: several tiles per cluster, so the walk across tiles and the
stage parities that carry over from one tile to the next. On the simulated device (CPU
emulation, about an hour for BIG) SCALED_BIG stands in: 9 tile rows, 14 tile columns the last 8
wide, 2 slices, 70 pairs for 66 clusters (a few clusters walk two).
tf32 reads A in place where K is a multiple of 4 and a K-major TF32 copy of it elsewhere, and a
copy of Bᵀ always (any N and K): N ∈ {1, 65, 136, 264}, K ∈ {1, 63, 65, 328} (32-deep slices:
K = 328 is 11, the stages reused, A read in place; K = 1, 63, 65 A copied, the copies' rows
padded). On the persistent kernel N = 1, 65 and 136 leave 3, 2 and 1 of Bᵀ's four 64-row boxes
wholly outside, N = 264 a last pair column 8 wide; M = 1 the second block's A box.

TMA fills what lies outside with zeros and counts the box towards the mbarrier's transaction
bytes; were the bytes a box delivers ever fewer than the expect_tx, the kernel would wait
forever. So every run has a deadline (scripts/lib/deadline.py): one run per kernel and M, and when
it hangs each of its shapes again alone up to the first that hangs, which is named.

usage: wgmma_edges.py GPUBENCH OUTDIR [BATCH_LIMIT_S [SHAPE_LIMIT_S]]
       wgmma_edges.py --memcheck-shapes GPUBENCH   the shapes the memcheck runs take (MEMCHECK)
Prints one line per run and the failures; exit 0 when every run's rows were on their kernel (or
the run is not on this card or build), 1 otherwise. Writes OUTDIR/wgmma-edges-<run>.csv and .log.
"""
import os
import sys

import edge_rows
from edge_rows import Forced, major

MS = [1, 129]
NS = [8, 72, 136, 264]
KS = [8, 72, 328]
TF32_NS = [1, 65, 136, 264]
TF32_KS = [1, 63, 65, 328]
# the mma.sync kernels' own edges: their 16-byte cp.async takes rows of A and B in multiples of 8
# halves (elsewhere the WMMA kernel runs), so N, K multiples of 8 but ragged against the 128×128
# tile and the 32-deep slice: one partial slice (8), one and a partial (40), more slices than
# stages (72, 136), a second column tile of 8 (136)
MMA_NS = [8, 64, 72, 136]
MMA_KS = [8, 40, 72, 136]
BIG, SCALED_BIG = "gemm:m=4104,n=4360,k=1032", "gemm:m=1032,n=3336,k=72"
# memcheck across tiles (scripts/gpu-check's sanitizer-wgmma, the first card run's memcheck):
# 17 tile rows (odd), 17 columns of 128 and 9 of 256 (the last 8 wide), 6 slices, 81 pairs of
# tiles for 66 clusters; scaled on the simulated device: 3 tile rows, the last column 8 wide
MEMCHECK, SCALED_MEMCHECK = "gemm:m=2176,n=2056,k=328", "gemm:m=264,n=264,k=328"


def hopper(cc):
    return None if cc == "9.0" else f"wgmma is sm_90a code, for a 9.0 card; this one is {cc}"


def sm80(cc):
    return None if major(cc) >= 8 else \
        f"mma.sync is sm_80 code; a {cc} card runs the WMMA kernel"


W128 = Forced("128x128", "f16,bf16", "GPUBENCH_WGMMA_KERNEL", "128x128",
              "own wgmma {t} 128x128 tiles", hopper)
W256 = Forced("128x256", "f16,bf16", "GPUBENCH_WGMMA_KERNEL", "128x256",
              "own wgmma {t} persistent 128x256 tiles", hopper)
TF32 = Forced("tf32", "tf32", "GPUBENCH_WGMMA_KERNEL", "128x128", "own wgmma tf32 128x128 tiles",
              hopper)
TF32_256 = Forced("tf32-128x256", "tf32", "GPUBENCH_WGMMA_KERNEL", "128x256",
                  "own wgmma tf32 persistent 128x256 tiles", hopper)
M32 = Forced("64x32", "f16,bf16", "GPUBENCH_MMA_KERNEL", "64x32",
             "own mma.sync {t} 128x128 tiles, 64x32 warps", sm80)
M64 = Forced("64x64", "f16,bf16", "GPUBENCH_MMA_KERNEL", "64x64",
             "own mma.sync {t} 128x128 tiles, 64x64 warps", sm80)
# (kernel, N values, K values); the wgmma ones first: where they ran, the mma.sync ones cannot
WGMMA_RUNS = [(W128, NS, KS), (W256, NS, KS), (TF32, TF32_NS, TF32_KS),
              (TF32_256, TF32_NS, TF32_KS)]
# the persistent kernels, which also run BIG; the kernels the memcheck runs (scripts/gpu-check's
# sanitize_wgmma, the first card run's step 3)
PERSISTENT = (W256, TF32_256)
MEMCHECK_KERNELS = (W128, W256, TF32, TF32_256)
MMA_RUNS = [(M32, MMA_NS, MMA_KS), (M64, MMA_NS, MMA_KS)]
BATCH_LIMIT, SHAPE_LIMIT = 60, 20


def shape(m, n, k):
    return f"gemm:m={m},n={n},k={k}"


def scaled(gb_device_name, card_shape, sim_shape):
    return sim_shape if edge_rows.simulated(gb_device_name) else card_shape


def run_all(gb, out, limits=(BATCH_LIMIT, SHAPE_LIMIT), stop_at_hang=False, scale=None):
    """Every run of the module docstring on cuda:0 of gb, each under limits (a run's, a shape's
    alone) times edge_rows.deadline_scale; an edge_rows.Result."""
    res = edge_rows.Result()
    name, cc = edge_rows.device(gb)
    limits = edge_rows.scaled_limits(limits, edge_rows.deadline_scale(name, scale))
    os.makedirs(out, exist_ok=True)
    wgmma_path = False
    for kernel, ns, ks in WGMMA_RUNS + MMA_RUNS:
        if res.hung and stop_at_hang:
            break
        label = kernel.label
        why = kernel.card(cc)
        if kernel in (M32, M64) and wgmma_path:
            why = "the wgmma path takes every f16 and bf16 row of these shapes on this card"
        if why:
            edge_rows.not_here(f"wgmma edges {label}", why, res)
            continue
        runs = [(f"M={m}", [shape(m, n, k) for n in ns for k in ks]) for m in MS]
        if kernel in PERSISTENT:
            big = scaled(name, BIG, SCALED_BIG)
            runs.append(("big" if big == BIG else "big, scaled for the emulation", [big]))
        for tag, shapes in runs:
            stem = os.path.join(out, f"wgmma-edges-{label}-{tag.split(',')[0].replace('=', '')}")
            v = edge_rows.batch(gb, kernel, shapes, stem, f"wgmma edges {label} {tag}", limits,
                                res)
            if v is None and stop_at_hang:
                break
            wgmma_path |= bool(v and v.on and kernel in (W128, W256))
    return res


def main(argv):
    if len(argv) == 3 and argv[1] == "--memcheck-shapes":
        print(scaled(edge_rows.device(argv[2])[0], MEMCHECK, SCALED_MEMCHECK))
        return 0
    if len(argv) < 3:
        sys.exit(__doc__)
    limits = (int(argv[3]) if len(argv) > 3 else BATCH_LIMIT,
              int(argv[4]) if len(argv) > 4 else SHAPE_LIMIT)
    return 1 if run_all(argv[1], argv[2], limits).failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
