/* run_cmd.c — the `run` command's outer steps (discover devices, plan, open the outputs, run,
 * commit) and `list`. */
#include "harness/run/run_cmd.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/inputs.h"
#include "harness/core/interrupt.h"
#include "harness/io/csv_write.h"
#include "harness/io/rows.h"
#include "harness/run/backend.h"
#include "harness/run/blas_core.h"
#include "harness/run/cli.h"
#include "harness/run/list.h"
#include "harness/run/plan.h"
#include "harness/run/runner.h"
#include "harness/run/runs.h"
#include "harness/run/topology.h"

/* Ctrl-C, SIGTERM (Slurm's time limit, scancel) and a hang-up (the terminal or the SSH session
 * gone): stop within a second or two, whatever the stage (harness/core/interrupt.h), and commit
 * the rows finished so far; exit 130. */
static void on_stop(int sig) {
    gb_interrupted = 1;
    signal(sig, SIG_DFL); /* a second Ctrl-C stops at once */
}

/* Installed before anything is measured, so that a signal at any stage, discovery included,
 * ends in a committed file. A hang-up that was ignored when we started (nohup) stays ignored:
 * that run is meant to outlive its terminal. */
static void catch_stop_signals(void) {
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    if (signal(SIGHUP, on_stop) == SIG_IGN)
        signal(SIGHUP, SIG_IGN);
}

/* Load the topology, start the CPU threads, and find every device. */
static void discover(int threads, struct device_list *devs, char *gpu_why, size_t whylen) {
    char err[256];
    if (topology_load(err, sizeof err) != 0)
        fprintf(stderr, "gpubench: warning: %s; CPU threads will not be pinned\n", err);
    if (threads <= 0)
        threads = topology_cores();
    else if (topology_cores() > 0 && threads > topology_cores())
        fprintf(stderr,
                "gpubench: warning: --threads %d is more than this machine's %d cores: threads "
                "share cores, so CPU rows measure oversubscription\n",
                threads, topology_cores());
    char cpu_why[256] = "";
    memset(devs, 0, sizeof *devs);
    if (cpu_backend.discover(devs, threads, cpu_why, sizeof cpu_why) == 0)
        fprintf(stderr, "gpubench: warning: no CPU device: %s\n", cpu_why);
    gpu_why[0] = '\0';
    cuda_backend.discover(devs, threads, gpu_why, whylen);
}

static void shutdown_devices(const struct device_list *devs) {
    for (int i = 0; i < devs->n; i++)
        if (devs->d[i].be->shutdown)
            devs->d[i].be->shutdown(&devs->d[i]);
    topology_unload();
}

