#!/usr/bin/python3
"""supervise_check.py — a row that hangs or kills its process costs that row, never the run
(harness/run/supervise.c), on any build: GPUBENCH_TEST_ROW_FAULT (harness/run/runner.c) makes the
gemm/openblas row's verified run hang or die of SIGSEGV, as a hung kernel or a crashing library
would.

  hang   the row is `timeout` with the implementation, stage and seconds in its note; the rows
         after it (on a fresh worker) are `ok`; exit 1; the CSV and the JSON document complete
  crash  the row is `error` naming SIGSEGV and the stage; the rows after it `ok`; exit 1
  stop   SIGINT, then SIGTERM, during a hang (--row-timeout far away): exit 130 well before the
         deadline, the finished rows in a valid CSV, nothing of the hung row
  usage  a bad option still exits 2 with one line and leaves no file (the worker's check)
  warn   a warning about the machine (more threads than cores) is printed once a run, not once
         by each fresh worker

usage: supervise_check.py PATH/TO/gpubench
"""
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary, wait_for_lines  # noqa: E402

FAST = ["-d", "cpu", "-q", "-D", "f32", "--min-time", "0", "--reps", "2", "--warmup", "0",
        "-s", "vecadd:n=4096", "-s", "gemm:m=64,n=64,k=64"]
# the registry's order: vecadd's rows, then gemm's two (the faulting implementation: each on a
# fresh worker after the one before), then conv2d's, on a fresh worker after the last fault
ROWS = ["-w", "vecadd,gemm,conv2d", "-s", "gemm:m=32,n=32,k=32",
        "-s", "conv2d:n=1,c=4,h=8,w=8,k=4,r=3,s=3"]


def rows_of(path):
    with open(path, newline="") as f:
        table = list(csv.reader(f))
    return [dict(zip(table[0], r)) for r in table[1:]], table


def run(g, tmp, name, fault, extra=()):
    out = os.path.join(tmp, name + ".csv")
    js = os.path.join(tmp, name + ".json")
    env = dict(os.environ, GPUBENCH_TEST_ROW_FAULT=fault)
    p = subprocess.run([g] + FAST + ROWS + ["--out", out, "--json", js] + list(extra),
                       capture_output=True, text=True, env=env, timeout=600)
    return p, out, js


def check_fault(g, tmp, kind, status, words, extra=()):
    p, out, js = run(g, tmp, kind, "gemm/openblas:" + kind, ["--row-timeout", "3"] + list(extra))
    check(p.returncode == 1, f"{kind}: exit {p.returncode}, want 1:\n{p.stderr}")
    check(not os.path.exists(out + ".partial"), f"{kind}: .partial left")
    rows, table = rows_of(out)
    check(all(len(r) == len(table[0]) for r in table), f"{kind}: ragged CSV")
    bad = [r for r in rows if r["impl"] == "openblas" and r["workload"] == "gemm"]
    check(len(bad) == 2 and all(r["status"] == status for r in bad),
          f"{kind}: gemm/openblas rows {[(r['shape'], r['status']) for r in bad]}, want 2 {status}")
    for r in bad:
        for w in words:
            check(w in r["note"], f"{kind}: '{w}' not in the note: {r['note']}")
    others = [r for r in rows if not (r["impl"] == "openblas" and r["workload"] == "gemm")]
    check(len(others) == 3 and others[-1]["workload"] == "conv2d" and all(r["status"] == "ok" for r in others),
          f"{kind}: the other rows {[(r['workload'], r['impl'], r['status']) for r in others]}")
    with open(js) as f:
        doc = json.load(f)
    statuses = sorted(r["status"] for r in doc["rows"])
    check(statuses == sorted(r["status"] for r in rows),
          f"{kind}: JSON rows {statuses} differ from the CSV's")
    # the lease scripts' summary lists these rows first (scripts/lib/hung_rows.py)
    said = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "lib", "hung_rows.py"),
                           out], capture_output=True, text=True).stdout
    check(said.startswith("## Rows that hung or failed") and
          said.count(f"| {status} | {os.path.basename(out)} | cpu | gemm/openblas") == 2,
          f"{kind}: hung_rows.py does not list the two rows:\n{said}")
    return p.stderr


def check_stop(g, tmp, sig):
    name = "stop" + str(int(sig))
    out = os.path.join(tmp, name + ".csv")
    env = dict(os.environ, GPUBENCH_TEST_ROW_FAULT="gemm/openblas:hang")
    p = subprocess.Popen([g] + FAST + ROWS + ["--out", out, "--row-timeout", "600"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    # the hang begins after the vecadd rows (2 on the CPU) are in the file
    wait_for_lines(out + ".partial", 3, 300, poll=0.05)
    time.sleep(1.0)
    t0 = time.time()
    p.send_signal(sig)
    try:
        p.communicate(timeout=60)  # a bound for a loaded machine; README's promise is 2 s
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        check(False, f"signal {sig}: the run did not stop within 60 s")
        return
    print(f"signal {int(sig)}: stopped after {time.time() - t0:.2f} s")
    check(p.returncode == 130, f"signal {sig}: exit {p.returncode}, want 130")
    check(os.path.exists(out) and not os.path.exists(out + ".partial"),
          f"signal {sig}: no committed CSV")
    if os.path.exists(out):
        rows, table = rows_of(out)
        check(all(len(r) == len(table[0]) for r in table), f"signal {sig}: ragged CSV")
        check(len(rows) >= 2 and all(r["status"] == "ok" for r in rows) and
              not any(r["workload"] == "gemm" and r["impl"] == "openblas" for r in rows),
              f"signal {sig}: rows {[(r['workload'], r['impl'], r['status']) for r in rows]}")


def main():
    g = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        check_fault(g, tmp, "hang", "timeout",
                    ["gemm/openblas f32 on cpu", "verified run", "within 3 s", "fresh"])
        # more threads than cores: a warning of the machine's, which the run's three workers
        # would each print; the first alone does (devices_discover's quiet)
        err = check_fault(g, tmp, "crash", "error",
                          ["gemm/openblas f32 on cpu", "verified run", "SIGSEGV", "fresh worker"],
                          ["-t", str(os.cpu_count() + 1)])
        check(err.count("is more than this machine's") == 1,
              f"crash: the threads warning is printed once per run, not per worker:\n{err}")
        check_stop(g, tmp, signal.SIGINT)
        check_stop(g, tmp, signal.SIGTERM)
        out = os.path.join(tmp, "usage.csv")
        p = subprocess.run([g, "-d", "cpu", "-q", "-s", "gemm:m=0", "--out", out],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
              f"usage: exit {p.returncode}, stderr {p.stderr!r}")
        check(not os.path.exists(out) and not os.path.exists(out + ".partial"),
              "usage: a file was left")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
