/* memcpy.c — workload `memcpy`: host↔device and device↔device copy bandwidth, float32 buffers.
 *
 * On old PCIe 2.0 cards the transfers decide whether the GPU is worth using at all, and pinned
 * host memory is often twice as fast as pageable: each direction is measured with both.
 * Implementations (CUDA devices only, kernels/memcpy/cuda.c): h2d_pinned, h2d_pageable,
 * d2h_pinned, d2h_pageable, d2d. `gbps` counts the bytes copied once; a device-to-device copy
 * moves twice that through device memory (read + write), so its `peak_pct` reads half of the
 * memory traffic. H2D/D2H are bounded by PCIe, not by the memory peak `peak_pct` uses.
 * CUDA builds only (bench/workloads.def).
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/inputs.h"
#include "harness/core/interrupt.h"
#include "harness/core/verify.h"
#include "bench/memcpy.h"

enum { BYTES = MEMCPY_KEY_BYTES, IN_SRC = MEMCPY_IN_SRC, OUT_DST = MEMCPY_OUT_DST };

static const char *const keys[] = {"bytes", NULL};
/* 64 MiB: past the size where PCIe reaches its plateau (NVIDIA's bandwidthTest uses 32 MiB),
 * and a device-to-device copy (2 × 64 MiB) fits a 512 MiB card with room to spare. */
static const char *const defaults[] = {"bytes=67108864", NULL};
static const char *const quick[] = {"bytes=8388608", NULL};
/* 4 KiB … 128 MiB: small copies show the per-call latency, large ones the bandwidth; 128 MiB
 * d2d still fits a 512 MiB card. */
static const char *const sweep[] = {
    "bytes=4096",      "bytes=65536", "bytes=1048576", "bytes=8388608", "bytes=33554432",
    "bytes=134217728", NULL};

static const char *const tests[] = {"bytes=4", "bytes=4100", NULL};

static int memcpy_complete(struct shape *s, const int *given, char *err, size_t errlen) {
    (void)given;
    if (s->v[BYTES] < 4 || s->v[BYTES] % 4 != 0) {
        snprintf(err, errlen, "memcpy: bytes=%ld must be a positive multiple of 4 (float32)",
                 s->v[BYTES]);
        return -1;
    }
    return 0;
}

static double memcpy_flops(const struct shape *s) {
    (void)s;
    return 0.0;
}

/* The bytes copied per run (see the file comment for d2d). */
static double memcpy_bytes(const struct shape *s) {
    return (double)s->v[BYTES];
}

/* Source and destination on the host, plus the pinned staging buffer an implementation may
 * allocate. */
static double memcpy_host_bytes(const struct shape *s) {
    return 3.0 * (double)s->v[BYTES];
}

static int memcpy_make(struct problem *p, char *err, size_t errlen) {
    (void)err, (void)errlen;
    size_t n = (size_t)p->shape.v[BYTES] / sizeof(float);
    p->nin = 1;
    p->nout = 1;
    if (buf_alloc(&p->in[IN_SRC], "src", n) || buf_alloc(&p->out[OUT_DST], "dst", n))
        return -1;
    fill_uniform(p->in[IN_SRC].data, n, p->seed, 1, -1.0f, 1.0f);
    return 0;
}

/* A copy is exact: every element must equal its source bit for bit (atol = rtol = 0). Checked
 * in chunks so that no n-element double reference is needed. */
static enum status memcpy_verify(const struct problem *p, struct verify_report *r) {
    enum { CHUNK = 4096 };
    double ref[CHUNK];
    const float *src = p->in[IN_SRC].data, *dst = p->out[OUT_DST].data;
    size_t n = p->out[OUT_DST].n;
    for (size_t i0 = 0; i0 < n && !gb_interrupted; i0 += CHUNK) {
        size_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        for (size_t j = 0; j < m; j++)
            ref[j] = (double)src[i0 + j];
        verify_close(r, "dst", dst + i0, ref, NULL, m, 0.0, 0.0);
    }
    return verify_status(r);
}

static void memcpy_free(struct problem *p) {
    problem_free_bufs(p);
}

const struct workload memcpy_workload = {
    .name = "memcpy",
    .summary = "host<->device and device<->device copies, pinned and pageable (GB/s)",
    .keys = keys,
    .default_shapes = defaults,
    .quick_shapes = quick,
    .sweep_shapes = sweep,
    .test_shapes = tests,
    .complete = memcpy_complete,
    .flops = memcpy_flops,
    .bytes = memcpy_bytes,
    .host_bytes = memcpy_host_bytes,
    .make_problem = memcpy_make,
    .verify = memcpy_verify,
    .free_problem = memcpy_free,
};
