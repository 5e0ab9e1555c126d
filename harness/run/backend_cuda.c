/* backend_cuda.c — the CUDA backend: every CUDA device as a device of the run (`cuda:N`), tagged
 * with its properties and library versions; activation (device, stream, hwloc binding of the
 * host thread); kernel-only timing with CUDA events on the device's stream; sticky-error
 * tracking so that a device whose context is broken gives `error` rows without new CUDA calls.
 *
 * Only calls that exist since CUDA 8 (runtime) are used; every decision made from what they
 * return is a pure function in gpu_peak.c, gpu_tag.c and gpu_policy.c, tested without a GPU.
 */
#include <cuda_runtime.h>
#include <hwloc.h>
#include <hwloc/cudart.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GPUBENCH_HAVE_CUBLAS
#include <cublas_v2.h>

#include "kernels/common/cublas_math.h"
#endif
#ifdef GPUBENCH_HAVE_CUDNN
#include <cudnn.h>
#endif

#include "harness/run/backend.h"
#include "harness/gpuinfo/gpu_policy.h"
#include "kernels/common/cuda_errors.h"
#include "harness/gpuinfo/gpu_props.h"
#include "harness/run/hardware.h"
#include "harness/run/topology.h"
#include "kernels/common/cuda_impl.h"

/* What the backend keeps per device between rows. */
struct cuda_dev_state {
    int ready;                /* stream and events created */
    size_t usable;            /* device memory a process can have (gb_device_usable) */
    cudaStream_t stream;      /* the run's stream for this device */
    cudaEvent_t start, stop;  /* kernel-only timing */
    volatile int *hold_host;  /* host-mapped [release, timed out] flags of the queue hold */
    int *hold_dev;            /* the same flags as the device sees them */
    long long hold_cycles;    /* the hold's timeout in the device's clock cycles */
    char hold_why[160];       /* why timing runs without the hold, or "" */
    hwloc_cpuset_t near_cpus; /* cores nearest the GPU (NULL when hwloc could not tell) */
    int bind_warned;          /* a failed binding is reported once */
    char dead[64];            /* name of the sticky error that broke the context, or "" */
};

static struct cuda_dev_state states[DEVICE_MAX];

static struct cuda_dev_state *state_of(const struct device *dev) {
    return dev->ordinal >= 0 && dev->ordinal < DEVICE_MAX ? &states[dev->ordinal] : NULL;
}

/* Record a failed call of the device: the note names the call and the error; a sticky error
 * marks the device so that its later rows fail fast. Returns the row status. */
static enum status dev_fail(struct cuda_dev_state *s, const char *what, cudaError_t e, char *note,
                            size_t notelen) {
    const char *name = cudaGetErrorName(e);
    if (s && gpu_error_is_sticky(name) && !s->dead[0])
        snprintf(s->dead, sizeof s->dead, "%s", name);
    snprintf(note, notelen, "%s: %s: %s%s", what, name, cudaGetErrorString(e),
             gpu_error_is_sticky(name) ? " (sticky: the device's later rows run in a fresh worker)"
                                       : "");
    return gpu_error_status(name);
}

