"""first_card.py — the first card run of our own tensor-core kernels (issue 46, item 7):
`scripts/kernel-lease --first`. On the tree as it is, in this order, every GPU command under a
deadline (scripts/lib/deadline.py):

  1. the hang probes: the forced persistent 128×256 kernel at 128×64×512 (its second block wholly
     below M, three of four B boxes wholly outside, 8 slices; f16 and bf16, then tf32's: 16
     slices) and the forced 128×128 kernel at 129×8×520 (a second tile row of one row, B's
     second box outside, 9 slices), 20 s each;
  2. the edge runs (scripts/lib/wgmma_edges.py, dmma_edges.py, conv2d_tc_edges.py): every row
     verified and on the kernel its run forced;
  3. memcheck across tiles: compute-sanitizer on both wgmma kernels and tf32's two at
     wgmma_edges.MEMCHECK (2176×2056×328), where the machine has compute-sanitizer;
  4. the ratio round: gemm/cuda_tc ÷ cuBLAS at 2048³ and 4096³ in f16, bf16, tf32 and f64, and
     conv2d/cuda_tc ÷ cuDNN (its pick, and its best implicit GEMM) in f16 at the default shape;
  5. one ncu pass on the persistent kernel (f16 at 4096³): the tensor pipe's active share, L2
     throughput, and membar's share of the warps' stall reasons, where the machine has ncu;
  6. the choices: each modelled choice's two kernels, forced in turn, at the shapes where the
     model decides (gemm f16 at 2304³ and 4096³, tf32 at 4096³: 128x128 against the persistent
     128x256, whose time a tile ÷ 128x128's is the tile cost the model estimates as 1.8,
     GB_WP_TILE_COST_X10 in kernels/gemm/wgmma_persist.cuh; conv2d f16 at the default shape:
     128x128 against 64x256), so that one run of this script sets what the rules estimate.

It stops at the first hang (a command past its deadline) and prints one screen last: what hung,
what verified, and every own ÷ vendor ratio — "not measured" where its rows did not run, never
an estimate. On the simulated device (gpubench-sim) the big shapes are the edge scripts' SCALED
ones and SIM_RATIO_SHAPES, deadlines are edge_rows.SIM_DEADLINE_SCALE times longer (CPU
emulation), and the
screen says that nothing on it is a measurement.

Files in the output folder: each step's CSVs and logs, ncu-persist.ncu-rep, ncu-raw.csv and
ncu-details.txt, and screen.txt (the screen, rewritten after every step, so that a run stopped
from outside still leaves what it saw).
"""
import csv
import os
import re
import shutil
import time

import conv2d_tc_edges
import deadline
import dmma_edges
import edge_rows
import gpu_ratios
import wgmma_edges

PROBES = [(wgmma_edges.W256, "gemm:m=128,n=64,k=512"),
          (wgmma_edges.TF32_256, "gemm:m=128,n=64,k=512"),
          (wgmma_edges.W128, "gemm:m=129,n=8,k=520")]
PROBE_LIMIT = 20
MEMCHECK_LIMIT = 120
RATIO_LIMIT = 150
NCU_LIMIT = 180
RATIO_TIERS = ["f16", "bf16", "tf32", "f64"]
RATIO_SHAPES = ["gemm:m=2048,n=2048,k=2048", "gemm:m=4096,n=4096,k=4096"]
SIM_RATIO_SHAPES = ["gemm:m=128,n=128,k=128", "gemm:m=256,n=256,k=256"]
SIM_CONV_SHAPE = "conv2d:n=1,c=32,h=28,w=28,k=32,r=3,s=3,stride=1,pad=1"
NCU_SHAPE, SIM_NCU_SHAPE = RATIO_SHAPES[1], "gemm:m=264,n=520,k=200"
# the choices: (label, workload, tier, variable, its two values, shapes on a card, on the sim)
CHOICES = [("gemm f16", "gemm", "f16", "GPUBENCH_WGMMA_KERNEL", ("128x128", "128x256"),
            ["gemm:m=2304,n=2304,k=2304", RATIO_SHAPES[1]], ["gemm:m=264,n=520,k=64"]),
           ("gemm tf32", "gemm", "tf32", "GPUBENCH_WGMMA_KERNEL", ("128x128", "128x256"),
            [RATIO_SHAPES[1]], ["gemm:m=264,n=520,k=64"]),
           ("conv2d f16", "conv2d", "f16", "GPUBENCH_CONV_KERNEL", ("128x128", "64x256"),
            [], [SIM_CONV_SHAPE])]
