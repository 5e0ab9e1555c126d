"""peer.py — what vecadd is measured against outside gpubench, at the same shape: the bare
reference of scripts/speedcheck (scripts/speed/speedref.c) and PyTorch (scripts/speed/torch_ref.py).
The names and their meaning: scripts/speedcheck's docstring.
"""

SHAPE = dict(n=1 << 24)  # the default shape

# vecadd/cpu through the harness against STREAM's Add kernel (OpenMP, -march=native), by GB/s.
BARE = [dict(impl="cpu", shape=SHAPE, metric="gbps", speedref=["stream_add", SHAPE["n"]],
             vs="STREAM Add, n=2^24", name="STREAM Add", target=0.95)]

TORCH = None  # no PyTorch row in speedcheck: an add is a bandwidth test, STREAM is the reference


def torch_step(torch, shape, device):
    """c = a + b into an existing c, float32, on `device` ("cpu" or "cuda")."""
    a = torch.rand(shape["n"], device=device)
    b = torch.rand(shape["n"], device=device)
    c = torch.empty_like(a)
    return lambda: torch.add(a, b, out=c)

# Ratios scripts/gpu-check reports (scripts/lib/gpu_ratios.py): our kernel's bandwidth against a
# device-to-device copy's, both counting memory traffic (a copy reads and writes each byte it
# counts once: ×2), at the default shapes; every tier, FP16 included, at 0.95 of the copy.
GPU_RATIOS = [dict(name="vecadd/cuda ÷ device-to-device copy (memory GB/s)", impl="cuda",
                   vs=("memcpy", "d2d"), vs_scale=2.0, metric="gbps", shapes=None, target=0.95)]
