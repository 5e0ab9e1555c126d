#!/usr/bin/python3
"""e2e_check.py — run `gpubench --quick` and check its CSV and samples file line by line.

Usage: e2e_check.py PATH/TO/gpubench
Checks: results/README.md's fixed columns in order; schema gpubench-1; one run_id; every CPU
(workload, impl) pair of `gpubench list` present and `ok` on the CPU; numbers parse and are
consistent (min ≤ median ≤ CI high, CI low ≤ median, reps ≥ 1, GFLOP/s = flops / median);
canonical shapes: the workload's keys (those its "unknown key" refusal names) in their order with
whole-number values, and `--shape W:<the CSV's shape>` gives the same shape back; a negative value
is a one-line usage error for every workload; the samples file holds exactly `reps` samples per
row; no .partial file is left. No workload is named here: they all come from `gpubench list`.
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                                "lib"))
import gpubench_list  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402

FIXED = ("schema,run_id,utc,host,device,device_name,cc,driver,runtime,blas_lib,dnn_lib,threads,"
         "workload,impl,dtype,shape,flops,bytes,reps,median_ms,min_ms,mean_ms,stddev_ms,"
         "ci95_lo_ms,ci95_hi_ms,e2e_median_ms,gflops,gbps,peak_pct,max_rel_err,status,note"
         ).split(",")


def usage_error(gpubench, args, cwd):
    """Run gpubench ARGS expecting a usage error; return its one line (checked) or ""."""
    proc = subprocess.run([gpubench] + args, capture_output=True, text=True, cwd=cwd, timeout=60)
    lines = (proc.stdout + proc.stderr).splitlines()
    check(proc.returncode == 2 and len(lines) == 1,
          f"{args}: exit {proc.returncode}, {len(lines)} lines (want 2, one line): {lines}")
    check(not os.listdir(cwd), f"{args}: left files behind: {os.listdir(cwd)}")
    return lines[0] if lines else ""


def shape_keys(gpubench, name, cwd):
    """A workload's shape keys in canonical order, as its refusal of an unknown key names them."""
    line = usage_error(gpubench, ["-w", name, "--shape", f"{name}:no_such_key=1"], cwd)
    m = re.search(rf"unknown key 'no_such_key' for {re.escape(name)} \(keys: ([a-z0-9_,]+)\)", line)
    check(m is not None, f"{name}: unknown key refusal names the keys: {line}")
    return m.group(1).split(",") if m else []


def shape_of(text):
    """The keys of a canonical shape "k=v;k=v", in order; its values must be whole numbers."""
    pairs = [kv.partition("=") for kv in text.split(";")]
    check(all(re.fullmatch(r"[0-9]+", v) for _, _, v in pairs), f"whole-number values: {text}")
    return [k for k, _, _ in pairs]


