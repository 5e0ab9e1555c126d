/* hold.cuh — the stream hold's kernel (hold.cu explains the hold). Device code only, in the C
 * subset of CUDA C like the workloads' kernels.cuh, so that the tests' simulated device
 * (tests/sim) runs this same source on its CPU emulation.
 */
#ifndef GPUBENCH_HOLD_CUH
#define GPUBENCH_HOLD_CUH

#include "kernels/common/kernel_common.cuh"

/* Spin until *release is nonzero, or `timeout` clock cycles have passed (then *timed_out = 1).
 * clock64 exists on every architecture from sm_20. volatile: re-read host memory each time. */
__global__ void gb_hold_kernel(const volatile int *release, volatile int *timed_out,
                               long long timeout) {
    long long t0 = clock64();
    while (*release == 0)
        if (clock64() - t0 > timeout) {
            *timed_out = 1;
            return;
        }
}
GB_SIM_KERNEL(gb_hold_kernel, const volatile int *, volatile int *, long long)

#endif
