/* runner.c — the one timing loop. For each row: poison outputs, prepare, one verified run,
 * warm-up, timed repetitions until both a minimum time and count are reached (a maximum time
 * caps the time, never the count: --reps is a floor, and a row it keeps past the cap says so),
 * statistics, batches of back-to-back runs, end-to-end repetitions for devices with transfers,
 * release; then the rates and the notes that qualify them (no interval from too few
 * repetitions, a working set that fits in the cache, a peak exceeded because the clock
 * changed). */
#include "harness/run/runner.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_manifest.h"
#include "harness/core/interrupt.h"
#include "harness/core/numfmt.h"
#include "harness/core/shape.h"
#include "harness/gpuinfo/gpu_props.h"
#include "harness/gpuinfo/gpu_tier.h"
#include "harness/run/backend.h"
#include "harness/run/blas_core.h"
#include "harness/telemetry/cpu_wait.h"
#include "harness/telemetry/telemetry.h"

static double host_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* What runner_run reports to (NULL: runner_measure called alone, by a test), and the row. */
static const struct runner_hooks *hooks;
static int hook_row;

const char *row_stage_name(enum row_stage s) {
    static const char *names[] = {"inputs and reference", "prepare", "verified run", "warm-up",
                                  "timing", "release"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

/* A stage's deadline in seconds, from the row's own limits (docs/measurement.md, "Deadlines"):
 * --row-timeout is every stage's floor; warm-up and timing add what --warmup, --reps and
 * --max-time allow, at the pace of the verified run (`verified_s`: prepare + the verified run),
 * twice over. Timing holds the timed loop (at most max(--max-time, --reps runs) and one run
 * more), the batches (only when they fit in --max-time) and the end-to-end loop (half of
 * --max-time, at least 3 runs). */
static double stage_deadline(const struct options *o, enum row_stage s, double verified_s) {
    double floor_s = o->row_timeout;
    if (s == STAGE_WARMUP)
        return floor_s + 2.0 * (double)o->warmup * verified_s;
    if (s == STAGE_TIMING)
        return floor_s + 2.5 * o->max_time + 2.0 * (double)(o->min_reps + 4) * verified_s;
    return floor_s;
}

static void stage_begin(const struct options *o, enum row_stage s, double verified_s,
                        const char *note) {
    if (hooks && hooks->stage)
        hooks->stage(hooks->ctx, hook_row, s, stage_deadline(o, s, verified_s), note);
}

/* Growable sample storage, reused across rows: the times, and beside each the GPU's clock and
 * power the telemetry sampler last read (0 when unknown). */
static double *samples;
static float *trace_mhz, *trace_w;
static size_t samples_cap;

static int grow_samples(void) {
    size_t cap = samples_cap ? 2 * samples_cap : 1024;
    double *s = realloc(samples, cap * sizeof *s);
    if (s)
        samples = s;
    float *m = realloc(trace_mhz, cap * sizeof *m);
    if (m)
        trace_mhz = m;
    float *w = realloc(trace_w, cap * sizeof *w);
    if (w)
        trace_w = w;
    if (!s || !m || !w)
        return -1;
    samples_cap = cap;
    return 0;
}

static int push_sample(size_t n, double ms, struct tel_latest now) {
    if (n == samples_cap && grow_samples() != 0)
        return -1;
    samples[n] = ms;
    trace_mhz[n] = (float)now.sm_mhz;
    trace_w[n] = (float)now.power_w;
    return 0;
}

static void poison(struct problem *p) {
    for (int i = 0; i < p->nout; i++)
        for (size_t j = 0; j < p->out[i].n; j++) {
            if (p->out[i].data)
                p->out[i].data[j] = NAN;
            if (p->out[i].data64)
                p->out[i].data64[j] = NAN;
        }
}

static void append_note(struct result *r, const char *text) {
    if (!text || !text[0])
        return;
    size_t len = strlen(r->note);
    snprintf(r->note + len, sizeof r->note - len, "%s%s", len ? "; " : "", text);
}

/* upload + run + download, synchronized: one end-to-end time. For a row whose run is the whole
 * transfer (e2e_is_run), run and its synchronization alone; its upload and download exist only
 * to stage and check the data. The verified run always does all three (`full`). */
static enum status e2e_once(const struct device *dev, const struct impl *im, struct impl_ctx *ctx,
                            int full, double *ms) {
    int staged = full || !im->e2e_is_run;
    double t0 = host_ms();
    enum status st = ST_OK;
    if (staged && im->upload)
        st = im->upload(ctx);
    if (st == ST_OK)
        st = im->run(ctx);
    if (st == ST_OK && staged && im->download)
        st = im->download(ctx);
    if (st == ST_OK)
        st = dev->be->sync(dev, ctx->note, sizeof ctx->note);
    *ms = host_ms() - t0;
    return st;
}

/* Repetitions per row at most: plenty for the median and its interval, and it keeps the
 * samples file of a sweep small (microsecond rows would otherwise log ~10^6 samples each). */
enum { MAX_REPS = 10000 };

/* Keep timing while below the minimum count or time, and below the caps. The count is a floor
 * (--reps: "at least N"): neither the time cap nor MAX_REPS stops a loop before it. */
static int keep_going(size_t n, double elapsed_s, long min_reps, double min_s, double max_s) {
    if (gb_interrupted)
        return 0;
    if ((long)n < min_reps)
        return 1;
    if (elapsed_s >= max_s || n >= MAX_REPS)
        return 0;
    return elapsed_s < min_s;
}

/* 1 when the loop goes on only because of the floor: its time cap has passed. */
static int floor_only(size_t n, double elapsed_s, long min_reps, double max_s) {
    return (long)n < min_reps && elapsed_s >= max_s;
}

/* The note of a loop that the --reps floor kept past its time cap. */
static void floor_note(struct result *r, const char *what, size_t n, double took_s,
                       const char *cap) {
    char msg[256];
    snprintf(msg, sizeof msg, "--reps is a floor: %zu %s repetitions took %.3g s, past %s", n, what,
             took_s, cap);
    append_note(r, msg);
}

/* GPUBENCH_TEST_ROW_FAULT=WORKLOAD/IMPL:hang or WORKLOAD/IMPL:crash (tests only): that row's
 * verified run never returns, or its process dies of SIGSEGV there, on any build, so that the
 * supervisor's tests (tests/run/supervise_check.sh) need no simulated GPU to stage a hung kernel
 * or a crashing library. */
static void test_row_fault(const struct workload *w, const struct impl *im) {
    const char *v = getenv("GPUBENCH_TEST_ROW_FAULT");
    char want[160];
    if (!v)
        return;
    int n = snprintf(want, sizeof want, "%s/%s:", w->name, im->name);
    if (strncmp(v, want, (size_t)n) != 0)
        return;
    if (strcmp(v + n, "crash") == 0)
        raise(SIGSEGV);
    while (strcmp(v + n, "hang") == 0)
        pause();
}

/* Prepare and one verified end-to-end run; outputs are poisoned first, so an unwritten element
 * fails. A wrong result is ST_WRONG with the verifier's count and first mismatch in the note. */
static enum status verified_run(const struct options *o, const struct device *dev,
                                const struct workload *w, const struct impl *im,
                                struct impl_ctx *ctx, struct result *r) {
    enum status st;
    double ms;
    poison(ctx->p);
    stage_begin(o, STAGE_PREPARE, 0, ctx->note);
    if (im->prepare && (st = im->prepare(ctx)) != ST_OK)
        return st;
    stage_begin(o, STAGE_VERIFIED, 0, ctx->note);
    test_row_fault(w, im);
    if ((st = e2e_once(dev, im, ctx, 1, &ms)) != ST_OK)
        return st;
    if (im->finish && (st = im->finish(ctx)) != ST_OK)
        return st;
    if (gb_interrupted) /* the row will not be written: no need to check it */
        return ST_OK;
    /* the implementations named openblas are the ones that call OpenBLAS (bench/workloads.def) */
    int blas = dev->kind == DEV_CPU && strcmp(im->name, "openblas") == 0;
    const char *hook = getenv("GPUBENCH_TEST_BLAS_ROW_WRONG"); /* blas_core.h's test hook */
    if (blas && hook && strcmp(hook, "1") == 0)
        poison(ctx->p);
    struct verify_report vr;
    memset(&vr, 0, sizeof vr);
    st = w->verify(ctx->p, &vr);
    r->max_rel_err = vr.max_rel_err;
    if (st != ST_OK) {
        char msg[400];
        snprintf(msg, sizeof msg, "verification failed: %zu of %zu checked elements wrong: %s",
                 vr.bad, vr.checked, vr.first_bad);
        append_note(r, msg);
        /* a core gpubench chose is proved again by every row on it: a wrong one is forgotten */
        if (blas && st == ST_WRONG && blas_core_distrust(msg, sizeof msg))
            append_note(r, msg);
    }
    return st;
}

/* One timed repetition of `calls` runs back to back, *ms per run: the backend's timer, or for a
 * per-process cost (im->child, always one call) the figure the fresh process measured around its
 * own call. */
static enum status time_one(const struct device *dev, const struct impl *im, struct impl_ctx *ctx,
                            long calls, double *ms) {
    if (!im->child) {
        enum status st = dev->be->time_runs(im, ctx, calls, ms);
        *ms /= (double)calls;
        return st;
    }
    enum status st = im->run(ctx);
    *ms = ctx->child_ms;
    return st;
}

/* Runs per timed sample. A run that lasts under RES_FACTOR × the device's timer resolution is
 * measured mostly in the clock's steps (a 30 ns run on a 10 ns clock reads 20, 30 or 40 ns, and
 * its interval has no width); then each sample times enough runs back to back to last that long,
 * as nvbench and google/benchmark do, and its time is divided by them. The count grows from one
 * run (at least ×2, at most ×10 a step, aiming 20% past the mark) until a sample lasts it, at
 * most MAX_CALLS. A sample taken while another process held the core only lasts longer, so the
 * count is never too large; one left short by it is still 100× nearer the mark than one run. */
enum { RES_FACTOR = 100 };
#define MAX_CALLS 1000000L
static enum status calls_per_sample(const struct device *dev, const struct impl *im,
                                    struct impl_ctx *ctx, long *calls) {
    double want = RES_FACTOR * dev->timer_res_ms, ms;
    *calls = 1;
    if (!(want > 0) || im->child || !dev->be->time_runs)
        return ST_OK;
    for (long k = 1;; ) {
        enum status st = dev->be->time_runs(im, ctx, k, &ms);
        if (st != ST_OK || ms >= want || k >= MAX_CALLS || gb_interrupted)
            return st;
        double aim = ms > 0 ? 1.2 * want / ms * (double)k : 10.0 * (double)k;
        aim = fmin(fmax(aim, 2.0 * (double)k), 10.0 * (double)k);
        k = aim > (double)MAX_CALLS ? MAX_CALLS : (long)ceil(aim);
        *calls = k;
    }
}

/* "23.4 ns", "1.5 µs", "2.1 ms": a duration in milliseconds for a note. */
static void fmt_time(char *out, size_t len, double ms) {
    if (ms >= 1)
        snprintf(out, len, "%.3g ms", ms);
    else if (ms >= 1e-3)
        snprintf(out, len, "%.3g µs", ms * 1e3);
    else
        snprintf(out, len, "%.3g ns", ms * 1e6);
}

/* The note of a batched row: what each sample holds, and why. */
static void calls_note(const struct device *dev, struct result *r) {
    char msg[240], one[32], res[32];
    if (r->calls_per_sample <= 1)
        return;
    fmt_time(one, sizeof one, r->st.median);
    fmt_time(res, sizeof res, dev->timer_res_ms);
    snprintf(msg, sizeof msg,
             "each timed sample is %ld runs back to back (one run, %s, is under %d× the timer's "
             "resolution of %s); its times are per run",
             r->calls_per_sample, one, RES_FACTOR, res);
    append_note(r, msg);
}

/* The untimed runs before timing (JIT, caches, clocks). */
static enum status warm_up(const struct options *o, const struct device *dev, const struct impl *im,
                           struct impl_ctx *ctx) {
    enum status st;
    double ms;
    for (long i = 0; i < o->warmup && !gb_interrupted; i++)
        if ((st = time_one(dev, im, ctx, 1, &ms)) != ST_OK)
            return st;
    return ST_OK;
}

/* The timed repetitions, kernel only (the backend's timer), into samples[0, *n). */
static enum status timed_loop(const struct options *o, const struct device *dev,
                              const struct impl *im, struct impl_ctx *ctx, struct result *r,
                              struct tel_row *tel, size_t *n) {
    enum status st;
    double ms;
    double t0 = host_ms(), el;
    int past = 0;
    *n = 0;
    while (keep_going(*n, el = (host_ms() - t0) / 1e3, o->min_reps, o->min_time, o->max_time)) {
        past |= floor_only(*n, el, o->min_reps, o->max_time);
        if ((st = time_one(dev, im, ctx, r->calls_per_sample, &ms)) != ST_OK)
            return st;
        if (push_sample(*n, ms, tel_row_latest(tel)) != 0) {
            append_note(r, "out of host memory for samples");
            return ST_OOM;
        }
        (*n)++;
    }
    if (past && !gb_interrupted) {
        char cap[64];
        snprintf(cap, sizeof cap, "--max-time %g s", o->max_time);
        floor_note(r, "timed", *n, (host_ms() - t0) / 1e3, cap);
    }
    return ST_OK;
}

/* The timed loop with the device's telemetry around it (clocks, power, throttling: the
 * repetitions' own, not the warm-up's or the batches'), and the time our threads waited for a
 * core (a shared CPU, CPU and GPU rows alike: a GPU row's host thread launches and times). */
static enum status timed_observed(const struct options *o, const struct device *dev,
                                  const struct impl *im, struct impl_ctx *ctx, struct result *r,
                                  size_t *n) {
    struct tel_row tel;
    static struct cpu_wait cw; /* 12 KiB of thread counters; rows are measured one at a time */
    if (!o->no_telemetry)
        cpu_wait_begin(&cw);
    tel_row_begin(&tel, dev);
    enum status st = timed_loop(o, dev, im, ctx, r, &tel, n);
    tel_row_end(&tel, &r->tel);
    if (!o->no_telemetry)
        cpu_wait_end(&cw, &r->cpu_wait_pct, &r->cpu_others);
    return st;
}

/* The statistics of samples[0, n) into r (samples may have moved: push_sample reallocates). */
static enum status row_stats(size_t n, struct result *r) {
    r->samples = samples;
    r->trace_mhz = trace_mhz;
    r->trace_w = trace_w;
    if (stats_compute(samples, n, &r->st) != 0) {
        append_note(r, "out of host memory for the statistics");
        return ST_OOM;
    }
    if (n > 0 && isnan(r->st.ci_lo)) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "no 95%% CI: %zu repetitions, and the interval of the median needs at least %zu "
                 "(--reps %zu)",
                 n, stats_median_ci_min_n(STATS_CI_LEVEL), stats_median_ci_min_n(STATS_CI_LEVEL));
        append_note(r, msg);
    }
    return ST_OK;
}