def main():
    gpubench = os.path.abspath(sys.argv[1])
    workloads = gpubench_list.read(gpubench)
    check(len(workloads) >= 1, "list shows workloads")
    for w in workloads:
        check(w.impls() and w.default and w.quick and w.sweep,
              f"list shows {w.name}'s implementations and default, quick and sweep shapes")
    # (workload, impl) pairs of CPU implementations this build has
    expected = {(w.name, i) for w in workloads for i in w.impls("cpu")}
    check(len(expected) >= 1, "list shows a CPU implementation")

    keys = {}  # workload -> canonical keys
    with tempfile.TemporaryDirectory() as empty:
        for w in workloads:
            keys[w.name] = shape_keys(gpubench, w.name, empty)
            first = keys[w.name][0] if keys[w.name] else "n"
            line = usage_error(gpubench, ["-w", w.name, "--shape", f"{w.name}:{first}=-4"], empty)
            check(f"--shape {w.name}:{first}=-4: " in line and "negative" in line,
                  f"{w.name}: a negative value is refused: {line}")

    with tempfile.TemporaryDirectory() as tmp:
        out, samples = os.path.join(tmp, "r.csv"), os.path.join(tmp, "s.csv")
        # --max-time 30: on a loaded machine a row can spend --quick's 1 s before its batches,
        # which are then skipped (batch_ms empty) by design; this test wants them measured.
        proc = subprocess.run([gpubench, "--quick", "--max-time", "30", "-d", "cpu", "--out", out,
                               "--samples", samples], capture_output=True, text=True, timeout=240)
        print(proc.stdout)
        print(proc.stderr, file=sys.stderr)
        check(proc.returncode == 0, f"exit code {proc.returncode}")
        check(not any(f.endswith(".partial") for f in os.listdir(tmp)), "no .partial file left")
        with open(out, newline="") as f:
            rows = list(csv.reader(f))
        header, body = rows[0], rows[1:]
        check(header[:len(FIXED)] == FIXED, f"fixed columns in order: {header}")
        check(header[-2:] == ["cpu_wait_pct", "marks"],
              f"cpu_wait_pct, then marks, are the last extra columns: {header}")
        seen = set()
        by_key = {}
        for r in body:
            check(len(r) == len(header), f"row has {len(r)} fields, header {len(header)}")
            d = dict(zip(header, r))
            key = (d["workload"], d["impl"])
            seen.add(key)
            by_key[(d["device"], d["workload"], d["impl"], d["shape"], d["dtype"])] = d
            check(d["schema"] == "gpubench-1", "schema")
            check(d["run_id"] == body[0][1], "one run_id")
            check(d["device"] == "cpu" and d["cc"] == "", "cpu row, empty cc")
            check(d["dtype"] in ("float32", "float64"), f"dtype {d['dtype']}: the default tiers")
            if d["status"] == "unsupported" and d["dtype"] == "float64":
                continue  # an implementation without an f64 version says so, and is not timed
            check(d["status"] == "ok", f"{key} status {d['status']}: {d['note']}")
            check("OpenBLAS" in d["blas_lib"] and "threads=" in d["blas_lib"], "blas_lib provenance")
            check(int(d["threads"]) >= 1, "threads")
            check(shape_of(d["shape"]) == keys.get(d["workload"]),
                  f"canonical shape {d['shape']}: keys {keys.get(d['workload'])}")
            # a row with neither FLOPs nor bytes is a time alone (start-up costs): no rates
            num = {k: float(d[k]) if d[k] != "" or k not in ("gflops", "gbps") else 0.0
                   for k in ("flops", "bytes", "reps", "median_ms", "min_ms", "mean_ms",
                             "stddev_ms", "ci95_lo_ms", "ci95_hi_ms", "e2e_median_ms",
                             "gflops", "gbps", "max_rel_err")}
            time_only = num["flops"] == 0 and num["bytes"] == 0
            check(num["reps"] >= 3, f"{key} reps {num['reps']} >= --quick minimum 3")
            check(0 < num["min_ms"] <= num["median_ms"] <= num["ci95_hi_ms"], f"{key} min<=median<=hi")
            check(num["ci95_lo_ms"] <= num["median_ms"], f"{key} lo<=median")
            check(num["stddev_ms"] >= 0 and num["mean_ms"] >= num["min_ms"], f"{key} mean, stddev")
            gf = num["flops"] / (num["median_ms"] / 1e3) / 1e9
            check(math.isclose(gf, num["gflops"], rel_tol=1e-3) or time_only,
                  f"{key} gflops {gf} vs {num['gflops']}")
            check(0 <= num["max_rel_err"] < 1e-2, f"{key} max_rel_err {num['max_rel_err']}")
            check(num["e2e_median_ms"] == num["median_ms"], f"{key} CPU e2e equals median")
            # back-to-back batches fit in --quick's time: a positive time per run
            # (a time-only row is a fresh process per run: no batches)
            check(time_only or d.get("batch_ms", "") != "" and float(d["batch_ms"]) > 0,
                  f"{key} batch_ms {d.get('batch_ms')!r} is a time per run")
            # the share of the timed time spent waiting for a core: a percentage, read wherever
            # the kernel keeps scheduler statistics; above 10% the note says the CPU was shared
            wait = d.get("cpu_wait_pct", "missing")
            check(wait != "" or not os.path.exists("/proc/self/schedstat"),
                  f"{key} cpu_wait_pct empty although /proc/self/schedstat exists")
            if wait not in ("", "missing"):
                check(0 <= float(wait) <= 100, f"{key} cpu_wait_pct {wait} is a percentage")
                check((float(wait) > 10) == ("CPU shared: " in d["note"]),
                      f"{key} cpu_wait_pct {wait} and the note agree: {d['note']}")
        check(expected <= seen, f"every CPU implementation ran: missing {expected - seen}")
        with open(samples, newline="") as f:
            srows = list(csv.reader(f))
        check(srows[0] == ("run_id,device,workload,impl,shape,rep,ms,dtype,"
                           "sm_clock_mhz,power_w").split(","), "samples header")
        counts = {}
        for r in srows[1:]:
            k = (r[1], r[2], r[3], r[4], r[7])
            counts[k] = counts.get(k, 0) + 1
            check(float(r[6]) > 0, "sample > 0")
        for k, d in by_key.items():
            if d["status"] != "ok":
                continue
            check(counts.get(k, 0) == int(d["reps"]), f"{k}: {counts.get(k, 0)} samples, reps {d['reps']}")

        # Round trip: each canonical shape, given back with --shape, comes back unchanged.
        shapes = sorted({(d["workload"], d["shape"]) for d in by_key.values()})
        again = os.path.join(tmp, "again.csv")
        args = [gpubench, "-d", "cpu", "-w", ",".join(sorted({w for w, _ in shapes})), "--reps", "1",
                "--warmup", "0", "--min-time", "0", "--out", again]
        for w, shape in shapes:
            args += ["--shape", f"{w}:{shape}"]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=240)
        check(shapes and proc.returncode == 0, f"round trip: exit {proc.returncode}: {proc.stderr}")
        if shapes and proc.returncode == 0:
            with open(again, newline="") as f:
                back = sorted({(r["workload"], r["shape"]) for r in csv.DictReader(f)})
            check(back == shapes, f"round trip of the canonical shapes: {shapes} gave {back}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