CHOICE_LIMIT = 120
TIMING = ["--min-time", "0.2", "--max-time", "1", "--warmup", "2"]
SIM_TIMING = ["--reps", "1", "--warmup", "0", "--min-time", "0"]
# a step starts only with this much of --budget left (seconds, on a card)
NEED = {"probes": 45, "edges": 60, "memcheck": 45, "ratios": 90, "ncu": 45, "choices": 60}
STEPS = [("probes", "1 hang probes"), ("edges", "2 edge runs"), ("memcheck", "3 memcheck"),
         ("ratios", "4 ratio round"), ("ncu", "5 ncu, persistent"), ("choices", "6 choices")]
# the ncu sections whose metrics the screen reads (the raw page names each metric)
NCU_SECTIONS = ["SpeedOfLight", "ComputeWorkloadAnalysis", "MemoryWorkloadAnalysis",
                "WarpStateStats"]
HUNG_EXIT = 4


class First:
    """One first card run: where it writes, what each step gave, and the first hang."""

    def __init__(self, gb, out, scale, budget, name, cc):
        self.gb, self.out, self.scale, self.budget = gb, out, scale, budget
        self.name, self.cc = name, cc
        self.sim = edge_rows.simulated(name)
        self.t0 = time.time()
        self.steps = {}  # key -> (result, seconds, lines)
        self.hung = ""
        self.failed = False
        self.rows = []  # the ratio round's rows
        self.ncu = []

    def limit(self, seconds):
        return max(1, int(seconds * self.scale))

    def left(self):
        return self.budget - (time.time() - self.t0)

    def record(self, key, result, t0, lines):
        self.steps[key] = (result, time.time() - t0, lines)
        self.failed |= result not in ("ok", "not run")
        write_screen(self)

    def env(self, **extra):
        e = dict(os.environ, GPUBENCH_NO_HOLD="1")
        e.update(extra)
        return e


def parts(f, title, runs):
    """Run each of `runs` (functions returning an edge_rows.Result) up to the first hang; the
    step's result and lines."""
    lines, result = [], "ok"
    for run_part in runs:
        res = run_part()
        lines += res.lines
        if res.hung:
            f.hung = f"{title}: {res.hung}"
            return "HUNG", lines
        result = "FAIL" if res.failed else result
    return result, lines


def probe(f, kernel, shape):
    res = edge_rows.Result()
    edge_rows.batch(f.gb, kernel, [shape], os.path.join(f.out, f"probe-{kernel.label}"),
                    f"probe {kernel.label} at {shape.split(':')[1]}",
                    (f.limit(PROBE_LIMIT), f.limit(PROBE_LIMIT)), res)
    return res


def step_probes(f):
    return parts(f, "1 hang probes",
                 [lambda k=k, s=s: probe(f, k, s) for k, s in PROBES])


def step_edges(f):
    out = os.path.join(f.out, "edges")
    limits = (wgmma_edges.BATCH_LIMIT, wgmma_edges.SHAPE_LIMIT)
    return parts(f, "2 edge runs",
                 [lambda: wgmma_edges.run_all(f.gb, out, limits, True, f.scale),
                  lambda: dmma_edges.run_all(f.gb, out, limits, True, f.scale),
                  lambda: conv2d_tc_edges.run_all(f.gb, out, conv2d_tc_edges.LIMIT, f.scale)])


