/* test_runner_notes.c — the notes that qualify a row's numbers (issue 18), on a fake workload
 * through runner_measure:
 *  - --reps is a floor: --max-time never stops a row below it, and a row the floor kept past
 *    --max-time says so;
 *  - too few repetitions for a 95% interval: no interval, and the note says how many it needs;
 *  - a working set that fits in the last-level cache is named (and a memory-bound one gets no
 *    memory peak: it measured the cache); the working set is the implementation's own (in place:
 *    2/3 of what the workload counts); a row above the memory peak measures it again and
 *    divides by the higher of the two measurements (a start-up measurement held down by another
 *    job's load reads low: issue 32), and its note names the peak measured again; a row still
 *    above it gets its true reason: a working set within 4× the cache that is no faster than
 *    the cache explains, the implementation's declared traffic, or else a bandwidth that varies
 *    from one measurement to the next (the memory measurement mocked by
 *    GPUBENCH_TEST_CPU_STREAM_GBPS, its later values for the measurements after a row);
 *  - a row faster than the FP32 peak measured at start-up measures it again and says the clock
 *    changed (the CPU calibration mocked by GPUBENCH_TEST_CPU_CLOCK_MHZ);
 *  - the memory peak a row divides by is scaled by the traffic its implementation declares per
 *    byte counted (a device-to-device copy: 2), and a host<->device copy is never divided by the
 *    device's memory peak (its bound is the PCIe link; unknown here, so no peak at all);
 *  - a row's note holds no machine facts (dev->extra: said once per run), only a short clause
 *    naming the peak its peak_pct divides by;
 *  - each row is judged by its own tier (issue 37): an FP64 row by the FP64 balance and peak (a
 *    card or CPU whose FP64 is a fraction of FP32 makes a GEMM compute-bound there, where the
 *    FP32 balance called it memory-bound and gave it no peak), a tier without a peak says why;
 *    a memory-bound row whose set fits the cache is served by it whatever its speed (issue 45),
 *    one under memory speed said to be; a compute-bound row under half its peak names
 *    the causes known (OpenBLAS's generic core for the openblas rows, a mocked clock), and
 *    nothing where none is known;
 *  - a run under 100× the timer's resolution is timed in samples of several runs (issue 45).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/io/csv_write.h"
#include "harness/core/inputs.h"
#include "harness/core/verify.h"
#include "harness/run/backend.h"
#include "harness/run/runner.h"
#include "tests/testhelp.h"

static const char *const keys[] = {"n", NULL};
static const char *const shapes[] = {"n=64", NULL};

static double declared_flops = 64;
static double fake_flops(const struct shape *s) {
    (void)s;
    return declared_flops;
}
static double fake_bytes(const struct shape *s) {
    return 8.0 * (double)s->v[0];
}

static int fake_make(struct problem *p, char *err, size_t errlen) {
    (void)err, (void)errlen;
    p->nin = p->nout = 1;
    if (buf_alloc(&p->in[0], "x", (size_t)p->shape.v[0]) ||
        buf_alloc(&p->out[0], "y", (size_t)p->shape.v[0]))
        return -1;
    fill_uniform(p->in[0].data, p->in[0].n, p->seed, 1, -1, 1);
    return 0;
}

static enum status fake_verify(const struct problem *p, struct verify_report *r) {
    double ref[64];
    for (size_t i = 0; i < p->out[0].n; i++)
        ref[i] = 2.0 * p->in[0].data[i];
    verify_close(r, "y", p->out[0].data, ref, NULL, p->out[0].n, 1e-6, 1e-6);
    return verify_status(r);
}

static void fake_free(struct problem *p) {
    problem_free_bufs(p);
}

static enum status good_run(struct impl_ctx *ctx) {
    for (size_t i = 0; i < ctx->p->out[0].n; i++)
        ctx->p->out[0].data[i] = 2.0f * ctx->p->in[0].data[i];
    return ST_OK;
}

/* 20 ms a run: 6 runs take 0.12 s, past a --max-time of 0.05 s */
static enum status slow_run(struct impl_ctx *ctx) {
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return good_run(ctx);
}

