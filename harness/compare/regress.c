/* regress.c — regression mode of `gpubench compare`: the runs of a base side and a new side
 * (say before and after a driver upgrade, each `gpubench --runs N`), joined row by row. A row's
 * evidence is one median per run; the verdict SLOWER / FASTER / SAME / UNSURE comes from
 * verdict.c. A row that broke (ok → wrong, error, …) or vanished is a regression too. The two
 * sides must come from the same host and devices, or the user says otherwise: a comparison of
 * two machines is a slowdown table (--baseline), never a silent regression check. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/compare/cycles.h"
#include "harness/compare/rankstats.h"
#include "harness/compare/regress.h"
#include "harness/compare/shared.h"

/* --- the sides ------------------------------------------------------------------------------ */

/* Every row and every run of files [file0, file0 + nfiles). Returns 0, or -1 (out of memory). */
static int side_build(const struct cmp_input *in, int file0, int nfiles, struct rg_side *s) {
    size_t total = 0, k = 0;
    s->file0 = file0;
    s->nfiles = nfiles;
    for (int f = file0; f < file0 + nfiles; f++)
        total += in->runs[f].nrows;
    s->rows = malloc((total ? total : 1) * sizeof *s->rows);
    s->runs = malloc((total ? total : 1) * sizeof *s->runs);
    if (!s->rows || !s->runs)
        return -1;
    for (int f = file0; f < file0 + nfiles; f++)
        for (size_t r = 0; r < in->runs[f].nrows; r++) {
            const struct run_row *row = &in->runs[f].run[r];
            int known = 0;
            s->rows[k++] = row;
            for (int i = s->nruns - 1; i >= 0 && !known; i--)
                known = !strcmp(s->runs[i].first->run_id, row->run_id);
            if (!known)
                s->runs[s->nruns++] = (struct rg_run){row, f, -1};
        }
    s->nrows = k;
    return 0;
}

static void side_free(struct rg_side *s) {
    free(s->rows);
    free(s->runs);
}

/* A run is evidence once: the same run_id in two files (on one side or both) is refused. */
static int runs_once(const struct cmp_input *in, const struct rg_side *s, char *err,
                     size_t errlen) {
    for (int a = 0; a < RG_SIDES; a++)
        for (int i = 0; i < s[a].nruns; i++)
            for (int b = a; b < RG_SIDES; b++)
                for (int j = (b == a ? i + 1 : 0); j < s[b].nruns; j++) {
                    const struct rg_run *x = &s[a].runs[i], *y = &s[b].runs[j];
                    if (strcmp(x->first->run_id, y->first->run_id))
                        continue;
                    snprintf(err, errlen,
                             "%s:%d: column run_id: run %s is also in %s:%d (%s; a run counts "
                             "once)",
                             in->runs[y->file].name, y->first->line, y->first->run_id,
                             in->runs[x->file].name, x->first->line,
                             a == b ? "the same run twice on one side" : "on both sides");
                    return -1;
                }
    return 0;
}

/* --- what differs: provenance per device, and the host ------------------------------------ */

enum { NPROV = 7, COL_THREADS = 11 /* fixed column, as in csv_run_columns */ };

/* The provenance a device's rows carry, by number (threads as written: the CPU's count). */
static const char *const prov_names[NPROV] = {"device_name", "cc",      "driver", "runtime",
                                              "blas_lib",    "dnn_lib", "threads"};

static const char *prov_value(const struct run_row *r, int fi) {
    const char *const v[NPROV] = {r->device_name, r->cc,      r->driver,          r->runtime,
                                  r->blas_lib,    r->dnn_lib, r->raw[COL_THREADS]};
    return v[fi];
}

/* The facts of the rows' hardware column (harness/run/hardware.h) that tell machines apart:
 * key, title, whether it is a device's own (else the host's), and the relative difference
 * tolerated (the memory a kernel reserves moves with a kernel upgrade). */
