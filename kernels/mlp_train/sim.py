"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py)."""
TINY = "batch=8,in=20,hidden=16,out=5"
QUICK_EXTRA = []


def expect(card, impl):
    """cuda and cuda_tc: our kernels, where the card has code for them (cuda_tc has no float32
    version: sim_check.py refuses that tier first); cublas: our elementwise kernels need code for
    the card, then cuBLAS."""
    if impl in ("cuda", "cuda_tc"):
        return card.own_kernels()
    if card.code() is None:
        return card.own_kernels()
    return card.cublas("own elementwise kernels")


# the f16 tier's own gate (harness/gpuinfo/gpu_tier.c) refuses a card below this first
F16_GATE = 53


def expect_tier(card, impl, dtype):
    """mlp_train/cuda_tc f16 (the WMMA kernels' emulated twins, kernels/mlp_train/cuda_tc.c): ok
    from compute capability 7.0 where the card runs sm_70+ code; refused below 7.0 with the
    compute capability it needs, or, on a newer card running an older architecture's code (where
    the kernels are traps), with the code it runs. Other rows and tiers: the general rule."""
    if impl != "cuda_tc" or dtype != "float16" or card.sm < F16_GATE:
        return None
    if card.sm < 70:
        return "unsupported", ("runs on the FP16 tensor cores (WMMA), from compute capability "
                               "7.0")
    code = card.code()
    if code < 70:
        return "unsupported", f"runs this build's code for sm_{code}"
    return "ok", "own WMMA f16 64x64 tiles"
