#!/usr/bin/env python3
"""dmma_edges.py — gemm/cuda_tc's f64 at the edge shapes of its two DMMA kernels (issue 39, items
3 and 7), for scripts/gpu-check and scripts/kernel-lease: M ∈ {1, 129}, N ∈ {1, 65, 129},
K ∈ {1, 15, 17, 65}, on each kernel in turn (GPUBENCH_DMMA_KERNEL=16x8x16, 8x8x4:
kernels/gemm/cuda_tc.c's tc_dmma16_pick). Both run on a 9.0 card; the m16n8k16 one is left out
on others (sm_80 to sm_89 code has no DMMA.16x8x16, and sm_100 code splits it), and reads "not on
this build" where a 9.0 card runs older code. A row whose note does not name the kernel its run
forced fails (scripts/lib/edge_rows.py, issue 46).

Why each shape: M = 129 and N = 129 leave a 128×128 tile of the m16n8k16 kernel (dmma16.cuh)
one row or column past the edge, N = 65 half a tile, M = 1 and N = 1 all but one element; K = 1,
15 and 17 a slice the copies zero-fill but for one to fifteen columns, and fewer slices than the
4-stage pipeline holds (its empty groups), K = 65 five slices, the stages reused. Every row is
verified against the CPU reference (gpubench's own check), and each run has a deadline
(scripts/lib/deadline.py): a hang fails with its shape named, never as a stuck lease.

usage: dmma_edges.py GPUBENCH OUTDIR [LIMIT_S]
Prints one line per kernel and M, and the failures; exit 0 when every row was on its kernel
(or the kernel is not on this card or build), 1 otherwise. Writes
OUTDIR/dmma-edges-<kernel>-m<M>.csv and .log.
"""
import os
import sys

import edge_rows
from edge_rows import Forced, major
from wgmma_edges import BATCH_LIMIT, SHAPE_LIMIT, shape

MS = [1, 129]
NS = [1, 65, 129]
KS = [1, 15, 17, 65]
D16 = Forced("16x8x16", "f64", "GPUBENCH_DMMA_KERNEL", "16x8x16",
             "own DMMA f64 128x128 tiles (mma.sync m16n8k16",
             lambda cc: None if cc == "9.0" else
             f"DMMA.16x8x16 is Hopper's shape, in sm_90 code; this card is {cc}")
D8 = Forced("8x8x4", "f64", "GPUBENCH_DMMA_KERNEL", "8x8x4",
            "own DMMA f64 64x64 tiles (8x8x4 fragments)",
            lambda cc: None if major(cc) >= 8 else f"DMMA is sm_80 code; this card is {cc}")
KERNELS = [D16, D8]


def run_all(gb, out, limits=(BATCH_LIMIT, SHAPE_LIMIT), stop_at_hang=False, scale=None):
    """Each DMMA kernel at M × N × K of the docstring on cuda:0 of gb, each run under limits
    times edge_rows.deadline_scale; an edge_rows.Result."""
    res = edge_rows.Result()
    name, cc = edge_rows.device(gb)
    limits = edge_rows.scaled_limits(limits, edge_rows.deadline_scale(name, scale))
    os.makedirs(out, exist_ok=True)
    for kernel in KERNELS:
        why = kernel.card(cc)
        if why:
            edge_rows.not_here(f"dmma edges {kernel.label}", why, res)
            continue
        for m in MS:
            if res.hung and stop_at_hang:
                return res
            stem = os.path.join(out, f"dmma-edges-{kernel.label}-m{m}")
            edge_rows.batch(gb, kernel, [shape(m, n, k) for n in NS for k in KS], stem,
                            f"dmma edges {kernel.label} M={m}", limits, res)
    return res


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    limit = int(argv[3]) if len(argv) > 3 else BATCH_LIMIT
    return 1 if run_all(argv[1], argv[2], (limit, SHAPE_LIMIT)).failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
