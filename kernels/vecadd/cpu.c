/* cpu.c — vecadd/cpu: c = a + b as a threaded loop on our pinned pool, vectorized for the widest
 * unit the CPU has.
 *
 * Arrays far larger than the last-level cache are written with non-temporal (streaming) stores:
 * a normal store first reads the destination line into the cache (read-for-ownership), so
 * c = a + b would move 16 bytes per element instead of 12. Arrays that fit in the cache keep
 * normal stores, which leave c in the cache for whoever reads it next.
 */
#include <stdint.h>
#include <unistd.h>

#include "harness/core/workload.h"
#include "kernels/common/cpu_features.h"
#include "kernels/common/cpu_pool.h"
#include "kernels/vecadd/cpu16.h"
#include "bench/vecadd.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VECADD_X86 1
#endif

struct vecadd_job {
    const float *a, *b;
    float *c;
    const double *a64, *b64; /* f64 rows */
    double *c64;
    size_t n;
    int stream; /* use non-temporal stores */
};

/* Cloned for AVX-512, AVX2 and baseline x86-64, chosen at load time: one portable binary that
 * still uses the widest vectors of the machine it runs on (as OpenBLAS does). */
GB_TARGET_CLONES
static void add_range(const float *restrict a, const float *restrict b, float *restrict c,
                      size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++)
        c[i] = a[i] + b[i];
}

/* The f64 loop: cloned like add_range; no streaming-store path (an f64 row's large arrays pay
 * the read-for-ownership of c, which its GB/s shows). */
GB_TARGET_CLONES
static void add_range64(const double *restrict a, const double *restrict b, double *restrict c,
                        size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++)
        c[i] = a[i] + b[i];
}

#if VECADD_X86
/* Streaming stores need 64-byte-aligned destinations: pool_range gives each thread a range
 * that starts on a 16-float boundary, and buffers are 64-byte aligned; a ragged head or tail
 * goes through add_range. The loads are prefetched 2 KiB ahead: measured against STREAM Add on
 * a 2-core Skylake-X, interleaved, 4 rounds, that took the ratio from 0.94–1.01 to 1.01–1.06. */
enum { PREFETCH_FLOATS = 512 };

__attribute__((target("avx512f"))) static void add_stream_avx512(const float *a, const float *b,
                                                                  float *c, size_t lo, size_t hi) {
    size_t i = lo;
    for (; i + 16 <= hi; i += 16) {
        _mm_prefetch((const char *)(a + i + PREFETCH_FLOATS), _MM_HINT_T0);
        _mm_prefetch((const char *)(b + i + PREFETCH_FLOATS), _MM_HINT_T0);
        _mm512_stream_ps(c + i, _mm512_add_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
    }
    add_range(a, b, c, i, hi);
}

__attribute__((target("avx"))) static void add_stream_avx(const float *a, const float *b,
                                                          float *c, size_t lo, size_t hi) {
    size_t i = lo;
    for (; i + 8 <= hi; i += 8) {
        if (i % 16 == 0) { /* one prefetch per 64-byte line */
            _mm_prefetch((const char *)(a + i + PREFETCH_FLOATS), _MM_HINT_T0);
            _mm_prefetch((const char *)(b + i + PREFETCH_FLOATS), _MM_HINT_T0);
        }
        _mm256_stream_ps(c + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
    }
    add_range(a, b, c, i, hi);
}

static void add_stream(const float *a, const float *b, float *c, size_t lo, size_t hi) {
    size_t head = lo;
    while (head < hi && ((uintptr_t)(c + head) & 63))
        head++;
    add_range(a, b, c, lo, head);
    if (GB_CPU_HAS_AVX512F())
        add_stream_avx512(a, b, c, head, hi);
    else if (__builtin_cpu_supports("avx"))
        add_stream_avx(a, b, c, head, hi);
    else
        add_range(a, b, c, head, hi);
    _mm_sfence(); /* streaming stores are weakly ordered: publish them before returning */
}
#endif

static void vecadd_part(void *arg, int tid, int nthreads) {
    const struct vecadd_job *j = arg;
    size_t lo, hi;
    pool_range(j->n, nthreads, tid, 16 /* floats per 64-byte line */, &lo, &hi);
    if (j->c64) {
        add_range64(j->a64, j->b64, j->c64, lo, hi);
        return;
    }
#if VECADD_X86
    if (j->stream) {
        add_stream(j->a, j->b, j->c, lo, hi);
        return;
    }
#endif
    add_range(j->a, j->b, j->c, lo, hi);
}

/* Stream when the three arrays are more than twice the last-level cache. */
static int want_stream(size_t n) {
    static long llc = -1;
    if (llc < 0) {
        long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
        llc = l3 > 0 ? l3 : l2 > 0 ? l2 : 8L << 20;
    }
    return 12.0 * (double)n > 2.0 * (double)llc;
}

/* Below this many elements (1.5 MiB of arrays, cache-resident) one thread finishes before the
 * pool's workers would have woken up (a wake-up costs tens of microseconds). */
enum { VECADD_MIN_PARALLEL = 1 << 17 };

/* c[i] = a[i] + b[i] for i in [0, n), split over the threads of the pool in contiguous
 * cache-line-aligned ranges. */
static enum status cpu_run(struct impl_ctx *ctx) {
    struct problem *p = ctx->p;
    size_t n = p->out[VECADD_OUT_C].n;
    if (p->dtype == DT_F16)
        return vecadd16_run(ctx, VECADD_MIN_PARALLEL);
    struct vecadd_job j = {p->in[VECADD_IN_A].data,   p->in[VECADD_IN_B].data,
                           p->out[VECADD_OUT_C].data,  p->in[VECADD_IN_A].data64,
                           p->in[VECADD_IN_B].data64, p->out[VECADD_OUT_C].data64,
                           n,                         want_stream(n)};
    if (n < VECADD_MIN_PARALLEL)
        vecadd_part(&j, 0, 1);
    else
        pool_run(vecadd_part, &j);
    return ST_OK;
}

/* f32 and f64 rows work in p's buffers; f16 rows in halves of their own (cpu16.c). */
static enum status cpu_prepare(struct impl_ctx *ctx) {
    return ctx->p->dtype == DT_F16 ? vecadd16_prepare(ctx) : ST_OK;
}

static enum status cpu_finish(struct impl_ctx *ctx) {
    return ctx->p->dtype == DT_F16 ? vecadd16_finish(ctx) : ST_OK;
}

static void cpu_release(struct impl_ctx *ctx) {
    if (ctx->p->dtype == DT_F16)
        vecadd16_release(ctx);
}

const struct impl vecadd_cpu_impl = {
    .name = "cpu",
    .kind = DEV_CPU,
    .summary = "threaded C loop c = a + b (hwloc-pinned pool; f16: F16C conversions)",
    .prepare = cpu_prepare,
    .run = cpu_run,
    .finish = cpu_finish,
    .release = cpu_release,
    .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_F16)};
