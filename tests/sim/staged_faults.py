#!/usr/bin/python3
"""staged_faults.py — the simulated device failing as a card does (tests/sim/stage.c; CTest
label `sim`, README.md here): a kernel that never completes, an illegal address, a library that
segfaults, a card lost after a fault; and what a run does with each (harness/run/supervise.c):
the fault costs its row, the rows after it are measured in a fresh worker.

usage: staged_faults.py MODE --build DIR --archs LIST
modes:
  trap   GPUBENCH_SIM_TRAP naming the f16 tensor-core GEMM kernel: the row before it ok, its rows
         (two shapes) `error` with cudaErrorIllegalAddress, the cublas rows after each `ok` (not
         skipped: a fresh worker, a fresh context), exit 1, a complete CSV and JSON
  hang   GPUBENCH_SIM_HANG naming it, --row-timeout 20: no thread of the worker runs or waits
         for a core while hung (schedstat), the .partial CSV holds the row finished before the
         hang; then the run ends by itself:
         the hung rows `timeout` naming the implementation, the stage and the seconds, the
         cublas rows after them `ok`, exit 1, a complete CSV and JSON
  stop   SIGINT, then SIGTERM, during a hang with a deadline far away: exit 130 (within 2 s on
         an idle machine; a loaded one gets a generous bound), a valid CSV of the rows finished;
         GPUBENCH_SIM_GONE is created when the hang starts
  api    the runtime's answers while a stream is hung, through ctypes on the simulated
         libraries: cudaEventQuery and cudaStreamQuery say cudaErrorNotReady, a launch into the
         full queue behind the hang blocks (no deadlock exit 86), and exit() still ends the
         process with its GPUBENCH_SIM_COUNT report written; a name too long is refused (exit 2)
  crash  GPUBENCH_SIM_CRASH naming cublasGemmEx, then the kernel: the rows whose worker died are
         `error` naming SIGSEGV (and cublasGemmEx, the call in progress), the others `ok`, exit 1
  gone   a TRAP run with GPUBENCH_SIM_GONE=FILE creates FILE, the GPU rows after the trap are
         `error` "not run: … did not find cuda:0" and the CPU rows after it `ok`; then
         `gpubench list`, runs and doctor find no CUDA device and say why (cudaErrorNoDevice, a
         lost GPU; NVML: GPU is lost); with FILE removed the card is back
Exit 0 when every check passed, 1 otherwise (each failure printed with FAIL). No timing is
asserted: the hang's "does not finish" and "uses no CPU" are bounds a loaded machine cannot
break (a run that finished, or a worker spinning a core, fails them by a wide margin).
"""
import argparse
import csv
import ctypes
import glob
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

FAILURES = []
# vecadd's cublas f16 row runs before the GEMM rows (cublasAxpyEx: no staged name matches it),
# so every fault in the GEMM leaves one finished row before it; two GEMM shapes, each cuda_tc
# then cublas, so that every fault is followed by rows a fresh worker measures.
RUN = ["-w", "vecadd,gemm", "-i", "cuda_tc,cublas", "-D", "f16", "--quick", "-d", "cuda",
       "-s", "gemm:m=256,n=256,k=256", "-s", "gemm:m=128,n=128,k=64"]
START_LIMIT_S = 300  # for the run to reach the staged kernel on a loaded 2-core machine
HUNG_WINDOW_S = 10   # how long a hung run is watched


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        FAILURES.append(what)
    return ok


def kernel_name(archs):
    """The substring naming the kernel of gemm/cuda_tc's f16 row on the simulated H100 at the
    --quick shape: gb_hgemm_wgmma_128x128 with sm_90a code, gb_hgemm_mma_128x128 without."""
    items = archs.replace(" ", ",").replace(";", ",").split(",")  # "90a-real", "90a"
    return "wgmma" if any(i.strip().startswith("90a") for i in items) else "gb_hgemm_mma"


def env_with(**kv):
    env = dict(os.environ)
    for k in ("GPUBENCH_SIM_HANG", "GPUBENCH_SIM_TRAP", "GPUBENCH_SIM_CRASH", "GPUBENCH_SIM_GONE",
              "GPUBENCH_SIM_FAULT"):
        env.pop(k, None)
    env["GPUBENCH_SIM"] = "h100"
    env.update(kv)
    return env


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def rows_of(rs, workload, impl):
    return [r for r in rs if r["workload"] == workload and r["impl"] == impl]


