#!/usr/bin/python3
"""marks_plot.py — the marks (harness/io/marks.h) through compare's JSON and the plots: a run's
rows of each mark in a CSV (gpubench -o -: the `marks` column), compare's JSON lines of a
cached row set against memory (`cached`, `baseline_cached`, the note), and scripts/plot's words
for them (its legends and titles: line_marks, emulation_text, row_marks). The run's own formats
are tests/io/test_marks.c's.

usage: marks_plot.py PATH/TO/gpubench PATH/TO/scripts/plot DATA_DIR
"""
import csv
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, load_plot, summary  # noqa: E402


def main():
    gpubench, plot_path, data = sys.argv[1], sys.argv[2], sys.argv[3]
    plot = load_plot(plot_path)
    # the CSV's column, and a file from before it (a simulated device's name still marks it)
    check(plot.row_marks({"marks": "cached+shared-cpu"}) == ["cached", "shared-cpu"],
          "row_marks reads the marks column")
    check(plot.row_marks({"marks": "", "device_name": "simulated Tesla K40m"}) == [],
          "the column, where there is one, decides")
    check(plot.row_marks({"device_name": "simulated Tesla K40m"}) == ["emulated"],
          "a file without the column: a simulated device is emulated")
    # a cached CPU row (its note, as runner.c writes it) beside a GPU's memory rate by bandwidth
    src = os.path.join(data, "sd_llc.csv")
    lines = open(src, encoding="utf-8").read().splitlines(keepends=True)
    out = []
    for line in lines:
        if "vecadd,cpu,float32,n=134217728" in line:
            line = line.replace(",ok,,", ",ok,\"working set 1.5 GiB fits in L3 (2 GiB): cache "
                                "bandwidth, not memory\",", 1)
        out.append(line)
    p = subprocess.run([gpubench, "compare", "--format", "json", "--baseline", "cpu", "-"],
                       input="".join(out), capture_output=True, text=True)
    check(p.returncode == 0, f"compare - exits 0 (got {p.returncode}: {p.stderr.strip()})")
    doc = json.loads(p.stdout) if p.returncode == 0 else {"lines": []}
    gpu = [l for l in doc["lines"] if l["device"] != "cpu" and l["workload"] == "vecadd"]
    check(gpu and all(l["baseline_cached"] and not l["cached"] and l["kernel_ratio"] is None
                      and "not set side by side by bandwidth" in (l.get("note") or "")
                      for l in gpu),
          f"compare's JSON: the GPU lines are not set against the cached CPU row ({gpu})")
    cpu = [l for l in doc["lines"] if l["device"] == "cpu" and l["workload"] == "vecadd"]
    check(plot.line_marks(cpu) == " [cached]", f"the CPU curve's legend says [cached] ({cpu})")
    check("[cached]" in plot.emulation_text(doc), "the figure's title says [cached]")
    check(plot.line_marks([{"simulated": True, "cached": True}]) == " [emulated, cached]",
          "a simulated cached curve says both")
    check(plot.line_marks([{"simulated": False, "cached": False}]) == "", "a plain curve: none")
    # a real run: its CSV on stdout (-o -) carries the marks column the plots read
    p = subprocess.run([gpubench, "-d", "cpu", "-w", "vecadd", "-i", "cpu", "-D", "f32", "--quick",
                        "--min-time", "0", "--reps", "1", "--warmup", "0", "-o", "-"],
                       capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout))) if p.returncode == 0 else []
    check(rows and "marks" in rows[0] and all(
        set(plot.row_marks(r)) <= {"emulated", "cached", "below-res", "shared-cpu"} for r in rows),
        f"gpubench -o - writes the marks column ({p.returncode}: {p.stderr.strip()[:200]})")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