/* The batch ("hot") time: runs issued back to back between one start and one stop, so that one
 * run's launch overlaps the previous run's work, as in an application's loop. A batch is sized
 * to last about BATCH_MS (at least 2 and at most BATCH_MAX_REPS runs); the row's batch_ms is the
 * median over BATCHES batches of the time per run. Skipped (batch_ms unknown) when the single-run
 * median says even one batch would not fit in the time that is left of max_time. */
enum { BATCHES = 3, BATCH_MAX_REPS = 1000 };
#define BATCH_MS 20.0

static enum status batch_loop(const struct options *o, const struct device *dev,
                              const struct impl *im, struct impl_ctx *ctx, double spent_s,
                              struct result *r) {
    double one = r->st.median;
    r->batch_ms = -1;
    if (!(one > 0) || gb_interrupted || im->child) /* a process per run: no batches */
        return ST_OK;
    long reps = (long)ceil(BATCH_MS / one);
    reps = reps < 2 ? 2 : reps > BATCH_MAX_REPS ? BATCH_MAX_REPS : reps;
    if (spent_s + BATCHES * reps * one / 1e3 > o->max_time)
        return ST_OK;
    double per_run[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double ms;
        enum status st = dev->be->time_runs(im, ctx, reps, &ms);
        if (st != ST_OK)
            return st;
        per_run[b] = ms / (double)reps;
    }
    r->batch_ms = stats_median_inplace(per_run, BATCHES);
    return ST_OK;
}

