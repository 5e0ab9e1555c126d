/* backend_cpu.c — the CPU backend: one device, `cpu`, with pinned pool threads and OpenBLAS.
 *
 * Peaks are measured at start-up, not looked up, because the clock the kernel reports is the
 * nominal one (VMs, and cores that turbo far above it) and a peak from it reads high:
 *  - FP32: cores × SIMD lanes × 2 (FMA) × FMA units × clock, for each ISA the kernels use
 *    (AVX-512 where the CPU has it, AVX2 with FMA; our loops and OpenBLAS pick the widest). On
 *    every core at once, a chain of dependent register adds (one per cycle on every x86) runs
 *    beside that ISA's FMAs, so the clock is the one the cores keep under that ISA's load; a loop
 *    of independent FMAs gives the FMA units (FMAs per cycle, rounded). The peak is the highest
 *    over the ISAs. Without x86 SIMD the clock is the kernel's (cpufreq max, else "cpu MHz").
 *  - memory: a STREAM-style Add (c = a + b, streaming stores) over arrays 4× the last-level
 *    cache, on every core; the best of a few passes.
 * Both are cached for the run and written, with the topology and the pool, into the device's
 * `extra`: machine facts said once per run (harness/run/sinks.c, harness/io/json_run.c,
 * `gpubench list`); a row's note names only the peak it divides by. A row faster than
 * the FP32 peak asks for it again (peak_now): the clock changed; a row faster than the memory
 * peak asks for that again (mem_peak_now): another job's load, say, held the start-up
 * measurement down. The environment variables GPUBENCH_TEST_CPU_CLOCK_MHZ ("3000", or
 * "3000,4500": the start-up value, then what each later measurement finds) and
 * GPUBENCH_TEST_CPU_STREAM_GBPS (the same: "8,45"; a 0 in the list measures for real) replace
 * the measurements; only tests set them (docs/testing.md).
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/blas.h"
#include "harness/core/numfmt.h"
#include "harness/run/backend.h"
#include "harness/run/blas_core.h"
#include "harness/run/hardware.h"
#include "harness/run/peak_memo.h"
#include "harness/run/topology.h"
#include "kernels/common/cpu_features.h"
#include "kernels/common/cpu_pool.h"

static void cpu_model(char *out, size_t len) {
    snprintf(out, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c += 2;
                c[strcspn(c, "\n")] = '\0';
                snprintf(out, len, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

/* --- measured peaks --------------------------------------------------------------------------- */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CAL_X86 1
#if defined(__clang__) || __GNUC__ >= 5 /* AVX-512 intrinsics, as GB_CPU_HAS_AVX512F */
#define CAL_AVX512 1
#endif
#endif

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* A clock loop's iteration is 16 dependent register adds: 16 cycles. The ISA's FMAs beside it
 * (4 independent chains, far from the FMA units' throughput) keep the cores at the clock they
 * run that ISA at. A throughput loop's iteration is ACC independent FMAs. `sink` keeps the
 * results alive. */
enum { CLOCK_CYCLES = 16 };
#define CAL_ADD16                                                                                  \
    "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"         \
    "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"         \
    "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"

typedef void (*cal_loop)(long iters, volatile float *sink);

#if CAL_X86
static void clock_plain(long iters, volatile float *sink) {
    unsigned long x = 0, one = 1;
    for (long i = 0; i < iters; i++)
        __asm__ volatile(CAL_ADD16 : "+r"(x) : "r"(one));
    *sink = (float)x;
}

__attribute__((target("avx2,fma"))) static void clock_avx2(long iters, volatile float *sink) {
    __m256 a0 = _mm256_set1_ps(1), a1 = _mm256_set1_ps(2), a2 = _mm256_set1_ps(3),
           a3 = _mm256_set1_ps(4);
    __m256 m = _mm256_set1_ps(0.9999f), b = _mm256_set1_ps(1e-4f);
    unsigned long x = 0, one = 1;
    for (long i = 0; i < iters; i++) {
        a0 = _mm256_fmadd_ps(a0, m, b);
        a1 = _mm256_fmadd_ps(a1, m, b);
        a2 = _mm256_fmadd_ps(a2, m, b);
        a3 = _mm256_fmadd_ps(a3, m, b);
        __asm__ volatile(CAL_ADD16 : "+r"(x) : "r"(one));
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3));
    *sink = _mm256_cvtss_f32(s) + (float)x;
}

