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
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testhelp import check, load_plot, summary  # noqa: E402


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
    wls = [t.get_text().replace("\n", " ") for t in ax.get_xticklabels()]
    handles, labels = ax.get_legend_handles_labels()
    drawn = {}
    for container, label in zip(ax.containers, labels):
        for bar in container:  # a bar from the 1x line to its value
            wl = wls[int(round(bar.get_x() + bar.get_width() / 2))]
            drawn[(label, wl)] = bar.get_y() + bar.get_height()
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


def check_legible(plot, gpubench, kind, files, out, size="640x400", extra=()):
    args = [kind, "--size", size, "--out", out, *extra, *files]
    if kind not in ("trace", "energy"):
        args[1:1] = ["--gpubench", gpubench]
    rc, fig = plot.run(args)
    kind = f"{kind} {' '.join(extra)} {size}"
    check(rc == 0 and fig is not None, f"{kind} exits 0")
    if not fig:
        return
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    fbb = fig.bbox
    w, h = (int(v) for v in size.split("x"))
    check((round(fbb.width), round(fbb.height)) == (w, h), f"{kind}: {size} pixels")
    # the labels of bars do not lie on top of each other
    for ax in fig.axes:
        boxes = [t.get_window_extent(r) for t in ax.texts if t.get_text()]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                check(not a.overlaps(b), f"{kind}: two bar labels overlap")
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
        check(inside(bb, fbb), f"{kind}: text '{t.get_text()[:40]}' is clipped "
                               f"({bb.x0:.0f},{bb.y0:.0f})-({bb.x1:.0f},{bb.y1:.0f})")
    legends = fig.legends + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    check(legends, f"{kind}: has a legend")
    for lg in legends:
        lb = lg.get_window_extent(r)
        check(inside(lb, fbb), f"{kind}: the legend is clipped")
        for ax in fig.axes:
            check(not lb.overlaps(ax.get_window_extent(r)),
                  f"{kind}: the legend lies over the axes (bars or lines)")
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = shown.get(id(axis), [])
            for t in labels:
                check(t.get_fontsize() >= 7, f"{kind}: tick label '{t.get_text()}' is "
                                             f"{t.get_fontsize()} pt, below 7")
            boxes = sorted((t.get_window_extent(r) for t in labels), key=lambda b: (b.x0, b.y0))
            for a, b in zip(boxes, boxes[1:]):
                check(not a.overlaps(b), f"{kind}: tick labels overlap")


