#!/usr/bin/env python3
"""wgmma_edges.py — gemm/cuda_tc's f16, bf16 and tf32 at the Hopper kernels' edge shapes (issue
39, items 6 and 2), for scripts/gpu-check and scripts/kernel-lease: M ∈ {1, 129}, N ∈ {1, 64, 65,
129}, K ∈ {1, 63, 64, 65}, on each wgmma kernel in turn: f16 and bf16 on the 128×128 and the
persistent 128×256 kernel (GPUBENCH_WGMMA_KERNEL=128x128, 128x256: kernels/gemm/cuda_tc.c), tf32
on its 128×128 kernel with the pass before it (kernels/gemm/wgmma_tf32.cuh); a card without the
wgmma path runs its own kernels, as it would anyway. Then f16 and bf16 on each mma.sync kernel of
sm_80-89 and of Hopper without sm_90a code (GPUBENCH_MMA_KERNEL=64x32, 64x64: the warp tiles,
kernels/gemm/mma.cuh; on a card with the wgmma path these two runs are more wgmma shapes) at their
own edges (MMA_NS, MMA_KS: N and K multiples of 8, which their 16-byte copies need, ragged against
tile and slice).

Why each shape: N = 1 and K = 1 leave most of a TMA box outside the tensor (N = 1, 64, 65, 129:
B's second 64-column box, and with the 128×256 kernel its third and fourth, lie wholly outside
B), K = 63 and 65 a ragged last slice, M = 1 and 129 a ragged or all-but-empty row tile (the
128×256 kernel's second block of a cluster wholly below M). For tf32 the slice is 32 deep, so
K = 63, 64 and 65 are two and three slices; K = 1, 63 and 65 leave the copies' rows padded (ldk
= K rounded up to 4), which the tensor maps must stop short of. TMA fills what lies outside with
zeros and still counts the whole box towards the mbarrier's transaction bytes; were the bytes a
box delivers ever fewer than the expect_tx, the kernel would wait forever. So every run has a
time limit: one run per kernel and M (all 16 N×K shapes), and when that run times out each of
its shapes again alone up to the first that hangs, which is named. A hang is a failure with the shape
named ("timeout after S s"), never a stuck lease.

usage: wgmma_edges.py GPUBENCH OUTDIR [BATCH_LIMIT_S [SHAPE_LIMIT_S]]
Prints one line per kernel and M, and the failures; exit 0 when every row is ok (or
unsupported, with its note), 1 otherwise. Writes OUTDIR/wgmma-edges-<kernel>-m<M>.csv and .log.
"""
import csv
import os
import subprocess
import sys

MS = [1, 129]
NS = [1, 64, 65, 129]
KS = [1, 63, 64, 65]
# the mma.sync kernels' own edges: their 16-byte cp.async takes rows of A and B in multiples of 8
# halves (elsewhere the WMMA kernel runs), so N, K multiples of 8 but ragged against the 128×128
# tile and the 32-deep slice: one partial slice (8), one and a partial (40), more slices than
# stages (72, 136), a second column tile of 8 (136)
MMA_NS = [8, 64, 72, 136]
MMA_KS = [8, 40, 72, 136]
# (label, the row's tiers, the variable that forces the kernel and its value, or None: tf32 has
# one wgmma kernel; N values, K values)
KERNELS = [("128x128", "f16,bf16", "GPUBENCH_WGMMA_KERNEL", "128x128", NS, KS),
           ("128x256", "f16,bf16", "GPUBENCH_WGMMA_KERNEL", "128x256", NS, KS),
           ("tf32", "tf32", None, None, NS, KS),
           ("64x32", "f16,bf16", "GPUBENCH_MMA_KERNEL", "64x32", MMA_NS, MMA_KS),
           ("64x64", "f16,bf16", "GPUBENCH_MMA_KERNEL", "64x64", MMA_NS, MMA_KS)]
