#!/usr/bin/env python3
"""conv2d_tc_edges.py — conv2d/cuda_tc f16 at the odd shapes of its kernels' emulation cases
(kernels/conv2d/test_emu_mma.h), on the card, for scripts/gpu-check and scripts/kernel-lease
(issue 39 items 5 and 7): each row verified by gpubench against the CPU reference, as every
row is. On sm_80+ code they run the mma.sync kernel (kernels/conv2d/tc_mma.cuh: padded NHWC,
16-byte cp.async gathers) twice, once in each of its block tiles, forced by
GPUBENCH_CONV_KERNEL=128x128 and =64x256 (issue 46 item 6); on sm_70/75 the WMMA one (no
variable: the card's code chooses); a row whose note does not name the kernel its run forced
fails (scripts/lib/edge_rows.py, issue 46).

Why each shape: channel counts that are not multiples of 8 (1, 3, 9, 17, 19: the padded
channels' zero chunks), k past one 128-filter tile and not a multiple of 8, pixels past one
128-pixel tile, a single 32-tap slice (fewer than the 3 stages) and many, strides and padding
wider than the filter (zero-filled chunks), a 5×20 and a 7×7 filter; for the 64×256 tile and
y's paired stores, k = 64 at 260 pixels (one past a 256-pixel tile, p·q even: pairs), k = 40 at
an odd p·q (49: a half at a time), k = 100 and 127 (between the tiles: two 64-filter tiles),
p·q = 12 (images inside one fragment). One run a kernel, under a deadline
(scripts/lib/deadline.py), so that a hang is a failure with its shape named, not a stuck lease.

usage: conv2d_tc_edges.py GPUBENCH OUTDIR [LIMIT_S]
Prints one line, and the failing rows; exit 0 when every row was on the card's kernel, 1
otherwise. Writes OUTDIR/conv2d-tc-edges.csv and .log.
"""
import os
import sys

import edge_rows
from edge_rows import Forced, major
from wgmma_edges import SHAPE_LIMIT

SHAPES = [
    "n=2,c=1,h=9,w=11,k=5,r=3,s=3,stride_h=1,stride_w=1,pad_h=1,pad_w=1",
    "n=3,c=5,h=7,w=7,k=130,r=1,s=1,stride_h=1,stride_w=1,pad_h=0,pad_w=0",
    "n=2,c=19,h=10,w=9,k=33,r=3,s=3,stride_h=1,stride_w=1,pad_h=1,pad_w=1",
    "n=1,c=9,h=13,w=12,k=17,r=5,s=5,stride_h=2,stride_w=2,pad_h=2,pad_w=2",
    "n=1,c=2,h=12,w=40,k=7,r=5,s=20,stride_h=2,stride_w=8,pad_h=1,pad_w=3",
    "n=1,c=1,h=5,w=5,k=3,r=2,s=2,stride_h=3,stride_w=3,pad_h=2,pad_w=2",
    "n=1,c=3,h=20,w=19,k=8,r=7,s=7,stride_h=2,stride_w=2,pad_h=3,pad_w=3",
    "n=2,c=17,h=6,w=5,k=70,r=1,s=1,stride_h=1,stride_w=1,pad_h=0,pad_w=0",
    "n=2,c=8,h=10,w=13,k=64,r=3,s=3,stride_h=1,stride_w=1,pad_h=1,pad_w=1",
    "n=3,c=5,h=7,w=7,k=40,r=3,s=3,stride_h=1,stride_w=1,pad_h=1,pad_w=1",
    "n=1,c=3,h=9,w=9,k=100,r=3,s=3,stride_h=1,stride_w=1,pad_h=1,pad_w=1",
    "n=2,c=4,h=16,w=17,k=127,r=1,s=1,stride_h=1,stride_w=1,pad_h=0,pad_w=0",
    "n=5,c=1,h=3,w=4,k=70,r=1,s=1,stride_h=1,stride_w=1,pad_h=0,pad_w=0",
]
LIMIT = 120

def _mma_card(cc):
    return None if major(cc) >= 8 else f"mma.sync is sm_80 code; this card is {cc}"


# the mma.sync kernel's two block tiles, each forced (kernels/conv2d/cuda_tc.c's note names it)
T128 = Forced("128x128", "f16", "GPUBENCH_CONV_KERNEL", "128x128",
              "own mma.sync f16 implicit GEMM, 128x128 tiles", _mma_card, workload="conv2d")
T64 = Forced("64x256", "f16", "GPUBENCH_CONV_KERNEL", "64x256",
             "own mma.sync f16 implicit GEMM, 64x256 tiles", _mma_card, workload="conv2d")
# below sm_80 the card's WMMA kernel (no variable forces it)
WMMA = Forced("WMMA", "f16", None, None, "own WMMA f16 implicit GEMM",
              lambda cc: None if major(cc) == 7 else f"a {cc} card runs no WMMA f16 code",
              workload="conv2d")


def run_all(gb, out, limit=LIMIT, scale=None):
    """The shapes on cuda:0 of gb, on the kernel its card runs, under limit times
    edge_rows.deadline_scale; an edge_rows.Result."""
    res = edge_rows.Result()
    name, cc = edge_rows.device(gb)
    limits = edge_rows.scaled_limits((limit, SHAPE_LIMIT), edge_rows.deadline_scale(name, scale))
    os.makedirs(out, exist_ok=True)
    shapes = ["conv2d:" + s for s in SHAPES]
    if major(cc) < 8:
        why = WMMA.card(cc)
        if why:
            edge_rows.not_here("conv2d/cuda_tc edges", why, res)
        else:
            edge_rows.batch(gb, WMMA, shapes, os.path.join(out, "conv2d-tc-edges"),
                            "conv2d/cuda_tc edges", limits, res)
        return res
    for kernel in (T128, T64):
        if edge_rows.batch(gb, kernel, shapes, os.path.join(out, f"conv2d-tc-edges-{kernel.label}"),
                           f"conv2d/cuda_tc edges {kernel.label}", limits, res) is None:
            break  # a hang: the first is the one to name
    return res


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    limit = int(argv[3]) if len(argv) > 3 else LIMIT
    return 1 if run_all(argv[1], argv[2], limit).failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
