#!/usr/bin/env python3
"""conv2d_tc_edges.py — conv2d/cuda_tc f16 at the odd shapes of its kernels' emulation cases
(kernels/conv2d/test_emu_mma.h), on the card, for scripts/gpu-check and scripts/kernel-lease
(issue 39 items 5 and 7): each row verified by gpubench against the CPU reference, as every
row is. On sm_80+ code they run the mma.sync kernel (kernels/conv2d/tc_mma.cuh: padded NHWC,
16-byte cp.async gathers), on sm_70/75 the WMMA one; the note of the first row says which.

Why each shape: channel counts that are not multiples of 8 (1, 3, 9, 17, 19: the padded
channels' zero chunks), k past one 128-filter tile and not a multiple of 8, pixels past one
128-pixel tile, a single 32-tap slice (fewer than the 3 stages) and many, strides and padding
wider than the filter (zero-filled chunks), a 5×20 and a 7×7 filter. One run, under a time
limit, so that a hang is a failure, not a stuck lease.

usage: conv2d_tc_edges.py GPUBENCH OUTDIR [LIMIT_S]
Prints one line, and the failing rows; exit 0 when every row is ok (or unsupported, with its
note), 1 otherwise. Writes OUTDIR/conv2d-tc-edges.csv and .log.
"""
import os
import subprocess
import sys

import wgmma_edges  # bad_rows: the rows neither ok nor unsupported

SHAPES = [
    "n=2,c=1,h=9,w=11,k=5,r=3,s=3,stride_h=1,stride_w=1,pad_h=1,pad_w=1",
    "n=3,c=5,h=7,w=7,k=130,r=1,s=1,stride_h=1,stride_w=1,pad_h=0,pad_w=0",
    "n=2,c=19,h=10,w=9,k=33,r=3,s=3,stride_h=1,stride_w=1,pad_h=1,pad_w=1",
    "n=1,c=9,h=13,w=12,k=17,r=5,s=5,stride_h=2,stride_w=2,pad_h=2,pad_w=2",
    "n=1,c=2,h=12,w=40,k=7,r=5,s=20,stride_h=2,stride_w=8,pad_h=1,pad_w=3",
    "n=1,c=1,h=5,w=5,k=3,r=2,s=2,stride_h=3,stride_w=3,pad_h=2,pad_w=2",
    "n=1,c=3,h=20,w=19,k=8,r=7,s=7,stride_h=2,stride_w=2,pad_h=3,pad_w=3",
    "n=2,c=17,h=6,w=5,k=70,r=1,s=1,stride_h=1,stride_w=1,pad_h=0,pad_w=0",
]
LIMIT = 120


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    gb, out = argv[1], argv[2]
    limit = int(argv[3]) if len(argv) > 3 else LIMIT
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, "conv2d-tc-edges")
    cmd = [gb, "run", "-d", "cuda:0", "-w", "conv2d", "-i", "cuda_tc", "-D", "f16", "--reps", "1",
           "--warmup", "0", "--min-time", "0", "-o", stem + ".csv"]
    for s in SHAPES:
        cmd += ["-s", "conv2d:" + s]
    with open(stem + ".log", "w") as log:
        log.write("$ " + " ".join(cmd) + "\n")
        log.flush()
        try:
            rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT,
                                timeout=limit).returncode
        except subprocess.TimeoutExpired:
            print(f"conv2d/cuda_tc edges: FAIL timeout after {limit} s (a hang); see {stem}.log")
            return 1
    bad, note = wgmma_edges.bad_rows(stem + ".csv")
    if rc != 0 or bad:
        print(f"conv2d/cuda_tc edges: FAIL exit {rc}; see {stem}.log")
        for dtype, s, st in bad:
            print(f"  FAIL {dtype} {s}: {st}")
        return 1
    kernel = note[note.find("own "):] if "own " in note else note
    print(f"conv2d/cuda_tc edges: {len(SHAPES)} shapes f16 ok ({kernel[:100]})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