BATCH_LIMIT, SHAPE_LIMIT = 60, 20


def shape(m, n, k):
    return f"gemm:m={m},n={n},k={k}"


def run(gb, kernel, shapes, csv_path, log_path, limit):
    """One gpubench run of gemm/cuda_tc at shapes on `kernel` (a KERNELS entry's label, tiers,
    forcing variable and value; scripts/lib/dmma_edges.py: f64's DMMA kernel); the exit status,
    or None when it ran past `limit` seconds (then killed)."""
    _, dtypes, var, force = kernel[:4]
    cmd = [gb, "run", "-d", "cuda:0", "-w", "gemm", "-i", "cuda_tc", "-D", dtypes,
           "--reps", "1", "--warmup", "0", "--min-time", "0", "-o", csv_path]
    for s in shapes:
        cmd += ["-s", s]
    env = dict(os.environ)
    env.pop("GPUBENCH_WGMMA_KERNEL", None)  # a user's choice must not pick tf32's kernel
    if var:
        env[var] = force
    with open(log_path, "a") as log:
        log.write((f"$ {var}={force} " if var else "$ ") + " ".join(cmd) + "\n")
        log.flush()
        try:
            return subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=limit).returncode
        except subprocess.TimeoutExpired:
            log.write(f"timeout after {limit} s\n")
            return None


def bad_rows(csv_path):
    """[(dtype, shape, status)] of the rows that are neither ok nor unsupported, and the first
    row's note (which kernel ran)."""
    bad, note = [], ""
    try:
        with open(csv_path, newline="") as f:
            for row in csv.DictReader(f):
                if not note:  # the kernel's words ("own …"), not the statistics' before them
                    n = row.get("note", "")
                    note = n[n.find("own "):] if "own " in n else n
                if row.get("status") not in ("ok", "unsupported"):
                    bad.append((row.get("dtype"), row.get("shape"), row.get("status")))
    except OSError as e:
        bad.append(("-", "-", f"no CSV ({e.strerror})"))
    return bad, note


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    gb, out = argv[1], argv[2]
    batch_limit = int(argv[3]) if len(argv) > 3 else BATCH_LIMIT
    shape_limit = int(argv[4]) if len(argv) > 4 else SHAPE_LIMIT
    os.makedirs(out, exist_ok=True)
    failed = 0
    for kernel in KERNELS:
        label, dtypes = kernel[0], kernel[1]
        for m in MS:
            stem = os.path.join(out, f"wgmma-edges-{label}-m{m}")
            shapes = [shape(m, n, k) for n in kernel[4] for k in kernel[5]]
            rc = run(gb, kernel, shapes, stem + ".csv", stem + ".log", batch_limit)
            if rc is None:
                # name the shape that hangs: each alone, under its own limit
                print(f"wgmma edges {label} M={m}: timeout after {batch_limit} s; "
                      "each shape alone:")
                failed = 1
                for s in shapes:
                    one = f"{stem}-{s.split(':')[1].replace(',', '-')}"
                    rc1 = run(gb, kernel, [s], one + ".csv", stem + ".log", shape_limit)
                    if rc1 is None:
                        print(f"  FAIL {label} {s}: timeout after {shape_limit} s (a hang); "
                              "the rest of this M not rerun")
                        break
                    if rc1 != 0 or bad_rows(one + ".csv")[0]:
                        print(f"  FAIL {label} {s}: exit {rc1}, {bad_rows(one + '.csv')[0]}")
                continue
            bad, note = bad_rows(stem + ".csv")
            if rc != 0 or bad:
                failed = 1
                print(f"wgmma edges {label} M={m}: FAIL exit {rc}; see {stem}.log")
                for dtype, s, st in bad:
                    print(f"  FAIL {label} {dtype} {s}: {st}")
            else:
                print(f"wgmma edges {label} M={m}: {len(shapes)} shapes × {dtypes} ok "
                      f"({note[:90]})")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
