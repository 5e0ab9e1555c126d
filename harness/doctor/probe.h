/* probe.h — what `gpubench doctor` asks the CUDA runtime and libraries, as plain data.
 *
 * Two backends with one function: harness/doctor/probe_cuda.c in CUDA builds (CUDA runtime,
 * cuBLAS, cuDNN), harness/doctor/probe_none.c in CPU-only builds. Everything after the probe —
 * verdicts, text, JSON — is pure C in harness/doctor/doctor.c and harness/doctor/verdict.c. */
#ifndef GPUBENCH_DOCTOR_PROBE_H
#define GPUBENCH_DOCTOR_PROBE_H

#include "harness/gpuinfo/gpu_props.h"

enum { DOCTOR_MAX_GPUS = 16 };

/* A library version; major < 0 when unknown or absent. */
struct doctor_libver {
    int major, minor, patch;
};

struct doctor_probe {
    int cuda_build;      /* 1 in CUDA builds */
    int runtime_version; /* cudaRuntimeGetVersion (13000 = 13.0); 0 when unknown */
    int driver_version;  /* cudaDriverGetVersion; 0 = no driver loaded */
    char count_err[64];  /* cudaGetDeviceCount's error name; "" on success */
    int ngpu;            /* devices reported (at most DOCTOR_MAX_GPUS are queried) */
    struct gpu_props gpu[DOCTOR_MAX_GPUS];
    char gpu_err[DOCTOR_MAX_GPUS][160]; /* gpu_query's error for device i; "" when queried */
    struct doctor_libver cublas_compiled, cublas_loaded;
    struct doctor_libver cudnn_compiled, cudnn_loaded;
};

/* Fill *p. Never fails: what cannot be asked stays 0 / unknown, and errors are recorded by name. */
void doctor_probe_run(struct doctor_probe *p);

#endif
