/* cudart.c — the CUDA runtime functions gpubench calls (and a few it will), answered for the
 * simulated devices with the real runtime's semantics: errors as the runtime returns them, the
 * per-thread last error, sticky errors, asynchronous streams (stream.c), the copy rules of
 * pageable and pinned memory. Built into the library that stands in for the toolkit's libcudart
 * (same SONAME and symbol version). Test-only code.
 *
 * Every function counts its call and may have a fault injected (fault.c). Functions that need
 * the device's context return its sticky error once it is broken; the device queries
 * (properties, attributes, PCI id, versions) answer regardless, as they do on a GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/sim/sim.h"

/* kernels.c */
cudaError_t gbsim_func_attributes(const void *host, const struct gbsim_device *d,
                                  struct cudaFuncAttributes *attr);
cudaError_t gbsim_launch(const void *host, dim3 grid, dim3 block, void **args, size_t shmem,
                         cudaStream_t stream);
cudaError_t gbsim_func_set_attribute(const void *host, const struct gbsim_device *d, int attr,
                                     int value);

/* An injected error: recorded as the call's error; a sticky one breaks the current device, as if
 * the call had found the context corrupted. */
static cudaError_t injected(int code) {
    struct gbsim_device *d = gbsim_current();
    if (d && gbsim_is_sticky((cudaError_t)code))
        gbsim_break(d, (cudaError_t)code);
    return gbsim_record((cudaError_t)code);
}

#define COUNT(dev)                                                                                 \
    do {                                                                                           \
        int code_;                                                                                 \
        enum gbsim_lib lib_;                                                                       \
        if (gbsim_enter(__func__, GBSIM_CUDART, (dev), &code_, &lib_))                             \
            return injected(code_);                                                                \
    } while (0)

/* Count; fail as the runtime does when it cannot start (no device simulated, driver too old). */
#define ENTER_NOCTX(dev)                                                                           \
    do {                                                                                           \
        cudaError_t ie_;                                                                           \
        COUNT(dev);                                                                                \
        if ((ie_ = gbsim_init_error()) != cudaSuccess)                                             \
            return gbsim_record(ie_);                                                              \
    } while (0)

static cudaError_t sticky_of(struct gbsim_device *d) {
    cudaError_t e;
    gbsim_lock();
    e = d->sticky;
    gbsim_unlock();
    return e;
}

static int current_ordinal(void) {
    struct gbsim_device *d = gbsim_current();
    return d ? d->ordinal : -1;
}

/* ENTER_NOCTX, then the current device `d` (never NULL past this point), its sticky error and
 * the process's context on it (gbsim_context: refused on an exclusive-process device another
 * process holds). */
#define ENTER_CTX(d)                                                                               \
    ENTER_NOCTX(current_ordinal());                                                                \
    struct gbsim_device *d = gbsim_current();                                                      \
    do {                                                                                           \
        cudaError_t st_ = sticky_of(d);                                                            \
        if (st_ == cudaSuccess)                                                                    \
            st_ = gbsim_context(d);                                                                \
        if (st_ != cudaSuccess)                                                                    \
            return gbsim_record(st_);                                                              \
    } while (0)

static __attribute__((constructor)) void hint(void) {
    if (!getenv("GPUBENCH_SIM") || !getenv("GPUBENCH_SIM")[0])
        fprintf(stderr, "gbsim: GPUBENCH_SIM is not set: the simulated runtime has no device "
                        "(as a machine without a driver)\n");
}

/* --- versions, errors ------------------------------------------------------------------------- */
GBSIM_API cudaError_t cudaDriverGetVersion(int *driverVersion) {
    COUNT(-1);
    if (!driverVersion)
        return gbsim_record(cudaErrorInvalidValue);
    /* no simulated machine = no driver: 0, as cudaDriverGetVersion says without one */
    *driverVersion = gbsim_device_count() ? gbsim_driver_version() : 0;
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
    COUNT(-1);
    if (!runtimeVersion)
        return gbsim_record(cudaErrorInvalidValue);
    *runtimeVersion = gbsim_runtime_version();
    return cudaSuccess;
}

GBSIM_API const char *cudaGetErrorName(cudaError_t error) {
    const char *n = gbsim_cuda_error_name((int)error);
    return n[0] ? n : "cudaErrorUnknown";
}