static const struct impl fast = {.name = "fast", .kind = DEV_CPU, .run = good_run};
static const struct impl tiers = {.name = "tiers",
                                  .kind = DEV_CPU,
                                  .run = good_run,
                                  .dtypes = DT_BIT(DT_F32) | DT_BIT(DT_F64) | DT_BIT(DT_BF16)};
/* the name the rows that call OpenBLAS have */
static const struct impl blas = {.name = "openblas", .kind = DEV_CPU, .run = good_run};
static const struct impl fast_x2 = {
    .name = "fast_x2", .kind = DEV_CPU, .run = good_run, .traffic_per_byte = 2};
static const struct impl fast_link = {
    .name = "fast_link", .kind = DEV_CPU, .run = good_run, .host_transfer = 1};
static const struct impl slow = {.name = "slow", .kind = DEV_CPU, .run = slow_run};
/* touches 2/3 of what the workload counts (as vecadd's in-place y = x + y) */
static const struct impl in_place = {.name = "in_place",
                                     .kind = DEV_CPU,
                                     .run = good_run,
                                     .touched_per_byte = 2.0 / 3,
                                     .traffic_note = "in place: no read-for-ownership"};

static const struct workload fake = {.name = "fake",
                                     .summary = "y = 2x",
                                     .keys = keys,
                                     .default_shapes = shapes,
                                     .quick_shapes = shapes,
                                     .sweep_shapes = shapes,
                                     .flops = fake_flops,
                                     .bytes = fake_bytes,
                                     .host_bytes = fake_bytes,
                                     .make_problem = fake_make,
                                     .verify = fake_verify,
                                     .free_problem = fake_free};

static enum dtype row_dtype = DT_F32; /* the tier of the rows measure() makes */

static void measure(const struct options *o, const struct device *dev, const struct impl *im,
                    struct result *r) {
    struct problem p;
    char err[128];
    memset(&p, 0, sizeof p);
    p.shape.v[0] = 64;
    p.seed = 7;
    p.dtype = row_dtype;
    CHECK(fake_make(&p, err, sizeof err) == 0);
    memset(r, 0, sizeof *r);
    r->dev = dev;
    r->w = &fake;
    r->im = im;
    r->flops = fake_flops(&p.shape);
    r->bytes = fake_bytes(&p.shape);
    runner_measure(o, dev, &fake, im, &p, r);
    fake_free(&p);
}

#define HAS(s, sub) (strstr((s), (sub)) != NULL)

/* --reps is "at least N": --max-time stops a row only once it has them, and says so. */
static void test_floor(const struct device *cpu) {
    struct options o = {.min_time = 0, .max_time = 0.05, .min_reps = 6, .warmup = 0, .seed = 7};
    struct result r;
    measure(&o, cpu, &slow, &r);
    CHECK_MSG(r.status == ST_OK && r.st.n == 6, "reps %zu, want the floor of 6 (status %s)", r.st.n,
              status_name(r.status));
    CHECK_MSG(HAS(r.note, "--reps is a floor: 6 timed repetitions took") &&
                  HAS(r.note, "past --max-time 0.05 s"),
              "note: %s", r.note);
    /* a row that reached its floor within --max-time has no such note */
    o.max_time = 5;
    measure(&o, cpu, &fast, &r);
    CHECK_MSG(r.st.n >= 6 && !HAS(r.note, "floor"), "reps %zu, note: %s", r.st.n, r.note);
}

/* 3 repetitions: [min, max] covers 75% of the time, not 95%: no interval, and the note says
 * how many the level needs; 6 give one. */
