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
    /* The run's devices (the plan's, harness/run/plan.h): their machine facts (`extra`: CPU
     * topology and how each peak was obtained; a GPU's clocks, bus, memory, ECC, PCI, binding)
     * are written once per run, not in every row's note. NULL, 0 where there is no run. */
    const struct device *const *devs;
    int ndevs;
};

/* What the device was doing while the row's repetitions were timed (harness/telemetry/): NVML
 * on a GPU, powercap (RAPL) on the CPU. A number is known when > 0 and written empty otherwise,
 * so a zeroed struct is "nothing known" (never a 0 in a file). */
struct row_telemetry {
    double sm_mhz_start, sm_mhz_end, sm_mhz_max;    /* SM clock, MHz */
    double mem_mhz_start, mem_mhz_end, mem_mhz_max; /* memory clock, MHz */
    double power_avg_w, power_peak_w;               /* over the timed repetitions, W */
    double energy_j;                                /* per repetition: power_avg_w × median, J */
    double temp_c;                                  /* at the end of timing, °C */
    double pcie_gen, pcie_width;                    /* the link at the end of timing */
    double pcie_gen_max, pcie_width_max;            /* what the card and slot could do */
    int ecc, persistence;                           /* 0 unknown, 1 off, 2 on */
    int throttle_known;                             /* 1 when `throttle` was read */
    unsigned long long throttle;                    /* NVML clock-event reason bits seen */
    char throttle_words[96];                        /* the same as words: "sw_power_cap+…" */
    /* Whether the card was shared while the row was timed (row_shared below):
     * shared_known 1 when the process list or an idle-time utilisation was read. */
    int shared_known;
    int shared_procs;          /* other processes seen with a context on the card */
    int shared_pids_named;     /* shared_pid holds the first of them (else their pids are not ours
                                  to read: another PID namespace, or more than NVML listed) */
    unsigned shared_pid[4];
    int shared_busy_read;      /* 1 when shared_busy_pct was read */
    int shared_busy_pct;       /* the card's utilisation while none of our work had run on it
                                  for a whole NVML sample period, % */
};

/* Whether the card was shared while the row was timed: 1 another process held a context on it or
 * it was busy while none of our work ran on it (harness/telemetry/telemetry.c says how each is
 * read), 0 neither (and at least one was read), -1 unknown (no NVML, or it showed neither). */
static inline int row_shared(const struct row_telemetry *t) {
    if (t->shared_procs > 0 || (t->shared_busy_read && t->shared_busy_pct > 0))
        return 1;
    return t->shared_known ? 0 : -1;
}

/* A row whose cpu_wait_pct (struct result) is above this share of its timed time ran on a shared
 * CPU: its note says so (harness/telemetry/cpu_wait.c), the run's footer lists it
 * (harness/run/sinks.c), and `gpubench compare` gives it no SLOWER, FASTER or SAME
 * (harness/compare/regress.c). docs/measurement.md, "A shared CPU", says why 10%. */
#define CPU_WAIT_SHARED_PCT 10.0

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
    long calls_per_sample; /* runs timed back to back in each timed sample, whose time (and
                              samples[]) is per run: 1, or more where one run lasts under 100×
                              the device's timer resolution (harness/run/runner.c) */
    double gflops, gbps, peak_pct; /* <0: not applicable */
    const char *no_peak;   /* a timed row without peak_pct: why, for the table's legend ("the
                              working set fits in the last-level cache …"); else NULL */
    int cached;            /* 1: the working set was served by the last-level cache, and the rate
                              shows it (runner.c's cache_note): a cache rate, not memory's */
    int below_timer_res;   /* 1: its samples are below the timer's resolution (marks.h); batching
                              (calls_per_sample) keeps a timed row above it */
    double max_rel_err;    /* <0: not verified */
    enum status status;
    char note[1024];
    const double *samples; /* st.n timed samples, ms */
    const float *trace_mhz, *trace_w; /* per sample: SM clock and power then (0 unknown), or NULL */
    struct row_telemetry tel;
    /* Whether the CPU was shared while the row was timed (harness/telemetry/cpu_wait.h): the share
     * of the timed wall time its threads waited for a core, and the runnable tasks of other
     * processes seen then. */
    double cpu_wait_pct; /* <0 unknown */
    int cpu_others;      /* <0 unknown */
};

#endif
