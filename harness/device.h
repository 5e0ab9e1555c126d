/* device.h — the devices of a run and the backends that find and time them.
 *
 * A backend (CPU, CUDA) is a const struct of function pointers: it appends the devices it finds
 * to a list, makes one current before its rows run, and times one call of an implementation's
 * `run` the way that device needs (host clock on the CPU, events on a CUDA stream).
 */
#ifndef GPUBENCH_DEVICE_H
#define GPUBENCH_DEVICE_H

#include "bench/workload.h"

enum { DEVICE_MAX = 17, DEV_STR = 160 };

struct backend;

/* Everything a result row says about the device it ran on (provenance). */
struct device {
    char id[16];                /* "cpu", "cuda:0" */
    enum device_kind kind;
    int ordinal;                /* CUDA device number; 0 for the CPU */
    char name[DEV_STR];         /* "Intel Xeon …", "Tesla K40m" */
    char cc[8];                 /* "3.5"; empty for the CPU */
    char driver[32];            /* "570.86.15" style, empty for the CPU */
    char runtime[32];           /* CUDA runtime "12.8"; empty for the CPU */
    char blas_lib[DEV_STR];     /* "OpenBLAS 0.3.21 SkylakeX threads=2 …" or "cuBLAS 13.0.0" */
    char dnn_lib[64];           /* "cuDNN 9.13.0 (built 9.13.0)" */
    int threads;                /* CPU threads used (CPU rows); 0 otherwise */
    double peak_gflops;         /* FP32 peak, 0 when unknown */
    double peak_gbps;           /* memory peak, 0 when unknown */
    char extra[320];            /* extra provenance for the note: clocks, ECC, binding */
    size_t mem_bytes;           /* device (or host) memory */
    const struct backend *be;
};

struct device_list {
    int n;
    struct device d[DEVICE_MAX];
};

struct backend {
    const char *kind_name; /* "cpu", "cuda" */
    /* Append this backend's devices to `list`. Returns the number added; when none, writes one
     * plain sentence saying why into `why` (e.g. "no NVIDIA driver is loaded"). */
    int (*discover)(struct device_list *list, int threads, char *why, size_t whylen);
    /* Make `dev` current for the calling thread (select the GPU, bind the host thread). */
    enum status (*activate)(const struct device *dev, char *note, size_t notelen);
    /* Time one call of impl->run: kernel-only milliseconds in *ms. */
    enum status (*time_run)(const struct impl *im, struct impl_ctx *ctx, double *ms);
    /* Wait until all work queued by the implementation has finished (for end-to-end times). */
    enum status (*sync)(const struct device *dev, char *note, size_t notelen);
    /* Release per-device resources at the end of the run. May be NULL. */
    void (*shutdown)(const struct device *dev);
};

extern const struct backend cpu_backend;
extern const struct backend cuda_backend; /* a stub that finds nothing in CPU-only builds */

#endif