static void test_ci_note(const struct device *cpu) {
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 3, .warmup = 0, .seed = 7};
    struct result r;
    measure(&o, cpu, &fast, &r);
    CHECK(r.status == ST_OK && r.st.n == 3);
    CHECK_MSG(isnan(r.st.ci_lo) && isnan(r.st.ci_hi), "ci %g-%g from 3 reps", r.st.ci_lo,
              r.st.ci_hi);
    CHECK_MSG(HAS(r.note, "no 95% CI: 3 repetitions") && HAS(r.note, "needs at least 6"),
              "note: %s", r.note);
    char buf[4096];
    struct run_info ri = {.run_id = "t", .utc = "2026-01-01T00:00:00Z", .host = "h"};
    FILE *f = fmemopen(buf, sizeof buf, "w");
    csv_write_result(f, &ri, &r);
    fclose(f);
    /* the CSV's ci95_lo_ms and ci95_hi_ms cells (fields 24 and 25) are empty */
    int field = 0, inq = 0;
    size_t len[40] = {0};
    for (const char *p = buf; *p && *p != '\n' && field < 40; p++) {
        if (*p == '"')
            inq = !inq;
        else if (*p == ',' && !inq)
            field++;
        else
            len[field]++;
    }
    CHECK_MSG(field > 25 && len[23] == 0 && len[24] == 0 && len[22] > 0, "ci95 cells in: %s", buf);
    o.min_reps = 6;
    measure(&o, cpu, &fast, &r);
    CHECK_MSG(r.st.n >= 6 && isfinite(r.st.ci_lo) && r.st.ci_lo <= r.st.median &&
                  r.st.median <= r.st.ci_hi && !HAS(r.note, "no 95% CI"),
              "n=%zu median %g ci %g-%g note %s", r.st.n, r.st.median, r.st.ci_lo, r.st.ci_hi,
              r.note);
}

/* The memory peak every measurement after start-up finds (the mock's later values). */
static void stream_again(double gbps) {
    char v[64];
    snprintf(v, sizeof v, "50,%g", gbps);
    setenv("GPUBENCH_TEST_CPU_STREAM_GBPS", v, 1);
}

/* The working set (512 bytes) fits in a 1 MiB cache: named, and no memory peak for it. */
static void test_cache_note(const struct device *cpu) {
    struct device d = *cpu;
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 6, .warmup = 0, .seed = 7};
    struct result r;
    d.peak_gflops = 0;  /* no compute peak: the memory one decides */
    stream_again(1e-6); /* measured again, the memory peak stays as low */
    d.cache_bytes = 1 << 20;
    snprintf(d.cache_name, sizeof d.cache_name, "L3");
    d.peak_gbps = 1e-6; /* any speed reads far above this peak: unless the cache note applies */
    measure(&o, &d, &fast, &r);
    CHECK_MSG(HAS(r.note, "working set 0.5 KiB fits in L3 (1 MiB): cache bandwidth, not memory"),
              "note: %s", r.note);
    CHECK_MSG(r.peak_pct < 0, "a cache-resident memory-bound row has no peak, got %g%%",
              r.peak_pct);
    d.cache_bytes = 256; /* smaller than the working set: memory, as measured */
    measure(&o, &d, &fast, &r);
    CHECK_MSG(!HAS(r.note, "fits in"), "note: %s", r.note);
    /* far above the peak (a million times): more than half a working set in the cache explains
     * at most 2×, so that is not the reason given; both measurements of the peak are below */
    CHECK_MSG(r.peak_pct > 1e4 && !HAS(r.note, "stays cached") &&
                  HAS(r.note, "peak above 100%: faster than the memory peak measured at start-up "
                              "(1e-06 GB/s) and again after this row (1e-06 GB/s)") &&
                  HAS(r.note, "peak memory 1e-06 GB/s from start-up (measured again after this "
                              "row: 1e-06 GB/s, mocked"),
              "peak %g%%, note %s", r.peak_pct, r.note);
    /* a few times above the peak, with 500 of its 512 bytes in the cache (up to 42× the memory
     * rate): the cache is the reason given, with the real sizes */
    d.cache_bytes = 500;
    double gbps = r.gbps;
    stream_again(gbps / 6); /* about 600% of the peak measured again */
    measure(&o, &d, &fast, &r);
    CHECK_MSG(r.peak_pct > 100 && HAS(r.note, "peak above 100%: working set 0.5 KiB is within "
                                              "4× L3 (0.488 KiB): part of it stays cached"),
              "peak %g%% (%g GB/s; %g GB/s before), note %s", r.peak_pct, r.gbps, gbps, r.note);
    stream_again(1e-6);
    d.cache_bytes = 64; /* far smaller: no cache reason */
    measure(&o, &d, &fast, &r);
    CHECK_MSG(HAS(r.note, "peak above 100%: faster than the memory peak") &&
                  HAS(r.note, "peak memory 1e-06 GB/s"),
              "note %s", r.note);
    /* An implementation's own working set: 2/3 of the 512 bytes counted fit in 400 bytes */
    d.cache_bytes = 400;
    measure(&o, &d, &in_place, &r);
    CHECK_MSG(HAS(r.note, "working set 0.333 KiB fits in L3") && r.peak_pct < 0,
              "peak %g%%, note: %s", r.peak_pct, r.note);
    /* and above the peak out of the cache's reach, its declared traffic is the reason */
    d.cache_bytes = 64;
    measure(&o, &d, &in_place, &r);
    CHECK_MSG(r.peak_pct > 100 &&
                  HAS(r.note, "peak above 100%: in place: no read-for-ownership, unlike the "
                              "peak's kernel") &&
                  !HAS(r.note, "bandwidth changed"),
              "peak %g%%, note %s", r.peak_pct, r.note);
}

