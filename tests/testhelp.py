"""testhelp.py — what the Python tests share, as the C tests share tests/testhelp.h: one check()
that counts and prints each failure, and the summary line with the exit code."""

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
