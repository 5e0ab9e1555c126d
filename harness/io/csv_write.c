/* csv_write.c — the one CSV writer: RFC 4180 rows of results and samples; atomic commit. */
#include "harness/io/csv_write.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/io/marks.h"
#include "harness/io/tel_cols.h"

/* Fixed columns (results/README.md) in order, then extra columns: timings that came later, the
 * run's index among those of one `--runs N` invocation, Slurm provenance, the machine's
 * hardware (what tells two machines apart, harness/run/hardware.h), the telemetry columns
 * (tel_cols.h), cpu_wait_pct (a shared CPU, harness/telemetry/cpu_wait.h), then `marks`: the
 * facts that change what the row's figure means (marks.h), last (the fleet test finds the
 * Slurm pair by name). */
const char CSV_HEADER[] =
    "schema,run_id,utc,host,device,device_name,cc,driver,runtime,blas_lib,dnn_lib,threads,"
    "workload,impl,dtype,shape,flops,bytes,reps,median_ms,min_ms,mean_ms,stddev_ms,ci95_lo_ms,"
    "ci95_hi_ms,e2e_median_ms,gflops,gbps,peak_pct,max_rel_err,status,note,"
    "batch_ms,run,slurm_job_id,slurm_array_task_id,hardware," TEL_HEADER ",cpu_wait_pct,marks";
/* The seven fixed columns, the row's tier (a run has an f32 and an f64 row of the same shape;
 * files written before tiers have no dtype column and are float32), then the GPU's clock and
 * power as the telemetry sampler last read them when the repetition ended (empty where unknown:
 * CPU rows, no NVML): the trace `scripts/plot trace` draws. */
const char SAMPLES_HEADER[] = "run_id,device,workload,impl,shape,rep,ms,dtype,sm_clock_mhz,power_w";

int csv_open(struct csv_file *c, const char *path, const char *header, char *err, size_t errlen) {
    memset(c, 0, sizeof *c);
    if (strlen(path) >= sizeof c->path) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* /dev/null, /dev/stdout, a pipe: written as they are (no .partial beside a device). */
        if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
            snprintf(err, errlen, "%s: cannot write: not a regular file", path);
            return -1;
        }
        c->direct = 1;
    }
    snprintf(c->path, sizeof c->path, "%s", path);
    snprintf(c->partial, sizeof c->partial, c->direct ? "%s" : "%s.partial", path);
    if (c->direct) {
        c->f = fopen(c->partial, "w");
    } else {
        /* Locked while this run writes it: a second run given the same file (runs started in
         * the same second share a default name) finds it locked instead of truncating another's
         * rows; the lock ends with this process, so a killed run's .partial is taken over. */
        int fd = open(c->partial, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int busy = errno == EWOULDBLOCK;
            snprintf(err, errlen, "%s: %s", c->partial,
                     busy ? "another gpubench run is writing it now" : strerror(errno));
            close(fd);
            return busy ? CSV_BUSY : -1;
        }
        if (fd >= 0 && ftruncate(fd, 0) == 0)
            c->f = fdopen(fd, "w");
        else if (fd >= 0)
            close(fd);
    }
    if (!c->f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    if (header)
        fprintf(c->f, "%s\n", header);
    fflush(c->f);
    return 0;
}

