/* mma.cuh — GEMM on the sm_80+ tensor cores through PTX mma.sync, FP32 C and accumulation:
 * C (M×N, ldc, FP32) = A (M×K, lda) · B (K×N, ldb), row-major, any M, N, K ≥ 0 and ldc, with
 * rows of A and B in multiples of 16 bytes and 16-byte aligned bases (gb_mm_fits; elsewhere
 * gemm/cuda_tc runs wmma.cuh's kernel, which takes any alignment). gemm/cuda_tc's f16, bf16 and
 * tf32 tiers from compute capability 8.0 (kernels/gemm/cuda_tc.c), one kernel source
 * (mma_tile.cuh) instantiated per tier at the end of this file:
 *   gb_hgemm_mma_128x128  f16:  __half A and B, mma.sync.aligned.m16n8k16.row.col.f32.f16;
 *   gb_bgemm_mma_128x128  bf16: __nv_bfloat16 A and B, m16n8k16 .bf16;
 *   gb_tgemm_mma_128x128  tf32: float A and B, each operand register rounded with
 *                         cvt.rna.tf32.f32 (gb_wm_tf32_bits' rounding, as the WMMA tf32 tier),
 *                         mma.sync.aligned.m16n8k8.row.col.f32.tf32;
 *   gb_hgemm_mma_128x128_w64, gb_bgemm_mma_128x128_w64  f16, bf16 with 64×64 warp tiles, 4
 *                         warps a block (below: "64×64 warps"); gemm/cuda_tc picks them by
 *                         gb_mm_pick (sm_80-89, and Hopper without sm_90a code).
 * All need sm_80 and CUDA 11.0 (bf16/tf32 mma, ldmatrix and cp.async); below sm_80 the kernels
 * are traps the host never launches (gb_mm_body_at).
 *
 * SASS check: gb_hgemm_mma_128x128 HMMA from 800
 * SASS check: gb_bgemm_mma_128x128 HMMA from 800
 * SASS check: gb_tgemm_mma_128x128 HMMA from 800
 * SASS check: gb_hgemm_mma_128x128 LDSM from 800
 * SASS check: gb_bgemm_mma_128x128 LDSM from 800
 * SASS check: gb_tgemm_mma_128x128 LDSM from 800
 * SASS check: gb_hgemm_mma_128x128 LDGSTS from 800
 * SASS check: gb_bgemm_mma_128x128 LDGSTS from 800
 * SASS check: gb_tgemm_mma_128x128 LDGSTS from 800
 * SASS check: gb_hgemm_mma_128x128_w64 HMMA.16816 x64 from 800
 * SASS check: gb_bgemm_mma_128x128_w64 HMMA.16816 x64 from 800
 * SASS check: gb_hgemm_mma_128x128_w64 LDSM x16 from 800
 * SASS check: gb_bgemm_mma_128x128_w64 LDSM x16 from 800
 * SASS check: gb_hgemm_mma_128x128_w64 LDGSTS from 800
 * SASS check: gb_bgemm_mma_128x128_w64 LDGSTS from 800
 * SASS check: gb_hgemm_mma_128x128_w64 no LDL from 800
 * SASS check: gb_bgemm_mma_128x128_w64 no LDL from 800
 * SASS check: gb_hgemm_mma_128x128_w64 no STL from 800
 * SASS check: gb_bgemm_mma_128x128_w64 no STL from 800
 * (tests/gpuinfo/sass_check.py: the machine code for sm_80 and newer holds these instructions in
 * the kernel — the mma, ldmatrix and cp.async — and code below holds none. The 64×64-warp
 * kernels: at least one slice's 2 k steps × 4×8 fragments = 64 HMMA.16816 and 2 × (4 + 4) = 16
 * ldmatrix — the 64×32 kernels have 32 and 12 — and no local memory: no LDL, no STL, in any code)
 *
 * Scheme. Block tile 128×128 of C, 8 warps (256 threads) of 64×32 each (2 warps down, 4 across),
 * a warp 4×4 m16n8 accumulator fragments (64 floats a lane). K in slices of 64 bytes a row of A:
 * 32 elements for the 16-bit tiers (two k16 steps), 16 for tf32 (two k8 steps); a slice of A is
 * 128 rows × 4 chunks of 16 bytes, of B 32×16 (16-bit) or 16×32 (tf32) chunks: 16 KiB a stage
 * in every tier, 3 stages (48 KiB, static shared memory). Each thread copies 2 chunks of A and 2
 * of B a slice with 16-byte cp.async.cg; a chunk partly or wholly outside the matrix copies only
 * its inside bytes and zero-fills the rest (src-size < 16; 0 reads nothing): an edge tile is a
 * padded full tile. The pipeline: slices 0 and 1 in flight before the loop; at slice s, wait
 * until at most one group (slice s+1) is pending, one __syncthreads (slice s is visible to
 * every warp, and every warp is done with slice s−1), then issue slice s+2 into s−1's stage and
 * compute slice s. Every iteration commits a group, empty past the last slice, so the wait's
 * count holds for any number of slices (also fewer than the stages).
 *
 * Fragments from shared memory: A by ldmatrix.x4 (the four 8×8 b16 matrices of an m16×k16 —
 * or, for tf32, m16×k8 of 32-bit words — block: lanes 0-7 address rows 0-7 of the first 16-byte
 * chunk, 8-15 rows 8-15, 16-23 rows 0-7 of the second chunk, 24-31 rows 8-15; the registers come
 * out in the order of the PTX ISA's a0..a7, resp. tf32's a0..a3). 16-bit B by
 * ldmatrix.x4.trans: B is stored K×N row-major, so each 8×8 matrix is 8 k rows of 8 n columns
 * and .trans hands lane l the pair (k = 2(l%4), 2(l%4)+1; n = l/4), the col operand's b0,b1;
 * four matrices cover k16×n16, two n8 fragments. tf32 B: ldmatrix.trans moves 16-bit elements
 * only, so each lane reads its two words b0 = (k = l%4, n = l/4), b1 = (k = l%4 + 4, n = l/4)
 * with plain 32-bit shared loads (8 a k8 step); the swizzle below keeps them conflict-free.
 *
 * Shared layout: XOR swizzle of 16-byte chunks within a row of the slice (gb_mm_swz), no
 * padding. A rows are 4 chunks (64 bytes): chunk c of row r sits at c ^ ((r/2) % 4), so the 8
 * row addresses of an ldmatrix matrix (8 consecutive rows, one logical chunk) land in the 8
 * different 16-byte bank groups of a 128-byte line. 16-bit B rows are 16 chunks: c ^ (r % 8), the
 * same for .trans's 8 consecutive k rows. tf32 B rows are 32 chunks: c ^ 2(r % 4), so a k8 step's
 * 4 rows × 8 columns of 32-bit reads hit 32 different banks. The cp.async stores: 8 consecutive
 * threads fill one 128-byte line (A: two rows, B: 8 chunks of a row), which the XOR only
 * permutes — no conflict either.
 *
 * Epilogue: straight from the accumulators (c0,c1 at row g = lane/4, columns 2t, 2t+1, t =
 * lane%4; c2,c3 at row g+8), each pair one 8-byte store where both are inside and the address is
 * 8-byte aligned (even ldc), else each element stored where it is inside M×N: no store leaves C
 * for any M, N and ldc.
 *
 * The twin (GPUBENCH_EMU: the emulation tests and the simulated device) has the same shared
 * layout, copies (plain copies of the inside elements, zero after them) and barrier; each lane
 * computes the 64 elements of its own m16n8 fragments (gb_mm_frag_c) with FP32 FMAs over the
 * shared tiles read through the swizzle — products of two values of the tier are exact in FP32;
 * tf32 operands rounded by gb_wm_tf32_bits as cvt.rna does. The ldmatrix addresses and register
 * layouts, which the twin does not use, are checked by a CPU model of ldmatrix in
 * kernels/gemm/test_emu_mma.h against the PTX ISA's mma operand layouts.
 *
 * 64×64 warps (the _w64 kernels; issue 39's P5). The same block tile, slices, stages, shared
 * layout, copies and pipeline; 4 warps (2×2) of 64×64, 128 threads, each copying 4 chunks of A
 * and 4 of B a slice. A warp's k16 step: 4 ldmatrix.x4 of A and 4 ldmatrix.x4.trans of B (n16
 * pairs 0..3), 32 mma. The arithmetic, per SM and clock (A100: 1,024 dense f16 FMA from the
 * tensor cores, 128 bytes from shared memory, 1.41 GHz, 108 SMs):
 *   shared reads  a 64×32 warp reads 2 KiB of A + 1 KiB of B a k16 step for 64·32·16 FMA: 10.7
 *                 FMA a byte, 96 B/clk at the tensor peak; a 64×64 warp 2 + 2 KiB for 64·64·16:
 *                 16 FMA a byte, 64 B/clk;
 *   cp.async      the block stores 16 KiB a slice for 128·128·32 FMA: 32 FMA a byte, 32 B/clk
 *                 in both (and the same 32 B/clk from L2, about 4.9 TB/s over 108 SMs);
 *   so at the peak the 64×32 warps need 96 + 32 = 128 B/clk, all of shared memory's rate, and
 *   the 64×64 warps 64 + 32 = 96 B/clk, three quarters.
 *   registers     128 accumulators + 16 A + 16 B fragment registers + addresses: ptxas gives
 *                 215 a thread (CUDA 13.0, sm_80; 211-238 from sm_80 to sm_120 and on 11.8;
 *                 launch bounds 128 threads × 2 blocks allow 255), no stack, no spills; 2
 *                 blocks an SM (2 × 128 × 215 ≤ 65,536; a third
 *                 would need ≤ 168), so 8 warps an SM (the 64×32 kernel has 16), each with
 *                 twice the independent mma a k step.
 *   shared        48 KiB a block (3 stages), 96 KiB for 2: fits sm_86/89's 100 KiB.
 * Which one runs: gb_mm_pick — the 64×64 warps where C has at least 2 tiles an SM (the
 * shared-memory rate then bounds the SM), the 64×32 warps on fewer tiles, where 8 warps a block
 * hide latency better than 4 (a choice by this arithmetic, not yet by a measurement).
 *
 * Why not 128×256 blocks of 8 such warps (halving L2 traffic too): 8 warps × 32 × 215 registers
 * leave room for one block an SM, and 3 stages of 24 KiB are 72 KiB of dynamic shared memory —
 * one block an SM on sm_86/89 as well — and half as many blocks for a given C, so smaller
 * problems fill fewer SMs. The 64×32 kernels have 116-126 registers (the bound of two
 * 256-thread blocks an SM; no stack, no spills, CUDA 13.0 sm_80 to sm_120, 11.8 sm_80 to
 * sm_90) with 64 accumulators a lane; tf32 keeps only them (its B comes by 32-bit loads and
 * cvt.rna, not ldmatrix, so the arithmetic above is not its). No C++ here: the PTX (cp.async,
 * ldmatrix, mma.sync, cvt.rna.tf32) is inline asm behind GB_MM_NATIVE, as dmma.cuh's cp.async;
 * the rest is plain C. The guards, the tile constants, the index functions and the PTX live in
 * kernels/common/mma.cuh, the chunk copies and the pipeline loop in kernels/common/mma_pipe.cuh,
 * both shared with conv2d/cuda_tc's mma.sync kernel; this file holds the GEMM's instantiations.
 */
