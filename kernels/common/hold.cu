/* hold.cu — hold a stream while the host enqueues the work it is about to time.
 *
 * Timing a run between two events on an idle stream also times the host: the start event fires
 * at once, then the device waits for each launch the host is still making (and for a library's
 * set-up inside run). For a 10 µs kernel that is most of the sample. So before the start event
 * the backend enqueues this one-thread kernel, which spins until the host writes its release
 * flag (host-mapped memory): the start event, the runs and the stop event queue up behind it,
 * and when the host releases it they execute back to back, as a device would run them. The same
 * technique as nvbench's blocking kernel. A timeout (in clock cycles) ends the spin if the host
 * never releases it, e.g. because something in run waited for the device; the kernel then says
 * so in its second flag, and that sample includes the host's time.
 */
#include "kernels/common/cuda_impl.h"
#include "kernels/common/hold.cuh"

int gb_hold_kernels(const struct gb_kernel_ref **refs) {
    static const struct gb_kernel_ref k[] = {{(const void *)gb_hold_kernel, "gb_hold_kernel"}};
    *refs = k;
    return (int)(sizeof k / sizeof k[0]);
}

cudaError_t gb_hold(cudaStream_t stream, const int *release, int *timed_out, long long timeout) {
    gb_hold_kernel<<<1, 1, 0, stream>>>(release, timed_out, timeout);
    return cudaGetLastError();
}