static const struct hw_key {
    const char *key, *title;
    int per_device;
    double tolerance;
} hw_keys[] = {
    {"cpu", "CPU model", 0, 0},
    {"features", "CPU features", 0, 0},
    {"packages", "CPU packages", 0, 0},
    {"cores", "cpu cores", 0, 0},
    {"pus", "cpu hardware threads", 0, 0},
    {"numa", "NUMA nodes", 0, 0},
    {"llc_mib", "last-level cache MiB", 0, 0},
    {"memory_mib", "memory MiB", 0, 0.03},
    {"gpus", "NVIDIA GPUs at PCI", 0, 0},
    {"gpu_pci", "PCI bus", 1, 0},
    {"gpu_memory_mib", "memory MiB", 1, 0.01},
};
enum { NHW = sizeof hw_keys / sizeof hw_keys[0] };

const char *rg_field_title(const char *f) {
    if (!strcmp(f, "blas_lib"))
        return "BLAS (cuBLAS/OpenBLAS)";
    if (!strcmp(f, "dnn_lib"))
        return "cuDNN";
    if (!strcmp(f, "device_name"))
        return "device";
    if (!strcmp(f, "cc"))
        return "compute capability";
    for (int k = 0; k < NHW; k++)
        if (!strcmp(f, hw_keys[k].key))
            return hw_keys[k].title;
    return f;
}

/* Append v to the " / "-joined list in buf unless it is there. */
static void add_distinct(char *buf, size_t len, const char *v) {
    size_t vl = strlen(v), used = strlen(buf);
    for (const char *p = buf; (p = strstr(p, v)) != NULL; p++)
        if ((p == buf || !strncmp(p - 3, " / ", 3)) &&
            (p[vl] == '\0' || !strncmp(p + vl, " / ", 3)))
            return;
    snprintf(buf + used, len - used, "%s%s", used ? " / " : "", v);
}

/* The distinct hosts of a side, or with dev the distinct values of field fi over dev's rows. */
static void distinct(const struct rg_side *s, const char *dev, int fi, char *buf, size_t len) {
    buf[0] = '\0';
    for (size_t r = 0; r < s->nrows; r++) {
        if (!dev)
            add_distinct(buf, len, s->rows[r]->host);
        else if (!strcmp(s->rows[r]->device, dev))
            add_distinct(buf, len, prov_value(s->rows[r], fi));
    }
}

static int has_device(const struct rg_side *s, const char *dev) {
    for (size_t r = 0; r < s->nrows; r++)
        if (!strcmp(s->rows[r]->device, dev))
            return 1;
    return 0;
}

static void add_diff(struct rg_report *rp, const char *device, const char *field, const char *was,
                     const char *now, int machine) {
    if (rp->nd >= RG_MAX_DIFFS)
        return;
    struct rg_diff *d = &rp->d[rp->nd++];
    d->device = device;
    d->field = field;
    snprintf(d->was, sizeof d->was, "%s", was);
    snprintf(d->now, sizeof d->now, "%s", now);
    d->machine = machine;
}

/* The first row of side s (of device dev; any device when NULL) with a hardware column. */
static const struct run_row *hw_row(const struct rg_side *s, const char *dev) {
    for (size_t r = 0; r < s->nrows; r++)
        if (s->rows[r]->hardware[0] && (!dev || !strcmp(s->rows[r]->device, dev)))
            return s->rows[r];
    return NULL;
}

/* Do two values of key k say one machine? Numbers within k's tolerance do. */
static int hw_same(const struct hw_key *k, const char *a, const char *b) {
    if (!strcmp(a, b))
        return 1;
    if (!(k->tolerance > 0))
        return 0;
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    return *a && *b && !*ea && !*eb && fabs(x - y) <= k->tolerance * fmax(x, y);
}

/* The facts of the hardware column that differ: the host's (from any row of each side), then
 * each device's own. When either side's rows lack the column (files written before it), the
 * CPU's thread count stands in for the host's cores (it defaults to them). */