/* The calibration mocked at 1 MHz at start-up and 100 GHz after: every row reads above 100% of
 * the start-up peak, measures it again and says the clock changed. */
static void test_clock_changed(const struct device *cpu) {
    CHECK_MSG(HAS(cpu->extra, "clock mocked") && HAS(cpu->extra, "0.001 GHz"),
              "the device note records the (mocked) clock: %s", cpu->extra);
    CHECK_MSG(HAS(cpu->extra, "memory 50 GB/s (mocked"), "%s", cpu->extra);
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 6, .warmup = 0, .seed = 7};
    struct result r;
    declared_flops = 1e9; /* a fast row for a 1 MHz peak */
    measure(&o, cpu, &fast, &r);
    declared_flops = 64;
    CHECK_MSG(r.peak_pct > 100, "peak %g%%", r.peak_pct);
    CHECK_MSG(HAS(r.note, "peak above 100%: the clock changed during the run") &&
                  HAS(r.note, "after this row") && HAS(r.note, "100 GHz"),
              "note: %s", r.note);
    CHECK(cpu->be->peak_now != NULL);
    /* The note speaks of the row: the machine facts are said once per run, not here; a short
     * clause names the peak peak_pct divides by. */
    char clause[64]; /* 1 core × the widest ISA's lanes × 2 × 2 FMA units × 1 MHz */
    snprintf(clause, sizeof clause, "peak float32 %.4g GFLOP/s", cpu->peak_gflops);
    CHECK_MSG(!HAS(r.note, cpu->extra) && !HAS(r.note, "pinned pool") && HAS(r.note, clause),
              "note: %s", r.note);
}

/* peak_pct of a memory-bound row: GB/s × traffic per byte ÷ the memory peak; a host transfer
 * without a known link has none (the card's memory does not bound it). */
