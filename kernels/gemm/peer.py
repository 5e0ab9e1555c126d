"""peer.py — what gemm is measured against outside gpubench, at the same shape: the bare
reference of scripts/speedcheck (scripts/speed/speedref.c) and PyTorch (scripts/speed/torch_ref.py).
The names and their meaning: scripts/speedcheck's docstring.
"""

SHAPE = dict(m=2048, n=2048, k=2048)  # the default shape

# gemm/openblas through the harness against a bare cblas_sgemm loop on the core gpubench chose,
# by GFLOP/s: at least 0.95 of it (issue 37) and 60% of the tier's measured peak; the bare loop
# on OpenBLAS's own pick is reported beside it where that pick differs.
BARE = [dict(impl="openblas", shape=SHAPE, metric="gflops",
             speedref=["sgemm", SHAPE["m"], SHAPE["n"], SHAPE["k"]],
             vs="bare cblas_sgemm, 2048³", name="bare sgemm", target=0.95, peak=0.60,
             own_pick=True),
        # the f64 tier: cblas_dgemm through the harness against a bare cblas_dgemm loop
        dict(impl="openblas", shape=SHAPE, metric="gflops", dtype="f64",
             speedref=["dgemm", SHAPE["m"], SHAPE["n"], SHAPE["k"]],
             vs="bare cblas_dgemm, 2048³", name="bare dgemm", target=0.95, peak=0.60,
             own_pick=True)]

TORCH = None  # no PyTorch row in speedcheck: PyTorch's CPU sgemm is the same kind of BLAS call


def torch_step(torch, shape, device):
    """C = A·B into an existing C, float32 row-major, A m×k, B k×n, on `device`."""
    a = torch.rand(shape["m"], shape["k"], device=device)
    b = torch.rand(shape["k"], shape["n"], device=device)
    c = torch.empty(shape["m"], shape["n"], device=device)
    return lambda: torch.mm(a, b, out=c)

# Ratios scripts/gpu-check and scripts/kernel-lease report (scripts/lib/gpu_ratios.py): GFLOP/s of
# our own GEMM against cuBLAS's on the same card and tier, at the default shape and 4096³. The
# targets are the own-kernels issue's: the SIMT SGEMM (the same code on every card) at 0.9 of
# cuBLAS; the SIMT DGEMM at 0.75 of the card's FP64 FMA rate (cuBLAS runs the FP64 tensor cores
# on 8.0 and 9.0, which SIMT code cannot use); the tensor-core implementation (gemm/cuda_tc) at
# 0.8 of cuBLAS in FP16 and BF16 at 4096³ (0.5 at 2048³, where a 2048³ product is too few tiles
# to fill 132 SMs twice), 0.7 in TF32 and 0.8 in FP64 (DMMA).
SHAPES = ["m=2048;n=2048;k=2048", "m=4096;n=4096;k=4096"]
GPU_RATIOS = [dict(name="own GEMM ÷ cuBLAS (GFLOP/s)", impl="cuda", vs=("gemm", "cublas"),
                   metric="gflops", shapes=SHAPES,
                   target=lambda dtype, shape: 0.9 if dtype == "float32" else None),
              dict(name="own SIMT DGEMM ÷ FP64 FMA peak", impl="cuda", vs="fp64_fma",
                   metric="gflops", shapes=SHAPES, dtypes=["float64"], target=0.75),
              dict(name="own tensor-core GEMM ÷ cuBLAS (GFLOP/s)", impl="cuda_tc",
                   vs=("gemm", "cublas"), metric="gflops", shapes=SHAPES,
                   target=lambda dtype, shape: {"float16": 0.8, "bfloat16": 0.8, "tfloat32": 0.7,
                                                "float64": 0.8}.get(dtype)
                   if shape == SHAPES[1] or dtype in ("float64", "tfloat32") else 0.5),
              # the persistent 128×256 wgmma kernel (kernels/gemm/wgmma_persist.cuh), the rows
              # whose note names it: gemm/cuda_tc f16 and bf16 on sm_90a code from one 128×256
              # tile a multiprocessor (4096³ on an H100 or H200), issue 39's 0.8 of cuBLAS
              dict(name="own persistent wgmma GEMM 128x256 ÷ cuBLAS (GFLOP/s)", impl="cuda_tc",
                   vs=("gemm", "cublas"), metric="gflops", shapes=[SHAPES[1]],
                   dtypes=["float16", "bfloat16"], note=r"persistent 128x256", target=0.8)]