static void hardware_differences(struct rg_report *rp) {
    const struct rg_side *b = &rp->s[RG_BASE], *n = &rp->s[RG_NEW];
    const struct run_row *hb = hw_row(b, NULL), *hn = hw_row(n, NULL);
    char was[RG_DIFF_LEN], now[RG_DIFF_LEN];
    if (!hb || !hn) {
        rp->hw_unknown = 1; /* said in the report: "machine identity not recorded" */
        for (int i = 0; i < rp->nd; i++)
            if (!strcmp(rp->d[i].field, "threads"))
                rp->d[i].machine = 1;
        return;
    }
    for (int k = 0; k < NHW; k++)
        if (!hw_keys[k].per_device &&
            !hw_same(&hw_keys[k], cmp_hw_get(hb->hardware, hw_keys[k].key, was, sizeof was),
                     cmp_hw_get(hn->hardware, hw_keys[k].key, now, sizeof now)))
            add_diff(rp, "", hw_keys[k].key, was, now, 1);
    for (size_t r = 0; r < b->nrows; r++) {
        const char *dev = b->rows[r]->device;
        const struct run_row *xb = hw_row(b, dev), *xn = hw_row(n, dev);
        if (xb != b->rows[r] || !xn)
            continue; /* not dev's first row with the column, or dev absent from the new side */
        for (int k = 0; k < NHW; k++)
            if (hw_keys[k].per_device &&
                !hw_same(&hw_keys[k], cmp_hw_get(xb->hardware, hw_keys[k].key, was, sizeof was),
                         cmp_hw_get(xn->hardware, hw_keys[k].key, now, sizeof now)))
                add_diff(rp, dev, hw_keys[k].key, was, now, 1);
    }
}

/* The host, then per device of either side (in order of appearance) whether it is absent from
 * the other side, or each provenance field whose values differ; then the hardware's facts. */
static void differences(struct rg_report *rp) {
    char was[RG_DIFF_LEN], now[RG_DIFF_LEN];
    const struct rg_side *b = &rp->s[RG_BASE], *n = &rp->s[RG_NEW];
    distinct(b, NULL, 0, was, sizeof was);
    distinct(n, NULL, 0, now, sizeof now);
    if (strcmp(was, now))
        add_diff(rp, "", "host", was, now, 1);
    for (int side = 0; side < RG_SIDES; side++) {
        const struct rg_side *t = &rp->s[side], *u = &rp->s[1 - side];
        for (size_t r = 0; r < t->nrows; r++) {
            const struct run_row *a = t->rows[r];
            int firstdev = 1;
            for (size_t k = 0; k < r && firstdev; k++)
                firstdev = strcmp(t->rows[k]->device, a->device) != 0;
            if (!firstdev)
                continue;
            if (!has_device(u, a->device)) {
                add_diff(rp, a->device, "device", side ? "(absent)" : a->device_name,
                         side ? a->device_name : "(absent)", 0);
                continue;
            }
            for (int fi = 0; fi < NPROV && side == RG_BASE; fi++) {
                distinct(b, a->device, fi, was, sizeof was);
                distinct(n, a->device, fi, now, sizeof now);
                if (strcmp(was, now))
                    add_diff(rp, a->device, prov_names[fi], was, now,
                             !strcmp(prov_names[fi], "device_name") ||
                                 !strcmp(prov_names[fi], "cc"));
            }
        }
    }
    hardware_differences(rp);
}

/* Append ", WHAT" to the list in buf, cut short when it does not fit (a message). */
static void add_reason(char *buf, size_t len, const char *what) {
    size_t used = strlen(buf), n = strlen(what);
    if (used && used + 2 < len) {
        memcpy(buf + used, ", ", 2);
        used += 2;
    }
    if (n > len - used - 1)
        n = len - used - 1;
    memcpy(buf + used, what, n);
    buf[used + n] = '\0';
}

/* Runs of two machines are not a regression check unless the user says so. Two machines: a host
 * name that differs (between the sides, or within one), a device whose name or compute
 * capability differs, or a fact of the hardware column (the CPU's threads for files without
 * it). A driver or library upgrade changes none of these, and is judged. The refusal names
 * every difference, devices present on one side only among them, in one line. Returns 0 or -1. */