def step_memcheck(f):
    san = shutil.which("compute-sanitizer")
    if not san:
        return "not run", ["compute-sanitizer not found on PATH"]
    shape = wgmma_edges.scaled(f.name, wgmma_edges.MEMCHECK, wgmma_edges.SCALED_MEMCHECK)
    lines, result = [], "ok"
    prefix = [san, "--tool", "memcheck", "--error-exitcode", "9", "--print-limit", "50"]
    for kernel in wgmma_edges.MEMCHECK_KERNELS:
        stem = os.path.join(f.out, f"memcheck-{kernel.label}")
        t0 = time.time()
        rc = edge_rows.run(f.gb, kernel, [shape], stem + ".csv", stem + ".log",
                           f.limit(MEMCHECK_LIMIT), prefix, {"GPUBENCH_NO_HOLD": "1"})
        what = f"memcheck {kernel.label} at {shape.split(':')[1]}"
        if rc is None:
            f.hung = f"3 memcheck: {kernel.label} at {shape}: no exit within " \
                     f"{f.limit(MEMCHECK_LIMIT)} s"
            return "HUNG", lines + [f"{what}: HUNG"]
        refused = tool_refused(stem + ".log", SANITIZER_REFUSALS)
        if rc != 0 and refused:  # the tool, not the kernel (gVisor machines: the device docs)
            return "not run", lines + [f"{what}: compute-sanitizer cannot run here: {refused}"]
        v = edge_rows.judge(stem + ".csv", kernel)
        errors = summary_line(stem + ".log")
        if rc != 0 or v.bad:
            result = "FAIL"
            lines.append(f"{what}: FAIL exit {rc}{' (memcheck found errors)' if rc == 9 else ''}"
                         f"; {errors}; see {stem}.log")
            lines += [f"  FAIL {t} {s}: {w}" for t, s, w in v.bad]
        else:
            lines.append(f"{what}: {v.on} rows on {kernel.label}, {errors} "
                         f"in {time.time() - t0:.0f} s")
    return result, lines


# what compute-sanitizer and ncu print where the machine does not let them work (seen on the lent
# machines' gVisor runtime, the device tool's KINDS.md): the step is "not run", not a failure
SANITIZER_REFUSALS = ("Device not supported",)
NCU_REFUSALS = ("LibraryNotLoaded", "ERR_NVGPUCTRPERM", "Failed to initialize the profiler")


def tool_refused(log, phrases):
    """The first line of log holding one of phrases, or ""."""
    try:
        with open(log, errors="replace") as fh:
            return next((ln.strip()[:120] for ln in fh if any(p in ln for p in phrases)), "")
    except OSError:
        return ""


def summary_line(log):
    """compute-sanitizer's "ERROR SUMMARY: N errors" from a log, or what stands in its place."""
    try:
        with open(log, errors="replace") as fh:
            found = [ln.strip().lstrip("=").strip() for ln in fh if "ERROR SUMMARY" in ln]
    except OSError:
        found = []
    return found[-1] if found else "no ERROR SUMMARY line"


def ratio_runs(f):
    """(label, workload, impls, tiers, shapes) of the ratio round: one gpubench a tier, so that a
    hang in one leaves the others' rows."""
    shapes = SIM_RATIO_SHAPES if f.sim else RATIO_SHAPES
    runs = [(f"gemm {t}", "gemm", "cuda_tc,cublas", t, shapes) for t in RATIO_TIERS]
    runs.append(("conv2d f16", "conv2d", "cuda_tc,cudnn,cudnn_gemm", "f16",
                 [SIM_CONV_SHAPE] if f.sim else []))
    return runs