#define DEV_TRY(s, expr, note, notelen)                                                            \
    do {                                                                                           \
        cudaError_t dt_err_ = (expr);                                                              \
        if (dt_err_ != cudaSuccess)                                                                \
            return dev_fail((s), #expr, dt_err_, (note), (notelen));                               \
    } while (0)

/* --- properties ------------------------------------------------------------------------------ */

static int attr(int ordinal, enum cudaDeviceAttr a, int *value, char *err, size_t errlen) {
    cudaError_t e = cudaDeviceGetAttribute(value, a, ordinal);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "%s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

/* Every number comes from cudaDeviceGetAttribute (CUDA 13 removed clockRate, memoryClockRate and
 * kernelExecTimeoutEnabled from cudaDeviceProp); only the name and the memory size are read from
 * cudaDeviceProp, which has had them since CUDA 1. */
int gpu_query(int ordinal, struct gpu_props *p, char *err, size_t errlen) {
    struct cudaDeviceProp prop;
    memset(p, 0, sizeof *p);
    p->ordinal = ordinal;
    cudaError_t e = cudaGetDeviceProperties(&prop, ordinal);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "%s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
        return -1;
    }
    snprintf(p->name, sizeof p->name, "%.*s", (int)sizeof p->name - 1, prop.name);
    p->global_mem = prop.totalGlobalMem;
    p->l2_bytes = prop.l2CacheSize > 0 ? (size_t)prop.l2CacheSize : 0;
    if (attr(ordinal, cudaDevAttrComputeCapabilityMajor, &p->cc_major, err, errlen) ||
        attr(ordinal, cudaDevAttrComputeCapabilityMinor, &p->cc_minor, err, errlen) ||
        attr(ordinal, cudaDevAttrMultiProcessorCount, &p->sm_count, err, errlen) ||
        attr(ordinal, cudaDevAttrClockRate, &p->core_clock_khz, err, errlen) ||
        attr(ordinal, cudaDevAttrMemoryClockRate, &p->mem_clock_khz, err, errlen) ||
        attr(ordinal, cudaDevAttrGlobalMemoryBusWidth, &p->mem_bus_bits, err, errlen) ||
        attr(ordinal, cudaDevAttrEccEnabled, &p->ecc, err, errlen) ||
        attr(ordinal, cudaDevAttrKernelExecTimeout, &p->kernel_timeout, err, errlen) ||
        attr(ordinal, cudaDevAttrIntegrated, &p->integrated, err, errlen))
        return -1;
    e = cudaDeviceGetPCIBusId(p->pci_bus_id, (int)sizeof p->pci_bus_id, ordinal);
    if (e != cudaSuccess)
        p->pci_bus_id[0] = '\0'; /* provenance only: not worth failing the device for */
    if (cudaDriverGetVersion(&p->driver_version) != cudaSuccess)
        p->driver_version = 0;
    if (cudaRuntimeGetVersion(&p->runtime_version) != cudaSuccess)
        p->runtime_version = 0;
    return 0;
}

/* The kernel module version from /proc (Linux); "" elsewhere or when unreadable. */
static void module_version(char *out, size_t outlen) {
    char text[512];
    size_t n = 0;
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    gpu_parse_nvrm_version(text, out, outlen);
}

static void blas_lib(char *out, size_t outlen) {
#ifdef GPUBENCH_HAVE_CUBLAS
    int maj = 0, min = 0, pat = 0;
    /* cublasGetProperty exists since CUDA 8 and needs no handle (no context at discovery). */
    if (cublasGetProperty(MAJOR_VERSION, &maj) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(MINOR_VERSION, &min) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(PATCH_LEVEL, &pat) != CUBLAS_STATUS_SUCCESS) {
        snprintf(out, outlen, "cuBLAS (version unreadable)");
        return;
    }
    int emulation_env = 0;
#if defined(CUBLAS_VER_MAJOR) && CUBLAS_VER_MAJOR >= 11 /* before 11: one math mode, no emulation */
    char env[96];
    emulation_env = gb_cublas_exact_env(DT_F32, env, sizeof env) != NULL ||
                    gb_cublas_exact_env(DT_F64, env, sizeof env) != NULL;
#endif
    gpu_cublas_lib_string(maj, min, pat, emulation_env, out, outlen);
#else
    gpu_cublas_lib_string(0, 0, 0, 0, out, outlen);
#endif
}

static void dnn_lib(char *out, size_t outlen) {
#ifdef GPUBENCH_HAVE_CUDNN
    gpu_cudnn_lib_string((long)cudnnGetVersion(), (long)CUDNN_VERSION, out, outlen);
#else
    gpu_cudnn_lib_string(0, 0, out, outlen);
#endif
}

/* The cores nearest GPU `ordinal` (hwloc/cudart.h reads the PCI device's local_cpus), as a new
 * bitmap and as a list ("0-9,20-29"); NULL and "none (…)" when hwloc cannot tell. */
static hwloc_cpuset_t near_cpus(int ordinal, char *list, size_t listlen) {
    char err[160];
    if (topology_load(err, sizeof err) != 0) {
        snprintf(list, listlen, "none (%.60s)", err);
        return NULL;
    }
    hwloc_cpuset_t set = hwloc_bitmap_alloc();
    if (!set) {
        snprintf(list, listlen, "none (out of memory)");
        return NULL;
    }
    if (hwloc_cudart_get_device_cpuset(topology_get(), ordinal, set) != 0) {
        hwloc_bitmap_free(set);
        snprintf(list, listlen, "none (hwloc could not place the GPU)");
        return NULL;
    }
    hwloc_bitmap_list_snprintf(list, listlen, set);
    return set;
}

static int cuda_discover(struct device_list *list, int threads, char *why, size_t whylen) {
    (void)threads;
    int count = 0, drv = 0, rt = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (cudaDriverGetVersion(&drv) != cudaSuccess)
        drv = 0;
    if (cudaRuntimeGetVersion(&rt) != cudaSuccess)
        rt = 0;
    if (e != cudaSuccess || count <= 0) {
        gpu_no_device_reason(e == cudaSuccess ? NULL : cudaGetErrorName(e), drv, rt, why, whylen);
        (void)cudaGetLastError(); /* not sticky: clear it */
        return 0;
    }
    char module[32], blas[DEV_STR], dnn[64];
    module_version(module, sizeof module);
    blas_lib(blas, sizeof blas);
    dnn_lib(dnn, sizeof dnn);

    int added = 0;
    char reasons[256] = "";
    for (int i = 0; i < count && list->n < DEVICE_MAX && i < DEVICE_MAX; i++) {
        struct gpu_props p;
        char err[160];
        if (gpu_query(i, &p, err, sizeof err) != 0) {
            size_t len = strlen(reasons);
            snprintf(reasons + len, sizeof reasons - len, "%scuda:%d: %s", len ? "; " : "", i, err);
            continue;
        }
        struct device *d = &list->d[list->n];
        memset(d, 0, sizeof *d);
        snprintf(d->id, sizeof d->id, "cuda:%d", i);
        d->kind = DEV_CUDA;
        d->ordinal = i;
        snprintf(d->name, sizeof d->name, "%s", p.name);
        gpu_cc_string(p.cc_major, p.cc_minor, d->cc, sizeof d->cc);
        snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "%s", p.pci_bus_id);
        gpu_driver_string(module, p.driver_version, d->driver, sizeof d->driver);
        gpu_cuda_version_string(p.runtime_version, d->runtime, sizeof d->runtime);
        snprintf(d->blas_lib, sizeof d->blas_lib, "%s", blas);
        snprintf(d->dnn_lib, sizeof d->dnn_lib, "%s", dnn);
        d->peak_gflops = gpu_peak_gflops(&p);
        for (int t = 0; t < DT_COUNT; t++)
            d->peak_tier_gflops[t] = gpu_peak_tier_gflops(&p, (enum dtype)t);
        d->peak_gbps = gpu_peak_gbps(&p);
        d->mem_bytes = p.global_mem;
        d->cache_bytes = p.l2_bytes; /* for the note of a row whose working set fits in it */
        snprintf(d->cache_name, sizeof d->cache_name, "L2");
        hardware_describe(d);
        d->be = &cuda_backend;
        char cpus[96];
        struct cuda_dev_state *s = &states[i];
        if (s->near_cpus)
            hwloc_bitmap_free(s->near_cpus);
        s->near_cpus = near_cpus(i, cpus, sizeof cpus);
        gpu_extra_string(&p, cpus, d->extra, sizeof d->extra);
        list->n++;
        added++;
    }
    if (!added)
        snprintf(why, whylen, "no CUDA device could be queried: %s", reasons);
    else if (reasons[0])
        fprintf(stderr, "gpubench: warning: skipped %s\n", reasons);
    return added;
}

