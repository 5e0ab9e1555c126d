/* slow_cpu.c — a CPU column of the slowdown report that ran far under its peak, and the cause
 * of it as the files measured it (slowdown.h, sd_slow_cpu). Every ratio against such a CPU is
 * larger than the card earns (a baseline), and every ratio of it is smaller than the CPU can
 * do (another column): the report says so in every form, with the cause, never a guess. */
#include <stdlib.h>

#include "harness/compare/slowdown.h"
#include "harness/core/blas_rank.h"
#include "harness/core/dtype.h"

/* The per-thread work under which a GEMM cannot fill the CPU: a 128³ GEMM (2·128³ FLOPs) a
 * thread. Below it OpenBLAS's start and join of its threads and the edges of its tiles take a
 * large share of each call, whatever the core. */
#define SMALL_FLOPS_PER_THREAD (2.0 * 128 * 128 * 128)

/* The row's value of extra column `name` of its file (NaN: no such column, or empty). */
static double extra_num(const struct sd *d, int s, const struct run_row *r, const char *name) {
    int col = csv_col_index(&d->in->runs[d->in->series[s].file], name);
    char *end;
    if (col < 0 || !r->raw[col][0])
        return NAN;
    double v = strtod(r->raw[col], &end);
    return *end ? NAN : v;
}

/* Series s's GEMM row with the largest peak_pct, float32 first (the tier a CPU's peak is of),
 * else any tier's; NULL when it has none with a peak. */
static const struct run_row *best_gemm(const struct sd *d, int s) {
    const struct run_row *best = NULL;
    for (int pass = 0; pass < 2 && !best; pass++)
        for (int c = 0; c < d->ncombo; c++) {
            const struct run_row *r = at(d, c, s);
            if (usable(r) && !strcmp(r->workload, "gemm") && isfinite(r->peak_pct) &&
                r->peak_pct >= 0 && (pass || !strcmp(r->dtype, "float32")) &&
                (!best || r->peak_pct > best->peak_pct))
                best = r;
        }
    return best;
}

#define ADD(...) (n += snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))

int sd_slow_cpu(const struct sd *d, int s, struct sd_slow *o) {
    memset(o, 0, sizeof *o);
    const struct cmp_series *se = &d->in->series[s];
    const struct run_row *r = se->is_cpu ? best_gemm(d, s) : NULL;
    if (!r)
        return 0;
    char val[256], core[40] = "";
    int cores = atoi(cmp_hw_get(r->hardware, "cores", val, sizeof val));
    int level = blas_level_of_flags(cmp_hw_get(r->hardware, "features", val, sizeof val));
    /* the core is a cause of the rows that call OpenBLAS only (bench/workloads.def names them) */
    const char *cn = r->blas_lib && !strcmp(r->impl, "openblas") ? strstr(r->blas_lib, "core=")
                                                                 : NULL;
    if (cn)
        snprintf(core, sizeof core, "%.*s", (int)strcspn(cn + 5, " ,;()"), cn + 5);
    long threads = r->threads > 0 ? r->threads : 1;
    /* the run's peak is of the cores it used (harness/run/backend_cpu.c): of the whole CPU,
     * a run on fewer threads than cores has that share of it */
    double whole = cores > threads ? (double)threads / cores : 1;
    o->row = r;
    o->pct = r->peak_pct * whole;
    if (o->pct >= SD_SLOW_PCT)
        return 0;
    o->wait_pct = extra_num(d, s, r, "cpu_wait_pct");
    int rank = blas_core_rank(core);
    if (rank > 0 && level > rank)
        o->causes |= SD_SLOW_OLD_CORE;
    if (o->wait_pct >= SD_WAIT_PCT)
        o->causes |= SD_SLOW_SHARED;
    if (whole < 1)
        o->causes |= SD_SLOW_FEW_THREADS;
    if (r->flops > 0 && r->flops / (double)threads < SMALL_FLOPS_PER_THREAD)
        o->causes |= SD_SLOW_SMALL;

    enum dtype t;
    char shape[160], *buf = o->text;
    size_t n = 0, len = sizeof o->text;
    int base = s == d->base;
    if (base)
        ADD("the CPU baseline's GEMM");
    else
        ADD("the GEMM of %s", se->label);
    ADD(" ran at %.*f%% of its %s peak at best (%s); ", o->pct < 1 ? 1 : 0, o->pct,
        dtype_parse(r->dtype, &t) == 0 ? dtype_label(t) : r->dtype, SHORT(r->shape, shape));
    const char *sep = (o->causes & (o->causes - 1)) ? "causes: " : "cause: ";
    if (o->causes & SD_SLOW_OLD_CORE) {
        ADD("%sOpenBLAS's %s (%s) kernels on an %s CPU", sep, core, blas_core_isa(core),
            blas_level_name(level));
        /* a core's kernels reach at most its width's share of the CPU's (FP32 FLOPs a cycle: SSE
         * 8, AVX 16, AVX2 with FMA 32, AVX-512 64); a row far below even that lost more than the
         * core explains */
        double reach = 100.0 * (1 << rank) / (1 << level);
        if (o->pct < reach / 4)
            ADD(" (whose kernels reach up to %.3g%%: the core explains only part of it)", reach);
        sep = " and ";
    }
    if (o->causes & SD_SLOW_SHARED) {
        ADD("%sa shared CPU (its threads waited for a core %.0f%% of the timed time)", sep,
            o->wait_pct);
        sep = " and ";
    }
    if (o->causes & SD_SLOW_FEW_THREADS) {
        ADD("%s%ld threads on %d cores (%.0f%% of those threads' peak)", sep, threads, cores,
            r->peak_pct);
        sep = " and ";
    }
    if (o->causes & SD_SLOW_SMALL) {
        ADD("%sa shape too small to fill %ld thread%s (under a 128³ GEMM a thread)", sep, threads,
            threads == 1 ? "" : "s");
        sep = " and ";
    }
    if (!o->causes) {
        /* what the files lack to judge by, so that the reader knows what a new run would tell */
        int no_hw = !r->hardware[0], no_wait = !isfinite(o->wait_pct);
        ADD("no cause is known");
        if (no_hw && core[0] && no_wait)
            ADD(" (the run records no CPU flags to judge OpenBLAS's %s kernels by, and no wait "
                "for a core)",
                core);
        else if (no_hw && core[0])
            ADD(" (the run records no CPU flags to judge OpenBLAS's %s kernels by)", core);
        else if (no_hw)
            ADD(" (the run records no CPU flags or core count)");
        else if (no_wait)
            ADD(" (the run records no wait for a core)");
    }
    ADD(base ? "; speedups against it are overstated" : "; its ratios understate this CPU");
    return 1;
}

void sd_slow_cause_names(unsigned causes, const char **names, int *n) {
    static const struct {
        unsigned bit;
        const char *name;
    } all[] = {{SD_SLOW_OLD_CORE, "old_core"},
               {SD_SLOW_SHARED, "shared_cpu"},
               {SD_SLOW_FEW_THREADS, "few_threads"},
               {SD_SLOW_SMALL, "small_shape"}};
    *n = 0;
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (causes & all[i].bit)
            names[(*n)++] = all[i].name;
}
