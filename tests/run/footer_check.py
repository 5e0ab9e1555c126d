#!/usr/bin/python3
"""footer_check.py — the CPU's machine facts (`gpubench list`, the table's device footer) read
right: the FP32 peak's product, as printed, multiplies to the peak printed (it once left out the
clock: "2 cores x 16 lanes x 2 FMA/cycle x 2 = 364.2 GFLOP/s"), and OpenBLAS's thread count is
the one `gpubench doctor` gives (it once said "OpenBLAS workers 1" beside doctor's "2 threads").

usage: footer_check.py GPUBENCH
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402


def main():
    gb = sys.argv[1]
    facts = subprocess.run([gb, "list"], capture_output=True, text=True).stdout
    print(facts.splitlines()[-3:])
    m = re.search(r"FP32 peak (\d+) cores? x (\d+) lanes x (\d+) FMA/cycle x 2 flop/FMA x "
                  r"([\d.]+) GHz = ([\d.]+) GFLOP/s", facts)
    check(m is not None, "no 'FP32 peak C cores x L lanes x U FMA/cycle x 2 flop/FMA x G GHz = "
          "P GFLOP/s' in list's CPU facts")
    if m:
        cores, lanes, units, ghz, peak = (float(x) for x in m.groups())
        product = cores * lanes * units * 2 * ghz
        check(abs(product - peak) <= 0.002 * peak,
              f"{m.group(0)}: the product is {product:.4g}, not {peak:g}")
    t = re.search(r"OpenBLAS (\d+) threads? \(the caller and (\d+) workers?, (\d+) pinned\)",
                  facts)
    check(t is not None, "no 'OpenBLAS N threads (the caller and N-1 workers, K pinned)'")
    doc = subprocess.run([gb, "doctor"], capture_output=True, text=True).stdout
    d = re.search(r"OpenBLAS .*, (\d+) threads", doc)
    check(d is not None, "doctor gives no OpenBLAS thread count")
    if t and d:
        check(t.group(1) == d.group(1),
              f"list says OpenBLAS {t.group(1)} threads, doctor {d.group(1)}")
        check(int(t.group(2)) == int(t.group(1)) - 1, f"{t.group(0)}: workers are threads - 1")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