/* 12 accumulators: enough for 2 units of latency 5 (Haswell), 16 ymm registers. */
__attribute__((target("avx2,fma"))) static void fma_avx2(long iters, volatile float *sink) {
    __m256 m = _mm256_set1_ps(0.9999f), b = _mm256_set1_ps(1e-4f);
    /* different starts: equal accumulators would be merged into one chain by the compiler */
    __m256 a0 = _mm256_set1_ps(1), a1 = _mm256_set1_ps(2), a2 = _mm256_set1_ps(3),
           a3 = _mm256_set1_ps(4), a4 = _mm256_set1_ps(5), a5 = _mm256_set1_ps(6),
           a6 = _mm256_set1_ps(7), a7 = _mm256_set1_ps(8), a8 = _mm256_set1_ps(9),
           a9 = _mm256_set1_ps(10), a10 = _mm256_set1_ps(11), a11 = _mm256_set1_ps(12);
    for (long i = 0; i < iters; i++) {
        a0 = _mm256_fmadd_ps(a0, m, b);
        a1 = _mm256_fmadd_ps(a1, m, b);
        a2 = _mm256_fmadd_ps(a2, m, b);
        a3 = _mm256_fmadd_ps(a3, m, b);
        a4 = _mm256_fmadd_ps(a4, m, b);
        a5 = _mm256_fmadd_ps(a5, m, b);
        a6 = _mm256_fmadd_ps(a6, m, b);
        a7 = _mm256_fmadd_ps(a7, m, b);
        a8 = _mm256_fmadd_ps(a8, m, b);
        a9 = _mm256_fmadd_ps(a9, m, b);
        a10 = _mm256_fmadd_ps(a10, m, b);
        a11 = _mm256_fmadd_ps(a11, m, b);
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                             _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
    *sink = _mm256_cvtss_f32(s);
}

/* Without FMA (Sandy Bridge, Ivy Bridge): AVX adds beside the chain; one add and one multiply
 * unit, counted as one FMA unit. */
__attribute__((target("avx"))) static void clock_avx(long iters, volatile float *sink) {
    __m256 a0 = _mm256_set1_ps(1), a1 = _mm256_set1_ps(2), b = _mm256_set1_ps(1e-4f);
    unsigned long x = 0, one = 1;
    for (long i = 0; i < iters; i++) {
        a0 = _mm256_add_ps(a0, b);
        a1 = _mm256_add_ps(a1, b);
        __asm__ volatile(CAL_ADD16 : "+r"(x) : "r"(one));
    }
    *sink = _mm256_cvtss_f32(_mm256_add_ps(a0, a1)) + (float)x;
}
#endif

#if CAL_AVX512
__attribute__((target("avx512f"))) static void clock_avx512(long iters, volatile float *sink) {
    __m512 a0 = _mm512_set1_ps(1), a1 = _mm512_set1_ps(2), a2 = _mm512_set1_ps(3),
           a3 = _mm512_set1_ps(4);
    __m512 m = _mm512_set1_ps(0.9999f), b = _mm512_set1_ps(1e-4f);
    unsigned long x = 0, one = 1;
    for (long i = 0; i < iters; i++) {
        a0 = _mm512_fmadd_ps(a0, m, b);
        a1 = _mm512_fmadd_ps(a1, m, b);
        a2 = _mm512_fmadd_ps(a2, m, b);
        a3 = _mm512_fmadd_ps(a3, m, b);
        __asm__ volatile(CAL_ADD16 : "+r"(x) : "r"(one));
    }
    float t[16]; /* not _mm512_reduce_add_ps: GCC 7+ */
    _mm512_storeu_ps(t, _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
    *sink = t[0] + t[15] + (float)x;
}

/* 16 accumulators of 32 zmm registers. */
__attribute__((target("avx512f"))) static void fma_avx512(long iters, volatile float *sink) {
    __m512 m = _mm512_set1_ps(0.9999f), b = _mm512_set1_ps(1e-4f);
    __m512 a[16];
    for (int k = 0; k < 16; k++) /* different starts, as in fma_avx2 */
        a[k] = _mm512_set1_ps((float)(k + 1));
    for (long i = 0; i < iters; i++) {
        a[0] = _mm512_fmadd_ps(a[0], m, b);
        a[1] = _mm512_fmadd_ps(a[1], m, b);
        a[2] = _mm512_fmadd_ps(a[2], m, b);
        a[3] = _mm512_fmadd_ps(a[3], m, b);
        a[4] = _mm512_fmadd_ps(a[4], m, b);
        a[5] = _mm512_fmadd_ps(a[5], m, b);
        a[6] = _mm512_fmadd_ps(a[6], m, b);
        a[7] = _mm512_fmadd_ps(a[7], m, b);
        a[8] = _mm512_fmadd_ps(a[8], m, b);
        a[9] = _mm512_fmadd_ps(a[9], m, b);
        a[10] = _mm512_fmadd_ps(a[10], m, b);
        a[11] = _mm512_fmadd_ps(a[11], m, b);
        a[12] = _mm512_fmadd_ps(a[12], m, b);
        a[13] = _mm512_fmadd_ps(a[13], m, b);
        a[14] = _mm512_fmadd_ps(a[14], m, b);
        a[15] = _mm512_fmadd_ps(a[15], m, b);
    }
    __m512 s = a[0];
    for (int k = 1; k < 16; k++)
        s = _mm512_add_ps(s, a[k]);
    float t[16];
    _mm512_storeu_ps(t, s);
    *sink = t[0] + t[15];
}
#endif

/* One ISA the kernels use, and what calibrating it found. */
struct isa_cal {
    const char *name;
    int lanes; /* FP32 lanes */
    int fma;   /* has FMA */
    cal_loop clock, rate;
    int acc;      /* FMAs per iteration of `rate` */
    double ghz;   /* measured clock under this ISA's load */
    int units;    /* FMA (or add + multiply) units: FMAs per cycle, rounded */
    int measured; /* ghz and units come from the loops (not the mock or the kernel's clock) */
};

enum { ISA_MAX = 2 };

static struct {
    int nisa, best; /* calibrated ISAs; the one the peak comes from */
    struct isa_cal isa[ISA_MAX];
    int cores;                 /* cores the peak counts */
    double gflops, gbps;       /* FP32 and memory peaks */
    int mocked, stream_mocked; /* from the test variables */
    int measured;              /* the clock is measured (not the kernel's nominal one) */
    int rechecks;              /* peak_now calls so far (the mock's next value) */
    int mem_rechecks;          /* mem_peak_now calls so far (the mock's next value) */
    char mem_how[160];
} cal;

/* The ISAs the kernels use, widest first. Returns how many. */
static int cpu_isas(struct isa_cal *out) {
    int n = 0;
    __builtin_cpu_init();
    int fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#if CAL_AVX512
    if (GB_CPU_HAS_AVX512F())
        out[n++] = (struct isa_cal){"AVX-512", 16, 1, clock_avx512, fma_avx512, 16, 0, 0, 0};
#endif
#if CAL_X86
    if (fma)
        out[n++] = (struct isa_cal){"AVX2", 8, 1, clock_avx2, fma_avx2, 12, 0, 0, 0};
    else if (n == 0 && __builtin_cpu_supports("avx"))
        out[n++] = (struct isa_cal){"AVX", 8, 0, clock_avx, NULL, 0, 0, 0, 0};
    else if (n == 0)
        out[n++] = (struct isa_cal){"SSE", 4, 0, clock_plain, NULL, 0, 0, 0, 0};
#else
    (void)fma;
    out[n++] = (struct isa_cal){"scalar", 1, 0, NULL, NULL, 0, 0, 0, 0};
#endif
    return n;
}

/* Iterations per ns of `f` over about `ms` milliseconds. */
static double loop_rate(cal_loop f, double ms) {
    volatile float sink;
    long chunk = 2048, iters = 0;
    double t0 = now_ns(), t;
    do {
        f(chunk, &sink);
        iters += chunk;
        t = now_ns() - t0;
    } while (t < ms * 1e6);
    return (double)iters / t;
}

/* What each thread of a calibration found: best clock (GHz) and FMA rate (per ns). */
struct cal_job {
    const struct isa_cal *isa;
    int cores;
    double ghz[256], fma[256];
};

/* On every pool thread with a core of its own: ramp the clock up under the ISA's FMAs, then the
 * best of a few short clock and throughput trials (interference only ever slows a trial). */
static void cal_thread(void *arg, int tid, int nthreads) {
    struct cal_job *j = arg;
    (void)nthreads;
    if (tid >= j->cores || tid >= 256)
        return;
    const struct isa_cal *isa = j->isa;
    cal_loop ramp = isa->rate ? isa->rate : isa->clock;
    loop_rate(ramp, 20);
    double ghz = 0, fma = 0;
    for (int t = 0; t < 8; t++) {
        double g = CLOCK_CYCLES * loop_rate(isa->clock, 1);
        ghz = g > ghz ? g : ghz;
        if (isa->rate) {
            double f = isa->acc * loop_rate(isa->rate, 1);
            fma = f > fma ? f : fma;
        }
    }
    j->ghz[tid] = ghz;
    j->fma[tid] = fma;
}

/* Measure isa's clock and FMA units on `cores` cores at once. */
static void calibrate(struct isa_cal *isa, int cores) {
    struct cal_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->isa = isa;
    j->cores = cores;
    pool_run(cal_thread, j);
    double ghz = 0, fma = 0;
    for (int i = 0; i < cores && i < 256; i++) {
        ghz = j->ghz[i] > ghz ? j->ghz[i] : ghz;
        fma = j->fma[i] > fma ? j->fma[i] : fma;
    }
    free(j);
    isa->ghz = ghz;
    long units = isa->rate && ghz > 0 ? lround(fma / ghz) : 1;
    isa->units = units < 1 ? 1 : units > 4 ? 4 : (int)units;
}

/* The k-th value of the test variable `var` ("1,5000": the start-up value, then every later
 * measurement's; the last one again past its end), or 0 without the mock (or where the list
 * says 0: measure). */
static double mock_nth(const char *var, int k) {
    const char *v = getenv(var);
    if (!v || !*v)
        return 0;
    double val = 0;
    for (int i = 0; *v; i++) {
        char *end;
        double x = strtod(v, &end);
        if (end == v)
            break;
        val = x;
        if (i == k || *end != ',')
            break;
        v = end + 1;
    }
    return val > 0 ? val : 0;
}

/* Highest clock in MHz the kernel reports: cpufreq's max when present (VMs often lack it), else
 * "cpu MHz": the fallback where no ISA can be measured. */
static double kernel_clock_mhz(void) {
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    double khz = 0;
    if (f) {
        if (fscanf(f, "%lf", &khz) != 1)
            khz = 0;
        fclose(f);
        if (khz > 0)
            return khz / 1000.0;
    }
    f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[512];
    double mhz = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "cpu MHz", 7) == 0 && strchr(line, ':') &&
            sscanf(strchr(line, ':') + 1, "%lf", &mhz) == 1)
            break;
    fclose(f);
    return mhz;
}