/* The end-to-end median: upload + run + download timed together, on half the time budget. */
static enum status e2e_loop(const struct options *o, const struct device *dev,
                            const struct impl *im, struct impl_ctx *ctx, struct result *r) {
    if (!im->upload && !im->download && !im->e2e_is_run) {
        r->e2e_median_ms = r->st.median; /* the CPU has no transfers */
        return ST_OK;
    }
    /* Transfers decide whether an old PCIe card is worth using: time them with the run. */
    enum { E2E_MAX = 1024 };
    double e2e[E2E_MAX];
    size_t m = 0;
    enum status st;
    double t1 = host_ms(), el;
    long min_count = o->min_reps < 3 ? o->min_reps : 3;
    int past = 0;
    while (m < E2E_MAX && keep_going(m, el = (host_ms() - t1) / 1e3, min_count, o->min_time / 2,
                                     o->max_time / 2)) {
        past |= floor_only(m, el, min_count, o->max_time / 2);
        if ((st = e2e_once(dev, im, ctx, 0, &e2e[m])) != ST_OK)
            return st;
        m++;
    }
    if (past && !gb_interrupted) {
        char cap[64];
        snprintf(cap, sizeof cap, "their half of --max-time (%g s)", o->max_time / 2);
        floor_note(r, "end-to-end", m, (host_ms() - t1) / 1e3, cap);
    }
    r->e2e_median_ms = stats_median_inplace(e2e, m);
    return ST_OK;
}

