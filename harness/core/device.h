/* device.h — a device of a run as plain data: what every result row says about where it ran
 * (provenance), and what an implementation may read about its device (ctx->dev). The backends
 * that find and time devices are harness/run/backend.h.
 */
#ifndef GPUBENCH_DEVICE_H
#define GPUBENCH_DEVICE_H

#include <string.h>

#include "harness/core/workload.h"

enum { DEVICE_MAX = 17, DEV_STR = 160 };

/* The simulated CUDA runtime of the tests (tests/sim/, gpubench-sim) names its devices
 * "simulated <card>": their times are CPU-emulation times, never measurements of the card, so
 * the rows say so and compare and merge refuse to combine them with rows of real runs. */
#define DEVICE_SIMULATED_PREFIX "simulated "
static inline int device_is_simulated(const char *name) {
    return name && strncmp(name, DEVICE_SIMULATED_PREFIX, sizeof DEVICE_SIMULATED_PREFIX - 1) == 0;
}

struct backend; /* harness/run/backend.h */

/* Everything a result row says about the device it ran on (provenance). */
struct device {
    char id[16];                /* "cpu", "cuda:0" */
    enum device_kind kind;
    int ordinal;                /* CUDA device number; 0 for the CPU */
    char name[DEV_STR];         /* "Intel Xeon …", "Tesla K40m" */
    char cc[8];                 /* "3.5"; empty for the CPU */
    char pci_bus_id[32];        /* "0000:3b:00.0" (NVML finds the GPU by it); empty for the CPU */
    char driver[32];            /* "570.86.15" style, empty for the CPU */
    char runtime[32];           /* CUDA runtime "12.8"; empty for the CPU */
    char blas_lib[256];         /* "OpenBLAS 0.3.21 … core=SkylakeX threads=2 (chosen by gpubench; …)" or "cuBLAS 13.0.0" */
    char blas_core_why[DEV_STR]; /* why OpenBLAS runs kernels older than the CPU's ("OpenBLAS's generic Prescott (SSE3) kernels on an AVX-512 CPU"); empty when its core fits */
    char dnn_lib[64];           /* "cuDNN 9.13.0 (built 9.13.0)" */
    int threads;                /* CPU threads used (CPU rows); 0 otherwise */
    double peak_gflops;         /* FP32 peak, 0 when unknown */
    /* Peak of each precision tier (FLOP/s / 1e9, 0 when unknown); [DT_F32] is peak_gflops. */
    double peak_tier_gflops[DT_COUNT];
    /* Why a tier has no peak (peak_tier_gflops 0), as static text for the rows' notes ("no
     * BF16 peak for this CPU: …"); NULL where nothing needs saying. */
    const char *peak_tier_why[DT_COUNT];
    char clock_why[96];         /* a known reason the rows' clock differs from the peak's ("the
                                   peak's clock is mocked …"); empty when none is known */
    double peak_gbps;           /* memory peak, 0 when unknown */
    size_t cache_bytes;         /* last-level cache (CPU: hwloc; GPU: L2), 0 when unknown */
    double timer_res_ms;        /* the timer's resolution (CPU: the host clock's smallest step,
                                   a read included); 0 when unknown: no row is batched */
    char cache_name[8];         /* its level: "L3", "L2" */
    char extra[640];            /* machine facts, said once per run (not in rows' notes):
                                   topology, peaks and how they were obtained, clocks, ECC,
                                   binding */
    size_t mem_bytes;           /* device (or host) memory */
    char hardware[768];         /* what tells this machine from another, key=value;… (the
                                   rows' `hardware` column; harness/run/hardware.h) */
    const struct backend *be;
};

struct device_list {
    int n;
    struct device d[DEVICE_MAX];
};

#endif
