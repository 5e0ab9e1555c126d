"""peer.py — what gemm is measured against outside gpubench, at the same shape: the bare
reference of scripts/speedcheck (scripts/speed/speedref.c) and PyTorch (scripts/speed/torch_ref.py).
The names and their meaning: scripts/speedcheck's docstring.
"""

SHAPE = dict(m=2048, n=2048, k=2048)  # the default shape

# gemm/openblas through the harness against a bare cblas_sgemm loop, by GFLOP/s.
BARE = [dict(impl="openblas", shape=SHAPE, metric="gflops",
             speedref=["sgemm", SHAPE["m"], SHAPE["n"], SHAPE["k"]],
             vs="bare cblas_sgemm, 2048³", name="bare sgemm", target=0.98),
        # the f64 tier: cblas_dgemm through the harness against a bare cblas_dgemm loop
        dict(impl="openblas", shape=SHAPE, metric="gflops", dtype="f64",
             speedref=["dgemm", SHAPE["m"], SHAPE["n"], SHAPE["k"]],
             vs="bare cblas_dgemm, 2048³", name="bare dgemm", target=0.98)]

TORCH = None  # no PyTorch row in speedcheck: PyTorch's CPU sgemm is the same kind of BLAS call


def torch_step(torch, shape, device):
    """C = A·B into an existing C, float32 row-major, A m×k, B k×n, on `device`."""
    a = torch.rand(shape["m"], shape["k"], device=device)
    b = torch.rand(shape["k"], shape["n"], device=device)
    c = torch.empty(shape["m"], shape["n"], device=device)
    return lambda: torch.mm(a, b, out=c)

# Ratios scripts/gpu-check reports from its runs (scripts/lib/gpu_ratios.py): GFLOP/s of our own
# GEMM against cuBLAS's on the same card and tier, at the default shape and the sweep's largest.
# The SIMT kernels (gemm/cuda) and the tensor-core ones (gemm/cuda_tc: f16 WMMA, f64 DMMA), each
# in its tiers.
GPU_RATIOS = [dict(name="own GEMM ÷ cuBLAS (GFLOP/s)", impl="cuda", vs=("gemm", "cublas"),
                   metric="gflops", shapes=["m=2048;n=2048;k=2048", "m=4096;n=4096;k=4096"],
                   target=0.7),
              dict(name="own tensor-core GEMM ÷ cuBLAS (GFLOP/s)", impl="cuda_tc",
                   vs=("gemm", "cublas"), metric="gflops",
                   shapes=["m=2048;n=2048;k=2048", "m=4096;n=4096;k=4096"], target=0.8)]
