/* report.h — what `gpubench doctor` found, as plain data, and its two writers (text for
 * people, JSON for scripts). Filled by harness/doctor/doctor.c; the writers do no probing. */
#ifndef GPUBENCH_DOCTOR_REPORT_H
#define GPUBENCH_DOCTOR_REPORT_H

#include <stdio.h>

#include "harness/doctor/probe.h"
#include "harness/doctor/verdict.h"

struct doctor_gpu {
    int ordinal; /* CUDA device number (NVML's index with via_nvml); -1 for an assumed device */
    int via_nvml; /* seen by the driver's NVML only: the CUDA runtime cannot start */
    struct dv_device dev;
    struct dv_result res;
    char pci[32];    /* "0000:3b:00.0"; "" when unknown */
    char numa[64];   /* nearest NUMA node(s) "0"; "" when unknown */
    char cores[128]; /* PUs next to the GPU "0-9,20-29"; "" when unknown */
    char error[160]; /* the device could not be queried: no verdict */
};

struct doctor_report {
    int assumed;       /* 1: devices come from --assume, the machine was not probed */
    int assumed_build; /* 1: the build comes from --assume-build */
    /* machine */
    int driver_module;        /* /proc/driver/nvidia/version exists: the kernel module is loaded */
    char driver[32];          /* Linux driver version "570.86.15"; "" when unknown */
    int driver_cuda;          /* cudaDriverGetVersion; 0 = no driver */
    int runtime_cuda;         /* CUDA runtime this binary uses (cudaRuntimeGetVersion or build) */
    char count_err[64];       /* cudaGetDeviceCount's error name; "" */
    char no_gpu_why[DV_TEXT]; /* why no GPU was found (cuda_explain); "" */
    char nvml_why[256];       /* why the driver's NVML named no card then; "" */
    char cublas_compiled[24], cublas_loaded[24]; /* "13.1.0"; "" = none/unknown */
    char cudnn_compiled[24], cudnn_loaded[24];
    /* build */
    char build_archs_cmake[256]; /* as CMake had it: "75-real;…;120" */
    struct dv_build build;
    char openblas[320]; /* "0.3.21, core Haswell (OpenBLAS's own pick), 2 threads (config …)" */
    char openblas_verdict[256]; /* "ok: no trial needed: …" or why its kernels are old */
    char openblas_fix[160];     /* what to do about it; "" when nothing */
    char topology[192]; /* one line from hwloc */
    int ngpu;
    struct doctor_gpu gpu[DOCTOR_MAX_GPUS];
};

/* Number of GPUs whose verdict is usable or usable via PTX JIT. */
int doctor_report_usable(const struct doctor_report *r);

/* Human-readable report. */
void doctor_report_text(const struct doctor_report *r, FILE *f);

/* The same as one JSON object. */
void doctor_report_json(const struct doctor_report *r, FILE *f);

#endif
