#!/usr/bin/env python3
"""rapl_run.py — CPU rows of a real run get joules and GFLOP/J from a powercap tree.

usage: rapl_run.py GPUBENCH WORKLOAD

Builds a fake powercap tree (one package zone whose energy_uj a thread advances at 40 W, wrapping
at max_energy_range_uj every 2.4 s; its power limit is 40 W, so gpubench reads it every 0.6 s),
runs `gpubench --dtype f32 --min-time 9.6 --max-time 28.8 -d cpu -w WORKLOAD` (default shapes:
--quick's are so fast that 10,000 repetitions, MAX_REPS, end a row within a second) with
GPUBENCH_TEST_POWERCAP pointing at it, and checks every CPU row: its timed loop lasted
--min-time (four wraps), power_avg_w within 15% of 40 W (one lost wrap costs 96 J of its 384 J
or more), energy_per_rep_j =
power × median, gflops_per_j (or gb_per_j) = rate ÷ power, and the GPU-only columns empty. Then
the same with --no-telemetry (shorter rows): every telemetry cell empty.

Meant to pass on a loaded machine: the counter is computed from the clock, so a late writer only
delays it, and a gpubench read held off past a wrap is resolved by the row's rate (rapl_acc in
harness/telemetry/rapl.h; 0.9 s was seen). But this writer is a thread of a test, not hardware:
one held off for a whole wrap makes the file skip one, which no reader can see (the reads go on
and find a small step). With a 0.8 s wrap that happened once in the full suite with both cores
busy and a third process spinning (32 W read for 40): hence 2.4 s. The writer records its
longest pause; a failed run in which it paused for 90% of a wrap or more is measured again, once
(any other failure fails at once).
"""
import csv
import os
import subprocess
import sys
import tempfile
import threading
import time

WATTS = 40.0
WRAP_UJ = 96_000_000  # 96 J: wraps every 2.4 s at 40 W
MIN_TIME_S = 9.6
GPU_ONLY = ("sm_clock_start_mhz", "sm_clock_end_mhz", "sm_clock_max_mhz", "mem_clock_start_mhz",
            "mem_clock_end_mhz", "mem_clock_max_mhz", "power_peak_w", "temp_c",
            "throttle_reasons", "pcie_gen", "pcie_width", "pcie_gen_max", "pcie_width_max", "ecc",
            "persistence", "shared_gpu")
failures = 0
# The longest the writer thread went without writing, since the last reset (seconds).
writer_gap = [0.0]


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print(f"FAIL: {what}")


def counter(path, stop):
    """Advance energy_uj at WATTS, wrapping, every 2 ms (written whole: a reader never sees half)."""
    t0 = last = time.monotonic()
    while not stop.is_set():
        now = time.monotonic()
        writer_gap[0] = max(writer_gap[0], now - last)
        last = now
        uj = int((now - t0) * WATTS * 1e6) % WRAP_UJ
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"{uj}\n")
        os.replace(tmp, path)
        time.sleep(0.002)


def run(gpubench, workload, tree, extra, min_time):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.csv")
        env = dict(os.environ, GPUBENCH_TEST_POWERCAP=tree)
        # --max-time above --min-time, so that each row's timed loop lasts min_time
        p = subprocess.run([gpubench, "--dtype", "f32", "--min-time", str(min_time),
                            "--max-time", str(3 * min_time), "-d", "cpu", "-w", workload,
                            "--out", out] + extra,
                           env=env, capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, f"gpubench exited {p.returncode}: {p.stderr.strip()}")
        with open(out, newline="") as f:
            return list(csv.DictReader(f))


def check_rows(rows):
    check(rows, "no rows")
    for r in rows:
        key = f"{r['workload']}/{r['impl']} {r['shape']}"
        if r["status"] != "ok":
            continue
        w = float(r["power_avg_w"] or 0)
        check(0.85 * WATTS < w < 1.15 * WATTS, f"{key}: power_avg_w {r['power_avg_w']!r}, ~{WATTS}")
        j = float(r["energy_per_rep_j"] or 0)
        want = w * float(r["median_ms"]) / 1e3
        check(abs(j - want) <= 1e-3 * want + 1e-9, f"{key}: energy_per_rep_j {j} != {want}")
        # the timed loop spanned the wraps this test is about
        timed_s = float(r["mean_ms"]) * int(r["reps"]) / 1e3  # the samples' sum
        check(timed_s >= 0.9 * MIN_TIME_S, f"{key}: timed {timed_s:.2f} s, under --min-time")
        for rate, per_j in (("gflops", "gflops_per_j"), ("gbps", "gb_per_j")):
            if r[rate]:
                got = float(r[per_j] or 0)
                check(abs(got - float(r[rate]) / w) <= 2e-3 * got, f"{key}: {per_j} {got}")
            else:
                check(r[per_j] == "", f"{key}: {per_j} {r[per_j]!r} without {rate}")
        for c in GPU_ONLY:
            check(r[c] == "", f"{key}: GPU-only {c} = {r[c]!r} on the CPU")


def main():
    gpubench, workload = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tree:
        zone = os.path.join(tree, "intel-rapl:0")
        os.mkdir(zone)
        for name, text in (("name", "package-0"), ("max_energy_range_uj", str(WRAP_UJ)),
                           ("constraint_0_power_limit_uw", str(int(WATTS * 1e6))),
                           ("energy_uj", "0")):
            with open(os.path.join(zone, name), "w") as f:
                f.write(text + "\n")
        stop = threading.Event()
        t = threading.Thread(target=counter, args=(os.path.join(zone, "energy_uj"), stop))
        t.start()
        try:
            # A writer held off for a whole wrap made the file skip one (see above): that run
            # says nothing of gpubench, so it is measured again, once, and said so.
            global failures
            for attempt in range(2):
                failures, writer_gap[0] = 0, 0.0
                check_rows(run(gpubench, workload, tree, [], MIN_TIME_S))
                print(f"the fake counter's writer went at most {writer_gap[0]:.2f} s without "
                      f"a write (a wrap is {WRAP_UJ / WATTS / 1e6:.1f} s)")
                if not failures or writer_gap[0] < 0.9 * WRAP_UJ / WATTS / 1e6 or attempt:
                    break
                print("the writer stalled for most of a wrap: the file may have skipped one; "
                      "measuring again")
            for r in run(gpubench, workload, tree, ["--no-telemetry", "--quick"], 0.5):
                check(r["power_avg_w"] == "" and r["energy_per_rep_j"] == "",
                      f"--no-telemetry: {r['impl']} has power {r['power_avg_w']!r}")
        finally:
            stop.set()
            t.join()
    print("ok" if not failures else f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