def timed_run(f, stem, w, impls, tier, shapes, limit, env, tag):
    """One timed gpubench run on cuda:0 into stem.csv and stem.log, under a deadline of limit s
    (gpubench's own row deadline inside it); (exit code, rows, why it hung or ""): rc None
    where the run itself passed its deadline, why naming the row gpubench timed out."""
    cmd = [f.gb, "run", "-d", "cuda:0", "-w", w, "-i", impls, "-D", tier, "-o",
           stem + ".csv"] + (SIM_TIMING if f.sim else TIMING)
    cmd += deadline.gpubench_args(f.limit(limit))
    for s in shapes:
        cmd += ["-s", s]
    with open(stem + ".log", "w") as log:
        rc = deadline.run(cmd, f.limit(limit), log, env, tag=tag)
    if rc is None:
        return rc, [], f"no exit within {f.limit(limit)} s"
    rows = read_csv(stem + ".csv")
    hung = [r for r in rows if r.get("status") == "timeout"]  # gpubench's own deadline
    return rc, rows, (f"{hung[0]['impl']} {hung[0]['shape']}: {hung[0]['note'][:160]}"
                      if hung else "")


def step_ratios(f):
    lines, result = [], "ok"
    for label, w, impls, tier, shapes in ratio_runs(f):
        stem = os.path.join(f.out, f"ratio-{label.replace(' ', '-')}")
        t0 = time.time()
        rc, rows, hung = timed_run(f, stem, w, impls, tier, shapes, RATIO_LIMIT, f.env(), label)
        f.rows += rows
        if hung:
            f.hung = f"4 ratio round: {label}: {hung}"
            return "HUNG", lines + [f"{label}: HUNG"]
        bad = [r for r in rows if r.get("status") not in ("ok", "unsupported")]
        if rc != 0 or bad:
            result = "FAIL"
            lines.append(f"{label}: FAIL exit {rc}; "
                         + "; ".join(f"{r['impl']} {r['shape']} {r['status']}" for r in bad[:4]))
        else:
            lines.append(f"{label}: {len(rows)} rows in {time.time() - t0:.0f} s")
    return result, lines


def step_choices(f):
    """Each choice's two kernels forced in turn (CHOICES), one run each: their time ratio, what the
    model chose, and for the wgmma pair the tile cost the measurement implies."""
    lines, result = [], "ok"
    for label, w, tier, var, values, shapes, sim_shapes in CHOICES:
        times = {}
        for value in values:
            stem = os.path.join(f.out, f"choice-{label.replace(' ', '-')}-{value}")
            _, rows, hung = timed_run(f, stem, w, "cuda_tc", tier,
                                      sim_shapes if f.sim else shapes, CHOICE_LIMIT,
                                      f.env(**{var: value}), f"{var}={value}")
            if hung:
                f.hung = f"6 choices: {label} {var}={value}: {hung}"
                return "HUNG", lines + [f"{label} {value}: HUNG"]
            for r in rows:
                if r.get("status") == "ok" and r.get("median_ms") and \
                        f"forced by {var}" in r.get("note", ""):
                    times[(value, r["shape"])] = (float(r["median_ms"]), r["note"])
                elif r.get("status") != "unsupported":
                    result = "FAIL"
                    lines.append(f"{label} {value} {r.get('shape')}: {r.get('status')}, not on "
                                 f"the forced kernel: {edge_rows.kernel_words(r.get('note'))[:90]}")
        for shape in sorted({s for _, s in times}):
            lines += choice_lines(f, label, values, shape, times)
    return result, lines


