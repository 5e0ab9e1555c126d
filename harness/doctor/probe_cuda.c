/* probe_cuda.c — the doctor probe of a CUDA build: driver and runtime versions, devices
 * (through gpu_query, harness/run/backend_cuda.c), cuBLAS and cuDNN as compiled and as loaded.
 * Compiled only in CUDA builds; probe_none.c is the CPU-only counterpart. Nothing here
 * decides anything: it only asks, and records errors by name. */
#include "harness/doctor/probe.h"

#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>
#ifdef GPUBENCH_HAVE_CUBLAS
#include <cublas_v2.h> /* not cublas_api.h: CUDA 11 refuses it without CUBLASAPI */
#endif
#ifdef GPUBENCH_HAVE_CUDNN
#include <cudnn.h>
#endif

/* cudnnGetVersion encodes 9.1.0 as 90100 (cuDNN 9: major*10000) but 8.9.7 as 8907 (cuDNN <= 8:
 * major*1000), as CUDNN_VERSION does in each release's header. */
static struct doctor_libver cudnn_decode(long v) {
    struct doctor_libver l;
    if (v >= 10000) {
        l.major = (int)(v / 10000);
        l.minor = (int)(v % 10000 / 100);
        l.patch = (int)(v % 100);
    } else {
        l.major = (int)(v / 1000);
        l.minor = (int)(v % 1000 / 100);
        l.patch = (int)(v % 100);
    }
    return l;
}

static void probe_libs(struct doctor_probe *p) {
    p->cublas_compiled.major = p->cublas_loaded.major = -1;
    p->cudnn_compiled.major = p->cudnn_loaded.major = -1;
#ifdef GPUBENCH_HAVE_CUBLAS
#ifdef CUBLAS_VER_MAJOR /* cublas_api.h (through cublas_v2.h) defines it from CUDA 10.1 on */
    p->cublas_compiled.major = CUBLAS_VER_MAJOR;
    p->cublas_compiled.minor = CUBLAS_VER_MINOR;
    p->cublas_compiled.patch = CUBLAS_VER_PATCH;
#endif
    /* cublasGetProperty needs no handle, hence no GPU (cublasGetVersion needs a handle). */
    {
        int ma, mi, pa;
        if (cublasGetProperty(MAJOR_VERSION, &ma) == CUBLAS_STATUS_SUCCESS &&
            cublasGetProperty(MINOR_VERSION, &mi) == CUBLAS_STATUS_SUCCESS &&
            cublasGetProperty(PATCH_LEVEL, &pa) == CUBLAS_STATUS_SUCCESS) {
            p->cublas_loaded.major = ma;
            p->cublas_loaded.minor = mi;
            p->cublas_loaded.patch = pa;
        }
    }
#endif
#ifdef GPUBENCH_HAVE_CUDNN
    p->cudnn_compiled = cudnn_decode(CUDNN_VERSION);
    p->cudnn_loaded = cudnn_decode((long)cudnnGetVersion());
#endif
}

void doctor_probe_run(struct doctor_probe *p) {
    cudaError_t e;
    int n = 0;

    memset(p, 0, sizeof *p);
    p->cuda_build = 1;
    probe_libs(p);
    if (cudaRuntimeGetVersion(&p->runtime_version) != cudaSuccess)
        p->runtime_version = 0;
    /* 0 when no driver is installed: that, not an error code, tells "no driver" apart. */
    if (cudaDriverGetVersion(&p->driver_version) != cudaSuccess)
        p->driver_version = 0;
    e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        snprintf(p->count_err, sizeof p->count_err, "%s", cudaGetErrorName(e));
        (void)cudaGetLastError(); /* clear it: the doctor goes on with what it knows */
        return;
    }
    p->ngpu = n;
    for (int i = 0; i < n && i < DOCTOR_MAX_GPUS; i++)
        if (gpu_query(i, &p->gpu[i], p->gpu_err[i], sizeof p->gpu_err[i]) != 0 && !p->gpu_err[i][0])
            snprintf(p->gpu_err[i], sizeof p->gpu_err[i], "gpu_query failed");
}
