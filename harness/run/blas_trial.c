/* blas_trial.c — OpenBLAS's cores on trial (blas_core.h): `gpubench __blas-trial` runs in a
 * child with OPENBLAS_CORETYPE set: it verifies an SGEMM and a DGEMM, says so in one line, then
 * answers each request on its stdin with one timed SGEMM + DGEMM. The parent side starts one
 * child per candidate, then asks them in interleaved rounds (one at a time, the others stopped)
 * until blas_core_decide calls the winner clear. Some OpenBLAS releases crash (SIGILL) or
 * compute wrong results on CPUs newer than they are: such a candidate is dropped, never used. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

#include "harness/core/blas.h"
#include "harness/run/blas_core.h"

/* 512³: about 10 ms a round on generic kernels of 2 cores, 2 ms on AVX-512, so five rounds of
 * five candidates take well under a second; large enough for OpenBLAS's blocked kernels and
 * threads. TRIAL_TIMEOUT_S bounds each answer. */
enum { TRIAL_N = 512, TRIAL_TIMEOUT_S = 10 };

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

/* One SGEMM + DGEMM, best of two, in ms. */
static double timed_pair(const float *as, const float *bs, float *cs, const double *a,
                         const double *b, double *cd) {
    enum { N = TRIAL_N };
    double best_s = 1e30, best_d = 1e30;
    for (int r = 0; r < 2; r++) {
        double t0 = now_ms();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, as, N, bs, N, 0.0f,
                    cs, N);
        double t1 = now_ms();
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0, a, N, b, N, 0.0, cd,
                    N);
        double t2 = now_ms();
        best_s = t1 - t0 < best_s ? t1 - t0 : best_s;
        best_d = t2 - t1 < best_d ? t2 - t1 : best_d;
    }
    return best_s + best_d;
}

int blas_core_trial_main(void) {
    enum { N = TRIAL_N };
    /* Its only reader is the parent: were it gone (Ctrl-C, a kill), this child ends at once and
     * says nothing, rather than computing on and reporting a broken pipe on the user's terminal
     * (main ignores SIGPIPE for the commands' sake). */
    signal(SIGPIPE, SIG_DFL);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() == 1)
        return 1;
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
    timed_pair(as, bs, cs, a, b, cd); /* the warm-up (threads, buffers), and the verified run */
    if (strcmp(fault, "wrong") == 0)
        cs[N + 1] += 1.0f;
    double es = verify(a, b, cs, 1), ed = verify(a, b, cd, 0);
    printf("%s %s\n", es == 0 && ed == 0 ? "ok" : "wrong", core ? core : "unknown");
    fflush(stdout);
    int c;
    while ((c = getchar()) != EOF) {
        if (c != '\n')
            continue;
        if (strcmp(fault, "slow") == 0) /* the test of Ctrl-C during a trial: a wide window */
            sleep(1);
        printf("%.4f\n", timed_pair(as, bs, cs, a, b, cd));
        fflush(stdout);
    }
    free(a), free(b), free(cd), free(as), free(bs), free(cs);
    return 0;
}

/* One candidate's child: its pid and the two ends of its pipes. */
struct cand_proc {
    pid_t pid;
    int to, from; /* its stdin, its stdout */
    char why[80]; /* why it was dropped ("died (Illegal instruction)"); "" while it is in */
};

