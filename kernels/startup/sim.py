"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py). Every start-up row ends by running our kernel (or, for cublas_create, a
cuBLAS call) in its fresh process, so it is ok where that runs."""
TINY = "n=5"
QUICK_EXTRA = []
TRACED = False  # a process per repetition: not in the one-process call traces


def jit_arch(build):
    """The PTX-only module's architecture: the build's lowest (bench/CMakeLists.txt)."""
    return min(build.sass | build.ptx)


def expect(card, impl):
    if impl == "cublas_create":
        return card.cublas()
    if impl.startswith("cudnn"):  # our kernel checked first, then cudnnCreate
        if card.own_kernels()[0] != "ok":
            return card.own_kernels()
        return ("ok", "") if card.cudnn_ok() else \
            ("unsupported", card.b.cudnn_arch_status)
    if impl.startswith("ptx_jit") and card.own_kernels()[0] == "ok":
        # the PTX-only module is of the build's lowest architecture; a built-for-card old card
        # (an old toolkit's build) lies below this build's
        if card.sm < jit_arch(card.b):
            return "unsupported", "no PTX in this build that sm_%d can JIT" % card.sm
        return "ok", "PTX-only module (compute_%d" % jit_arch(card.b)
    return card.own_kernels()


def check_events(card, rows, events, check):
    """The JIT rows as the simulated driver saw them (tests/sim/kernels.c, "jit RESULT …" per
    process): ptx_jit_cold JIT-compiles in every run with its cache off; ptx_jit_warm's first,
    verified, run fills its own cache and every later run loads from it; neither forces the JIT
    (CUDA_FORCE_PTX_JIT=1: the driver ignores its cache)."""
    for d in rows:
        impl = d["impl"]
        if not impl.startswith("ptx_jit") or d["status"] != "ok":
            continue
        jit = [e[2] for e in events if len(e) >= 3 and e[0] == "startup/" + impl and
               e[1] == "jit"]
        what = f"{card.spec} startup/{impl}: JIT cache {jit}"
        check("forced" not in jit, f"{what}: the JIT was forced, so its cache was ignored")
        if impl == "ptx_jit_cold":
            check(len(jit) >= 2 and set(jit) == {"off"}, f"{what}: want a JIT, cache off, "
                  "in each run")
        else:
            check(len(jit) >= 2 and jit[0] == "miss" and set(jit[1:]) == {"hit"},
                  f"{what}: want the first run to fill the row's cache and the others to hit it")
