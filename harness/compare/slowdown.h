/* slowdown.h — the model of `gpubench compare`'s slowdown mode, shared by its parts:
 * slowdown_model.c builds the lines and computes the geometric means, slowdown_cross.c finds the
 * crossovers, slowdown_text.c prints the tables (text, Markdown; slowdown_side.c the side-by-side
 * and crossover ones), slowdown_csv.c and slowdown_json.c the machine forms; slowdown.c is the
 * entry point. Internal to harness/compare. */
#ifndef GPUBENCH_COMPARE_SLOWDOWN_H
#define GPUBENCH_COMPARE_SLOWDOWN_H

#include <math.h>
#include <string.h>

#include "harness/compare/internal.h"
#include "harness/io/marks.h"
#include "harness/core/shape.h"

/* A shape as every human output prints it (the run table too): "stride=1", not
 * "stride_h=1;stride_w=1"; CSV and JSON keep the canonical form, which joins. */
#define SHORT(shape, buf) (shape_compact((shape), (buf), sizeof(buf)), (buf))

/* One line of the report: a (workload, shape, dtype, impl) and the row of each series. */
struct combo {
    const char *workload, *shape, *dtype, *impl;
    double size;     /* flops, or bytes when there are none: the order of a sweep */
    int order;       /* first appearance */
    int wl_order;    /* first appearance of the workload */
    int shape_order; /* first appearance of the (workload, shape, dtype) */
    int tier;        /* the dtype's place in tier order (float32 first), 99 when unknown */
    int one_time;    /* a start-up cost (workload `startup`): a time with no work in it */
    /* Set: the baseline ran this workload and tier at this other shape only, the other devices
     * at this line's shape only (the CPU's arrays sized past its last-level cache, the GPUs' at
     * the common default): the line is measured against that row by bandwidth (time per byte). */
    const char *bw_shape;
};

struct sd {
    const struct cmp_input *in;
    const struct cmp_opts *o;
    int base; /* baseline series */
    int ncombo;
    struct combo *combo;
    const struct run_row **cell; /* ncombo × nseries */
    const struct run_row **ref;  /* ncombo: the baseline row each line is measured against */
    const char *only_dtype;      /* when set, geomeans counts only the lines of this tier */
};

struct xover {
    int series, cpu;
    const char *workload, *impl, *dtype; /* one crossover per implementation and tier */
    const char *kind;  /* "from", "always", "never" */
    const char *shape; /* the first size from which the GPU stays faster (from, always) */
    char text[1024];
};


static inline const struct run_row *at(const struct sd *d, int c, int s) {
    return d->cell[(size_t)c * (size_t)d->in->nseries + (size_t)s];
}

/* End-to-end time; a CPU row has no copies, so its kernel time is its end-to-end time. */
static inline double e2e_ms(const struct run_row *r) {
    return isfinite(r->e2e_median_ms) ? r->e2e_median_ms : r->median_ms;
}

static inline int usable(const struct run_row *r) {
    return r && r->status == ST_OK && r->median_ms > 0 && e2e_ms(r) > 0;
}

/* Did one of two rows measure a cache and the other memory (harness/io/marks.h: cached)? Such
 * rows are never set side by side by bandwidth: a cache rate against a memory rate says nothing
 * of either device. */
static inline int cache_against_memory(const struct run_row *a, const struct run_row *b) {
    return a && b && ((a->marks ^ b->marks) & MARK_CACHED);
}

/* The sentence said where rows were left unpaired for that. */
#define SD_CACHE_NOTE                                                                            \
    "not set side by side by bandwidth: one side's working set was served by its last-level "    \
    "cache (a cache rate), the other's by memory"

static inline int same_point(const struct combo *c, const struct run_row *r) {
    return !strcmp(c->workload, r->workload) && !strcmp(c->shape, r->shape) &&
           !strcmp(c->dtype, r->dtype);
}

/* Fill d's lines, cells and baselines from d->in and d->base. Returns 0, or -1 with one line in
 * err (out of memory; sd_free frees what was allocated). */
int sd_build(struct sd *d, char *err, size_t errlen);
void sd_free(struct sd *d);
/* Does series s have any row in lines [c0, c1)? */
int sd_has_rows(const struct sd *d, int s, int c0, int c1);
/* The end of the table that starts at line c0: the lines of one workload in one tier. */
int sd_wl_end(const struct sd *d, int c0);
/* How many precision tiers the lines hold (1 for files of float32 rows only). */
int sd_tier_count(const struct sd *d);
/* Does the report hold lines of one-time costs (left out of every geometric mean)? */
int sd_has_one_time(const struct sd *d);
/* Line c's kernel and e2e ratios of row r against baseline row b: time over time, or time per
 * byte over time per byte (baseline GB/s / r's GB/s) on a line measured by bandwidth. 0: none
 * (on a line measured by bandwidth, also where one row is cached and the other is not). */
int sd_ratios(const struct sd *d, int c, const struct run_row *r, const struct run_row *b,
              double *k, double *e);
/* Geometric means of series s's kernel and e2e ratios over lines [c0, c1); returns the count. */
int sd_geomeans(const struct sd *d, int s, int c0, int c1, double *gk, double *ge);

