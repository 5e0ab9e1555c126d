"""What the simulated CUDA device's tests expect of this workload's GPU rows (the interface:
kernels/vecadd/sim.py)."""
import os

TINY = "m=70,n=60,k=50"
# 25 tiles of 128×128: the launcher picks 128×128 on cards with at most 25 SMs (K40m, K80)
QUICK_EXTRA = ["m=256,n=256,k=256", "m=520,n=520,k=24"]


def expect(card, impl):
    """gemm/cuda and gemm/cuda_tc: our kernels, where the card has code for them (cuda_tc has no
    float32 version: sim_check.py refuses that tier first); cublas: cuBLAS."""
    return card.own_kernels() if impl in ("cuda", "cuda_tc") else card.cublas()


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


# gemm/cuda_tc's tiers: the tensor cores each needs (kernels/gemm/cuda_tc.c), and the note
TC = {"float16": (70, "FP16 tensor cores (WMMA)", "own WMMA f16 64x64 tiles"),
      "bfloat16": (80, "BF16 tensor cores (WMMA)", "own WMMA bf16 64x64 tiles"),
      "tfloat32": (80, "TF32 tensor cores (WMMA)", "own WMMA tf32 64x64 tiles"),
      "float64": (80, "FP64 tensor cores (DMMA)", "own DMMA f64 64x64 tiles")}
# f64 where the card runs this build's sm_90 code: the m16n8k16 kernel (kernels/gemm/dmma16.cuh;
# cuda_tc.c's tc_dmma16_pick), not the 64x64 DMMA.8x8x4 one
DMMA16 = "own DMMA f64 128x128 tiles (mma.sync m16n8k16, DMMA.16x8x16"
# tiers whose own gate (harness/gpuinfo/gpu_tier.c) refuses a card below this first
TIER_GATE = {"float16": 53, "bfloat16": 80, "tfloat32": 80}


# gemm/cuda_tc's sm_80+ mma.sync kernels (kernels/gemm/mma.cuh): the tiers they run, their
# element sizes, and the note of a row that runs one
MMA = {"float16": 2, "bfloat16": 2, "tfloat32": 4}


def mma_note(dtype):
    tier = {"float16": "f16", "bfloat16": "bf16", "tfloat32": "tf32"}[dtype]
    return f"own mma.sync {tier} 128x128 tiles"


