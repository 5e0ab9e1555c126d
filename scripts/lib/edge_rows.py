"""edge_rows.py — one edge-shape run of a forced kernel, and its rows judged by what they name
(issue 46, item 1), for scripts/lib/wgmma_edges.py, dmma_edges.py and conv2d_tc_edges.py.

A row that verifies proves the kernel that ran, and only its note says which kernel that was:
a shape the forced kernel cannot take (lda or ldb not a multiple of 8 for TMA, say) falls back
to another kernel and still reads `ok`. So each run names the kernel it forced (Forced.names,
the words of that kernel's note in kernels/gemm/cuda_tc.c or kernels/conv2d/cuda_tc.c) and every
row is judged:

  - on its kernel: status ok and the note names it;
  - not on this build: the note says why this build cannot run it on this card (a plain sm_90
    build has no wgmma, say): reported with that reason, not a failure;
  - a failure: any other row, its status and the kernel it did run quoted.

A card that cannot run the kernel at all (Forced.card: wgmma on a card that is not 9.0) is not
asked: the run is left out with the reason.
"""
import csv
import os
import re
import subprocess
import time
from dataclasses import dataclass
from typing import Callable, Optional

import deadline

# A row note's reason that this build cannot run the forced kernel on this card at all, whatever
# the shape (kernels/gemm/cuda_tc.c's tc_hopper, tc_mma_pick, tc_dmma16_pick)
NOT_THIS_BUILD = ("wgmma exists in sm_90a code only", "it needs a CUDA 12.0+ build",
                  "runs this build's code for sm_", "DMMA.16x8x16 needs sm_90 code",
                  "has no DMMA.16x8x16")
# the tier words of the notes, by the CSV's dtype
TIER = {"float16": "f16", "bfloat16": "bf16", "tfloat32": "tf32", "float64": "f64"}


@dataclass
class Forced:
    """One kernel an edge run forces: label (file names, output), tiers (-D), the variable and
    value that force it (None: the only kernel of its tier), names (the words its note has,
    "{t}" the row's tier: f16, bf16, tf32, f64) and card (the compute capability, "9.0" → None
    where the kernel runs on such a card, else why not)."""
    label: str
    tiers: str
    var: Optional[str]
    value: Optional[str]
    names: str
    card: Callable[[str], Optional[str]]
    workload: str = "gemm"


def major(cc):
    try:
        return int(cc.split(".")[0])
    except (ValueError, AttributeError):
        return 0


def device(gb):
    """(name, compute capability) of cuda:0 from `gpubench list` ("simulated NVIDIA H100 80GB
    HBM3", "9.0"), or (None, None) when it lists no CUDA device or does not answer in 60 s."""
    p = subprocess.run(deadline.command([gb, "list"], 60), capture_output=True, text=True)
    text = "" if deadline.hung(p.returncode) else p.stdout
    m = re.search(r"^\s+cuda:0\s+(.*?) \(compute capability (\d+\.\d+)\)", text, re.M)
    return (m.group(1), m.group(2)) if m else (None, None)


def simulated(name):
    """Is the device gpubench-sim's (tests/sim)? Its kernels run on the CPU emulation, so the
    scripts scale what would take an hour there (their SCALED shapes)."""
    return bool(name) and name.startswith("simulated ")


# the CPU emulation is slower than a card by far, and slower still on a loaded machine: deadlines
# on the simulated device are this many times a card's
SIM_DEADLINE_SCALE = 8


def deadline_scale(name, scale=None):
    """`scale` where given (--deadline-scale), else SIM_DEADLINE_SCALE on the simulated device
    named `name`, 1 on a card."""
    return scale if scale else (SIM_DEADLINE_SCALE if simulated(name) else 1)


def scaled_limits(limits, scale):
    return tuple(max(1, int(x * scale)) for x in limits)


def run(gb, kernel, shapes, csv_path, log_path, limit, prefix=(), extra_env=None):
    """One `gpubench run` of kernel.workload's cuda_tc at shapes (their --shape values) with
    `kernel` forced, under a deadline of `limit` seconds (scripts/lib/deadline.py), after
    `prefix` (e.g. compute-sanitizer and its options); the exit status, or None when it hung."""
    cmd = list(prefix) + [gb, "run", "-d", "cuda:0", "-w", kernel.workload, "-i", "cuda_tc",
                          "-D", kernel.tiers, "--reps", "1", "--warmup", "0", "--min-time", "0",
                          "-o", csv_path]
    cmd += deadline.gpubench_args(limit)
    for s in shapes:
        cmd += ["-s", s]
    env = dict(os.environ)
    # a user's choice must not pick another kernel than the one this run forces
    for var in ("GPUBENCH_WGMMA_KERNEL", "GPUBENCH_MMA_KERNEL", "GPUBENCH_DMMA_KERNEL",
                "GPUBENCH_CONV_KERNEL"):
        env.pop(var, None)
    if kernel.var:
        env[kernel.var] = kernel.value
    env.update(extra_env or {})
    with open(log_path, "a") as log:
        return deadline.run(cmd, limit, log, env,
                            tag=f"{kernel.var}={kernel.value}" if kernel.var else kernel.label)


