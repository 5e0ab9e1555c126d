#!/usr/bin/python3
"""sim_check.py — the tests of the simulated CUDA device (CTest label `sim`, README.md here).

usage: sim_check.py MODE [ARG...] --build DIR --archs LIST --cuda X.Y --profiles-src FILE
modes:
  symbols            every CUDA/cuBLAS/cuDNN symbol gpubench imports is exported, with its
                     version, by the simulated libraries, and the binary loads with LD_BIND_NOW
  fatbin             the architectures the simulated runtime reads from the binary's fat binaries
                     are cuobjdump's
  quick PROFILE      `gpubench-sim --quick -d cuda` on one profile (PROFILE may carry
                     :built-for-card): every row ok or unsupported/oom for the reason the real
                     card would give, or, when the card's last driver cannot run this runtime,
                     no CUDA device and that reason
  defaults           the default shapes on the 512 MiB profile: every row fits (none is oom)
  sweep              --sweep on the 512 MiB profile: the sizes that do not fit are unsupported
                     (unsupported beyond the card, oom beyond its free memory)
  faults PROFILE...  fault injection into the calls of a run (see the `faults` docstring)
  multi              two simulated cards: rows for both, a fault on one, bindings recorded
  refuse             compare and merge refuse to mix a simulated run with a real one
  emulation          cuBLAS's FP32/FP64 emulation switched on by the environment: the exact
                     tiers' cuBLAS rows run in pedantic math and say why
  doctor PROFILE...   `gpubench-sim doctor` on each card, alone and beside a T4: where the card's
                     last driver cannot run this build's runtime, the driver's NVML names it and
                     doctor gives its compute capability, verdict and the exact rebuild command
                     (text and JSON); otherwise the runtime's cuda:0 with the same verdict
  nvml               the simulated driver's libnvidia-ml.so.1: the cards, their driver and CUDA
                     version, a Kepler card where the runtime cannot start, the process list
                     (GPUBENCH_SIM_FOREIGN_PROCESS), and every function gpubench looks up
  shared             a --quick run while another process holds the card (and without): the
                     rows' shared_gpu column and note, compare naming the run, --strict refusing
Exit 0 when every check passed, 1 otherwise (each failure printed with FAIL).
"""
import argparse
import concurrent.futures
import csv
import importlib.util
import fcntl
import json
import os
import re
import subprocess
import sys
import tempfile

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE, "scripts", "lib"))
import gpubench_list  # noqa: E402  (the workloads come from `gpubench list`, never from here)

FIXED = ("schema,run_id,utc,host,device,device_name,cc,driver,runtime,blas_lib,dnn_lib,threads,"
         "workload,impl,dtype,shape,flops,bytes,reps,median_ms,min_ms,mean_ms,stddev_ms,"
         "ci95_lo_ms,ci95_hi_ms,e2e_median_ms,gflops,gbps,peak_pct,max_rel_err,status,note"
         ).split(",")
STATUSES = {"ok", "wrong", "unsupported", "oom", "error", "timeout"}
FAILING = {"wrong", "error", "oom", "timeout"}  # statuses that make a run exit 1
FAST = ["--reps", "1", "--warmup", "0", "--min-time", "0"]
# Runs whose call sequence must repeat exactly (the fault sweep's, the two cards'): every
# device operation takes 10 ms by the events' clock (GPUBENCH_SIM_OP_MS), so the runner's
# time-dependent choices (how many runs a batch has) are the same in every run, and --max-time
# is far enough for every batch to fit.
SAME_CALLS = FAST + ["--max-time", "100"]
SAME_ENV = {"GPUBENCH_SIM_OP_MS": "10"}
NO_HOLD = "no queue hold ("
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "ERROR: ThreadSanitizer")

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)
    return cond


# --- the build and the profiles -------------------------------------------------------------------
class Build:
    def __init__(self, a):
        self.dir = os.path.abspath(a.build)
        self.sim = os.path.join(self.dir, "gpubench-sim")
        self.gpubench = os.path.join(self.dir, "gpubench")
        self.libdir = os.path.join(self.dir, "tests", "sim", "lib")
        self.cuda = tuple(int(x) for x in a.cuda.split(".")[:2])
        self.cudnn = tuple(int(x) for x in a.cudnn.split(".")[:2])
        # sass, ptx: the architectures (90 for sm_90 and sm_90a alike); sass_names: the SASS as
        # the fat binary names it ("90a" for the arch-specific code of "90a-real")
        self.sass, self.ptx, self.sass_names = set(), set(), set()
        for item in a.archs.replace(" ", ";").replace(",", ";").split(";"):
            m = re.fullmatch(r"(\d+)(a?)(-real|-virtual)?", item.strip())
            if not m:
                continue
            if m.group(3) != "-virtual":
                self.sass.add(int(m.group(1)))
                self.sass_names.add(m.group(1) + m.group(2))
            if m.group(3) != "-real":
                self.ptx.add(int(m.group(1)))
        # every SASS of this build is arch-specific sm_90a code for a 9.0 card
        self.arch_specific = "90a" in self.sass_names
        self.profiles = parse_profiles(a.profiles_src)
        # every workload with a GPU implementation, and what its folder's sim.py expects
        self.workloads = [w for w in gpubench_list.read(self.gpubench) if w.impls("cuda")]
        self.expects = {}
        for w in self.workloads:
            path = os.path.join(SOURCE, "kernels", w.name, "sim.py")
            if os.path.exists(path):
                spec = importlib.util.spec_from_file_location(f"sim_{w.name}", path)
                self.expects[w.name] = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(self.expects[w.name])
        # The quick workloads at shapes small enough for a fault sweep: the same rows and the
        # same calls (the faults mode checks that the call count equals the --quick run's).
        # A workload whose sim.py says TRACED = False starts processes of its own per row (the
        # start-up costs): the call trace and the fault counts are one process's, so it is left
        # out of those runs.
        traced = [w.name for w in self.workloads if w.name in self.expects
                  and getattr(self.expects[w.name], "TRACED", True)]
        self.traced_w = ["-w", ",".join(traced)]
        self.tiny = self.traced_w + [
            x for name in traced for x in ("--shape", f"{name}:{self.expects[name].TINY}")]
        self.cuobjdump = a.cuobjdump
        # cuBLAS of CUDA 13 has code for sm_75 and newer, 12 for sm_50, 11 for sm_35 (toolkits'
        # architecture lists); cuDNN 9 for CUDA 13 supports sm_75 and newer (support matrix),
        # 8.8 to 9.x sm_50, 8.0-8.7 for CUDA 11 sm_35 (harness/gpuinfo/cuda_facts.c; the same
        # rule as CUDNN_MIN_SM in tests/sim/cudnn.c).
        self.cublas_min = {13: 75, 12: 50, 11: 35}.get(self.cuda[0], 30)
        # cudnnCreate's status below that minimum: cuDNN 9 renamed it
        self.cudnn_arch_status = "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH" \
            if self.cudnn[0] >= 9 else "CUDNN_STATUS_ARCH_MISMATCH"
        if self.cudnn[0] >= 9:
            self.cudnn_min = 75 if self.cuda[0] >= 13 else 50
        elif self.cudnn >= (8, 8):
            self.cudnn_min = 50
        elif self.cudnn[0] == 8 and self.cuda[0] >= 11:
            self.cudnn_min = 35
        else:
            self.cudnn_min = 50 if self.cudnn >= (8, 6) else 30


def parse_profiles(path):
    """The profile table of profiles.c: key → dict (one source for the sim and its tests)."""
    text = open(path).read()
    out = {}
    for m in re.finditer(r'\{"(\w+)",\s*"([^"]+)",(.*?)\},\s*\n', text, re.S):
        f = [x.strip() for x in m.group(3).split(",")]
        out[m.group(1)] = dict(key=m.group(1), name=m.group(2), sm=10 * int(f[0]) + int(f[1]),
                               cc=f"{f[0]}.{f[1]}", sms=int(f[2]), driver=f[15].strip('"'),
                               driver_cuda=int(f[16]), toolkit=int(f[17]), mem=f[6],
                               shared_per_sm=1024 * int(re.fullmatch(r"KIB\((\d+)\)",
                                                                     f[11]).group(1)))
    return out


