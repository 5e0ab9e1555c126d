#!/usr/bin/python3
"""honest_check.py — a run's numbers can be taken at face value (issue 18), through the binary:

  1. --quick gives a real 95% interval of the median: every row has at least the 6 repetitions
     it needs, and its ci95 cells hold an interval around the median.
  2. With fewer repetitions than that the ci95 cells are empty and the note says how many the
     interval needs; -f bmf leaves lower_value and upper_value out.
  3. --reps is a floor: --max-time does not cut a row below it, and the note says when the
     floor kept a row past --max-time.
  4. A row whose working set fits in the last-level cache says so (the size from hwloc, in the
     CPU's note), and only such a row.
  5. Without a GPU, "nothing to run" says why: a workload or implementation that runs only on a
     GPU, and why no GPU was found (as `gpubench list` says it).

usage: honest_check.py GPUBENCH W   (W: a workload with CPU implementations)
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


def run(gpubench, args, rc=0):
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([gpubench, "-f", "csv", "--out", os.path.join(tmp, "r.csv"), *args],
                           capture_output=True, text=True, cwd=tmp)
    check(p.returncode == rc, f"gpubench {' '.join(args)}: exit {p.returncode}, want {rc}: "
                              f"{p.stderr[-300:]}")
    return list(csv.DictReader(io.StringIO(p.stdout))), p.stderr


def main():
    gpubench, w = os.path.abspath(sys.argv[1]), sys.argv[2]

    # 1. --quick: a real interval
    rows, _ = run(gpubench, ["-d", "cpu", "-w", w, "-q"])
    check(rows, "--quick ran rows")
    for r in rows:
        if r["status"] != "ok":
            continue
        check(int(r["reps"]) >= 6, f"--quick {r['impl']}: {r['reps']} repetitions, fewer than the "
                                   "6 a 95% interval of the median needs")
        check(r["ci95_lo_ms"] != "" and r["ci95_hi_ms"] != "" and
              float(r["ci95_lo_ms"]) <= float(r["median_ms"]) <= float(r["ci95_hi_ms"]),
              f"--quick {r['impl']}: interval {r['ci95_lo_ms']}-{r['ci95_hi_ms']} around "
              f"{r['median_ms']}")

    # 2. too few repetitions: no interval, and a note that says how many
    rows, _ = run(gpubench, ["-d", "cpu", "-w", w, "-q", "--reps", "3", "--min-time", "0",
                             "--max-time", "5"])
    for r in rows:
        if r["status"] == "ok" and int(r["reps"]) < 6:
            check(r["ci95_lo_ms"] == "" and r["ci95_hi_ms"] == "",
                  f"{r['reps']} reps: ci95 cells must be empty, got {r['ci95_lo_ms']}-"
                  f"{r['ci95_hi_ms']}")
            check(f"no 95% CI: {r['reps']} repetitions" in r["note"] and
                  "needs at least 6" in r["note"], f"note: {r['note'][:200]}")

    # 2b. ... and Bencher's format leaves the interval out rather than writing null
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([gpubench, "-f", "bmf", "--no-out", "-d", "cpu", "-w", w, "-q",
                            "--reps", "3", "--min-time", "0", "--max-time", "5"],
                           capture_output=True, text=True, cwd=tmp)
    check(p.returncode == 0, f"-f bmf --reps 3: exit {p.returncode}: {p.stderr[-300:]}")
    try:
        bmf = json.loads(p.stdout)
    except ValueError as e:
        bmf = {}
        check(False, f"-f bmf --reps 3: not JSON: {e}")
    check(bmf, "-f bmf --reps 3 wrote benchmarks")
    for name, m in bmf.items():
        check("value" in m["latency"] and "lower_value" not in m["latency"] and
              "upper_value" not in m["latency"], f"-f bmf, 3 reps: {name}: {m['latency']}")

    # 3. --reps is a floor, and says when it outlasted --max-time
    rows, _ = run(gpubench, ["-d", "cpu", "-w", w, "-q", "--reps", "7", "--min-time", "0",
                             "--max-time", "0.000001"])
    for r in rows:
        if r["status"] == "ok":
            check(int(r["reps"]) == 7, f"--reps 7 --max-time 1us: {r['reps']} repetitions")
            check("--reps is a floor: 7 timed repetitions took" in r["note"] and
                  "past --max-time 1e-06 s" in r["note"], f"note: {r['note'][:200]}")

    # 4. the cache note, from the last-level cache hwloc reports (the CPU's note names it)
    rows, _ = run(gpubench, ["-d", "cpu", "-w", w, "-q"])
    for r in rows:
        m = re.search(r"\bL3 ([0-9]+) MiB", r["note"])
        if r["status"] != "ok" or not m or int(m.group(1)) == 0:
            continue
        fits = float(r["bytes"]) <= int(m.group(1)) * 2 ** 20
        check(fits == ("fits in L3" in r["note"]),
              f"{r['impl']} {r['shape']}: {float(r['bytes']) / 2 ** 20:.3g} MiB against L3 "
              f"{m.group(1)} MiB, note: {r['note'][:160]}")
        if fits and "cache bandwidth, not memory" in r["note"]:
            check(r["peak_pct"] == "", "a memory-bound row in the cache has no memory peak")

    # 5. nothing to run without a GPU: say why
    listing = subprocess.run([gpubench, "list"], capture_output=True, text=True).stdout
    why = re.search(r"\(no CUDA device: (.*)\)\s*$", listing, re.M)
    impls, gpu_only, cur = {}, [], None
    for line in listing.splitlines():
        if line.startswith("devices:"):
            break
        m = re.match(r"^  (\w+) ", line)
        if m:
            cur = m.group(1)
            impls[cur] = []
        m = re.match(r"^    (\w+) +\[(cpu|cuda)\]", line)
        if m and cur:
            impls[cur].append((m.group(1), m.group(2)))
    gpu_only = [x for x, ims in impls.items() if ims and all(k == "cuda" for _, k in ims)]
    cuda_impls = sorted({i for ims in impls.values() for i, k in ims if k == "cuda"} -
                        {i for ims in impls.values() for i, k in ims if k == "cpu"})
    if why and cuda_impls:
        cases = [(["-i", cuda_impls[0]], f"--impl {cuda_impls[0]} runs only on a GPU")]
        cases += [(["-w", x], f"{x} runs only on a GPU") for x in gpu_only[:1]]
        for args, what in cases:
            _, err = run(gpubench, [*args, "-q"], rc=2)
            lines = [l for l in err.splitlines() if l.strip()]
            check(len(lines) == 1, f"{args}: one line, got {lines}")
            check(lines and f"nothing to run: {what}, and no GPU was found: " in lines[0] and
                  why.group(1)[:40] in lines[0], f"{args}: says why: {lines}")
    else:
        print("(no GPU-only implementation in this build, or a GPU is here: case 5 not run)")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