static void test_memory_peaks(const struct device *cpu) {
    struct device d = *cpu;
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 6, .warmup = 0, .seed = 7};
    struct result r;
    stream_again(1e-9); /* measured again, lower: the start-up peak stays the one divided by */
    d.cache_bytes = 0;
    d.peak_gflops = 0; /* no compute peak: the memory one decides */
    d.peak_gbps = 1e-3;
    measure(&o, &d, &fast, &r);
    CHECK_MSG(r.status == ST_OK &&
                  fabs(r.peak_pct - 100.0 * r.gbps / d.peak_gbps) <= 1e-9 * r.peak_pct,
              "traffic 1: %g%% for %g GB/s", r.peak_pct, r.gbps);
    measure(&o, &d, &fast_x2, &r);
    CHECK_MSG(r.status == ST_OK &&
                  fabs(r.peak_pct - 200.0 * r.gbps / d.peak_gbps) <= 1e-9 * r.peak_pct,
              "traffic 2: %g%% for %g GB/s", r.peak_pct, r.gbps);
    measure(&o, &d, &fast_link, &r);
    CHECK_MSG(r.status == ST_OK && r.peak_pct < 0 && !HAS(r.note, "memory bandwidth changed"),
              "host transfer, link unknown: %g%%, note %s", r.peak_pct, r.note);
}

/* A start-up memory peak held down (by another job's load, say; mocked at 1e-6 GB/s) and a row
 * above it: the peak is measured again beside the row (1e6 GB/s) and the row divides by that,
 * reads below 100% with no reason to give, and its note names both measurements. */
static void test_memory_peak_again(const struct device *cpu) {
    struct device d = *cpu;
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 6, .warmup = 0, .seed = 7};
    struct result r;
    d.cache_bytes = 0;
    d.peak_gflops = 0;
    d.peak_gbps = 1e-6;
    stream_again(1e6);
    measure(&o, &d, &fast, &r);
    CHECK_MSG(r.status == ST_OK && r.peak_pct >= 0 && r.peak_pct <= 100 &&
                  fabs(r.peak_pct - 100.0 * r.gbps / 1e6) <= 1e-9 * r.peak_pct,
              "divided by the peak measured again: %g%% for %g GB/s", r.peak_pct, r.gbps);
    CHECK_MSG(HAS(r.note, "peak memory 1000000 GB/s measured again after this row (mocked: "
                          "GPUBENCH_TEST_CPU_STREAM_GBPS; 1e-06 GB/s at start-up)") &&
                  !HAS(r.note, "peak above 100%"),
              "note %s", r.note);
    /* traffic 2 (a device-to-device copy): the peak measured again, halved */
    measure(&o, &d, &fast_x2, &r);
    CHECK_MSG(fabs(r.peak_pct - 200.0 * r.gbps / 1e6) <= 1e-9 * r.peak_pct &&
                  HAS(r.note, "peak memory 1000000 GB/s ÷ 2 (traffic per byte) measured again"),
              "%g%% for %g GB/s, note %s", r.peak_pct, r.gbps, r.note);
}

/* A copy of the mocked CPU with these peaks (FP32 GFLOP/s, memory GB/s) and an L3 of l3 bytes. */
static struct device tuned(const struct device *cpu, double gflops, double gbps, size_t l3) {
    struct device d = *cpu;
    d.peak_gflops = d.peak_tier_gflops[DT_F32] = gflops;
    d.peak_gbps = gbps;
    d.cache_bytes = l3;
    snprintf(d.cache_name, sizeof d.cache_name, "L3");
    return d;
}

/* FP32 peak 1e9 GFLOP/s, FP64 1/32 of it, memory 1e8 GB/s: balances 10 and 0.31 FLOP/byte. A
 * row of 1 FLOP per byte is memory-bound in FP32 and compute-bound in FP64, where it divides by
 * the FP64 peak and its cache note claims nothing. */
