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
Exit 0 when every check passed, 1 otherwise (each failure printed with FAIL).
"""
import argparse
import concurrent.futures
import csv
import importlib.util
import fcntl
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
        self.sass, self.ptx = set(), set()
        for item in a.archs.replace(" ", ";").replace(",", ";").split(";"):
            m = re.fullmatch(r"(\d+)(-real|-virtual)?", item.strip())
            if not m:
                continue
            if m.group(2) != "-virtual":
                self.sass.add(int(m.group(1)))
            if m.group(2) != "-real":
                self.ptx.add(int(m.group(1)))
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
                               driver_cuda=int(f[16]), toolkit=int(f[17]), mem=f[6])
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
    def __init__(self, rc, out, err, header, rows, counts):
        self.rc, self.out, self.err, self.header, self.rows, self.counts = \
            rc, out, err, header, rows, counts


def run_sim(build, sim, args, tmp, env=None, timeout=300, name="run"):
    out = os.path.join(tmp, name + ".csv")
    count = os.path.join(tmp, name + ".count")
    e = dict(os.environ)
    e.update({"GPUBENCH_SIM": sim, "GPUBENCH_SIM_COUNT": count})
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
    return Run(rc, so, se, header, rows, counts)


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
                ok = check_times(d, what) and ok
            # a hold that was never released spins until its timeout and says so on a row
            ok = check(HOLD_TIMED_OUT not in d["note"],
                       f"{what}: {key(d)}: {d['note'][:300]}") and ok
    return ok


def check_times(d, what):
    """An ok row's kernel-only, end-to-end and back-to-back times: positive milliseconds
    (batch_ms may be empty: it did not fit in --max-time)."""
    def pos(v):
        try:
            return float(v) > 0
        except ValueError:
            return False
    ok = check(pos(d["median_ms"]) and pos(d["e2e_median_ms"]),
               f"{what}: {key(d)}: median {d['median_ms']!r} e2e {d['e2e_median_ms']!r}")
    if "batch_ms" in d and d["batch_ms"] != "":
        ok = check(pos(d["batch_ms"]), f"{what}: {key(d)}: batch_ms {d['batch_ms']!r}") and ok
    return ok


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
    ours_sass = {int(x) for x in re.findall(r" sm_(\d+)", q.stderr)}
    ours_ptx = {int(x) for x in re.findall(r" compute_(\d+)", q.stderr)}
    check(ours_sass == build.sass and ours_ptx == build.ptx,
          f"the simulated runtime reads SASS {sorted(ours_sass)} + PTX {sorted(ours_ptx)} from "
          f"the binary, the build says {sorted(build.sass)} + PTX {sorted(build.ptx)}")
    if not a.cuobjdump or not os.path.exists(a.cuobjdump):
        print("cuobjdump not in this toolkit: compared with the build's architecture list only")
        return
    p = subprocess.run([a.cuobjdump, "--list-elf", "--list-ptx", build.gpubench],
                       capture_output=True, text=True)
    sass = {int(x) for x in re.findall(r"ELF file .*\.sm_(\d+)\.cubin", p.stdout)}
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
        for w in build.workloads:
            for i in w.impls("cuda"):
                check((w.name, i) in seen, f"{card.spec}: no {w.name}/{i} row")


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
                as in the baseline; after it, a sticky error fails the rest of that device's
                rows and leaves the other devices' rows as they were, a non-sticky one changes
                nothing else;
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
    sticky = err in STICKY  # also when cuBLAS or cuDNN reported it as their own failure
    for d in rows[hit + 1:]:
        same_dev = d["device"] == a["device"]
        if sticky and same_dev:
            # a tier the plan refuses never reaches the device: it stays unsupported
            planned_out = d["status"] == "unsupported" and TIER_REFUSAL.search(d["note"])
            if d["status"] != "error" and not planned_out:
                problems.append(f"row {key(d)} after a sticky error is {d['status']}")
        elif d["status"] != bm[key(d)]["status"]:
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
    the sim does see the stall (a full queue behind the unreleased hold)."""
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
            check(d["status"] == "ok", f"{what}: {d['status']} ({d['note'][:300]})")
            check(d["batch_ms"] not in ("", "-1"), f"{what}: no batch ran (batch_ms empty)")
            check(NO_HOLD not in d["note"] and "hold timed out" not in d["note"],
                  f"{what}: timed without the hold or the hold timed out: {d['note'][:300]}")
        env["GPUBENCH_SIM_QUEUE_DEPTH"] = "2"
        small = run_sim(build, spec, ["--quick", "-w", "vecadd", "-d", "cuda"] + FAST, tmp,
                        env=env, timeout=120, name="small")
        check(small.rc == STALL_EXIT and STALL in small.err
              and "waiting on the host" in small.err,
              f"{spec}: a queue of 2 behind the hold did not stall (exit {small.rc}):\n"
              f"{small.err[-2000:]}")


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
             "exclusive": mode_exclusive}
    modes[a.mode](build, a)
    print(f"{a.mode}: {passed} checks passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