/* Read one line from fd within TRIAL_TIMEOUT_S into line; 0, or -1 (timeout: why says so). */
static int read_line(int fd, char *line, size_t len, char *why, size_t wlen) {
    size_t used = 0;
    double end = now_ms() + TRIAL_TIMEOUT_S * 1e3;
    while (used < len - 1) {
        struct pollfd p = {fd, POLLIN, 0};
        double left = end - now_ms();
        if (left <= 0) {
            snprintf(why, wlen, "timed out (%d s)", TRIAL_TIMEOUT_S);
            return -1;
        }
        int r = poll(&p, 1, (int)left + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        ssize_t k = read(fd, line + used, 1); /* byte by byte: the lines are a few bytes */
        if (k <= 0)
            break;
        if (line[used] == '\n')
            break;
        used += (size_t)k;
    }
    line[used] = '\0';
    return 0;
}

/* End a child and say, where it had not been dropped yet, how it ended. A child that closed
 * its stdout is ending by itself (a crash): it is waited for, so that its signal is named;
 * one that is still in (the trial is over, or it answered wrong or late) is killed (SIGKILL:
 * it holds nothing to save). */
static void cand_end(struct cand_proc *p, int kill_it) {
    if (p->pid <= 0)
        return;
    int st = 0;
    pid_t r = 0;
    for (int waited = 0; !kill_it && waited < 200 && (r = waitpid(p->pid, &st, WNOHANG)) == 0;
         waited++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (r == 0 || kill_it) {
        kill(p->pid, SIGKILL);
        while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR) {
        }
    } else if (r > 0 && !p->why[0] && WIFSIGNALED(st)) {
        snprintf(p->why, sizeof p->why, "died (%s)", strsignal(WTERMSIG(st)));
    } else if (r > 0 && !p->why[0] && WIFEXITED(st)) {
        snprintf(p->why, sizeof p->why, "gave no answer (exit %d)", WEXITSTATUS(st));
    }
    close(p->to);
    close(p->from);
    p->pid = 0;
}

/* Start core's child and read its verdict line; on success it is left stopped (SIGSTOP). */
static void cand_start(const char *core, struct cand_proc *p) {
    int in[2], out[2];
    memset(p, 0, sizeof *p);
    if (pipe(in) != 0 || pipe(out) != 0) {
        snprintf(p->why, sizeof p->why, "not tried (pipe: %s)", strerror(errno));
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        setenv("OPENBLAS_CORETYPE", core, 1);
        execl("/proc/self/exe", "gpubench", "__blas-trial", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->pid = pid, p->to = in[1], p->from = out[0];
    if (pid < 0) {
        snprintf(p->why, sizeof p->why, "not tried (fork: %s)", strerror(errno));
        p->pid = 0;
        close(p->to), close(p->from);
        return;
    }
    char line[160], res[16] = "", got[32] = "";
    if (read_line(p->from, line, sizeof line, p->why, sizeof p->why) != 0 ||
        sscanf(line, "%15s %31s", res, got) != 2) {
        cand_end(p, p->why[0] != 0);
        if (!p->why[0])
            snprintf(p->why, sizeof p->why, "gave no answer");
        return;
    }
    if (strcasecmp(got, core) != 0)
        snprintf(p->why, sizeof p->why, "unknown to this OpenBLAS (it ran %.31s)", got);
    else if (strcmp(res, "ok") != 0)
        snprintf(p->why, sizeof p->why, "verified wrong");
    if (p->why[0])
        cand_end(p, 1);
    else
        kill(p->pid, SIGSTOP);
}

/* One round's sample from a running candidate: continue it, ask, read, stop it again. */
static int cand_ask(struct cand_proc *p, double *ms) {
    char line[64];
    kill(p->pid, SIGCONT);
    if (write(p->to, "\n", 1) != 1 ||
        read_line(p->from, line, sizeof line, p->why, sizeof p->why) != 0 ||
        sscanf(line, "%lf", ms) != 1 || !(*ms > 0)) {
        cand_end(p, p->why[0] != 0);
        if (!p->why[0])
            snprintf(p->why, sizeof p->why, "gave no answer");
        return -1;
    }
    kill(p->pid, SIGSTOP);
    return 0;
}

int blas_trials_run(const char **cand, int n, struct blas_trial *t, char *log, size_t loglen) {
    struct cand_proc p[8];
    double start = now_ms();
    int rounds = 0, win = -1, clear = 0;
    if (n > 8)
        n = 8;
    /* Started one after another, never together: they would share the cores. */
    for (int i = 0; i < n; i++) {
        memset(&t[i], 0, sizeof t[i]);
        t[i].core = cand[i];
        cand_start(cand[i], &p[i]);
        t[i].ok = !p[i].why[0];
    }
    while (rounds < BLAS_TRIAL_MAX_ROUNDS) {
        for (int j = 0; j < n; j++) { /* the first to go rotates from round to round */
            int i = (j + rounds) % n;
            if (t[i].ok && cand_ask(&p[i], &t[i].ms[rounds]) != 0)
                t[i].ok = 0;
        }
        rounds++;
        for (int i = 0; i < n; i++)
            if (t[i].ok)
                t[i].n = rounds;
        win = blas_core_decide(t, n, &clear);
        if (win < 0 || (rounds >= BLAS_TRIAL_MIN_ROUNDS &&
                        (clear || now_ms() - start > BLAS_TRIAL_BUDGET_S * 1e3)))
            break;
    }
    log[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t len = strlen(log);
        cand_end(&p[i], 1);
        if (t[i].ok)
            snprintf(log + len, loglen - len, "%s%s %.1f ms", len ? ", " : "", cand[i],
                     blas_trial_median(&t[i]));
        else
            snprintf(log + len, loglen - len, "%s%s %s", len ? ", " : "", cand[i], p[i].why);
    }
    size_t len = strlen(log);
    snprintf(log + len, loglen - len, " (median of %d interleaved rounds%s)", rounds,
             win >= 0 && !clear ? "; no clear winner: the newest within noise" : "");
    return win;
}
