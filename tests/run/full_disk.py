#!/usr/bin/env python3
"""full_disk.py — a run that cannot write its files (a full disk, played by a file-size limit:
RLIMIT_FSIZE, with SIGXFSZ ignored so that a write fails with EFBIG instead of killing the
process) exits 1, says so once per file, and leaves no .partial file behind.

usage: full_disk.py GPUBENCH WORKLOAD
"""
import os
import resource
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402

LIMIT = 1500  # bytes: the CSV's header and a row or two, far less than the samples


def limited():
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # SIG_IGN survives exec


def main():
    gpubench, w = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([gpubench, "--quick", "-d", "cpu", "-w", w, "--reps", "200",
                            "--warmup", "0", "--min-time", "0", "--out", "x.csv",
                            "--samples", "s.csv"],
                           cwd=tmp, preexec_fn=limited, capture_output=True, text=True,
                           timeout=240)
        left = sorted(os.listdir(tmp))
    err = p.stderr
    check(p.returncode == 1, f"exit {p.returncode}, want 1: {err[-600:]}")
    check(left == [], f"files left behind: {left}")
    for name, opt in (("x.csv", "--out"), ("s.csv", "--samples")):
        said = [line for line in err.splitlines() if name in line and "write failed" in line]
        check(len(said) == 1, f"{name}'s failure said {len(said)} times, want once: {said}")
        check(said and said[0].startswith(f"gpubench: {opt}: ") and
              f"{name}.partial removed" in said[0], f"{name}: {said}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
