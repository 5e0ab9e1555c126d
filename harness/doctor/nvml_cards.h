/* nvml_cards.h — the NVIDIA cards the driver itself sees, through its NVML, for `gpubench doctor`
 * when the CUDA runtime cannot start and so names no device (cudaGetDeviceCount:
 * cudaErrorInsufficientDriver when the driver is older than the runtime — a K40m on its last
 * driver, R470 = CUDA 11.4, under a CUDA 13 build). NVML ships with the driver, not the toolkit:
 * it answers whatever runtime the binary carries. Opened through telemetry's NVML loader
 * (harness/telemetry/nvml.h), the one gpubench has. */
#ifndef GPUBENCH_DOCTOR_NVML_CARDS_H
#define GPUBENCH_DOCTOR_NVML_CARDS_H

#include <stddef.h>

#include "harness/doctor/probe.h"

struct doctor_nvml_card {
    char name[96];          /* nvmlDeviceGetName */
    int cc_major, cc_minor; /* nvmlDeviceGetCudaComputeCapability */
    size_t mem;             /* nvmlDeviceGetMemoryInfo total, bytes; 0 = unknown */
    char error[160];        /* why the card could not be asked its compute capability; "" */
};

struct doctor_nvml {
    int ok;          /* 1: NVML started and counted the cards */
    char why[256];   /* why not ("NVML not available: …"); "" when ok */
    char driver[32]; /* nvmlSystemGetDriverVersion "470.256.02"; "" when unknown */
    int driver_cuda; /* nvmlSystemGetCudaDriverVersion (11040 = 11.4); 0 when unknown */
    int count;       /* cards the driver reports (at most DOCTOR_MAX_GPUS are described) */
    struct doctor_nvml_card card[DOCTOR_MAX_GPUS];
};

/* Ask the driver's NVML for its cards. Never fails: what cannot be asked is recorded in `why` or
 * a card's `error`, by NVML's error name. */
void doctor_nvml_cards(struct doctor_nvml *out);

#endif
