/* worker.c — `gpubench __worker` (worker.h). */
#include "harness/run/worker.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/core/inputs.h"
#include "harness/core/interrupt.h"
#include "harness/core/shape.h"
#include "harness/run/blas_core.h"
#include "harness/run/cli.h"
#include "harness/run/devices.h"
#include "harness/run/plan.h"
#include "harness/run/runner.h"
#include "harness/run/wire.h"

void worker_row_key(const char *dev_id, const char *workload, const char *impl,
                    const char *shape, const char *dtype, char *key, size_t len) {
    snprintf(key, len, "%s|%s|%s|%s|%s", dev_id, workload, impl, shape, dtype);
}

struct worker {
    const struct plan *pl;
    unsigned char *want; /* per plan row: the supervisor asked for it */
    struct wire_msg m;
};

/* A message that cannot be sent means the supervisor is gone: stop as after Ctrl-C (and
 * PR_SET_PDEATHSIG ends this process soon anyway). */
static void send_msg(struct worker *wk, int type) {
    if (wire_send(WORKER_MSG_FD, type, &wk->m) != 0)
        gb_interrupted = 1;
}

static int dev_index(const struct plan *pl, const struct device *d) {
    for (int i = 0; i < pl->ndevs; i++)
        if (pl->devs[i] == d)
            return i;
    return -1;
}

static int hook_want(void *ctx, int row) {
    struct worker *wk = ctx;
    return wk->want[row];
}

static void hook_begin(void *ctx, int row, const struct result *r) {
    struct worker *wk = ctx;
    wire_begin(&wk->m);
    wire_put_int(&wk->m, row);
    wire_put_result(&wk->m, r, dev_index(wk->pl, r->dev), 0);
    send_msg(wk, WIRE_BEGIN);
}

static void hook_stage(void *ctx, int row, enum row_stage s, double deadline_s, const char *note) {
    struct worker *wk = ctx;
    wire_begin(&wk->m);
    wire_put_int(&wk->m, row);
    wire_put_int(&wk->m, (int)s);
    wire_put_double(&wk->m, deadline_s);
    wire_put_str(&wk->m, note);
    send_msg(wk, WIRE_STAGE);
}

static void hook_done(void *ctx, int row, const struct result *r) {
    struct worker *wk = ctx;
    wire_begin(&wk->m);
    wire_put_int(&wk->m, row);
    wire_put_result(&wk->m, r, dev_index(wk->pl, r->dev), 1);
    send_msg(wk, WIRE_ROW);
}

/* HELLO: the devices, the widths, why no GPU, and every plan row's key and device. */
static void say_hello(struct worker *wk, const char *gpu_why) {
    const struct plan *pl = wk->pl;
    char shape[256], key[512];
    wire_begin(&wk->m);
    wire_put_int(&wk->m, pl->ndevs);
    for (int i = 0; i < pl->ndevs; i++)
        wire_put_device(&wk->m, pl->devs[i]);
    wire_put_int(&wk->m, plan_shape_width(pl));
    wire_put_int(&wk->m, plan_impl_width(pl));
    wire_put_str(&wk->m, gpu_why);
    wire_put_int(&wk->m, pl->total_rows);
    for (int i = 0; i < pl->total_rows; i++) {
        const struct plan_row *pr = &pl->rows[i];
        const struct plan_shape *ps = &pl->shapes[pr->shape];
        shape_format(ps->w, &ps->s, shape, sizeof shape);
        worker_row_key(pr->dev->id, ps->w->name, pr->im->name, shape, dtype_name(ps->dtype), key,
                       sizeof key);
        wire_put_str(&wk->m, key);
    }
    send_msg(wk, WIRE_HELLO);
}

/* The supervisor's answer to HELLO: one byte per plan row, 1 to run it. Returns 0, or -1 (the
 * supervisor is gone or said something else). */
static int read_run(struct worker *wk) {
    struct wire_reader r = {0};
    struct wire_cur c;
    int type, rc = -1;
    for (;;) {
        if (wire_next(&r, &type, &c)) {
            int n = wire_get_int(&c);
            if (type == WIRE_RUN && n == wk->pl->total_rows && c.left == (size_t)n) {
                memcpy(wk->want, c.p, (size_t)n);
                rc = 0;
            }
            break;
        }
        long got = wire_fill(&r, WORKER_CTL_FD);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
    }
    wire_reader_free(&r);
    return rc;
}

/* --- the fatal-signal handler: which library call was in progress --------------------------- */