/* --- activation, timing, sync ----------------------------------------------------------------- */

/* Destroy what exists of the device's stream and events, each on its own: one failure neither
 * stops the others nor goes unreported. Returns the number of failures. */
/* The hold's flags are portable page-locked host memory: freed whichever device is current.
 * Returns 1 when cudaFreeHost failed (reported), else 0. */
static int free_hold_flags(struct cuda_dev_state *s, const char *id) {
    int failed = 0;
    if (s->hold_host && cudaFreeHost((void *)s->hold_host) != cudaSuccess) {
        fprintf(stderr, "gpubench: warning: %s: cudaFreeHost(hold flags) failed\n", id);
        failed = 1;
    }
    s->hold_host = NULL;
    s->hold_dev = NULL;
    return failed;
}

static int dev_resources_destroy(struct cuda_dev_state *s, const char *id) {
    struct {
        const char *what;
        cudaError_t e;
    } r[3] = {{"cudaEventDestroy(start)", cudaSuccess},
              {"cudaEventDestroy(stop)", cudaSuccess},
              {"cudaStreamDestroy", cudaSuccess}};
    int failed = free_hold_flags(s, id);
    if (s->start)
        r[0].e = cudaEventDestroy(s->start);
    if (s->stop)
        r[1].e = cudaEventDestroy(s->stop);
    if (s->stream)
        r[2].e = cudaStreamDestroy(s->stream);
    for (int i = 0; i < 3; i++)
        if (r[i].e != cudaSuccess) {
            fprintf(stderr, "gpubench: warning: %s: %s: %s\n", id, r[i].what,
                    cudaGetErrorName(r[i].e));
            failed++;
        }
    s->start = s->stop = NULL;
    s->stream = NULL;
    return failed;
}

