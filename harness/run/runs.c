/* runs.c — `gpubench run --runs N` (see runs.h): the parent starts this binary once per run,
 * forwards Ctrl-C, a hang-up and Slurm's signals to the run in progress, and gathers the runs'
 * files. */
#include "harness/run/runs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/io/csv_write.h"
#include "harness/run/spawn.h"

/* "PID:INDEX" of the parent that started this run: a variable left in a user's environment
 * cannot make a plain run believe it is one of several (the parent must be ours). */
#define RUNS_ENV "GPUBENCH_RUN_OF"
/* When the previous run ended (runs_previous_end), "%.6f" seconds of CLOCK_MONOTONIC. */
#define RUNS_END_ENV "GPUBENCH_RUN_PREV_END"

int runs_child_index(const struct options *o) {
    const char *v = getenv(RUNS_ENV);
    long parent, index;
    char tail;
    if (!v || o->runs < 2 || sscanf(v, "%ld:%ld%c", &parent, &index, &tail) != 2)
        return -1;
    if (parent != (long)getppid() || index < 0 || index >= o->runs)
        return -1;
    return (int)index;
}

double runs_previous_end(const struct options *o) {
    const char *v = getenv(RUNS_END_ENV);
    char *end;
    if (!v || runs_child_index(o) < 1)
        return 0;
    double t = strtod(v, &end);
    return end != v && !*end && t > 0 ? t : 0;
}

static double mono_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The signal that asked the parent to stop (0: none), and the run to pass it on to. */
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t current_child;

/* The run in progress is in its own process group (so a Ctrl-C at the terminal reaches only
 * this parent): pass the signal on once, and let the run end as an interrupted run does. */
static void on_stop(int sig) {
    stop_signal = sig;
    if (current_child > 0)
        kill((pid_t)current_child, sig);
}

/* PATH.runI, the file of run I. */
static void run_file(char *buf, size_t len, const char *path, int i) {
    snprintf(buf, len, "%s.run%d", path, i);
}

/* Start run i: this binary with run's options as given, then --out and --samples of its own
 * (the last one given wins). Returns its pid, or -1 (fork failed, message printed). */
static pid_t spawn(int argc, char **argv, int i, const char *out, const char *samples,
                   double prev_end) {
    char **args = calloc((size_t)argc + 8, sizeof *args), env[64], ended[64], what[32];
    int n = 0;
    if (!args) {
        fprintf(stderr, "gpubench: --runs: out of memory\n");
        return -1;
    }
    args[n++] = "gpubench";
    args[n++] = "run";
    for (int k = 1; k < argc; k++)
        args[n++] = argv[k];
    args[n++] = "--out";
    args[n++] = (char *)out;
    if (samples) {
        args[n++] = "--samples";
        args[n++] = (char *)samples;
    }
    snprintf(env, sizeof env, RUNS_ENV "=%ld:%d", (long)getpid(), i);
    snprintf(ended, sizeof ended, RUNS_END_ENV "=%.6f", prev_end);
    const char *vars[] = {env, prev_end > 0 ? ended : RUNS_END_ENV, NULL};
    snprintf(what, sizeof what, "run %d", i + 1);
    /* the parent gone: the run stops as after scancel */
    pid_t pid = spawn_self(args, vars, NULL, 0, SIGTERM, what);
    if (pid < 0)
        fprintf(stderr, "gpubench: --runs: cannot start run %d: %s\n", i + 1, strerror(errno));
    free(args);
    return pid;
}