class Card:
    """One GPUBENCH_SIM item, and what the real card would do with this build."""

    def __init__(self, build, spec):
        key, _, mods = spec.partition(":")
        self.spec, self.p = spec, build.profiles[key]
        self.built_for_card = mods == "built-for-card"
        self.sm = self.p["sm"]
        self.b = build
        runtime = self.p["toolkit"] if self.built_for_card and self.p["toolkit"] else \
            build.cuda[0] * 1000 + build.cuda[1] * 10
        # minor version compatibility from CUDA 11: a driver of the same major runs the runtime
        drv = self.p["driver_cuda"]
        self.driver_ok = drv // 1000 >= runtime // 1000 if runtime >= 11000 else drv >= runtime
        self.runtime = runtime

    def code(self):
        """The architecture of the code the card runs (10·major + minor), or None."""
        if self.built_for_card:
            return 20 if self.sm == 21 else self.sm
        sass = [a for a in self.b.sass if a // 10 == self.sm // 10 and a <= self.sm]
        if sass:
            return max(sass)
        ptx = [a for a in self.b.ptx if a <= self.sm]
        return max(ptx) if ptx else None

    def arch_specific(self):
        """Does the card run this build's arch-specific sm_90a code (a 9.0 card, 90a-real in
        the build; kernels/common/arch.cu's probe)?"""
        return not self.built_for_card and self.b.arch_specific and self.code() == 90

    def cublas_ok(self):
        return self.built_for_card or self.sm >= self.b.cublas_min

    def cudnn_ok(self):
        return self.sm >= self.b.cudnn_min

    def own_kernels(self):
        """A row of our own kernels: ok where the card has code for them."""
        if self.code() is not None:
            return "ok", ""
        return "unsupported", "no kernel image for sm_%d" % self.sm

    def cublas(self, phrase=""):
        """A row that needs cuBLAS: ok (its note holding `phrase`) where cuBLAS runs."""
        return ("ok", phrase) if self.cublas_ok() else \
            ("unsupported", "CUBLAS_STATUS_ARCH_MISMATCH")

    def cudnn(self):
        return ("ok", "") if self.cudnn_ok() else \
            ("unsupported", "does not support sm_%d" % self.sm)

    def expect(self, workload, impl):
        """(status, a phrase its note must hold) for a row of this card (kernels/<w>/sim.py)."""
        return self.b.expects[workload].expect(self, impl)

    def expect_row(self, d):
        """expect() for a CSV row of any precision tier. A tier the implementation has no
        version of (`gpubench list`) is refused on every card, before anything else (the runner's
        first check). kernels/<w>/sim.py speaks of float32 (or, for an implementation without
        it, of its rows on the card before their tier is looked at); a row of another tier is
        unsupported where float32 is, and where float32 runs it is ok or refused for its tier
        with the reason (no such version, or the card's or toolkit's tier table,
        harness/gpuinfo/gpu_tier.c)."""
        dtype = d.get("dtype") or "float32"
        tiers = next((w.tiers.get(d["impl"]) for w in self.b.workloads
                      if w.name == d["workload"]), None)
        if tiers is not None and TIER_SHORT.get(dtype, dtype) not in tiers:
            return "unsupported", "has no %s version" % TIER_LABEL.get(dtype, dtype)
        status, phrase = self.expect(d["workload"], d["impl"])
        if dtype == "float32":
            return status, phrase
        if status != "ok":
            return status, ""
        # a workload's sim.py may say exactly (expect_tier; None: the rule below)
        tier = getattr(self.b.expects[d["workload"]], "expect_tier", None)
        want = tier(self, d["impl"], d["dtype"]) if tier else None
        if want is not None:
            return want
        if d["status"] == "unsupported" and TIER_REFUSAL.search(d["note"]):
            return "unsupported", ""
        return "ok", ""


# the CSV's dtype names, as `gpubench list` and the notes give them (harness/core/dtype.c)
TIER_SHORT = {"float32": "f32", "float64": "f64", "tfloat32": "tf32", "float16": "f16",
              "bfloat16": "bf16"}
TIER_LABEL = {"float32": "FP32", "float64": "FP64", "tfloat32": "TF32", "float16": "FP16",
              "bfloat16": "BF16"}

TIER_REFUSAL = re.compile(r"has no \S+ version|no \S+ \S+ in gpubench yet|"
                          r"needs compute capability|needs CUDA")


def shape_dict(shape):
    """{"m": 70, "n": 60, …} of a CSV shape ("m=70;n=60;…") or a --shape value."""
    return {k: int(v) for k, _, v in (kv.partition("=") for kv in re.split("[;,]", shape))}


# --- running gpubench-sim -------------------------------------------------------------------------
class Run:
    def __init__(self, rc, out, err, header, rows, counts, events):
        self.rc, self.out, self.err, self.header, self.rows, self.counts = \
            rc, out, err, header, rows, counts
        self.events = events  # [TAG, WORD, …] per line of GPUBENCH_SIM_EVENTS (fault.c)


def run_sim(build, sim, args, tmp, env=None, timeout=300, name="run"):
    out = os.path.join(tmp, name + ".csv")
    count = os.path.join(tmp, name + ".count")
    events = os.path.join(tmp, name + ".events")
    for stale in (events, count + ".fired"):  # the faults fired: once per run (fault.c)
        if os.path.exists(stale):
            os.remove(stale)
    e = dict(os.environ)
    e.update({"GPUBENCH_SIM": sim, "GPUBENCH_SIM_COUNT": count, "GPUBENCH_SIM_EVENTS": events})
    e.pop("GPUBENCH_SIM_FAULT", None)
    e.pop("GPUBENCH_SIM_TRACE", None)
    e.update(env or {})
    try:
        p = subprocess.run([build.sim] + args + ["--out", out], capture_output=True, text=True,
                           env=e, timeout=timeout)
        rc, so, se = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as t:
        rc, so, se = "timeout", t.stdout or "", (t.stderr or b"")
        se = se.decode() if isinstance(se, bytes) else se
    header, rows = None, []
    if os.path.exists(out):
        with open(out, newline="") as f:
            table = list(csv.reader(f))
        if table:
            header, rows = table[0], table[1:]
    counts = {}
    if os.path.exists(count):
        for line in open(count):
            parts = line.split()
            if not parts:
                continue
            if parts[0] in ("fault", "live"):
                counts.setdefault(parts[0] + "s", []).append(parts)
            else:
                counts[parts[0]] = int(parts[1])
    ev = [line.split() for line in open(events)] if os.path.exists(events) else []
    run = Run(rc, so, se, header, rows, counts, ev)
    # GPUBENCH_SIM_OP_MS times operations by a fixed clock, not the emulation's: no pace then
    run.paced = not float(e.get("GPUBENCH_SIM_OP_MS") or 0) > 0
    return run


def row_dicts(run):
    return [dict(zip(run.header, r)) for r in run.rows] if run.header else []


def check_process(run, what, failed=None):
    """No signal, no hang, no sanitizer report, no leak (check_leaks; `failed`: the function a
    fault was injected into)."""
    ok = check(run.rc != "timeout", f"{what}: hung (killed after the timeout)")
    ok = check(run.rc == "timeout" or run.rc >= 0, f"{what}: killed by signal {run.rc}") and ok
    marks = [m for m in SANITIZER_MARKS if m in run.err]
    ok = check(not marks, f"{what}: sanitizer report {marks}:\n{run.err[-3000:]}") and ok
    if ok:
        ok = check_leaks(run, what, failed)
    return ok


RELEASES = ("cudaFree", "cudaFreeHost", "cublasDestroy_v2", "cudnnDestroy")


def check_leaks(run, what, failed=None):
    """Nothing left allocated at exit (the sim's count file): no device memory, page-locked
    memory or library object, except on a device whose context an error broke (the driver
    reclaims a dead context's memory; gpubench skips its teardown there), and one of the kind
    a failed release call (`failed`: the function a fault was injected into) kept."""
    if run.rc == "timeout" or "live-objects" not in run.counts:
        return check(run.rc == "timeout", f"{what}: the count file has no live report")
    allow = 1 if failed and failed.startswith(RELEASES) else 0
    broken = False
    ok = True
    for _, dev, _, ndev, nbytes, _, npinned, _, sticky in run.counts.get("lives", []):
        if sticky != "-":
            broken = True
            continue
        ok = check(int(ndev) + int(npinned) <= allow,
                   f"{what}: cuda:{dev} leaks {ndev} device allocations ({nbytes} bytes) and "
                   f"{npinned} page-locked ones") and ok
    if not broken:
        ok = check(run.counts["live-objects"] <= allow,
                   f"{what}: {run.counts['live-objects']} cuBLAS/cuDNN objects never "
                   "destroyed") and ok
    return ok


HOLD_TIMED_OUT = "the queue hold timed out"


def check_csv(run, what):
    """The CSV is valid: the fixed columns, one field count, known statuses, simulated names."""
    if not check(run.header is not None,
                 f"{what}: no CSV written (rc {run.rc})\n{run.err[-2000:]}"):
        return False
    ok = check(run.header[:len(FIXED)] == FIXED, f"{what}: header {run.header[:len(FIXED)]}")
    for i, r in enumerate(run.rows):
        ok = check(len(r) == len(run.header),
                   f"{what}: row {i + 2} has {len(r)} fields, the header {len(run.header)}") and ok
    for d in row_dicts(run):
        ok = check(d["schema"] == "gpubench-1", f"{what}: schema {d['schema']}") and ok
        ok = check(d["status"] in STATUSES, f"{what}: unknown status {d['status']}") and ok
        if d["device"].startswith("cuda"):
            ok = check(d["device_name"].startswith("simulated "),
                       f"{what}: {d['device']} is named {d['device_name']!r}") and ok
            if d["status"] == "ok":
                ok = check("simulated device: times are CPU-emulation times" in d["note"],
                           f"{what}: ok row without the simulated-device note: {d['note']}") and ok
                ok = check_times(d, what, getattr(run, "paced", True)) and ok
            # a hold that was never released spins until its timeout and says so on a row
            ok = check(HOLD_TIMED_OUT not in d["note"],
                       f"{what}: {key(d)}: {d['note'][:300]}") and ok
    return ok


def check_times(d, what, paced=True):
    """An ok row's kernel-only, end-to-end and back-to-back times: positive milliseconds
    (batch_ms may be empty: it did not fit in --max-time), the end-to-end time never below the
    kernel-only one (it holds the same kernels and the copies: the pace, tests/sim/stream.c; not
    under GPUBENCH_SIM_OP_MS, whose fixed clock times no emulation), and
    the row marked emulated (harness/io/marks.h) in a file that has the column."""
    def pos(v):
        try:
            return float(v) > 0
        except ValueError:
            return False
    ok = check(pos(d["median_ms"]) and pos(d["e2e_median_ms"]),
               f"{what}: {key(d)}: median {d['median_ms']!r} e2e {d['e2e_median_ms']!r}")
    if "batch_ms" in d and d["batch_ms"] != "":
        ok = check(pos(d["batch_ms"]), f"{what}: {key(d)}: batch_ms {d['batch_ms']!r}") and ok
    if ok and paced:
        ok = check(float(d["e2e_median_ms"]) >= float(d["median_ms"]),
                   f"{what}: {key(d)}: end-to-end {d['e2e_median_ms']} ms below the kernel-only "
                   f"{d['median_ms']} ms") and ok
    if "marks" in d:
        ok = check("emulated" in d["marks"].split("+"),
                   f"{what}: {key(d)}: marks {d['marks']!r} lack 'emulated'") and ok
    return ok


def check_exact_math(run, what, want_f64):
    """The float32 and float64 cuBLAS GEMMs ran in CUBLAS_DEFAULT_MATH, the fastest math that keeps
    IEEE FP32/FP64 (kernels/common/cublas_math.h, docs/precision.md), as the simulated cuBLAS saw
    the calls (events "cublas FUNC math=MODE"); `want_f64`: a float64 cuBLAS row ran, so there
    must be a cublasDgemm."""
    maths = [(e[2], e[3]) for e in run.events if len(e) >= 4 and e[1] == "cublas"
             and e[2] in ("cublasSgemm_v2", "cublasDgemm_v2")]
    for func, math in maths:
        check(math == "math=default", f"{what}: {func} ran in {math}, want math=default")
    if want_f64:
        check(("cublasDgemm_v2", "math=default") in maths,
              f"{what}: a float64 cuBLAS row ran, and no cublasDgemm in default math: {maths}")


def check_exit(run, what):
    rows = row_dicts(run)
    want = 1 if any(d["status"] in FAILING for d in rows) else 0
    return check(run.rc == want, f"{what}: exit {run.rc}, want {want} from the statuses")


def checked_rows(run, spec):
    """A run's output shown, its process, CSV and exit code checked; its rows (at least one)."""
    print(run.out)
    print(run.err[-4000:], file=sys.stderr)
    check_process(run, spec)
    check_csv(run, spec)
    check_exit(run, spec)
    rows = row_dicts(run)
    check(rows, f"{spec}: no rows")
    return rows


def key(d):
    return (d["device"], d["workload"], d["impl"], d.get("dtype", ""), d["shape"])


# --- symbols, fat binaries ------------------------------------------------------------------------
def mode_symbols(build, a):
    def nm(path, flag):
        p = subprocess.run(["nm", "-D", flag, path], capture_output=True, text=True, check=True)
        return [line.split()[-1] for line in p.stdout.splitlines() if line.strip()]
    imports = [s for s in nm(build.gpubench, "--undefined-only")
               if re.match(r"(cuda|__cuda|cublas|cudnn)", s)]
    check(len(imports) > 20, f"gpubench imports {len(imports)} CUDA symbols")
    exported = set()
    for lib in os.listdir(build.libdir):
        if not lib.startswith("libgbsim"):
            exported |= {s.replace("@@", "@") for s in nm(os.path.join(build.libdir, lib),
                                                          "--defined-only")}
    for s in imports:
        check(s in exported, f"gpubench imports {s}: no simulated library exports it")
    e = dict(os.environ, GPUBENCH_SIM="t4")
    p = subprocess.run([build.sim, "--version"], capture_output=True, text=True, env=e)
    check(p.returncode == 0, f"gpubench-sim --version (LD_BIND_NOW): {p.returncode} {p.stderr}")
    ldd = subprocess.run(["ldd", build.gpubench], capture_output=True, text=True,
                         env=dict(e, LD_LIBRARY_PATH=build.libdir)).stdout
    for lib in ("libcudart", "libcublas", "libcudnn"):
        m = re.search(lib + r"\S* => (\S+)", ldd)
        check(m and m.group(1).startswith(build.libdir),
              f"{lib} resolves to {m.group(1) if m else None}, not the simulated one")


def mode_fatbin(build, a):
    e = dict(os.environ, GPUBENCH_SIM="t4", GBSIM_DEBUG="1")
    q = subprocess.run([build.sim, "--version"], capture_output=True, text=True, env=e)
    ours_sass = set(re.findall(r" sm_(\d+a?)", q.stderr))
    ours_ptx = {int(x) for x in re.findall(r" compute_(\d+)", q.stderr)}
    # the PTX of the build's architectures, and the lowest one's alone in the startup workload's
    # PTX-only module (kernels/startup/jit.cu)
    want_ptx = build.ptx | {min(build.sass | build.ptx)}
    check(ours_sass == build.sass_names and ours_ptx == want_ptx,
          f"the simulated runtime reads SASS {sorted(ours_sass)} + PTX {sorted(ours_ptx)} from "
          f"the binary, the build says {sorted(build.sass_names)} + PTX {sorted(want_ptx)}")
    if not a.cuobjdump or not os.path.exists(a.cuobjdump):
        print("cuobjdump not in this toolkit: compared with the build's architecture list only")
        return
    p = subprocess.run([a.cuobjdump, "--list-elf", "--list-ptx", build.gpubench],
                       capture_output=True, text=True)
    sass = set(re.findall(r"ELF file .*\.sm_(\d+a?)\.cubin", p.stdout))
    ptx = {int(x) for x in re.findall(r"PTX file .*\.sm_(\d+)\.ptx", p.stdout)}
    check(sass == ours_sass and ptx == ours_ptx,
          f"cuobjdump lists SASS {sorted(sass)} + PTX {sorted(ptx)}, the simulated runtime "
          f"{sorted(ours_sass)} + {sorted(ours_ptx)}")


# --- one profile, --quick -------------------------------------------------------------------------
def mode_quick(build, a):
    card = Card(build, a.args[0])
    for w in build.workloads:
        check(w.name in build.expects, f"{w.name} has GPU implementations and no "
              f"kernels/{w.name}/sim.py saying what the simulated cards should give")
    extra = [x for name, m in build.expects.items() for shape in m.QUICK_EXTRA
             for x in ("--shape", f"{name}:{shape}")]
    with tempfile.TemporaryDirectory() as tmp:
        run = run_sim(build, card.spec, ["--quick", "-d", "cuda", "--dtype", "all"] + FAST + extra,
                      tmp)
        print(run.out)
        print(run.err[-4000:], file=sys.stderr)
        check_process(run, card.spec)
        if not card.driver_ok:
            # the card's last driver cannot run this runtime: no CUDA device at all, and why
            check(run.rc == 2, f"{card.spec}: exit {run.rc}, want 2 (no CUDA device)")
            check("cudaErrorInsufficientDriver" in run.err and "no such CUDA device" in run.err,
                  f"{card.spec}: the message does not say the driver is too old")
            check("gpubench doctor names each card and the command to rebuild with" in run.err,
                  f"{card.spec}: the message does not send the user to doctor for the card")
            check(run.header is None, f"{card.spec}: a CSV was written")
            return
        check_csv(run, card.spec)
        check_exit(run, card.spec)
        rows = row_dicts(run)
        seen = set()
        for d in rows:
            w, i = d["workload"], d["impl"]
            seen.add((w, i))
            if w not in build.expects:
                continue
            status, phrase = card.expect_row(d)
            what = f"{card.spec} {w}/{i} {d['dtype']} {d['shape']}"
            check(d["status"] == status,
                  f"{what}: {d['status']} ({d['note'][:300]}), want {status}")
            check(phrase in d["note"], f"{what}: note lacks {phrase!r}: {d['note'][:300]}")
            check(d["device_name"] == "simulated " + card.p["name"] and d["cc"] == card.p["cc"],
                  f"{what}: device {d['device_name']} cc {d['cc']}")
            if d["status"] == "ok":
                check(d["max_rel_err"] not in ("", "-1"), f"{what}: not verified")
            more = getattr(build.expects.get(w), "check_row", None)
            if more and d["status"] == "ok" and d["dtype"] == "float32":  # sim.py: float32
                more(card, d, shape_dict(d["shape"]), check)
            more = getattr(build.expects.get(w), "check_tier_row", None)
            if more and d["status"] == "ok" and d["dtype"] != "float32":  # sim.py: other tiers
                more(card, d, shape_dict(d["shape"]), check)
            # sim.py's check of every row, whatever its tier and status (optional)
            every = getattr(build.expects.get(w), "check_any_row", None)
            if every:
                every(card, d, shape_dict(d["shape"]), check)
        for w in build.workloads:
            for i in w.impls("cuda"):
                check((w.name, i) in seen, f"{card.spec}: no {w.name}/{i} row")
        check_exact_math(run, card.spec, any(
            d["dtype"] == "float64" and d["impl"] == "cublas" and d["status"] == "ok" and
            d["device"].startswith("cuda") for d in rows))
        for w, m in build.expects.items():
            events = getattr(m, "check_events", None)
            if events:
                events(card, [d for d in rows if d["workload"] == w], run.events, check)


def mode_emulation(build, a):
    """With cuBLAS's emulation switched on by the environment (CUBLAS_EMULATE_DOUBLE_PRECISION=1,
    CUBLAS_EMULATE_SINGLE_PRECISION=1), which default math would obey on an H100, the float32 and
    float64 cuBLAS rows run in pedantic math and say why; the simulated cuBLAS saw no GEMM that
    it would have emulated (kernels/common/cublas_math.h)."""
    env = {"CUBLAS_EMULATE_DOUBLE_PRECISION": "1", "CUBLAS_EMULATE_SINGLE_PRECISION": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        run = run_sim(build, "h100", ["--quick", "-d", "cuda", "-i", "cublas", "-D", "f32,f64"]
                      + FAST, tmp, env=env)
        rows = checked_rows(run, "h100, emulation on")
        for d in rows:
            if d["status"] == "ok" and "math=" in d["note"]:
                var = "DOUBLE" if d["dtype"] == "float64" else "SINGLE"
                check("math=pedantic" in d["note"] and f"CUBLAS_EMULATE_{var}_PRECISION=1"
                      in d["note"], f"{key(d)}: {d['note'][:300]}")
        maths = [e[2:4] for e in run.events if len(e) >= 4 and e[1] == "cublas"]
        check(["cublasDgemm_v2", "math=pedantic"] in maths,
              f"no cublasDgemm in pedantic math: {maths}")
        for func, math in maths:
            check("emulation" not in math and math == "math=pedantic",
                  f"{func} ran in {math} with emulation on in the environment")


# --- the 512 MiB card: default shapes and the sweep ----------------------------------------------
SMALL = "nvs310:built-for-card"  # the 512 MiB profile, built for it so that its rows run


def mode_defaults(build, a):
    card = Card(build, SMALL)
    with tempfile.TemporaryDirectory() as tmp:
        run = run_sim(build, SMALL, ["-d", "cuda"] + FAST, tmp, timeout=840)
        print(run.out)
        check_process(run, "defaults")
        check_csv(run, "defaults")
        check_exit(run, "defaults")
        rows = row_dicts(run)
        check(len(rows) >= 13, f"defaults: {len(rows)} rows")
        for d in rows:
            what = f"defaults {d['workload']}/{d['impl']} {d['shape']}"
            status, phrase = card.expect_row(d)
            check(d["status"] != "oom" and "does not fit" not in d["note"],
                  f"{what}: does not fit: {d['note']}")
            check(d["status"] == status and phrase in d["note"],
                  f"{what}: {d['status']} ({d['note'][:200]}), want {status} ({phrase})")


def mode_sweep(build, a):
    """--sweep on the 512 MiB card of the workloads whose sim.py says what a row needs
    (sweep_need: the ladders that outgrow it, and the copies). A row that fits what the card
    gives a process (free: the card less the sim's reservation for the context, 5% of the card,
    at most 256 MiB) is `ok`; one that does not is `unsupported` (does not fit this card), its
    note giving both sizes, and never `oom`: gpubench knows the row's whole footprint before it
    allocates anything (kernels/common/cuda_impl.c: gb_row_footprint)."""
    total = 512 * 2**20
    free = total - min(total // 20, 256 * 2**20)
    mib = 2**20
    need_of = {n: m.sweep_need for n, m in build.expects.items() if hasattr(m, "sweep_need")}
    if not check(need_of, "sweep: no kernels/<w>/sim.py defines sweep_need"):
        return
    with tempfile.TemporaryDirectory() as tmp:
        run = run_sim(build, SMALL, ["--sweep", "-w", ",".join(need_of), "-d", "cuda"] + FAST,
                      tmp, timeout=600)
        print(run.out)
        check_process(run, "sweep")
        check_csv(run, "sweep")
        check_exit(run, "sweep")
        check(run.rc == 0, f"sweep: exit {run.rc}, want 0 (a row that cannot fit is no failure)")
        too_big = 0
        for d in row_dicts(run):
            need = need_of[d["workload"]](d["impl"], shape_dict(d["shape"]))
            # sweep_need counts float32 elements; cuBLAS's 4 MiB workspace (vecadd/cublas) is
            # not in what the row declares
            ws = 4 * mib if d["workload"] == "vecadd" and d["impl"] == "cublas" else 0
            buffers = (need - ws) * (2 if d["dtype"] == "float64" else 1)
            need = buffers + ws
            what = f"sweep {d['workload']}/{d['impl']} {d['dtype']} {d['shape']}"
            too_big += need > free
            if need <= free:
                check(d["status"] == "ok", f"{what}: {d['status']} ({d['note'][:200]}), want ok "
                      f"({need} of {free} bytes free)")
                continue
            check(d["status"] == "unsupported" and "does not fit this card" in d["note"] and
                  f"the card has {total / mib:.1f} MiB, {free / mib:.1f} MiB of it for a process"
                  in d["note"],
                  f"{what}: {d['status']} ({d['note'][:240]}), want unsupported: needs {need} "
                  f"bytes, {free} for a process")
            # the buffers' footprint, declared before any allocation
            check(f"the row needs at least {buffers / mib:.1f} MiB" in d["note"],
                  f"{what}: note {d['note'][:240]!r} does not give the row's footprint "
                  f"({buffers / mib:.1f} MiB)")
        check(too_big >= 2, f"sweep: only {too_big} rows beyond the card's memory")


# --- fault injection ------------------------------------------------------------------------------
# The error injected into the k-th call of a function: its natural failures, taken in turn
# (k modulo the list), so that each function sees sticky and non-sticky errors of every kind
# gpubench maps (oom, unsupported, error, timeout).
ERRORS = {
    "cudaMalloc": ["cudaErrorMemoryAllocation", "cudaErrorIllegalAddress"],
    "cudaMallocHost": ["cudaErrorMemoryAllocation"],
    "cudaFuncGetAttributes": ["cudaErrorNoKernelImageForDevice", "cudaErrorInvalidDeviceFunction",
                              "cudaErrorLaunchFailure"],
    "__cudaLaunchKernel": ["cudaErrorLaunchOutOfResources", "cudaErrorLaunchFailure",
                           "cudaErrorIllegalAddress"],
    "cudaEventSynchronize": ["cudaErrorIllegalAddress", "cudaErrorLaunchTimeout"],
    "cudaStreamSynchronize": ["cudaErrorLaunchFailure", "cudaErrorIllegalAddress",
                              "cudaErrorMisalignedAddress"],
    "cudaGetDeviceCount": ["cudaErrorInitializationError"],
    "cublasCreate_v2": ["CUBLAS_STATUS_ALLOC_FAILED", "CUBLAS_STATUS_NOT_INITIALIZED"],
    "cudnnCreate": ["CUDNN_STATUS_NOT_INITIALIZED", "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH"],
    "cudnnConvolutionForward": ["CUDNN_STATUS_EXECUTION_FAILED", "cudaErrorIllegalAddress"],
}
CUDA_DEFAULT = ["cudaErrorInvalidValue", "cudaErrorIllegalAddress", "cudaErrorNotSupported",
                "cudaErrorLaunchFailure", "cudaErrorMemoryAllocation"]
CUBLAS_DEFAULT = ["CUBLAS_STATUS_EXECUTION_FAILED", "CUBLAS_STATUS_INTERNAL_ERROR",
                  "cudaErrorLaunchFailure", "CUBLAS_STATUS_NOT_SUPPORTED"]
CUDNN_DEFAULT = ["CUDNN_STATUS_BAD_PARAM", "CUDNN_STATUS_NOT_SUPPORTED",
                 "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED",
                 "CUDNN_STATUS_EXECUTION_FAILED", "cudaErrorIllegalAddress"]
STICKY = {"cudaErrorIllegalAddress", "cudaErrorLaunchFailure", "cudaErrorLaunchTimeout",
          "cudaErrorHardwareStackError", "cudaErrorIllegalInstruction",
          "cudaErrorMisalignedAddress", "cudaErrorInvalidAddressSpace", "cudaErrorInvalidPc",
          "cudaErrorAssert", "cudaErrorECCUncorrectable"}


def error_for(func, k):
    lst = ERRORS.get(func) or (CUBLAS_DEFAULT if func.startswith("cublas") else
                               CUDNN_DEFAULT if func.startswith("cudnn") else CUDA_DEFAULT)
    return lst[(k - 1) % len(lst)]


def visible(func, err):
    """The name gpubench sees for an error injected into func (a cudaError given to cuBLAS or
    cuDNN is the failure of the work they queued: they report their own status)."""
    if err.startswith("cuda") and func.startswith("cublas"):
        return "CUBLAS_STATUS_ALLOC_FAILED" if err == "cudaErrorMemoryAllocation" else \
            "CUBLAS_STATUS_EXECUTION_FAILED"
    if err.startswith("cuda") and func.startswith("cudnn"):
        return "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED" \
            if err == "cudaErrorMemoryAllocation" else "CUDNN_STATUS_EXECUTION_FAILED_CUDART"
    return err


def documented_status(name):
    """The row status gpubench documents for an error (results/README.md, docs/ARCHITECTURE.md):
    allocation failures oom, no code or no support unsupported, the watchdog timeout, else
    error."""
    if name in ("cudaErrorMemoryAllocation", "CUBLAS_STATUS_ALLOC_FAILED") or \
            (name.startswith("CUDNN_STATUS") and "ALLOC" in name):
        return "oom"
    if name in ("cudaErrorNoKernelImageForDevice", "cudaErrorInvalidDeviceFunction",
                "cudaErrorNotSupported", "CUBLAS_STATUS_ARCH_MISMATCH",
                "CUBLAS_STATUS_NOT_SUPPORTED") or name.startswith("CUDNN_STATUS_NOT_SUPPORTED"):
        return "unsupported"
    if name == "cudaErrorLaunchTimeout":
        return "timeout"
    return "error"


def judge(base, run, func, err, dev):
    """Did a fault hold? Returns (held, category, why). Categories:
      row       one row carries the error with its documented status; the rows before it are
                as in the baseline; the rows after it too: a sticky error ends the worker, and
                the device's later rows run in a fresh one (harness/run/supervise.c), a
                non-sticky one changes nothing else;
      device    the device could not be set up (discovery): its rows are missing, the message
                names the error, the other devices' rows are as they were;
      tolerated no row changed status (a teardown call, a fallback, a cleared error)."""
    what = f"{func}:{err}"
    name = visible(func, err)
    problems = []
    if not check_process(run, what, func):
        return False, "crash", "crash, hang, leak or sanitizer report"
    fired = [f for f in run.counts.get("faults", []) if f[2] == "fired"]
    if not fired:
        return False, "none", "the fault did not fire"
    if not check_csv(run, what) or not check_exit(run, what):
        return False, "csv", "bad CSV or exit code"
    bm = {key(d): d for d in row_dicts(base)}
    rows = row_dicts(run)
    lost = [k for k in bm if k not in {key(d) for d in rows}]
    devs_lost = {k[0] for k in lost}
    if lost:
        # the device fell out at discovery: all of its rows, none of anybody else's
        msg_ok = name in run.err
        whole = all(k[0] in devs_lost for k in lost) and \
            all(len([k for k in bm if k[0] == dv]) == len([k for k in lost if k[0] == dv])
                for dv in devs_lost)
        rest = all(d["status"] == bm[key(d)]["status"] for d in rows if key(d) in bm)
        if msg_ok and whole and rest:
            return True, "device", ""
        return False, "device", f"rows lost {lost[:3]}, message {msg_ok}, whole {whole}"
    # the row that names the error; a sticky error swallowed where it happened (a teardown
    # warning) is named by the next row of its device, as the error that broke it
    names = (name, err) if err in STICKY else (name,)
    hit = None
    for i, d in enumerate(rows):
        b = bm[key(d)]
        changed = (d["status"], d["note"]) != (b["status"], b["note"])
        if changed and any(n in d["note"] for n in names):
            hit = i
            break
    if hit is None:
        changed = [key(d) for d in rows if d["status"] != bm[key(d)]["status"]]
        if changed:
            return False, "tolerated", f"rows changed without naming {name}: {changed[:3]}"
        return True, "tolerated", ""
    a = rows[hit]
    if a["status"] == bm[key(a)]["status"] and NO_HOLD + name in a["note"]:
        # the queue hold could not be set up: the documented fall-back, every row of that
        # device timed without the hold and saying so, nothing else changed
        bad = [key(d) for d in rows if d["status"] != bm[key(d)]["status"] or
               (d["device"] == a["device"] and d["status"] == "ok" and NO_HOLD not in d["note"])]
        if bad:
            return False, "hold-fallback", f"rows changed or without the note: {bad[:3]}"
        return True, "hold-fallback", ""
    want = documented_status(name if name in a["note"] else err)
    if a["status"] != want:
        problems.append(f"affected row {key(a)} is {a['status']}, documented {want}: "
                        f"{a['note'][:200]}")
    for d in rows[:hit]:
        if d["status"] != bm[key(d)]["status"]:
            problems.append(f"row {key(d)} before the fault changed: {d['status']}")
    for d in rows[hit + 1:]:
        if d["status"] != bm[key(d)]["status"]:
            problems.append(f"row {key(d)} after the fault changed: {d['status']} "
                            f"({d['note'][:150]})")
    if problems:
        return False, "row", "; ".join(problems[:4])
    return True, "row", ""


def trace_of(build, sim, args, tmp, name):
    tr = os.path.join(tmp, name + ".trace")
    run = run_sim(build, sim, args, tmp, env=dict(SAME_ENV, GPUBENCH_SIM_TRACE=tr), name=name)
    calls = []
    for line in open(tr):
        n, func, dev, *held = line.split()
        calls.append((int(n), func, int(dev), bool(held)))
    return run, calls


def sample(calls, limit):
    """All calls, or `limit` of them: every function's first and last call, and its first and
    last while a stream hold is in place, then calls evenly spaced over the run."""
    if limit <= 0 or len(calls) <= limit:
        return calls
    first, last = {}, {}
    for n, func, _, held in calls:
        first.setdefault((func, held), n)
        last[(func, held)] = n
    chosen = set(first.values()) | set(last.values())
    spare = limit - len(chosen)
    if spare > 0:
        step = len(calls) / spare
        chosen |= {calls[int(i * step)][0] for i in range(spare)}
    return [c for c in calls if c[0] in chosen]


def mode_faults(build, a):
    """Fault injection over the calls of a --quick run (TINY shapes: the same calls) on each
    profile given: the baseline run's trace lists every call; each selected call N is failed
    (FUNC:k:ERROR with k its rank among FUNC's calls, ERROR from ERRORS) in its own run, under the
    sanitizers in a GPUBENCH_SANITIZE build, with a timeout, and judged (see judge)."""
    total = held = during_hold = held_ok = 0
    cats = {}
    for spec in a.args:
        with tempfile.TemporaryDirectory() as tmp:
            quick = run_sim(build, spec, ["--quick"] + SAME_CALLS + build.traced_w, tmp,
                            env=SAME_ENV, name="quick")
            base, calls = trace_of(build, spec, SAME_CALLS + build.tiny, tmp, "base")
            check_process(base, f"{spec} baseline")
            check_csv(base, f"{spec} baseline")
            check(quick.counts.get("*") == len(calls),
                  f"{spec}: the small shapes' run makes {len(calls)} calls, --quick "
                  f"{quick.counts.get('*')}: the call sequences differ")
            rank, jobs = {}, []
            for n, func, dev, _ in calls:
                rank[func] = rank.get(func, 0) + 1
                jobs.append((n, func, rank[func], dev))
            chosen = {c[0] for c in sample(calls, a.limit)}
            jobs = [j for j in jobs if j[0] in chosen]

            def one(job):
                n, func, k, dev = job
                err = error_for(func, k)
                r = run_sim(build, spec, SAME_CALLS + build.tiny, tmp, name=f"f{n}",
                            timeout=a.timeout,
                            env=dict(SAME_ENV, GPUBENCH_SIM_FAULT=f"{func}:{k}:{err}"))
                return job, err, r

            with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
                for (n, func, k, dev), err, r in ex.map(one, jobs):
                    ok, cat, why = judge(base, r, func, err, dev)
                    if any(f[2] == "fired" and f[-1] == "held" for f in r.counts.get("faults", [])):
                        during_hold += 1
                        held_ok += ok
                    if a.verbose:
                        print(f"{spec}: call {n} {func} #{k} {err}: {cat}", flush=True)
                    total += 1
                    held += ok
                    cats[cat] = cats.get(cat, 0) + 1
                    check(ok, f"{spec}: call {n} ({func} #{k}) = {err}: {why}")
            print(f"{spec}: {len(jobs)} of {len(calls)} calls failed in turn", flush=True)
    print(f"faults: {total} injected, {held} held ("
          + ", ".join(f"{v} {k}" for k, v in sorted(cats.items()))
          + f"); {during_hold} while a stream hold was queued or spinning, {held_ok} of them held",
          flush=True)
    check(during_hold > 0, "faults: no fault fell while a stream hold was in place")


# --- two cards ------------------------------------------------------------------------------------
def mode_multi(build, a):
    spec = "k40m:built-for-card,t4"
    cards = {"cuda:0": Card(build, "k40m:built-for-card"), "cuda:1": Card(build, "t4")}
    with tempfile.TemporaryDirectory() as tmp:
        base, calls = trace_of(build, spec, ["--quick"] + SAME_CALLS + build.tiny, tmp, "base")
        print(base.out)
        check_process(base, "two cards")
        check_csv(base, "two cards")
        check_exit(base, "two cards")
        rows = row_dicts(base)
        for dev, card in cards.items():
            mine = [d for d in rows if d["device"] == dev]
            check(len(mine) >= 13, f"{dev}: {len(mine)} rows")
            for d in mine:
                st, phrase = card.expect_row(d)
                check(d["status"] == st, f"{dev} {d['workload']}/{d['impl']}: {d['status']}")
                check("bind=" not in d["note"],
                      f"{dev}: the machine facts are in a row's note: {d['note'][:200]}")
            # the binding is a machine fact: said once, after the table's rows
            m = re.search(rf"^{re.escape(dev)} +[^\n]*bind=(\S+?)(;|$| )", base.out, re.M)
            check(m and m.group(1) != "none",
                  f"{dev}: no hwloc binding in the run's machine facts: {base.out[-600:]}")
        check(any(d["device"] == "cpu" for d in rows), "two cards: no CPU rows")
        # a sticky fault in each card's first kernel launch, and a non-sticky one in its second
        for dev in (0, 1):
            launches = [n for n, f, d, _ in calls if f == "__cudaLaunchKernel" and d == dev]
            allk = [n for n, f, d, _ in calls if f == "__cudaLaunchKernel"]
            for pick, err in ((0, "cudaErrorLaunchFailure"), (1, "cudaErrorInvalidValue")):
                k = allk.index(launches[pick]) + 1
                r = run_sim(build, spec, ["--quick"] + SAME_CALLS + build.tiny, tmp,
                            name=f"m{dev}{pick}",
                            env=dict(SAME_ENV, GPUBENCH_SIM_FAULT=f"__cudaLaunchKernel:{k}:{err}"))
                ok, cat, why = judge(base, r, "__cudaLaunchKernel", err, dev)
                check(ok and cat == "row", f"two cards: {err} in cuda:{dev}'s launch {pick + 1}: "
                      f"{cat} {why}")
                other = f"cuda:{1 - dev}"
                bm = {key(d): d for d in rows}
                for d in row_dicts(r):
                    if d["device"] in (other, "cpu"):
                        check(d["status"] == bm[key(d)]["status"],
                              f"two cards: a fault on cuda:{dev} changed {key(d)}")


# --- compare and merge refuse to mix --------------------------------------------------------------
def mode_refuse(build, a):
    # the first workload with a CPU and a GPU implementation, at its small shape
    w = next(w for w in build.workloads if w.impls("cpu") and w.name in build.expects)
    one = ["-w", w.name, "-s", f"{w.name}:{build.expects[w.name].TINY}"] + FAST
    with tempfile.TemporaryDirectory() as tmp:
        sim1 = run_sim(build, "t4", one, tmp, name="s1")
        sim2 = run_sim(build, "t4", one, tmp, name="s2")
        real = os.path.join(tmp, "real.csv")
        subprocess.run([build.gpubench, "-d", "cpu", "--out", real] + one, capture_output=True,
                       check=True)
        s1, s2 = os.path.join(tmp, "s1.csv"), os.path.join(tmp, "s2.csv")
        check(sim1.rc == 0 and sim2.rc == 0, "simulated runs failed")
        for args, what in (([s1, real], "compare sim real"), ([real, s1], "compare real sim")):
            p = subprocess.run([build.gpubench, "compare"] + args, capture_output=True, text=True)
            check(p.returncode == 2, f"{what}: exit {p.returncode}, want 2")
            lines = p.stderr.strip().splitlines()
            check(len(lines) == 1 and "simulated" in lines[0] and p.stdout == "",
                  f"{what}: want one line naming the simulated run: {p.stderr}{p.stdout}")
        p = subprocess.run([build.gpubench, "compare", s1, s2], capture_output=True, text=True)
        check(p.returncode in (0, 1) and "regression check" in p.stdout,
              f"compare of two simulated runs: exit {p.returncode} {p.stderr}")
        out = os.path.join(tmp, "fleet.csv")
        p = subprocess.run([build.gpubench, "merge", "--out", out, s1, real], capture_output=True,
                           text=True)
        check(p.returncode == 2 and not os.path.exists(out),
              f"merge sim real: exit {p.returncode}, file {os.path.exists(out)}")
        lines = p.stderr.strip().splitlines()
        check(len(lines) == 1 and "simulated" in lines[0], f"merge: one line: {p.stderr}")
        p = subprocess.run([build.gpubench, "merge", "--out", out, s1, s2], capture_output=True,
                           text=True)
        check(p.returncode == 0, f"merge of two simulated runs: exit {p.returncode} {p.stderr}")


# --- the finite launch queue and exclusive-process compute mode ----------------------------------
STALL_EXIT = 86  # GBSIM_EXIT_STALL (sim.h)
STALL = "launch queue full"


def mode_queue(build, a):
    """Batches of many small launches (vecadd: about 200 runs a batch; mlp_train: a dozen steps of
    many launches) on a queue of 64: with at most two runs behind the hold
    (harness/run/backend_cuda.c, HOLD_QUEUED_RUNS) they never fill it. A queue of 2 proves that
    the sim does see the stall (a full queue behind the unreleased hold): the sim ends the worker
    with STALL_EXIT, and the run's supervisor writes each such row `error` naming the exit and
    goes on (harness/run/supervise.c)."""
    spec = a.args[0]
    # every operation 0.1 ms by the events' clock: the runner sizes 20 ms batches of many runs
    env = {"GPUBENCH_SIM_OP_MS": "0.1", "GPUBENCH_SIM_QUEUE_DEPTH": "64"}
    with tempfile.TemporaryDirectory() as tmp:
        shapes = [x for w in ("vecadd", "mlp_train")
                  for x in ("--shape", f"{w}:{build.expects[w].TINY}")]
        run = run_sim(build, spec, ["--quick", "-w", "vecadd,mlp_train", "-d", "cuda", "--dtype",
                                    "f32", "--max-time", "100"] + shapes, tmp, env=env,
                      timeout=120)
        check(STALL not in run.err and run.rc != STALL_EXIT,
              f"{spec}: the launch queue stalled behind the hold (exit {run.rc})")
        rows = checked_rows(run, spec)
        for d in rows:
            what = f"{spec} {d['workload']}/{d['impl']}"
            if d["status"] == "unsupported" and "has no FP32 version" in d["note"]:
                continue  # no float32 tier (mlp_train/cuda_tc): nothing ran
            check(d["status"] == "ok", f"{what}: {d['status']} ({d['note'][:300]})")
            check(d["batch_ms"] not in ("", "-1"), f"{what}: no batch ran (batch_ms empty)")
            check(NO_HOLD not in d["note"] and "hold timed out" not in d["note"],
                  f"{what}: timed without the hold or the hold timed out: {d['note'][:300]}")
        env["GPUBENCH_SIM_QUEUE_DEPTH"] = "2"
        small = run_sim(build, spec, ["--quick", "-w", "vecadd", "-d", "cuda"] + FAST, tmp,
                        env=env, timeout=120, name="small")
        stalled = [d for d in row_dicts(small)
                   if d["status"] == "error" and f"exited with {STALL_EXIT}" in d["note"]]
        check(small.rc == 1 and STALL in small.err and "waiting on the host" in small.err
              and stalled, f"{spec}: a queue of 2 behind the hold did not stall (exit {small.rc}, "
              f"{len(stalled)} rows naming exit {STALL_EXIT}):\n{small.err[-2000:]}")


EXCLUSIVE = "exclusive-process compute mode: the parent holds the device's only context"


def mode_exclusive(build, a):
    """The startup rows on an exclusive-process card: ok, or unsupported with the reason, never
    error. And the sim does refuse a second process's context (a held lock: another process)."""
    spec = a.args[0]
    check("exclusive-process" in spec, f"{spec}: not an exclusive-process profile")
    with tempfile.TemporaryDirectory() as tmp:
        env = {"TMPDIR": tmp}
        run = run_sim(build, spec, ["--quick", "-w", "startup", "-d", "cuda"] + FAST, tmp,
                      env=env, timeout=120)
        rows = checked_rows(run, spec)
        for d in rows:
            what = f"{spec} {d['workload']}/{d['impl']}"
            check(d["status"] == "ok" or (d["status"] == "unsupported" and EXCLUSIVE in d["note"]),
                  f"{what}: {d['status']} ({d['note'][:300]}), want ok or unsupported "
                  f"({EXCLUSIVE})")
        # another live process holds device 0's context: this one's is refused
        profile = spec.split(":")[0].split(",")[0]
        lock = os.path.join(tmp, f"gbsim-{os.getuid()}-{profile}-0.lock")
        with open(lock, "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            other = run_sim(build, spec, ["--quick", "-w", "vecadd", "-d", "cuda"] + FAST, tmp,
                            env=env, timeout=120, name="other")
        check_process(other, spec + " (context held elsewhere)")
        text = other.err + "".join(",".join(r) for r in other.rows)
        check(other.rc != 0 and "cudaErrorDevicesUnavailable" in text,
              f"{spec}: a second process got the device (exit {other.rc}):\n{other.err[-2000:]}")


# --- doctor on the old cards --------------------------------------------------------------------
# What the rebuild command of cuda_facts_rebuild_cmd must be for each toolkit an old card is last
# built by (the profiles' toolkit column): the newest GCC major that toolkit's nvcc accepts
# (CUDA 8.0 release notes: GCC 5; 10.2: GCC 8; 11.8: GCC 11), and the architecture the build
# targets (a 2.1 card runs the 2.0 code, as CMake's default Fermi list builds it).
OLD_TOOLKIT_GCC = {8000: 5, 10020: 8, 11080: 11}
FAMILY = {2: "Fermi", 3: "Kepler"}


def doctor_fix(build, card):
    """The exact fix line doctor must give for an old card this build cannot target."""
    tk = "%d.%d" % (card.p["toolkit"] // 1000, card.p["toolkit"] % 1000 // 10)
    arch = 20 if card.sm == 21 else card.sm
    return (f"CUDA {build.cuda[0]}.{build.cuda[1]} cannot target {FAMILY[card.sm // 10]}: "
            f"rebuild with CUDA {tk}: cmake -S . -B build-cuda{tk} "
            f"-DCMAKE_CUDA_COMPILER=/usr/local/cuda-{tk}/bin/nvcc "
            f"-DCMAKE_CUDA_HOST_COMPILER=g++-{OLD_TOOLKIT_GCC[card.p['toolkit']]} "
            f"-DCMAKE_CUDA_ARCHITECTURES={arch}")


def profile_bytes(p):
    """The card's memory in bytes from profiles.c's column (11996954624u, MIB(512))."""
    m = re.fullmatch(r"MIB\((\d+)\)", p["mem"])
    return int(m.group(1)) << 20 if m else int(p["mem"].rstrip("u"))


def run_doctor(build, sim, fmt="text", env=None):
    e = dict(os.environ, GPUBENCH_SIM=sim)
    e.pop("GPUBENCH_SIM_FOREIGN_PROCESS", None)
    e.pop("GPUBENCH_SIM_FAULT", None)
    e.update(env or {})
    return subprocess.run([build.sim, "doctor", "--format", fmt], capture_output=True, text=True,
                          env=e, timeout=120)


def gpu_blocks(text):
    """doctor's text: {GPU header line: [its indented lines]}."""
    blocks, cur = {}, None
    for line in text.splitlines():
        if line.startswith("GPU "):
            cur = blocks.setdefault(line, [])
        elif cur is not None and line.startswith("  "):
            cur.append(line.strip())
        else:
            cur = None
    return blocks


def mode_doctor(build, a):
    try:
        import jsonschema
        with open(os.path.join(SOURCE, "docs", "gpubench.schema.json")) as f:
            schema = jsonschema.Draft202012Validator(json.load(f))
    except ImportError:
        schema = None
        check(False, "python3-jsonschema is missing (apt-get install python3-jsonschema)")
    for spec in a.args:
        card = Card(build, spec)
        p = card.p
        alone = run_doctor(build, spec)
        beside = run_doctor(build, spec + ",t4")
        js = run_doctor(build, spec, "json")
        print(alone.stdout)
        what = f"doctor on {spec}"
        if card.driver_ok:  # the runtime starts: the runtime's card, verdict as before
            check(re.search(r"^GPU 0  simulated " + re.escape(p["name"]) + "$", alone.stdout,
                            re.M), f"{what}: no cuda:0 of {p['name']}:\n{alone.stdout}")
            continue
        check(alone.returncode == 1,
              f"{what}: exit {alone.returncode}, want 1 (no GPU usable by this build)")
        # the runtime cannot start: NVML names the card, doctor judges it
        check("cudaErrorInsufficientDriver" in alone.stdout and "doctor names" not in alone.stdout,
              f"{what}: the runtime's error, without sending the user back to doctor")
        blocks = gpu_blocks(alone.stdout)
        head = (f"GPU 0  simulated {p['name']}  (named by the driver's NVML: the CUDA runtime "
                "cannot start)")
        check(list(blocks) == [head], f"{what}: GPU headers {list(blocks)}, want [{head!r}]")
        lines = blocks.get(head, [])
        drv = "%d.%d" % (p["driver_cuda"] // 1000, p["driver_cuda"] % 1000 // 10)
        check(any(x.startswith(f"compute capability {p['cc']} ({FAMILY[card.sm // 10]}), ")
                  and x.endswith(f", driver {p['driver']} (supports CUDA up to {drv})")
                  for x in lines), f"{what}: no cc {p['cc']} / driver line in {lines}")
        check("verdict  not usable" in lines, f"{what}: verdict in {lines}")
        fix = doctor_fix(build, card)
        check(f"fix      {fix}" in lines, f"{what}: fix line, want {fix!r} in {lines}")
        check(f"NVIDIA driver  loaded, {p['driver']} (supports CUDA up to {drv})"
              in alone.stdout, f"{what}: the machine's driver line")
        # beside a T4 on the same (old) driver: both cards, the T4's fix is the driver
        heads = list(gpu_blocks(beside.stdout))
        check(len(heads) == 2 and heads[0] == head
              and heads[1].startswith("GPU 1  simulated Tesla T4  "),
              f"{what} + t4: GPU headers {heads}")
        t4 = gpu_blocks(beside.stdout).get(heads[1] if len(heads) > 1 else "", [])
        check(any(x.startswith("fix      Update the driver to ") for x in t4),
              f"{what} + t4: the T4's fix is not the driver: {t4}")
        check(f"fix      {fix}" in gpu_blocks(beside.stdout).get(head, []),
              f"{what} + t4: the old card's fix line")
        # JSON: the same card, verdict and fix
        try:
            doc = json.loads(js.stdout)
        except ValueError:
            doc = {}
        gpus = doc.get("gpus", [])
        want = {"device": None, "seen_by": "nvml", "nvml_index": 0,
                "name": "simulated " + p["name"],
                "cc": p["cc"], "mem_bytes": profile_bytes(p), "driver": p["driver"],
                "driver_cuda": drv,
                "verdict": "not usable", "usable": False, "fix": fix}
        got = {k: gpus[0].get(k) for k in want} if gpus else None
        check(len(gpus) == 1 and got == want, f"{what} JSON: {got}, want {want}")
        check(doc.get("machine", {}).get("device_count_error") == "cudaErrorInsufficientDriver",
              f"{what} JSON: device_count_error {doc.get('machine')}")
        errors = list(schema.iter_errors(doc)) if schema else []
        check(not errors, f"{what} JSON: not in docs/gpubench.schema.json: " +
              "; ".join(f"{list(e.absolute_path)}: {e.message}"[:300] for e in errors[:3]))
    # a runtime that fails to start for a reason the tables cannot see (an error doctor does not
    # know): NVML still names the card, which is not usable now, and doctor never sends the user
    # back to doctor
    r = run_doctor(build, "t4", env={"GPUBENCH_SIM_FAULT": "cudaGetDeviceCount:1:cudaErrorUnknown"})
    blocks = gpu_blocks(r.stdout)
    t4 = blocks.get("GPU 0  simulated Tesla T4  (named by the driver's NVML: the CUDA runtime "
                    "cannot start)", [])
    check(r.returncode == 1 and "verdict  not usable" in t4 and "Run gpubench doctor" not in
          r.stdout and "cudaGetDeviceCount failed with cudaErrorUnknown" in r.stdout,
          f"t4 whose runtime fails (cudaErrorUnknown): exit {r.returncode}\n{r.stdout}")


# --- the driver's NVML ---------------------------------------------------------------------------
# Run in a child Python (GPUBENCH_SIM is read once per process): asks the simulated
# libnvidia-ml.so.1 through ctypes, as gpubench's dlopen does, and prints what it answered.
NVML_PROBE = r"""
import ctypes, json, os, sys
lib, cudart, ctx = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
if ctx:  # this process takes a context on cuda:0 first (the runtime stand-in)
    rt = ctypes.CDLL(cudart, mode=ctypes.RTLD_GLOBAL)
    p = ctypes.c_void_p()
    assert rt.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(1 << 20)) == 0
n = ctypes.CDLL(lib)
out = {"init": n.nvmlInit_v2(), "pid": os.getpid()}
if out["init"] == 0:
    buf = ctypes.create_string_buffer(96)
    v = ctypes.c_int()
    out["driver"] = (n.nvmlSystemGetDriverVersion(buf, 96), buf.value.decode())
    out["driver_cuda"] = (n.nvmlSystemGetCudaDriverVersion(ctypes.byref(v)), v.value)
    out["short_name"] = n.nvmlSystemGetDriverVersion(buf, 3)
    count = ctypes.c_uint()
    out["count"] = (n.nvmlDeviceGetCount_v2(ctypes.byref(count)), count.value)
    out["cards"] = []
    class Proc(ctypes.Structure):
        _fields_ = [("pid", ctypes.c_uint), ("mem", ctypes.c_ulonglong),
                    ("gi", ctypes.c_uint), ("ci", ctypes.c_uint)]
    class Proc1(ctypes.Structure):
        _fields_ = [("pid", ctypes.c_uint), ("mem", ctypes.c_ulonglong)]
    for i in range(count.value):
        h = ctypes.c_void_p()
        c = {"handle": n.nvmlDeviceGetHandleByIndex_v2(i, ctypes.byref(h))}
        hp = ctypes.c_void_p()
        c["by_pci"] = (n.nvmlDeviceGetHandleByPciBusId_v2(b"0000:%02x:00.0" % (0x81 + i),
                                                          ctypes.byref(hp)), hp.value == h.value)
        c["name"] = (n.nvmlDeviceGetName(h, buf, 96), buf.value.decode())
        ma, mi = ctypes.c_int(), ctypes.c_int()
        c["cc"] = (n.nvmlDeviceGetCudaComputeCapability(h, ctypes.byref(ma), ctypes.byref(mi)),
                   "%d.%d" % (ma.value, mi.value))
        mem = (ctypes.c_ulonglong * 3)()
        c["mem"] = (n.nvmlDeviceGetMemoryInfo(h, mem), list(mem))
        k = ctypes.c_uint(0)
        c["count_query"] = (n.nvmlDeviceGetComputeRunningProcesses_v3(h, ctypes.byref(k), None),
                            k.value)
        k = ctypes.c_uint(4)
        procs = (Proc * 4)()
        r = n.nvmlDeviceGetComputeRunningProcesses_v3(h, ctypes.byref(k), procs)
        c["compute"] = (r, [(procs[j].pid, procs[j].mem) for j in range(k.value)])
        k = ctypes.c_uint(4)
        procs1 = (Proc1 * 4)()
        r = n.nvmlDeviceGetComputeRunningProcesses(h, ctypes.byref(k), procs1)
        c["compute_v1"] = (r, [procs1[j].pid for j in range(k.value)])
        k = ctypes.c_uint(4)
        c["graphics"] = (n.nvmlDeviceGetGraphicsRunningProcesses_v3(h, ctypes.byref(k), procs),
                         k.value)
        util = (ctypes.c_uint * 2)()
        c["util"] = (n.nvmlDeviceGetUtilizationRates(h, util), list(util))
        u = ctypes.c_uint()
        c["power"] = n.nvmlDeviceGetPowerUsage(h, ctypes.byref(u))
        c["clock"] = n.nvmlDeviceGetClockInfo(h, 1, ctypes.byref(u))
        out["cards"].append(c)
print(json.dumps(out))
"""


def nvml_probe(build, sim, foreign=None, context=False):
    e = dict(os.environ)
    e.pop("GPUBENCH_SIM_FOREIGN_PROCESS", None)
    if sim is not None:
        e["GPUBENCH_SIM"] = sim
    else:
        e.pop("GPUBENCH_SIM", None)
    if foreign is not None:
        e["GPUBENCH_SIM_FOREIGN_PROCESS"] = foreign
    cudart = [f for f in os.listdir(build.libdir) if f.startswith("libcudart.so")][0]
    p = subprocess.run([sys.executable, "-c", NVML_PROBE, os.path.join(build.libdir,
                        "libnvidia-ml.so.1"), os.path.join(build.libdir, cudart),
                        "1" if context else "0"], capture_output=True, text=True, env=e,
                       timeout=60)
    return p, (json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else None)


def mode_nvml(build, a):
    OK, NOT_SUPPORTED, INSUFFICIENT_SIZE, DRIVER_NOT_LOADED = 0, 3, 7, 9
    # every NVML function gpubench looks up (harness/telemetry/nvml.c) is exported
    looked_up = set(re.findall(r'"(nvml\w+)"', open(os.path.join(
        SOURCE, "harness", "telemetry", "nvml.c")).read()))
    nm = subprocess.run(["nm", "-D", "--defined-only", os.path.join(build.libdir,
                         "libnvidia-ml.so.1")], capture_output=True, text=True, check=True)
    exported = {line.split()[-1].split("@")[0] for line in nm.stdout.splitlines() if line.strip()}
    check(len(looked_up) > 10, f"harness/telemetry/nvml.c looks up {len(looked_up)} functions")
    for f in sorted(looked_up):
        check(f in exported, f"gpubench looks up {f}: the simulated NVML does not export it")
    # a Kepler card on its last driver beside a T4: one driver (R470), NVML names both cards
    k40m, t4 = build.profiles["k40m"], build.profiles["t4"]
    p, o = nvml_probe(build, "k40m,t4")
    check(o is not None, f"k40m,t4: the probe failed: {p.stderr[-2000:]}")
    if o:
        check(o["init"] == OK, f"nvmlInit_v2: {o['init']}")
        check(o["driver"] == [OK, k40m["driver"]], f"driver {o['driver']}, want {k40m['driver']}")
        check(o["driver_cuda"] == [OK, k40m["driver_cuda"]], f"CUDA {o['driver_cuda']}")
        check(o["short_name"] == INSUFFICIENT_SIZE, f"a 3-byte buffer: {o['short_name']}")
        check(o["count"] == [OK, 2], f"device count {o['count']}")
        for c, prof in zip(o.get("cards", []), (k40m, t4)):
            what = prof["key"]
            check(c["handle"] == OK and c["by_pci"] == [OK, True], f"{what}: handles {c}")
            check(c["name"] == [OK, "simulated " + prof["name"]], f"{what}: name {c['name']}")
            check(c["cc"] == [OK, prof["cc"]], f"{what}: cc {c['cc']}")
            total, free, used = c["mem"][1]
            check(c["mem"][0] == OK and total == profile_bytes(prof)
                  and free + used == total and 0 < used < total,
                  f"{what}: memory {c['mem']}, total {prof['mem']}")
            check(c["count_query"] == [OK, 0] and c["compute"] == [OK, []]
                  and c["graphics"] == [OK, 0], f"{what}: processes without a foreign one {c}")
            check(c["util"] == [OK, [0, 0]], f"{what}: utilisation {c['util']}")
            check(c["power"] == NOT_SUPPORTED and c["clock"] == NOT_SUPPORTED,
                  f"{what}: power {c['power']}, clock {c['clock']}: not modelled")
    # another process on every card: listed (v3 and v1 layouts), the card busy
    p, o = nvml_probe(build, "h100,t4", foreign="4242")
    check(o is not None, f"foreign: the probe failed: {p.stderr[-2000:]}")
    for c in (o or {}).get("cards", []):
        check(c["count_query"] == [INSUFFICIENT_SIZE, 1], f"foreign: count query {c}")
        check(c["compute"] == [OK, [[4242, 256 << 20]]] and c["compute_v1"] == [OK, [4242]],
              f"foreign: compute processes {c['compute']} {c['compute_v1']}")
        check(c["graphics"] == [OK, 0], f"foreign: graphics processes {c['graphics']}")
        check(c["util"] == [OK, [100, 50]], f"foreign: utilisation {c['util']}")
    # this process with a context on cuda:0 is listed there, before the foreign one
    p, o = nvml_probe(build, "h100,t4", foreign="4242", context=True)
    check(o is not None, f"context: the probe failed: {p.stderr[-2000:]}")
    if o:
        pids = [[x[0] for x in c["compute"][1]] for c in o["cards"]]
        check(pids == [[o["pid"], 4242], [4242]], f"context: compute processes {pids}")
        check(o["cards"][0]["compute"][1][0][1] >= 1 << 20,
              f"context: this process's memory {o['cards'][0]['compute']}")
    # a mistyped process id stops the test; no simulated machine is no driver
    p, o = nvml_probe(build, "t4", foreign="12ab")
    check(p.returncode == 2 and "GPUBENCH_SIM_FOREIGN_PROCESS=12ab" in p.stderr,
          f"a bad process id: exit {p.returncode} {p.stderr[-500:]}")
    p, o = nvml_probe(build, None)
    check(o is not None and o["init"] == DRIVER_NOT_LOADED,
          f"no GPUBENCH_SIM: nvmlInit_v2 {o and o['init']}, want Driver Not Loaded")


# --- a shared card: another process holds it ---------------------------------------------------
FOREIGN = "4242"


def mode_shared(build, a):
    """A --quick GPU run on a card another process holds (GPUBENCH_SIM_FOREIGN_PROCESS: the
    simulated NVML lists it and reads the card 100% busy) says so in every timed row's shared_gpu
    column and note; the same run without it says "no"; `gpubench compare` names the shared run
    and, under --strict, gives no verdict built on it."""
    card = Card(build, a.args[0])
    args = ["--quick", "-d", "cuda", "-w", "vecadd,gemm"] + FAST
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for name, env in (("alone", {}), ("shared", {"GPUBENCH_SIM_FOREIGN_PROCESS": FOREIGN})):
            run = run_sim(build, card.spec, args, tmp, env=env, name=name)
            check_process(run, f"{card.spec} {name}")
            check_csv(run, f"{card.spec} {name}")
            rows = [d for d in row_dicts(run) if d["status"] == "ok"]
            check(len(rows) >= 4, f"{name}: {len(rows)} ok rows, want 4 or more")
            check("shared_gpu" in (run.header or []), f"{name}: no shared_gpu column")
            runs[name] = (run, rows)
        alone, shared = runs["alone"][1], runs["shared"][1]
        for d in alone:
            what = f"alone {d['workload']}/{d['impl']} {d['dtype']}"
            check(d.get("shared_gpu") == "no", f"{what}: shared_gpu {d.get('shared_gpu')!r}")
            check("shared GPU" not in d["note"], f"{what}: note {d['note'][:300]}")
        for i, d in enumerate(shared):
            what = f"shared {d['workload']}/{d['impl']} {d['dtype']}"
            check(d.get("shared_gpu") == "yes", f"{what}: shared_gpu {d.get('shared_gpu')!r}")
            check(f"shared GPU: 1 other process (pid {FOREIGN}) held a context while timed"
                  in d["note"], f"{what}: note {d['note'][:300]}")
        # the utilisation is read only before the first row (later ones follow our own work)
        busy = "the card was 100% busy before the row while gpubench ran nothing on it"
        check(shared and busy in shared[0]["note"], f"first row: note lacks {busy!r}")
        check(all(busy not in d["note"] for d in shared[1:]),
              "a row after another took the card's utilisation for a neighbour's")
        # compare: the shared run named; --strict refuses
        a_csv, s_csv = (os.path.join(tmp, n + ".csv") for n in ("alone", "shared"))
        sid = shared[0]["run_id"] if shared else "?"
        p = subprocess.run([build.gpubench, "compare", a_csv, s_csv], capture_output=True,
                           text=True)
        check(f"shared GPU: new run {sid} of {s_csv}: {len(shared)} of {len(shared)} GPU rows"
              in p.stdout, f"compare does not name the shared run: {p.stdout[-1500:]}{p.stderr}")
        check("1 run above was timed on a shared GPU" in p.stdout,
              f"compare says nothing beside the verdict: {p.stdout[-800:]}")
        p = subprocess.run([build.gpubench, "compare", a_csv, s_csv, "--strict"],
                           capture_output=True, text=True)
        last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        check(p.returncode == 1 and last.startswith("SHARED GPU (--strict): no verdict: 1 run"),
              f"compare --strict: exit {p.returncode}, last line {last!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode")
    ap.add_argument("args", nargs="*")
    ap.add_argument("--build", required=True)
    ap.add_argument("--archs", required=True)
    ap.add_argument("--cuda", required=True)
    ap.add_argument("--cudnn", required=True, help="the build's cuDNN version, e.g. 8.7.0")
    ap.add_argument("--profiles-src", required=True)
    ap.add_argument("--cuobjdump", default="cuobjdump")
    ap.add_argument("--limit", type=int, default=0, help="faults: at most this many per profile")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120, help="faults: seconds before a run hangs")
    ap.add_argument("--verbose", action="store_true", help="faults: the category of every fault")
    a = ap.parse_args()
    build = Build(a)
    modes = {"symbols": mode_symbols, "fatbin": mode_fatbin, "quick": mode_quick,
             "defaults": mode_defaults, "sweep": mode_sweep, "faults": mode_faults,
             "multi": mode_multi, "refuse": mode_refuse, "queue": mode_queue,
             "exclusive": mode_exclusive, "emulation": mode_emulation, "nvml": mode_nvml,
             "shared": mode_shared,
             "doctor": mode_doctor}
    modes[a.mode](build, a)
    print(f"{a.mode}: {passed} checks passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