def choice_lines(f, label, values, shape, times):
    """One shape of a choice, two lines of the screen: t(second) ÷ t(first) and the faster; the
    model's pick and, for the wgmma pair, the tile cost this pair implies."""
    a, b = times.get((values[0], shape)), times.get((values[1], shape))
    head = f"{label} {';'.join(cube(shape).split(';')[:7])}: {values[1]} ÷ {values[0]} time "
    if not a or not b:
        return [head + "not measured"]
    faster = values[1] if b[0] < a[0] else values[0]
    first = head + f"{b[0] / a[0]:.3f}{' (emulated)' if f.sim else ''}; faster: {faster}"
    m = re.search(r"modelled on (\d+) SMs: (\d+) rounds of 128x256 tiles x ([\d.]+) = [\d.]+ "
                  r"([<>=]+) (\d+) of 128x128", a[1])
    rule = re.search(r"the rule picks (\w+)", a[1])
    w = re.search(r"modelled mma work of 64x256 ([\d.]+)", a[1])
    if m:  # the tile cost this pair implies: (t256 / rounds256) ÷ (t128 / rounds128)
        r256, r128 = int(m.group(2)), int(m.group(5))
        second = f"  the model picks {values[1] if m.group(4) == '<' else values[0]} " \
                 f"({r256} rounds × {m.group(3)} vs {r128} on {m.group(1)} SMs)"
        if r256 > 0:
            second += f"; tile cost from this pair {b[0] / r256 / (a[0] / r128):.2f}"
    elif rule:
        second = f"  the rule picks {rule.group(1)}" + \
            (f" (modelled work of 64x256 {w.group(1)} of 128x128's)" if w else "")
    else:
        second = "  the model's pick: not in the row's note"
    return [first, second]


def read_csv(path):
    try:
        with open(path, newline="") as fh:
            return list(csv.DictReader(fh))
    except OSError:
        return []


def step_ncu(f):
    ncu = shutil.which("ncu")
    if not ncu:
        return "not run", ["ncu not found on PATH"]
    rep = os.path.join(f.out, "ncu-persist")
    shape = SIM_NCU_SHAPE if f.sim else NCU_SHAPE
    cmd = [ncu, "--clock-control", "none", "--target-processes", "all", "--kernel-name",
           "regex:wgmma_persist", "--launch-count", "1", "--force-overwrite", "--export", rep]
    for s in NCU_SECTIONS:
        cmd += ["--section", s]
    cmd += [f.gb, "run", "-d", "cuda:0", "-w", "gemm", "-i", "cuda_tc", "-D", "f16", "-s", shape,
            "--reps", "1", "--warmup", "0", "--min-time", "0", "--no-out"]
    with open(rep + ".log", "w") as log:
        rc = deadline.run(cmd, f.limit(NCU_LIMIT), log,
                          f.env(GPUBENCH_WGMMA_KERNEL="128x256"), tag="ncu")
    if rc is None:
        f.hung = f"5 ncu: the persistent kernel at {shape}: no exit within {f.limit(NCU_LIMIT)} s"
        return "HUNG", [f"ncu at {shape}: HUNG"]
    refused = tool_refused(rep + ".log", NCU_REFUSALS)
    if rc != 0 and refused:
        return "not run", [f"ncu cannot read the counters here: {refused}"]
    raw = os.path.join(f.out, "ncu-raw.csv")
    for page, path in (("raw", raw), ("details", os.path.join(f.out, "ncu-details.txt"))):
        with open(path, "w") as fh:
            deadline.run([ncu, "--import", rep + ".ncu-rep", "--page", page]
                         + (["--csv"] if page == "raw" else []), 60, fh, tag="ncu import")
    f.ncu = ncu_figures(raw)
    if rc != 0:
        return "FAIL", [f"ncu exit {rc}: see {rep}.log"] + f.ncu
    return "ok", [f"the persistent kernel, f16 at {shape.split(':')[1]}"] + f.ncu