/* "12 MiB", "48 KiB": a size for a note. */
static void fmt_size(char *out, size_t len, double bytes) {
    if (bytes >= 1 << 30)
        snprintf(out, len, "%.3g GiB", bytes / (1 << 30));
    else if (bytes >= 1 << 20)
        snprintf(out, len, "%.3g MiB", bytes / (1 << 20));
    else
        snprintf(out, len, "%.3g KiB", bytes / 1024);
}

/* The compute peak of the row's tier in GFLOP/s (FP64, TF32, FP16 and BF16 each their own:
 * a card's FP64 may be 1/32 of its FP32, its tensor cores 16×); 0 when unknown. */
static double tier_peak(const struct device *dev, enum dtype t) {
    return t == DT_F32 ? dev->peak_gflops : dev->peak_tier_gflops[t];
}

/* Is the row bounded by memory traffic rather than arithmetic? By the balance of the row's own
 * tier (its peak FLOP/s ÷ peak B/s) when both peaks are known, else by 1 FLOP per byte. */
static int memory_bound(const struct device *dev, const struct result *r) {
    if (r->bytes <= 0)
        return 0;
    if (r->flops <= 0)
        return 1;
    double peak = tier_peak(dev, r->dtype);
    double balance = peak > 0 && dev->peak_gbps > 0 ? peak / dev->peak_gbps : 1.0;
    return r->flops / r->bytes < balance;
}

/* The bytes the row's implementation touches: the workload's count, scaled by what the
 * implementation declares (in place: fewer arrays than the count). */
static double working_set(const struct impl *im, const struct result *r) {
    return r->bytes * (im->touched_per_byte > 0 ? im->touched_per_byte : 1);
}

/* Does the row's working set (the bytes it touches) fit in the device's last-level cache? */
static int fits_cache(const struct device *dev, const struct impl *im, const struct result *r) {
    double ws_bytes = working_set(im, r);
    return dev->cache_bytes > 0 && !im->host_transfer && ws_bytes > 0 &&
           ws_bytes <= (double)dev->cache_bytes;
}

/* The note of a row whose working set fits in the last-level cache. A memory-bound one is
 * served by the cache: the working set decides it, as it does the note, not the row's speed
 * (a speed test flipped one row between a peak % and none from run to run as the start-up
 * memory peak moved, issue 45), and it has no memory peak (returns 1). The rate is kept as a
 * check: one under the memory peak (pb < 1, `pb` its share of it) did not run at the cache's
 * speed either, and the note says so. A compute-bound row keeps its compute peak. */
static int cache_note(const struct device *dev, const struct impl *im, struct result *r,
                      int mem_bound, double pb) {
    if (!fits_cache(dev, im, r))
        return 0;
    char ws[32], cache[32], msg[240];
    int n;
    fmt_size(ws, sizeof ws, working_set(im, r));
    fmt_size(cache, sizeof cache, (double)dev->cache_bytes);
    n = snprintf(msg, sizeof msg, "working set %s fits in %s (%s)%s", ws,
                 dev->cache_name[0] ? dev->cache_name : "the last-level cache", cache,
                 mem_bound ? ": cache bandwidth, not memory" : "");
    if (mem_bound && pb >= 0 && pb < 1 && n > 0 && (size_t)n < sizeof msg)
        snprintf(msg + n, sizeof msg - (size_t)n,
                 " (yet at %.0f%% of the memory peak's rate: not at the cache's speed)", 100 * pb);
    append_note(r, msg);
    return mem_bound;
}

