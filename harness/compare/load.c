/* load.c — read the files of `gpubench compare`, find the devices in them and attach
 * each row's samples. Every check happens here, before anything is printed. */
#include <stdlib.h>
#include <string.h>

#include "harness/compare/internal.h"
#include "harness/core/device.h"

int cmp_is_cpu(const char *device) {
    return strcmp(device, "cpu") == 0;
}

const char *cmp_basename(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int cmp_series_of(const struct cmp_input *in, int file, const struct run_row *r) {
    for (int i = 0; i < in->nseries; i++) {
        const struct cmp_series *s = &in->series[i];
        if (s->file == file && !strcmp(s->run_id, r->run_id) && !strcmp(s->device, r->device))
            return i;
    }
    return -1;
}

static void base_label(struct cmp_series *s) {
    const struct run_row *r = s->first;
    const char *name = r->device_name[0] ? r->device_name : r->device;
    if (s->is_cpu)
        snprintf(s->label, sizeof s->label, "%s (cpu)", name);
    else if (r->cc[0])
        snprintf(s->label, sizeof s->label, "%s (cc %s)", name, r->cc);
    else
        snprintf(s->label, sizeof s->label, "%s (%s)", name, r->device);
}

/* The first GPU of series s's run (another series of the same file and run), or NULL. */
static const struct cmp_series *run_gpu(const struct cmp_input *in, const struct cmp_series *s) {
    for (int i = 0; i < in->nseries; i++) {
        const struct cmp_series *g = &in->series[i];
        if (!g->is_cpu && g->file == s->file && !strcmp(g->run_id, s->run_id))
            return g;
    }
    return NULL;
}

/* What pass `pass` of unique_labels adds, for a and b: 0 the file, 1 the host, 2 a CPU's run's
 * card, 3 the run id. Does it tell them apart (is it worth adding)? */
static int tells_apart(const struct cmp_input *in, int pass, const struct cmp_series *a,
                       const struct cmp_series *b) {
    const struct cmp_series *ga = a->is_cpu ? run_gpu(in, a) : NULL;
    const struct cmp_series *gb = b->is_cpu ? run_gpu(in, b) : NULL;
    switch (pass) {
    case 0: return a->file != b->file;
    case 1: return strcmp(a->first->host, b->first->host) != 0;
    case 2:
        return ga && gb && (strcmp(ga->device, gb->device) ||
                            strcmp(ga->first->device_name, gb->first->device_name));
    default: return 1;
    }
}

/* Labels name columns, so they must differ: the same card in two files gets the file name; in
 * one file (a merged fleet's) the machine the run came from (its host), then for a CPU the card
 * its run measured beside it (one node's tasks of a per-GPU fleet share the host), and last the
 * run id. */
static void unique_labels(struct cmp_input *in, const struct csv_table *runs) {
    for (int pass = 0; pass < 4; pass++) {
        unsigned char *dup = calloc((size_t)in->nseries + 1, 1);
        if (!dup)
            return; /* labels stay ambiguous but correct */
        for (int i = 0; i < in->nseries; i++)
            for (int j = 0; j < in->nseries; j++)
                if (i != j && !strcmp(in->series[i].label, in->series[j].label) &&
                    tells_apart(in, pass, &in->series[i], &in->series[j]))
                    dup[i] = 1;
        for (int i = 0; i < in->nseries; i++) {
            struct cmp_series *s = &in->series[i];
            if (!dup[i])
                continue;
            size_t n = strlen(s->label);
            const struct cmp_series *g = s->is_cpu ? run_gpu(in, s) : NULL;
            if (pass == 0)
                snprintf(s->label + n, sizeof s->label - n, " [%s]",
                         cmp_basename(runs[s->file].name));
            else if (pass == 1 && s->first->host[0])
                snprintf(s->label + n, sizeof s->label - n, " [host %s]", s->first->host);
            else if (pass == 2 && g)
                snprintf(s->label + n, sizeof s->label - n, " [beside %s %s]", g->device,
                         g->first->device_name[0] ? g->first->device_name : "");
            else if (pass == 3)
                snprintf(s->label + n, sizeof s->label - n, " [run %s]", s->run_id);
        }
        free(dup);
    }
}

struct sref {
    const struct sample_row *s;
    const char *file;
};

static int sref_cmp(const void *pa, const void *pb) {
    const struct sample_row *a = ((const struct sref *)pa)->s, *b = ((const struct sref *)pb)->s;
    int c;
    if ((c = strcmp(a->run_id, b->run_id)))
        return c;
    if ((c = strcmp(a->device, b->device)))
        return c;
    if ((c = strcmp(a->workload, b->workload)))
        return c;
    if ((c = strcmp(a->impl, b->impl)))
        return c;
    if ((c = strcmp(a->shape, b->shape)))
        return c;
    if ((c = strcmp(a->dtype, b->dtype)))
        return c;
    return (a->rep > b->rep) - (a->rep < b->rep);
}

static int group_key_cmp(const struct cmp_group *a, const char *run_id, const char *device,
                         const char *workload, const char *impl, const char *shape,
                         const char *dtype) {
    int c;
    if ((c = strcmp(a->run_id, run_id)))
        return c;
    if ((c = strcmp(a->device, device)))
        return c;
    if ((c = strcmp(a->workload, workload)))
        return c;
    if ((c = strcmp(a->impl, impl)))
        return c;
    if ((c = strcmp(a->shape, shape)))
        return c;
    return strcmp(a->dtype, dtype);
}

static long find_group(const struct cmp_input *in, const struct run_row *r) {
    size_t lo = 0, hi = in->ngroups;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c =
            group_key_cmp(&in->groups[mid], r->run_id, r->device, r->workload, r->impl, r->shape,
                          r->dtype);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

const struct cmp_group *cmp_row_samples(const struct cmp_input *in, const struct run_row *r) {
    long g = find_group(in, r);
    return g < 0 ? NULL : &in->groups[g];
}

/* The error for samples that belong to no row of the run CSVs: another run's samples, or a row
 * the run does not have; `first` is the group's first sample, for its file and line. */
static void unmatched_error(const struct cmp_input *in, const struct cmp_group *g,
                            const struct sref *first, char *err, size_t errlen) {
    int known_run = 0;
    for (int f = 0; f < in->nfiles && !known_run; f++)
        for (size_t r = 0; r < in->runs[f].nrows && !known_run; r++)
            known_run = !strcmp(in->runs[f].run[r].run_id, g->run_id);
    if (!known_run)
        snprintf(err, errlen,
                 "%s:%d: column run_id: run '%s' is in none of the run CSVs "
                 "given (samples must come with the run CSV they belong to)",
                 first->file, first->s->line, g->run_id);
    else
        snprintf(err, errlen,
                 "%s:%d: column shape: run %s has no row for device %s, "
                 "workload %s, impl %s, shape %s%s%s",
                 first->file, first->s->line, g->run_id, g->device, g->workload, g->impl,
                 g->shape, strcmp(g->dtype, "float32") ? ", dtype " : "",
                 strcmp(g->dtype, "float32") ? g->dtype : "");
}

/* Group every sample by its row, refuse a repetition given twice, and refuse samples that
 * belong to no row of the run CSVs (a samples file of another run is a mistake worth naming). */
static int build_groups(struct cmp_input *in, char *err, size_t errlen) {
    size_t total = 0;
    for (int f = 0; f < in->nsamples; f++)
        total += in->samples[f].nrows;
    if (total == 0)
        return 0;
    struct sref *refs = malloc(total * sizeof *refs);
    unsigned char *used = NULL;
    int rc = -1;
    in->ms_store = malloc(total * sizeof *in->ms_store);
    in->groups = malloc(total * sizeof *in->groups);
    if (!refs || !in->ms_store || !in->groups) {
        snprintf(err, errlen, "compare: out of memory");
        goto out;
    }
    size_t k = 0;
    for (int f = 0; f < in->nsamples; f++)
        for (size_t r = 0; r < in->samples[f].nrows; r++)
            refs[k++] = (struct sref){&in->samples[f].samples[r], in->samples[f].name};
    qsort(refs, total, sizeof *refs, sref_cmp);
    for (size_t i = 0; i < total; i++) {
        const struct sample_row *s = refs[i].s;
        if (i > 0 && sref_cmp(&refs[i - 1], &refs[i]) == 0) {
            /* the same repetition of the same row twice: name both places */
            const struct sref *a = &refs[i - 1], *b = &refs[i];
            snprintf(err, errlen, "%s:%d: column rep: repetition %ld of this row is also at %s:%d",
                     b->file, b->s->line, s->rep, a->file, a->s->line);
            goto out;
        }
        struct cmp_group *g = in->ngroups ? &in->groups[in->ngroups - 1] : NULL;
        if (!g ||
            group_key_cmp(g, s->run_id, s->device, s->workload, s->impl, s->shape, s->dtype)) {
            g = &in->groups[in->ngroups++];
            *g = (struct cmp_group){s->run_id, s->device,        s->workload, s->impl,
                                    s->shape,  s->dtype, in->ms_store + i, 0};
        }
        g->ms[g->n++] = s->ms;
    }
    used = calloc(in->ngroups, 1);
    if (!used) {
        snprintf(err, errlen, "compare: out of memory");
        goto out;
    }
    for (int f = 0; f < in->nfiles; f++)
        for (size_t r = 0; r < in->runs[f].nrows; r++) {
            long g = find_group(in, &in->runs[f].run[r]);
            if (g >= 0)
                used[g] = 1;
        }
    for (size_t g = 0; g < in->ngroups; g++) {
        if (used[g])
            continue;
        /* find the group's first sample to name its file and line */
        const struct sref *first = NULL;
        for (size_t i = 0; i < total && !first; i++)
            if (!group_key_cmp(&in->groups[g], refs[i].s->run_id, refs[i].s->device,
                               refs[i].s->workload, refs[i].s->impl, refs[i].s->shape,
                               refs[i].s->dtype))
                first = &refs[i];
        unmatched_error(in, &in->groups[g], first, err, errlen);
        goto out;
    }
    rc = 0;
out:
    free(refs);
    free(used);
    return rc;
}

/* Rows of a simulated device (gpubench-sim) are CPU-emulation times: a run that has them is
 * never compared with a run that has none. Runs are told apart by run_id (a CPU row of a
 * simulated run belongs to it); -1 with the first such pair named in err. */
static int refuse_simulated_mix(const struct cmp_input *in, char *err, size_t errlen) {
    const struct run_row **sim, *real = NULL; /* one row of each simulated run */
    size_t total = 0, nsim = 0;
    int sim_file = 0, real_file = 0, rc = 0;
    for (int f = 0; f < in->nfiles; f++)
        total += in->runs[f].nrows;
    if (!(sim = malloc((total ? total : 1) * sizeof *sim))) {
        snprintf(err, errlen, "compare: out of memory");
        return -1;
    }
    for (int f = 0; f < in->nfiles; f++)
        for (size_t r = 0; r < in->runs[f].nrows; r++) {
            const struct run_row *row = &in->runs[f].run[r];
            int known = 0;
            if (!device_is_simulated(row->device_name))
                continue;
            for (size_t i = 0; i < nsim && !known; i++)
                known = !strcmp(sim[i]->run_id, row->run_id);
            if (!known) {
                if (nsim == 0)
                    sim_file = f;
                sim[nsim++] = row;
            }
        }
    for (int f = 0; f < in->nfiles && nsim && !real; f++)
        for (size_t r = 0; r < in->runs[f].nrows && !real; r++) {
            const struct run_row *row = &in->runs[f].run[r];
            int simulated = device_is_simulated(row->device_name);
            for (size_t i = 0; i < nsim && !simulated; i++)
                simulated = !strcmp(sim[i]->run_id, row->run_id);
            if (!simulated) {
                real = row;
                real_file = f;
            }
        }
    if (real) {
        snprintf(err, errlen,
                 "compare: %s:%d: run %s has rows of a simulated device (%s: CPU-emulation times, "
                 "gpubench-sim) and %s:%d: run %s has none; simulated and real runs are never "
                 "compared",
                 in->runs[sim_file].name, sim[0]->line, sim[0]->run_id, sim[0]->device_name,
                 in->runs[real_file].name, real->line, real->run_id);
        rc = -1;
    }
    free(sim);
    return rc;
}

/* A median of 0 ms is no time (a ratio against it is infinite, its logarithm undefined): refused
 * as a negative one is (csv_read.c), naming file, line and column. Returns 0 or -1 with err. */
static int zero_median(const struct csv_table *t, char *err, size_t errlen) {
    for (size_t r = 0; r < t->nrows; r++)
        if (t->run[r].median_ms == 0) {
            snprintf(err, errlen, "%s:%d: column median_ms: 0 is not a time (a median must be > 0)",
                     t->name, t->run[r].line);
            return -1;
        }
    return 0;
}

int cmp_load(struct cmp_input *in, char *const *files, int nfiles, char *const *samples,
             int nsamples, char *err, size_t errlen) {
    memset(in, 0, sizeof *in);
    in->runs = calloc((size_t)nfiles + 1, sizeof *in->runs);
    in->samples = calloc((size_t)nsamples + 1, sizeof *in->samples);
    if (!in->runs || !in->samples) {
        snprintf(err, errlen, "compare: out of memory");
        return -1;
    }
    /* the same file twice is a slip of the shell (and would join rows with themselves) */
    for (int i = 0; i < nfiles + nsamples; i++)
        for (int j = 0; j < i; j++) {
            const char *a = i < nfiles ? files[i] : samples[i - nfiles];
            const char *b = j < nfiles ? files[j] : samples[j - nfiles];
            if (!strcmp(a, b)) {
                snprintf(err, errlen, "compare: %s: given twice", a);
                return -1;
            }
        }
    for (int f = 0; f < nfiles; f++) {
        if (csv_read_file(files[f], CSV_RUN, &in->runs[f], err, errlen))
            return -1;
        in->nfiles++;
        if (in->runs[f].nrows == 0) {
            snprintf(err, errlen, "%s:2: column schema: no result rows (only a header)", files[f]);
            return -1;
        }
        if (zero_median(&in->runs[f], err, errlen))
            return -1;
    }
    for (int f = 0; f < nsamples; f++) {
        if (csv_read_file(samples[f], CSV_SAMPLES, &in->samples[f], err, errlen))
            return -1;
        in->nsamples++;
    }
    if (refuse_simulated_mix(in, err, errlen))
        return -1;
    /* series: each (file, run, device) in order of first appearance */
    size_t maxs = 0;
    for (int f = 0; f < nfiles; f++)
        maxs += in->runs[f].nrows;
    in->series = calloc(maxs, sizeof *in->series);
    if (!in->series) {
        snprintf(err, errlen, "compare: out of memory");
        return -1;
    }
    for (int f = 0; f < nfiles; f++)
        for (size_t r = 0; r < in->runs[f].nrows; r++) {
            const struct run_row *row = &in->runs[f].run[r];
            if (cmp_series_of(in, f, row) >= 0)
                continue;
            struct cmp_series *s = &in->series[in->nseries++];
            s->file = f;
            s->run_id = row->run_id;
            s->device = row->device;
            s->first = row;
            s->is_cpu = cmp_is_cpu(row->device);
            base_label(s);
        }
    unique_labels(in, in->runs);
    return build_groups(in, err, errlen);
}

void cmp_free(struct cmp_input *in) {
    for (int f = 0; f < in->nfiles; f++)
        csv_free(&in->runs[f]);
    for (int f = 0; f < in->nsamples; f++)
        csv_free(&in->samples[f]);
    free(in->runs);
    free(in->samples);
    free(in->groups);
    free(in->ms_store);
    free(in->series);
    memset(in, 0, sizeof *in);
}

/* The value of key in a hardware list "k=v;k=v" into buf ("" when the list lacks it). */
const char *cmp_hw_get(const char *hw, const char *key, char *buf, size_t len) {
    size_t kl = strlen(key);
    buf[0] = '\0';
    for (const char *p = hw; p && *p; p = strchr(p, ';'), p = p ? p + 1 : NULL)
        if (!strncmp(p, key, kl) && p[kl] == '=') {
            size_t n = strcspn(p + kl + 1, ";");
            snprintf(buf, len, "%.*s", (int)n, p + kl + 1);
            break;
        }
    return buf;
}
