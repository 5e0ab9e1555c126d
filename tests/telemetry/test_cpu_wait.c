/* test_cpu_wait.c — the shared-CPU figure of harness/telemetry/cpu_wait.c: the formula on
 * numbers, the readers on a fake task folder and /proc/stat text, the note, and one window of
 * this process read for real (a percentage, whatever the machine's load) with its cost. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/telemetry/cpu_wait.h"
#include "tests/testhelp.h"

static int near(double a, double b) {
    return fabs(a - b) < 1e-9;
}

/* The formula: the most delayed thread's wait over the window, steal on the rest. */
static void test_share(void) {
    const double wall = 1e9;
    /* one thread (the timer) that waited 400 ms of a 1 s window */
    struct cpu_wait_thread a1[] = {{10, 5e9, 1e9}}, b1[] = {{10, 5.6e9, 1.4e9}};
    CHECK(near(cpu_wait_share(a1, 1, b1, 1, 10, wall, 0), 0.4));
    /* with a steal share of 0.5 on the 60% it ran: 0.4 + 0.6 × 0.5 */
    CHECK(near(cpu_wait_share(a1, 1, b1, 1, 10, wall, 0.5), 0.7));
    /* the timer asleep in a condition wait while its pool worker waits 900 ms for a core: the
     * row lost 90%, not the 45% a mean over the two would say; a sampler is never the most */
    struct cpu_wait_thread a3[] = {{10, 0, 0}, {11, 0, 0}, {12, 0, 0}, {13, 0, 0}};
    struct cpu_wait_thread b3[] = {{10, 1e6, 0}, {11, 1e8, 9e8}, {12, 5e8, 2e8}, {13, 1e6, 1e5}};
    CHECK(near(cpu_wait_share(a3, 4, b3, 4, 10, wall, 0), 0.9));
    /* a thread born in the window counts from zero; one that ended is not read */
    struct cpu_wait_thread b4[] = {{10, 7e8, 3e8}, {14, 2e8, 6e8}};
    CHECK(near(cpu_wait_share(a3, 4, b4, 2, 10, wall, 0), 0.6));
    /* capped at 100%; steal outside 0..1 clamped */
    struct cpu_wait_thread b5[] = {{10, 0, 3e9}};
    CHECK(near(cpu_wait_share(a3, 1, b5, 1, 10, wall, 2), 1));
    CHECK(near(cpu_wait_share(a1, 1, b1, 1, 10, wall, -1), 0.4));
    /* unknown: no wall time, or the timing thread in neither reading */
    CHECK(cpu_wait_share(a1, 1, b1, 1, 10, 0, 0) < 0);
    CHECK(cpu_wait_share(a1, 1, b1, 1, 99, wall, 0) < 0);
}

static void test_stat(void) {
    struct cpu_wait_stat s;
    CHECK(cpu_wait_parse_stat("cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 1 2 3 4\n"
                              "intr 1 2\nprocs_running 7\nprocs_blocked 0\n",
                              &s) == 0);
    CHECK(near(s.all, 1000) && near(s.steal, 35) && s.running == 7);
    /* an old kernel's four fields: no steal, procs_running unknown */
    CHECK(cpu_wait_parse_stat("cpu  100 0 50 850\n", &s) == 0);
    CHECK(near(s.all, 1000) && near(s.steal, 0) && s.running == -1);
    CHECK(cpu_wait_parse_stat("intr 1\n", &s) == -1);
}

static void put(const char *dir, const char *tid, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, tid);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(path, sizeof path, "%s/%s/schedstat", dir, tid);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_threads(void) {
    char dir[] = "/tmp/gb_tasks_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    put(dir, "41", "1000 250 7\n");
    put(dir, "42", "5 6 1\n");
    struct cpu_wait_thread th[4];
    int n = cpu_wait_read_threads(dir, th, 4);
    CHECK_MSG(n == 2, "%d threads", n);
    double wait41 = -1;
    for (int i = 0; i < n; i++)
        if (th[i].tid == 41)
            wait41 = th[i].wait_ns;
    CHECK(near(wait41, 250));
    put(dir, "43", "garbage\n"); /* a schedstat of another form: unknown, not a wrong figure */
    CHECK(cpu_wait_read_threads(dir, th, 4) == -1);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    CHECK(cpu_wait_read_threads("/nonexistent/task", th, 4) == -1);
}

static void test_note(void) {
    char note[160];
    cpu_wait_note(41.4, 3, note, sizeof note);
    CHECK_MSG(!strcmp(note, "CPU shared: 41% of the timed time waiting for a core (3 other "
                            "runnable tasks)"),
              "%s", note);
    cpu_wait_note(55, 1, note, sizeof note);
    CHECK_MSG(strstr(note, "(1 other runnable task)") != NULL, "%s", note);
    cpu_wait_note(55, -1, note, sizeof note);
    CHECK_MSG(!strcmp(note, "CPU shared: 55% of the timed time waiting for a core"), "%s", note);
    cpu_wait_note(CPU_WAIT_SHARED_PCT, 3, note, sizeof note); /* at the threshold: not shared */
    CHECK(note[0] == '\0');
    cpu_wait_note(-1, 3, note, sizeof note);
    CHECK(note[0] == '\0');
}

/* This process, for real: a percentage (its size depends on the machine's load: not checked),
 * and what a row pays for it (µs of CPU and of wall time, printed beside the energy reads'
 * figure of test_telemetry cost, never checked: tests assert no timing). */
static void test_live(void) {
    if (access("/proc/self/schedstat", R_OK) != 0) {
        printf("no /proc/self/schedstat: the live window is unknown here\n");
        return;
    }
    static struct cpu_wait c;
    double pct;
    int others;
    enum { ROWS = 2000 };
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    for (int i = 0; i < ROWS; i++) {
        cpu_wait_begin(&c);
        cpu_wait_end(&c, &pct, &others);
        CHECK_MSG(pct >= 0 && pct <= 100, "%g%%", pct);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) * 1e-3) / ROWS;
    double cpu = ((double)(c1.tv_sec - c0.tv_sec) * 1e6 + (c1.tv_nsec - c0.tv_nsec) * 1e-3) / ROWS;
    /* printed, not checked: a time under load is the machine's, and tests assert no timing */
    printf("shared-CPU reading per row (1 thread, begin + end): %.2f us of CPU time, %.2f us of "
           "wall time = %.5f%% of a 0.05 s row; last window %.1f%%, other runnable tasks %d\n",
           cpu, us, us / 5e2, pct, others);
    CHECK(others >= 0);
}

int main(void) {
    test_share();
    test_stat();
    test_threads();
    test_note();
    test_live();
    return TEST_END();
}
