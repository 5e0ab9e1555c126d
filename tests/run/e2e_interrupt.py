#!/usr/bin/python3
"""e2e_interrupt.py — Ctrl-C during a run leaves a valid CSV of the rows finished so far, exit 130.

Starts a run of many small rows, waits until the .partial file holds at least one row, sends
SIGINT, and checks: exit code 130, the final CSV exists (no .partial left), every line has the
header's field count, and it holds at least one and fewer than all rows. The rows: the first
workload of `gpubench list` with a CPU implementation, its smallest (first sweep) shape with the
first key grown by 16 for each of 60 shapes.
"""
import csv
import os
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                                "lib"))
import gpubench_list  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import wait_for_lines  # noqa: E402


def main():
    gpubench = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.csv")
        w = next(w for w in gpubench_list.read(gpubench) if w.impls("cpu"))
        key, value = gpubench_list.first_pair(w.sweep[0])
        rest = w.sweep[0].partition(",")[2]
        shapes = [f"--shape={w.name}:{key}={value + 16 * i}" + (f",{rest}" if rest else "")
                  for i in range(60)]
        proc = subprocess.Popen([gpubench, "-w", w.name, "-d", "cpu", "--min-time", "0.1",
                                 "--reps", "3", "--out", out] + shapes,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wait_for_lines(out + ".partial", 3, 60)
        proc.send_signal(signal.SIGINT)
        try:
            err = proc.communicate(timeout=60)[1]
        except subprocess.TimeoutExpired:
            proc.kill()
            err = proc.communicate()[1] + "\n(did not stop within 60 s of SIGINT: killed)"

        print(err)
        fails = []
        if proc.returncode != 130:
            fails.append(f"exit code {proc.returncode}, expected 130")
        if os.path.exists(out + ".partial"):
            fails.append(".partial left behind")
        if not os.path.exists(out):
            fails.append("no CSV after interrupt")
        else:
            with open(out, newline="") as f:
                rows = list(csv.reader(f))
            if any(len(r) != len(rows[0]) for r in rows):
                fails.append("ragged CSV")
            if not 1 <= len(rows) - 1 < 60:
                fails.append(f"{len(rows) - 1} rows: expected some but not all 60")
            if any(r[rows[0].index("status")] != "ok" for r in rows[1:]):
                fails.append("a kept row is not ok")
        for f in fails:
            print("FAIL:", f)
        print(f"{0 if fails else 1} passed, {len(fails)} failed")
        return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
