/* blas_rank.h — OpenBLAS's x86-64 cores ranked by the ISA their kernels use, and a CPU's level
 * on the same scale: what says that a core is older than the CPU it runs on. Pure: the run's
 * choice of core (harness/run/blas_core.c) judges the CPU it runs on, `gpubench compare`
 * (harness/compare/slow_cpu.c) a run's CPU from its rows' blas_lib and hardware columns. */
#ifndef GPUBENCH_BLAS_RANK_H
#define GPUBENCH_BLAS_RANK_H

/* ISA level of an OpenBLAS core name (case-insensitive): 1 SSE-era generic (Prescott, Nehalem,
 * Opteron, …), 2 AVX (Sandybridge, Bulldozer, …), 3 AVX2 + FMA (Haswell, Zen, Excavator),
 * 4 AVX-512 (SkylakeX, Cooperlake, SapphireRapids); 0 when unknown. */
int blas_core_rank(const char *core);
/* The ISA a core's kernels use ("SSE3"), or "unknown ISA". */
const char *blas_core_isa(const char *core);
/* A level's name ("AVX-512"); "unknown" for 0. */
const char *blas_level_name(int level);
/* The level of a CPU from its /proc/cpuinfo flags as the run's `hardware` column lists them
 * ("sse4_2 avx avx2 fma avx512f", harness/run/hardware.c): 4 with avx512f, 3 with avx2 and
 * fma, 2 with avx, 1 with sse4_2 only; 0 when none of these is there (another architecture, or
 * "none"). */
int blas_level_of_flags(const char *flags);

#endif
