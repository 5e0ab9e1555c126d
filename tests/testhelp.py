"""testhelp.py — what the Python tests share, as the C tests share tests/testhelp.h: one check()
that counts and prints each failure, the summary line with the exit code, and scripts/plot
loaded as a module."""

import time

passed = 0
fails = []


def check(ok, what):
    """Count one check; print `FAIL: what` when it does not hold."""
    global passed
    if ok:
        passed += 1
    else:
        fails.append(what)
        print("FAIL:", what)


def summary():
    """Print "N passed, M failed" and return the exit code: 1 when anything failed."""
    print(f"{passed} passed, {len(fails)} failed")
    return 1 if fails else 0


def load_plot(path):
    """scripts/plot (no .py suffix) as a module, for the tests that call its functions."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("gpubench_plot", path)
    spec = importlib.util.spec_from_loader("gpubench_plot", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def wait_for_lines(path, lines, limit, proc=None, poll=0.02):
    """Wait until the file at `path` holds `lines` lines (a run's PATH.partial: its header and
    rows so far), at most `limit` seconds, or until `proc` (a Popen, if given) has ended."""
    deadline = time.time() + limit
    while time.time() < deadline and (proc is None or proc.poll() is None):
        try:
            with open(path) as f:
                if sum(1 for _ in f) >= lines:
                    return
        except FileNotFoundError:
            pass
        time.sleep(poll)