/* The memory peak measured again beside a row that read above it (be->mem_peak_now), as the
 * FP32 peak is (peak_recheck): a start-up measurement taken while another job loaded the machine
 * reads low, and every memory-bound row after it reads above 100%. */
struct mem_peak {
    double start, now; /* GB/s: at start-up; again after the row (0: not measured again) */
    char how[96];      /* what measured it again */
};

/* The peak a memory-bound row divides by: the higher of the two measurements (each is a
 * best-of-passes, which another job's load only ever lowers). */
static double mem_peak_gbps(const struct mem_peak *m) {
    return m->now > m->start ? m->now : m->start;
}

/* Why a memory-bound row reads above 100% of the memory peak (m: the start-up one and, where the
 * backend can, one measured again after the row), most specific first:
 *  - its working set is within CACHE_REACH × the last-level cache (the CPU's memory peak is
 *    measured on arrays 4× it, harness/run/backend_cpu.c, so that none of them stays cached; a
 *    smaller set partly can) and the row is no faster than that explains: with C bytes of a
 *    working set of W served by the cache at no cost, W / (W − C) × the memory rate;
 *  - its implementation's traffic differs from the peak kernel's (traffic_note);
 *  - both measurements of the peak are below it: the bandwidth the machine gives varies (another
 *    job's load), so neither reached the peak;
 *  - else (a peak that is a property, not measured again) the bandwidth changed during the run. */
enum { CACHE_REACH = 4 };
static void memory_above_peak(const struct device *dev, const struct impl *im, struct result *r,
                              const struct mem_peak *m, double pb) {
    char msg[400], ws[32], cache[32];
    double ws_bytes = working_set(im, r), c = (double)dev->cache_bytes;
    if (c > 0 && ws_bytes <= CACHE_REACH * c && pb * (ws_bytes - c) <= ws_bytes) {
        fmt_size(ws, sizeof ws, ws_bytes);
        fmt_size(cache, sizeof cache, c);
        snprintf(msg, sizeof msg,
                 "peak above 100%%: working set %s is within %d× %s (%s): part of it stays cached "
                 "between repetitions",
                 ws, CACHE_REACH, dev->cache_name[0] ? dev->cache_name : "the last-level cache",
                 cache);
    } else if (im->traffic_note) {
        /* the CPU's peak is a kernel's (backend_cpu.c); a GPU's is the card's bus × clock */
        snprintf(msg, sizeof msg, "peak above 100%%: %s%s", im->traffic_note,
                 dev->kind == DEV_CPU ? ", unlike the peak's kernel (c = a + b, streaming stores)"
                                      : "");
    } else if (m->now > 0) {
        snprintf(msg, sizeof msg,
                 "peak above 100%%: faster than the memory peak measured at start-up (%.4g GB/s) "
                 "and again after this row (%.4g GB/s): the bandwidth this machine gives varies "
                 "from one measurement to the next (another job's load?), so neither reached "
                 "the peak",
                 m->start, m->now);
    } else {
        snprintf(msg, sizeof msg,
                 "peak above 100%%: memory bandwidth changed during the run (peak %.4g GB/s "
                 "from the start-up measurement)",
                 m->start);
    }
    append_note(r, msg);
}

/* A row above 100% of its tier's compute peak (tier: that peak, GFLOP/s): measure the FP32 peak
 * again and say so. Every tier's peak is a fixed multiple of the FP32 one (the same clock), so the
 * note names the row's own tier and scales the new FP32 figure by that multiple: an f64 row is
 * never told about an FP32 number it was not divided by. */
static void peak_recheck(const struct device *dev, struct result *r, double tier) {
    char how[200] = "", msg[400], was[32], now_s[32];
    double now = dev->be->peak_now ? dev->be->peak_now(dev, how, sizeof how) : 0;
    const char *dt = dtype_name(r->dtype);
    num_sig4(tier, was, sizeof was);
    if (now > 0 && dev->peak_gflops > 0)
        snprintf(msg, sizeof msg,
                 "peak above 100%%: the clock changed during the run (peak %s %s GFLOP/s from the "
                 "start-up calibration; after this row %s, %s GFLOP/s)",
                 dt, was, how, num_sig4(tier * now / dev->peak_gflops, now_s, sizeof now_s));
    else
        snprintf(msg, sizeof msg,
                 "peak above 100%%: the clock changed during the run, or the peak %s %s GFLOP/s "
                 "(a property of the device, not measured) is too low",
                 dt, was);
    append_note(r, msg);
}

/* The peak a row's peak_pct divides by, as a short clause ("peak float32 532.2 GFLOP/s",
 * "peak memory 50 GB/s", "peak memory 50 GB/s ÷ 2 (traffic per byte)", "peak PCIe link"):
 * how that peak was obtained is a fact of the machine, said once per run (harness/run/sinks.c,
 * harness/io/json_run.c, `gpubench list`), except a memory peak measured again after the row
 * ("peak memory 42.1 GB/s measured again after this row (STREAM-style Add; 8.1 GB/s at
 * start-up)"). gflops_peak > 0: the compute peak; else memory, m's. */