static void test_tier_balance(const struct device *cpu) {
    struct device d = tuned(cpu, 1e9, 1e8, 1 << 20);
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 6, .warmup = 0, .seed = 7};
    struct result r;
    d.peak_tier_gflops[DT_F64] = 1e9 / 32;
    declared_flops = 512; /* 512 bytes: 1 FLOP per byte */
    row_dtype = DT_F64;
    measure(&o, &d, &tiers, &r);
    CHECK_MSG(r.status == ST_OK && r.peak_pct >= 0 &&
                  fabs(r.peak_pct - 100.0 * r.gflops / (1e9 / 32)) <= 1e-9 * r.peak_pct &&
                  HAS(r.note, "peak float64 31250000 GFLOP/s") &&
                  HAS(r.note, "working set 0.5 KiB fits in L3 (1 MiB)") &&
                  !HAS(r.note, "cache bandwidth"),
              "f64 by its own balance: %s %g%%, note %s", status_name(r.status), r.peak_pct,
              r.note);
    /* the same row in FP32 is memory-bound: the memory peak, where its set is out of the cache
     * (in it, the cache serves it: test_cache_by_working_set) */
    row_dtype = DT_F32;
    d.cache_bytes = 256;
    measure(&o, &d, &tiers, &r);
    CHECK_MSG(r.peak_pct >= 0 && HAS(r.note, "peak memory"), "f32: %g%%, note %s", r.peak_pct,
              r.note);
    d.cache_bytes = 1 << 20;
    /* bf16 has no CPU peak: a compute-bound row (1e6 FLOPs on 512 bytes) has no %, and the
     * note says why */
    row_dtype = DT_BF16;
    declared_flops = 1e6;
    measure(&o, cpu, &tiers, &r);
    CHECK_MSG(r.status == ST_OK && r.peak_pct < 0 && HAS(r.note, "no bfloat16 peak for a CPU"),
              "bf16: %g%%, note %s", r.peak_pct, r.note);
    row_dtype = DT_F32;
    declared_flops = 64;
}

/* A memory-bound row whose working set fits the cache is served by it, whatever its speed
 * (issue 45: judged by the working set, as the note is, so that its peak % cannot flip between a
 * number and "-" as the memory peak moves from run to run): no peak, "cache bandwidth, not
 * memory"; under memory speed (peak 1e9 GB/s) the rate check adds that it did not run at the
 * cache's speed, and the memory peak is not measured again. */
static void test_cache_by_working_set(const struct device *cpu) {
    struct device d = tuned(cpu, 0, 1e9, 1 << 20);
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 6, .warmup = 0, .seed = 7};
    struct result r;
    measure(&o, &d, &fast, &r);
    CHECK_MSG(HAS(r.note, "working set 0.5 KiB fits in L3 (1 MiB): cache bandwidth, not memory "
                          "(yet at 0% of the memory peak's rate: not at the cache's speed)") &&
                  r.peak_pct < 0 && !HAS(r.note, "peak memory"),
              "under memory speed: %g%%, note %s", r.peak_pct, r.note);
}

/* A compute-bound row far under its peak (1e9 GFLOP/s; memory 1e12 GB/s keeps 0.125 FLOP/byte
 * compute-bound) names the causes known: OpenBLAS's generic core (only for the rows that call
 * it), the mocked clock; with none known, nothing. */
static void test_slow_causes(const struct device *cpu) {
    struct device d = tuned(cpu, 1e9, 1e12, 0);
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 6, .warmup = 0, .seed = 7};
    struct result r;
    snprintf(d.blas_core_why, sizeof d.blas_core_why,
             "OpenBLAS's generic Prescott (SSE3) kernels on an AVX-512 CPU");
    measure(&o, &d, &blas, &r);
    CHECK_MSG(r.peak_pct >= 0 && r.peak_pct < 50 &&
                  HAS(r.note, "under 50% of its float32 peak: OpenBLAS's generic Prescott (SSE3) "
                              "kernels on an AVX-512 CPU; the peak's clock is mocked"),
              "openblas row: %g%%, note %s", r.peak_pct, r.note);
    /* not an OpenBLAS row: only the clock */
    measure(&o, &d, &fast, &r);
    CHECK_MSG(HAS(r.note, "under 50% of its float32 peak: the peak's clock is mocked") &&
                  !HAS(r.note, "Prescott"),
              "own row: note %s", r.note);
    /* no cause known: nothing said */
    d.clock_why[0] = '\0';
    measure(&o, &d, &blas, &r);
    CHECK(HAS(cpu->clock_why, "mocked"));
    d.blas_core_why[0] = '\0';
    measure(&o, &d, &blas, &r);
    CHECK_MSG(r.peak_pct < 50 && !HAS(r.note, "under 50%"), "no cause: note %s", r.note);
}

