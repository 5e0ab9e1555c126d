/* kernel_module.c — what one emulation module (libgbsim_kernels_sm<ARCH>.so) exports to the
 * simulated runtime (kernels.c): its kernels, as the GB_SIM_KERNEL lines of the workloads'
 * kernels.cuh registered them in the section `gbsim_kernels`, and the emulation's launch. The
 * module holds tests/emu/emu.c (its own copy of the emulation's state) and one translation unit
 * per workload, all compiled with GB_EMU_ARCH=<ARCH>; everything else is hidden. Test-only code.
 */
#include "tests/emu/emu.h"
#include "tests/sim/sim_kernel.h"

#define GBSIM_EXPORT __attribute__((visibility("default")))

extern const struct gbsim_kernel_entry *const __start_gbsim_kernels[] __attribute__((weak));
extern const struct gbsim_kernel_entry *const __stop_gbsim_kernels[] __attribute__((weak));

/* The kernels of this module: n pointers to their entries. */
GBSIM_EXPORT const struct gbsim_kernel_entry *const *gbsim_module_kernels(size_t *n) {
    *n = __start_gbsim_kernels ? (size_t)(__stop_gbsim_kernels - __start_gbsim_kernels) : 0;
    return __start_gbsim_kernels;
}

/* clock_khz: the card's clock, what clock64() counts at. */
GBSIM_EXPORT int gbsim_module_launch(dim3 grid, dim3 block, size_t shmem, int order, uint64_t seed,
                                     long clock_khz, void (*body)(void *), void *args) {
    emu_clock_khz = clock_khz > 0 ? clock_khz : 1000000;
    return emu_launch(grid, block, shmem, (enum emu_order)order, seed, body, args);
}

GBSIM_EXPORT int gbsim_module_failure(void) {
    return (int)emu_last_failure();
}