def ncu_figures(raw_csv):
    """The three figures of the screen from ncu's raw page (one kernel): the tensor pipe's active
    share, L2 throughput (% of peak) and membar's share of the summed stall reasons, each with the
    metric it came from, or "not found" (the file keeps every metric ncu gave)."""
    lines = [ln for ln in open(raw_csv, errors="replace") if ln.startswith('"')]
    rows = list(csv.reader(lines))
    if len(rows) < 3:
        return ["ncu figures: no kernel in ncu's raw page (see ncu-raw.csv)"]
    head, vals = rows[0], rows[-1]
    got = dict(zip(head, vals))

    def first(patterns):
        for pat in patterns:
            for k in head:
                if re.fullmatch(pat, k) and num(got[k]) is not None:
                    return k, num(got[k])
        return None, None

    out = []
    k, v = first([r"sm__pipe_tensor_op_gmma_cycles_active\.avg\.pct_of_peak_sustained_active",
                  r"sm__pipe_tensor_op_hmma_cycles_active\.avg\.pct_of_peak_sustained_active",
                  r"sm__pipe_tensor\w*cycles_active\.avg\.pct_of_peak_sustained_\w+",
                  r"sm__inst_executed_pipe_tensor\w*\.avg\.pct_of_peak_sustained_\w+"])
    out.append(f"tensor pipe active: {v:.1f}% ({k})" if k else
               "tensor pipe active: not found in ncu's raw page")
    k, v = first([r"lts__throughput\.avg\.pct_of_peak_sustained_elapsed",
                  r"lts__t_sectors\.avg\.pct_of_peak_sustained_elapsed"])
    out.append(f"L2 throughput: {v:.1f}% of peak ({k})" if k else
               "L2 throughput: not found in ncu's raw page")
    stalls = {}
    for key in head:
        m = re.fullmatch(r"smsp__average_warp_latency_issue_stalled_([a-z_]+)\.ratio", key) or \
            re.fullmatch(r"smsp__average_warps_issue_stalled_([a-z_]+)_per_issue_active\.ratio",
                         key)
        if m and not m.group(1).endswith("not_issued") and m.group(1) != "selected" \
                and num(got[key]) is not None:
            stalls[m.group(1)] = num(got[key])
    total = sum(stalls.values())
    if "membar" in stalls and total > 0:
        top = sorted(stalls.items(), key=lambda kv: -kv[1])[:3]
        out.append(f"membar: {100 * stalls['membar'] / total:.1f}% of the stall reasons summed "
                   f"({len(stalls)} reasons; most: "
                   + ", ".join(f"{r} {100 * x / total:.0f}%" for r, x in top) + ")")
    else:
        out.append("membar share of stalls: not found in ncu's raw page")
    return out


def num(text):
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None


# --- the screen ------------------------------------------------------------------------------
def cube(shape):
    m = re.fullmatch(r"m=(\d+);n=(\d+);k=(\d+)", shape)
    return f"{m.group(1)}³" if m and m.group(1) == m.group(2) == m.group(3) else shape


def ratio_lines(f):
    """Every own ÷ vendor ratio of the round, "not measured" where a row of it did not run."""
    peers = gpu_ratios.load_peers()
    ok = [r for r in f.rows if r.get("status") == "ok" and r.get("gflops")]

    def gflops(w, impl, dtype, shape):
        for r in ok:
            if (r["workload"], r["impl"], r["dtype"]) == (w, impl, dtype) and \
                    (shape is None or r["shape"] == shape):
                return float(r["gflops"]), r
        return None, None

    def target(w, vendor, dtype, shape):
        for spec in getattr(peers.get(w), "GPU_RATIOS", []):
            if spec["impl"] == "cuda_tc" and spec["vs"] == (w, vendor) and \
                    not spec.get("note") and (not spec.get("dtypes") or dtype in spec["dtypes"]):
                t = gpu_ratios.spec_target(spec, {"dtype": dtype, "shape": shape})
                return f"≥ {t}" if t else ""
        return ""

    def cell(w, vendor, dtype, shape):
        own, row = gflops(w, "cuda_tc", dtype, shape)
        ven, vrow = gflops(w, vendor, dtype, shape)
        if own is None or ven is None:
            return "not measured", row, vrow
        return f"{own / ven:.3f}{' (emulated)' if f.sim else ''}", row, vrow

    dtypes = {"f16": "float16", "bf16": "bfloat16", "tf32": "tfloat32", "f64": "float64"}
    shapes = [s.split(":")[1].replace(",", ";") for s in
              (SIM_RATIO_SHAPES if f.sim else RATIO_SHAPES)]
    out = ["own ÷ vendor, GFLOP/s, one run each"
           + (" (EMULATION: no ratio is a measurement):" if f.sim else ":")]
    kernels = []
    for t in RATIO_TIERS:
        cells = []
        for s in shapes:
            text, row, _ = cell("gemm", "cublas", dtypes[t], s)
            tg = target("gemm", "cublas", dtypes[t], s)
            cells.append(f"{cube(s)} {text}{' [' + tg + ']' if tg and 'not' not in text else ''}")
            if row:
                words = edge_rows.short(edge_rows.kernel_words(row["note"])).split("; ")[0]
                kernels.append(f"  {t} {cube(s)}: {words[:110]}")
        out.append(f"  gemm {t:<4} cuda_tc ÷ cublas:  " + "   ".join(cells))
    for vendor in ("cudnn", "cudnn_gemm"):
        text, row, vrow = cell("conv2d", vendor, "float16", None)
        algo = re.search(r"algo[= ]([A-Z_]+)", (vrow or {}).get("note", ""))
        tg = target("conv2d", vendor, "float16", (row or {}).get("shape"))
        out.append(f"  conv2d f16 cuda_tc ÷ {vendor}{' [' + algo.group(1) + ']' if algo else ''}: "
                   f"{text}{' [' + tg + ']' if tg and 'not' not in text else ''}")
    _, row = gflops("conv2d", "cuda_tc", "float16", None)
    if row:  # its block tile and why (kernels/conv2d/cuda_tc.c's note)
        words = edge_rows.short(edge_rows.kernel_words(row["note"])).split("; ")[0]
        kernels.append(f"  conv2d f16: {words[:110]}")
    return out + (["kernels of the own rows:"] + kernels if kernels else [])