/* Wait for run pid; its exit code, or 128 + the signal that ended it. */
static int wait_run(pid_t pid) {
    int status;
    current_child = (sig_atomic_t)pid;
    if (stop_signal)
        kill(pid, (int)stop_signal); /* it came between fork and here */
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 1;
    current_child = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Rows gathered from the runs so far: none at an interrupt leaves the files as they were. */
static int rows_gathered;

/* Append the lines of `from` after its header to `to`, counting them into rows_gathered, then
 * delete `from`. A missing file adds nothing. Returns 0, or -1 with a message. */
static int append_rows(struct csv_file *to, const char *from, int count) {
    FILE *f = fopen(from, "r");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    int c, header = 1, rc = 0;
    while ((c = getc(f)) != EOF) {
        if (!header) {
            putc(c, to->f);
            rows_gathered += count && c == '\n';
        } else if (c == '\n')
            header = 0;
    }
    if (ferror(f) || ferror(to->f)) {
        fprintf(stderr, "gpubench: --runs: cannot copy %s into %s\n", from, to->partial);
        rc = -1;
    }
    fclose(f);
    csv_flush(to);
    unlink(from);
    return rc;
}

/* Remove what run i left: its files and their .partial. */
static void remove_run_files(const char *out, const char *samples, int i) {
    char p[4200], q[4300];
    for (int k = 0; k < 2; k++) {
        const char *base = k ? samples : out;
        if (!base)
            continue;
        run_file(p, sizeof p, base, i);
        snprintf(q, sizeof q, "%s.partial", p);
        unlink(p);
        unlink(q);
    }
}

/* What one finished run means for the whole: gather its files, or say why not. Returns the
 * run's contribution to the exit code (0, 1, 130), or 2 to stop everything. */
static int gather(struct csv_file *csv, struct csv_file *smp, const struct options *o,
                  const char *out, int i, int code) {
    char p[4200];
    if (code == 2)
        return 2; /* a usage error, printed by the run itself */
    if (stop_signal && code == 128 + stop_signal) {
        /* the forwarded signal came before the run could catch it: it had measured nothing */
        remove_run_files(out, o->samples, i);
        return 130;
    }
    if (code != 0 && code != 1 && code != 130) {
        fprintf(stderr, "gpubench: run %d of %d ended with %s %d: its rows are not kept\n", i + 1,
                o->runs, code > 128 ? "signal" : "exit", code > 128 ? code - 128 : code);
        remove_run_files(out, o->samples, i);
        return 1;
    }
    run_file(p, sizeof p, out, i);
    int bad = append_rows(csv, p, 1);
    if (smp) {
        run_file(p, sizeof p, o->samples, i);
        bad |= append_rows(smp, p, 0);
    }
    return bad ? 1 : code;
}

/* After the runs: the files committed (or, after a usage error, nothing left). */
static int finish(struct csv_file *csv, struct csv_file *smp, const char *out, int done, int rc,
                  int made_dir) {
    char err[512];
    if (rc == 2) {
        csv_discard(csv);
        if (smp)
            csv_discard(smp);
        if (made_dir)
            rmdir("results");
        return 2;
    }
    if (rc == 130 && rows_gathered == 0) { /* interrupted before any row finished */
        struct csv_file *file[] = {csv, smp};
        for (int i = 0; i < 2; i++)
            if (file[i]) {
                csv_abandon(file[i], err, sizeof err);
                fprintf(stderr, "gpubench: interrupted before any row finished: %s\n", err);
            }
        return rc;
    }
    if (csv_commit(csv, err, sizeof err) != 0) {
        fprintf(stderr, "gpubench: --out: %s\n", err);
        rc = rc ? rc : 1;
    } else {
        fprintf(stderr, "gpubench: wrote %s (%d run%s%s)\n", out, done, done == 1 ? "" : "s",
                rc == 130 ? ", interrupted: the rows finished so far" : "");
    }
    if (smp && csv_commit(smp, err, sizeof err) != 0) {
        fprintf(stderr, "gpubench: --samples: %s\n", err);
        rc = rc ? rc : 1;
    }
    return rc;
}

int runs_parent(int argc, char **argv, const struct options *o, const char *out, int made_dir) {
    struct csv_file csv, samples, *smp = NULL;
    char err[512], p[4200], q[4200];
    if (csv_open(&csv, out, CSV_HEADER, err, sizeof err) != 0) {
        fprintf(stderr, "gpubench: --out: %s\n", err);
        return 2;
    }
    if (o->samples) {
        if (csv_open(&samples, o->samples, SAMPLES_HEADER, err, sizeof err) != 0) {
            fprintf(stderr, "gpubench: --samples: %s\n", err);
            return finish(&csv, NULL, out, 0, 2, made_dir);
        }
        smp = &samples;
    }
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    if (signal(SIGHUP, on_stop) == SIG_IGN) /* nohup: the runs outlive the terminal */
        signal(SIGHUP, SIG_IGN);
    int rc = 0, done = 0;
    double prev_end = 0; /* when the previous run's process ended */
    for (int i = 0; i < o->runs && !stop_signal; i++) {
        run_file(p, sizeof p, out, i);
        if (o->samples)
            run_file(q, sizeof q, o->samples, i);
        pid_t pid = spawn(argc, argv, i, p, o->samples ? q : NULL, prev_end);
        int code = pid < 0 ? 1 : wait_run(pid);
        prev_end = mono_s();
        int before = rows_gathered;
        int r = pid < 0 ? 1 : gather(&csv, smp, o, out, i, code);
        if (r == 2) {
            rc = 2;
            break;
        }
        /* a run counts when its rows are in the file: not one interrupted before its first */
        done += (code == 0 || code == 1 || code == 130) && rows_gathered > before;
        /* after the run, not before: a usage error stays the one line the run printed */
        if (code == 0 || code == 1)
            fprintf(stderr, "gpubench: run %d of %d done\n", i + 1, o->runs);
        rc = r == 130 || rc == 130 ? 130 : (r > rc ? r : rc);
        if (pid < 0 || r == 130)
            break;
    }
    if (stop_signal && rc != 2)
        rc = 130;
    return finish(&csv, smp, out, done, rc, made_dir);
}
