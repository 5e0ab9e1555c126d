/* gpu_props.h — what we know about one CUDA device, as plain data.
 *
 * Filled from the CUDA runtime by gpu_query (harness/run/backend_cuda.c, CUDA builds only) or by
 * hand (tests, `gpubench doctor --assume`), so that every decision made from it — peaks, tags,
 * doctor verdicts — is a pure function testable without a GPU.
 */
#ifndef GPUBENCH_GPU_PROPS_H
#define GPUBENCH_GPU_PROPS_H

#include <stddef.h>

#include "harness/core/dtype.h"

struct gpu_props {
    int ordinal;
    char name[128];
    int cc_major, cc_minor;
    int sm_count;
    int core_clock_khz;   /* cudaDevAttrClockRate */
    int mem_clock_khz;    /* cudaDevAttrMemoryClockRate */
    int mem_bus_bits;     /* cudaDevAttrGlobalMemoryBusWidth */
    size_t global_mem;    /* bytes */
    size_t l2_bytes;      /* cudaDeviceProp.l2CacheSize: the last-level cache */
    int ecc;              /* 1 when ECC is on */
    int kernel_timeout;   /* 1 when a display watchdog limits kernel run time */
    int integrated;
    char pci_bus_id[32];  /* "0000:3b:00.0" */
    int driver_version;   /* cudaDriverGetVersion: 12080 = 12.8; 0 = no driver */
    int runtime_version;  /* cudaRuntimeGetVersion */
};

/* Query device `ordinal` into *p. Returns 0, or -1 with "cudaErrorName: text" in err.
 * Defined only in CUDA builds (harness/run/backend_cuda.c). */
int gpu_query(int ordinal, struct gpu_props *p, char *err, size_t errlen);

/* FP32 cores per SM for compute capability major.minor (Fermi 2.0 … Blackwell 12.x); 0 when
 * the architecture is unknown. */
int gpu_cores_per_sm(int cc_major, int cc_minor);

/* Peak FP32 GFLOP/s: SMs × cores per SM × clock × 2 (FMA). 0 when unknown. */
double gpu_peak_gflops(const struct gpu_props *p);

/* Peak GFLOP/s of precision tier t: FP32's times the architecture's ratio for the tier (FP64
 * from 1/2 to 1/64, with the GeForce caps of GF100/GK110; FP16 and BF16 the tensor-core rate with
 * FP32 accumulation where there are tensor cores, half2 arithmetic otherwise; TF32 the tensor
 * rate from 8.0). 0 when unknown or when the card has no such unit. Sources in gpu_peak.c. */
double gpu_peak_tier_gflops(const struct gpu_props *p, enum dtype t);

/* Peak memory GB/s: 2 (DDR) × memory clock × bus width / 8. 0 when unknown. */
double gpu_peak_gbps(const struct gpu_props *p);

/* --- tags: the strings a result row carries (harness/gpuinfo/gpu_tag.c) ------------------------ */

/* "3.5" for compute capability 3.5. */
void gpu_cc_string(int cc_major, int cc_minor, char *out, size_t outlen);

/* A CUDA version as cudaRuntimeGetVersion / cudaDriverGetVersion encode it (12080) as "12.8";
 * 0 (no driver) as "none". */
void gpu_cuda_version_string(int version, char *out, size_t outlen);

/* The kernel module version ("570.86.15") from the text of /proc/driver/nvidia/version ("NVRM
 * version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  Fri Jan …"). Returns 0, or -1 (and an
 * empty out) when the text holds none. */
int gpu_parse_nvrm_version(const char *text, char *out, size_t outlen);

/* The `driver` column: "570.86.15 (CUDA 12.8)" when the module version is known (may be NULL
 * or empty), "CUDA 12.8" otherwise. */
void gpu_driver_string(const char *module_version, int driver_version, char *out, size_t outlen);

/* Split a cuDNN version number as cudnnGetVersion / CUDNN_VERSION give it: 1000·major +
 * 100·minor + patch up to cuDNN 8 (7605 = 7.6.5), 10000·major + 100·minor + patch from cuDNN 9
 * (91900 = 9.19.0). */
void gpu_cudnn_version_split(long version, int *major, int *minor, int *patch);

/* The `blas_lib` column of a CUDA row: "cuBLAS 13.1.0 (default math)", or with `emulation_env`
 * (the environment turns on cuBLAS's FP32/FP64 emulation, so those tiers run in pedantic math:
 * kernels/common/cublas_math.h) "cuBLAS 13.1.0 (emulation variables set: math per row)"; "none
 * (built without cuBLAS)" when major is 0. A row's note names its own math mode. */
void gpu_cublas_lib_string(int major, int minor, int patch, int emulation_env, char *out,
                           size_t outlen);

/* The `dnn_lib` column: "cuDNN 9.19.0 (built 9.19.0)" from the loaded and compiled-in version
 * numbers; "none (built without cuDNN)" when built is 0. */
void gpu_cudnn_lib_string(long loaded, long built, char *out, size_t outlen);

/* The device's `extra` provenance (machine facts, said once per run): "sm=15 clk=745MHz
 * memclk=3004MHz bus=384b mem=11.2GiB ecc=on pci=0000:82:00.0 watchdog=no bind=0-9" (`binding`
 * NULL or empty: "bind=none"), followed by its gpu_row_qualifiers. */
void gpu_extra_string(const struct gpu_props *p, const char *binding, char *out, size_t outlen);

/* What qualifies every row's numbers on the device named `name`, for each row's note: "simulated
 * device: times are CPU-emulation times" (device_is_simulated, harness/core/device.h), "a MIG
 * slice: the memory peak and the telemetry are the whole GPU's"; "" for neither. */
void gpu_row_qualifiers(const char *name, char *out, size_t outlen);

#endif
