#!/usr/bin/python3
"""torch_ref.py — PyTorch's time for one of gpubench's workloads at a shape, FP32.

usage: torch_ref.py WORKLOAD SHAPE THREADS SECONDS [DEVICE]
       e.g. torch_ref.py W k=v,k=v 2 2        (DEVICE: cpu, the default, or cuda)
What runs is the workload's own: torch_step(torch, shape, device) of kernels/WORKLOAD/peer.py,
a function that does one step at that shape (the shape's keys as the peer names them).
Prints "median_ms=… torch=… threads=… device=…". Run it with Debian's system interpreter
(python3-torch) and OMP_WAIT_POLICY=PASSIVE, PyTorch's fastest setting on these machines. On CUDA
each step is timed between two CUDA events, as gpubench times its GPU repetitions, TF32 is off
(gpubench's rows are pure FP32) and cuDNN picks its fastest algorithm once per shape, as
gpubench's cuDNN rows do.
"""
import importlib.util
import os
import statistics
import sys
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_peer(workload):
    """kernels/WORKLOAD/peer.py as a module."""
    path = os.path.join(ROOT, "kernels", workload, "peer.py")
    if not os.path.isfile(path):
        sys.exit(f"torch_ref.py: {workload} has no {os.path.relpath(path, ROOT)}")
    spec = importlib.util.spec_from_file_location(f"peer_{workload}", path)
    peer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peer)
    return peer


def time_median(fn, seconds, sync):
    """Median ms of fn() on the host clock, each call synchronized (the CPU)."""
    fn()
    fn()
    sync()
    samples, t0 = [], time.perf_counter()
    while len(samples) < 5 or time.perf_counter() - t0 < seconds:
        t = time.perf_counter()
        fn()
        sync()
        samples.append((time.perf_counter() - t) * 1e3)
    return statistics.median(samples)


def time_median_events(torch, fn, seconds):
    """Median ms of fn() between two CUDA events on the current stream, as gpubench times its
    GPU rows' repetitions (kernel time, not the host's launch of it)."""
    fn()
    fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples, t0 = [], time.perf_counter()
    while len(samples) < 5 or time.perf_counter() - t0 < seconds:
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop))
    return statistics.median(samples)


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit("usage: torch_ref.py WORKLOAD SHAPE THREADS SECONDS [DEVICE]")
    workload, shape_text, threads, seconds = sys.argv[1:5]
    device = sys.argv[5] if len(sys.argv) == 6 else "cpu"
    shape = {k: int(v) for k, v in (kv.split("=", 1) for kv in shape_text.split(","))}
    torch.set_num_threads(int(threads))
    sync = lambda: None
    if device.startswith("cuda"):
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cudnn.benchmark = True
        sync = torch.cuda.synchronize
    torch.manual_seed(0)
    step = load_peer(workload).torch_step(torch, shape, device)
    if device.startswith("cuda"):
        ms = time_median_events(torch, step, float(seconds))
    else:
        ms = time_median(step, float(seconds), sync)
    print(f"median_ms={ms:.6g} torch={torch.__version__} threads={torch.get_num_threads()} "
          f"device={device}")


if __name__ == "__main__":
    main()
