#!/usr/bin/python3
"""peak_check.py — the CPU `peak` column stays at or below 100% of a peak measured at start-up,
on a whole --sweep of workload W, unless the clock changed during the run, which the row's note
then says (issue 18).

  1. The calibration mocked at 5 GHz (GPUBENCH_TEST_CPU_CLOCK_MHZ, read only for tests): the
     run's machine facts (the JSON document's `devices`, once per run) record that clock and the
     FP32 peak it gives; every row's note names the peak it divides by (half of it for float64),
     and holds none of the machine facts; its peak_pct is its GFLOP/s over that peak, and no row
     reads above 100% without saying the clock changed.
  2. Mocked at 1 kHz at start-up and 5 GHz after: every row reads above 100% of the start-up
     peak, and each says the clock changed, with the clock measured after it, naming the peak of
     its own tier (a float64 row's, not the FP32 one) before and after.
  3. Not mocked: the clock is measured (an FMA or add loop, in the machine facts), and W's rows
     stay at or below 100% or say the clock changed.

usage: peak_check.py GPUBENCH W
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402


def run(gpubench, args, env=None):
    e = dict(os.environ)
    e.pop("GPUBENCH_TEST_CPU_CLOCK_MHZ", None)
    e.pop("GPUBENCH_TEST_CPU_STREAM_GBPS", None)
    e.update(env or {})
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([gpubench, "-d", "cpu", "-f", "csv", "--out",
                            os.path.join(tmp, "run.csv"), "--json", os.path.join(tmp, "run.json"),
                            *args],
                           capture_output=True, text=True, env=e)
        check(p.returncode == 0,
              f"gpubench {' '.join(args)}: exit {p.returncode}: {p.stderr[-400:]}")
        with open(os.path.join(tmp, "run.json")) as f:
            devices = json.load(f).get("devices", [])
    check([d["device"] for d in devices] == ["cpu"], f"the run's devices: {devices}")
    machine = devices[0]["machine"] if devices else ""
    return list(csv.DictReader(io.StringIO(p.stdout))), machine


def sweep_shapes(gpubench, w):
    out = subprocess.run([gpubench, "list"], capture_output=True, text=True).stdout
    mine = False
    for line in out.splitlines():
        if line.startswith("devices:"):
            break
        m = re.match(r"^  (\w+) ", line)
        if m:
            mine = m.group(1) == w
        elif mine and line.split()[:1] == ["sweep"]:
            return line.split()[1:]
    return []


def peak_of(machine):
    m = re.search(r"FP32 peak .*?= ([0-9.e+]+) GFLOP/s", machine)
    return float(m.group(1)) if m else None


def clause_of(note):
    """The peak a row's note names: "peak float32 532.2 GFLOP/s"."""
    m = re.search(r"(?:^|; )peak (?:float32|float64) ([0-9.e+]+) GFLOP/s", note)
    return float(m.group(1)) if m else None


def honest(r, what):
    """At or below 100%, or the note says the clock changed."""
    if r["peak_pct"] == "":
        return
    pct = float(r["peak_pct"])
    check(pct <= 100 or "clock changed during the run" in r["note"],
          f"{what} {r['impl']} {r['shape']}: peak {pct}% with no word of a clock change: "
          f"{r['note'][:300]}")


def main():
    gpubench, w = sys.argv[1], sys.argv[2]
    shapes = sweep_shapes(gpubench, w)
    check(len(shapes) >= 2, f"{w} has a sweep in gpubench list ({shapes})")
    fast = ["--reps", "1", "--warmup", "0", "--min-time", "0", "-w", w]

    # 1. mocked at 5 GHz: the whole sweep
    rows, machine = run(gpubench, fast + ["--sweep"], {"GPUBENCH_TEST_CPU_CLOCK_MHZ": "5000",
                                                       "GPUBENCH_TEST_CPU_STREAM_GBPS": "1000"})
    check(len(rows) >= len(shapes), f"a row per sweep shape ({len(rows)})")
    check("clock mocked" in machine and "5 GHz" in machine,
          f"the machine facts record the clock the peak used: {machine[:300]}")
    peak = peak_of(machine)
    check(peak is not None, f"the machine facts record the FP32 peak: {machine[:300]}")
    for r in rows:
        check(r["status"] == "ok", f"{r['impl']} {r['shape']}: {r['status']}")
        check("clock mocked" not in r["note"] and "pinned pool" not in r["note"],
              f"the machine facts are not in a row's note: {r['note'][:300]}")
        if peak and r["gflops"] and r["peak_pct"]:
            # an f64 row's ceiling is half the FP32 peak (half the SIMD lanes)
            ceiling = peak / 2 if r["dtype"] == "float64" else peak
            named = clause_of(r["note"])
            check(named is not None and abs(named - ceiling) <= 1e-3 * ceiling,
                  f"{r['shape']}: the note names the peak {ceiling:.4g}: {r['note'][:300]}")
            want = 100 * float(r["gflops"]) / ceiling
            check(abs(float(r["peak_pct"]) - want) <= 0.01 * want + 0.01,
                  f"{r['shape']}: peak_pct {r['peak_pct']}, want gflops/peak = {want:.4g}")
        honest(r, "mocked 5 GHz")

    # 2. the clock "rises" from 1 kHz to 5 GHz after start-up (so low that even a row slowed
    #    down a thousandfold by a loaded machine reads above the start-up peak)
    rows, _ = run(gpubench, fast + ["-s", f"{w}:{shapes[0]}"],
               {"GPUBENCH_TEST_CPU_CLOCK_MHZ": "0.001,5000",
                "GPUBENCH_TEST_CPU_STREAM_GBPS": "1000"})
    for r in rows:
        check(r["peak_pct"] != "" and float(r["peak_pct"]) > 100,
              f"1 kHz at start-up: {r['shape']} reads above 100% ({r['peak_pct']})")
        check("clock changed during the run" in r["note"] and "after this row" in r["note"]
              and "5 GHz" in r["note"], f"the note says the clock changed: {r['note'][:400]}")
        # it names the row's own tier's peak (float64: half the FP32 one), before and after
        said = re.search(r"clock changed during the run \(peak (\w+) ([0-9.e+-]+) GFLOP/s from "
                         r"the start-up calibration; after this row [^,]*, ([0-9.e+-]+) GFLOP/s",
                         r["note"])
        check(said is not None and said.group(1) == r["dtype"],
              f"{r['dtype']} row: the clock note names its own tier: {r['note'][:400]}")
        if said and float(r["gflops"] or 0) > 0:
            check(float(said.group(3)) > float(said.group(2)),
                  f"{r['dtype']} row: the peak after the row ({said.group(3)}) is above the "
                  f"start-up one ({said.group(2)})")
    dtypes = {r["dtype"] for r in rows}
    check("float64" in dtypes, f"the 1 kHz run has a float64 row to check: {sorted(dtypes)}")

    # 3. measured
    shape = shapes[min(2, len(shapes) - 1)]
    rows, machine = run(gpubench, ["--reps", "6", "--warmup", "1", "--min-time", "0", "-w", w,
                                   "-s", f"{w}:{shape}"])
    check(re.search(r"x [0-9.]+ GHz = [0-9.]+ GFLOP/s \(\S+ (FMA loop|add loop|clock from the "
                    r"kernel, not measured)", machine),
          f"the clock is measured at start-up: {machine[:300]}")
    for r in rows:
        honest(r, "measured")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
