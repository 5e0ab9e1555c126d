#!/usr/bin/python3
"""slowdown_width.py — compare's slowdown report fits the terminal (issue 38, item 13). Where the
width is known (COLUMNS here; a terminal's TIOCGWINSZ otherwise) no line of it is wider: a table
too wide splits its devices over several tables that repeat the implementation column, a long
shape moves to a line of its own over its rows ("shape: n=1 c=3 …"), the crossovers' sentence
goes under its row, the notes wrap under themselves. Nothing is lost: every ratio ("×") of the
wide form is there. Where nothing tells the width (a pipe, COLUMNS unset) the report is the wide
form, one line per row. Every '-' in a shown column is explained by a line starting '"-"'.

Lines are measured in code points (one display column each: no East Asian wide characters in
gpubench's text).

usage: slowdown_width.py GPUBENCH DATA_DIR RESULTS_RUN_CSV
       (DATA_DIR: tests/data/compare; RESULTS_RUN_CSV: a committed H200 run, with '-' cells)
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402


def report(columns, args):
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns:
        env["COLUMNS"] = str(columns)
    p = subprocess.run([GPUBENCH, "compare", *args], capture_output=True, env=env)
    check(p.returncode == 0, f"COLUMNS={columns} {args}: exit {p.returncode}: {p.stderr[-300:]!r}")
    return p.stdout.decode("utf-8").splitlines()


def dashes_explained(what, lines):
    """A '-' standing alone in a table row (two spaces or the line's end around it) comes with a
    line that says what it means."""
    cells = [l for l in lines if re.search(r"(^|  )-(  |$)", l) and not l.startswith('"-"')]
    legend = [l for l in lines if l.startswith('"-"')]
    check(not cells or legend, f"{what}: '-' in {len(cells)} rows, no line explains it:\n  " +
          "\n  ".join(cells[:3]))
    return bool(cells)


def fits(width, args):
    what = f"COLUMNS={width} compare {' '.join(os.path.basename(a) for a in args)}"
    lines, wide = report(width, args), report(None, args)
    over = [l for l in lines if len(l) > width]
    check(lines and not over, f"{what}: {len(over)} lines wider than {width}:\n  " +
          "\n  ".join(over[:3]))
    check(sum(l.count("×") for l in lines) == sum(l.count("×") for l in wide),
          f"{what}: every ratio of the wide form shown")
    return lines, dashes_explained(what, lines)


def main():
    global GPUBENCH
    GPUBENCH = os.path.abspath(sys.argv[1])
    data, h200 = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    cases = [["--baseline", "cpu", f"{data}/sd_a.csv", f"{data}/sd_b.csv"],
             ["--baseline", "cpu", f"{data}/tiers.csv"], [f"{data}/sd_sim.csv"],
             [f"{data}/sd_noisy.csv"], [h200]]
    any_dash = False
    for width in (80, 120):
        for args in cases:
            lines, dash = fits(width, args)
            any_dash |= dash
        lines, _ = fits(width, cases[0])
        if width == 80:  # four devices: split over two tables; conv2d's shape on its own line
            check(sum(l.startswith("  impl ") for l in lines) >= 2,
                  "COLUMNS=80: the gemm table split, the impl column repeated")
            check("shape: n=1 c=3 h=32 w=32 k=8 r=3 s=3 stride=1 pad=1" in lines,
                  "COLUMNS=80: conv2d's long shape on a line of its own")
            check(any(l.startswith("    against Test CPU A (cpu): faster") for l in lines),
                  "COLUMNS=80: a crossover's sentence under its row")
    check(any_dash, "some case shows a '-' cell (the legend is tested)")
    # the pipe: the wide form, the shapes in their column, one line per crossover
    wide = report(None, cases[0])
    check(any(re.match(r"^shape +impl +kernel +e2e +kernel", l) for l in wide) and
          not any(l.startswith("shape: ") for l in wide), "pipe: the wide table")
    check(any(re.match(r"^gemm +A100-TEST \(cc 8\.0\) +cublas +Test CPU A \(cpu\) +faster", l)
              for l in wide), "pipe: a crossover on one line")
    dashes_explained("pipe", report(None, [h200]))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