static void peak_clause(const struct impl *im, struct result *r, double gflops_peak,
                        const struct mem_peak *m) {
    char msg[300], num[32];
    int n = 0;
    if (r->peak_pct < 0)
        return;
    if (gflops_peak > 0)
        snprintf(msg, sizeof msg, "peak %s %s GFLOP/s", dtype_name(r->dtype),
                 num_sig4(gflops_peak, num, sizeof num));
    else if (im->host_transfer)
        snprintf(msg, sizeof msg, "peak the PCIe link");
    else {
        n = snprintf(msg, sizeof msg, "peak memory %s GB/s",
                     num_sig4(mem_peak_gbps(m), num, sizeof num));
        if (im->traffic_per_byte > 0 && im->traffic_per_byte != 1)
            n += snprintf(msg + n, sizeof msg - (size_t)n, " ÷ %g (traffic per byte)",
                          im->traffic_per_byte);
        if (m->now > m->start)
            snprintf(msg + n, sizeof msg - (size_t)n,
                     " measured again after this row (%s; %.4g GB/s at start-up)", m->how,
                     m->start);
        else if (m->now > 0)
            snprintf(msg + n, sizeof msg - (size_t)n,
                     " from start-up (measured again after this row: %.4g GB/s, %s)", m->now,
                     m->how);
    }
    append_note(r, msg);
}

/* A compute-bound row under SLOW_SHARE of its tier's peak: the causes of it the harness knows,
 * in its note. Half: below it, a GEMM-class row has lost more than any tuning detail explains
 * (a tuned BLAS or cuBLAS GEMM runs at 70–95% of peak on large shapes), so something about how
 * it ran is worth naming. Only causes known for certain are named, never guessed:
 *  - OpenBLAS on kernels older than the CPU's (dev->blas_core_why), for the rows that call it;
 *  - the clock: the peak's clock was mocked (dev->clock_why), or NVML saw the card's clocks
 *    held down while the row was timed (the throttle reasons).
 * Nothing at all is said where none of these holds. Fewer threads than cores (--threads 1 on a
 * 2-core CPU) is no cause: the CPU's peak is measured on the cores the rows use
 * (harness/run/backend_cpu.c), so such a row is judged against one core's peak. */
#define SLOW_SHARE 0.5
static void slow_note(const struct device *dev, const struct impl *im, struct result *r) {
    char msg[512];
    int n = snprintf(msg, sizeof msg, "under %.0f%% of its %s peak:", 100 * SLOW_SHARE,
                     dtype_name(r->dtype));
    int head = n, cpu = dev->kind == DEV_CPU;
    /* the implementations named openblas are the ones that call OpenBLAS (bench/workloads.def) */
    if (cpu && dev->blas_core_why[0] && strcmp(im->name, "openblas") == 0)
        n += snprintf(msg + n, sizeof msg - (size_t)n, " %s;", dev->blas_core_why);
    if (dev->clock_why[0] && n > 0 && (size_t)n < sizeof msg)
        n += snprintf(msg + n, sizeof msg - (size_t)n, " %s;", dev->clock_why);
    unsigned long long held = tel_throttling_bits(r->tel.throttle);
    if (!cpu && r->tel.throttle_known && held && n > 0 && (size_t)n < sizeof msg) {
        char words[96];
        tel_reason_words(held, 1, words, sizeof words);
        n +=
            snprintf(msg + n, sizeof msg - (size_t)n, " clocks held down while timed (%s);", words);
    }
    if (n <= head || (size_t)n >= sizeof msg)
        return;        /* no cause known: nothing said */
    msg[n - 1] = '\0'; /* the last ';' */
    append_note(r, msg);
}

/* GFLOP/s, GB/s and % of peak from the median kernel time and the row's declared work. */
static void derive_rates(const struct device *dev, const struct impl *im, struct result *r) {
    double sec = r->st.median / 1e3;
    r->gflops = sec > 0 && r->flops > 0 ? r->flops / sec / 1e9 : -1; /* copies have none */
    r->gbps = sec > 0 && r->bytes > 0 ? r->bytes / sec / 1e9 : -1;
    /* Fraction of the device's roofline bound: whichever of compute and memory is nearer, the
     * compute peak being the row's tier's. A memory-bound row whose working set fits in the
     * cache: no bound we know applies (cache_note). */
    double peak = tier_peak(dev, r->dtype);
    double pf = peak > 0 && r->gflops >= 0 ? r->gflops / peak : -1;
    double pb = -1;
    struct mem_peak m = {.start = dev->peak_gbps};
    double traffic = im->traffic_per_byte > 0 ? im->traffic_per_byte : 1;
    if (im->host_transfer) {
        /* A host<->device copy is bounded by the PCIe link, not by the card's memory: the link
         * as NVML read it during the row, else no peak at all. */
        double link = tel_pcie_gbps(r->tel.pcie_gen, r->tel.pcie_width);
        pb = link > 0 && r->gbps >= 0 ? r->gbps / link : -1;
    } else if (dev->peak_gbps > 0 && r->gbps >= 0) {
        pb = r->gbps * traffic / dev->peak_gbps;
    }
    if (peak <= 0 && !im->host_transfer && !memory_bound(dev, r))
        pb = -1; /* compute-bound in a tier without a peak: memory is not its bound */
    /* Above the memory peak, where the memory bound decides and the cache does not explain it:
     * measure the peak again, now. */
    int mem_bound = memory_bound(dev, r);
    if (pb > 1.0 && pb > pf && !im->host_transfer && !(mem_bound && fits_cache(dev, im, r)) &&
        dev->be && dev->be->mem_peak_now) {
        m.now = dev->be->mem_peak_now(dev, m.how, sizeof m.how);
        pb = r->gbps * traffic / mem_peak_gbps(&m);
    }
    int in_cache = cache_note(dev, im, r, mem_bound, pb);
    r->cached = in_cache; /* the row's `cached` mark (harness/io/marks.h) */
    int simulated = device_is_simulated(dev->name); /* CPU-emulation time, a real card's peak */
    if (in_cache || simulated)
        pf = pb = -1;
    r->peak_pct = fmax(pf, pb) >= 0 ? 100.0 * fmax(pf, pb) : -1;
    if (r->peak_pct < 0) /* the table's '-' in `peak`, explained once under it (sinks.c) */
        r->no_peak = simulated ? "a simulated device: its times are CPU emulation, not the card's"
                     : in_cache ? "its working set fits in the last-level cache, which serves it "
                                "(no memory peak bounds a cached row)"
                     : r->gflops < 0 && r->gbps < 0 ? "the row counts no FLOPs or bytes to rate"
                     : im->host_transfer ? "no PCIe link reading from NVML (a host copy's bound)"
                                         : "no peak is known for this device and precision tier";
    peak_clause(im, r, pf >= pb ? peak : 0, &m);
    if (r->peak_pct < 0 && peak <= 0 && dev->peak_tier_why[r->dtype]) /* say why there is none */
        append_note(r, dev->peak_tier_why[r->dtype]);
    if (pf > 1.0 && pf >= pb) /* every tier's peak follows the FP32 peak and its clock */
        peak_recheck(dev, r, peak);
    else if (pb > 1.0 && im->host_transfer)
        append_note(r, "peak above 100%: faster than the PCIe link NVML reported at the row's end");
    else if (pb > 1.0)
        memory_above_peak(dev, im, r, &m, pb);
    else if (pf >= 0 && pf >= pb && pf < SLOW_SHARE && !memory_bound(dev, r))
        slow_note(dev, im, r);
    r->tel.energy_j = tel_energy(&r->tel, r->st.median);
}