/* The queue hold's flags in host-mapped memory and its timeout (kernels/common/hold.cu). Not
 * fatal when it fails: timing then runs without the hold and each row says so (hold_why). */
static void dev_hold_create(struct cuda_dev_state *s, int ordinal) {
    enum { HOLD_TIMEOUT_MS = 2000 }; /* far longer than enqueueing any row's runs takes */
    struct cudaFuncAttributes fa;
    void *host = NULL, *dev = NULL;
    int khz = 0;
    const struct gb_kernel_ref *k;
    gb_hold_kernels(&k);
    s->hold_why[0] = '\0';
    /* Under compute-sanitizer every launch waits for the kernel before it: the launch after the
     * hold would wait out its timeout each time, so scripts/gpu-check's sanitizer steps set this. */
    if (getenv("GPUBENCH_NO_HOLD")) {
        snprintf(s->hold_why, sizeof s->hold_why,
                 "no queue hold (GPUBENCH_NO_HOLD is set): kernel-only times include the host's "
                 "launch time");
        return;
    }
    /* no code for this device: then none of our kernels runs here either */
    cudaError_t e = cudaFuncGetAttributes(&fa, k[0].fn);
    if (e == cudaSuccess)
        e = cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable);
    if (e == cudaSuccess)
        e = cudaHostGetDevicePointer(&dev, host, 0);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, ordinal);
    if (e != cudaSuccess) {
        snprintf(s->hold_why, sizeof s->hold_why,
                 "no queue hold (%s): kernel-only times include the host's launch time",
                 cudaGetErrorName(e));
        (void)cudaGetLastError();
        if (host && cudaFreeHost(host) != cudaSuccess)
            fprintf(stderr, "gpubench: warning: cudaFreeHost(hold flags) failed\n");
        return;
    }
    s->hold_host = host;
    s->hold_dev = dev;
    s->hold_cycles = (long long)(khz > 0 ? khz : 2000000) * HOLD_TIMEOUT_MS;
}

/* The device's stream and timing events; on a failure, whatever was created is destroyed again
 * (a failed event create must not leak the stream). */
static enum status dev_resources_create(struct cuda_dev_state *s, int ordinal, const char *id,
                                        char *note, size_t notelen) {
    const char *what = NULL;
    cudaError_t e;
    /* Non-blocking: the stream does not serialize with the legacy default stream that libraries
     * or other code might use. */
    if ((e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking)) != cudaSuccess)
        what = "cudaStreamCreateWithFlags";
    else if ((e = cudaEventCreate(&s->start)) != cudaSuccess)
        what = "cudaEventCreate(start)";
    else if ((e = cudaEventCreate(&s->stop)) != cudaSuccess)
        what = "cudaEventCreate(stop)";
    if (!what) {
        dev_hold_create(s, ordinal);
        return ST_OK;
    }
    enum status st = dev_fail(s, what, e, note, notelen);
    if (!s->dead[0]) /* a broken context cannot destroy anything either */
        dev_resources_destroy(s, id);
    else
        s->start = s->stop = NULL, s->stream = NULL;
    return st;
}