static struct wire_msg crash_msg; /* built in place: no allocation inside the handler */
static char self_path[4096];

/* The C library's frames (the signal's trampoline, raise, a memcpy inside a library) belong to
 * no call of ours. */
static int libc_frame(const char *file) {
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    return strncmp(base, "libc.so", 7) == 0 || strncmp(base, "libc-", 5) == 0 ||
           strncmp(base, "libpthread", 10) == 0 || strncmp(base, "ld-linux", 8) == 0 ||
           strncmp(base, "libgcc_s", 8) == 0 || strncmp(base, "linux-vdso", 10) == 0;
}

/* The signal, then the call in progress: walking out from the fault, the outermost named
 * function of another library before the stack returns into this program — the API call our
 * code made (cublasGemmEx), not the library's internals nor a library it called in turn. */
static void on_fatal(int sig) {
    void *frames[64];
    int n = backtrace(frames, 64), seen = 0;
    const char *lib = NULL, *call = NULL;
    for (int i = 0; i < n; i++) {
        Dl_info d;
        if (!dladdr(frames[i], &d) || !d.dli_fname || libc_frame(d.dli_fname))
            continue;
        if (strcmp(d.dli_fname, self_path) == 0) {
            if (seen)
                break; /* back in our own code: the frame before was the call */
            continue;  /* the handler itself */
        }
        seen = 1;
        if (d.dli_sname) {
            lib = d.dli_fname;
            call = d.dli_sname;
        }
    }
    const char *base = lib ? strrchr(lib, '/') : NULL;
    crash_msg.len = 0;
    wire_put_int(&crash_msg, sig);
    wire_put_str(&crash_msg, base ? base + 1 : lib);
    wire_put_str(&crash_msg, call);
    wire_send(WORKER_MSG_FD, WIRE_CRASH, &crash_msg);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_fatal(void) {
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    void *warm[2];
    Dl_info d;
    backtrace(warm, 2); /* its first call loads the unwinder: not inside the handler */
    if (dladdr((void *)worker_main, &d) && d.dli_fname)
        snprintf(self_path, sizeof self_path, "%s", d.dli_fname);
    wire_begin(&crash_msg);
    wire_put(&crash_msg, self_path, sizeof self_path); /* room for two names and a number */
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_fatal);
}

int worker_main(int argc, char **argv) {
    const char *env = getenv(WORKER_ENV);
    int run_index, fresh;
    double prev_end;
    if (!env || sscanf(env, "%d:%lf:%d", &run_index, &prev_end, &fresh) != 3) {
        fprintf(stderr, "gpubench: __worker is started by gpubench run, not by hand\n");
        return 2;
    }
    /* the descriptors stay this process's: not the start-up rows' `__child` processes' */
    fcntl(WORKER_MSG_FD, F_SETFD, FD_CLOEXEC);
    fcntl(WORKER_CTL_FD, F_SETFD, FD_CLOEXEC);
    argv[0] = "run";
    struct options o;
    int rc = cli_parse_run(argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    blas_core_choose(o.blas_core); /* the supervisor's choice, passed on: nothing to do */
    catch_fatal();
    struct device_list devs;
    char gpu_why[512];
    struct plan pl;
    devices_discover(o.threads, fresh, &devs, gpu_why, sizeof gpu_why);
    if ((rc = plan_build(&o, &devs, gpu_why, &pl)) != 0) {
        devices_shutdown(&devs);
        return rc;
    }
    if (run_index >= 0) /* one of several runs: its own row order, as every worker of it */
        plan_shuffle(&pl, splitmix64(o.seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)run_index)));
    struct worker wk = {.pl = &pl, .want = calloc((size_t)pl.total_rows + 1, 1)};
    if (!wk.want) {
        fprintf(stderr, "gpubench: out of memory\n");
        rc = 1;
    } else {
        say_hello(&wk, gpu_why);
        if (read_run(&wk) == 0 && !gb_interrupted) {
            struct runner_hooks h = {&wk, hook_want, hook_begin, hook_stage, hook_done};
            rc = runner_run(&pl, prev_end, &h);
            wire_begin(&wk.m);
            wire_put_int(&wk.m, rc);
            send_msg(&wk, rc == RUNNER_RESTART ? WIRE_RESTART : WIRE_END);
        } else {
            rc = 1;
        }
    }
    free(wk.want);
    wire_free(&wk.m);
    plan_free(&pl);
    devices_shutdown(&devs);
    return rc;
}
