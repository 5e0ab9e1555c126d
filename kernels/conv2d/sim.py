"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py)."""
import re

TINY = "n=1,c=3,h=9,w=9,k=5,r=3,s=3,stride=1,pad=1"
QUICK_EXTRA = []


def expect(card, impl):
    return card.own_kernels() if impl == "cuda" else card.cudnn()


def check_row(card, row, shape, check):
    """conv2d/cudnn_gemm runs one of cuDNN's implicit-GEMM algorithms, never the FFT or Winograd
    ones its sibling may pick (the sim's Find can rank WINOGRAD_NONFUSED first in float32)."""
    if row["impl"] != "cudnn_gemm":
        return
    check(re.search(r"algo=IMPLICIT_(PRECOMP_)?GEMM ", row["note"]) is not None,
          f"{card.spec} {row['shape']}: cudnn_gemm ran another algorithm: {row['note'][:160]}")


def expect_tier(card, impl, dtype):
    """A row of another tier where the float32 row is ok: f64 runs everywhere (own kernel and
    cuDNN); f16 only on cuDNN's rows (cudnn and cudnn_gemm), from compute capability 5.3 (the
    tier's gate), on tensor cores in NHWC from 7.0 (kernels/conv2d/cudnn.c, the sim's cuDNN
    reports them for half data)."""
    if dtype == "float64":
        return "ok", ""
    if dtype == "float16":
        if not impl.startswith("cudnn"):
            return "unsupported", "has no FP16 version"
        if card.sm < 53:
            return "unsupported", "FP16 needs compute capability 5.3"
        return "ok", "NHWC, tensor ops" if card.sm >= 70 else "NCHW"
    return None
