/* supervise.c — a run's supervisor (supervise.h): starts the worker, reads its messages
 * (wire.h), writes the finished rows, enforces each stage's deadline, and starts a fresh worker
 * after a hang, a death or a broken device. It knows nothing of CUDA or of timing. */
#include "harness/run/supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/run/blas_core.h"
#include "harness/run/outputs.h"
#include "harness/run/plan.h"
#include "harness/run/runner.h"
#include "harness/run/runs.h"
#include "harness/run/spawn.h"
#include "harness/run/sup_rows.h"
#include "harness/run/wire.h"
#include "harness/run/worker.h"

/* The signal that asked the run to stop (Ctrl-C, SIGTERM — Slurm's time limit, scancel —,
 * a hang-up), 0 while none came. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) {
    stop_signal = sig;
    signal(sig, SIG_DFL); /* a second one ends this process at once */
}

/* Installed before the first worker starts. A hang-up that was ignored when we started (nohup)
 * stays ignored: that run is meant to outlive its terminal. */
static void catch_stop_signals(void) {
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    if (signal(SIGHUP, on_stop) == SIG_IGN)
        signal(SIGHUP, SIG_IGN);
}

/* The least time a worker is given to start (see start_worker). */
#define START_S 120.0

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One worker's life, as this side sees it. */
struct worker_life {
    pid_t pid;
    int msg_fd, ctl_fd;
    struct wire_reader rd;
    int hello, ended, restart; /* HELLO, END, RESTART received */
    int *wmap;                 /* its plan rows → the run's rows (-1: not the run's) */
    int *wdev;                 /* its devices → the run's (-1: unknown) */
    int wrows, wdevs;
    int cur;                   /* the run's row in progress, -1 between rows */
    struct result cur_r;       /* its identity (BEGIN) */
    int stage;                 /* the stage in progress (enum row_stage), -1 before any */
    double stage_s;            /* its deadline, in seconds from its start */
    double deadline;           /* when this side stops waiting (now_s() clock) */
    char note[1024];           /* the row's note so far (the implementation's choices) */
    char crash[256];           /* the CRASH message: "SIGSEGV in cublasGemmEx (libcublas…)" */
    int rows_done;             /* rows it finished */
};

static void life_free(struct worker_life *w) {
    if (w->msg_fd >= 0)
        close(w->msg_fd);
    if (w->ctl_fd >= 0)
        close(w->ctl_fd);
    wire_reader_free(&w->rd);
    free(w->wmap);
    free(w->wdev);
    memset(w, 0, sizeof *w);
    w->msg_fd = w->ctl_fd = -1;
}

/* Start a worker with the run's options (fresh: not the run's first, so it does not repeat the
 * machine's warnings). Returns 0, or -1 with a message. */
static int start_worker(struct sup *s, struct worker_life *w, int fresh) {
    int msg[2], ctl[2];
    char env[96];
    memset(w, 0, sizeof *w);
    w->msg_fd = w->ctl_fd = -1;
    w->cur = -1;
    w->stage = -1;
    if (pipe2(msg, O_CLOEXEC) != 0) {
        fprintf(stderr, "gpubench: cannot start the worker: %s\n", strerror(errno));
        return -1;
    }
    char **args = calloc((size_t)s->argc + 2, sizeof *args);
    if (!args || pipe2(ctl, O_CLOEXEC) != 0) {
        fprintf(stderr, "gpubench: cannot start the worker: %s\n",
                args ? strerror(errno) : "out of memory");
        free(args);
        close(msg[0]);
        close(msg[1]);
        return -1;
    }
    args[0] = "gpubench";
    args[1] = "__worker";
    for (int i = 1; i < s->argc; i++)
        args[i + 1] = s->argv[i];
    snprintf(env, sizeof env, WORKER_ENV "=%d:%.6f:%d", s->run_index, s->prev_end, fresh);
    const char *vars[] = {env, NULL};
    int fds[] = {msg[1], ctl[0]};
    /* this process gone: the worker goes, whatever it is doing */
    w->pid = spawn_self(args, vars, fds, 2, SIGKILL, "the worker");
    free(args);
    close(msg[1]);
    close(ctl[0]);
    w->msg_fd = msg[0];
    w->ctl_fd = ctl[1];
    if (w->pid < 0) {
        fprintf(stderr, "gpubench: cannot start the worker: %s\n", strerror(errno));
        return -1;
    }
    /* its start-up (discovery: the CPU's peaks measured, every GPU's context made, the plan)
     * is no row's: at least START_S, however short --row-timeout is */
    w->deadline = now_s() + (s->o->row_timeout > START_S ? s->o->row_timeout : START_S);
    return 0;
}

