#!/usr/bin/python3
"""stop_signals.py — a run's file depends neither on its standard output nor on how it is stopped.

1. Standard output closed by its reader (`gpubench run -d cpu -w vecadd,gemm --quick -o out.csv
   | head -1`): the run never dies of SIGPIPE; it says so once on stderr, keeps measuring,
   commits out.csv with every row that the same run with its stdout intact writes, and exits 1
   (a write to stdout failed).
2. SIGINT, SIGTERM and SIGHUP sent while the second shape of a run is making its inputs and
   reference — gemm m=8,n=8,k=2^22, whose sampled reference once checked 65,552 dot products of
   2^22 terms (81 s) for a C of 64 entries and polled no signal: the run ends within BOUND
   seconds of the signal with exit 130 and a committed CSV of the first row, the one done.
3. SIGHUP to `--runs 3` after its first run: forwarded to the run in progress, exit 130, the
   rows of the runs done kept.
4. A signal before any row finished (alone and with --runs 2): the existing -o and --json files
   are left as they were, not replaced by a header alone, no --samples file appears, and the run
   says so for each.

usage: stop_signals.py GPUBENCH
"""
import csv
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary, wait_for_lines  # noqa: E402

# Seconds a stopped run may take to commit its file: "a second or two" on an idle machine,
# with room for a loaded 2-core one; the old code took 81 s (SIGINT) and over 10 min (SIGTERM).
BOUND = 10


def rows_of(path):
    """The CSV's rows (header first), or None when it is missing or ragged."""
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows if rows and all(len(r) == len(rows[0]) for r in rows) else None


def keys(rows):
    """(workload, impl, dtype, shape) of every data row."""
    h = rows[0]
    return sorted(tuple(r[h.index(c)] for c in ("workload", "impl", "dtype", "shape"))
                  for r in rows[1:])