static int same_machine(const struct rg_report *rp, char *err, size_t errlen) {
    char what[CSV_ERR_LEN - 128] = "", one[2 * RG_DIFF_LEN + 64];
    int machines = 0;
    for (int i = 0; i < rp->nd; i++) {
        const struct rg_diff *d = &rp->d[i];
        if (!d->machine && strcmp(d->field, "device"))
            continue;
        machines += d->machine;
        if (!strcmp(d->field, "device")) /* "cuda:0 NVIDIA H200 vs absent" */
            snprintf(one, sizeof one, "%s %s vs %s", d->device,
                     strcmp(d->was, "(absent)") ? d->was : "absent",
                     strcmp(d->now, "(absent)") ? d->now : "absent");
        else /* "cpu threads 16 vs 2", "host a vs b" */
            snprintf(one, sizeof one, "%s%s%s %s vs %s", d->device, d->device[0] ? " " : "",
                     rg_field_title(d->field), d->was, d->now);
        add_reason(what, sizeof what, one);
    }
    for (int side = 0; side < RG_SIDES && !machines; side++) {
        char hosts[RG_DIFF_LEN];
        distinct(&rp->s[side], NULL, 0, hosts, sizeof hosts);
        if (strstr(hosts, " / ")) {
            snprintf(what, sizeof what, "the %s side mixes hosts %s", side ? "new" : "base",
                     hosts);
            machines = 1;
        }
    }
    if (!machines || rp->o->allow_hosts)
        return 0;
    snprintf(err, errlen,
             "compare: runs are of different machines: %s; --allow-different-hosts compares "
             "them anyway, --baseline DEVICE gives a slowdown table",
             what);
    return -1;
}

/* --- joining the rows of both sides ---------------------------------------------------------- */

struct ref {
    const struct run_row *r;
    int side, seq;
};

static int key_cmp(const struct run_row *a, const struct run_row *b) {
    int c;
    if ((c = strcmp(a->device, b->device)) || (c = strcmp(a->workload, b->workload)) ||
        (c = strcmp(a->impl, b->impl)) || (c = strcmp(a->shape, b->shape)))
        return c;
    return strcmp(a->dtype, b->dtype);
}

static int ref_cmp(const void *pa, const void *pb) {
    const struct ref *a = pa, *b = pb;
    int c = key_cmp(a->r, b->r);
    if (c)
        return c;
    return a->seq - b->seq; /* base before new (base rows come first), file order within */
}

static int row_seen_cmp(const void *pa, const void *pb) {
    return ((const struct rg_row *)pa)->first_seen - ((const struct rg_row *)pb)->first_seen;
}

/* One rg_row per key of either side, in order of first appearance, pointing into rp->store_
 * (every row of both sides, grouped by key, base runs first). Returns 0 or -1 (no memory). */
static int join(struct rg_report *rp) {
    size_t total = rp->s[0].nrows + rp->s[1].nrows, k = 0;
    struct ref *v = malloc((total ? total : 1) * sizeof *v);
    rp->store_ = malloc((total ? total : 1) * sizeof *rp->store_);
    rp->rows = calloc(total ? total : 1, sizeof *rp->rows);
    if (!v || !rp->store_ || !rp->rows) {
        free(v);
        return -1;
    }
    for (int side = 0; side < RG_SIDES; side++)
        for (size_t r = 0; r < rp->s[side].nrows; r++, k++)
            v[k] = (struct ref){rp->s[side].rows[r], side, (int)k};
    qsort(v, total, sizeof *v, ref_cmp);
    for (size_t i = 0; i < total; i++)
        rp->store_[i] = v[i].r;
    for (size_t i = 0; i < total;) {
        struct rg_row *row = &rp->rows[rp->nrows++];
        size_t j = i;
        while (j < total && key_cmp(v[j].r, v[i].r) == 0)
            j++;
        row->key = v[i].r;
        row->first_seen = v[i].seq;
        for (size_t x = i; x < j; x++)
            row->n[v[x].side]++;
        row->side[RG_BASE] = rp->store_ + i;
        row->side[RG_NEW] = rp->store_ + i + row->n[RG_BASE];
        row->ms[RG_BASE] = row->ms[RG_NEW] = NAN;
        i = j;
    }
    free(v);
    qsort(rp->rows, rp->nrows, sizeof *rp->rows, row_seen_cmp);
    return 0;
}

