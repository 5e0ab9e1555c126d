"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py)."""
import os
import re

TINY = "n=1,c=3,h=9,w=9,k=5,r=3,s=3,stride=1,pad=1"
QUICK_EXTRA = []


def expect(card, impl):
    """conv2d/cuda and conv2d/cuda_tc: our kernels, where the card has code for them (cuda_tc has
    no float32 version: sim_check.py refuses that tier first); cudnn and cudnn_gemm: cuDNN."""
    return card.own_kernels() if impl in ("cuda", "cuda_tc") else card.cudnn()


def mma_tile(shape, shared_per_sm):
    """conv2d/cuda_tc's mma.sync block tile for a shape on a card of shared_per_sm bytes an SM:
    GPUBENCH_CONV_KERNEL's, else the smaller modelled mma work below k = 128 where two 64x256
    blocks (60 KiB and the system's 1 KiB each) fit an SM, ties to 128x128
    (kernels/conv2d/tc_mma.cuh's gb_cmm_pick)."""
    force = os.environ.get("GPUBENCH_CONV_KERNEL", "")
    if force in ("128x128", "64x256"):
        return force
    k = shape["k"]
    sh = shape.get("stride_h", shape.get("stride", 1))
    sw = shape.get("stride_w", shape.get("stride", 1))
    ph, pw = shape.get("pad_h", shape.get("pad", 0)), shape.get("pad_w", shape.get("pad", 0))
    npq = shape["n"] * ((shape["h"] + 2 * ph - shape["r"]) // sh + 1) * \
        ((shape["w"] + 2 * pw - shape["s"]) // sw + 1)

    def work(bm, bn):
        return -(-k // bm) * bm * (-(-npq // bn) * bn)
    two = shared_per_sm >= 2 * (60 + 1) * 1024
    return "64x256" if k < 128 and work(64, 256) < work(128, 128) and two else "128x128"


def check_tier_row(card, row, shape, check):
    """conv2d/cuda_tc's ok f16 rows on the mma.sync kernel name the block tile the shape (or
    GPUBENCH_CONV_KERNEL) asks for (mma_tile)."""
    if row["impl"] == "cuda_tc" and "own mma.sync" in row["note"]:
        tile = mma_tile(shape, card.p["shared_per_sm"])
        check(f"own mma.sync f16 implicit GEMM, {tile} tiles" in row["note"],
              f"{card.spec} {row['shape']}: cuda_tc not on its {tile} tile: {row['note'][:160]}")


def check_row(card, row, shape, check):
    """conv2d/cudnn_gemm runs one of cuDNN's implicit-GEMM algorithms, never the FFT or Winograd
    ones its sibling may pick (the sim's Find can rank WINOGRAD_NONFUSED first in float32)."""
    if row["impl"] != "cudnn_gemm":
        return
    check(re.search(r"algo=IMPLICIT_(PRECOMP_)?GEMM ", row["note"]) is not None,
          f"{card.spec} {row['shape']}: cudnn_gemm ran another algorithm: {row['note'][:160]}")


def expect_tier(card, impl, dtype):
    """A row of another tier where the float32 row is ok: f64 runs everywhere (own kernel and
    cuDNN); f16 from compute capability 5.3 (the tier's gate) on cuDNN's rows (cudnn and
    cudnn_gemm), on tensor cores in NHWC from 7.0 (kernels/conv2d/cudnn.c, the sim's cuDNN
    reports them for half data), and on conv2d/cuda_tc (the kernels' emulated twins) from 7.0
    where the card runs code for sm_70 or newer — the mma.sync kernel (tc_mma.cuh) on sm_80 code,
    the WMMA one (tc.cuh) below — refused below with the compute capability or the build's code
    level (kernels/conv2d/cuda_tc.c); conv2d/cuda has no f16 version."""
    if dtype == "float64":
        return "ok", ""
    if dtype == "float16":
        if impl == "cuda":
            return "unsupported", "has no FP16 version"
        if card.sm < 53:
            return "unsupported", "FP16 needs compute capability 5.3"
        if impl == "cuda_tc":
            if card.sm < 70:
                return "unsupported", ("runs on the FP16 tensor cores (WMMA), from compute "
                                       "capability 7.0")
            if card.code() < 70:  # the card runs an older architecture's code: a trap there
                return "unsupported", f"runs this build's code for sm_{card.code()}"
            if card.code() >= 80:
                return "ok", "own mma.sync f16 implicit GEMM"
            return "ok", "own WMMA f16 implicit GEMM"
        return "ok", "NHWC, tensor ops" if card.sm >= 70 else "NCHW"
    return None
