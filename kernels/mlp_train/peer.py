"""peer.py — what mlp_train is measured against outside gpubench, at the same shape: PyTorch
(scripts/speed/torch_ref.py). The names and their meaning: scripts/speedcheck's docstring.
"""

SHAPE = {"batch": 256, "in": 784, "hidden": 1024, "out": 10}  # the default shape

BARE = []  # a training step has no bare BLAS equivalent

# PyTorch's training step time (on the OpenBLAS core gpubench chose) ÷ mlp_train/openblas time:
# gpubench's step at most 0.8 of PyTorch's (issue 37), so the ratio above 1.25.
TORCH = dict(impl="openblas", shape=SHAPE, name="PyTorch MLP step", target=1.25)


def torch_step(torch, shape, device):
    """gpubench's step on `device`: Linear → ReLU → Linear → softmax cross-entropy (mean),
    backward, SGD update."""
    model = torch.nn.Sequential(torch.nn.Linear(shape["in"], shape["hidden"]), torch.nn.ReLU(),
                                torch.nn.Linear(shape["hidden"], shape["out"])).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.rand(shape["batch"], shape["in"], device=device)
    y = torch.randint(0, shape["out"], (shape["batch"],), device=device)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step():
        opt.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        opt.step()
    return step

# scripts/gpu-check: gpubench's CUDA step time ÷ PyTorch's on the same card must not exceed this.
TORCH_GPU_TARGET = 1.0

# Ratios scripts/gpu-check and scripts/kernel-lease report (scripts/lib/gpu_ratios.py): the step
# on our own kernels against the same step on cuBLAS's GEMMs (the elementwise kernels are the
# same in both), by time: at most 1.15× — the SIMT step (cuda) in f32 and f64, the f16
# mixed-precision step on our WMMA GEMMs (cuda_tc) against cublas's f16 (amp_step.h: the same
# launches but the GEMMs).
GPU_RATIOS = [dict(name="mlp_train/cuda ÷ mlp_train/cublas (step time)", impl="cuda",
                   vs=("mlp_train", "cublas"), metric="median_ms", shapes=None,
                   dtypes=["float32", "float64"], target=1.15, lower_is_better=True),
              dict(name="mlp_train/cuda_tc ÷ mlp_train/cublas (f16 step time)", impl="cuda_tc",
                   vs=("mlp_train", "cublas"), metric="median_ms", shapes=None,
                   dtypes=["float16"], target=1.15, lower_is_better=True)]
