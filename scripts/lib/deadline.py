"""deadline.py — every GPU step of the card scripts under a deadline, in one place (issue 46): the
edge runs (scripts/lib/edge_rows.py and the *_edges.py beside it) and the first card run
(scripts/lib/first_card.py) start each gpubench, compute-sanitizer or ncu command through
`run` here, so that a kernel that never finishes is a `hung` result with its command named,
never a stuck lease.

The deadline is coreutils `timeout -k GRACE LIMIT`: SIGTERM at LIMIT seconds, SIGKILL GRACE
seconds later if the process is still there (a process stuck in a driver call may ignore
SIGTERM). Its exit status 124 (stopped by SIGTERM) or 137 (128 + SIGKILL) means "hung".

    import deadline
    rc = deadline.run(["gpubench", "run", ...], 20, log, env)   # None: it hung
"""
import os
import subprocess

GRACE = 5  # seconds between SIGTERM and SIGKILL
HUNG = (124, 137)  # timeout's exit status: stopped at the deadline, or killed after the grace


def gpubench_args(limit):
    """Extra `gpubench run` arguments that bound each row by gpubench's own deadline: its
    supervisor (harness/run/supervise.c) ends a row that hangs at 3/4 of `limit` (a stage's
    floor, `--row-timeout`), writes it `timeout` and goes on, so the run still ends inside
    `limit`'s coreutils deadline below, which stays the last guard (a hang at start-up, before any
    row). A caller takes a row of status `timeout` for a hang (edge_rows.batch, first_card's
    ratio round)."""
    return ["--row-timeout", f"{max(1.0, 0.75 * limit):g}"]


def command(cmd, limit):
    """cmd under coreutils timeout: SIGTERM at `limit` seconds, SIGKILL GRACE seconds later."""
    return ["timeout", "-k", str(GRACE), str(max(1, int(round(limit))))] + list(cmd)


def hung(rc):
    """Did a command started by command() run past its deadline?"""
    return rc in HUNG


def staged(cmd, tag=""):
    """A test's stand-in for a kernel that never finishes (tests/gpuinfo/first_card_sim.sh):
    where GPUBENCH_STAGED_HANG is set and occurs in the command line or its tag (the variable
    that forces its kernel, e.g. "GPUBENCH_WGMMA_KERNEL=128x256", or a shape, "m=129,n=8,k=520"),
    the command is `sleep 3600` instead. The simulated device's own hang (a kernel that never
    finishes in the emulation) is to take its place; nothing but the tests sets this."""
    want = os.environ.get("GPUBENCH_STAGED_HANG", "")
    return bool(want) and want in " ".join([tag] + list(cmd))


def run(cmd, limit, log, env=None, tag=""):
    """Run cmd under its deadline, stdout and stderr appended to the open file `log` (with `tag`
    and the command line first); the exit status, or None when it hung (then "hung: ..." is
    logged)."""
    log.write(f"$ {tag + ' ' if tag else ''}{' '.join(cmd)}\n")
    if staged(cmd, tag):
        log.write(f"(GPUBENCH_STAGED_HANG={os.environ['GPUBENCH_STAGED_HANG']}: a staged hang, "
                  "sleep 3600 in its place)\n")
        cmd = ["sleep", "3600"]
    log.flush()
    rc = subprocess.run(command(cmd, limit), env=env, stdout=log, stderr=subprocess.STDOUT,
                        stdin=subprocess.DEVNULL).returncode
    if hung(rc):
        log.write(f"hung: no exit within {limit:.0f} s (timeout exit {rc})\n")
        log.flush()
        return None
    return rc