/* Everything between activate and release: verified run, warm-up, timed loop, statistics,
 * batch loop, end-to-end loop, rates. An interrupt after the timed loop leaves the row without
 * times. */
static enum status measure(const struct options *o, const struct device *dev,
                           const struct workload *w, const struct impl *im, struct impl_ctx *ctx,
                           struct result *r) {
    enum status st;
    size_t n;
    double v0 = host_ms();
    if ((st = verified_run(o, dev, w, im, ctx, r)) != ST_OK || gb_interrupted)
        return st;
    double verified_s = (host_ms() - v0) / 1e3;
    stage_begin(o, STAGE_WARMUP, verified_s, ctx->note);
    if ((st = warm_up(o, dev, im, ctx)) != ST_OK)
        return st;
    stage_begin(o, STAGE_TIMING, verified_s, ctx->note);
    if ((st = calls_per_sample(dev, im, ctx, &r->calls_per_sample)) != ST_OK)
        return st;
    double t0 = host_ms();
    if ((st = timed_observed(o, dev, im, ctx, r, &n)) != ST_OK)
        return st;
    if (gb_interrupted)
        return ST_OK;
    if ((st = row_stats(n, r)) != ST_OK)
        return st;
    calls_note(dev, r);
    if ((st = batch_loop(o, dev, im, ctx, (host_ms() - t0) / 1e3, r)) != ST_OK)
        return st;
    if ((st = e2e_loop(o, dev, im, ctx, r)) != ST_OK)
        return st;
    derive_rates(dev, im, r);
    return ST_OK;
}

/* Can this implementation, and this device, compute in the problem's tier? ST_UNSUPPORTED with
 * the reason in note when not: the implementation has no version in it, or the card lacks the
 * hardware (or the build the toolkit), harness/gpuinfo/gpu_tier.c. */
static enum status tier_check(const struct device *dev, const struct workload *w,
                              const struct impl *im, enum dtype t, char *note, size_t len) {
    if (!(dtype_mask(im->dtypes) & DT_BIT(t))) {
        int why = im->no_tier_why && (im->no_tiers & DT_BIT(t)); /* this build's lack */
        snprintf(note, len, "%s/%s has no %s version%s%s", w->name, im->name, dtype_label(t),
                 why ? " in this build: " : "", why ? im->no_tier_why : "");
        return ST_UNSUPPORTED;
    }
    int major, minor;
    if (dev->kind != DEV_CUDA || sscanf(dev->cc, "%d.%d", &major, &minor) != 2)
        return ST_OK;
    int cuda = gpu_cuda_version_number(GPUBENCH_BUILD_CUDA_VERSION);
    return gpu_tier_check(t, major, minor, cuda, note, len) ? ST_UNSUPPORTED : ST_OK;
}

