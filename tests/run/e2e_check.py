#!/usr/bin/python3
"""e2e_check.py — run `gpubench --quick` and check its CSV and samples file line by line.

Usage: e2e_check.py PATH/TO/gpubench
Checks: results/README.md's fixed columns in order; schema gpubench-1; one run_id; every expected
(workload, impl) row present and `ok` on the CPU; numbers parse and are consistent (min ≤ median ≤
CI high, CI low ≤ median, reps ≥ 1, GFLOP/s = flops / median); canonical shapes; the samples
file holds exactly `reps` samples per row; no .partial file is left.
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

FIXED = ("schema,run_id,utc,host,device,device_name,cc,driver,runtime,blas_lib,dnn_lib,threads,"
         "workload,impl,dtype,shape,flops,bytes,reps,median_ms,min_ms,mean_ms,stddev_ms,"
         "ci95_lo_ms,ci95_hi_ms,e2e_median_ms,gflops,gbps,peak_pct,max_rel_err,status,note"
         ).split(",")
SHAPE_KEYS = {
    "vecadd": ["n"],
    "gemm": ["m", "n", "k"],
    "conv2d": ["n", "c", "h", "w", "k", "r", "s", "stride_h", "stride_w", "pad_h", "pad_w"],
    "mlp_train": ["batch", "in", "hidden", "out"],
}
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def main():
    gpubench = os.path.abspath(sys.argv[1])
    listing = subprocess.run([gpubench, "list"], capture_output=True, text=True, check=True).stdout
    expected = set()  # (workload, impl) pairs of CPU implementations this build has
    workload = None
    for line in listing.splitlines():
        if line.startswith("  ") and not line.startswith("    ") and not line.startswith("  cpu"):
            workload = line.split()[0]
        elif line.startswith("    ") and "[cpu]" in line and workload:
            expected.add((workload, line.split()[0]))
        elif line.startswith("devices:"):
            break
    check(("vecadd", "cpu") in expected, "list shows vecadd/cpu")

    with tempfile.TemporaryDirectory() as tmp:
        out, samples = os.path.join(tmp, "r.csv"), os.path.join(tmp, "s.csv")
        proc = subprocess.run([gpubench, "--quick", "-d", "cpu", "--out", out, "--samples", samples],
                              capture_output=True, text=True, timeout=240)
        print(proc.stdout)
        print(proc.stderr, file=sys.stderr)
        check(proc.returncode == 0, f"exit code {proc.returncode}")
        check(not any(f.endswith(".partial") for f in os.listdir(tmp)), "no .partial file left")
        with open(out, newline="") as f:
            rows = list(csv.reader(f))
        header, body = rows[0], rows[1:]
        check(header[:len(FIXED)] == FIXED, f"fixed columns in order: {header}")
        seen = set()
        by_key = {}
        for r in body:
            check(len(r) == len(header), f"row has {len(r)} fields, header {len(header)}")
            d = dict(zip(header, r))
            key = (d["workload"], d["impl"])
            seen.add(key)
            by_key[(d["device"], d["workload"], d["impl"], d["shape"])] = d
            check(d["schema"] == "gpubench-1", "schema")
            check(d["run_id"] == body[0][1], "one run_id")
            check(d["device"] == "cpu" and d["cc"] == "", "cpu row, empty cc")
            check(d["dtype"] == "float32", "dtype")
            check(d["status"] == "ok", f"{key} status {d['status']}: {d['note']}")
            check("OpenBLAS" in d["blas_lib"] and "threads=" in d["blas_lib"], "blas_lib provenance")
            check(int(d["threads"]) >= 1, "threads")
            keys = [kv.split("=")[0] for kv in d["shape"].split(";")]
            check(keys == SHAPE_KEYS.get(d["workload"], keys), f"canonical shape {d['shape']}")
            num = {k: float(d[k]) for k in ("flops", "bytes", "reps", "median_ms", "min_ms", "mean_ms",
                                            "stddev_ms", "ci95_lo_ms", "ci95_hi_ms", "e2e_median_ms",
                                            "gflops", "gbps", "max_rel_err")}
            check(num["reps"] >= 3, f"{key} reps {num['reps']} >= --quick minimum 3")
            check(0 < num["min_ms"] <= num["median_ms"] <= num["ci95_hi_ms"], f"{key} min<=median<=hi")
            check(num["ci95_lo_ms"] <= num["median_ms"], f"{key} lo<=median")
            check(num["stddev_ms"] >= 0 and num["mean_ms"] >= num["min_ms"], f"{key} mean, stddev")
            gf = num["flops"] / (num["median_ms"] / 1e3) / 1e9
            check(math.isclose(gf, num["gflops"], rel_tol=1e-3), f"{key} gflops {gf} vs {num['gflops']}")
            check(0 <= num["max_rel_err"] < 1e-2, f"{key} max_rel_err {num['max_rel_err']}")
            check(num["e2e_median_ms"] == num["median_ms"], f"{key} CPU e2e equals median")
        check(expected <= seen, f"every CPU implementation ran: missing {expected - seen}")
        with open(samples, newline="") as f:
            srows = list(csv.reader(f))
        check(srows[0] == "run_id,device,workload,impl,shape,rep,ms".split(","), "samples header")
        counts = {}
        for r in srows[1:]:
            k = (r[1], r[2], r[3], r[4])
            counts[k] = counts.get(k, 0) + 1
            check(float(r[6]) > 0, "sample > 0")
        for k, d in by_key.items():
            check(counts.get(k, 0) == int(d["reps"]), f"{k}: {counts.get(k, 0)} samples, reps {d['reps']}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