GBSIM_API const char *cudaGetErrorString(cudaError_t error) {
    return gbsim_cuda_error_string((int)error);
}

GBSIM_API cudaError_t cudaGetLastError(void) {
    COUNT(current_ordinal());
    return gbsim_take_last(1);
}

GBSIM_API cudaError_t cudaPeekAtLastError(void) {
    COUNT(current_ordinal());
    return gbsim_take_last(0);
}

/* --- devices ---------------------------------------------------------------------------------- */
GBSIM_API cudaError_t cudaGetDeviceCount(int *count) {
    cudaError_t e;
    COUNT(-1);
    if (!count)
        return gbsim_record(cudaErrorInvalidValue);
    *count = 0;
    if ((e = gbsim_init_error()) != cudaSuccess)
        return gbsim_record(e);
    *count = gbsim_device_count();
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaSetDevice(int device) {
    ENTER_NOCTX(device);
    if (!gbsim_device(device))
        return gbsim_record(cudaErrorInvalidDevice);
    gbsim_set_current(device);
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaGetDevice(int *device) {
    ENTER_NOCTX(current_ordinal());
    if (!device)
        return gbsim_record(cudaErrorInvalidValue);
    *device = current_ordinal();
    return cudaSuccess;
}

static int max_grid_x(const struct gbsim_device *d) {
    return d->sm >= 30 ? 2147483647 : 65535;
}

/* PCI location: domain 0, bus 0x81 + ordinal (a bus the test machine is unlikely to have, so
 * that hwloc's locality lookup falls back to every core). */
static int pci_bus(const struct gbsim_device *d) {
    return 0x81 + d->ordinal;
}

GBSIM_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
    struct gbsim_device *d;
    const struct gbsim_profile *p;
    ENTER_NOCTX(device);
    if (!prop)
        return gbsim_record(cudaErrorInvalidValue);
    if (!(d = gbsim_device(device)))
        return gbsim_record(cudaErrorInvalidDevice);
    p = d->p;
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "simulated %s", p->name);
    for (int i = 0; i < 16; i++)
        prop->uuid.bytes[i] = (char)(0x5a ^ (i * 17 + d->ordinal));
    prop->totalGlobalMem = p->mem_bytes;
    prop->sharedMemPerBlock = 48 * 1024;
    prop->regsPerBlock = p->regs_per_block;
    prop->warpSize = 32;
    prop->memPitch = 2147483647;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = max_grid_x(d);
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->totalConstMem = 65536;
    prop->major = p->major;
    prop->minor = p->minor;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = 32;
    prop->multiProcessorCount = p->sms;
    prop->canMapHostMemory = 1;
    prop->concurrentKernels = 1;
    prop->ECCEnabled = p->ecc;
    prop->pciBusID = pci_bus(d);
    prop->pciDeviceID = 0;
    prop->pciDomainID = 0;
    prop->asyncEngineCount = 2;
    prop->unifiedAddressing = 1;
    prop->memoryBusWidth = p->bus_bits;
    prop->l2CacheSize = p->l2_bytes;
    prop->maxThreadsPerMultiProcessor = p->threads_per_sm;
    prop->sharedMemPerMultiprocessor = (size_t)p->shared_per_sm;
    prop->regsPerMultiprocessor = p->regs_per_sm;
    prop->managedMemory = d->sm >= 30;
    prop->sharedMemPerBlockOptin = gbsim_shared_optin(p);
#if CUDART_VERSION >= 13000 /* the field is new in CUDA 13's cudaDeviceProp */
    prop->gpuPciDeviceID = (p->pci_id << 16) | 0x10de;
#endif
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
    struct gbsim_device *d;
    const struct gbsim_profile *p;
    ENTER_NOCTX(device);
    if (!value)
        return gbsim_record(cudaErrorInvalidValue);
    if (!(d = gbsim_device(device)))
        return gbsim_record(cudaErrorInvalidDevice);
    p = d->p;
    switch (attr) {
    case cudaDevAttrComputeCapabilityMajor: *value = p->major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p->minor; break;
    case cudaDevAttrMultiProcessorCount: *value = p->sms; break;
    case cudaDevAttrClockRate: *value = p->clock_khz; break;
    case cudaDevAttrMemoryClockRate: *value = p->mem_clock_khz; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p->bus_bits; break;
    case cudaDevAttrEccEnabled: *value = p->ecc; break;
    case cudaDevAttrKernelExecTimeout: *value = p->watchdog; break;
    case cudaDevAttrIntegrated: *value = 0; break;
    case cudaDevAttrMaxThreadsPerBlock: *value = 1024; break;
    case cudaDevAttrMaxBlockDimX:
    case cudaDevAttrMaxBlockDimY: *value = 1024; break;
    case cudaDevAttrMaxBlockDimZ: *value = 64; break;
    case cudaDevAttrMaxGridDimX: *value = max_grid_x(d); break;
    case cudaDevAttrMaxGridDimY:
    case cudaDevAttrMaxGridDimZ: *value = 65535; break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = 48 * 1024; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = p->shared_per_sm; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p->regs_per_block; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p->regs_per_sm; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p->threads_per_sm; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrL2CacheSize: *value = p->l2_bytes; break;
    case cudaDevAttrTotalConstantMemory: *value = 65536; break;
    case cudaDevAttrPciBusId: *value = pci_bus(d); break;
    case cudaDevAttrPciDeviceId:
    case cudaDevAttrPciDomainId: *value = 0; break;
    case cudaDevAttrUnifiedAddressing:
    case cudaDevAttrCanMapHostMemory:
    case cudaDevAttrConcurrentKernels: *value = 1; break;
    case cudaDevAttrAsyncEngineCount: *value = 2; break;
    case cudaDevAttrComputeMode:
        *value = d->exclusive ? cudaComputeModeExclusiveProcess : cudaComputeModeDefault;
        break;
    default:
        fprintf(stderr,
                "gbsim: cudaDeviceGetAttribute: attribute %d is not simulated (add it to "
                "tests/sim/cudart.c)\n",
                (int)attr);
        return gbsim_record(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
    struct gbsim_device *d;
    ENTER_NOCTX(device);
    if (!pciBusId || len <= 0)
        return gbsim_record(cudaErrorInvalidValue);
    if (!(d = gbsim_device(device)))
        return gbsim_record(cudaErrorInvalidDevice);
    snprintf(pciBusId, (size_t)len, "0000:%02x:00.0", pci_bus(d));
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaDeviceSynchronize(void) {
    ENTER_CTX(d);
    gbsim_device_drain(d);
    return gbsim_record(sticky_of(d));
}

/* --- memory ----------------------------------------------------------------------------------- */
GBSIM_API cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total) {
    ENTER_CTX(d);
    if (!free_b || !total)
        return gbsim_record(cudaErrorInvalidValue);
    gbsim_lock();
    *total = d->p->mem_bytes;
    *free_b = d->p->mem_bytes - d->reserved - d->used;
    gbsim_unlock();
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaMalloc(void **devPtr, size_t size) {
    ENTER_CTX(d);
    if (!devPtr)
        return gbsim_record(cudaErrorInvalidValue);
    return gbsim_record(gbsim_alloc(d, GBSIM_MEM_DEVICE, size, devPtr));
}

/* cudaFree waits for the device's work first (it synchronizes, as the programming guide's
 * "Implicit Synchronization" lists for memory deallocation): nothing queued may still use it. */
GBSIM_API cudaError_t cudaFree(void *devPtr) {
    int dev = -1;
    ENTER_CTX(d);
    if (!devPtr)
        return cudaSuccess;
    if (gbsim_lookup(devPtr, &dev, NULL) != GBSIM_MEM_DEVICE)
        return gbsim_record(cudaErrorInvalidValue);
    gbsim_device_drain(gbsim_device(dev));
    return gbsim_record(gbsim_free(GBSIM_MEM_DEVICE, devPtr));
}

GBSIM_API cudaError_t cudaMallocHost(void **ptr, size_t size) {
    ENTER_CTX(d);
    if (!ptr)
        return gbsim_record(cudaErrorInvalidValue);
    return gbsim_record(gbsim_alloc(d, GBSIM_MEM_PINNED, size, ptr));
}

GBSIM_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
    ENTER_CTX(d);
    if (!pHost || (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped |
                                       cudaHostAllocWriteCombined)))
        return gbsim_record(cudaErrorInvalidValue);
    return gbsim_record(gbsim_alloc(d, GBSIM_MEM_PINNED, size, pHost));
}

/* With unified addressing every page-locked allocation is mapped, at the same address. */
GBSIM_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
    ENTER_CTX(d);
    (void)d;
    if (!pDevice || flags != 0 || gbsim_lookup(pHost, NULL, NULL) != GBSIM_MEM_PINNED)
        return gbsim_record(cudaErrorInvalidValue);
    *pDevice = pHost;
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaFreeHost(void *ptr) {
    ENTER_CTX(d);
    (void)d;
    if (!ptr)
        return cudaSuccess;
    if (gbsim_lookup(ptr, NULL, NULL) != GBSIM_MEM_PINNED)
        return gbsim_record(cudaErrorInvalidValue);
    gbsim_all_drain();
    return gbsim_record(gbsim_free(GBSIM_MEM_PINNED, ptr));
}

struct copy_op {
    struct gbsim_op op;
    void *dst;
    const void *src;
    size_t n;
    int value; /* memset: the byte; copy: -1 */
    int dst_dev, src_dev;
};

/* Run a copy or memset; the device ranges are checked again (a buffer freed while the copy was
 * queued is an illegal address, as on the GPU). */
static cudaError_t run_copy(struct gbsim_op *op, int broken) {
    struct copy_op *c = (struct copy_op *)op;
    if (broken)
        return cudaSuccess;
    if ((c->dst_dev && !gbsim_device_range(c->dst, c->n, -1)) ||
        (c->src_dev && !gbsim_device_range(c->src, c->n, -1)))
        return cudaErrorIllegalAddress;
    if (c->value >= 0)
        memset(c->dst, c->value, c->n);
    else
        memmove(c->dst, c->src, c->n);
    return cudaSuccess;
}

/* Which side of a copy is device memory, from the kind asked for (cudaMemcpyDefault: from the
 * pointers, as unified addressing lets the runtime tell). cudaErrorInvalidValue when a pointer is
 * not what the kind says: a device side outside any allocation (or too short for count bytes),
 * or a host side inside device memory. */
static cudaError_t copy_sides(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                              int *dst_dev, int *src_dev) {
    int dd = gbsim_lookup(dst, NULL, NULL) == GBSIM_MEM_DEVICE;
    int sd = gbsim_lookup(src, NULL, NULL) == GBSIM_MEM_DEVICE;
    switch (kind) {
    case cudaMemcpyHostToHost: *dst_dev = 0, *src_dev = 0; break;
    case cudaMemcpyHostToDevice: *dst_dev = 1, *src_dev = 0; break;
    case cudaMemcpyDeviceToHost: *dst_dev = 0, *src_dev = 1; break;
    case cudaMemcpyDeviceToDevice: *dst_dev = 1, *src_dev = 1; break;
    case cudaMemcpyDefault: *dst_dev = dd, *src_dev = sd; break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    if (!dst || !src)
        return cudaErrorInvalidValue;
    if ((*dst_dev && !gbsim_device_range(dst, count, -1)) || (!*dst_dev && dd) ||
        (*src_dev && !gbsim_device_range(src, count, -1)) || (!*src_dev && sd))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

static struct copy_op *new_copy(void *dst, const void *src, size_t n, int value, int dd, int sd) {
    struct copy_op *c = calloc(1, sizeof *c);
    if (c) {
        c->op.run = run_copy;
        c->dst = dst;
        c->src = src;
        c->n = n;
        c->value = value;
        c->dst_dev = dd;
        c->src_dev = sd;
        c->op.pace_key =
            gbsim_pace_key(run_copy, (const long long[]){(long long)n, value >= 0, dd, sd}, 4);
    }
    return c;
}

/* The host-side rules of cudaMemcpyAsync (CUDA Runtime API, "API synchronization behavior"):
 * from pageable host memory the stream is drained and the source read before the call returns;
 * into pageable host memory the call returns once the copy is done; pinned memory and
 * device-to-device copies are fully asynchronous. */
GBSIM_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
    struct gbsim_stream *st;
    struct copy_op *c;
    cudaError_t err;
    int dd, sd, pageable_src, pageable_dst;
    ENTER_CTX(d);
    if ((err = copy_sides(dst, src, count, kind, &dd, &sd)) != cudaSuccess)
        return gbsim_record(err);
    if (!(st = gbsim_stream_of(stream, d, &err)))
        return gbsim_record(err);
    if (count == 0)
        return cudaSuccess;
    pageable_src = !sd && gbsim_lookup(src, NULL, NULL) == GBSIM_MEM_NONE;
    pageable_dst = !dd && gbsim_lookup(dst, NULL, NULL) == GBSIM_MEM_NONE;
    if (!(c = new_copy(dst, src, count, -1, dd, sd)))
        return gbsim_record(cudaErrorMemoryAllocation);
    /* from pageable memory: the call returns once the source is read, after the stream's
     * earlier work; the stream's worker copies it, as it runs every other operation, so that
     * the pace (stream.c) holds for it too */
    gbsim_enqueue(st, &c->op, pageable_dst || (pageable_src && dd));
    if (pageable_dst || (pageable_src && dd))
        return gbsim_record(sticky_of(gbsim_stream_device(st)));
    return cudaSuccess;
}

/* cudaMemcpy: on the legacy stream, after everything queued on the device, and done on
 * return. */
GBSIM_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                 enum cudaMemcpyKind kind) {
    struct gbsim_stream *st;
    struct copy_op *c;
    cudaError_t err;
    int dd, sd;
    ENTER_CTX(d);
    if ((err = copy_sides(dst, src, count, kind, &dd, &sd)) != cudaSuccess)
        return gbsim_record(err);
    if (!(st = gbsim_stream_of(NULL, d, &err)))
        return gbsim_record(err);
    gbsim_device_drain(d);
    if (count == 0)
        return gbsim_record(sticky_of(d));
    if (!(c = new_copy(dst, src, count, -1, dd, sd)))
        return gbsim_record(cudaErrorMemoryAllocation);
    gbsim_enqueue(st, &c->op, 1);
    return gbsim_record(sticky_of(d));
}

GBSIM_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
    struct gbsim_stream *st;
    struct copy_op *c;
    cudaError_t err;
    ENTER_CTX(d);
    if (count && !gbsim_device_range(devPtr, count, -1))
        return gbsim_record(cudaErrorInvalidValue);
    if (!(st = gbsim_stream_of(stream, d, &err)))
        return gbsim_record(err);
    if (count == 0)
        return cudaSuccess;
    if (!(c = new_copy(devPtr, NULL, count, value & 0xff, 1, 0)))
        return gbsim_record(cudaErrorMemoryAllocation);
    gbsim_enqueue(st, &c->op, 0);
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
    struct gbsim_stream *st;
    struct copy_op *c;
    cudaError_t err;
    ENTER_CTX(d);
    if (count && !gbsim_device_range(devPtr, count, -1))
        return gbsim_record(cudaErrorInvalidValue);
    if (!(st = gbsim_stream_of(NULL, d, &err)))
        return gbsim_record(err);
    gbsim_device_drain(d);
    if (count == 0)
        return gbsim_record(sticky_of(d));
    if (!(c = new_copy(devPtr, NULL, count, value & 0xff, 1, 0)))
        return gbsim_record(cudaErrorMemoryAllocation);
    gbsim_enqueue(st, &c->op, 1);
    return gbsim_record(sticky_of(d));
}

