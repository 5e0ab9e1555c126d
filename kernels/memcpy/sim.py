"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py). Copies need no kernel image and no library: ok on every card."""
TINY = "bytes=4096"
QUICK_EXTRA = []


def expect(card, impl):
    return "ok", ""


def sweep_need(impl, shape):
    return 2 * shape["bytes"] if impl == "d2d" else shape["bytes"]
