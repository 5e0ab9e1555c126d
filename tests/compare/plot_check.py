#!/usr/bin/python3
"""plot_check.py — scripts/plot draws what `gpubench compare` computes and nothing else, refuses
what compare refuses, reports a bad --out in one line (exit 2), and stays legible at 640x400.

  1. speedup: every bar's height is 1 / compare's geometric-mean ratio of its workload, device
     and metric (compare --format json), and its label is compare's own text for that ratio;
     sweep: every point is compare's time of that line, every crossover mark is at the size
     compare names.
  2. a file compare refuses (duplicate rows) is refused with compare's line, exit 2, no image.
  3. --out in a missing directory, or with an unknown extension: one line, exit 2, no traceback.
  4. at 640x400: every text lies inside the picture, the legend covers no axes (no bars, no
     lines), tick labels do not overlap and are at least 7 pt.

usage: plot_check.py GPUBENCH PLOT_SCRIPT DATA_DIR OUT_DIR   (exit 77 without matplotlib)
"""
import importlib.machinery
import importlib.util
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, summary  # noqa: E402


def load_plot(path):
    loader = importlib.machinery.SourceFileLoader("gpubench_plot", path)
    spec = importlib.util.spec_from_loader("gpubench_plot", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def compare(gpubench, baseline, files):
    out = subprocess.run([gpubench, "compare", "--format", "json", "--baseline", baseline, *files],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def factor(x):
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def cell(ratio):
    """compare's table text for a ratio (harness/compare/out.c, fmt_ratio)."""
    return f"{factor(ratio)}× slower" if ratio >= 1 else f"{factor(1 / ratio)}× faster"


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def check_speedup(plot, gpubench, files, out):
    rc, fig = plot.run(["speedup", "--gpubench", gpubench, "--out", out, *files])
    check(rc == 0 and fig is not None, f"speedup plot of {files} exits 0 (got {rc})")
    if not fig:
        return
    data = compare(gpubench, "cpu", files)
    want = {}
    for g in data["geomean"]:
        if g["workload"] is None:
            continue
        for m, name in (("kernel", "kernel"), ("e2e", "end to end")):
            want[(g["label"] + ", " + name, g["workload"])] = g[f"{m}_ratio"]
    ax = fig.axes[0]
    wls = [t.get_text() for t in ax.get_xticklabels()]
    handles, labels = ax.get_legend_handles_labels()
    drawn = {}
    for container, label in zip(ax.containers, labels):
        for bar in container:
            wl = wls[int(round(bar.get_x() + bar.get_width() / 2))]
            drawn[(label, wl)] = bar.get_height()
    check(set(drawn) == set(want),
          f"one bar per compare geomean: drawn {sorted(drawn)} want {sorted(want)}")
    for key, ratio in want.items():
        if key in drawn:
            check(close(drawn[key], 1 / ratio),
                  f"{key}: bar {drawn[key]:.6g}× faster, compare says {1 / ratio:.6g}× "
                  f"({cell(ratio)})")
    texts = sorted(t.get_text() for t in ax.texts)
    check(texts == sorted(cell(r) for r in want.values()),
          f"bar labels are compare's texts: {texts} vs {sorted(cell(r) for r in want.values())}")


def check_sweep(plot, gpubench, files, out):
    rc, fig = plot.run(["sweep", "--gpubench", gpubench, "--out", out, *files])
    check(rc == 0 and fig is not None, f"sweep plot of {files} exits 0 (got {rc})")
    if not fig:
        return
    data = compare(gpubench, "cpu", files)
    times = {round(v, 12) for l in data["lines"] if l["status"] == "ok"
             for v in (l["ms"], l["e2e_ms"] if l["e2e_ms"] is not None else l["ms"])}
    npoints = 0
    for ax in fig.axes:
        for line in ax.get_lines():
            ys = line.get_ydata()
            if len(ys) == 2 and ys[0] == 0 and ys[1] == 1:
                continue  # an axvline (in axes coordinates)
            for y in ys:
                npoints += 1
                check(round(float(y), 12) in times, f"sweep point {y} is one of compare's times")
    check(npoints > 0, "the sweep drew points")
    froms = [x for x in data["crossover"] if x["kind"] == "from"]
    marks = [t for ax in fig.axes for l in ax.get_lines() for t in [l.get_label()]
             if ": faster than " in t]
    check(len(marks) == len(froms) and all(any(x["shape"] in m for m in marks) for x in froms),
          f"crossover marks {marks} are compare's {[(x['label'], x['shape']) for x in froms]}")


def one_line_refusal(script, args, what, expect=None):
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check(p.returncode == 2, f"{what}: exit {p.returncode}, want 2")
    check(len(lines) == 1 and "Traceback" not in p.stderr,
          f"{what}: one line, got {p.stderr!r}")
    if expect:
        check(lines and expect in lines[0], f"{what}: '{expect}' in {lines}")
    return lines[0] if lines else ""


def inside(bb, fig_bb, tol=1.0):
    return (bb.x0 >= fig_bb.x0 - tol and bb.y0 >= fig_bb.y0 - tol and bb.x1 <= fig_bb.x1 + tol
            and bb.y1 <= fig_bb.y1 + tol)


def check_legible(plot, gpubench, kind, files, out):
    rc, fig = plot.run([kind, "--gpubench", gpubench, "--size", "640x400", "--out", out, *files])
    check(rc == 0 and fig is not None, f"{kind} at 640x400 exits 0")
    if not fig:
        return
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    fbb = fig.bbox
    check((round(fbb.width), round(fbb.height)) == (640, 400), f"{kind}: 640x400 pixels")
    # tick labels: only those of ticks inside the view (matplotlib keeps, and does not draw,
    # labels of the ticks beyond the limits)
    ticks, shown = set(), {}
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tk in axis.get_major_ticks() + axis.get_minor_ticks():
                for t in (tk.label1, tk.label2):
                    ticks.add(id(t))
                    if t.get_visible() and t.get_text() and lo <= tk.get_loc() <= hi:
                        shown.setdefault(id(axis), []).append(t)

    def is_text(a):
        return hasattr(a, "get_text") and hasattr(a, "get_window_extent")

    texts = [t for t in fig.findobj(is_text)
             if t.get_visible() and t.get_text().strip() and id(t) not in ticks]
    texts += [t for ts in shown.values() for t in ts]
    for t in texts:
        bb = t.get_window_extent(r)
        check(inside(bb, fbb), f"{kind} 640x400: text '{t.get_text()[:40]}' is clipped "
                               f"({bb.x0:.0f},{bb.y0:.0f})-({bb.x1:.0f},{bb.y1:.0f})")
    legends = fig.legends + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    check(legends, f"{kind}: has a legend")
    for lg in legends:
        lb = lg.get_window_extent(r)
        check(inside(lb, fbb), f"{kind} 640x400: the legend is clipped")
        for ax in fig.axes:
            check(not lb.overlaps(ax.get_window_extent(r)),
                  f"{kind} 640x400: the legend lies over the axes (bars or lines)")
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = shown.get(id(axis), [])
            for t in labels:
                check(t.get_fontsize() >= 7, f"{kind}: tick label '{t.get_text()}' is "
                                             f"{t.get_fontsize()} pt, below 7")
            boxes = sorted((t.get_window_extent(r) for t in labels), key=lambda b: (b.x0, b.y0))
            for a, b in zip(boxes, boxes[1:]):
                check(not a.overlaps(b), f"{kind} 640x400: tick labels overlap")


def main():
    gpubench, script, data_dir, out_dir = sys.argv[1:5]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("SKIP: no matplotlib: apt-get install python3-matplotlib")
        return 77
    plot = load_plot(script)
    files = [os.path.join(data_dir, "sd_a.csv"), os.path.join(data_dir, "sd_b.csv")]
    check_speedup(plot, gpubench, files, os.path.join(out_dir, "check_speedup.png"))
    check_sweep(plot, gpubench, files, os.path.join(out_dir, "check_sweep.png"))

    # 2. compare refuses a file with the same row twice: so does the plot, with compare's line
    dup = os.path.join(data_dir, "bad", "duplicate.csv")
    p = subprocess.run([gpubench, "compare", dup], capture_output=True, text=True)
    img = os.path.join(out_dir, "dup.png")
    if os.path.exists(img):
        os.unlink(img)
    for kind in ("speedup", "sweep"):
        got = one_line_refusal(script, [kind, "--gpubench", gpubench, "--out", img, dup],
                               f"{kind} of a file compare refuses")
        check(p.returncode == 2 and p.stderr.strip() in got,
              f"{kind}: compare's refusal '{p.stderr.strip()}' is the plot's: '{got}'")
        check(not os.path.exists(img), f"{kind}: no image from refused input")

    # 3. a bad --out
    one_line_refusal(script, ["speedup", "--gpubench", gpubench, "--out", "/nonexistent/x.png",
                              *files], "--out in a missing directory", "--out /nonexistent/x.png")
    one_line_refusal(script, ["speedup", "--gpubench", gpubench, "--out",
                              os.path.join(out_dir, "x.xyz"), *files],
                     "--out with an unknown extension", "unknown image format '.xyz'")

    # 4. legible at 640x400
    check_legible(plot, gpubench, "speedup", files, os.path.join(out_dir, "small_speedup.png"))
    check_legible(plot, gpubench, "sweep", files, os.path.join(out_dir, "small_sweep.png"))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