/* Is line c the first of its point? Series s's fastest times at line c's point (0: none). */
int sd_point_first(const struct sd *d, int c);
int sd_point_best(const struct sd *d, int s, int c, double *k, double *e);
/* Devices a and b over the points both ran (each at its fastest implementation), no baseline
 * involved: a's time / b's time, *left the points only one of them ran. Returns the count. */
int sd_pair_geomeans(const struct sd *d, int a, int b, double *gk, double *ge, int *left);
/* Does line c's point pair devices a and b by bandwidth (each ran its workload and tier at one
 * shape only, and the two shapes differ)? The first line of the other one's point, or -1. */
int sd_pair_by_bytes(const struct sd *d, int a, int b, int c);

/* Every line and device that has a row, in the report's order: fn gets line c, series s, its row
 * r, the baseline row b it is measured against (NULL: none) and the ratios (NaN: none). */
typedef void sd_line_fn(const struct sd *d, int c, int s, const struct run_row *r,
                        const struct run_row *b, double kr, double er, void *ctx);
void sd_each_line(const struct sd *d, sd_line_fn *fn, void *ctx);
/* Every two devices, a before b in the files' order: fn gets b against a (sd_pair_geomeans). */
typedef void sd_pair_fn(const struct sd *d, int b, int a, int n, int left, double gk, double ge,
                        void *ctx);
void sd_each_pair(const struct sd *d, sd_pair_fn *fn, void *ctx);

/* Is series s a simulated device (gpubench-sim: its times are CPU emulation)? Is any? */
int sd_simulated(const struct sd *d, int s);
int sd_any_simulated(const struct sd *d);

/* Find the crossovers of workload lines [c0, c1); appends to x (room for nseries × lines). */
int sd_crossovers(const struct sd *d, int c0, int c1, struct xover *x);

/* A CPU column that ran far under its peak (slow_cpu.c): its best GEMM row (float32 first)
 * under SD_SLOW_PCT of the whole CPU's peak (peak_pct × threads / cores, where the hardware
 * column gives the cores), and the causes the files measured: OpenBLAS kernels older than the
 * CPU (blas_lib's core=NAME against the hardware column's flags, harness/core/blas_rank.h), a
 * shared CPU (the row's cpu_wait_pct at SD_WAIT_PCT or more), fewer threads than cores, a
 * shape too small to fill the threads; none known is said as such. The text is the report's
 * sentence ("the CPU baseline's GEMM ran at 9% of its FP32 peak at best (m=2048 …): …:
 * speedups against it are overstated"). */
#define SD_SLOW_PCT 25.0
#define SD_WAIT_PCT 10.0
enum { SD_SLOW_OLD_CORE = 1, SD_SLOW_SHARED = 2, SD_SLOW_FEW_THREADS = 4, SD_SLOW_SMALL = 8 };
struct sd_slow {
    const struct run_row *row; /* the best GEMM row */
    double pct;                /* its share of the whole CPU's peak, % */
    double wait_pct;           /* its cpu_wait_pct; NaN when the file has none */
    unsigned causes;           /* SD_SLOW_ bits; 0: no cause known */
    char text[768];
};
/* 1 with *o filled when series s is such a CPU, else 0. */
int sd_slow_cpu(const struct sd *d, int s, struct sd_slow *o);
/* The causes' names for the machine forms ("old_core", "shared_cpu", "few_threads",
 * "small_shape"), in that order, into names[0..*n) (room for 4). */
void sd_slow_cause_names(unsigned causes, const char **names, int *n);

/* Said once wherever a simulated device's times are shown. */
#define SD_EMULATION_NOTE                                                                        \
    "the simulated devices' times are CPU emulation (gpubench-sim), not measurements of the "    \
    "cards: no ratio, ranking or crossover with them says how fast a card is"

/* The text and Markdown tables' parts (slowdown_text.c): columns c and c + 1 as a kernel and an
 * e2e ratio under `group` (NULL: no label), kept together when a narrow table splits; a mean's two cells, "-" where it counts no line (n == 0);
 * the table fitted to `width` (0: the wide form; Markdown is never fitted) with its first nkey
 * columns repeated in every part (grid_print_fit), then, where a cell reads "-", the line `dash`
 * that says why. */
void sd_head_pair(struct cmp_grid *g, int c, const char *group);
void sd_mean_cells(struct cmp_grid *g, int row, int c, int n, double gk, double ge);
void sd_show(const struct cmp_grid *g, int nkey, int width, int md, const char *dash, FILE *out);
/* The side-by-side and crossover tables (slowdown_side.c). */
void sd_print_pairs(const struct sd *d, FILE *out, int md, int width);
void sd_print_crossovers(const struct sd *d, const struct xover *x, int nx, FILE *out, int md,
                         int width);

/* The report for people (md: GitHub Markdown), and the machine forms. */
void sd_print_text(struct sd *d, const struct xover *x, int nx, FILE *out, int md);
void sd_print_csv(const struct sd *d, const struct xover *x, int nx, FILE *out);
void sd_print_json(struct sd *d, const struct xover *x, int nx, FILE *out);

#endif
