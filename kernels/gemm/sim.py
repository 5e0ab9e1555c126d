"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py)."""
TINY = "m=70,n=60,k=50"
# 25 tiles of 128×128: the launcher picks 128×128 on cards with at most 25 SMs (K40m, K80)
QUICK_EXTRA = ["m=256,n=256,k=256", "m=520,n=520,k=24"]


def expect(card, impl):
    return card.own_kernels() if impl == "cuda" else card.cublas()


def tile(card, m, n):
    """The SGEMM tile the launcher should pick (kernels.cuh, gb_sgemm_pick)."""
    tiles = ((m + 127) // 128) * ((n + 127) // 128)
    return 128 if card.code() >= 35 and tiles >= card.p["sms"] else 64


def check_row(card, row, shape, check):
    if row["impl"] != "cuda":
        return
    t = tile(card, shape["m"], shape["n"])
    check(f"own SGEMM {t}x{t} tiles" in row["note"],
          f"{card.spec} {row['shape']}: want {t}x{t} tiles: {row['note'][:120]}")


def expect_tier(card, impl, dtype):
    """gemm/cuda f16: ok from 5.3 on the own kernels, tensor cores (the WMMA kernel's emulated
    twin) from 7.0, half2 before; other rows and tiers: the general rule (None)."""
    if impl != "cuda" or dtype != "float16" or card.sm < 53:
        return None
    return ("ok", "own WMMA f16 64x64 tiles" if card.sm >= 70 else "own half2 GEMM")
