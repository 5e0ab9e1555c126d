#!/usr/bin/python3
"""gbench_compare.py — Google Benchmark's own tools/compare.py reads two gpubench runs written
with `-f gbench`, unchanged, and its table says what the runs measured.

usage: gbench_compare.py PATH/TO/gpubench [PATH/TO/compare.py]
       (default: Debian's libbenchmark-tools, /usr/share/benchmark/compare.py)

Two quick CPU runs write `-f gbench` to stdout and, in the same run, their JSON document
(--json). compare.py (`benchmarks A B --no-color`) must exit 0 and print a row for every timed
row of the runs, named WORKLOAD/IMPL/DEVICE/SHAPE, whose relative change of Time and CPU is
(new median - old median) / old median from the JSON documents, and the OVERALL_GEOMEAN row.
Exit 77 (skipped) when compare.py or the scipy it imports is missing. No workload is named.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402


def run(gpubench, tmp, name):
    """One quick CPU run: its gbench file and its JSON document's timed rows by gbench name."""
    gb, doc = os.path.join(tmp, name + ".json"), os.path.join(tmp, name + ".doc.json")
    with open(gb, "w") as out:
        proc = subprocess.run([gpubench, "--quick", "-d", "cpu", "--min-time", "0", "--reps", "3",
                               "--warmup", "0", "-f", "gbench", "--no-out", "--json", doc],
                              stdout=out, stderr=subprocess.PIPE, text=True, timeout=300)
    check(proc.returncode == 0, f"{name}: gpubench exit {proc.returncode}: {proc.stderr}")
    with open(doc) as f:
        rows = json.load(f)["rows"]
    # gbench names: float32 rows as before tiers, other tiers with "/<dtype>" after the shape
    timed = {f"{r['workload']}/{r['impl']}/{r['device']}/{r['shape']}"
             + ("" if r["dtype"] == "float32" else "/" + r["dtype"]): r["median_ms"]
             for r in rows if r["reps"] > 0}
    check(timed, f"{name}: no timed row")
    return gb, timed


def main():
    gpubench = os.path.abspath(sys.argv[1])
    script = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/benchmark/compare.py"
    if not os.path.exists(script):
        print(f"SKIP: {script} not found (apt-get install libbenchmark-tools)")
        return 77
    probe = subprocess.run([sys.executable, "-c", "import scipy.stats, numpy"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        print("SKIP: compare.py needs scipy (apt-get install python3-scipy)")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        a, old = run(gpubench, tmp, "before")
        b, new = run(gpubench, tmp, "after")
        proc = subprocess.run([sys.executable, script, "--no-color", "benchmarks", a, b],
                              capture_output=True, text=True, timeout=120)
    print(proc.stdout)
    check(proc.returncode == 0, f"compare.py exit {proc.returncode}: {proc.stderr}")
    lines = proc.stdout.splitlines()
    check(lines and lines[0] == f"Comparing {a} to {b}", f"first line: {lines[:1]}")
    table = {}
    for line in lines:
        fields = line.split()
        if len(fields) == 7:
            table[fields[0]] = fields[1:]
    for name, ms in old.items():
        got = table.get(name)
        check(got is not None, f"{name}: no row in compare.py's table")
        if got is None or name not in new:
            continue
        want = (new[name] - ms) / ms
        for col, text in (("Time", got[0]), ("CPU", got[1])):
            check(abs(float(text) - want) <= 0.00005 + 1e-9 * abs(want),
                  f"{name}: {col} change {text}, want {want:+.4f} from the runs' medians")
    check("OVERALL_GEOMEAN" in table, "no OVERALL_GEOMEAN row")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
