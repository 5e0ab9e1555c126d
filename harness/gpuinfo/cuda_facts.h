/* cuda_facts.h — what NVIDIA's toolkits, drivers and cuDNN support, as const tables.
 *
 * Which toolkit added and dropped each GPU architecture, the minimum Linux driver of each CUDA
 * runtime, the last driver branch of each architecture, and which cuDNN versions support which
 * architectures. Every fact carries its source in a comment in cuda_facts.c. Pure C, no CUDA
 * headers: the doctor verdicts and the error explanations are built on these in every build.
 *
 * Versions are encoded the way cudaRuntimeGetVersion and cudaDriverGetVersion encode them:
 * 1000 * major + 10 * minor (12080 = 12.8). Compute capabilities as "sm" numbers: 10 * major +
 * minor (35 = 3.5, 120 = 12.0). Linux driver versions stay dotted strings ("470.82.01").
 */
#ifndef GPUBENCH_CUDA_FACTS_H
#define GPUBENCH_CUDA_FACTS_H

#include <stddef.h>

#define CUDA_VER(major, minor) ((major)*1000 + (minor)*10)

/* One GPU architecture (one compute capability) as the toolkits and drivers see it. */
struct cuda_arch_fact {
    int sm;                  /* 35 = compute capability 3.5 */
    const char *family;      /* "Kepler" */
    const char *examples;    /* a few products, for messages */
    int first_cuda;          /* first toolkit that can compile for it */
    int last_cuda;           /* last toolkit that can compile for it; 0 = current toolkits do */
    const char *last_driver; /* last Linux driver branch that supports it ("470"); NULL = current */
    const char
        *last_driver_min; /* a driver of that branch, to ask what CUDA it runs ("470.42.01") */
};

/* The fact row of architecture `sm` (35 for 3.5), or NULL when the table does not know it. */
const struct cuda_arch_fact *cuda_facts_arch(int sm);

/* The architecture of compute capability `sm` (13 = 1.3), for every number NVIDIA has used from
 * 1.0 to 12.x, whether or not the table has a row for it: "Tesla architecture" (1.x: G80 to
 * GT200, not the Tesla product line), "Fermi" (2.x), "Kepler" (3.x), "Maxwell" (5.x), "Pascal"
 * (6.x), "Volta" (7.0, 7.2), "Turing" (7.5), "Ampere" (8.0 to 8.7), "Ada Lovelace" (8.9),
 * "Hopper" (9.0), "Blackwell" (10.x to 12.x); the table's own name where it has a row (8.8:
 * "8.x"). NULL for numbers no NVIDIA GPU has had (4.x, 13.x and above, 0.x). */
const char *cuda_facts_family(int sm);

/* The whole architecture table, oldest first; *n receives its length. */
const struct cuda_arch_fact *cuda_facts_arch_table(size_t *n);

/* The oldest architecture toolkit `cuda` can compile for (20 for CUDA 8, 75 for CUDA 13), from
 * the table. 0 when the toolkit is older than the table. */
int cuda_facts_oldest_sm(int cuda);

/* 1 when toolkit `cuda` can compile SASS or PTX for `sm` (first_cuda <= cuda <= last_cuda),
 * 0 otherwise or when `sm` is unknown. */
int cuda_facts_toolkit_supports(int cuda, int sm);

/* The newest toolkit that can compile for `sm` (0 when current toolkits still can, -1 when
 * unknown). */
int cuda_facts_last_toolkit(int sm);

/* The newest GCC major toolkit `cuda`'s nvcc accepts as host compiler (11 for CUDA 11.8); 0 when
 * the toolkit is older than the table (before CUDA 8.0). */
int cuda_facts_host_gcc(int cuda);

/* The complete configure command that builds gpubench with toolkit `cuda` (installed where
 * NVIDIA's installer puts it, /usr/local/cuda-X.Y) for CMAKE_CUDA_ARCHITECTURES `archs`, with a
 * host compiler that toolkit accepts, in a build folder of its own:
 *   cmake -S . -B build-cuda11.8 -DCMAKE_CUDA_COMPILER=/usr/local/cuda-11.8/bin/nvcc
 *         -DCMAKE_CUDA_HOST_COMPILER=g++-11 -DCMAKE_CUDA_ARCHITECTURES=35
 * (one line). Returns out. */
char *cuda_facts_rebuild_cmd(int cuda, const char *archs, char *out, size_t outlen);

/* Minimum Linux driver (dotted string) for the CUDA runtime `cuda`, from the GA rows of the
 * release notes' "CUDA Toolkit and Corresponding Driver Versions" table. A version newer than
 * the table gets the newest row of its major (the real minimum is then at least that); NULL
 * when older than the table (before CUDA 7.0). */
const char *cuda_facts_min_driver(int cuda);

/* Minimum Linux driver for CUDA minor version compatibility of `cuda`'s major version (a 12.8
 * runtime runs on any 12.x-era driver >= 525.60.13, without PTX JIT of newer PTX), or NULL
 * before CUDA 11, which had no minor version compatibility. */
const char *cuda_facts_compat_driver(int cuda);

/* The newest CUDA version driver `driver` fully supports (including JIT of that version's PTX):
 * the newest table row whose minimum it meets. 0 when older than every row or unparsable. */
int cuda_facts_driver_cuda(const char *driver);

/* 1 when a CUDA runtime `cuda` can start on driver `driver` (fully, or through minor version
 * compatibility), 0 when cudaErrorInsufficientDriver is to be expected. */
int cuda_facts_runtime_runs(int cuda, const char *driver);

/* Compare dotted driver versions numerically ("470.82" < "470.82.01" < "525.60.13"): <0, 0, >0.
 * Missing components count as 0. */
int cuda_facts_driver_cmp(const char *a, const char *b);

/* 1 when `s` is a dotted driver version: 1 to 3 numeric components, first in 100..9999. */
int cuda_facts_driver_valid(const char *s);

/* Format `cuda` (12080) as "12.8" into out. Returns out. */
char *cuda_facts_ver_str(int cuda, char *out, size_t outlen);

/* cuDNN and one architecture: does cuDNN `cudnn_major`.`cudnn_minor`, built for CUDA major
 * `cuda_major`, support `sm`? Returns 1 (yes), 0 (no) or -1 (the support matrices we could verify
 * do not say), and writes the reason into `why` ("cuDNN 9 for CUDA 13 supports sm_75 (Turing)
 * and newer, not sm_35 (last cuDNN for it: 8.7 for CUDA 11.x)"). */
int cuda_facts_cudnn_supports(int cudnn_major, int cudnn_minor, int cuda_major, int sm, char *why,
                              size_t whylen);

/* The last cuDNN release verified to support `sm`, as "8.7 for CUDA 11.x"; NULL when current
 * cuDNN still does or cuDNN never did (Fermi). */
const char *cuda_facts_cudnn_last(int sm);

#endif