/* End the worker and everything it started (its process group); its exit status. */
static int end_worker(struct worker_life *w, int kill_it) {
    int status = 0;
    if (w->pid <= 0)
        return 0;
    if (kill_it)
        kill(-w->pid, SIGKILL);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        if (kill_it)
            kill(-w->pid, SIGKILL);
    if (!kill_it)
        kill(-w->pid, SIGKILL); /* a child it left behind (a start-up row's __child) */
    w->pid = 0;
    return status;
}

/* --- the messages ----------------------------------------------------------------------------- */

static int on_hello(struct sup *s, struct worker_life *w, struct wire_cur *c) {
    int ndevs = wire_get_int(c);
    struct device d;
    if (ndevs < 0 || ndevs > DEVICE_MAX)
        return -1;
    w->wdev = calloc((size_t)ndevs + 1, sizeof *w->wdev);
    if (!w->wdev)
        return -1;
    w->wdevs = ndevs;
    for (int i = 0; i < ndevs; i++) {
        wire_get_device(c, &d);
        w->wdev[i] = sup_device(s, &d); /* the first worker's devices are the run's */
    }
    int sw = wire_get_int(c), iw = wire_get_int(c);
    wire_get_strbuf(c, w->note, sizeof w->note); /* why no GPU */
    int nrows = wire_get_int(c);
    if (c->err || nrows < 0 || nrows > 10000000)
        return -1;
    w->wmap = calloc((size_t)nrows + 1, sizeof *w->wmap);
    if (!w->wmap)
        return -1;
    w->wrows = nrows;
    unsigned char *want = calloc((size_t)nrows + 1, 1);
    if (!want)
        return -1;
    for (int i = 0; i < nrows; i++)
        w->wmap[i] = sup_row_of(s, wire_get_str(c));
    int rc = c->err ? -1 : sup_hello(s, w->note, sw, iw, w->wmap, nrows, want);
    w->note[0] = '\0';
    if (rc == 0) {
        struct wire_msg m = {0};
        wire_put_int(&m, nrows);
        wire_put(&m, want, (size_t)nrows);
        if (wire_send(w->ctl_fd, WIRE_RUN, &m) != 0)
            rc = -1;
        wire_free(&m);
    }
    free(want);
    w->hello = 1;
    return rc;
}

static int map_row(const struct worker_life *w, int wrow) {
    return wrow >= 0 && wrow < w->wrows ? w->wmap[wrow] : -1;
}

static int map_dev(const struct worker_life *w, int wdev) {
    return wdev >= 0 && wdev < w->wdevs ? w->wdev[wdev] : -1;
}

static int on_begin(struct sup *s, struct worker_life *w, struct wire_cur *c) {
    int row = map_row(w, wire_get_int(c)), dev;
    if (row < 0 || wire_get_result(c, &w->cur_r, &dev, &s->samples, &s->traces, &s->cap) != 0 ||
        (dev = map_dev(w, dev)) < 0)
        return -1;
    w->cur_r.dev = &s->devs[dev];
    w->cur = row;
    w->stage = -1;
    w->note[0] = '\0';
    w->crash[0] = '\0';
    w->stage_s = s->o->row_timeout; /* until its first stage: activation */
    w->deadline = now_s() + w->stage_s;
    sup_progress(s, &w->cur_r);
    return 0;
}

static int on_stage(struct sup *s, struct worker_life *w, struct wire_cur *c) {
    (void)s;
    int row = map_row(w, wire_get_int(c));
    int stage = wire_get_int(c);
    double d = wire_get_double(c);
    wire_get_strbuf(c, w->note, sizeof w->note);
    if (c->err || row != w->cur || !(d > 0))
        return -1;
    w->stage = stage;
    w->stage_s = d;
    w->deadline = now_s() + d;
    return 0;
}

static int on_row(struct sup *s, struct worker_life *w, struct wire_cur *c) {
    struct result r;
    int row = map_row(w, wire_get_int(c)), dev;
    if (row < 0 || row != w->cur ||
        wire_get_result(c, &r, &dev, &s->samples, &s->traces, &s->cap) != 0 ||
        (dev = map_dev(w, dev)) < 0)
        return -1;
    r.dev = &s->devs[dev];
    sup_write(s, row, &r);
    w->cur = -1;
    w->rows_done++;
    w->deadline = now_s() + s->o->row_timeout; /* between rows: the next shape's set-up */
    return 0;
}