def closed_stdout(gpubench, tmp):
    args = [gpubench, "run", "-d", "cpu", "-w", "vecadd,gemm", "--quick"]
    ref = os.path.join(tmp, "ref.csv")
    subprocess.run(args + ["-o", ref], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=300)
    out = os.path.join(tmp, "out.csv")
    proc = subprocess.Popen(args + ["-o", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    first = proc.stdout.readline()  # `| head -1`: one line, then the pipe is closed
    proc.stdout.close()
    try:
        err = proc.stderr.read()
        proc.wait(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        err = "(still running after 300 s: killed)"
    print("closed stdout:", first.rstrip(), "\n" + err)
    check(proc.returncode == 1,
          f"stdout closed: exit {proc.returncode}, want 1 (-13: killed by SIGPIPE)")
    said = [line for line in err.splitlines() if "error writing standard output" in line]
    check(len(said) == 1 and "Broken pipe" in said[0] and "the run goes on" in said[0],
          f"stdout closed: the failure said {len(said)} times, want once: {said}")
    check(not os.path.exists(out + ".partial"), "stdout closed: out.csv.partial left")
    rows, want = rows_of(out), rows_of(ref)
    check(rows is not None, "stdout closed: no valid out.csv")
    check(want is not None and len(want) > 2, "the run with stdout intact wrote no rows")
    if rows and want:
        check(keys(rows) == keys(want),
              f"stdout closed: out.csv has {len(rows) - 1} rows, the intact run {len(want) - 1}")
        st = rows[0].index("status")
        check(all(r[st] in ("ok", "unsupported") for r in rows[1:]),
              "stdout closed: a row is not ok")


def stop_after_first_row(args, out, sig, bound):
    """Start gpubench ARGS, wait until OUT.partial holds a row, send sig; (exit code, stderr,
    seconds from the signal to the exit). A run still going `bound` s after it is killed."""
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_for_lines(out + ".partial", 2, 120, proc=proc, poll=0.01)
    sent = time.time()
    err = signal_and_wait(proc, sig, bound)
    return proc.returncode, err, time.time() - sent


def signal_and_wait(proc, sig, bound):
    """Send sig to proc and wait up to `bound` s for it to end; its stderr (killed after)."""
    proc.send_signal(sig)
    try:
        return proc.communicate(timeout=bound)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()[1] + f"\n(still running {bound} s after {sig.name}: killed)"


def stopped(gpubench, tmp, sig):
    """The first row done, the second's inputs and reference under way: signal sig."""
    out = os.path.join(tmp, f"stop-{sig.name}.csv")
    rc, err, took = stop_after_first_row(
        [gpubench, "-d", "cpu", "--quick", "-w", "gemm", "-D", "f32", "-i", "openblas", "-s",
         "gemm:m=8,n=8,k=8", "-s", "gemm:m=8,n=8,k=2^22", "-o", out], out, sig, BOUND)
    print(f"{sig.name}: exit {rc} {took:.1f} s after the signal\n{err}")
    check(rc == 130, f"{sig.name}: exit {rc}, want 130 within {BOUND} s")
    check(not os.path.exists(out + ".partial"), f"{sig.name}: .partial left behind")
    rows = rows_of(out)
    check(rows is not None and len(rows) == 2,
          f"{sig.name}: want a CSV of the header and the first row, got "
          f"{None if rows is None else len(rows) - 1} rows")
    if rows and len(rows) == 2:
        h = rows[0]
        check(rows[1][h.index("shape")] == "m=8;n=8;k=8" and rows[1][h.index("status")] == "ok",
              f"{sig.name}: the kept row is not the first, done: {rows[1][:20]}")


def hangup_runs(gpubench, tmp):
    """--runs 3: a hang-up after the first run is gathered reaches the run in progress (runs.c
    forwards it); the first run's rows are kept, exit 130."""
    out = os.path.join(tmp, "runs.csv")
    rc, err, _ = stop_after_first_row([gpubench, "--runs", "3", "-d", "cpu", "-w", "vecadd",
                                       "--quick", "-o", out], out, signal.SIGHUP, 60)
    print(f"--runs 3, SIGHUP: exit {rc}\n{err}")
    check(rc == 130, f"--runs SIGHUP: exit {rc}, want 130")
    check("its rows are not kept" not in err, "--runs SIGHUP: a run said to have failed")
    left = [n for n in os.listdir(tmp) if n.startswith("runs.csv.")]
    check(not left, f"--runs SIGHUP: files left behind: {left}")
    rows = rows_of(out)
    check(rows is not None and len(rows) >= 2 and
          {r[rows[0].index("run")] for r in rows[1:]} <= {"0", "1"},
          f"--runs SIGHUP: want the rows of the runs done, got {rows and len(rows) - 1}")


def before_first_row(gpubench, tmp, runs):
    """SIGINT while the first row's reference is under way: nothing finished, nothing replaced."""
    keep, js, smp = (os.path.join(tmp, f"keep{runs}.{e}") for e in ("csv", "json", "s.csv"))
    for path, text in ((keep, "an earlier run's file\n"), (js, "{}\n")):
        with open(path, "w") as f:
            f.write(text)
    args = [gpubench, "-d", "cpu", "-w", "gemm", "-D", "f32", "-i", "openblas", "-s",
            "gemm:m=8,n=8,k=2^22", "-o", keep, "--samples", smp]
    args += ["--runs", str(runs)] if runs > 1 else ["--json", js]  # --runs takes no --json
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    partial = keep + (".run0.partial" if runs > 1 else ".partial")
    deadline = time.time() + 60
    while time.time() < deadline and not os.path.exists(partial) and proc.poll() is None:
        time.sleep(0.01)
    time.sleep(0.2)
    err = signal_and_wait(proc, signal.SIGINT, 60)
    print(f"before the first row (--runs {runs}): exit {proc.returncode}\n{err}")
    check(proc.returncode == 130, f"--runs {runs} early SIGINT: exit {proc.returncode}, want 130")
    with open(keep) as f:
        check(f.read() == "an earlier run's file\n", f"--runs {runs}: keep.csv was replaced")
    if runs == 1:  # --runs takes no --json
        with open(js) as f:
            check(f.read() == "{}\n", "keep.json was replaced")
    check(not os.path.exists(smp), f"--runs {runs}: a --samples file of no row was written")
    check(f"interrupted before any row finished: {keep} left as it was" in err,
          f"--runs {runs}: the run did not say keep.csv was left as it was")
    check(f"interrupted before any row finished: nothing written to {smp}" in err,
          f"--runs {runs}: the run did not say no samples file was written")
    left = [n for n in os.listdir(tmp) if n.startswith(f"keep{runs}.") and "partial" in n]
    check(not left, f"--runs {runs}: files left behind: {left}")


def main():
    gpubench = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        closed_stdout(gpubench, tmp)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            stopped(gpubench, tmp, sig)
        hangup_runs(gpubench, tmp)
        for runs in (1, 2):
            before_first_row(gpubench, tmp, runs)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
