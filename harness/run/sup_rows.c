/* sup_rows.c — the supervisor's record of its run (sup_rows.h). */
#include "harness/run/sup_rows.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/registry.h"
#include "harness/core/shape.h"
#include "harness/run/blas_core.h"
#include "harness/run/plan.h"
#include "harness/run/runner.h"

void sup_init(struct sup *s, int argc, char **argv, const struct options *o, int run_index) {
    memset(s, 0, sizeof *s);
    s->o = o;
    s->argc = argc;
    s->argv = argv;
    s->run_index = run_index;
    run_info_make(&s->ri);
    s->ri.run = run_index >= 0 ? run_index : 0;
}

int sup_device(struct sup *s, const struct device *d) {
    if (!s->started) {
        if (s->ndevs == DEVICE_MAX)
            return -1;
        s->devs[s->ndevs] = *d;
        s->devp[s->ndevs] = &s->devs[s->ndevs];
        return s->ndevs++;
    }
    for (int i = 0; i < s->ndevs; i++)
        if (strcmp(s->devs[i].id, d->id) == 0)
            return i;
    return -1;
}

int sup_row_of(struct sup *s, const char *key) {
    if (!key)
        return -1;
    if (!s->started) {
        if (s->nrows == s->cap_rows) {
            int cap = s->cap_rows ? 2 * s->cap_rows : 256;
            char **k = realloc(s->keys, (size_t)cap * sizeof *k);
            if (!k)
                return -1;
            s->keys = k;
            s->cap_rows = cap;
        }
        if (!(s->keys[s->nrows] = strdup(key)))
            return -1;
        return s->nrows++;
    }
    for (int i = 0; i < s->nrows; i++)
        if (strcmp(s->keys[i], key) == 0)
            return i;
    return -1;
}

/* A row of the run that never began, made from its key "dev|workload|impl|shape|dtype". */
static int row_from_key(struct sup *s, const char *key, struct result *r) {
    char buf[512], err[160];
    char *f[5], *save = NULL;
    int n = 0;
    memset(r, 0, sizeof *r);
    snprintf(buf, sizeof buf, "%s", key);
    for (char *t = strtok_r(buf, "|", &save); t && n < 5; t = strtok_r(NULL, "|", &save))
        f[n++] = t;
    if (n != 5)
        return -1;
    for (int i = 0; i < s->ndevs && !r->dev; i++)
        if (strcmp(s->devs[i].id, f[0]) == 0)
            r->dev = &s->devs[i];
    r->w = registry_find_workload(f[1]);
    r->im = r->w ? registry_find_impl(r->w, f[2]) : NULL;
    struct shape sh;
    if (!r->dev || !r->im || dtype_parse(f[4], &r->dtype) != 0 ||
        shape_parse(r->w, f[3], &sh, err, sizeof err) != 0)
        return -1;
    shape_format(r->w, &sh, r->shape, sizeof r->shape);
    shape_format_short(r->w, &sh, r->shape_short, sizeof r->shape_short);
    r->flops = r->w->flops(&sh);
    return 0;
}

/* A row that has no figures: failed before or while it was measured. */
static void write_failed(struct sup *s, int row, struct result *r, enum status st,
                         const char *note) {
    memset(&r->st, 0, sizeof r->st);
    memset(&r->tel, 0, sizeof r->tel);
    r->status = st;
    r->max_rel_err = -1;
    r->e2e_median_ms = -1;
    r->batch_ms = -1;
    r->gflops = r->gbps = r->peak_pct = -1;
    r->cpu_wait_pct = -1;
    r->cpu_others = -1;
    r->no_peak = NULL;
    r->samples = NULL;
    r->trace_mhz = r->trace_w = NULL;
    snprintf(r->note, sizeof r->note, "%s", note);
    sup_write(s, row, r);
}

int sup_hello(struct sup *s, const char *gpu_why, int shape_width, int impl_width,
              const int *wmap, int nrows, unsigned char *want) {
    if (!s->started) {
        if (!(s->done = calloc((size_t)s->nrows + 1, 1))) {
            fprintf(stderr, "gpubench: out of memory\n");
            s->fatal = 1;
            return -1;
        }
        s->ri.devs = s->devp;
        s->ri.ndevs = s->ndevs;
        if ((s->fatal = run_files_open(s->o, &s->ri, &s->rf)) != 0)
            return -1;
        /* said once, by the first of several runs, once the options and outputs are good (a
         * usage error stays one line): a new choice of OpenBLAS's core (blas_core.h) */
        blas_core_announce(s->run_index <= 0);
        /* said once: by the first of several runs, and only when the run would want GPU rows */
        if (gpu_why[0] && s->run_index <= 0 && plan_wants_gpu(s->o))
            fprintf(stderr, "gpubench: no GPU rows: %s\n", gpu_why);
        /* stdout gone (a closed pipe, a full disk, a terminal hung up): measuring goes on, for
         * the run's files; the exit code says stdout failed (harness/main.c) */
        run_files_lost(&s->rf, s->run_index, s->lost, sizeof s->lost);
        sink_begin(&s->sink, s->o->format, shape_width, impl_width, &s->ri, s->lost);
        s->outs = (struct run_outputs){
            {s->rf.have_out ? &s->rf.out : NULL, s->rf.have_json ? &s->rf.json : NULL},
            s->rf.have_samples ? &s->rf.samples : NULL,
            &s->sink,
            0};
        s->started = 1;
    }
    unsigned char *planned = calloc((size_t)s->nrows + 1, 1);
    if (!planned) {
        s->fatal = 1;
        return -1;
    }
    for (int i = 0; i < nrows; i++) {
        want[i] = wmap[i] >= 0 && !s->done[wmap[i]];
        if (wmap[i] >= 0)
            planned[wmap[i]] = 1;
    }
    /* a fresh worker without some of the run's rows: their device is gone */
    for (int i = 0; i < s->nrows; i++) {
        struct result r;
        char note[1024];
        if (planned[i] || s->done[i] || row_from_key(s, s->keys[i], &r) != 0)
            continue;
        snprintf(note, sizeof note,
                 "not run: a fresh worker, started after %s, did not find %s%s%s (the device is "
                 "gone: fallen off the bus, or its driver reset?)",
                 s->last_fault[0] ? s->last_fault : "a fault", r.dev->id,
                 gpu_why[0] ? ": " : "", gpu_why);
        write_failed(s, i, &r, ST_ERROR, note);
    }
    free(planned);
    return 0;
}

