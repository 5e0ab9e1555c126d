/* blas_trial.c — one OpenBLAS core on trial (blas_core.h): `gpubench __blas-trial` runs in a
 * child with OPENBLAS_CORETYPE set, times a verified SGEMM and DGEMM and prints one line; the
 * parent side starts one child per candidate, with a deadline, and reads the lines. Some
 * OpenBLAS releases crash (SIGILL) or compute wrong results on CPUs newer than they are: such a
 * candidate is dropped, never used. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/blas.h"
#include "harness/run/blas_core.h"

/* 512³: about 40 ms a candidate on generic kernels of 2 cores, so 4 candidates stay under a
 * second with process start-up; large enough for OpenBLAS's blocked kernels and threads. */
enum { TRIAL_N = 512, TRIAL_REPS = 2, TRIAL_TIMEOUT_S = 10 };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* The fault the test hook names for `core` ("crash", "wrong"), or "". */
static const char *test_fault(const char *core) {
    static char fault[16];
    const char *h = getenv("GPUBENCH_TEST_BLAS_TRIAL_FAULT");
    size_t n = strlen(core);
    fault[0] = '\0';
    while (h && *h) {
        size_t item = strcspn(h, ",");
        if (item > n && strncasecmp(h, core, n) == 0 && h[n] == ':')
            snprintf(fault, sizeof fault, "%.*s", (int)(item - n - 1), h + n + 1);
        h += item + (h[item] == ',');
    }
    return fault;
}

/* Inputs with small integer values, so every product and sum is exact in float and double and
 * C is checked exactly: C·x against A·(B·x) (Freivalds) for two vectors x, in double. */
static double verify(const double *a, const double *b, const void *c, int is_f32) {
    enum { N = TRIAL_N };
    static double x[N], bx[N];
    double worst = 0;
    for (int v = 0; v < 2; v++) {
        for (int i = 0; i < N; i++)
            x[i] = (double)((i * (v + 3) + v) % 5) - 2;
        for (int i = 0; i < N; i++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += b[(size_t)i * N + k] * x[k];
            bx[i] = s;
        }
        for (int i = 0; i < N; i++) {
            double s = 0, cx = 0;
            for (int k = 0; k < N; k++) {
                s += a[(size_t)i * N + k] * bx[k];
                double cik = is_f32 ? ((const float *)c)[(size_t)i * N + k]
                                    : ((const double *)c)[(size_t)i * N + k];
                cx += cik * x[k];
            }
            double d = s > cx ? s - cx : cx - s;
            worst = d > worst ? d : worst;
        }
    }
    return worst;
}

int blas_core_trial_main(void) {
    enum { N = TRIAL_N };
    const char *core = openblas_get_corename();
    const char *fault = test_fault(core ? core : "");
    double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N);
    double *cd = malloc(sizeof(double) * N * N);
    float *as = malloc(sizeof(float) * N * N), *bs = malloc(sizeof(float) * N * N);
    float *cs = malloc(sizeof(float) * N * N);
    if (!a || !b || !cd || !as || !bs || !cs) {
        printf("error out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < (size_t)N * N; i++) {
        a[i] = (double)((i * 7 + 3) % 5) - 2;
        b[i] = (double)((i * 11 + 1) % 5) - 2;
        as[i] = (float)a[i];
        bs[i] = (float)b[i];
    }
    if (strcmp(fault, "crash") == 0)
        raise(SIGSEGV);
    double best_s = 1e30, best_d = 1e30;
    for (int r = 0; r <= TRIAL_REPS; r++) { /* r = 0: the warm-up (threads, buffers) */
        double t0 = now_ms();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, as, N, bs, N, 0.0f,
                    cs, N);
        double t1 = now_ms();
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0, a, N, b, N, 0.0, cd,
                    N);
        double t2 = now_ms();
        if (r > 0) {
            best_s = t1 - t0 < best_s ? t1 - t0 : best_s;
            best_d = t2 - t1 < best_d ? t2 - t1 : best_d;
        }
    }
    if (strcmp(fault, "wrong") == 0)
        cs[N + 1] += 1.0f;
    double es = verify(a, b, cs, 1), ed = verify(a, b, cd, 0);
    printf("%s %s %.3f %.3f\n", es == 0 && ed == 0 ? "ok" : "wrong", core ? core : "unknown",
           best_s, best_d);
    free(a), free(b), free(cd), free(as), free(bs), free(cs);
    return 0;
}

/* Run one candidate; fills t and appends its outcome to log. */
static void trial_one(const char *core, struct blas_trial *t, char *log, size_t loglen) {
    int fd[2];
    char line[160] = "", what[96];
    t->core = core;
    t->ok = 0;
    t->ms = 0;
    if (pipe(fd) != 0) {
        snprintf(what, sizeof what, "%s not tried (pipe: %s)", core, strerror(errno));
        goto out;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        setenv("OPENBLAS_CORETYPE", core, 1);
        execl("/proc/self/exe", "gpubench", "__blas-trial", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        snprintf(what, sizeof what, "%s not tried (fork: %s)", core, strerror(errno));
        goto out;
    }
    size_t used = 0;
    double end = now_ms() + TRIAL_TIMEOUT_S * 1e3;
    int timed_out = 0;
    for (;;) {
        struct pollfd p = {fd[0], POLLIN, 0};
        double left = end - now_ms();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        int r = poll(&p, 1, (int)left + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        ssize_t k = read(fd[0], line + used, sizeof line - 1 - used);
        if (k <= 0)
            break;
        used += (size_t)k;
    }
    line[used] = '\0';
    close(fd[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    char res[16] = "", got[32] = "";
    double ms_s = 0, ms_d = 0;
    if (timed_out)
        snprintf(what, sizeof what, "%s timed out (%d s)", core, TRIAL_TIMEOUT_S);
    else if (WIFSIGNALED(st))
        snprintf(what, sizeof what, "%s died (%s)", core, strsignal(WTERMSIG(st)));
    else if (sscanf(line, "%15s %31s %lf %lf", res, got, &ms_s, &ms_d) != 4)
        snprintf(what, sizeof what, "%s gave no answer (exit %d)", core,
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    else if (strcasecmp(got, core) != 0)
        snprintf(what, sizeof what, "%s unknown to this OpenBLAS (it ran %s)", core, got);
    else if (strcmp(res, "ok") != 0)
        snprintf(what, sizeof what, "%s verified wrong", core);
    else {
        t->ok = 1;
        t->ms = ms_s + ms_d;
        snprintf(what, sizeof what, "%s %.1f ms", core, t->ms);
    }
out:;
    size_t len = strlen(log);
    snprintf(log + len, loglen - len, "%s%s", len ? ", " : "", what);
}

/* One after another, never together: they would share the cores. */
void blas_trials_run(const char **cand, int n, struct blas_trial *t, char *log, size_t loglen) {
    log[0] = '\0';
    for (int i = 0; i < n; i++)
        trial_one(cand[i], &t[i], log, loglen);
}
