"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py). Every start-up row ends by running our kernel (or, for cublas_create, a
cuBLAS call) in its fresh process, so it is ok where that runs."""
TINY = "n=5"
QUICK_EXTRA = []
TRACED = False  # a process per repetition: not in the one-process call traces


def expect(card, impl):
    if impl == "cublas_create":
        return card.cublas()
    if impl.startswith("cudnn"):  # our kernel checked first, then cudnnCreate
        if card.own_kernels()[0] != "ok":
            return card.own_kernels()
        return ("ok", "") if card.cudnn_ok() else \
            ("unsupported", card.b.cudnn_arch_status)
    if impl.startswith("ptx_jit") and card.own_kernels()[0] == "ok":
        # with the JIT forced only PTX loads: the build's PTX (a built-for-card binary stands
        # for an old toolkit's build, whose only PTX is of a newer architecture)
        if card.built_for_card or not any(a <= card.sm for a in card.b.ptx):
            return "unsupported", "no PTX in this build that sm_%d can JIT" % card.sm
    return card.own_kernels()
