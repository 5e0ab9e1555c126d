#!/usr/bin/python3
"""blas_trial_interrupt.py — a signal during OpenBLAS's core trial (harness/run/blas_trial.c)
leaves no trial child behind and prints nothing from one.

The trial's children answer on a pipe to gpubench. gpubench ignores SIGPIPE (a run outlives a
reader that closed its stdout), and its children inherited that: when gpubench was stopped by a
signal that reached it alone (`kill -INT PID`, `timeout -s INT`, a supervisor's), a child went
on, wrote to the dead pipe and printed "gpubench: error writing standard output: Broken pipe"
on the user's terminal. The trial's hook makes every candidate slow to answer (1 s), so a child
is surely at work when gpubench gets SIGINT; then every trial child must be gone, and stderr
must hold no such line.

OpenBLAS's pick and the CPU's features are injected (blas_core.h), so any x86 CPU runs it.
Skipped (77) where the environment sets OPENBLAS_CORETYPE: the user's value wins and there is
no trial; this test never changes it.

usage: blas_trial_interrupt.py GPUBENCH
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402

WAIT = 60  # seconds for the trial to start and for its children to end: generous, never timed


def trial_children(marker):
    """Pids of the trial processes started with XDG_CACHE_HOME=marker."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"__blas-trial" not in f.read():
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"XDG_CACHE_HOME={marker}".encode() in f.read().split(b"\0"):
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


def main():
    if os.environ.get("OPENBLAS_CORETYPE"):
        print("skipped: OPENBLAS_CORETYPE is set here; the user's value wins and no trial runs")
        return 77
    gpubench = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=tmp, GPUBENCH_TEST_BLAS_OWN_CORE="Prescott",
                   GPUBENCH_TEST_CPU_FEATURES="avx512f,avx2,fma,avx",
                   GPUBENCH_TEST_BLAS_TRIAL_FAULT="SkylakeX:slow,Haswell:slow,Prescott:slow")
        err_path = os.path.join(tmp, "err.txt")
        with open(err_path, "w") as err:
            p = subprocess.Popen([gpubench, "doctor"], env=env, stdout=subprocess.DEVNULL,
                                 stderr=err)
            end = time.monotonic() + WAIT
            while not trial_children(tmp) and p.poll() is None and time.monotonic() < end:
                time.sleep(0.02)
            check(p.poll() is None and trial_children(tmp), "the trial started")
            time.sleep(0.2)  # into the child's answer (the hook's 1 s)
            p.send_signal(signal.SIGINT)
            p.wait(WAIT)
            check(p.returncode == -signal.SIGINT, f"doctor ended by SIGINT (got {p.returncode})")
            end = time.monotonic() + WAIT
            while trial_children(tmp) and time.monotonic() < end:
                time.sleep(0.05)
            check(not trial_children(tmp), "no trial child outlives gpubench")
            time.sleep(1.5)  # past the hook's 1 s: a survivor would have written by now
        with open(err_path) as f:
            text = f.read()
        check("error writing standard output" not in text,
              f"no broken-pipe line from a trial child; stderr was: {text!r}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
