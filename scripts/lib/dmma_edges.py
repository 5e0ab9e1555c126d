#!/usr/bin/env python3
"""dmma_edges.py — gemm/cuda_tc's f64 at the edge shapes of its two DMMA kernels (issue 39, items
3 and 7), for scripts/gpu-check and scripts/kernel-lease: M ∈ {1, 129}, N ∈ {1, 65, 129},
K ∈ {1, 15, 17, 65}, on each kernel in turn (GPUBENCH_DMMA_KERNEL=16x8x16, 8x8x4:
kernels/gemm/cuda_tc.c's tc_dmma16_pick). On a card that runs this build's sm_90 code both run;
elsewhere the 8x8x4 kernel runs both times, as it would anyway (the note says why).

Why each shape: M = 129 and N = 129 leave a 128×128 tile of the m16n8k16 kernel (dmma16.cuh)
one row or column past the edge, N = 65 half a tile, M = 1 and N = 1 all but one element; K = 1,
15 and 17 a slice the copies zero-fill but for one to fifteen columns, and fewer slices than the
4-stage pipeline holds (its empty groups), K = 65 five slices, the stages reused. Every row is
verified against the CPU reference (gpubench's own check), and each run has a time limit: a hang
fails with the run named, never as a stuck lease.

usage: dmma_edges.py GPUBENCH OUTDIR [LIMIT_S]
Prints one line per kernel and M, and the failures; exit 0 when every row is ok (or
unsupported, with its note), 1 otherwise. Writes OUTDIR/dmma-edges-<kernel>-m<M>.csv and .log.
"""
import os
import sys

import wgmma_edges
from wgmma_edges import bad_rows, shape

KERNELS = ["16x8x16", "8x8x4"]
MS = [1, 129]
NS = [1, 65, 129]
KS = [1, 15, 17, 65]
LIMIT = 60


def run(gb, kernel, shapes, csv_path, log_path, limit):
    """One gpubench run of gemm/cuda_tc f64 at shapes on the DMMA kernel `kernel`; the exit
    status, or None when it ran past `limit` seconds (then killed)."""
    return wgmma_edges.run(gb, (kernel, "f64", "GPUBENCH_DMMA_KERNEL", kernel), shapes,
                           csv_path, log_path, limit)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    gb, out = argv[1], argv[2]
    limit = int(argv[3]) if len(argv) > 3 else LIMIT
    os.makedirs(out, exist_ok=True)
    failed = 0
    for kernel in KERNELS:
        for m in MS:
            stem = os.path.join(out, f"dmma-edges-{kernel}-m{m}")
            shapes = [shape(m, n, k) for n in NS for k in KS]
            rc = run(gb, kernel, shapes, stem + ".csv", stem + ".log", limit)
            bad, note = bad_rows(stem + ".csv")
            if rc is None or rc != 0 or bad:
                failed = 1
                why = f"timeout after {limit} s (a hang)" if rc is None else f"exit {rc}"
                print(f"dmma edges {kernel} M={m}: FAIL {why}; see {stem}.log")
                for dtype, s, st in bad:
                    print(f"  FAIL {kernel} {dtype} {s}: {st}")
            else:
                ran = note[note.find("own "):] if "own " in note else note  # the kernel
                print(f"dmma edges {kernel} M={m}: {len(shapes)} shapes × f64 ok ({ran[:140]})")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