void sup_progress(struct sup *s, const struct result *r) {
    char what[400];
    snprintf(what, sizeof what, "%s/%s on %s, %s %s", r->w->name, r->im->name, r->dev->id,
             r->shape_short, dtype_flag(r->dtype));
    sink_progress(&s->sink, s->ndone + 1, s->nrows, what);
}

void sup_write(struct sup *s, int row, struct result *r) {
    if (row < 0 || row >= s->nrows || s->done[row])
        return;
    s->done[row] = 1;
    s->ndone++;
    /* unsupported is a fact about the device; every other failure fails the run */
    if (r->status != ST_OK && r->status != ST_UNSUPPORTED)
        s->rc = 1;
    run_outputs_row(&s->outs, &s->ri, r);
}

const char *sup_signal_name(int sig) {
    static char buf[32];
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    default: snprintf(buf, sizeof buf, "signal %d", sig); return buf;
    }
}

const char *sup_ended_how(int status, int timed_out, const char *crash, double seconds) {
    static char buf[400];
    if (timed_out)
        snprintf(buf, sizeof buf, "it did not answer within %g s", seconds);
    else if (crash && crash[0])
        snprintf(buf, sizeof buf, "it was killed by %s", crash);
    else if (WIFSIGNALED(status))
        snprintf(buf, sizeof buf, "it was killed by %s%s", sup_signal_name(WTERMSIG(status)),
                 WTERMSIG(status) == SIGKILL ? " (from outside: the kernel's OOM killer?)" : "");
    else if (WIFEXITED(status))
        snprintf(buf, sizeof buf, "it exited with %d", WEXITSTATUS(status));
    else
        snprintf(buf, sizeof buf, "it ended");
    return buf;
}

void sup_fault(struct sup *s, struct result *r, int row, int timed_out, int status, int stage,
               double stage_s, const char *note, const char *crash) {
    char msg[1024], what[200];
    const char *st = stage >= 0 ? row_stage_name((enum row_stage)stage) : "activation";
    snprintf(what, sizeof what, "%s/%s %s on %s", r->w->name, r->im->name, dtype_flag(r->dtype),
             r->dev->id);
    int n;
    if (timed_out)
        n = snprintf(msg, sizeof msg,
                     "%s did not finish its %s within %.3g s (that stage's deadline, "
                     "--row-timeout %g s and the row's limits); its worker was killed and the run "
                     "went on in a fresh one",
                     what, st, stage_s, s->o->row_timeout);
    else
        n = snprintf(msg, sizeof msg,
                     "the worker measuring %s died in its %s: %s; the run went on in a "
                     "fresh worker",
                     what, st, sup_ended_how(status, 0, crash, 0));
    if (note && note[0] && n > 0 && (size_t)n < sizeof msg)
        snprintf(msg + n, sizeof msg - (size_t)n, "; before it: %s", note);
    snprintf(s->last_fault, sizeof s->last_fault, "%s %s %s", what,
             timed_out ? "timed out in its" : "died in its", st);
    write_failed(s, row, r, timed_out ? ST_TIMEOUT : ST_ERROR, msg);
}

int sup_not_run(struct sup *s, const char *why) {
    for (int i = 0; s->started && i < s->nrows; i++) {
        struct result r;
        char note[1024];
        if (s->done[i] || row_from_key(s, s->keys[i], &r) != 0)
            continue;
        snprintf(note, sizeof note, "not run: %s%s%s", why, s->last_fault[0] ? ", after " : "",
                 s->last_fault);
        write_failed(s, i, &r, ST_ERROR, note);
    }
    return 1;
}

int sup_rows_left(const struct sup *s) { return s->ndone < s->nrows; }

int sup_first_failed(struct sup *s, int status, int timed_out) {
    if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 2)
        return 2; /* a usage error, its line printed by the worker */
    fprintf(stderr, "gpubench: the run's worker ended before it had found the devices: %s\n",
            sup_ended_how(status, timed_out, NULL, s->o->row_timeout));
    return 1;
}

int sup_finish(struct sup *s, int rc) {
    if (s->fatal)
        rc = s->fatal;
    else if (rc != 130 && s->rc > rc)
        rc = s->rc;
    if (s->started) {
        sink_end(&s->sink);
        if (rc != 2)
            rc = run_files_commit(&s->rf, rc, s->outs.rows, s->run_index < 0);
    }
    for (int i = 0; i < s->nrows; i++)
        free(s->keys[i]);
    free(s->keys);
    free(s->done);
    free(s->samples);
    free(s->traces);
    return rc;
}