def check_h200(plot, gpubench, script, results, out_dir):
    """The committed H200 results (issue 33): start-up costs in no bar, crossovers and traces of
    one precision tier, the tier named; .gz samples read; every picture legible at both sizes."""
    run = os.path.join(results, "vm-NVIDIA-H200-20261126T110109Z", "run.csv")
    samples = run.replace("run.csv", "run.samples.csv.gz")
    gemm = os.path.join(results, "vm-NVIDIA-H200-20261126T111149Z-sweeps", "sweep-gemm.csv")
    o = lambda name: os.path.join(out_dir, name)  # noqa: E731
    # tiers: the float32 bars are compare's means without the start-up costs (67.4x, 2.63x)
    rc, fig = plot.run(["tiers", "--gpubench", gpubench, "--out", o("h200_tiers.png"), run])
    texts = [t.get_text() for t in fig.axes[0].texts] if fig else []
    check(rc == 0 and "67.4× faster" in texts and "2.63× faster" in texts
          and not any("slower" in t for t in texts[:2]),
          f"tiers of the H200 run: float32 67.4x and 2.63x faster (got {texts})")
    rc, fig = plot.run(["speedup", "--gpubench", gpubench, "--out", o("h200_speedup.png"), run])
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()] if fig else []
    check(rc == 0 and ticks and not any(t.startswith("startup") for t in ticks),
          f"speedup of the H200 run: no startup bars ({ticks})")
    # its Xeon baseline ran GEMM at 9% of its peak, cause unknown (the run predates the hardware
    # and cpu_wait_pct columns): the title says that speedups against it are overstated (issue 45)
    title = fig.axes[0].get_title().replace("\n", " ") if fig else ""  # wrapped at spaces
    check("GEMM ran at 8% of its FP32 peak" in title and "no cause is known" in title
          and "speedups against it are overstated" in title,
          f"speedup of the H200 run: the title names the overstating baseline ({title!r})")
    rc, fig = plot.run(["sweep", "--gpubench", gpubench, "--dtype", "float32",
                        "--out", o("h200_sweep_slow.png"), gemm])
    title = fig._suptitle.get_text().replace("\n", " ") if fig and fig._suptitle else ""
    check("speedups against it are overstated" in title,
          f"sweep of the H200 run: the title names the overstating baseline ({title!r})")
    # sweep: the float32 chart marks only float32 crossovers (cuda is faster at every size in
    # float32; m=256 is the float64 crossover)
    for dtype in ("float32", "float64"):
        rc, fig = plot.run(["sweep", "--gpubench", gpubench, "--dtype", dtype,
                            "--out", o(f"h200_sweep_{dtype}.png"), gemm])
        if not fig:
            check(False, f"sweep --dtype {dtype} of sweep-gemm.csv exits 0 (got {rc})")
            continue
        data = compare(gpubench, "cpu", [gemm])
        froms = sorted((x["impl"], x["shape"]) for x in data["crossover"]
                       if x["kind"] == "from" and x["dtype"] == dtype)
        # "DEVICE LABEL IMPL DTYPE: faster than the CPU from SHAPE on"
        marks = sorted((lab.split(": faster than ")[0].split(" ")[-2],
                        lab.split(" from ")[1][:-len(" on")])
                       for ax in fig.axes for line in ax.get_lines()
                       for lab in [line.get_label()] if ": faster than " in lab)
        check(marks == [(impl, shape) for impl, shape in froms],
              f"sweep {dtype}: crossover marks {marks} are compare's {froms}")
        legend = [t.get_text() for lg in fig.legends for t in lg.get_texts()]
        check(legend and all(dtype in t for t in legend),
              f"sweep {dtype}: every legend entry names the tier ({legend})")
        check(all(dtype in ax.get_title() for ax in fig.axes),
              f"sweep {dtype}: every panel title names the tier")
    # trace: one row of one tier, read from the .gz samples
    import csv as _csv
    import gzip as _gzip
    with _gzip.open(samples, "rt", newline="") as f:
        want = [r for r in _csv.DictReader(f) if (r["device"], r["workload"], r["impl"],
                                                  r["dtype"]) == ("cuda:0", "gemm", "cublas",
                                                                  "float64")]
    for row in ("cuda:0/gemm/cublas/float64", "cuda:0/gemm/cublas"):
        extra = ["--dtype", "float64"] if row.count("/") == 2 else []
        rc, fig = plot.run(["trace", samples, "--row", row, *extra, "--out", o("h200_trace.png")])
        title = fig.axes[0].get_title() if fig else ""
        n = len(fig.axes[0].get_lines()[0].get_xdata()) if fig else 0
        check(rc == 0 and "float64" in title and n == len(want) > 0,
              f"trace --row {row} {' '.join(extra)}: the float64 row only, named "
              f"({n} points of {len(want)}; {title!r})")
    # legible at the default size and at 640x400
    # (the pictures the issue found cut or crowded at both sizes; the rest at the smaller)
    for kind, files, extra, sizes in (
            ("speedup", [run], (), ("1200x800", "640x400")),
            ("tiers", [run], (), ("1200x800", "640x400")),
            ("sweep", [gemm], ("--dtype", "float64"), ("1200x800", "640x400")),
            ("trace", [samples], ("--row", "cuda:0/gemm/cublas/float64"), ("640x400",)),
            ("energy", [run], (), ("640x400",))):
        for size in sizes:
            check_legible(plot, gpubench, kind, files, o(f"h200_{kind}_{size}.png"), size, extra)
    # bad input: one line, exit 2, no traceback, for every kind of plot
    garbage = o("garbage.csv.gz")
    with open(garbage, "wb") as f:
        f.write(b"\x1f\x8b\x08\x00garbage")
    binary = o("binary.csv")
    with open(binary, "wb") as f:
        f.write(bytes(range(256)))
    wrong = o("wrong.csv")
    with open(wrong, "w") as f:
        f.write("a,b\n1,2\n")
    # (tiers and sweep read their files through compare, as speedup does)
    for kind in ("speedup", "energy", "trace"):
        g = [] if kind in ("energy", "trace") else ["--gpubench", gpubench]
        for bad in (o("missing.csv"), garbage, binary, wrong):
            one_line_refusal(script, [kind, *g, "--out", o("bad.png"), bad],
                             f"{kind} of {os.path.basename(bad)}")
        one_line_refusal(script, [kind, *g, "--bogus", run], f"{kind} --bogus", "--bogus")


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
    check_legible(plot, gpubench, "tiers", [os.path.join(data_dir, "tiers.csv")],
                  os.path.join(out_dir, "small_tiers.png"))
    results = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results")
    check_h200(plot, gpubench, script, results, out_dir)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