/* A backend whose timer reads exactly fake_run_ms a run (the runs are made, their outputs
 * verified): what a sample holds is then the test's, not the machine's. */
static double fake_run_ms;
static enum status fake_time_runs(const struct impl *im, struct impl_ctx *ctx, long reps,
                                  double *ms) {
    enum status st = ST_OK;
    for (long i = 0; i < reps && st == ST_OK; i++)
        st = im->run(ctx);
    *ms = (double)reps * fake_run_ms;
    return st;
}

/* A run under 100× the timer's resolution (20 ns on a 10 ns clock) is timed in samples of many
 * runs back to back, each sample's time per run: the count grows ×10, then to 1.2× the mark
 * (1 µs: 60 runs); the note says so. A run long enough, or a timer of unknown resolution, keeps
 * one run a sample and says nothing (issue 45 item 5). */
static void test_batched_samples(const struct device *cpu) {
    struct device d = *cpu;
    struct backend be = *cpu->be;
    be.time_runs = fake_time_runs;
    d.be = &be;
    d.timer_res_ms = 1e-5;
    fake_run_ms = 2e-5;
    struct options o = {.min_time = 0, .max_time = 5, .min_reps = 6, .warmup = 1, .seed = 7};
    struct result r;
    measure(&o, &d, &fast, &r);
    CHECK_MSG(r.status == ST_OK && r.calls_per_sample == 60 && r.st.n >= 6 &&
                  fabs(r.st.median - 2e-5) < 1e-12 && fabs(r.samples[0] - 2e-5) < 1e-12,
              "%s: %ld calls a sample, median %g ms", status_name(r.status), r.calls_per_sample,
              r.st.median);
    CHECK_MSG(HAS(r.note, "each timed sample is 60 runs back to back (one run, 20 ns, is under "
                          "100× the timer's resolution of 10 ns); its times are per run"),
              "note %s", r.note);
    fake_run_ms = 1;
    measure(&o, &d, &fast, &r);
    CHECK_MSG(r.calls_per_sample == 1 && !HAS(r.note, "back to back"), "1 ms: %ld, note %s",
              r.calls_per_sample, r.note);
    fake_run_ms = 2e-5;
    d.timer_res_ms = 0;
    measure(&o, &d, &fast, &r);
    CHECK_MSG(r.calls_per_sample == 1 && !HAS(r.note, "back to back"), "no resolution: %ld",
              r.calls_per_sample);
}

int main(void) {
    setenv("GPUBENCH_TEST_CPU_CLOCK_MHZ", "1,100000", 1);
    setenv("GPUBENCH_TEST_CPU_STREAM_GBPS", "50", 1);
    struct device_list devs = {0};
    char why[256];
    CHECK(cpu_backend.discover(&devs, 1, why, sizeof why) == 1);
    const struct device *cpu = &devs.d[0];
    test_floor(cpu);
    test_ci_note(cpu);
    test_cache_note(cpu);
    test_clock_changed(cpu);
    test_memory_peaks(cpu);
    test_memory_peak_again(cpu);
    test_tier_balance(cpu);
    test_cache_by_working_set(cpu);
    test_slow_causes(cpu);
    test_batched_samples(cpu);
    cpu_backend.shutdown(cpu);
    return TEST_END();
}