static void make_run_info(struct run_info *ri) {
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

static int default_out(const struct run_info *ri, char *path, size_t len) {
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

/* The run's files: --out (CSV, or JSON by its name) unless --no-out, --json, --samples. */
struct run_files {
    struct result_file out, json;
    struct csv_file samples;
    int have_out, have_json, have_samples;
    char out_path[4096];
};

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

/* Open every file the options ask for. Returns 0, or 2 with one line printed and nothing left. */
static int open_outputs(const struct options *o, const struct run_info *ri, struct run_files *rf) {
    char err[512];
    memset(rf, 0, sizeof *rf);
    if (!o->no_out) {
        if (o->out)
            snprintf(rf->out_path, sizeof rf->out_path, "%s", o->out);
        else if (default_out(ri, rf->out_path, sizeof rf->out_path))
            return 2;
        const struct row_format *fmt = cli_out_is_json(rf->out_path) ? &rows_json : &rows_csv;
        if (result_file_open(&rf->out, rf->out_path, fmt, ri, err, sizeof err) != 0) {
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

/* Commit every file (PATH.partial -> PATH) and, when `say`, where the results are (one of
 * several runs leaves that to the parent, which gathers them). `rows`: the rows finished; an
 * interrupted run with none commits nothing (abandon_outputs). Returns rc, or 1 when a file
 * could not be written and rc was 0. */
static int commit_outputs(struct run_files *rf, int rc, int rows, int say) {
    char err[512];
    if (rc == 130 && rows == 0)
        return abandon_outputs(rf, say);
    const char *opt[] = {"--out", "--json"};
    struct result_file *file[] = {rf->have_out ? &rf->out : NULL,
                                  rf->have_json ? &rf->json : NULL};
    for (int i = 0; i < 2; i++) {
        if (!file[i])
            continue;
        if (result_file_commit(file[i], err, sizeof err) != 0) {
            fprintf(stderr, "gpubench: %s: %s\n", opt[i], err);
            rc = rc ? rc : 1;
        } else if (say && !file[i]->file.direct) { /* -o /dev/null: nothing was written */
            fprintf(stderr, "gpubench: wrote %s%s\n", file[i]->file.path,
                    rc == 130 ? " (interrupted: rows finished so far)" : "");
        }
    }
    if (rf->have_samples && csv_commit(&rf->samples, err, sizeof err) != 0) {
        fprintf(stderr, "gpubench: --samples: %s\n", err);
        rc = rc ? rc : 1;
    }
    return rc;
}

/* `--runs N` in this process: the parent of the N runs (each a process of its own). */
static int run_many(int argc, char **argv, const struct options *o) {
    struct run_info ri;
    char out_path[4096];
    make_run_info(&ri);
    if (o->out)
        snprintf(out_path, sizeof out_path, "%s", o->out);
    else if (default_out(&ri, out_path, sizeof out_path))
        return 2;
    return runs_parent(argc, argv, o, out_path, made_results_dir);
}

/* One run: discover, plan, measure, write. run_index >= 0: one of several runs (--runs), whose
 * files the parent gathers and names. */
static int run_one(const struct options *opts, int run_index) {
    const struct options o = *opts;
    int rc;
    struct device_list devs;
    char gpu_why[512], lost[4200];
    catch_stop_signals();
    discover(o.threads, &devs, gpu_why, sizeof gpu_why);
    struct plan pl;
    struct run_info ri;
    struct run_files rf;
    if ((rc = plan_build(&o, &devs, gpu_why, &pl)))
        goto out_plan;
    make_run_info(&ri);
    ri.devs = pl.devs;
    ri.ndevs = pl.ndevs;
    if (run_index >= 0) { /* one of several runs: its own row order, its index in the CSV */
        ri.run = run_index;
        plan_shuffle(&pl, splitmix64(o.seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)run_index)));
    }
    if ((rc = open_outputs(&o, &ri, &rf)))
        goto out_plan;
    /* said once, by the first of several runs, once the options and outputs are good (a usage
     * error stays one line): a new choice of OpenBLAS's core (blas_core.h) */
    blas_core_announce(run_index <= 0);
    /* said once: by the first of several runs, and only when the run would want GPU rows */
    if (gpu_why[0] && run_index <= 0 && plan_wants_gpu(&o))
        fprintf(stderr, "gpubench: no GPU rows: %s\n", gpu_why);
    /* stdout gone (a closed pipe, a full disk, a terminal hung up): measuring goes on, for the
     * run's files; the exit code says stdout failed (harness/main.c) */
    if (rf.have_out || rf.have_json) {
        const char *path = rf.have_out ? rf.out.file.path : rf.json.file.path;
        const char *dot = strrchr(path, '.');
        int len = (int)strlen(path);
        if (run_index >= 0 && dot && strncmp(dot, ".run", 4) == 0)
            len = (int)(dot - path); /* PATH.runI, which the parent gathers into PATH */
        snprintf(lost, sizeof lost, "the run goes on: its rows go to %.*s", len, path);
    } else
        snprintf(lost, sizeof lost, "the run goes on (no run file: --no-out)");
    struct sink sink;
    sink_begin(&sink, o.format, plan_shape_width(&pl), plan_impl_width(&pl), &ri, lost);
    struct run_outputs outs = {{rf.have_out ? &rf.out : NULL, rf.have_json ? &rf.json : NULL},
                               rf.have_samples ? &rf.samples : NULL,
                               &sink, 0};
    rc = runner_run(&pl, &ri, &outs);
    sink_end(&sink);
    rc = commit_outputs(&rf, rc, outs.rows, run_index < 0);
out_plan:
    plan_free(&pl);
    shutdown_devices(&devs);
    return rc;
}

int run_main(int argc, char **argv) {
    struct options o;
    /* the options as given, for the runs of --runs: parsing splits lists in place */
    char **given = malloc(((size_t)argc + 1) * sizeof *given);
    for (int i = 0; given && i < argc; i++)
        if (!(given[i] = strdup(argv[i]))) {
            fprintf(stderr, "gpubench: out of memory\n");
            return 2;
        }
    int rc = cli_parse_run(argc, argv, &o);
    if (!rc)
        blas_core_choose(o.blas_core); /* may re-execute: nothing is measured yet */
    int run_index = rc ? -1 : runs_child_index(&o); /* -1: not one of several runs */
    if (!rc && o.runs > 1 && run_index < 0)
        rc = given ? run_many(argc, given, &o) : 2;
    else if (!rc)
        rc = run_one(&o, run_index);
    else if (rc == 1)
        rc = 0; /* --help, --version */
    for (int i = 0; given && i < argc; i++)
        free(given[i]);
    free(given);
    return rc;
}

static void list_usage(FILE *f) {
    fputs("usage: gpubench list\n"
          "\n"
          "Lists what this build can run: each workload with its implementations (and the kind\n"
          "of device each runs on), its default, --quick and --sweep shapes, and the devices\n"
          "found on this machine (the CPU, and every GPU or why there is none).\n"
          "\n"
          "options:\n"
          "  -h, --help   this text\n",
          f);
}

int list_cmd(int argc, char **argv) {
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        list_usage(stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "gpubench list: unexpected argument '%s'\n", argv[1]);
        return 2;
    }
    struct device_list devs;
    char gpu_why[512];
    discover(0, &devs, gpu_why, sizeof gpu_why);
    int rc = list_main(&devs, gpu_why);
    shutdown_devices(&devs);
    return rc;
}
