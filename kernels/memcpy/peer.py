"""peer.py — what memcpy is measured against outside gpubench, at the same shape: PyTorch's
device-to-device copy (scripts/speed/torch_ref.py, on "cuda"; scripts/gpu-check). CUDA only: no
speedcheck rows (speedcheck measures the CPU side).
"""

SHAPE = {"bytes": 64 << 20}  # the default shape

BARE = []
TORCH = None  # not in speedcheck: a host has no device-to-device copy


# PyTorch's step is a device-to-device copy: only that row of ours is its peer (a host copy
# against it would compare the PCIe link with the card's memory).
TORCH_IMPLS = ["d2d"]


def torch_step(torch, shape, device):
    """dst = src, `bytes` bytes of float32 on `device`: a device-to-device copy on "cuda"."""
    src = torch.rand(shape["bytes"] // 4, device=device)
    dst = torch.empty_like(src)
    return lambda: dst.copy_(src)

# Ratios scripts/gpu-check reports (scripts/lib/gpu_ratios.py): pinned copies against the PCIe
# link's rate as the driver reports it (generation and width, nvidia-smi -q).
GPU_RATIOS = [dict(name="pinned host→device ÷ PCIe link", impl="h2d_pinned", vs="pcie",
                   metric="gbps", shapes=None, target=None),
              dict(name="pinned device→host ÷ PCIe link", impl="d2h_pinned", vs="pcie",
                   metric="gbps", shapes=None, target=None)]
