"""peer.py — what conv2d is measured against outside gpubench, at the same shape: the bare
reference of scripts/speedcheck (scripts/speed/speedref.c) and PyTorch (scripts/speed/torch_ref.py).
The names and their meaning: scripts/speedcheck's docstring.
"""

SHAPE = dict(n=32, c=64, h=56, w=56, k=64, r=3, s=3, stride=1, pad=1)  # the default shape
# ... as a result row's shape column names it
SHAPE_KEY = ";".join(f"{k}={v}" for k, v in dict(
    n=SHAPE["n"], c=SHAPE["c"], h=SHAPE["h"], w=SHAPE["w"], k=SHAPE["k"], r=SHAPE["r"],
    s=SHAPE["s"], stride_h=SHAPE["stride"], stride_w=SHAPE["stride"], pad_h=SHAPE["pad"],
    pad_w=SHAPE["pad"]).items())

# The equivalent GEMM of im2col: filters (k) × output pixels of the whole batch × c·r·s.
_HO = (SHAPE["h"] + 2 * SHAPE["pad"] - SHAPE["r"]) // SHAPE["stride"] + 1
_WO = (SHAPE["w"] + 2 * SHAPE["pad"] - SHAPE["s"]) // SHAPE["stride"] + 1
_GEMM = (SHAPE["k"], SHAPE["n"] * _HO * _WO, SHAPE["c"] * SHAPE["r"] * SHAPE["s"])
_MNK = "×".join(str(x) for x in _GEMM)

# conv2d/openblas (im2col + sgemm) through the harness against cblas_sgemm alone at that GEMM.
BARE = [dict(impl="openblas", shape=SHAPE, metric="gflops", speedref=["sgemm", *_GEMM],
             vs=f"cblas_sgemm at the equivalent GEMM {_MNK}", name=f"sgemm {_MNK}",
             target=0.85)]

# PyTorch's CPU conv2d (oneDNN) time ÷ conv2d/openblas time: reported, no target.
TORCH = dict(impl="openblas", shape=SHAPE, name="PyTorch conv2d", target=None)


def torch_step(torch, shape, device):
    """The forward convolution, NCHW float32, k filters r×s, on `device`."""
    x = torch.rand(shape["n"], shape["c"], shape["h"], shape["w"], device=device)
    f = torch.rand(shape["k"], shape["c"], shape["r"], shape["s"], device=device)
    conv = torch.nn.functional.conv2d
    return lambda: conv(x, f, stride=shape["stride"], padding=shape["pad"])

# Ratios scripts/gpu-check and scripts/kernel-lease report (scripts/lib/gpu_ratios.py): our
# implicit-GEMM kernel against cuDNN (FMA math, no TF32) on the same card — against the fastest of
# cuDNN's implicit-GEMM algorithms (conv2d/cudnn_gemm, the same method), at 0.9; and against
# whatever cuDNN picks (conv2d/cudnn), named in the label since an FFT or Winograd pick does fewer
# operations than the direct convolution both rows are credited with: reported, no target.
GPU_RATIOS = [dict(name="own conv2d ÷ cuDNN implicit GEMM (GFLOP/s)", impl="cuda",
                   vs=("conv2d", "cudnn_gemm"), metric="gflops", shapes=None, target=0.9,
                   dtypes=["float32", "float64"], vs_label=r"algo[= ]([A-Z_]+)"),
              dict(name="own conv2d ÷ cuDNN's pick (GFLOP/s)", impl="cuda", vs=("conv2d", "cudnn"),
                   metric="gflops", shapes=None, vs_label=r"algo[= ]([A-Z_]+)"),
              # the tensor-core kernel (conv2d/cuda_tc, FP16 in, FP32 accumulation, FP16 out)
              # against cuDNN's f16 row (the same tier: half tensors, FP32 compute, tensor ops)
              # at the default shape: 0.6 of whatever cuDNN picks, the own-kernels issue's
              # target; against cuDNN's implicit-GEMM algorithms, reported, no target
              dict(name="own tensor-core conv2d ÷ cuDNN's pick (GFLOP/s)", impl="cuda_tc",
                   vs=("conv2d", "cudnn"), metric="gflops", shapes=[SHAPE_KEY], target=0.6,
                   dtypes=["float16"], vs_label=r"algo[= ]([A-Z_]+)"),
              dict(name="own tensor-core conv2d ÷ cuDNN implicit GEMM (GFLOP/s)", impl="cuda_tc",
                   vs=("conv2d", "cudnn_gemm"), metric="gflops", shapes=[SHAPE_KEY],
                   dtypes=["float16"], vs_label=r"algo[= ]([A-Z_]+)")]