static double isa_gflops(const struct isa_cal *isa, int cores) {
    return cores * isa->lanes * 2.0 * isa->units * isa->ghz;
}

/* Calibrate every ISA (mock k, or measure), and pick the one with the highest peak. */
static void fp32_peak(int k) {
    double mhz = mock_nth("GPUBENCH_TEST_CPU_CLOCK_MHZ", k);
    cal.mocked = mhz > 0;
    cal.best = 0;
    cal.gflops = 0;
    for (int i = 0; i < cal.nisa; i++) {
        struct isa_cal *isa = &cal.isa[i];
        isa->ghz = 0;
        isa->measured = 0;
        if (cal.mocked) {
            isa->ghz = mhz / 1000;
            isa->units = isa->fma ? 2 : 1;
        } else if (isa->clock) {
            calibrate(isa, cal.cores);
            isa->measured = isa->ghz > 0;
        }
        if (!(isa->ghz > 0)) { /* no loop for this machine, or it failed: the kernel's clock */
            isa->ghz = kernel_clock_mhz() / 1000;
            isa->units = isa->fma ? 2 : 1;
        }
        double g = isa_gflops(isa, cal.cores);
        if (g > cal.gflops) {
            cal.gflops = g;
            cal.best = i;
        }
    }
    cal.measured = cal.mocked || cal.isa[cal.best].measured;
}