/* --- streams ---------------------------------------------------------------------------------- */
GBSIM_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
    struct gbsim_stream *st;
    cudaError_t err;
    ENTER_CTX(d);
    if (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking))
        return gbsim_record(cudaErrorInvalidValue);
    if (!(st = gbsim_stream_new(d, flags, &err)))
        return gbsim_record(err);
    *pStream = (cudaStream_t)st;
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
    struct gbsim_stream *st;
    cudaError_t err;
    ENTER_CTX(d);
    if (!pStream)
        return gbsim_record(cudaErrorInvalidValue);
    if (!(st = gbsim_stream_new(d, 0, &err)))
        return gbsim_record(err);
    *pStream = (cudaStream_t)st;
    return cudaSuccess;
}

static int is_default_stream(cudaStream_t s) {
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread;
}

GBSIM_API cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    struct gbsim_stream *st;
    cudaError_t err;
    ENTER_CTX(d);
    if (is_default_stream(stream))
        return gbsim_record(cudaErrorInvalidResourceHandle);
    if (!(st = gbsim_stream_of(stream, d, &err)))
        return gbsim_record(err);
    gbsim_stream_destroy(st);
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    struct gbsim_stream *st;
    cudaError_t err;
    ENTER_CTX(d);
    if (!(st = gbsim_stream_of(stream, d, &err)))
        return gbsim_record(err);
    gbsim_stream_drain(st);
    return gbsim_record(sticky_of(gbsim_stream_device(st)));
}