/* --- judging a row --------------------------------------------------------------------------- */

static int is_failure(enum status s) {
    return s == ST_WRONG || s == ST_ERROR || s == ST_TIMEOUT;
}

/* The geometric mean of a side's run medians when every run of it is ok, else NaN. */
static double side_ms(const struct rg_row *w, int side) {
    double sum = 0;
    if (!w->n[side] || w->nbad[side])
        return NAN;
    for (int i = 0; i < w->n[side]; i++) {
        double ms = w->side[side][i]->median_ms;
        if (!(ms > 0) || !isfinite(ms))
            return NAN;
        sum += log(ms);
    }
    return exp(sum / w->n[side]);
}

/* Is the row unsupported in every run of both sides? */
static int all_unsupported(const struct rg_row *w) {
    for (int side = 0; side < RG_SIDES; side++)
        for (int i = 0; i < w->n[side]; i++)
            if (w->side[side][i]->status != ST_UNSUPPORTED)
                return 0;
    return 1;
}

/* The state of a row from its runs' statuses alone, and each side's time when it has one. */
static void judge_status(struct rg_row *w) {
    for (int side = 0; side < RG_SIDES; side++)
        for (int i = 0; i < w->n[side]; i++)
            if (w->side[side][i]->status != ST_OK && w->nbad[side]++ == 0)
                w->bad[side] = w->side[side][i]->status;
    for (int side = 0; side < RG_SIDES; side++)
        w->ms[side] = side_ms(w, side);
    if (!w->n[RG_NEW] && all_unsupported(w))
        w->state = RG_UNSUPPORTED; /* not chosen now, and nothing to lose: not VANISHED */
    else if (!w->n[RG_NEW])
        w->state = RG_VANISHED;
    else if (!w->n[RG_BASE])
        w->state = RG_ADDED;
    else if (!w->nbad[RG_BASE])
        w->state = w->nbad[RG_NEW] ? RG_BROKEN : RG_TIMED;
    else if (!w->nbad[RG_NEW])
        w->state = RG_FIXED;
    else if (all_unsupported(w))
        w->state = RG_UNSUPPORTED;
    else /* failing before and after: broken only by a new kind of wrong or error */
        w->state =
            is_failure(w->bad[RG_NEW]) && w->bad[RG_NEW] != w->bad[RG_BASE] ? RG_BROKEN : RG_NOT_OK;
    w->regression = w->state == RG_VANISHED || w->state == RG_BROKEN;
}

/* A BROKEN row that was ok in every base run: its cause, from the first failing new run's status
 * and note (the note's first clause: what the run said first), as "timeout: … after 30 s". */
static void broken_cause(struct rg_row *w) {
    w->cause[0] = '\0';
    if (w->state != RG_BROKEN || w->nbad[RG_BASE])
        return;
    for (int i = 0; i < w->n[RG_NEW]; i++) {
        const struct run_row *r = w->side[RG_NEW][i];
        if (r->status == ST_OK)
            continue;
        const char *st = status_name(r->status), *note = r->note ? r->note : "";
        int len = (int)strcspn(note, ";");
        if (len > 160)
            len = 160;
        if (!len)
            snprintf(w->cause, sizeof w->cause, "%s", st);
        else if (strstr(note, st) && strstr(note, st) < note + len) /* the note names it */
            snprintf(w->cause, sizeof w->cause, "%.*s", len, note);
        else
            snprintf(w->cause, sizeof w->cause, "%s: %.*s", st, len, note);
        return;
    }
}

/* Each side's median of its runs' cpu_wait_pct (NaN: none says), and the sides above the
 * threshold. The median, so that with several runs a side one run that met a neighbour is the
 * run-to-run test's noise, and a side that mostly ran shared is not judged. */
