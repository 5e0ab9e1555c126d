/* result.h — one result row: what ran, where, how long, how fast, and whether it was right. */
#ifndef GPUBENCH_RESULT_H
#define GPUBENCH_RESULT_H

#include <stddef.h>

#include "harness/core/workload.h"
#include "harness/core/device.h"
#include "harness/core/stats.h"

/* Facts of the whole run, repeated on every row. */
struct run_info {
    char run_id[40];
    char utc[32];  /* 2026-11-21T21:27:50Z */
    char host[128];
    char slurm_job[32], slurm_task[16]; /* empty outside Slurm */
    int run; /* index of this run among those of one `gpubench --runs N` (0 when alone) */
};

struct result {
    const struct device *dev;
    const struct workload *w;
    const struct impl *im;
    enum dtype dtype;      /* the precision tier (CSV `dtype`) */
    char shape[256];       /* canonical */
    char shape_short[256]; /* for the terminal */
    double flops, bytes;
    struct stats st;       /* kernel-only times, ms */
    double e2e_median_ms;  /* transfers included; equals median on the CPU; <0 unknown */
    double batch_ms;       /* per run, in batches of back-to-back runs; <0 unknown */
    double gflops, gbps, peak_pct; /* <0: not applicable */
    double max_rel_err;    /* <0: not verified */
    enum status status;
    char note[1024];
    const double *samples; /* st.n timed samples, ms */
};

#endif