/* cudaErrorNotReady is an answer, not an error: it is not recorded as the last error. */
GBSIM_API cudaError_t cudaStreamQuery(cudaStream_t stream) {
    struct gbsim_stream *st;
    cudaError_t err;
    ENTER_CTX(d);
    if (!(st = gbsim_stream_of(stream, d, &err)))
        return gbsim_record(err);
    if ((err = sticky_of(gbsim_stream_device(st))) != cudaSuccess)
        return gbsim_record(err);
    return gbsim_stream_idle(st) ? cudaSuccess : cudaErrorNotReady;
}

struct wait_op {
    struct gbsim_op op;
    struct gbsim_event *e;
    long seq;
};

static cudaError_t run_wait(struct gbsim_op *op, int broken) {
    struct wait_op *w = (struct wait_op *)op;
    (void)broken;
    gbsim_lock();
    while (w->e->completed < w->seq)
        pthread_cond_wait(gbsim_progress(), gbsim_big_lock());
    gbsim_unlock();
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                          unsigned int flags) {
    struct gbsim_stream *st;
    struct gbsim_event *e;
    struct wait_op *w;
    cudaError_t err;
    ENTER_CTX(d);
    if (flags != 0)
        return gbsim_record(cudaErrorInvalidValue);
    if (!(e = gbsim_event_of(event)))
        return gbsim_record(cudaErrorInvalidResourceHandle);
    if (!(st = gbsim_stream_of(stream, d, &err)))
        return gbsim_record(err);
    if (!(w = calloc(1, sizeof *w)))
        return gbsim_record(cudaErrorMemoryAllocation);
    w->op.run = run_wait;
    w->e = e;
    gbsim_lock();
    w->seq = e->recorded; /* the marker queued last, as the runtime takes it */
    gbsim_unlock();
    gbsim_enqueue(st, &w->op, 0);
    return cudaSuccess;
}