static void cpu_shared_sides(struct rg_row *w) {
    w->cpu_shared = 0;
    for (int side = 0; side < RG_SIDES; side++) {
        double v[64];
        int n = 0;
        for (int i = 0; i < w->n[side] && n < 64; i++)
            if (!isnan(w->side[side][i]->cpu_wait_pct))
                v[n++] = w->side[side][i]->cpu_wait_pct;
        for (int i = 1; i < n; i++) /* insertion sort: a handful of runs */
            for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
                double t = v[j];
                v[j] = v[j - 1];
                v[j - 1] = t;
            }
        w->cpu_wait[side] = !n ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        if (w->cpu_wait[side] > CPU_WAIT_SHARED_PCT)
            w->cpu_shared |= 1 << side;
    }
}

/* With one run per side: do the two runs' own timings separate? The rank test on their samples
 * when both have at least 5 (--samples), else their 95% intervals of the median, else unknown. */
static enum vd_within within(const struct cmp_input *in, const struct cmp_opts *o,
                             const struct run_row *b, const struct run_row *n) {
    const struct cmp_group *gb = cmp_row_samples(in, b), *gn = cmp_row_samples(in, n);
    struct rank_mwu u;
    if (gb && gn && gb->n >= 5 && gn->n >= 5 &&
        rank_mwu_test(gb->ms, gb->n, gn->ms, gn->n, &u) == 0)
        return u.p < o->alpha ? VD_WITHIN_SEPARATE : VD_WITHIN_OVERLAP;
    if (isfinite(b->ci95_lo_ms) && isfinite(b->ci95_hi_ms) && isfinite(n->ci95_lo_ms) &&
        isfinite(n->ci95_hi_ms))
        return n->ci95_lo_ms > b->ci95_hi_ms || n->ci95_hi_ms < b->ci95_lo_ms ? VD_WITHIN_SEPARATE
                                                                              : VD_WITHIN_OVERLAP;
    return VD_WITHIN_UNKNOWN;
}

/* The log medians of a timed row into w->logs and its test; RG_NA when a median is not > 0. */
static int prepare_timed(const struct rg_report *rp, struct rg_row *w, uint64_t seed) {
    int total = w->n[RG_BASE] + w->n[RG_NEW];
    w->logs = malloc((size_t)total * sizeof *w->logs);
    if (!w->logs)
        return -1;
    if (isnan(w->ms[RG_BASE]) || isnan(w->ms[RG_NEW])) {
        w->state = RG_NA; /* ok, but a median that is not a positive number */
        return 0;
    }
    for (int side = 0, k = 0; side < RG_SIDES; side++)
        for (int i = 0; i < w->n[side]; i++)
            w->logs[k++] = log(w->side[side][i]->median_ms);
    w->vd = (struct vd_row){
        .base = w->logs, .new_ = w->logs + w->n[RG_BASE], .nb = w->n[RG_BASE], .nn = w->n[RG_NEW]};
    if (w->n[RG_BASE] == 1 && w->n[RG_NEW] == 1)
        w->vd.within = within(rp->in, rp->o, w->side[RG_BASE][0], w->side[RG_NEW][0]);
    struct vd_opts vo = {rp->o->threshold, rp->o->alpha, rp->o->single_floor, seed};
    vd_test_row(&w->vd, &vo);
    w->test = isnan(w->vd.se) ? "single-run" : "welch-log";
    return 0;
}

/* Stage 2 over every timed row at once (the false discovery rate is over rows), then the
 * counts. Returns 0 or -1 (out of memory). */