def kernel_words(note):
    """The kernel's words of a note ("own …"), not the statistics' before them."""
    note = note or ""
    return note[note.find("own "):] if "own " in note else note


def short(words):
    """Kernel words without their parenthesised details: "own wgmma f16 128x128 tiles: forced by
    GPUBENCH_WGMMA_KERNEL; FP32 accumulation" (and not the simulated device's tag)."""
    words = words.split("; simulated device")[0]
    while True:
        less = re.sub(r"\s*\([^()]*\)", "", words)
        if less == words:
            return words
        words = less


@dataclass
class Verdict:
    """A run's rows judged: on (rows on the forced kernel), elsewhere (rows this build cannot
    run it for: the reason), bad ([(tier, shape, what)]), note (the first forced row's kernel
    words)."""
    on: int = 0
    elsewhere: str = ""
    bad: list = None
    note: str = ""


def judge(csv_path, kernel):
    """Every row of csv_path against the kernel it forced (module docstring)."""
    v = Verdict(bad=[])
    try:
        with open(csv_path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        v.bad.append(("-", "-", f"no CSV ({e.strerror})"))
        return v
    if not rows:
        v.bad.append(("-", "-", "no rows"))
    for row in rows:
        tier = TIER.get(row.get("dtype"), row.get("dtype"))
        note, status = row.get("note") or "", row.get("status")
        names = kernel.names.format(t=tier)
        if status == "ok" and names in note:
            v.on += 1
            v.note = v.note or kernel_words(note)
            continue
        why = next((p for p in NOT_THIS_BUILD if p in note), None)
        if status == "ok" and why:
            v.elsewhere = kernel_words(note)
            continue
        what = f"{status}, not {names}: {kernel_words(note)[:160]}" if status == "ok" else \
            f"{status}: {note[:160]}"
        v.bad.append((tier, row.get("shape"), what))
    return v


class Result:
    """What an edge script saw: its lines (printed as they come), whether a row failed, and the
    first hang ("" when none: the hang is named by its kernel and shape)."""

    def __init__(self):
        self.lines, self.failed, self.hung = [], False, ""

    def say(self, line):
        print(line, flush=True)
        self.lines.append(line)

    def fail(self, line):
        self.failed = True
        self.say(line)

    def hang(self, what):
        self.failed = True
        self.hung = self.hung or what
        self.say(f"  HUNG {what}")


def batch(gb, kernel, shapes, stem, what, limits, res):
    """Run shapes on kernel (one gpubench, deadline limits[0]) and judge its rows, saying one line
    (`what`: the run's name) and each failing row into res. When the run hangs, each shape again
    alone under limits[1] up to the first that hangs, which res.hang names. The Verdict, or None
    after a hang."""
    t0 = time.time()
    rc = run(gb, kernel, shapes, stem + ".csv", stem + ".log", limits[0])
    if rc is None and len(shapes) == 1:
        res.hang(f"{kernel.label} {shapes[0]}: no exit within {limits[0]} s")
        return None
    if rc is None:
        res.fail(f"{what}: FAIL no exit within {limits[0]} s (a hang?); each shape alone:")
        for i, s in enumerate(shapes):
            one = f"{stem}-{i}"
            if run(gb, kernel, [s], one + ".csv", stem + ".log", limits[1]) is None:
                res.hang(f"{kernel.label} {s}: no exit within {limits[1]} s")
                return None
        res.hang(f"{kernel.label}: the run of {len(shapes)} shapes, though no shape alone")
        return None
    for r in timed_out(stem + ".csv"):  # gpubench's own deadline ended the row, the run went on
        res.hang(f"{kernel.label} {r['shape']} {r.get('dtype', '')}: {r['note'][:200]}")
        return None
    v = judge(stem + ".csv", kernel)
    if v.bad or rc != 0:
        res.fail(f"{what}: FAIL exit {rc}, {len(v.bad)} rows not verified on {kernel.label}; "
                 f"see {stem}.log")
        for tier, s, why in v.bad:
            res.say(f"  FAIL {kernel.label} {tier} {s}: {why}")
    elif v.on == 0 and v.elsewhere:
        res.say(f"{what}: not on this build ({v.elsewhere[:150]})")
    else:
        res.say(f"{what}: {v.on} rows × {kernel.tiers} verified on {kernel.label}"
                + (", others not on this build" if v.elsewhere else "")
                + f" in {time.time() - t0:.0f} s ({short(v.note)[:120]})")
    return v


def timed_out(csv_path):
    """The rows gpubench's supervisor ended at their deadline (status `timeout`)."""
    if not os.path.exists(csv_path):
        return []
    with open(csv_path, newline="") as f:
        return [r for r in csv.DictReader(f) if r.get("status") == "timeout"]


def not_here(what, why, res):
    """A run left out: the card cannot run its kernel at all."""
    res.say(f"{what}: not on this card ({why})")