/* --- events ----------------------------------------------------------------------------------- */
GBSIM_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
    struct gbsim_event *e;
    const unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    ENTER_CTX(d);
    if (!event || (flags & ~known) ||
        ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
        return gbsim_record(cudaErrorInvalidValue);
    if (!(e = gbsim_event_new(d, flags)))
        return gbsim_record(cudaErrorMemoryAllocation);
    *event = (cudaEvent_t)e;
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaEventCreate(cudaEvent_t *event) {
    struct gbsim_event *e;
    ENTER_CTX(d);
    if (!event)
        return gbsim_record(cudaErrorInvalidValue);
    if (!(e = gbsim_event_new(d, 0)))
        return gbsim_record(cudaErrorMemoryAllocation);
    *event = (cudaEvent_t)e;
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaEventDestroy(cudaEvent_t event) {
    struct gbsim_event *e;
    ENTER_CTX(d);
    (void)d;
    if (!(e = gbsim_event_of(event)))
        return gbsim_record(cudaErrorInvalidResourceHandle);
    gbsim_event_destroy(e);
    return cudaSuccess;
}

GBSIM_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    struct gbsim_event *e;
    struct gbsim_stream *st;
    cudaError_t err;
    ENTER_CTX(d);
    if (!(e = gbsim_event_of(event)))
        return gbsim_record(cudaErrorInvalidResourceHandle);
    if (!(st = gbsim_stream_of(stream, d, &err)))
        return gbsim_record(err);
    if (gbsim_stream_device(st) != e->dev)
        return gbsim_record(cudaErrorInvalidResourceHandle);
    return gbsim_record(gbsim_event_record(e, st));
}

GBSIM_API cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    struct gbsim_event *e;
    ENTER_CTX(d);
    (void)d;
    if (!(e = gbsim_event_of(event)))
        return gbsim_record(cudaErrorInvalidResourceHandle);
    gbsim_event_wait(e);
    return gbsim_record(sticky_of(e->dev));
}