def complete(out, js, what):
    """The CSV and the JSON document committed, their rows the same."""
    ok = check(os.path.exists(out) and not os.path.exists(out + ".partial"),
               f"{what}: the CSV is committed")
    if ok and js:
        import json
        with open(js) as f:
            doc = json.load(f)
        check(sorted(r["status"] for r in doc["rows"]) == sorted(r["status"] for r in rows(out)),
              f"{what}: the JSON document's rows are the CSV's")
    return ok


def worker_pid(pid):
    """The run's worker: the supervisor's child (harness/run/supervise.c)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None
    except (FileNotFoundError, ProcessLookupError):
        return None


def row(rs, workload, impl):
    for r in rs:
        if r["workload"] == workload and r["impl"] == impl:
            return r
    return None


def sim(build):
    return os.path.join(build, "gpubench-sim")


def mode_trap(a, tmp):
    out, js = os.path.join(tmp, "trap.csv"), os.path.join(tmp, "trap.json")
    name = kernel_name(a.archs)
    p = subprocess.run([sim(a.build)] + RUN + ["-o", out, "--json", js],
                       env=env_with(GPUBENCH_SIM_TRAP=name), capture_output=True, text=True,
                       timeout=START_LIMIT_S)
    check(p.returncode == 1, f"TRAP={name}: exit 1 (got {p.returncode})")
    check("GPUBENCH_SIM_TRAP=" + name in p.stderr, "the sim says the trap fired")
    if not complete(out, js, "trap"):
        print(p.stderr)
        return
    rs = rows(out)
    before = row(rs, "vecadd", "cublas")
    check(before is not None and before["status"] == "ok", "the row before the fault is ok")
    hits = rows_of(rs, "gemm", "cuda_tc")
    check(len(hits) == 2 and all(h["status"] == "error" and "cudaErrorIllegalAddress" in h["note"]
                                 for h in hits),
          f"both gemm/cuda_tc f16 rows are error with cudaErrorIllegalAddress "
          f"({[h['note'][:160] for h in hits]})")
    later = rows_of(rs, "gemm", "cublas")
    check(len(later) == 2 and all(r["status"] == "ok" for r in later),
          f"the cublas rows after each trap are ok on a fresh context, not skipped "
          f"({[(r['status'], r['note'][:120]) for r in later]})")


def busy_s(pid):
    """Seconds the threads of pid have run or waited runnable for a core, summed: the sum of
    each thread's first two /proc/PID/task/TID/schedstat fields (time on a CPU, time waiting on
    a run queue). A spinning thread adds about one second per second whatever the load (on a
    busy machine it waits for a core more than it runs: CPU time alone, 3 s in 10 s for a spin
    on this 2-core machine, could not tell it from a working run); a blocked one adds nothing.
    Threads that exit during the window are not counted: the run's are all blocked by then."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                on_cpu, waiting = f.read().split()[:2]
            total += int(on_cpu) + int(waiting)
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total / 1e9


def wait_for(path, text, proc, limit):
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        with open(path) as f:
            if text in f.read():
                return True
        if proc.poll() is not None:
            return False
        time.sleep(0.2)
    return False


def mode_hang(a, tmp):
    out, js = os.path.join(tmp, "hang.csv"), os.path.join(tmp, "hang.json")
    err_path = os.path.join(tmp, "hang.err")
    name = kernel_name(a.archs)
    with open(err_path, "w") as err:
        # the launcher execs gpubench: this pid is the run's supervisor, its child the worker
        p = subprocess.Popen([sim(a.build)] + RUN + ["-o", out, "--json", js,
                                                     "--row-timeout", "20"],
                             env=env_with(GPUBENCH_SIM_HANG=name), stdout=subprocess.DEVNULL,
                             stderr=err)
    try:
        hung = wait_for(err_path, "never completes (GPUBENCH_SIM_HANG=" + name, p, START_LIMIT_S)
        if not check(hung, f"HANG={name}: the kernel's launch hangs"):
            print(open(err_path).read())
            return
        t_hang = time.monotonic()
        time.sleep(1)  # what the host does between the launch and its wait is not the hang's
        w = worker_pid(p.pid)
        if check(w is not None, "the run has a worker process"):
            busy0, t0 = busy_s(w), time.monotonic()
            time.sleep(5)
            try:
                used, wall = busy_s(w) - busy0, time.monotonic() - t0
                check(used < wall / 2, f"no core spins while hung: the worker's threads ran or "
                                       f"waited for a core {used:.2f} s in {wall:.1f} s")
            except (FileNotFoundError, ProcessLookupError):
                check(False, "the worker lived through the first seconds of the hang")
        partial = out + ".partial"
        if check(os.path.exists(partial), "the .partial CSV exists while hung"):
            rs = rows(partial)
            before = row(rs, "vecadd", "cublas")
            check(before is not None and before["status"] == "ok",
                  "it holds the row finished before the hang, ok")
            check(row(rs, "gemm", "cuda_tc") is None, "and not the hung row")
        try:
            p.wait(timeout=START_LIMIT_S)
        except subprocess.TimeoutExpired:
            check(False, f"the run ended by itself after its row's deadline (--row-timeout 20)")
            return
        print(f"note the first hang to the end of the run: {time.monotonic() - t_hang:.1f} s "
              f"(two rows of a 20 s deadline, and the rows after them)")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    check(p.returncode == 1, f"the run exits 1 (got {p.returncode})")
    if not complete(out, js, "hang"):
        return
    rs = rows(out)
    hits = rows_of(rs, "gemm", "cuda_tc")
    check(len(hits) == 2 and all(h["status"] == "timeout" for h in hits),
          f"both hung rows are timeout ({[h['status'] for h in hits]})")
    for h in hits:
        for words in ("gemm/cuda_tc f16 on cuda:0", "verified run", "within 20 s"):
            check(words in h["note"], f"the timeout note says '{words}': {h['note'][:300]}")
    later = rows_of(rs, "gemm", "cublas")
    check(len(later) == 2 and all(r["status"] == "ok" for r in later),
          f"the cublas rows after the hangs are ok ({[r['status'] for r in later]})")