static enum status cuda_activate(const struct device *dev, char *note, size_t notelen) {
    struct cuda_dev_state *s = state_of(dev);
    if (!s) {
        snprintf(note, notelen, "device ordinal %d out of range", dev->ordinal);
        return ST_ERROR;
    }
    if (s->dead[0]) {
        snprintf(note, notelen,
                 "%s is unusable after %s in an earlier row (a sticky CUDA error: every later "
                 "call on this device fails the same way; rerun to measure it)",
                 dev->id, s->dead);
        return ST_ERROR;
    }
    DEV_TRY(s, cudaSetDevice(dev->ordinal), note, notelen);
    if (!s->ready) {
        enum status st = dev_resources_create(s, dev->ordinal, dev->id, note, notelen);
        if (st != ST_OK)
            return st;
        s->ready = 1;
        /* Measured once, with only the context (and our stream and events) on the device: what
         * a row's whole footprint is checked against (kernels/common/cuda_impl.c). */
        DEV_TRY(s, gb_device_usable(&s->usable), note, notelen);
        /* The last-error slot belongs to the host thread, not to a device: an error another
         * device's row left there (a sticky one included) must not fail this device's first
         * launch check (cudaGetLastError). */
        (void)cudaGetLastError();
    } else {
        /* A sticky error of the previous row shows up on any call; a non-sticky one left in
         * the runtime's last-error slot is cleared so that it is not blamed on this row. */
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess && gpu_error_is_sticky(cudaGetErrorName(e)))
            return dev_fail(s, "cudaDeviceSynchronize() before the row", e, note, notelen);
        (void)cudaGetLastError();
    }
    gb_set_stream(s->stream);
    gb_row_begin(s->usable);
    if (s->near_cpus &&
        hwloc_set_cpubind(topology_get(), s->near_cpus, HWLOC_CPUBIND_THREAD) != 0 &&
        !s->bind_warned) {
        /* Placement is a quality-of-measurement matter, never a reason to stop. */
        fprintf(stderr, "gpubench: warning: could not bind the host thread near %s\n", dev->id);
        s->bind_warned = 1;
    }
    return ST_OK;
}

/* Append `text` to the row's note unless it is there already (once per row, not per sample). */
static void note_once(struct impl_ctx *ctx, const char *text) {
    size_t len = strlen(ctx->note);
    if (!strstr(ctx->note, text))
        snprintf(ctx->note + len, sizeof ctx->note - len, "%s%s", len ? "; " : "", text);
}

/* Let the held stream go: what is queued behind the hold runs back to back. */
static void hold_release(struct cuda_dev_state *s) {
    s->hold_host[0] = 1;
    __sync_synchronize();
}

/* start event, `reps` runs, stop event. With the hold, only the first HOLD_QUEUED_RUNS runs
 * are enqueued behind it before it is released: the driver's queue of pending launches is
 * finite (about a thousand entries), and a launch into a full queue blocks the host until the
 * device drains it — which it cannot while the hold spins, so a batch of 1000 small runs (or a
 * few dozen mlp_train steps of 15–20 launches each) would wait out the hold's timeout. The
 * runs after those few are enqueued while the device is already busy, as in an application's
 * loop (nvbench's blocking kernel likewise keeps at most two launches behind it). */
enum { HOLD_QUEUED_RUNS = 2 };
static enum status enqueue_timed(struct cuda_dev_state *s, const struct impl *im,
                                 struct impl_ctx *ctx, long reps, int hold) {
    char *note = ctx->note;
    size_t notelen = sizeof ctx->note;
    DEV_TRY(s, cudaEventRecord(s->start, s->stream), note, notelen);
    for (long i = 0; i < reps; i++) {
        enum status st = im->run(ctx);
        if (st != ST_OK)
            return st;
        if (hold && i + 1 == HOLD_QUEUED_RUNS)
            hold_release(s);
    }
    DEV_TRY(s, cudaEventRecord(s->stop, s->stream), note, notelen);
    return ST_OK;
}

