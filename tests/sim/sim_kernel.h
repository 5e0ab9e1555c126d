/* sim_kernel.h — GB_SIM_KERNEL for the simulated device's kernel modules (tests/sim/): the
 * adapter that calls a kernel from the `void **args` of a launch. Test-only code.
 *
 * Include after tests/emu/emu.h and before a workload's kernels.cuh. Each
 *     GB_SIM_KERNEL(gb_vecadd_kernel, const float *, const float *, float *, size_t)
 * line of a kernels.cuh then becomes
 *   - a compile-time check that the kernel's type is exactly void(listed types): an adapter that
 *     disagreed with the kernel would read its arguments with the wrong types;
 *   - a body for emu_launch that unpacks args[i] as a pointer to parameter i (what nvcc's host
 *     stubs pass to __cudaLaunchKernel) and calls the kernel;
 *   - the parameters' sizes and alignments, so that the runtime can copy the arguments when the
 *     launch is queued (the stub's locals are gone by the time the stream runs it);
 *   - a pointer to all that in the ELF section `gbsim_kernels`, which the module lists
 *     (kernel_module.c); pointers, not the entries themselves, because the compiler may align
 *     larger objects beyond their size and the section would not be an array of them.
 * Up to 12 parameters. */
#ifndef GPUBENCH_SIM_KERNEL_H
#define GPUBENCH_SIM_KERNEL_H

#include <stddef.h>

/* One kernel of a module: found by name, run by emu_launch(…, body, argv). */
struct gbsim_kernel_entry {
    const char *name; /* the kernel's C name: "gb_vecadd_kernel" */
    int arch;         /* GB_EMU_ARCH the module was compiled for (__CUDA_ARCH__ units) */
    int nargs;
    const size_t *sizes, *aligns; /* of each parameter */
    void (*body)(void *argv);     /* argv: void *argv[nargs], argv[i] → parameter i's value */
};

#define GBSIM_CAT_(a, b) a##b
#define GBSIM_CAT(a, b) GBSIM_CAT_(a, b)
#define GBSIM_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, n, ...) n
#define GBSIM_NARGS(...) GBSIM_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)

/* GBSIM_EACH(M, T1, …, Tn) → M(0, T1), M(1, T2), …, M(n-1, Tn) */
#define GBSIM_EACH(m, ...) GBSIM_CAT(GBSIM_EACH_, GBSIM_NARGS(__VA_ARGS__))(m, __VA_ARGS__)
#define GBSIM_EACH_1(m, a) m(0, a)
#define GBSIM_EACH_2(m, a, b) GBSIM_EACH_1(m, a), m(1, b)
#define GBSIM_EACH_3(m, a, b, c) GBSIM_EACH_2(m, a, b), m(2, c)
#define GBSIM_EACH_4(m, a, b, c, d) GBSIM_EACH_3(m, a, b, c), m(3, d)
#define GBSIM_EACH_5(m, a, b, c, d, e) GBSIM_EACH_4(m, a, b, c, d), m(4, e)
#define GBSIM_EACH_6(m, a, b, c, d, e, f) GBSIM_EACH_5(m, a, b, c, d, e), m(5, f)
#define GBSIM_EACH_7(m, a, b, c, d, e, f, g) GBSIM_EACH_6(m, a, b, c, d, e, f), m(6, g)
#define GBSIM_EACH_8(m, a, b, c, d, e, f, g, h) GBSIM_EACH_7(m, a, b, c, d, e, f, g), m(7, h)
#define GBSIM_EACH_9(m, a, b, c, d, e, f, g, h, i) GBSIM_EACH_8(m, a, b, c, d, e, f, g, h), m(8, i)
#define GBSIM_EACH_10(m, a, b, c, d, e, f, g, h, i, j)                                             \
    GBSIM_EACH_9(m, a, b, c, d, e, f, g, h, i), m(9, j)
#define GBSIM_EACH_11(m, a, b, c, d, e, f, g, h, i, j, k)                                          \
    GBSIM_EACH_10(m, a, b, c, d, e, f, g, h, i, j), m(10, k)
#define GBSIM_EACH_12(m, a, b, c, d, e, f, g, h, i, j, k, l)                                       \
    GBSIM_EACH_11(m, a, b, c, d, e, f, g, h, i, j, k), m(11, l)

#define GBSIM_ARG(i, t) (*(t *)argv_[i])
#define GBSIM_SIZE(i, t) sizeof(t)
#define GBSIM_ALIGN(i, t) _Alignof(t)

/* Expanded once more so that a kernel name built by a macro (gemm's GB_GT_FN) is pasted as the
 * name it expands to. */
#define GB_SIM_KERNEL(kernel, ...) GBSIM_KERNEL_(kernel, __VA_ARGS__)
#define GBSIM_KERNEL_(kernel, ...)                                                                 \
    _Static_assert(__builtin_types_compatible_p(__typeof__(kernel), void(__VA_ARGS__)),            \
                   "GB_SIM_KERNEL(" #kernel ", ...): the listed types are not the kernel's");      \
    static void gbsim_body_##kernel(void *argv) {                                                  \
        void *const *argv_ = argv;                                                                 \
        kernel(GBSIM_EACH(GBSIM_ARG, __VA_ARGS__));                                                \
    }                                                                                              \
    static const size_t gbsim_sizes_##kernel[] = {GBSIM_EACH(GBSIM_SIZE, __VA_ARGS__)};            \
    static const size_t gbsim_aligns_##kernel[] = {GBSIM_EACH(GBSIM_ALIGN, __VA_ARGS__)};          \
    static const struct gbsim_kernel_entry gbsim_entry_##kernel = {#kernel,                        \
                                                                   GB_EMU_ARCH,                    \
                                                                   GBSIM_NARGS(__VA_ARGS__),       \
                                                                   gbsim_sizes_##kernel,           \
                                                                   gbsim_aligns_##kernel,          \
                                                                   gbsim_body_##kernel};           \
    static const struct gbsim_kernel_entry *const gbsim_ref_##kernel                               \
        __attribute__((used, section("gbsim_kernels"), aligned(sizeof(void *)))) =                 \
            &gbsim_entry_##kernel;

#endif
