/* telemetry.h — what a device was doing while a row was timed: clocks, power, energy,
 * temperature, throttling, PCIe link, ECC and persistence of a GPU (NVML, nvml.h), and the
 * package energy of the CPU (powercap, rapl.h). The runner brackets a row's timed repetitions
 * with tel_row_begin / tel_row_end; the result is a struct row_telemetry (harness/core/result.h)
 * whose unknown figures are left 0, which the writers turn into empty cells.
 *
 * On a GPU a sampling thread reads power, throttle reasons, clocks and temperature every
 * TEL_PERIOD_MS while the row is timed (it sleeps between reads; NVML answers from the driver's
 * own counters and never touches the GPU's queue). On the CPU one sampling thread, started at the
 * first CPU row and kept for the run, reads the package energy counters every rapl.period_s (a
 * quarter of their wrap time, at most 1 s: rapl.h) while a row is timed and adds the deltas
 * (rapl_acc), so a row of any length survives any number of wraps. It sleeps between reads, and a
 * read of a sysfs file costs microseconds, so it does not disturb CPU rows.
 */
#ifndef GPUBENCH_TELEMETRY_H
#define GPUBENCH_TELEMETRY_H

#include <pthread.h>
#include <stddef.h>

#include "harness/core/device.h"
#include "harness/core/result.h"
#include "harness/telemetry/nvml.h"
#include "harness/telemetry/rapl.h"

enum { TEL_PERIOD_MS = 20, TEL_PROCS_EVERY = 5 /* process-list reads: every 5th sample */ };

/* NVML's longest utilisation sample period (nvmlDeviceGetUtilizationRates: 1/6 s to 1 s, by
 * product): our work must have been off the card this long for a reading to be a neighbour's. */
#define TEL_UTIL_WINDOW_S 1.0

/* The latest figures of the sampling thread (for a per-repetition trace); 0 when unknown. */
struct tel_latest {
    double sm_mhz, power_w;
};

/* One row's measurement in progress. */
struct tel_row {
    int active;  /* 0: telemetry off, or nothing readable on this device */
    int gpu;     /* NVML (1) or RAPL (0) */
    double t0_s; /* CLOCK_MONOTONIC at begin */
    struct rapl_acc racc; /* the CPU counters read by read since begin (under the CPU
                             sampler's lock while the row is timed) */
    int r_failed;         /* a read failed: the row's energy is unknown */
    double r_next_s;      /* when the CPU sampler reads next */
    gb_nvml_dev nd;
    unsigned long long e0_mj;
    int have_e0;
    struct row_telemetry out; /* start values as they are read */
    /* the sampling thread's state; read by the row's thread only after the join */
    pthread_t thread;
    int thread_started;
    int stop; /* __atomic builtins (GCC 4.7+): <stdatomic.h> is not in CUDA 8's GCC 4.8 */
    double last_t_s, last_w;     /* previous power sample */
    double w_seconds, w_span_s;  /* ∫ power dt and the time it covers */
    int n_power;
    unsigned long long reasons;
    int reasons_read;
    int unnamed;                 /* a process read counted others it could not name */
    pthread_mutex_t latest_lock; /* guards latest_* between the sampler and the row's thread */
    double latest_mhz, latest_w;
};

/* Once per run, before its rows: enable or disable telemetry (--no-telemetry) and find the
 * powercap counters; NVML is loaded at the first GPU row (a note on stderr when it cannot be).
 * Reasons why a source is missing are kept for tel_why. */
void tel_init(int enabled);

/* Why GPU (gpu = 1) or CPU telemetry is unavailable, or "" when it is available. */
const char *tel_why(int gpu);

/* A GPU row's first work on `dev` is about to start (before its inputs are uploaded) / its last
 * has ended (after its batches and any peak measured beside it). Between the two the card's
 * utilisation is ours; before the start, if our last work ended TEL_UTIL_WINDOW_S ago or more
 * (or never ran), the utilisation is read as evidence of a neighbour (row_shared). No-ops off a
 * GPU or without NVML. */
void tel_gpu_row_start(const struct device *dev);
void tel_gpu_row_done(const struct device *dev);

/* Our own work was on every card until `mono_s` (CLOCK_MONOTONIC seconds): the previous run of
 * `--runs N`, another process of ours. */
void tel_gpu_work_ended(double mono_s);

/* Start measuring a row on `dev` (after warm-up, just before its first timed repetition). */
void tel_row_begin(struct tel_row *t, const struct device *dev);

/* The sampling thread's latest figures (for the samples file). */
struct tel_latest tel_row_latest(struct tel_row *t);

/* Stop measuring (right after the last timed repetition) and fill *out, all but energy_j, which
 * needs the row's median (tel_energy). Safe to call after a begin that found nothing. */
void tel_row_end(struct tel_row *t, struct row_telemetry *out);

/* The energy of one repetition from the average power and the median time: J, 0 if unknown. */
double tel_energy(const struct row_telemetry *t, double median_ms);

/* NVML reason bits as words joined by '+' in bit order ("sw_power_cap+hw_thermal": no comma, so
 * no quotes in a CSV cell), "none"
 * for no bits. With throttling_only, the bits that lower clocks under load only (idle,
 * application clocks and display clocks left out). */
void tel_reason_words(unsigned long long bits, int throttling_only, char *out, size_t len);

/* The bits that mean the clocks were held down while working. */
unsigned long long tel_throttling_bits(unsigned long long bits);

/* A PCIe link's bandwidth per direction in GB/s (after line coding), 0 when gen or width is
 * unknown: gen1 0.25, gen2 0.5, gen3 0.985, gen4 1.969, gen5 3.938, gen6 7.563 GB/s per lane. */
double tel_pcie_gbps(double gen, double width);

/* The row's note text from its telemetry: "throttled while timed (sw_power_cap+hw_thermal)",
 * "shared GPU: 1 other process (pid 1234) held a context while timed",
 * and for a host↔device copy row (host_transfer) with a known rate `gbps`, the link and the
 * fraction of it reached. "" when there is nothing to say. */
void tel_note(const struct row_telemetry *t, int host_transfer, double gbps, char *out,
              size_t len);

#endif