GBSIM_API cudaError_t cudaEventQuery(cudaEvent_t event) {
    struct gbsim_event *e;
    ENTER_CTX(d);
    (void)d;
    if (!(e = gbsim_event_of(event)))
        return gbsim_record(cudaErrorInvalidResourceHandle);
    return gbsim_event_complete(e) ? cudaSuccess : cudaErrorNotReady;
}

/* The time between the markers' execution, in ms. Events without timing or never recorded:
 * cudaErrorInvalidResourceHandle; a marker not yet run: cudaErrorNotReady (CUDA Runtime API,
 * cudaEventElapsedTime). */
GBSIM_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    struct gbsim_event *a, *b;
    ENTER_CTX(d);
    (void)d;
    if (!ms)
        return gbsim_record(cudaErrorInvalidValue);
    if (!(a = gbsim_event_of(start)) || !(b = gbsim_event_of(end)))
        return gbsim_record(cudaErrorInvalidResourceHandle);
    gbsim_lock();
    if ((a->flags | b->flags) & cudaEventDisableTiming || !a->recorded || !b->recorded) {
        gbsim_unlock();
        return gbsim_record(cudaErrorInvalidResourceHandle);
    }
    if (a->completed < a->recorded || b->completed < b->recorded) {
        gbsim_unlock();
        return gbsim_record(cudaErrorNotReady);
    }
    *ms = (float)(b->t_ms - a->t_ms);
    gbsim_unlock();
    return cudaSuccess;
}

