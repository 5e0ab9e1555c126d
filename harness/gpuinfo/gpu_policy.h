/* gpu_policy.h — the decisions the CUDA backend and the library implementations make, as pure
 * functions of plain data: "no kernel image" notes, whether cuDNN supports a card, and which
 * cuDNN convolution algorithm to use. No CUDA headers: built and tested in every build. (Error
 * name → row status is kernels/common/cuda_errors.h.)
 */
#ifndef GPUBENCH_GPU_POLICY_H
#define GPUBENCH_GPU_POLICY_H

#include <stddef.h>

#include "harness/core/workload.h"
#include "harness/gpuinfo/gpu_props.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CMake's architecture list as the build manifest holds it ("75-real;80-real;120") as plain
 * numbers ("75 80 120"; an arch-specific "90a-real" stays "90a") into out. */
void gpu_archs_plain(const char *cmake_archs, char *out, size_t outlen);

/* The note of a row whose kernel has no image for this device: "no kernel image for sm_35 in
 * this build (built for 75 80 90 100 120); rebuild with CUDA 11.8 and
 * -DCMAKE_CUDA_ARCHITECTURES=35". The toolkit named is the newest one that still compiles for the
 * device (harness/gpuinfo/cuda_facts.h); none is named when the build's own toolkit (`build_cuda`,
 * "13.0") can. Fermi 2.1 is built as 20 (21 is not a valid CMake value). */
/* The newest architecture of a CMake list ("75-real;90;75-virtual") whose PTX a device of
 * compute capability sm (10·major + minor) can JIT: an element without "-real", not above sm;
 * 0 when there is none (then with CUDA_FORCE_PTX_JIT=1 no kernel of this build loads there). */
int gpu_archs_ptx_for(const char *cmake_archs, int sm);

void gpu_no_image_note(int cc_major, int cc_minor, const char *cmake_archs, const char *build_cuda,
                       char *out, size_t outlen);

/* Does cuDNN as loaded (`cudnn_version` as cudnnGetVersion returns it, built for the CUDA runtime
 * `cudnn_cudart`, as cudnnGetCudartVersion returns it, 0 if unknown) support a device of compute
 * capability cc_major.cc_minor? 1 yes, 0 no ("cuDNN 9.19 does not support sm_35 (Tesla K40m):
 * …" in note), -1 the support matrices gpubench knows do not say ("cuDNN 9.19 support for
 * sm_103 is not known: …" in note). `name` may be NULL. */
int gpu_cudnn_support(int cc_major, int cc_minor, const char *name, long cudnn_version,
                      int cudnn_cudart, char *note, size_t notelen);

/* What a row that needs cuDNN does with that answer: ST_UNSUPPORTED (note as above) when cuDNN
 * is known not to support the device; ST_OK otherwise — unknown included, where trying is the
 * only way to find out (cuDNN then says NOT_SUPPORTED itself); note then says it was unknown. */
enum status gpu_cudnn_check(int cc_major, int cc_minor, const char *name, long cudnn_version,
                            int cudnn_cudart, char *note, size_t notelen);

/* One result of cudnnFind/GetConvolutionForwardAlgorithm, as plain data. */
struct gpu_algo_result {
    int algo;      /* cudnnConvolutionFwdAlgo_t value */
    int ok;        /* status == CUDNN_STATUS_SUCCESS */
    float ms;      /* measured time; negative when the result is a heuristic (no time) */
    size_t memory; /* workspace bytes the algorithm needs */
};

/* The index in r[0..n) of the algorithm to use: among the results that succeeded and need at
 * most `mem_limit` bytes of workspace, the fastest measured one (ties: the smaller workspace);
 * when none was measured, the first that fits (cuDNN lists heuristics best first). -1 when none
 * fits. */
int gpu_pick_algo(const struct gpu_algo_result *r, int n, size_t mem_limit);

/* Can a row that holds `held` bytes of device memory already have `bytes` more (buffer `what`)
 * on a card of `total` bytes, `usable` of them what it can give a process (total less what the
 * CUDA context takes; 0: unknown, taken as total), of which `free_b` are free? ST_OK;
 * ST_UNSUPPORTED when held + bytes exceeds `usable` (it can never fit: a fact about the card, so
 * a --sweep on a small card is not a failed run): "does not fit this card: needs at least N MiB
 * …; the card has M MiB, U MiB of it for a process"; ST_OOM when it does not fit now: "out of
 * device memory: what needs N MiB, F MiB free of M MiB". */
enum status gpu_memory_fit(size_t held, size_t bytes, size_t free_b, size_t usable, size_t total,
                           const char *what, char *note, size_t notelen);

/* Can a row whose whole device footprint is `footprint` bytes (`what`: what it counts) run on a
 * card of `total` bytes, `usable` of them what it can give a process (0: unknown, taken as
 * total)? ST_OK, or ST_UNSUPPORTED with a note giving both sizes: decided before the row
 * allocates anything (gb_row_footprint, kernels/common/cuda_impl.c). */
enum status gpu_footprint_fit(size_t footprint, size_t usable, size_t total, const char *what,
                              char *note, size_t notelen);

/* The workspace a cuDNN algorithm may use, given the device's free memory after the row's own
 * buffers: everything but a reserve of max(64 MiB, 10%) that the driver and cuDNN's own
 * allocations need (0 when free memory is below the reserve). */
size_t gpu_workspace_limit(size_t free_bytes);

/* "IMPLICIT_PRECOMP_GEMM" for CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM (1), and so on for
 * every forward algorithm cuDNN 7–9 define; "algo<N>" style text is never returned: "UNKNOWN"
 * for an unknown value. */
const char *gpu_cudnn_fwd_algo_name(int algo);

/* The `why` of a CUDA backend that found no device: one sentence from the error
 * cudaGetDeviceCount returned (NULL or "" when it returned success with 0 devices) and the
 * driver and runtime versions, worded by cuda_explain (harness/gpuinfo/cuda_explain.h). */
void gpu_no_device_reason(const char *err_name, int driver_version, int runtime_version, char *out,
                          size_t outlen);

#ifdef __cplusplus
}
#endif

#endif