def mma_warps(card, shape):
    """f16/bf16's warp tiles on the mma.sync path (gb_mm_pick, kernels/gemm/mma.cuh): 64x64 from
    two 128×128 tiles of C a multiprocessor, else 64x32; GPUBENCH_MMA_KERNEL forces one."""
    force = os.environ.get("GPUBENCH_MMA_KERNEL", "")
    if force in ("64x32", "64x64"):
        return force + " warps"
    tiles = -(-shape["m"] // 128) * -(-shape["n"] // 128)
    return "64x64 warps" if tiles >= 2 * card.p["sms"] else "64x32 warps"


def check_tier_row(card, row, shape, check):
    """gemm/cuda_tc's f16, bf16 and tf32 rows (ok): on sm_80 code the mma.sync kernel where the
    rows of A (k) and B (n) are multiples of 16 bytes (the sim's buffers are aligned), else the
    WMMA kernel with the reason; below sm_80 code the WMMA kernel. And no ok row of any tier has
    a % of peak: its time is CPU emulation, and a real card's peak says nothing of it (issue 38
    item 3; harness/run/runner.c derive_rates). The tier's own balance (a GEMM is compute-bound
    in every tier, float64 on a GTX 1080 at 1/32 of FP32 too) is checked by test_runner_notes."""
    dtype = row["dtype"]
    check(row["peak_pct"] == "" and "simulated device" in row["note"],
          f"{card.spec} {row['impl']} {row['shape']} {dtype}: a peak for emulated time "
          f"({row['peak_pct']}; {row['note'][:200]})")
    if row["impl"] != "cuda_tc" or dtype not in MMA:
        return
    if card.sm == 90 and card.arch_specific() and dtype in WGMMA and tma_reads(dtype, shape):
        return  # the wgmma kernel: check_any_row
    what = f"{card.spec} {row['shape']} {dtype}"
    if card.code() < 80:
        check("own WMMA" in row["note"] and mma_note(dtype) not in row["note"],
              f"{what}: want the WMMA kernel: {row['note'][:160]}")
        return
    fits = all(shape[d] * MMA[dtype] % 16 == 0 for d in ("k", "n"))
    if fits:
        check(mma_note(dtype) in row["note"], f"{what}: want {mma_note(dtype)}: {row['note'][:160]}")
        if dtype != "tfloat32":
            want = f"128x128 tiles, {mma_warps(card, shape)} (m16n8k16"
            check(want in row["note"], f"{what}: want {want}: {row['note'][:200]}")
    else:
        check("own WMMA" in row["note"] and "its 16-byte cp.async needs rows" in row["note"],
              f"{what}: want the WMMA kernel and why: {row['note'][:200]}")


def expect_tier(card, impl, dtype):
    """gemm/cuda f16: the half2 SIMT kernel from 5.3 on every card. gemm/cuda_tc (the kernels'
    emulated twins): f16 from 7.0 (below 5.3 the tier's own gate refuses first), bf16, tf32 and
    f64 from 8.0, refused below with the compute capability they need (bf16 and tf32 by the
    tier's gate, the general rule); f64 on sm_90 code the m16n8k16 kernel. Other rows and tiers:
    the general rule (None)."""
    if impl == "cuda" and dtype == "float16" and card.sm >= 53:
        return "ok", "own half2 GEMM"
    if impl != "cuda_tc" or dtype not in TC or card.sm < TIER_GATE.get(dtype, 0):
        return None
    need, what, note = TC[dtype]
    if card.sm < need:
        return "unsupported", f"runs on the {what}, from compute capability {need // 10}.{need % 10}"
    code = card.code()
    if code < need:  # the card runs an older architecture's code, where the kernel is a trap
        return "unsupported", f"runs this build's code for sm_{code}"
    if card.arch_specific() and dtype in WGMMA:  # wgmma or WMMA by the shape: check_any_row
        return "ok", "FP32 accumulation"
    if dtype == "float64" and code // 10 == 9:
        return "ok", DMMA16
    return "ok", note if dtype not in MMA or code < 80 else ""  # check_tier_row: per shape


# --- Hopper: wgmma with TMA (kernels/gemm/wgmma.cuh) -------------------------------------------
WGMMA = {"float16": "own wgmma f16 128x128 tiles", "bfloat16": "own wgmma bf16 128x128 tiles",
         "tfloat32": "own wgmma tf32 128x128 tiles"}


def tma_reads(dtype, shape):
    """Can the wgmma kernel of the tier read this shape's operands? f16 and bf16: where lda = k
    and ldb = n are multiples of 8 (TMA's rules; the buffers are cudaMalloc's, aligned); tf32
    always (it reads the copies its pass makes, kernels/gemm/wgmma_tf32.cuh)."""
    return dtype == "tfloat32" or (shape["k"] % 8 == 0 and shape["n"] % 8 == 0)


def check_any_row(card, row, shape, check):
    """gemm/cuda_tc f16, bf16 and tf32 on a 9.0 card: the wgmma kernel where the card runs this
    build's sm_90a code and TMA can read the operands (tma_reads); otherwise the sm_80 path, its
    note saying why not wgmma."""
    if (card.sm != 90 or row["impl"] != "cuda_tc" or row["dtype"] not in WGMMA or
            row["status"] != "ok"):
        return
    want = WGMMA[row["dtype"]]
    if not card.arch_specific():
        check(want not in row["note"] and "rebuild with -DCMAKE_CUDA_ARCHITECTURES=90a-real"
              in row["note"], f"{card.spec} {row['shape']} {row['dtype']}: want the sm_80 path "
              f"and how to get wgmma: {row['note'][:200]}")
    elif not tma_reads(row["dtype"], shape):
        check(want not in row["note"] and "TMA needs" in row["note"],
              f"{card.spec} {row['shape']} {row['dtype']}: want the sm_80 path (TMA's rules): "
              f"{row['note'][:200]}")
    else:
        check(want in row["note"], f"{card.spec} {row['shape']} {row['dtype']}: want {want}: "
              f"{row['note'][:200]}")
