/* cpu_features.h — x86 feature tests and function multi-versioning that compile on every host
 * compiler a CUDA toolkit pairs with: CUDA 8 (Fermi's last) accepts GCC up to 5 and CentOS 7
 * ships 4.8.5, while __builtin_cpu_supports("avx512f") needs GCC 5 and target_clones GCC 6.
 * Older compilers get the AVX2 paths, which is what their users' CPUs of that era have. */
#ifndef GPUBENCH_CPU_FEATURES_H
#define GPUBENCH_CPU_FEATURES_H

#if defined(__x86_64__) && defined(__GNUC__) && (defined(__clang__) || __GNUC__ >= 5)
#define GB_CPU_HAS_AVX512F() __builtin_cpu_supports("avx512f")
#else
#define GB_CPU_HAS_AVX512F() 0
#endif

/* AVX512_BF16 (CPUID leaf 7, sub-leaf 1, EAX bit 5), which OpenBLAS's fast cblas_sbgemm needs:
 * read with <cpuid.h>'s __get_cpuid_count (GCC 7+, clang), not __builtin_cpu_supports, whose
 * "avx512bf16" needs GCC 11. 0 where it cannot be read. */
#if defined(__x86_64__) && defined(__GNUC__) && (defined(__clang__) || __GNUC__ >= 7)
#include <cpuid.h>
static inline int gb_cpu_has_avx512bf16(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 1, &a, &b, &c, &d))
        return 0;
    return (a >> 5) & 1u;
}
#else
static inline int gb_cpu_has_avx512bf16(void) { return 0; }
#endif

/* F16C (CPUID leaf 1, ECX bit 29: 8-wide FP16 <-> FP32 conversions, every x86 since Ivy Bridge
 * and Piledriver), read with <cpuid.h>: __builtin_cpu_supports knows no "f16c" before GCC 11. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
static inline int gb_cpu_has_f16c(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    return (c >> 29) & 1u;
}
#define GB_CPU_F16C_KNOWN 1
#else
static inline int gb_cpu_has_f16c(void) { return 0; }
#define GB_CPU_F16C_KNOWN 0
#endif

/* Clone a function for AVX-512, AVX2 and baseline x86-64, chosen at load time (GCC 6+). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 6
#define GB_TARGET_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define GB_TARGET_CLONES
#endif

#endif
