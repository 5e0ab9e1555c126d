/* plan.c — turn options into the list of rows, rejecting bad input before anything runs. */
#include "harness/run/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/registry.h"
#include "harness/core/inputs.h" /* splitmix64 */
#include "harness/core/shape.h"
#include "harness/io/termcols.h"

static int fail(const char *fmt, const char *a, const char *b) {
    fprintf(stderr, "gpubench: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

static int listed(char *const *items, int n, const char *name) {
    if (n == 0)
        return 1;
    for (int i = 0; i < n; i++)
        if (strcmp(items[i], name) == 0)
            return 1;
    return 0;
}

int plan_impl_selected(const struct options *o, const struct impl *im) {
    return listed(o->impls, o->nimpls, im->name);
}

static int add_device(struct plan *pl, const struct device *d) {
    for (int i = 0; i < pl->ndevs; i++)
        if (pl->devs[i] == d)
            return 0;
    pl->devs[pl->ndevs++] = d;
    return 0;
}

static int select_devices(const struct options *o, const struct device_list *found,
                          const char *gpu_why, struct plan *pl) {
    if (o->ndevices == 0) {
        for (int i = 0; i < found->n; i++)
            add_device(pl, &found->d[i]);
        return 0;
    }
    for (int k = 0; k < o->ndevices; k++) {
        const char *want = o->devices[k];
        int hit = 0;
        if (strcmp(want, "cpu") != 0 && strcmp(want, "cuda") != 0 && strncmp(want, "cuda:", 5))
            return fail("--device: unknown device '%s' (cpu, cuda or cuda:N)%s", want, "");
        for (int i = 0; i < found->n; i++) {
            const struct device *d = &found->d[i];
            if (strcmp(want, d->id) == 0 || (strcmp(want, "cuda") == 0 && d->kind == DEV_CUDA)) {
                add_device(pl, d);
                hit = 1;
            }
        }
        if (!hit && strncmp(want, "cuda", 4) == 0)
            return fail("--device: %s: no such CUDA device: %s", want,
                        gpu_why[0] ? gpu_why : "this machine has fewer GPUs");
    }
    return 0;
}

static int add_shape(struct plan *pl, int *cap, const struct workload *w, const char *text,
                     const char *origin, unsigned kinds) {
    struct shape s;
    char err[256];
    if (shape_parse(w, text, &s, err, sizeof err) != 0) {
        fprintf(stderr, "gpubench: %s %s:%s: %s\n", origin, w->name, text, err);
        return 2;
    }
    /* The same problem given twice (m=8 and m=2^3 are one shape): run once. Twice would write two
     * rows of one (workload, impl, shape, dtype), a file compare refuses as a duplicate. */
    for (int i = 0; i < pl->nshapes; i++)
        if (pl->shapes[i].w == w &&
            !memcmp(pl->shapes[i].s.v, s.v, (size_t)shape_nkeys(w) * sizeof *s.v)) {
            char canon[256];
            shape_format(w, &s, canon, sizeof canon);
            fprintf(stderr,
                    "gpubench: %s %s:%s: the same shape as one given before (%s): run "
                    "once\n",
                    origin, w->name, text, canon);
            return 0;
        }
    /* the problem, and the largest of its implementations' own (rows run one at a time);
     * host_bytes counts float32 elements; f64 problems hold doubles */
    int f64 = (dtype_mask(w->dtypes) & pl->o->dtypes & DT_BIT(DT_F64)) != 0;
    double impl_need = 0;
    const struct impl *im;
    for (int i = 0; (im = registry_impl(w, i)) != NULL; i++) {
        double b = im->host_bytes ? im->host_bytes(&s) : 0;
        impl_need = b > impl_need ? b : impl_need;
    }
    double need = (w->host_bytes(&s) + impl_need) * (f64 ? 2 : 1);
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    double have = pages > 0 && psize > 0 ? (double)pages * (double)psize : 0;
    if (have > 0 && need > 0.9 * have) {
        fprintf(stderr,
                "gpubench: %s %s:%s: needs %.1f GiB of host memory, this machine has %.1f GiB\n",
                origin, w->name, text, need / (1 << 30), have / (1 << 30));
        return 2;
    }
    /* one problem per tier the workload defines and --dtype selects */
    unsigned tiers = dtype_mask(w->dtypes) & pl->o->dtypes;
    for (int t = 0; t < DT_COUNT; t++) {
        if (!(tiers & DT_BIT(t)))
            continue;
        if (pl->nshapes == *cap) {
            *cap = *cap ? 2 * *cap : 16;
            struct plan_shape *n = realloc(pl->shapes, (size_t)*cap * sizeof *n);
            if (!n) {
                fprintf(stderr, "gpubench: out of memory building the plan\n");
                return 2;
            }
            pl->shapes = n;
        }
        pl->shapes[pl->nshapes++] = (struct plan_shape){w, s, (enum dtype)t, kinds};
    }
    return 0;
}

/* The kinds of the plan's devices (PLAN_KIND bits). */
static unsigned plan_kinds(const struct plan *pl) {
    unsigned k = 0;
    for (int i = 0; i < pl->ndevs; i++)
        k |= PLAN_KIND(pl->devs[i]->kind);
    return k;
}

int plan_cpu_default(const struct plan *pl, const struct workload *w, char *shape, size_t shapelen,
                     char *why, size_t whylen) {
    for (int i = 0; i < pl->ndevs; i++)
        if (pl->devs[i]->kind == DEV_CPU)
            return w->cpu_default &&
                   w->cpu_default(pl->devs[i]->cache_bytes, pl->devs[i]->mem_bytes, shape, shapelen,
                                  why, whylen) == 0;
    return 0;
}

/* Every (shape, device, implementation) the options select, in run order. */
static int add_rows(struct plan *pl) {
    int cap = 0;
    for (int si = 0; si < pl->nshapes; si++)
        for (int di = 0; di < pl->ndevs; di++) {
            const struct impl *im;
            for (int ii = 0; (im = registry_impl(pl->shapes[si].w, ii)) != NULL; ii++) {
                if (im->kind != pl->devs[di]->kind || !plan_impl_selected(pl->o, im) ||
                    !(pl->shapes[si].kinds & PLAN_KIND(pl->devs[di]->kind)))
                    continue;
                if (pl->total_rows == cap) {
                    cap = cap ? 2 * cap : 64;
                    struct plan_row *n = realloc(pl->rows, (size_t)cap * sizeof *n);
                    if (!n) {
                        fprintf(stderr, "gpubench: out of memory building the plan\n");
                        return 2;
                    }
                    pl->rows = n;
                }
                pl->rows[pl->total_rows++] = (struct plan_row){si, pl->devs[di], im};
            }
        }
    return 0;
}

/* Append `name` to the comma-separated list in out (once). */
static void list_add(char *out, size_t len, const char *name) {
    size_t n = strlen(name), used = strlen(out);
    for (const char *p = strstr(out, name); p; p = strstr(p + 1, name))
        if ((p == out || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return;
    snprintf(out + used, len - used, "%s%s", used ? "," : "", name);
}

/* "nothing to run", and why: the chosen workloads and implementations run only on a kind of
 * device the plan has none of (and why it has none), or they do not meet at all. Returns 2. */
static int nothing_to_run(const struct plan *pl, const char *gpu_why) {
    const struct options *o = pl->o;
    int have[2] = {0, 0}; /* devices of the plan by kind: DEV_CPU, DEV_CUDA */
    for (int i = 0; i < pl->ndevs; i++)
        have[pl->devs[i]->kind == DEV_CUDA] = 1;
    /* What the options select, by the kind of device it needs: workloads that have only GPU
     * implementations, and the implementations themselves. */
    int pairs[2] = {0, 0};
    char gpu_wls[160] = "", gpu_impls[160] = "", cpu_impls[160] = "";
    for (int wi = 0; registry_workloads[wi]; wi++) {
        const struct workload *w = registry_workloads[wi];
        if (!listed(o->workloads, o->nworkloads, w->name))
            continue;
        const struct impl *im;
        int kinds[2] = {0, 0};
        for (int ii = 0; (im = registry_impl(w, ii)) != NULL; ii++)
            if (plan_impl_selected(o, im)) {
                int k = im->kind == DEV_CUDA;
                kinds[k] = 1;
                pairs[k]++;
                list_add(k ? gpu_impls : cpu_impls, k ? sizeof gpu_impls : sizeof cpu_impls,
                         im->name);
            }
        if (kinds[1] && !kinds[0])
            list_add(gpu_wls, sizeof gpu_wls, w->name);
    }
    char what[400];
    if (pl->nshapes == 0) { /* no chosen workload defines a chosen precision tier */
        fprintf(stderr, "gpubench: nothing to run: no workload of --workload is defined in the "
                        "tiers of --dtype (gpubench list shows each implementation's tiers)\n");
        return 2;
    }
    if (pairs[1] && !pairs[0] && !have[1]) {
        const char *names = o->nimpls ? gpu_impls : gpu_wls;
        snprintf(what, sizeof what, "%s%s run%s only on a GPU", o->nimpls ? "--impl " : "", names,
                 strchr(names, ',') ? "" : "s");
        if (gpu_why[0])
            fprintf(stderr, "gpubench: nothing to run: %s, and no GPU was found: %s\n", what,
                    gpu_why);
        else
            fprintf(stderr, "gpubench: nothing to run: %s, and --device chose no GPU\n", what);
        return 2;
    }
    if (pairs[0] && !pairs[1] && !have[0]) {
        fprintf(stderr,
                "gpubench: nothing to run: %s%s run only on the CPU, and --device "
                "chose no CPU\n",
                o->nimpls ? "--impl " : "the chosen implementations, ", cpu_impls);
        return 2;
    }
    if (!pairs[0] && !pairs[1]) {
        fprintf(stderr, "gpubench: nothing to run: no workload of --workload has an "
                        "implementation of --impl (see gpubench list)\n");
        return 2;
    }
    return fail("nothing to run: no implementation of the chosen workloads runs on the "
                "chosen devices%s%s",
                "", "");
}

int plan_build(const struct options *o, const struct device_list *found, const char *gpu_why,
               struct plan *pl) {
    memset(pl, 0, sizeof *pl);
    pl->o = o;
    int rc, cap = 0;
    for (int i = 0; i < o->nworkloads; i++)
        if (!registry_find_workload(o->workloads[i]))
            return fail("--workload: unknown workload '%s' (see gpubench list)%s", o->workloads[i],
                        "");
    for (int i = 0; i < o->nimpls; i++)
        if (!registry_impl_exists(o->impls[i]))
            return fail("--impl: unknown implementation '%s' (see gpubench list)%s", o->impls[i],
                        "");
    for (int i = 0; i < o->nshapes; i++) {
        const struct shape_arg *sa = &o->shapes[i];
        if (!registry_find_workload(sa->workload))
            return fail("--shape: unknown workload '%s' (see gpubench list)%s", sa->workload, "");
        if (!listed(o->workloads, o->nworkloads, sa->workload))
            return fail("--shape: %s is not among --workload%s", sa->workload, "");
    }
    if ((rc = select_devices(o, found, gpu_why, pl)))
        return rc;
    for (int wi = 0; registry_workloads[wi]; wi++) {
        const struct workload *w = registry_workloads[wi];
        if (!listed(o->workloads, o->nworkloads, w->name))
            continue;
        int own = 0;
        for (int i = 0; i < o->nshapes; i++)
            if (strcmp(o->shapes[i].workload, w->name) == 0) {
                own = 1;
                if ((rc = add_shape(pl, &cap, w, o->shapes[i].text, "--shape", PLAN_ALL_KINDS)))
                    return rc;
            }
        if (own && !o->sweep) /* --sweep with -s W:...: the ladder and the shapes given, both */
            continue;
        const char *const *list = o->sweep   ? w->sweep_shapes
                                  : o->quick ? w->quick_shapes
                                             : w->default_shapes;
        char cpu_shape[64], why[256];
        int cpu_own = list == w->default_shapes &&
                      plan_cpu_default(pl, w, cpu_shape, sizeof cpu_shape, why, sizeof why);
        unsigned common = cpu_own ? PLAN_ALL_KINDS & ~PLAN_KIND(DEV_CPU) : PLAN_ALL_KINDS;
        for (int i = 0; list[i] && (plan_kinds(pl) & common); i++)
            if ((rc = add_shape(pl, &cap, w, list[i], "built-in shape", common)))
                return rc;
        if (cpu_own &&
            (rc = add_shape(pl, &cap, w, cpu_shape, "the CPU's default shape", PLAN_KIND(DEV_CPU))))
            return rc;
    }
    if ((rc = add_rows(pl)))
        return rc;
    if (pl->total_rows == 0)
        return nothing_to_run(pl, gpu_why);
    return 0;
}

/* A uniform index in [0, n) from a splitmix64 stream (n is small: the bias is nil). */
static size_t pick(uint64_t *state, size_t n) {
    *state = splitmix64(*state);
    return (size_t)(*state % n);
}

void plan_shuffle(struct plan *pl, uint64_t seed) {
    int n = pl->total_rows, nblocks = 0;
    struct plan_row *out = malloc((size_t)(n ? n : 1) * sizeof *out);
    int *start = malloc((size_t)(n + 1) * sizeof *start);
    if (!out || !start) { /* no memory: keep the table order, which is still a valid run */
        free(out);
        free(start);
        return;
    }
    for (int i = 0; i < n; i++)
        if (i == 0 || pl->rows[i].shape != pl->rows[i - 1].shape)
            start[nblocks++] = i;
    start[nblocks] = n;
    uint64_t st = seed;
    int *order = malloc((size_t)(nblocks ? nblocks : 1) * sizeof *order), k = 0;
    if (!order) {
        free(out);
        free(start);
        return;
    }
    for (int b = 0; b < nblocks; b++)
        order[b] = b;
    for (int b = nblocks - 1; b > 0; b--) { /* Fisher–Yates over the shapes */
        size_t j = pick(&st, (size_t)b + 1);
        int t = order[b];
        order[b] = order[j];
        order[j] = t;
    }
    for (int b = 0; b < nblocks; b++) {
        int first = k;
        for (int i = start[order[b]]; i < start[order[b] + 1]; i++)
            out[k++] = pl->rows[i];
        for (int i = k - 1; i > first; i--) { /* and over the rows of the shape */
            size_t j = (size_t)first + pick(&st, (size_t)(i - first) + 1);
            struct plan_row t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    }
    memcpy(pl->rows, out, (size_t)n * sizeof *out);
    free(out);
    free(start);
    free(order);
}

int plan_wants_gpu(const struct options *o) {
    int any_cuda = 0;
    if (o->ndevices > 0)
        return 0;
    for (int wi = 0; registry_workloads[wi]; wi++) {
        const struct impl *im;
        for (int i = 0; (im = registry_impl(registry_workloads[wi], i)) != NULL; i++) {
            if (im->kind != DEV_CUDA)
                continue;
            any_cuda = 1;
            if (listed(o->workloads, o->nworkloads, registry_workloads[wi]->name) &&
                plan_impl_selected(o, im))
                return 1;
        }
    }
    return !any_cuda && o->nimpls == 0; /* a CPU-only build: its reason is worth saying */
}

int plan_shape_width(const struct plan *pl) {
    int width = 0;
    for (int i = 0; i < pl->nshapes; i++) {
        char text[256];
        shape_format_short(pl->shapes[i].w, &pl->shapes[i].s, text, sizeof text);
        int len = term_cols(text); /* display columns (sinks.c pads by them) */
        width = len > width ? len : width;
    }
    return width;
}

int plan_impl_width(const struct plan *pl) {
    int width = 0;
    for (int i = 0; i < pl->total_rows; i++) {
        int len = term_cols(pl->rows[i].im->name);
        width = len > width ? len : width;
    }
    return width;
}

void plan_free(struct plan *pl) {
    free(pl->shapes);
    free(pl->rows);
    pl->shapes = NULL;
    pl->rows = NULL;
}