static int decide_all(struct rg_report *rp) {
    struct vd_row *v = malloc((rp->nrows ? rp->nrows : 1) * sizeof *v);
    size_t k = 0;
    if (!v)
        return -1;
    for (size_t i = 0; i < rp->nrows; i++)
        if (rp->rows[i].state == RG_TIMED)
            v[k++] = rp->rows[i].vd;
    struct vd_opts vo = {rp->o->threshold, rp->o->alpha, rp->o->single_floor, rp->o->seed};
    rp->tested = vd_decide(v, (int)k, &vo);
    rp->level = NAN;
    k = 0;
    for (size_t i = 0; i < rp->nrows; i++) {
        struct rg_row *w = &rp->rows[i];
        if (w->state != RG_TIMED) {
            rp->broken += w->state == RG_BROKEN;
            rp->vanished += w->state == RG_VANISHED;
            continue;
        }
        w->vd = v[k++];
        if (!isnan(w->vd.se))
            rp->level = w->vd.level;
        else
            rp->single++;
        cpu_shared_sides(w);
        if (w->cpu_shared) { /* a busy machine's times decide nothing (issue 45) */
            w->vd.kind = VD_UNSURE;
            rp->cpu_shared++;
        }
        w->regression = w->vd.kind == VD_SLOWER;
        w->unsure = w->vd.kind == VD_UNSURE;
        rp->slower += w->vd.kind == VD_SLOWER;
        rp->faster += w->vd.kind == VD_FASTER;
        rp->same += w->vd.kind == VD_SAME;
        rp->unsure += w->unsure;
        cmp_cycles_differ(rp->in, w->side[RG_BASE], w->n[RG_BASE], w->side[RG_NEW],
                          w->n[RG_NEW], w->cycles, sizeof w->cycles);
        rp->slower_cycles += w->vd.kind == VD_SLOWER && w->cycles[0];
    }
    free(v);
    return 0;
}

/* --common: the rows both sides have, in their order; the others (VANISHED, NEW) counted. */
static void keep_common(struct rg_report *rp) {
    size_t kept = 0;
    for (size_t i = 0; i < rp->nrows; i++) {
        enum rg_state st = rp->rows[i].state;
        if (st == RG_VANISHED || st == RG_ADDED)
            rp->left_out++;
        else
            rp->rows[kept++] = rp->rows[i];
    }
    rp->nrows = kept;
}

int rg_exit_code(const struct rg_report *r) {
    int reg = r->slower + r->broken + r->vanished;
    return reg || (r->o->strict && (r->unsure || r->shared_runs)) ? 1 : 0;
}

static void report_free(struct rg_report *rp) {
    for (size_t i = 0; i < rp->nrows; i++)
        free(rp->rows[i].logs);
    free(rp->rows);
    free(rp->store_);
    side_free(&rp->s[0]);
    side_free(&rp->s[1]);
}

int cmp_regress(const struct cmp_input *in, const struct cmp_opts *o, FILE *out, char *err,
                size_t errlen) {
    struct rg_report rp = {.in = in, .o = o};
    int rc = 2;
    if (side_build(in, 0, o->nbase, &rp.s[RG_BASE]) ||
        side_build(in, o->nbase, in->nfiles - o->nbase, &rp.s[RG_NEW])) {
        snprintf(err, errlen, "compare: out of memory");
        goto out;
    }
    if (runs_once(in, rp.s, err, errlen))
        goto out;
    for (int side = 0; side < RG_SIDES; side++)
        for (int i = 0; i < rp.s[side].nruns; i++) {
            struct rg_run *x = &rp.s[side].runs[i];
            struct cmp_shared sh = cmp_shared_of(in, x->file, x->first->run_id, NULL);
            x->shared = sh.known ? sh.yes : -1;
            rp.shared_runs += sh.yes > 0;
        }
    differences(&rp);
    if (same_machine(&rp, err, errlen))
        goto out;
    if (join(&rp)) {
        snprintf(err, errlen, "compare: out of memory");
        goto out;
    }
    for (size_t i = 0; i < rp.nrows; i++)
        judge_status(&rp.rows[i]);
    if (o->common)
        keep_common(&rp);
    for (size_t i = 0; i < rp.nrows; i++) {
        broken_cause(&rp.rows[i]);
        if (rp.rows[i].state == RG_TIMED &&
            prepare_timed(&rp, &rp.rows[i], o->seed + 0x9E3779B97F4A7C15ull * (i + 1))) {
            snprintf(err, errlen, "compare: out of memory");
            goto out;
        }
    }
    if (decide_all(&rp)) {
        snprintf(err, errlen, "compare: out of memory");
        goto out;
    }
    rg_print(&rp, out);
    rc = rg_exit_code(&rp);
out:
    report_free(&rp);
    return rc;
}