void csv_field(FILE *f, const char *s) {
    if (!s)
        s = "";
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* A number, or an empty field when it does not apply (negative sentinel). */
static void num(FILE *f, const char *fmt, double v, int ok) {
    fputc(',', f);
    if (ok)
        fprintf(f, fmt, v);
}

void csv_write_result(FILE *f, const struct run_info *ri, const struct result *r) {
    const struct device *d = r->dev;
    int timed = r->st.n > 0;
    csv_field(f, CSV_SCHEMA);
    const char *text[] = {ri->run_id, ri->utc,     ri->host,     d->id,      d->name, d->cc,
                          d->driver,  d->runtime,  d->blas_lib,  d->dnn_lib};
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
        fputc(',', f);
        csv_field(f, text[i]);
    }
    num(f, "%.0f", d->threads, d->kind == DEV_CPU);
    const char *what[] = {r->w->name, r->im->name, dtype_name(r->dtype), r->shape};
    for (size_t i = 0; i < 4; i++) {
        fputc(',', f);
        csv_field(f, what[i]);
    }
    num(f, "%.0f", r->flops, 1);
    num(f, "%.0f", r->bytes, 1);
    num(f, "%.0f", (double)r->st.n, 1);
    num(f, "%.6g", r->st.median, timed);
    num(f, "%.6g", r->st.min, timed);
    num(f, "%.6g", r->st.mean, timed);
    num(f, "%.6g", r->st.stddev, timed);
    num(f, "%.6g", r->st.ci_lo, timed && isfinite(r->st.ci_lo)); /* none from too few reps */
    num(f, "%.6g", r->st.ci_hi, timed && isfinite(r->st.ci_hi));
    num(f, "%.6g", r->e2e_median_ms, timed && r->e2e_median_ms >= 0);
    num(f, "%.6g", r->gflops, timed && r->gflops >= 0);
    num(f, "%.6g", r->gbps, timed && r->gbps >= 0);
    num(f, "%.4g", r->peak_pct, timed && r->peak_pct >= 0);
    num(f, "%.3g", r->max_rel_err, r->max_rel_err >= 0);
    const char *tail[] = {status_name(r->status), r->note};
    for (size_t i = 0; i < 2; i++) {
        fputc(',', f);
        csv_field(f, tail[i]);
    }
    num(f, "%.6g", r->batch_ms, timed && r->batch_ms >= 0);
    fprintf(f, ",%d", ri->run);
    const char *slurm[] = {ri->slurm_job, ri->slurm_task, d->hardware};
    for (size_t i = 0; i < 3; i++) {
        fputc(',', f);
        csv_field(f, slurm[i]);
    }
    struct tel_cell tc[TEL_NCOLS];
    tel_cells(r, tc);
    for (int i = 0; i < TEL_NCOLS; i++) {
        if (tc[i].is_text) {
            fputc(',', f);
            csv_field(f, tc[i].text);
        } else {
            num(f, tc[i].fmt, tc[i].num, isfinite(tc[i].num));
        }
    }
    num(f, "%.3g", r->cpu_wait_pct, timed && r->cpu_wait_pct >= 0);
    char marks[96];
    fputc(',', f);
    csv_field(f, marks_words(marks_of(r), "+", marks, sizeof marks));
    fputc('\n', f);
}

void csv_write_samples(FILE *f, const struct run_info *ri, const struct result *r) {
    for (size_t i = 0; i < r->st.n; i++) {
        const char *key[] = {ri->run_id, r->dev->id, r->w->name, r->im->name, r->shape};
        for (size_t k = 0; k < 5; k++) {
            if (k)
                fputc(',', f);
            csv_field(f, key[k]);
        }
        fprintf(f, ",%zu,%.6g,", i, r->samples[i]);
        csv_field(f, dtype_name(r->dtype));
        float mhz = r->trace_mhz ? r->trace_mhz[i] : 0, w = r->trace_w ? r->trace_w[i] : 0;
        num(f, "%.0f", mhz, mhz > 0);
        num(f, "%.4g", w, w > 0);
        fputc('\n', f);
    }
}

void csv_flush(struct csv_file *c) {
    if (c->f && fflush(c->f) != 0 && !c->write_errno)
        c->write_errno = errno ? errno : EIO;
}

int csv_commit(struct csv_file *c, char *err, size_t errlen) {
    if (!c->f)
        return 0;
    int e = c->write_errno;
    if (fflush(c->f) != 0 || ferror(c->f) || (!c->direct && fsync(fileno(c->f)) != 0))
        e = e ? e : (errno ? errno : EIO);
    if (fclose(c->f) != 0)
        e = e ? e : (errno ? errno : EIO);
    c->f = NULL;
    if (e) {
        if (c->direct)
            snprintf(err, errlen, "%s: write failed: %s", c->path, strerror(e));
        else if (unlink(c->partial) != 0)
            snprintf(err, errlen, "%s: write failed: %s (and %s could not be removed: %s)",
                     c->path, strerror(e), c->partial, strerror(errno));
        else
            snprintf(err, errlen, "%s: write failed: %s (%s removed)", c->path, strerror(e),
                     c->partial);
        return -1;
    }
    if (!c->direct && rename(c->partial, c->path) != 0) {
        snprintf(err, errlen, "%s: cannot rename to %s: %s", c->partial, c->path,
                 strerror(errno));
        return -1;
    }
    return 0;
}

void csv_discard(struct csv_file *c) {
    if (c->f) {
        fclose(c->f);
        c->f = NULL;
        if (!c->direct)
            unlink(c->partial);
    }
}

void csv_abandon(struct csv_file *c, char *what, size_t len) {
    csv_discard(c);
    if (c->direct || access(c->path, F_OK) == 0)
        snprintf(what, len, "%s left as it was", c->path);
    else
        snprintf(what, len, "nothing written to %s", c->path);
}