#ifndef GPUBENCH_GEMM_MMA_CUH
#define GPUBENCH_GEMM_MMA_CUH

#include "kernels/common/mma_pipe.cuh" /* mma.cuh's guards, tile, index functions, PTX; the loop */
#include "kernels/gemm/wmma.cuh"       /* the tier types, gb_wm_tf32_bits */

/* --- the kernels, one source (mma_tile.cuh) per tier ------------------------------------- */
#define GB_MT_NAME gb_hgemm_mma_128x128
#define GB_MT_IN __half
#define GB_MT_EC 8
#define GB_MT_FLOAT(x) __half2float(x)
#define GB_MT_MMA gb_mm_f16
#define GB_MT_TF32 0
#define GB_MT_WN GB_MM_WN
#include "kernels/gemm/mma_tile.cuh"

#define GB_MT_NAME gb_bgemm_mma_128x128
#define GB_MT_IN __nv_bfloat16
#define GB_MT_EC 8
#define GB_MT_FLOAT(x) __bfloat162float(x)
#define GB_MT_MMA gb_mm_bf16
#define GB_MT_TF32 0
#define GB_MT_WN GB_MM_WN
#include "kernels/gemm/mma_tile.cuh"

#define GB_MT_NAME gb_tgemm_mma_128x128
#define GB_MT_IN float
#define GB_MT_EC 4
#define GB_MT_FLOAT(x) gb_wm_tf32_bits(x)
#define GB_MT_MMA gb_mm_tf32_mma
#define GB_MT_TF32 1
#define GB_MT_WN GB_MM_WN
#include "kernels/gemm/mma_tile.cuh"

/* 64×64 warps, 4 a block (f16, bf16): the file comment's "64×64 warp tiles" */
#define GB_MT_NAME gb_hgemm_mma_128x128_w64
#define GB_MT_IN __half
#define GB_MT_EC 8
#define GB_MT_FLOAT(x) __half2float(x)
#define GB_MT_MMA gb_mm_f16
#define GB_MT_TF32 0
#define GB_MT_WN GB_MM_WN64
#include "kernels/gemm/mma_tile.cuh"

#define GB_MT_NAME gb_bgemm_mma_128x128_w64
#define GB_MT_IN __nv_bfloat16
#define GB_MT_EC 8
#define GB_MT_FLOAT(x) __bfloat162float(x)
#define GB_MT_MMA gb_mm_bf16
#define GB_MT_TF32 0
#define GB_MT_WN GB_MM_WN64
#include "kernels/gemm/mma_tile.cuh"

#endif
