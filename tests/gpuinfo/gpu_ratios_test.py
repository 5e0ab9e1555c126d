#!/usr/bin/python3
"""gpu_ratios_test.py — scripts/lib/gpu_ratios.py divides a row only by a row of its own precision
tier: on a run with an f32 and an f64 GEMM, own ÷ cuBLAS is 0.800 in float32 and 0.250 in
float64 (the f64 row once was divided by the f32 cuBLAS row: 0.100), gemm/cuda_tc's DMMA row
0.900 in float64, and every table names the tier. A ratio of one kernel an implementation chose
(its "note" key: the persistent wgmma kernel) takes only the rows whose note names it: 0.800 for
the f16 row at 4096³ that ran it, none for the bf16 row that ran the 128×128 kernel.
usage: gpu_ratios_test.py GPUBENCH
"""
import csv
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COLS = ["device", "workload", "impl", "dtype", "shape", "status", "gflops", "gbps", "median_ms",
        "e2e_median_ms", "note"]
SHAPE = "m=2048;n=2048;k=2048"
ROWS = [  # device, impl, dtype, GFLOP/s
    ("cuda:0", "cuda", "float32", 40000), ("cuda:0", "cublas", "float32", 50000),
    ("cuda:0", "cuda", "float64", 10000), ("cuda:0", "cublas", "float64", 40000),
    ("cuda:0", "cuda_tc", "float64", 36000),  # the DMMA kernel: 0.900 of cuBLAS
]
BIG = "m=4096;n=4096;k=4096"
BIG_ROWS = [  # impl, dtype, GFLOP/s, note
    ("cublas", "float16", 700000, ""), ("cublas", "bfloat16", 700000, ""),
    ("cuda_tc", "float16", 560000, "own wgmma f16 persistent 128x256 tiles (m64n256k16)"),
    ("cuda_tc", "bfloat16", 350000, "own wgmma bf16 128x128 tiles (forced)"),
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
                                e2e_median_ms=2.0, note=""))
            for impl, dtype, gf, note in BIG_ROWS:
                w.writerow(dict(device="cuda:0", workload="gemm", impl=impl, dtype=dtype,
                                shape=BIG, status="ok", gflops=gf, gbps="", median_ms=1.0,
                                e2e_median_ms=2.0, note=note))
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
    persist = re.findall(r"^\| own persistent wgmma GEMM 128x256 ÷ cuBLAS \(GFLOP/s\) \| cuda:0 \| "
                         r"(\w+) \| ([^|]+) \| ([0-9.]+) \|", text, re.M)
    ok = persist == [("float16", BIG, "0.800")]
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} persistent wgmma ÷ cuBLAS rows {persist}, want the f16 "
          "row alone at 0.800")
    for header in ("| ratio | device | dtype |", "| device | workload | impl | dtype |"):
        ok = header in text
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} a table with '{header}'")
    if failed:
        print(text)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
