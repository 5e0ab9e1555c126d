"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py)."""
TINY = "batch=8,in=20,hidden=16,out=5"
QUICK_EXTRA = []


def expect(card, impl):
    if impl == "cuda":
        return card.own_kernels()
    # cublas: our elementwise kernels need code for the card, then cuBLAS
    if card.code() is None:
        return card.own_kernels()
    return card.cublas("own elementwise kernels")