static void on_crash(struct worker_life *w, struct wire_cur *c) {
    int sig = wire_get_int(c);
    char lib[128], call[128];
    wire_get_strbuf(c, lib, sizeof lib);
    wire_get_strbuf(c, call, sizeof call);
    int n = snprintf(w->crash, sizeof w->crash, "%s", sup_signal_name(sig));
    if (call[0] || lib[0])
        snprintf(w->crash + n, sizeof w->crash - (size_t)n, " in %s%s%s%s", call,
                 call[0] ? " (" : "", lib[0] ? lib : "an unnamed library", call[0] ? ")" : "");
}

/* Every whole message read so far. Returns 0, or -1 on a malformed one. */
static int handle(struct sup *s, struct worker_life *w) {
    int type;
    struct wire_cur c;
    while (wire_next(&w->rd, &type, &c)) {
        int rc = 0;
        switch (type) {
        case WIRE_HELLO: rc = on_hello(s, w, &c); break;
        case WIRE_BEGIN: rc = on_begin(s, w, &c); break;
        case WIRE_STAGE: rc = on_stage(s, w, &c); break;
        case WIRE_ROW: rc = on_row(s, w, &c); break;
        case WIRE_CRASH: on_crash(w, &c); break;
        case WIRE_RESTART: w->restart = 1; break;
        case WIRE_END: w->ended = 1; break;
        default: rc = -1;
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Wait on the worker until it ends, its deadline passes, or a stop signal comes. */
enum wait_end { W_ENDED, W_DEADLINE, W_STOP, W_BROKEN };

static enum wait_end watch(struct sup *s, struct worker_life *w) {
    for (;;) {
        if (stop_signal)
            return W_STOP;
        double left = w->deadline - now_s();
        if (left <= 0)
            return W_DEADLINE;
        struct pollfd p = {w->msg_fd, POLLIN, 0};
        int ms = left > 0.25 ? 250 : (int)(left * 1000) + 1;
        int r = poll(&p, 1, ms);
        if (r < 0 && errno != EINTR)
            return W_BROKEN;
        if (r <= 0)
            continue;
        long got = wire_fill(&w->rd, w->msg_fd);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (handle(s, w) != 0)
            return W_BROKEN;
        if (got <= 0)
            return W_ENDED;
    }
}

int supervise_run(int argc, char **argv, const struct options *o, int run_index) {
    struct sup s;
    sup_init(&s, argc, argv, o, run_index);
    s.prev_end = runs_previous_end(o);
    catch_stop_signals();
    blas_core_pass_on(); /* the worker runs the core chosen here, and says so the same way */
    struct worker_life w;
    memset(&w, 0, sizeof w);
    w.msg_fd = w.ctl_fd = -1;
    /* fresh: a worker after the first; idle: workers in a row that ended with no row written */
    int fresh = 0, idle = 0, rc = 0;
    for (;; fresh = 1) {
        life_free(&w);
        if (start_worker(&s, &w, fresh) != 0) {
            rc = fresh ? sup_not_run(&s, "a fresh worker could not be started") : 1;
            break;
        }
        enum wait_end why = watch(&s, &w);
        int status = end_worker(&w, why != W_ENDED || !w.ended);
        s.prev_end = now_s();
        if (why == W_STOP || s.fatal) {
            rc = why == W_STOP ? 130 : s.fatal;
            break;
        }
        if (!w.hello) { /* it never said what it would run */
            rc = !fresh ? sup_first_failed(&s, status, why == W_DEADLINE)
                        : sup_not_run(&s, sup_ended_how(status, why == W_DEADLINE, w.crash,
                                                        o->row_timeout));
            break;
        }
        if (w.cur >= 0) /* the row in progress: timeout, or error with how the worker ended */
            sup_fault(&s, &w.cur_r, w.cur, why == W_DEADLINE, status, w.stage, w.stage_s, w.note,
                      w.crash);
        else if (w.ended)
            break; /* every row it was asked for is done */
        idle = w.rows_done == 0 && w.cur < 0 ? idle + 1 : 0;
        if (idle >= 2) {
            rc = sup_not_run(&s, sup_ended_how(status, why == W_DEADLINE, w.crash,
                                               o->row_timeout));
            break;
        }
        if (!sup_rows_left(&s))
            break;
    }
    life_free(&w);
    return sup_finish(&s, rc);
}
