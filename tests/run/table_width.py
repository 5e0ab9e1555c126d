#!/usr/bin/python3
"""table_width.py — the run table fits the terminal (issue 38, item 13). Where the width is known
(COLUMNS here; a terminal's TIOCGWINSZ otherwise) no line of the table, its legend or its device
footer is wider than it: columns that do not fit are left out and named under the table, a long
shape wraps in its column, the footer's facts wrap under themselves. Where nothing tells the
width (a pipe, COLUMNS unset) the table is the wide form, one line per row, its header as it has
always been. Every '-' in `peak` of a timed row is explained under the table. `doctor`, `list` and
compare's regression check fit the width too: long lines wrapped under their values, not cut;
the regression table leaves out MDC, CI and runs, as it must, and says so.

Lines are measured in code points (one display column each: no East Asian wide characters in
gpubench's text; the 95% CI's en dash is three bytes but one column).

usage: table_width.py GPUBENCH DATA_DIR   (DATA_DIR: tests/data/compare)
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402

ARGS = ["run", "-d", "cpu", "-w", "vecadd,gemm,conv2d,startup", "--quick", "--reps", "3",
        "--warmup", "0", "--no-out"]
# The wide header of these rows: impl as wide as "openblas_first", shape as the conv2d shape.
WIDE_HEAD = ("device  workload  impl           type shape                                        "
             "   median ms         95% CI ms     e2e ms   GFLOP/s     GB/s  peak  status")


def run(columns, args=None, ok=(0,)):
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns:
        env["COLUMNS"] = str(columns)
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([GPUBENCH, *(args or ARGS)], capture_output=True, cwd=tmp, env=env)
    check(p.returncode in ok, f"COLUMNS={columns}: exit {p.returncode}: {p.stderr[-300:]!r}")
    return p.stdout.decode("utf-8").splitlines()


def listings(width):
    """doctor and list at `width`: no line wider, and the long ones wrapped, not cut (the words
    of the wide form, in order)."""
    for what, args, ok in [
            ("doctor", ["doctor", "--assume", 'cc=3.5,name="Tesla K40m",mem=12GiB,driver=470.82',
                        "--assume", "cc=9.0,name=H100,driver=none"], (0, 1)),
            ("list", ["list"], (0,)),
            ("compare", ["compare", f"{DATA}/reg_runs_base.csv", f"{DATA}/reg_runs_new.csv"],
             (1,))]:
        lines = run(width, args, ok)
        wide = [l for l in lines if len(l) > width]
        if what == "compare":  # columns left out of the table, named under it
            check(any(l.startswith(f"left out to fit {width} columns: MDC") for l in lines),
                  f"compare at {width}: names the columns left out")
            continue
        check(lines and not wide, f"{what} at {width}: {len(wide)} lines wider:\n  " +
              "\n  ".join(wide[:3]))
        # up to the devices: their measured peaks differ from one run to the next
        def words(ls):
            return " ".join(ls).split(" devices: ")[0].split()
        check(words(lines) == words(run(None, args, ok)),
              f"{what} at {width}: the same words as wide")


def fitted(width):
    lines = run(width)
    wide = [l for l in lines if len(l) > width]
    check(not wide, f"COLUMNS={width}: {len(wide)} lines wider than {width}:\n  " +
          "\n  ".join(wide[:3]))
    head = next((l for l in lines if l.startswith("device ")), "")
    left = next((l for l in lines if l.startswith("left out to fit")), "")
    # every column is either in the header or named as left out
    for name in ["median ms", "95% CI ms", "e2e ms", "GFLOP/s", "GB/s", "peak", "status"]:
        check(name in head or name in left, f"COLUMNS={width}: {name!r} neither shown nor "
                                            f"named as left out:\n  {head}\n  {left}")
    check(any(l.startswith("cpu     ") for l in lines) and
          any(re.match(r"^        \S", l) for l in lines),
          f"COLUMNS={width}: the device footer wrapped under its facts")
    return lines


def wide():
    lines = run(None)
    check(WIDE_HEAD in lines, f"pipe: the wide header, unchanged:\n  {WIDE_HEAD}\n  " +
          "\n  ".join(l for l in lines if l.startswith("device ")))
    start = lines.index(WIDE_HEAD) + 1 if WIDE_HEAD in lines else 0
    end = lines.index("", start) if "" in lines[start:] else len(lines)
    rows = lines[start:end]
    check(len(rows) >= 10 and all(l.startswith("cpu ") for l in rows),
          f"pipe: one line per row: {rows}")
    check(not any(l.startswith("left out") for l in lines), "pipe: no column left out")
    footer = [l for l in lines if l.startswith("cpu     ") and "FP32 peak" in l]
    check(len(footer) == 1, f"pipe: the footer on one line: {footer}")
    # every '-' in peak of a timed row is counted by a legend line
    at = WIDE_HEAD.index("peak") + 4
    dashes = sum(1 for l in lines if l in rows and l[at - 1:at] == "-" and
                 not l[WIDE_HEAD.index("median ms"):at].strip().startswith("-"))
    legend = sum(int(m.group(1)) for l in lines
                 for m in [re.match(r'^peak "-" in (\d+) rows?: \S', l)] if m)
    check(dashes > 0 and legend == dashes,
          f"pipe: {dashes} timed rows with '-' in peak, {legend} in the legend")


def main():
    global GPUBENCH, DATA
    GPUBENCH = os.path.abspath(sys.argv[1])
    DATA = os.path.abspath(sys.argv[2])
    wide()
    narrow = fitted(80)
    check(any(l.startswith("left out to fit 80 columns: ") for l in narrow),
          "COLUMNS=80: names the columns left out")
    fitted(120)
    listings(80)
    listings(120)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
