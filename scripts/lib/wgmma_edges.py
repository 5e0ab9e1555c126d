#!/usr/bin/env python3
"""wgmma_edges.py — gemm/cuda_tc's f16, bf16 and tf32 at the Hopper kernels' edge shapes (issue
39, items 6 and 2), for scripts/gpu-check and scripts/kernel-lease: M ∈ {1, 129}, N ∈ {1, 64, 65,
129}, K ∈ {1, 63, 64, 65}, on each wgmma kernel in turn: f16 and bf16 on the 128×128 and the
persistent 128×256 kernel (GPUBENCH_WGMMA_KERNEL=128x128, 128x256: kernels/gemm/cuda_tc.c), tf32
on its 128×128 kernel with the pass before it (kernels/gemm/wgmma_tf32.cuh); a card without the
wgmma path runs its own kernels, as it would anyway.

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

# (label, the row's tiers, GPUBENCH_WGMMA_KERNEL or None: tf32 has one wgmma kernel)
KERNELS = [("128x128", "f16,bf16", "128x128"), ("128x256", "f16,bf16", "128x256"),
           ("tf32", "tf32", None)]
MS = [1, 129]
NS = [1, 64, 65, 129]
KS = [1, 63, 64, 65]
BATCH_LIMIT, SHAPE_LIMIT = 60, 20


def shape(m, n, k):
    return f"gemm:m={m},n={n},k={k}"


def run(gb, kernel, shapes, csv_path, log_path, limit):
    """One gpubench run of gemm/cuda_tc at shapes on the wgmma kernel `kernel` (a KERNELS
    entry); the exit status, or None when it ran past `limit` seconds (then killed)."""
    _, dtypes, force = kernel
    cmd = [gb, "run", "-d", "cuda:0", "-w", "gemm", "-i", "cuda_tc", "-D", dtypes,
           "--reps", "1", "--warmup", "0", "--min-time", "0", "-o", csv_path]
    for s in shapes:
        cmd += ["-s", s]
    env = dict(os.environ)
    env.pop("GPUBENCH_WGMMA_KERNEL", None)
    if force:
        env["GPUBENCH_WGMMA_KERNEL"] = force
    with open(log_path, "a") as log:
        log.write(("$ GPUBENCH_WGMMA_KERNEL=" + force + " " if force else "$ ") + " ".join(cmd) +
                  "\n")
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
                note = note or row.get("note", "")
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
            shapes = [shape(m, n, k) for n in NS for k in KS]
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
