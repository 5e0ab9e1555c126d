/* backend.h — the backends that find devices and time implementations on them.
 *
 * A backend (CPU, CUDA) is a const struct of function pointers: it appends the devices it finds
 * to a list, makes one current before its rows run, and times one call of an implementation's
 * `run` the way that device needs (host clock on the CPU, events on a CUDA stream).
 */
#ifndef GPUBENCH_BACKEND_H
#define GPUBENCH_BACKEND_H

#include <stddef.h>

#include "harness/core/device.h"

struct backend {
    const char *kind_name; /* "cpu", "cuda" */
    /* Append this backend's devices to `list`. Returns the number added; when none, writes one
     * plain sentence saying why into `why` (e.g. "no NVIDIA driver is loaded"). */
    int (*discover)(struct device_list *list, int threads, char *why, size_t whylen);
    /* Make `dev` current for the calling thread (select the GPU, bind the host thread). */
    enum status (*activate)(const struct device *dev, char *note, size_t notelen);
    /* Time `reps` back-to-back calls of impl->run between one start and one stop: total
     * milliseconds in *ms. reps = 1 is one sample of the kernel-only time; more is the batch
     * ("hot") time, which lets consecutive runs overlap their launch costs. On a GPU it is device
     * time between two events, taken with the queue held until the calls are enqueued, so the
     * host's launch and library set-up time is not in it (unless impl->run_waits). */
    enum status (*time_runs)(const struct impl *im, struct impl_ctx *ctx, long reps, double *ms);
    /* Wait until all work queued by the implementation has finished (for end-to-end times). */
    enum status (*sync)(const struct device *dev, char *note, size_t notelen);
    /* Measure the device's FP32 peak again, now (GFLOP/s), for a row that ran faster than the
     * peak found at discovery; `how` says what was measured ("AVX2 FMA loop: 3.91 GHz"). 0 when
     * it cannot be measured. May be NULL (the peak is a property, not a measurement). */
    double (*peak_now)(const struct device *dev, char *how, size_t howlen);
    /* Measure the device's memory peak again, now (GB/s), for a row that ran faster than the
     * peak found at discovery; `how` names the measurement ("STREAM-style Add"). 0 when it
     * cannot be measured. May be NULL (the peak is a property: bus width × memory clock). */
    double (*mem_peak_now)(const struct device *dev, char *how, size_t howlen);
    /* 1 when a sticky error has broken the device's context (every later call on it fails the
     * same way), asked after each row: the worker then ends, so that the device's later
     * rows run in a fresh process with a fresh context (harness/run/supervise.c). May be NULL
     * (nothing can break so). */
    int (*broken)(const struct device *dev);
    /* Release per-device resources at the end of the run. May be NULL. */
    void (*shutdown)(const struct device *dev);
};

extern const struct backend cpu_backend;
extern const struct backend cuda_backend; /* a stub that finds nothing in CPU-only builds */

#endif
