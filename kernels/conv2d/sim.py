"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py)."""
TINY = "n=1,c=3,h=9,w=9,k=5,r=3,s=3,stride=1,pad=1"
QUICK_EXTRA = []


def expect(card, impl):
    return card.own_kernels() if impl == "cuda" else card.cudnn()