void runner_measure(const struct options *o, const struct device *dev, const struct workload *w,
                    const struct impl *im, struct problem *p, struct result *r) {
    struct impl_ctx ctx = {.p = p, .dev = dev, .threads = dev->threads};
    r->max_rel_err = -1;
    r->e2e_median_ms = -1;
    r->batch_ms = -1;
    r->calls_per_sample = 1;
    r->cpu_wait_pct = -1;
    r->cpu_others = -1;
    r->samples = samples;
    r->dtype = p->dtype;
    enum status st = tier_check(dev, w, im, p->dtype, ctx.note, sizeof ctx.note);
    if (st != ST_OK) {
        r->status = st;
        append_note(r, ctx.note);
        memset(&r->st, 0, sizeof r->st);
        return;
    }
    tel_gpu_row_start(dev); /* the card's utilisation before any of this row's work */
    st = dev->be->activate(dev, ctx.note, sizeof ctx.note);
    if (st == ST_OK) {
        st = measure(o, dev, w, im, &ctx, r);
        stage_begin(o, STAGE_RELEASE, 0, ctx.note);
        if (im->release)
            im->release(&ctx); /* after any failure past activate, a failed prepare too */
    }
    tel_gpu_row_done(dev);
    r->status = st;
    append_note(r, ctx.note);
    if (st == ST_OK) {
        char tel[640];
        tel_note(&r->tel, im->host_transfer, r->gbps, tel, sizeof tel);
        append_note(r, tel);
        cpu_wait_note(r->cpu_wait_pct, r->cpu_others, tel, sizeof tel);
        append_note(r, tel);
        if (dev->kind == DEV_CUDA) { /* what qualifies every number of the row */
            char q[160];
            gpu_row_qualifiers(dev->name, q, sizeof q);
            append_note(r, q);
        }
    } else {
        memset(&r->tel, 0, sizeof r->tel); /* a failed row's figures describe nothing */
        r->cpu_wait_pct = -1;
    }
    if (st != ST_OK && st != ST_WRONG)
        memset(&r->st, 0, sizeof r->st); /* no trustworthy times from a failed row */
}

/* The row's identity and work, before it is measured. */
static void row_begin(const struct plan_row *pr, const struct workload *w, const struct problem *p,
                      struct result *r) {
    memset(r, 0, sizeof *r);
    r->cpu_wait_pct = -1; /* unknown until measured */
    r->dev = pr->dev;
    r->w = w;
    r->im = pr->im;
    r->dtype = p->dtype;
    shape_format(w, &p->shape, r->shape, sizeof r->shape);
    shape_format_short(w, &p->shape, r->shape_short, sizeof r->shape_short);
    r->flops = w->flops(&p->shape);
    /* bytes() counts 4-byte elements: a tier of another element size moves that many bytes,
     * unless the workload says what its tier moves */
    r->bytes = w->tier_bytes ? w->tier_bytes(&p->shape, p->dtype)
                             : w->bytes(&p->shape) * dtype_bytes(p->dtype) / 4.0;
}

/* A row whose shape's host inputs could not be made. */
static void row_no_inputs(struct result *r, const char *why) {
    r->status = ST_OOM;
    r->max_rel_err = -1;
    r->e2e_median_ms = -1;
    r->batch_ms = -1;
    r->cpu_wait_pct = -1;
    r->cpu_others = -1;
    snprintf(r->note, sizeof r->note, "host inputs: %s", why[0] ? why : "out of host memory");
}

int runner_run(const struct plan *pl, double prev_end, const struct runner_hooks *h) {
    const struct options *o = pl->o;
    int rc = 0, made = 0, cur = -1;
    struct problem p;
    char perr[256] = "";
    memset(&p, 0, sizeof p);
    hooks = h;
    tel_init(!o->no_telemetry);
    tel_gpu_work_ended(prev_end); /* --runs N, or the worker before: the cards were ours */
    for (int i = 0; i < pl->total_rows && !gb_interrupted; i++) {
        const struct plan_row *pr = &pl->rows[i];
        const struct workload *w = pl->shapes[pr->shape].w;
        if (h->want && !h->want(h->ctx, i))
            continue;
        hook_row = i;
        struct result r;
        int new_shape = pr->shape != cur; /* inputs are made once per shape, shared by its rows */
        if (new_shape) {
            if (cur >= 0)
                pl->shapes[cur].w->free_problem(&p);
            memset(&p, 0, sizeof p);
            p.shape = pl->shapes[pr->shape].s;
            p.dtype = pl->shapes[pr->shape].dtype;
            p.seed = o->seed;
            perr[0] = '\0';
        }
        row_begin(pr, w, &p, &r); /* its identity first: a hang while making inputs names it */
        if (h->begin)
            h->begin(h->ctx, i, &r);
        if (new_shape) {
            stage_begin(o, STAGE_INPUTS, 0, "");
            made = w->make_problem(&p, perr, sizeof perr) == 0;
            cur = pr->shape;
            if (gb_interrupted) /* inputs and reference stop early: nothing of them is kept */
                break;
        }
        if (made)
            runner_measure(o, pr->dev, w, pr->im, &p, &r);
        else
            row_no_inputs(&r, perr);
        if (gb_interrupted)
            break; /* the interrupted row is incomplete: not reported */
        /* unsupported is a fact about the device; every other failure fails the run */
        if (r.status != ST_OK && r.status != ST_UNSUPPORTED)
            rc = 1;
        if (h->done)
            h->done(h->ctx, i, &r);
        /* a sticky error broke the device's context (in the row, or in its release, which
         * only warns): its later rows need a fresh process */
        if (pr->dev->be && pr->dev->be->broken && pr->dev->be->broken(pr->dev)) {
            rc = RUNNER_RESTART;
            break;
        }
    }
    if (cur >= 0)
        pl->shapes[cur].w->free_problem(&p);
    free(samples);
    free(trace_mhz);
    free(trace_w);
    samples = NULL;
    trace_mhz = trace_w = NULL;
    samples_cap = 0;
    hooks = NULL;
    return gb_interrupted ? 130 : rc;
}
