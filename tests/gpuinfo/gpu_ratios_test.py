#!/usr/bin/python3
"""gpu_ratios_test.py — scripts/lib/gpu_ratios.py divides a row only by a row of its own precision
tier: on a run with an f32 and an f64 GEMM, own ÷ cuBLAS is 0.800 in float32 and 0.250 in
float64 (the f64 row once was divided by the f32 cuBLAS row: 0.100), gemm/cuda_tc's DMMA row
0.900 in float64, and every table names the tier. usage: gpu_ratios_test.py GPUBENCH
"""
import csv
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COLS = ["device", "workload", "impl", "dtype", "shape", "status", "gflops", "gbps", "median_ms",
        "e2e_median_ms"]
SHAPE = "m=2048;n=2048;k=2048"
ROWS = [  # device, impl, dtype, GFLOP/s
    ("cuda:0", "cuda", "float32", 40000), ("cuda:0", "cublas", "float32", 50000),
    ("cuda:0", "cuda", "float64", 10000), ("cuda:0", "cublas", "float64", 40000),
    ("cuda:0", "cuda_tc", "float64", 36000),  # the DMMA kernel: 0.900 of cuBLAS
]


def main():
    failed = 0
    with tempfile.TemporaryDirectory() as out:
        with open(os.path.join(out, "run.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLS)
            w.writeheader()
            for dev, impl, dtype, gf in ROWS:
                w.writerow(dict(device=dev, workload="gemm", impl=impl, dtype=dtype, shape=SHAPE,
                                status="ok", gflops=gf, gbps="", median_ms=1.0,
                                e2e_median_ms=2.0))
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "lib", "gpu_ratios.py"),
                        out, sys.argv[1]], check=True)
        text = open(os.path.join(out, "ratios.md")).read()
    for dtype, want in (("float32", "0.800"), ("float64", "0.250")):
        row = re.search(rf"^\| own GEMM ÷ cuBLAS \(GFLOP/s\) \| cuda:0 \| {dtype} \| {SHAPE} \| "
                        rf"([0-9.]+) \|", text, re.M)
        got = row.group(1) if row else None
        ok = got == want
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {dtype}: own ÷ cuBLAS {got}, want {want}")
    row = re.search(rf"^\| own tensor-core GEMM ÷ cuBLAS \(GFLOP/s\) \| cuda:0 \| float64 \| "
                    rf"{SHAPE} \| ([0-9.]+) \| meets", text, re.M)
    ok = row is not None and row.group(1) == "0.900"
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} float64 tensor-core GEMM ÷ cuBLAS "
          f"{row.group(1) if row else None}, want 0.900 (meets ≥ 0.8)")
    for header in ("| ratio | device | dtype |", "| device | workload | impl | dtype |"):
        ok = header in text
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} a table with '{header}'")
    if failed:
        print(text)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