/* --- kernels ---------------------------------------------------------------------------------- */
GBSIM_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
    ENTER_CTX(d);
    if (!attr)
        return gbsim_record(cudaErrorInvalidValue);
    return gbsim_record(gbsim_func_attributes(func, d, attr));
}

GBSIM_API cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                           int value) {
    ENTER_CTX(d);
    return gbsim_record(gbsim_func_set_attribute(func, d, (int)attr, value));
}

/* --- driver entry points (cudaGetDriverEntryPoint*) ---------------------------------------------
 * The driver functions gpubench asks the runtime for: cuTensorMapEncodeTiled (gemm/cuda_tc's
 * Hopper kernel, kernels/gemm/cuda.cu), which here checks the driver's rules (the CUDA Driver API
 * reference: 64-byte aligned map, 16-byte aligned address, row strides multiples of 16 and below
 * 2^40, box sizes 1–256, a swizzled box row no wider than the swizzle) and writes the emulation
 * twin's map (kernels/gemm/wgmma_tmap.h) into the opaque CUtensorMap; and cuGetErrorName. Rank 2
 * and 16-bit or 32-bit elements only: all that gpubench encodes. */
#if CUDART_VERSION >= 12000
#include <cuda.h>

#include "kernels/gemm/wgmma_tmap.h"

static CUresult sim_tensor_map_encode_tiled(CUtensorMap *map, CUtensorMapDataType type,
                                            cuuint32_t rank, void *addr, const cuuint64_t *dim,
                                            const cuuint64_t *stride, const cuuint32_t *box,
                                            const cuuint32_t *estride,
                                            CUtensorMapInterleave interleave,
                                            CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                                            CUtensorMapFloatOOBfill oob) {
    struct gb_wg_tmap t;
    unsigned es =
        type == CU_TENSOR_MAP_DATA_TYPE_FLOAT16 || type == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 ? 2
        : type == CU_TENSOR_MAP_DATA_TYPE_FLOAT32                                           ? 4
                                                                                            : 0;
    unsigned span = swizzle == CU_TENSOR_MAP_SWIZZLE_128B  ? 128
                    : swizzle == CU_TENSOR_MAP_SWIZZLE_64B ? 64
                    : swizzle == CU_TENSOR_MAP_SWIZZLE_32B ? 32
                                                           : 0;
    (void)l2;
    if (!map || ((size_t)map & 63) || rank != 2 || !es || ((size_t)addr & 15) || !dim || !stride ||
        !box || !estride || interleave != CU_TENSOR_MAP_INTERLEAVE_NONE ||
        oob != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
        return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < 2; i++)
        if (dim[i] < 1 || dim[i] > (1ULL << 32) || box[i] < 1 || box[i] > 256 || estride[i] != 1)
            return CUDA_ERROR_INVALID_VALUE;
    if (stride[0] % 16 || stride[0] >= (1ULL << 40) || stride[0] < dim[0] * es ||
        (box[0] * es) % 16 || (span && box[0] * es > span) || (span && span != 128))
        return CUDA_ERROR_INVALID_VALUE; /* the twin swizzles 128-byte rows only */
    memset(&t, 0, sizeof t);
    t.base = (unsigned long long)(size_t)addr;
    t.dim[0] = dim[0];
    t.dim[1] = dim[1];
    t.stride = stride[0];
    t.box[0] = box[0];
    t.box[1] = box[1];
    t.elem_bytes = es;
    t.swizzle = span;
    _Static_assert(sizeof t <= sizeof *map, "the twin's map must fit a CUtensorMap");
    memset(map, 0, sizeof *map);
    memcpy(map, &t, sizeof t);
    return CUDA_SUCCESS;
}