def mode_stop(a, tmp):
    name = kernel_name(a.archs)
    for sig in (signal.SIGINT, signal.SIGTERM):
        out, err_path = os.path.join(tmp, f"stop{int(sig)}.csv"), os.path.join(tmp, "stop.err")
        gone = os.path.join(tmp, f"gone{int(sig)}")
        with open(err_path, "w") as err:
            p = subprocess.Popen([sim(a.build)] + RUN + ["-o", out, "--row-timeout", "600"],
                                 env=env_with(GPUBENCH_SIM_HANG=name, GPUBENCH_SIM_GONE=gone),
                                 stdout=subprocess.DEVNULL, stderr=err)
        try:
            if not check(wait_for(err_path, "never completes", p, START_LIMIT_S),
                         f"{sig.name}: the kernel hangs"):
                return
            check(os.path.exists(gone) and name in open(gone).read(),
                  "GPUBENCH_SIM_GONE's file is created when the hang starts")
            time.sleep(1)
            t0 = time.monotonic()
            p.send_signal(sig)
            try:
                p.wait(timeout=60)  # README's promise is 2 s; a loaded 2-core machine gets room
            except subprocess.TimeoutExpired:
                check(False, f"{sig.name} during a hang: the run did not end within 60 s")
                return
            print(f"note {sig.name} during the hang: the run ended {time.monotonic() - t0:.2f} s "
                  f"later")
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        check(p.returncode == 130, f"{sig.name}: exit 130 (got {p.returncode})")
        if complete(out, None, sig.name):
            rs = rows(out)
            check([(r["workload"], r["impl"], r["status"]) for r in rs] ==
                  [("vecadd", "cublas", "ok")], f"{sig.name}: the CSV holds the row finished "
                                                f"before the hang, and only it")


# The api mode's child: the simulated runtime and cuBLAS through ctypes, a cuBLAS GEMM hung.
API_CHILD = textwrap.dedent("""
    import ctypes, sys, threading, time
    rt = ctypes.CDLL(sys.argv[1]); bl = ctypes.CDLL(sys.argv[2])
    rt.cudaGetErrorName.restype = ctypes.c_char_p
    name = lambda e: rt.cudaGetErrorName(e).decode()
    def ok(e, what):
        if e != 0:
            print("FAIL", what, "returned", e); sys.exit(3)
    n = 64
    bufs = [ctypes.c_void_p() for _ in range(3)]
    for b in bufs:
        ok(rt.cudaMalloc(ctypes.byref(b), ctypes.c_size_t(n * n * 4)), "cudaMalloc")
    h = ctypes.c_void_p()
    ok(bl.cublasCreate_v2(ctypes.byref(h)), "cublasCreate")
    one, zero = ctypes.c_float(1), ctypes.c_float(0)
    def gemm():
        return bl.cublasSgemm_v2(h, 0, 0, n, n, n, ctypes.byref(one), bufs[0], n, bufs[1], n,
                                 ctypes.byref(zero), bufs[2], n)
    ok(gemm(), "cublasSgemm (accepted)")
    ev = ctypes.c_void_p()
    ok(rt.cudaEventCreate(ctypes.byref(ev)), "cudaEventCreate")
    ok(rt.cudaEventRecord(ev, None), "cudaEventRecord")
    print("event", name(rt.cudaEventQuery(ev)))
    print("stream", name(rt.cudaStreamQuery(None)))
    # GPUBENCH_SIM_QUEUE_DEPTH=4: the queue holds the hung GEMM and the event; two more fill it,
    # the fifth blocks behind the hang (a daemon thread: exit() must not wait for it)
    done = []
    def fill():
        for _ in range(3):
            gemm()
        done.append(1)
    def sync():
        rt.cudaEventSynchronize(ev); done.append(2)
    for f in (fill, sync):
        threading.Thread(target=f, daemon=True).start()
    time.sleep(2)
    print("blocked", "none" if not done else done)
    sys.stdout.flush()
    sys.exit(0)  # exit() with a hung stream: the sim's exit handlers must not wait on it
""")