/* "AVX2 FMA loop: 3.49 GHz" for the best ISA (with the other ISAs' clocks where there are
 * several); without `ghz`, "AVX2 FMA loop" alone: the footer prints the clock in its product. */
static void clocks_text(char *out, size_t len, int ghz) {
    const struct isa_cal *b = &cal.isa[cal.best];
    int n = snprintf(out, len, "%s %s", b->name,
                     cal.mocked      ? "clock mocked (GPUBENCH_TEST_CPU_CLOCK_MHZ)"
                     : !cal.measured ? "clock from the kernel, not measured"
                     : b->fma        ? "FMA loop"
                                     : "add loop");
    if (ghz && n > 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, ": %.3g GHz", b->ghz);
    for (int i = 0; i < cal.nisa && n > 0 && (size_t)n < len; i++)
        if (i != cal.best)
            n += snprintf(out + n, len - (size_t)n, " (%s %.3g GHz)", cal.isa[i].name,
                          cal.isa[i].ghz);
}

/* STREAM-style Add: c = a + b with streaming stores (no read-for-ownership), so each element
 * moves 12 bytes, as STREAM counts. */
struct stream_job {
    float *a, *b, *c;
    size_t n;
};

#if CAL_X86
__attribute__((target("avx"))) static void stream_add_avx(const float *a, const float *b, float *c,
                                                          size_t lo, size_t hi) {
    size_t i = lo;
    for (; i + 8 <= hi; i += 8) {
        if (i % 16 == 0) {
            _mm_prefetch((const char *)(a + i + 512), _MM_HINT_T0);
            _mm_prefetch((const char *)(b + i + 512), _MM_HINT_T0);
        }
        _mm256_stream_ps(c + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
    }
    for (; i < hi; i++)
        c[i] = a[i] + b[i];
    _mm_sfence();
}
#endif

static void stream_thread(void *arg, int tid, int nthreads) {
    struct stream_job *j = arg;
    size_t lo, hi;
    pool_range(j->n, nthreads, tid, 16, &lo, &hi);
#if CAL_X86
    if (__builtin_cpu_supports("avx")) {
        stream_add_avx(j->a, j->b, j->c, lo, hi);
        return;
    }
#endif
    for (size_t i = lo; i < hi; i++)
        j->c[i] = j->a[i] + j->b[i];
}

/* Each thread first touches its own range (pages land on its NUMA node). */
static void stream_init(void *arg, int tid, int nthreads) {
    struct stream_job *j = arg;
    size_t lo, hi;
    pool_range(j->n, nthreads, tid, 16, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        j->a[i] = 1.0f;
        j->b[i] = 2.0f;
        j->c[i] = 0.0f;
    }
}

/* An array of the Add on transparent huge pages where the kernel offers them: the first touch
 * of 4 KiB pages (a fault each) costs more than the passes themselves (on the VM of
 * docs/measurement.md, 128 MiB of arrays), and a row's re-measure pays it every time. */
enum { HUGE_PAGE = 2 << 20 };
static float *stream_alloc(size_t bytes) {
    bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    float *p = aligned_alloc(HUGE_PAGE, bytes);
#ifdef MADV_HUGEPAGE
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages, as before */
#endif
    return p;
}

/* Memory GB/s: the best of `passes` passes of the Add over 3 arrays of together 4× the last-level
 * cache (at least 64 MiB, at most 1 GiB and an eighth of the memory), after one to warm up.
 * 0 when out of memory. */
static double stream_gbps(size_t llc, size_t mem, int passes, int gap_ms) {
    double total = 4.0 * (double)llc;
    total = total < 64.0 * (1 << 20) ? 64.0 * (1 << 20) : total;
    total = total > 1024.0 * (1 << 20) ? 1024.0 * (1 << 20) : total;
    if (mem && total > (double)mem / 8)
        total = (double)mem / 8;
    struct stream_job j;
    j.n = (size_t)(total / 12) / 16 * 16;
    size_t bytes = j.n * sizeof(float);
    j.a = stream_alloc(bytes);
    j.b = stream_alloc(bytes);
    j.c = stream_alloc(bytes);
    double best = 0;
    if (j.a && j.b && j.c && j.n) {
        pool_run(stream_init, &j);
        pool_run(stream_thread, &j); /* warm */
        for (int pass = 0; pass < passes; pass++) {
            if (gap_ms > 0 && pass > 0) {
                struct timespec gap = {0, gap_ms * 1000000L};
                nanosleep(&gap, NULL);
            }
            double t0 = now_ns();
            pool_run(stream_thread, &j);
            double gbps = 12.0 * (double)j.n / (now_ns() - t0);
            best = gbps > best ? gbps : best;
        }
    }
    free(j.a);
    free(j.b);
    free(j.c);
    return best;
}

/* Passes of the Add at start-up, and when a row asks again: a re-measure stays bounded (arrays
 * of at most 1 GiB, touched 5 times) and cheap (docs/measurement.md, "Peaks": 0.23 s a row on a
 * 2-core VM at load average 9, 128 MiB of arrays, their first touch included). */
enum { STREAM_PASSES = 8, STREAM_PASSES_AGAIN = 3, STREAM_GAP_MS = 10 };

/* The memory peak: the mock, or the best of this machine's last start-up measurements, this
 * run's among them (harness/run/peak_memo.h: one measurement moves with the load of its moment;
 * the machine's key is its hardware facts and the cores the Add ran on). */
static void memory_peak(size_t llc, size_t mem) {
    double mock = mock_nth("GPUBENCH_TEST_CPU_STREAM_GBPS", 0);
    cal.stream_mocked = mock > 0;
    if (cal.stream_mocked) {
        cal.gbps = mock;
        snprintf(cal.mem_how, sizeof cal.mem_how,
                 "memory %.3g GB/s (mocked: GPUBENCH_TEST_CPU_STREAM_GBPS)", cal.gbps);
        return;
    }
    double now = stream_gbps(llc, mem, STREAM_PASSES, STREAM_GAP_MS);
    if (!(now > 0)) {
        cal.gbps = 0;
        snprintf(cal.mem_how, sizeof cal.mem_how, "memory peak not measured (out of memory)");
        return;
    }
    char key[1200], why[200];
    int n;
    hardware_host(key, sizeof key - 32);
    snprintf(key + strlen(key), 32, ";peak_cores=%d", cal.cores);
    cal.gbps = peak_memo(key, now, &n, why, sizeof why);
    if (n > 1)
        snprintf(cal.mem_how, sizeof cal.mem_how,
                 "memory %.3g GB/s (STREAM-style Add, best of this machine's last %d start-ups; "
                 "this one %.3g GB/s)",
                 cal.gbps, n, now);
    else
        snprintf(cal.mem_how, sizeof cal.mem_how,
                 "memory %.3g GB/s (STREAM-style Add at start-up%s%.60s)", cal.gbps,
                 n ? "" : "; not remembered: ", why);
}

/* backend.peak_now: the FP32 peak measured again (the mock's next value). */
static double cpu_peak_now(const struct device *dev, char *how, size_t howlen) {
    (void)dev;
    if (cal.nisa == 0)
        return 0;
    struct isa_cal saved[ISA_MAX];
    memcpy(saved, cal.isa, sizeof saved);
    double start = cal.gflops;
    int best = cal.best;
    fp32_peak(++cal.rechecks);
    double now = cal.gflops;
    clocks_text(how, howlen, 1);
    memcpy(cal.isa, saved, sizeof saved); /* the run's peak stays the start-up one */
    cal.gflops = start;
    cal.best = best;
    return now;
}

/* backend.mem_peak_now: the memory peak measured again, on the same arrays' size as at start-up
 * (the mock's next value). The run's peak stays the start-up one. */
static double cpu_mem_peak_now(const struct device *dev, char *how, size_t howlen) {
    double mock = mock_nth("GPUBENCH_TEST_CPU_STREAM_GBPS", ++cal.mem_rechecks);
    double now =
        mock > 0 ? mock : stream_gbps(dev->cache_bytes, dev->mem_bytes, STREAM_PASSES_AGAIN, 0);
    snprintf(how, howlen, "%s",
             mock > 0 ? "mocked: GPUBENCH_TEST_CPU_STREAM_GBPS" : "STREAM-style Add");
    return now;
}

/* OpenBLAS's worker threads (all but the caller) pinned to cores 1, 2, … so they stay off the
 * caller's core 0, as our pool's threads do. Debian builds OpenBLAS with NO_AFFINITY, so nothing
 * pins them otherwise. Returns how many were pinned. */
static int pin_openblas_threads(int threads) {
    int ok = 0, cores = topology_cores();
    if (!topology_get())
        return 0; /* hwloc failed to load: nothing to pin with (main said so) */
    for (int i = 0; i + 1 < threads; i++) {
        hwloc_obj_t core =
            hwloc_get_obj_by_type(topology_get(), HWLOC_OBJ_CORE, (unsigned)((i + 1) % cores));
        if (!core)
            continue;
        cpu_set_t set;
        CPU_ZERO(&set);
        int pu = hwloc_bitmap_first(core->cpuset);
        if (pu < 0)
            continue;
        CPU_SET(pu, &set);
        if (openblas_setaffinity(i, sizeof set, &set) == 0)
            ok++;
    }
    return ok;
}

/* Each tier's peak from the measured FP32 one, derived, never looked up:
 *  - f64: a SIMD register holds half as many doubles, at the same FMA rate: half;
 *  - f16: the CPU rows of the tier (vecadd/cpu f16) convert halves with F16C and compute in FP32
 *    (docs/precision.md), so their arithmetic runs at the FP32 rate: the FP32 peak, where the CPU
 *    has F16C (without it there are no such rows);
 *  - bf16: OpenBLAS's cblas_sbgemm runs AVX512_BF16's VDPBF16PS (two BF16 products per FP32
 *    lane), whose rate per cycle differs by core and which the calibration does not measure:
 *    no peak, and the rows' note says why;
 *  - tf32: no CPU computes in it (its rows are unsupported). */
static void cpu_tier_peaks(struct device *d) {
    d->peak_tier_gflops[DT_F32] = d->peak_gflops;
    d->peak_tier_gflops[DT_F64] = d->peak_gflops / 2;
    if (gb_cpu_has_f16c())
        d->peak_tier_gflops[DT_F16] = d->peak_gflops;
    d->peak_tier_why[DT_BF16] =
        "no bfloat16 peak for a CPU: the rate of AVX512_BF16's dot products (VDPBF16PS) "
        "differs by core and is not measured";
}

static double clock_res_ms(void);

static int cpu_discover(struct device_list *list, int threads, char *why, size_t whylen) {
    if (list->n >= DEVICE_MAX) {
        snprintf(why, whylen, "device list full");
        return 0;
    }
    struct device *d = &list->d[list->n];
    memset(d, 0, sizeof *d);
    snprintf(d->id, sizeof d->id, "cpu");
    d->kind = DEV_CPU;
    d->be = &cpu_backend;
    cpu_model(d->name, sizeof d->name);
    d->threads = threads;
    /* Our pool and OpenBLAS use the same count; OpenBLAS keeps its own pthreads. */
    if (pool_start(threads, topology_bind_thread, NULL) != 0) {
        snprintf(why, whylen, "could not start %d CPU threads", threads);
        return 0;
    }
    openblas_set_num_threads(threads);
    int blas_pinned = pin_openblas_threads(openblas_get_num_threads());
    /* The config reads "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64"; an
     * OpenBLAS not the system's names its origin after it (harness/core/blas.h); then how the
     * core was chosen (harness/run/blas_core.h): "… core=SkylakeX threads=2 (chosen by
     * gpubench; OpenBLAS picked Prescott)". */
    char how[80], lib[256];
    blas_core_how_text(how, sizeof how);
    snprintf(lib, sizeof lib, "%.120s%s core=%.32s threads=%d%s", openblas_get_config(),
             GPUBENCH_BLAS_ORIGIN, openblas_get_corename(), openblas_get_num_threads(), how);
    snprintf(d->blas_lib, sizeof d->blas_lib, "%s", lib);
    blas_core_why(d->blas_core_why, sizeof d->blas_core_why);
    int cores = topology_cores();
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    d->mem_bytes = pages > 0 && psize > 0 ? (size_t)pages * (size_t)psize : 0;
    d->cache_bytes =
        topology_llc(d->cache_name, sizeof d->cache_name, threads < cores ? threads : cores);
    /* The peaks, measured on the cores the rows use, once per run. */
    memset(&cal, 0, sizeof cal);
    cal.cores = threads < cores ? threads : cores;
    cal.nisa = cpu_isas(cal.isa);
    fp32_peak(0);
    memory_peak(d->cache_bytes, d->mem_bytes);
    d->timer_res_ms = clock_res_ms();
    hardware_describe(d);
    d->peak_gflops = cal.gflops;
    d->peak_gbps = cal.gbps;
    cpu_tier_peaks(d);
    if (cal.mocked)
        snprintf(d->clock_why, sizeof d->clock_why,
                 "the peak's clock is mocked (GPUBENCH_TEST_CPU_CLOCK_MHZ), not measured");
    const struct isa_cal *b = &cal.isa[cal.best];
    char clocks[160], topo[96];
    clocks_text(clocks, sizeof clocks, 0);
    topology_summary(topo, sizeof topo);
    /* the product as printed multiplies to the peak (the clock to 4 digits); OpenBLAS's thread
     * count is doctor's "N threads": the calling thread and N-1 workers, which we pin */
    int blas_threads = openblas_get_num_threads();
    char ghz[32], gflops[32];
    snprintf(d->extra, sizeof d->extra,
             "%.96s; FP32 peak %d core%s x %d lanes x %d FMA/cycle x 2 flop/FMA x %s GHz = "
             "%s GFLOP/s (%.80s); %.120s; pinned pool %d/%d, OpenBLAS %d thread%s (the caller "
             "and %d worker%s, %d pinned)",
             topo, cal.cores, cal.cores == 1 ? "" : "s", b->lanes, b->units,
             num_sig4(b->ghz, ghz, sizeof ghz), num_sig4(cal.gflops, gflops, sizeof gflops), clocks,
             cal.mem_how, topology_pinned(), threads, blas_threads, blas_threads == 1 ? "" : "s",
             blas_threads - 1, blas_threads == 2 ? "" : "s", blas_pinned);
    size_t len = strlen(d->extra);
    snprintf(d->extra + len, sizeof d->extra - len, "; OpenBLAS core %s%s", openblas_get_corename(),
             how);
    if (topology_bind_error()[0]) {
        len = strlen(d->extra);
        snprintf(d->extra + len, sizeof d->extra - len, "; %s", topology_bind_error());
    }
    list->n++;
    return 1;
}

/* The main thread is pool thread 0: pin it back to its core, since a GPU row before may have
 * bound it to the cores nearest that GPU. */
static enum status cpu_activate(const struct device *dev, char *note, size_t notelen) {
    (void)dev, (void)note, (void)notelen;
    topology_bind_thread(NULL, 0);
    return ST_OK;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* The host clock's resolution as a timed sample sees it, ms: the smallest step between two reads
 * of now_ms that differ (a read's own cost included: on a VM it, not clock_getres's 1 ns, is
 * what quantises a sample; issue 45 saw 10 ns steps), never under clock_getres. The least of
 * 200 pairs: another process only lengthens a pair. */
static double clock_res_ms(void) {
    struct timespec r;
    double res = clock_getres(CLOCK_MONOTONIC, &r) == 0 ? r.tv_sec * 1e3 + r.tv_nsec * 1e-6 : 0;
    double step = 0;
    for (int i = 0; i < 200; i++) {
        double a = now_ms(), b;
        while ((b = now_ms()) == a)
            ;
        step = step == 0 || b - a < step ? b - a : step;
    }
    return step > res ? step : res;
}

static enum status cpu_time_runs(const struct impl *im, struct impl_ctx *ctx, long reps,
                                 double *ms) {
    enum status st = ST_OK;
    double t0 = now_ms();
    for (long i = 0; i < reps && st == ST_OK; i++)
        st = im->run(ctx);
    *ms = now_ms() - t0;
    return st;
}

static enum status cpu_sync(const struct device *dev, char *note, size_t notelen) {
    (void)dev, (void)note, (void)notelen;
    return ST_OK;
}

static void cpu_shutdown(const struct device *dev) {
    (void)dev;
    pool_stop();
}

const struct backend cpu_backend = {
    .kind_name = "cpu",
    .discover = cpu_discover,
    .activate = cpu_activate,
    .time_runs = cpu_time_runs,
    .sync = cpu_sync,
    .peak_now = cpu_peak_now,
    .mem_peak_now = cpu_mem_peak_now,
    .shutdown = cpu_shutdown,
};
