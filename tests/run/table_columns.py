#!/usr/bin/python3
"""table_columns.py — every table gpubench prints lines up in a terminal (issue 32): its widths
count display columns, not bytes. A cell holding "–" (the 95% CI's en dash: three bytes, one
column), "×" or "µ" padded by printf's byte count came out short, and every column after it
ended left of its header: `run -d cpu -w vecadd -i cpu --quick` printed "e2e ms", "GFLOP/s",
"GB/s", "peak" and "status" 2 columns left of their headers.

Lines are decoded from UTF-8 and measured in code points (one column each: no East Asian wide
characters in gpubench's text). Per table:
  - `run`'s table (--quick on the CPU) and `compare`'s (slowdown and regression mode, on the
    committed files of tests/data/compare): each header names a column; in every row each
    column's cell either starts where its header starts (left-aligned) or ends where it ends
    (right-aligned), the same for every row of the column; a cell's neighbours are spaces;
  - `doctor --assume`'s key/value blocks: every value of a block starts in the same column;
  - `list`: the implementation lines' kind, tiers and summary, the workload lines' summary and
    the shape lines' shapes each start in one column.

usage: table_columns.py GPUBENCH DATA_DIR   (DATA_DIR: tests/data/compare)
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402

RUN_HEADS = ["device", "workload", "impl", "type", "shape", "median ms", "95% CI ms", "e2e ms",
             "GFLOP/s", "GB/s", "peak", "status"]


def output(gpubench, args, ok=(0,)):
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}  # the wide form
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([gpubench, *args], capture_output=True, cwd=tmp, env=env)
    check(p.returncode in ok, f"gpubench {' '.join(args)}: exit {p.returncode}: "
                              f"{p.stderr.decode('utf-8', 'replace')[-300:]}")
    return p.stdout.decode("utf-8").splitlines()


def spans(header, names):
    """[start, end) of each of `names` in the header line, in order."""
    out, at = [], 0
    for n in names:
        i = header.find(n, at)
        check(i >= 0, f"header {header!r} has {n!r}")
        out.append((i, i + len(n)))
        at = i + len(n)
    return out


def cell_fits(row, start, end, how):
    """Does the row's cell at a column whose header spans [start, end) sit there, aligned
    `how` ("left": it starts at start; "right": it ends at end), with spaces around it?"""
    if how == "left":
        return row[start:start + 1] not in ("", " ") and (start == 0 or row[start - 1] == " ")
    return row[end - 1:end] not in ("", " ") and (end >= len(row) or row[end] == " ")


def aligned(what, header, heads, rows):
    """Each column's cells, in every row, start where its header starts or end where it ends,
    the same way in every row. Blank cells (a row shorter than the column, or only spaces in
    the header's span) are skipped."""
    check(len(rows) >= 1, f"{what}: a table with rows")
    cols = spans(header, heads)
    for k, (start, end) in enumerate(cols):
        live = [r for r in rows if r[start:end].strip()]
        if not live:
            continue
        left = [r for r in live if cell_fits(r, start, end, "left")]
        right = [r for r in live if cell_fits(r, start, end, "right")]
        best, how = (left, f"starts at display column {start}") if len(left) >= len(right) \
            else (right, f"ends at display column {end}")
        if not best:
            how = f"spans display columns {start}-{end}"
        bad = [r for r in live if r not in best]
        check(not bad, f"{what}: column {heads[k]!r} {how} in the header, not in {len(bad)} of "
                       f"{len(live)} rows:\n  {header}\n  " + "\n  ".join(bad[:3]))


def run_table(gpubench):
    lines = output(gpubench, ["run", "-d", "cpu", "-w", "vecadd,gemm", "--quick", "--no-out"])
    head = next((i for i, l in enumerate(lines) if l.startswith("device ")), None)
    check(head is not None, f"run: a header line: {lines[:3]}")
    if head is None:
        return
    rows = []
    for line in lines[head + 1:]:
        if not line.strip():
            break
        rows.append(line)
    check(any("–" in r for r in rows), f"run: a row whose 95% CI holds the en dash: {rows[:3]}")
    aligned("run", lines[head], RUN_HEADS, rows)


def compare_tables(gpubench, what, args):
    """compare's tables: a header line, a rule of '-', rows (and rules) up to a blank line.
    Its columns are two spaces apart and a header holds at most single spaces."""
    lines = output(gpubench, ["compare", *args], ok=(0, 1))
    n = 0
    for i, line in enumerate(lines):
        if i == 0 or not re.fullmatch(r"-{10,}", line) or re.fullmatch(r"-+", lines[i - 1]):
            continue
        header = lines[i - 1]
        heads = [m.group(0) for m in re.finditer(r"\S+(?: \S+)*", header)]
        rows = []
        for row in lines[i + 1:]:
            if not row.strip():
                break
            if not re.fullmatch(r"-+", row):
                rows.append(row)
        aligned(f"compare {what}", header, heads, rows)
        n += 1
    check(n >= 1, f"compare {what}: a table: {lines[:5]}")


def same_column(what, lines, rx):
    """Every line matching rx has each of its groups starting in one column."""
    starts = {}
    for line in lines:
        m = re.match(rx, line)
        if m:
            for g in range(1, (m.lastindex or 0) + 1):
                starts.setdefault(g, {}).setdefault(m.start(g), []).append(line)
    check(starts, f"{what}: lines like {rx!r}")
    for g, at in starts.items():
        check(len(at) == 1, f"{what}: field {g} starts in columns {sorted(at)}: " +
              " | ".join(v[0] for v in at.values()))


def doctor_blocks(gpubench):
    lines = output(gpubench, ["doctor", "--assume", 'cc=3.5,name="Tesla K40m",mem=12GiB,driver=470.82',
                              "--assume", "cc=9.0,name=H100,driver=none"], ok=(0, 1))
    block = []
    for line in lines + [""]:
        if line.startswith("  "):
            block.append(line)
            continue
        # "  key   value" (a key of single-spaced words, padded) or "        value" (no key)
        if block:
            same_column("doctor", block, r"^  (?:\S+(?: \S+)*)?\s{2,}(\S)")
        block = []


def list_columns(gpubench):
    lines = output(gpubench, ["list"])
    lines = lines[:next((i for i, l in enumerate(lines) if l.startswith("devices:")), len(lines))]
    same_column("list implementations", lines, r"^    \S+ +(\[\w+\]) +(\S+) +(\S)")
    same_column("list workloads", lines, r"^  \w+ +(\S)")
    same_column("list shapes", lines, r"^    (?:default|quick|sweep) +(\S)")


def main():
    gpubench, data = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    run_table(gpubench)
    compare_tables(gpubench, "slowdown", ["--baseline", "cpu", f"{data}/sd_a.csv",
                                          f"{data}/sd_b.csv"])
    compare_tables(gpubench, "regression", [f"{data}/reg_runs_base.csv",
                                            f"{data}/reg_runs_new.csv"])
    compare_tables(gpubench, "regression, one run", [f"{data}/reg_base.csv",
                                                     f"{data}/reg_new.csv"])
    doctor_blocks(gpubench)
    list_columns(gpubench)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