def screen(f):
    head = f"first card run: {f.name or 'no CUDA device'} (cc {f.cc}), " \
           f"{time.time() - f.t0:.0f} s, folder {f.out}"
    lines = ["=" * 100, head]
    if f.sim:
        lines.append("SIMULATED DEVICE: a rehearsal on the CPU emulation, shapes scaled; "
                     "nothing here is a measurement of a card")
    lines.append(f"HUNG: {f.hung} — the run stopped there" if f.hung else "hung: nothing")
    for key, title in STEPS:
        result, secs, body = f.steps.get(key, ("not run", 0, []))
        if key not in f.steps and f.hung:
            body = ["stopped at the hang"]
        lines.append(f"{title:<19} {result:<8} {secs:4.0f} s")
        lines += [f"    {b[:130]}" for b in body if key != "edges" or not b.startswith("  ")
                  or "FAIL" in b or "HUNG" in b]
    return lines + ratio_lines(f) + ["=" * 100]


def write_screen(f):
    with open(os.path.join(f.out, "screen.txt"), "w") as fh:
        fh.write("\n".join(screen(f)) + "\n")


def run(gb, out, budget, scale=None):
    """The first card run on cuda:0 of gb into out; the exit status (0 every step ok or not run
    for want of a tool, 1 a step failed, HUNG_EXIT a hang stopped it)."""
    os.makedirs(out, exist_ok=True)
    name, cc = edge_rows.device(gb)
    sim = edge_rows.simulated(name)
    f = First(gb, out, edge_rows.deadline_scale(name, scale), budget, name, cc)
    if not name:
        f.hung = "gpubench lists no CUDA device (or did not answer in 60 s)"
    work = {"probes": step_probes, "edges": step_edges, "memcheck": step_memcheck,
            "ratios": step_ratios, "ncu": step_ncu, "choices": step_choices}
    for key, title in STEPS:
        if f.hung:
            break
        t0 = time.time()
        if not sim and f.left() < NEED[key]:
            f.record(key, "not run", t0, [f"budget: {f.left():.0f} s left of {budget} s"])
            continue
        print(f"first card run: {title} …", flush=True)
        result, lines = work[key](f)
        f.record(key, result, t0, lines)
    write_screen(f)
    print("\n".join(screen(f)), flush=True)
    return HUNG_EXIT if f.hung else (1 if f.failed else 0)
