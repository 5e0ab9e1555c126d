#!/usr/bin/env python3
"""hung_rows.py — the rows of a lease's CSVs that hung or failed, first on its summary.

A row that hangs (a kernel that never finishes) is `timeout` and one whose worker died or met an
error is `error` (harness/run/supervise.c): on a first card run those are what a lease is for.
scripts/gpu-check and scripts/kernel-lease print this section before everything else.

usage: hung_rows.py CSV...   prints a Markdown section, or nothing when every row is ok,
                             unsupported or wrong (wrong rows have their own checks)
"""
import csv
import os
import sys

NOTE = 240  # characters of a note shown: the implementation, the stage, the seconds, the kernel


def main(paths):
    hits = []
    for path in paths:
        if path.endswith(".samples.csv") or not os.path.isfile(path):
            continue
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r.get("status") in ("timeout", "error"):
                    hits.append((r["status"], os.path.basename(path), r))
    if not hits:
        return 0
    hits.sort(key=lambda h: h[0] != "timeout")  # the hangs first
    print(f"## Rows that hung or failed: {sum(h[0] == 'timeout' for h in hits)} timeout, "
          f"{sum(h[0] == 'error' for h in hits)} error")
    print()
    print("| status | file | device | row | note |")
    print("|---|---|---|---|---|")
    for st, name, r in hits:
        row = f"{r['workload']}/{r['impl']} {r.get('dtype', '')} {r['shape']}"
        note = r.get("note", "").replace("|", "/")
        print(f"| {st} | {name} | {r['device']} | {row} | "
              f"{note[:NOTE]}{'…' if len(note) > NOTE else ''} |")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