static enum status cuda_time_runs(const struct impl *im, struct impl_ctx *ctx, long reps,
                                  double *ms) {
    struct cuda_dev_state *s = state_of(ctx->dev);
    char *note = ctx->note;
    size_t notelen = sizeof ctx->note;
    *ms = 0;
    if (!s || !s->ready) {
        snprintf(note, notelen, "%s was not activated before timing", ctx->dev->id);
        return ST_ERROR;
    }
    int hold = s->hold_host && !im->run_waits;
    if (!s->hold_host)
        note_once(ctx, s->hold_why);
    if (hold) {
        s->hold_host[0] = s->hold_host[1] = 0;
        __sync_synchronize(); /* the flags are reset before the kernel can read them */
        DEV_TRY(s, gb_hold(s->stream, s->hold_dev, s->hold_dev + 1, s->hold_cycles), note,
                notelen);
    }
    enum status st = enqueue_timed(s, im, ctx, reps, hold);
    if (hold)
        hold_release(s); /* fewer runs than HOLD_QUEUED_RUNS, or a failure: release it now */
    if (st != ST_OK)
        return st;
    /* Kernel faults surface here, asynchronously: a sticky one marks the device. */
    DEV_TRY(s, cudaEventSynchronize(s->stop), note, notelen);
    float f = 0;
    DEV_TRY(s, cudaEventElapsedTime(&f, s->start, s->stop), note, notelen);
    *ms = (double)f;
    if (hold && s->hold_host[1])
        note_once(ctx, "the queue hold timed out: some samples include the host's launch time");
    return ST_OK;
}

/* After a row: did a sticky error break the context? An error the implementation met in its own
 * calls (a synchronous copy, a library, its release) never passed dev_fail: one synchronization
 * tells, and costs microseconds on an idle device, outside every timed loop. */
static int cuda_broken(const struct device *dev) {
    struct cuda_dev_state *s = state_of(dev);
    if (!s || s->dead[0])
        return s != NULL;
    if (!s->ready || cudaSetDevice(dev->ordinal) != cudaSuccess)
        return 0;
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess || !gpu_error_is_sticky(cudaGetErrorName(e)))
        return 0;
    snprintf(s->dead, sizeof s->dead, "%s", cudaGetErrorName(e));
    return 1;
}

static enum status cuda_sync(const struct device *dev, char *note, size_t notelen) {
    struct cuda_dev_state *s = state_of(dev);
    if (!s || !s->ready) {
        snprintf(note, notelen, "%s was not activated before sync", dev->id);
        return ST_ERROR;
    }
    DEV_TRY(s, cudaStreamSynchronize(s->stream), note, notelen);
    return ST_OK;
}

static void cuda_shutdown(const struct device *dev) {
    struct cuda_dev_state *s = state_of(dev);
    if (!s)
        return;
    /* A broken context fails every call: skip the teardown rather than print its errors. */
    if (s->ready && !s->dead[0]) {
        cudaError_t e = cudaSetDevice(dev->ordinal);
        if (e == cudaSuccess) {
            dev_resources_destroy(s, dev->id);
        } else {
            fprintf(stderr,
                    "gpubench: warning: %s: cudaSetDevice at teardown: %s; its stream and events "
                    "are left to the driver\n",
                    dev->id, cudaGetErrorString(e));
            free_hold_flags(s, dev->id);
        }
    }
    if (s->near_cpus)
        hwloc_bitmap_free(s->near_cpus);
    memset(s, 0, sizeof *s);
    gb_set_stream(NULL);
}

const struct backend cuda_backend = {
    .kind_name = "cuda",
    .discover = cuda_discover,
    .activate = cuda_activate,
    .time_runs = cuda_time_runs,
    .sync = cuda_sync,
    .broken = cuda_broken,
    .shutdown = cuda_shutdown,
};
