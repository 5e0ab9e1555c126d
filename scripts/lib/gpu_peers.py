#!/usr/bin/env python3
"""gpu_peers.py — gpubench's CUDA rows against PyTorch on the same card, minutes apart: for every
workload with a peer (kernels/<w>/peer.py: torch_step and its default SHAPE), ROUNDS interleaved
rounds of (gpubench's CUDA implementations at that shape on cuda:0, then PyTorch's step timed the
same way, between CUDA events — scripts/speed/torch_ref.py). PyTorch's step is FP32 (TF32 off),
so only gpubench's float32 rows are run and compared; every line still names its tier. Ratios
are times: gpubench ÷ PyTorch, below 1 when gpubench is faster. Used by scripts/gpu-check.

usage: gpu_peers.py GPUBENCH PYTHON OUT_DIR ROUNDS [quick]
(quick: at each workload's quick shape, timed as --quick, for a rehearsal) writes OUT_DIR/peers.csv (one line per round and implementation) and OUT_DIR/peers.md (median
ratio and range per implementation); exit 1 when a run failed.
"""
import csv
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import gpubench_list  # noqa: E402


def load_peer(workload):
    path = os.path.join(ROOT, "kernels", workload, "peer.py")
    if not os.path.isfile(path):
        return None
    spec = importlib.util.spec_from_file_location(f"peer_{workload}", path)
    peer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peer)
    return peer if hasattr(peer, "torch_step") and hasattr(peer, "SHAPE") else None


TORCH_DTYPE = "f32"  # what torch_ref.py computes in


def gpubench_ms(gb, workload, shape, impls, quick):
    """{(impl, dtype): (median_ms, batch_ms or None)} of gpubench's cuda:0 rows at `shape`, in
    PyTorch's tier, of `impls` (None: every CUDA implementation)."""
    timing = ["--quick"] if quick else ["--min-time", "0.5"]
    which = ["-i", ",".join(impls)] if impls else []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.csv")
        subprocess.run([gb, "-d", "cuda:0", "-w", workload, *which, "--shape",
                        f"{workload}:{shape}", "--dtype", TORCH_DTYPE, *timing, "--out", out],
                       check=True, capture_output=True, text=True)
        with open(out, newline="") as f:
            return {(r["impl"], r["dtype"]): (float(r["median_ms"]),
                                              float(r["batch_ms"]) if r["batch_ms"] else None)
                    for r in csv.DictReader(f) if r["status"] == "ok"}


def torch_ms(python, workload, shape):
    out = subprocess.run([python, os.path.join(ROOT, "scripts", "speed", "torch_ref.py"),
                          workload, shape, "1", "1", "cuda"], check=True, capture_output=True,
                         text=True).stdout
    fields = dict(kv.split("=", 1) for kv in out.split() if "=" in kv)
    return float(fields["median_ms"]), fields.get("torch", "?")


def main():
    if len(sys.argv) not in (5, 6) or sys.argv[5:] not in ([], ["quick"]):
        sys.exit(__doc__.split("\n\n")[1])
    gb, python, out_dir, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    quick = sys.argv[5:] == ["quick"]
    lines, failed, version = [], False, "?"
    # GPU_PEERS_DEADLINE (seconds since the epoch; scripts/gpu-check sets it from its budget):
    # no round of a workload starts after it, so a short lease keeps what was measured.
    deadline = float(os.environ.get("GPU_PEERS_DEADLINE", "inf"))
    peers = []
    for w in gpubench_list.read(gb):
        peer = load_peer(w.name)
        if peer is not None and w.impls("cuda"):
            shape = w.quick[0] if quick else ",".join(f"{k}={v}" for k, v in peer.SHAPE.items())
            peers.append((w, peer, shape))
    stopped = None
    for r in range(1, rounds + 1):  # round by round over every workload: interleaved
        for w, peer, shape in peers:
            if time.time() > deadline:
                stopped = stopped or f"{w.name} round {r}"
                continue
            try:
                ours = gpubench_ms(gb, w.name, shape, getattr(peer, "TORCH_IMPLS", None),
                                   quick)
                theirs, version = torch_ms(python, w.name, shape)
            except subprocess.CalledProcessError as e:
                print(f"gpu_peers: {w.name} round {r}: {e.cmd[0]} failed:\n{e.stderr}",
                      file=sys.stderr)
                failed = True
                continue
            for (impl, dtype), (ms, batch) in ours.items():
                lines.append(dict(workload=w.name, shape=shape, impl=impl, dtype=dtype, round=r,
                                  gpubench_ms=ms, gpubench_batch_ms=batch, torch_ms=theirs,
                                  ratio=ms / theirs,
                                  ratio_batch=batch / theirs if batch else None))
                print(f"{w.name}/{impl} {dtype} {shape} round {r}: {ms:.4g} ms vs PyTorch "
                      f"{theirs:.4g} ms = {ms / theirs:.3f}", file=sys.stderr)
    with open(os.path.join(out_dir, "peers.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=["workload", "shape", "impl", "dtype", "round",
                                           "gpubench_ms", "gpubench_batch_ms", "torch_ms",
                                           "ratio", "ratio_batch"])
        wr.writeheader()
        wr.writerows(lines)
    with open(os.path.join(out_dir, "peers.md"), "w") as f:
        f.write(f"PyTorch {version} on cuda:0, FP32 (TF32 off), both timed between CUDA events; "
                f"ratio = gpubench time ÷ PyTorch time, {rounds} interleaved rounds"
                f"{f' (the budget stopped them at {stopped})' if stopped else ''}. gpubench's time "
                f"is one run behind the queue hold (device time only); PyTorch's step is timed "
                f"as issued, so its host dispatch gaps are inside it (peers.csv also divides "
                f"gpubench's back-to-back batch_ms)\n\n")
        f.write("| workload | shape | impl | dtype | median ratio | range |\n"
                "|---|---|---|---|--:|---|\n")
        keys = sorted({(x["workload"], x["shape"], x["impl"], x["dtype"]) for x in lines})
        for k in keys:
            rs = [x["ratio"] for x in lines
                  if (x["workload"], x["shape"], x["impl"], x["dtype"]) == k]
            f.write(f"| {' | '.join(k)} | {statistics.median(rs):.3f} | "
                    f"{min(rs):.3f}–{max(rs):.3f} |\n")
    sys.exit(1 if failed or not lines else 0)


if __name__ == "__main__":
    main()
