/* outputs.c — a run's files and where its rows go (outputs.h). */
#include "harness/run/outputs.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/inputs.h"

void run_info_make(struct run_info *ri) {
    memset(ri, 0, sizeof *ri);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    strftime(ri->utc, sizeof ri->utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (gethostname(ri->host, sizeof ri->host) != 0)
        snprintf(ri->host, sizeof ri->host, "unknown");
    ri->host[sizeof ri->host - 1] = '\0';
    uint64_t id = splitmix64((uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^
                             ((uint64_t)getpid() << 32));
    snprintf(ri->run_id, sizeof ri->run_id, "%016llx", (unsigned long long)id);
    const char *job = getenv("SLURM_ARRAY_JOB_ID");
    if (!job)
        job = getenv("SLURM_JOB_ID");
    const char *task = getenv("SLURM_ARRAY_TASK_ID");
    snprintf(ri->slurm_job, sizeof ri->slurm_job, "%s", job ? job : "");
    snprintf(ri->slurm_task, sizeof ri->slurm_task, "%s", task ? task : "");
}

/* results/<host>-<UTC timestamp>.csv, creating results/ when it is missing. */
static int made_results_dir;

int run_made_results_dir(void) { return made_results_dir; }

/* results/<host>-<stamp>.csv, or for n > 1 results/<host>-<stamp>-<n>.csv. */
static int default_name(const struct run_info *ri, int n, char *path, size_t len) {
    int rc = run_default_out(ri, path, len);
    size_t l = strlen(path);
    if (!rc && n > 1 && l > 4)
        snprintf(path + l - 4, len - (l - 4), "-%d.csv", n);
    return rc;
}

int run_default_out(const struct run_info *ri, char *path, size_t len) {
    if (mkdir("results", 0777) == 0)
        made_results_dir = 1;
    else if (errno != EEXIST) {
        fprintf(stderr, "gpubench: --out: cannot create results/: %s\n", strerror(errno));
        return 2;
    }
    char stamp[32];
    int j = 0;
    for (const char *p = ri->utc; *p && j < 31; p++)
        if (*p != '-' && *p != ':')
            stamp[j++] = *p;
    stamp[j] = '\0';
    snprintf(path, len, "results/%s-%s.csv", ri->host, stamp);
    return 0;
}

/* Close and delete every file opened so far, and results/ if this run made it: a usage error
 * leaves nothing behind. */
static void discard_outputs(struct run_files *rf) {
    if (rf->have_out)
        result_file_discard(&rf->out);
    if (rf->have_json)
        result_file_discard(&rf->json);
    if (rf->have_samples)
        csv_discard(&rf->samples);
    rf->have_out = rf->have_json = rf->have_samples = 0;
    if (made_results_dir)
        rmdir("results");
}

int run_files_open(const struct options *o, const struct run_info *ri, struct run_files *rf) {
    char err[512];
    memset(rf, 0, sizeof *rf);
    if (!o->no_out) {
        /* A default name is this run's alone: runs started in the same second (one per GPU,
         * in a loop) take the next free one, -2, -3, …, never a file that exists or one that
         * another run is writing (its .partial locked, csv_write.h). */
        int rc = 0;
        for (int n = 1; n <= 99; n++) {
            if (o->out)
                snprintf(rf->out_path, sizeof rf->out_path, "%s", o->out);
            else if (default_name(ri, n, rf->out_path, sizeof rf->out_path))
                return 2;
            if (!o->out && access(rf->out_path, F_OK) == 0)
                continue;
            const struct row_format *fmt = cli_out_is_json(rf->out_path) ? &rows_json : &rows_csv;
            rc = result_file_open(&rf->out, rf->out_path, fmt, ri, err, sizeof err);
            if (rc != CSV_BUSY || o->out)
                break;
        }
        if (rc != 0) {
            fprintf(stderr, "gpubench: --out: %s\n", err);
            discard_outputs(rf);
            return 2;
        }
        rf->have_out = 1;
    }
    if (o->json) {
        if (result_file_open(&rf->json, o->json, &rows_json, ri, err, sizeof err) != 0) {
            fprintf(stderr, "gpubench: --json: %s\n", err);
            discard_outputs(rf);
            return 2;
        }
        rf->have_json = 1;
    }
    if (o->samples) {
        if (csv_open(&rf->samples, o->samples, SAMPLES_HEADER, err, sizeof err) != 0) {
            fprintf(stderr, "gpubench: --samples: %s\n", err);
            discard_outputs(rf);
            return 2;
        }
        rf->have_samples = 1;
    }
    return 0;
}

/* An interrupted run that finished no row: every file left as it was (an earlier run's file
 * is not replaced by a header alone), and said so when `say`. Returns 130. */
static int abandon_outputs(struct run_files *rf, int say) {
    char what[4200];
    struct csv_file *file[] = {rf->have_out ? &rf->out.file : NULL,
                               rf->have_json ? &rf->json.file : NULL,
                               rf->have_samples ? &rf->samples : NULL};
    for (int i = 0; i < 3; i++) {
        if (!file[i])
            continue;
        csv_abandon(file[i], what, sizeof what);
        if (say)
            fprintf(stderr, "gpubench: interrupted before any row finished: %s\n", what);
    }
    return 130;
}

/* PATH's interrupted rows, beside it: dir/k.csv → dir/k.interrupted.csv (then -2, -3, … while
 * that exists). */
static void beside_name(const char *path, char *out, size_t len) {
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
        dot = path + strlen(path); /* no extension */
    for (int n = 1; n < 100; n++) {
        char num[16] = "";
        if (n > 1)
            snprintf(num, sizeof num, "-%d", n);
        snprintf(out, len, "%.*s.interrupted%s%s", (int)(dot - path), path, num, dot);
        if (access(out, F_OK) != 0)
            return;
    }
}

/* An interrupted run keeps a complete file that PATH already holds (an earlier run's): its rows
 * go beside it instead (beside_name), and `kept` says so. */
static void keep_complete(struct csv_file *c, int rc, char *kept, size_t len) {
    kept[0] = '\0';
    if (rc != 130 || c->direct || access(c->path, F_OK) != 0)
        return;
    char to[sizeof c->path];
    beside_name(c->path, to, sizeof to);
    snprintf(kept, len, "; %s left as it was", c->path);
    snprintf(c->path, sizeof c->path, "%s", to);
}

int run_files_commit(struct run_files *rf, int rc, int rows, int say) {
    char err[512], kept[4200];
    if (rc == 130 && rows == 0)
        return abandon_outputs(rf, say);
    const char *opt[] = {"--out", "--json"};
    struct result_file *file[] = {rf->have_out ? &rf->out : NULL,
                                  rf->have_json ? &rf->json : NULL};
    for (int i = 0; i < 2; i++) {
        if (!file[i])
            continue;
        keep_complete(&file[i]->file, rc, kept, sizeof kept);
        if (result_file_commit(file[i], err, sizeof err) != 0) {
            fprintf(stderr, "gpubench: %s: %s\n", opt[i], err);
            rc = rc ? rc : 1;
        } else if (say && !file[i]->file.direct) { /* -o /dev/null: nothing was written */
            int cut = rc == 130;
            fprintf(stderr, "gpubench: wrote %s%s%s%s\n", file[i]->file.path,
                    cut ? " (interrupted: rows finished so far" : "", cut ? kept : "",
                    cut ? ")" : "");
        }
    }
    if (rf->have_samples)
        keep_complete(&rf->samples, rc, kept, sizeof kept);
    if (rf->have_samples && csv_commit(&rf->samples, err, sizeof err) != 0) {
        fprintf(stderr, "gpubench: --samples: %s\n", err);
        rc = rc ? rc : 1;
    }
    return rc;
}


void run_files_lost(const struct run_files *rf, int run_index, char *lost, size_t len) {
    if (rf->have_out || rf->have_json) {
        const char *path = rf->have_out ? rf->out.file.path : rf->json.file.path;
        const char *dot = strrchr(path, '.');
        int n = (int)strlen(path);
        if (run_index >= 0 && dot && strncmp(dot, ".run", 4) == 0)
            n = (int)(dot - path); /* PATH.runI, which the parent gathers into PATH */
        snprintf(lost, len, "the run goes on: its rows go to %.*s", n, path);
    } else
        snprintf(lost, len, "the run goes on (no run file: --no-out)");
}

void run_outputs_row(struct run_outputs *out, const struct run_info *ri, const struct result *r) {
    out->rows++;
    sink_row(out->sink, ri, r);
    for (int i = 0; i < RUN_FILES; i++)
        if (out->files[i])
            result_file_row(out->files[i], ri, r);
    if (out->samples) {
        csv_write_samples(out->samples->f, ri, r);
        csv_flush(out->samples);
    }
}