def mode_api(a, tmp):
    lib = os.path.join(a.build, "tests", "sim", "lib")
    rt = sorted(glob.glob(os.path.join(lib, "libcudart.so.*")))
    bl = sorted(glob.glob(os.path.join(lib, "libcublas.so.*")))
    if not check(rt and bl, f"the simulated libraries are in {lib}"):
        return
    count = os.path.join(tmp, "count.txt")
    try:
        p = subprocess.run([sys.executable, "-c", API_CHILD, rt[0], bl[0]],
                           env=env_with(GPUBENCH_SIM_HANG="cublasSgemm", GPUBENCH_SIM_COUNT=count,
                                        GPUBENCH_SIM_QUEUE_DEPTH="4"),
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as e:
        check(False, f"the child answered and exited within 120 s ({e.stdout!r} {e.stderr!r})")
        return
    print(p.stdout + p.stderr)
    check(p.returncode == 0, f"exit() with a hung stream ends the process: exit 0 (got "
                             f"{p.returncode}; 86 is the deadlock exit)")
    check("never completes (GPUBENCH_SIM_HANG=cublasSgemm)" in p.stderr,
          "the cuBLAS call's work hangs (matched by its exported name cublasSgemm_v2)")
    check("event cudaErrorNotReady" in p.stdout, "cudaEventQuery: cudaErrorNotReady")
    check("stream cudaErrorNotReady" in p.stdout, "cudaStreamQuery: cudaErrorNotReady")
    check("blocked none" in p.stdout,
          "cudaEventSynchronize and a launch into the full queue stay blocked")
    counted = os.path.exists(count) and "cublasSgemm_v2 " in open(count).read()
    check(counted, "the GPUBENCH_SIM_COUNT report is written at exit")
    # a value the sim cannot hold is refused in one line, exit 2, not cut short quietly
    bad = subprocess.run([sim(a.build), "list"], env=env_with(GPUBENCH_SIM_HANG="x" * 200),
                         capture_output=True, text=True, timeout=120)
    check(bad.returncode == 2 and "gbsim: GPUBENCH_SIM_HANG=" in bad.stderr,
          f"a name too long for GPUBENCH_SIM_HANG: exit 2 naming it (got {bad.returncode})")


def mode_crash(a, tmp):
    for name, impl in (("cublasGemmEx", "cublas"), (kernel_name(a.archs), "cuda_tc")):
        out = os.path.join(tmp, name + ".csv")
        p = subprocess.run([sim(a.build)] + RUN + ["-o", out],
                           env=env_with(GPUBENCH_SIM_CRASH=name), capture_output=True, text=True,
                           timeout=START_LIMIT_S)
        check(p.returncode == 1, f"CRASH={name}: exit 1, the run goes on (got {p.returncode})")
        check(f"segmentation fault (GPUBENCH_SIM_CRASH={name})" in p.stderr,
              "the sim says where it crashed")
        if not complete(out, None, f"CRASH={name}"):
            continue
        rs = rows(out)
        dead = rows_of(rs, "gemm", impl)
        check(len(dead) == 2 and all(r["status"] == "error" and "SIGSEGV" in r["note"]
                                     for r in dead),
              f"CRASH={name}: both gemm/{impl} rows error naming SIGSEGV "
              f"({[r['note'][:200] for r in dead]})")
        if impl == "cublas":
            check(all("cublasGemmEx" in r["note"] for r in dead),
                  "the note names the library call in progress, cublasGemmEx")
        others = [r for r in rs if r not in dead]
        check(len(others) == 3 and all(r["status"] == "ok" for r in others),
              f"CRASH={name}: every other row ok "
              f"({[(r['workload'], r['impl'], r['status']) for r in others]})")


def mode_gone(a, tmp):
    gone = os.path.join(tmp, "gone")
    name = kernel_name(a.archs)
    p = subprocess.run([sim(a.build)] + RUN + ["--no-out"],
                       env=env_with(GPUBENCH_SIM_TRAP=name, GPUBENCH_SIM_GONE=gone),
                       capture_output=True, text=True, timeout=START_LIMIT_S)
    check(p.returncode == 1, f"the TRAP run exits 1 (got {p.returncode})")
    if not check(os.path.exists(gone), "it created GPUBENCH_SIM_GONE's file"):
        return
    check(name in open(gone).read(), "the file names the trapped kernel")
    # the same with CPU rows after the trap: the fresh worker finds no card (it fell off the
    # bus), so the GPU rows not done are `error` "not run", and the CPU rows after it run
    os.remove(gone)
    out = os.path.join(tmp, "gone.csv")
    p = subprocess.run([sim(a.build), "-w", "vecadd,gemm,conv2d", "-i", "cpu,openblas,cuda_tc",
                        "-D", "f16,f32", "--quick", "-o", out],
                       env=env_with(GPUBENCH_SIM_TRAP=name, GPUBENCH_SIM_GONE=gone),
                       capture_output=True, text=True, timeout=START_LIMIT_S)
    check(p.returncode == 1, f"a run with CPU rows after the trap exits 1 (got {p.returncode})")
    if complete(out, None, "gone"):
        rs = rows(out)
        gpu_after = [r for r in rs if r["device"] == "cuda:0" and "not run" in r["note"]]
        check(gpu_after and all(r["status"] == "error" and "did not find cuda:0" in r["note"]
                                for r in gpu_after),
              f"the GPU rows after the trap: error, not run, the card not found "
              f"({[(r['workload'], r['status'], r['note'][:160]) for r in gpu_after]})")
        conv = [r for r in rs if r["workload"] == "conv2d" and r["device"] == "cpu"]
        check(conv and all(r["status"] in ("ok", "unsupported") for r in conv) and
              any(r["status"] == "ok" for r in conv),
              f"the CPU rows after the trap run ({[(r['dtype'], r['status']) for r in conv]})")
    env = env_with(GPUBENCH_SIM_GONE=gone)
    lst = subprocess.run([sim(a.build), "list"], env=env, capture_output=True, text=True,
                         timeout=120)
    said = lst.stdout + lst.stderr
    check(lst.returncode == 0 and "no CUDA device" in said and "cudaErrorNoDevice" in said,
          "gpubench list then finds no CUDA device (cudaErrorNoDevice)")
    check("lost after a fault" in said and "Xid 79" in said,
          "and says a GPU lost after a fault is a cause (harness/gpuinfo/cuda_explain.c)")
    # a run with CPU rows too: they run, and the line that says why no GPU row ran names it
    run = subprocess.run([sim(a.build), "-w", "vecadd", "-i", "cpu,cuda", "-D", "f32", "--quick",
                          "--no-out"], env=env, capture_output=True, text=True, timeout=300)
    check(run.returncode == 0 and "gpubench: no GPU rows: " in run.stderr and
          "lost after a fault" in run.stderr and "[cudaGetDeviceCount: cudaErrorNoDevice]" in
          run.stderr, f"a run's CPU rows run and it says why no GPU row did (exit "
                      f"{run.returncode})")
    run = subprocess.run([sim(a.build)] + RUN + ["--no-out"], env=env, capture_output=True,
                         text=True, timeout=120)
    check(run.returncode == 2 and "--device: cuda: no such CUDA device" in run.stderr and
          "cudaErrorNoDevice" in run.stderr, f"-d cuda is refused and says why (exit "
                                             f"{run.returncode})")
    doc = subprocess.run([sim(a.build), "doctor"], env=env, capture_output=True, text=True,
                         timeout=120)
    check("GPU is lost" in doc.stdout, "doctor: the driver's NVML says GPU is lost")
    os.remove(gone)
    back = subprocess.run([sim(a.build), "list"], env=env, capture_output=True, text=True,
                          timeout=120)
    check("no CUDA device" not in back.stdout + back.stderr and "cuda:0" in back.stdout,
          "with the file removed the card is back")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["trap", "hang", "stop", "api", "crash", "gone"])
    ap.add_argument("--build", required=True)
    ap.add_argument("--archs", required=True, help="the build's CUDA architectures, comma list")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gbsim-stage-") as tmp:
        globals()["mode_" + a.mode](a, tmp)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