static CUresult sim_get_error_name(CUresult r, const char **name) {
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    *name = r == CUDA_SUCCESS               ? "CUDA_SUCCESS"
            : r == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
                                            : NULL;
    return *name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static cudaError_t sim_entry_point(const char *symbol, void **fn,
                                   enum cudaDriverEntryPointQueryResult *status) {
    if (!symbol || !fn)
        return gbsim_record(cudaErrorInvalidValue);
    *fn = strcmp(symbol, "cuTensorMapEncodeTiled") == 0 ? (void *)sim_tensor_map_encode_tiled
          : strcmp(symbol, "cuGetErrorName") == 0       ? (void *)sim_get_error_name
                                                        : NULL;
    if (status)
        *status = *fn ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
    return cudaSuccess;
}

#if CUDART_VERSION >= 12050
GBSIM_API cudaError_t cudaGetDriverEntryPointByVersion(
    const char *symbol, void **fn, unsigned int version, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *status) {
    ENTER_NOCTX(current_ordinal());
    (void)version, (void)flags;
    return sim_entry_point(symbol, fn, status);
}
#else
GBSIM_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn,
                                              unsigned long long flags,
                                              enum cudaDriverEntryPointQueryResult *status) {
    ENTER_NOCTX(current_ordinal());
    (void)flags;
    return sim_entry_point(symbol, fn, status);
}
#endif
#endif

/* <<<grid, block, shmem, stream>>> pushes its configuration, the host stub pops it and
 * launches. One pending configuration per host thread is all nvcc's code needs; a few nest. */
enum { MAX_CONFIGS = 8 };
static __thread struct {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
} configs[MAX_CONFIGS];
static __thread int nconfigs;

GBSIM_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st *stream) {
    ENTER_CTX(d);
    (void)d;
    if (nconfigs == MAX_CONFIGS)
        return gbsim_record(cudaErrorInvalidConfiguration);
    configs[nconfigs].grid = gridDim;
    configs[nconfigs].block = blockDim;
    configs[nconfigs].shmem = sharedMem;
    configs[nconfigs].stream = stream;
    nconfigs++;
    return cudaSuccess;
}

GBSIM_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                 void *stream) {
    COUNT(current_ordinal());
    if (nconfigs == 0)
        return gbsim_record(cudaErrorMissingConfiguration);
    nconfigs--;
    *gridDim = configs[nconfigs].grid;
    *blockDim = configs[nconfigs].block;
    *sharedMem = configs[nconfigs].shmem;
    *(cudaStream_t *)stream = configs[nconfigs].stream;
    return cudaSuccess;
}

#if CUDART_VERSION >= 12000 /* cudaKernel_t and the stubs that use it: CUDA 12 on */
/* The stub asks once per kernel and keeps the handle in a static: not counted (a fault here would
 * make every later launch of the kernel fail, an artefact of the stub rather than of CUDA). */
GBSIM_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *funcAddr) {
    if (!kernel)
        return gbsim_record(cudaErrorInvalidValue);
    *kernel = (cudaKernel_t)funcAddr;
    return cudaSuccess;
}

GBSIM_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream) {
    ENTER_CTX(d);
    (void)d;
    return gbsim_record(
        gbsim_launch((const void *)kernel, gridDim, blockDim, args, sharedMem, stream));
}

GBSIM_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void **args, size_t sharedMem, cudaStream_t stream) {
    ENTER_CTX(d);
    (void)d;
    return gbsim_record(
        gbsim_launch((const void *)kernel, gridDim, blockDim, args, sharedMem, stream));
}

#endif

/* What host stubs of toolkits before CUDA 13 call. */
GBSIM_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                       size_t sharedMem, cudaStream_t stream) {
    ENTER_CTX(d);
    (void)d;
    return gbsim_record(gbsim_launch(func, gridDim, blockDim, args, sharedMem, stream));
}
