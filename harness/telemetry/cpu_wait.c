/* cpu_wait.c — the time this process's threads waited for a core while a row was timed
 * (cpu_wait.h). */
#include "harness/telemetry/cpu_wait.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The whole of a small file into buf (NUL-terminated); its length, or -1. */
static ssize_t slurp(const char *path, char *buf, size_t len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return n;
}

int cpu_wait_read_threads(const char *task_dir, struct cpu_wait_thread *th, int max) {
    DIR *d = opendir(task_dir);
    if (!d)
        return -1;
    int n = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < max) {
        char *end, path[320], buf[128];
        long tid = strtol(e->d_name, &end, 10);
        if (end == e->d_name || *end || tid <= 0)
            continue; /* "." and ".." */
        snprintf(path, sizeof path, "%s/%s/schedstat", task_dir, e->d_name);
        double run, wait;
        if (slurp(path, buf, sizeof buf) < 0) {
            continue; /* a thread that ended between readdir and open */
        }
        if (sscanf(buf, "%lf %lf", &run, &wait) != 2) {
            bad = 1;
            break;
        }
        th[n++] = (struct cpu_wait_thread){(int)tid, run, wait};
    }
    closedir(d);
    return bad || n == 0 ? -1 : n;
}

int cpu_wait_parse_stat(const char *text, struct cpu_wait_stat *s) {
    double f[8] = {0};
    s->running = -1;
    if (strncmp(text, "cpu ", 4) != 0 ||
        sscanf(text + 4, "%lf %lf %lf %lf %lf %lf %lf %lf", &f[0], &f[1], &f[2], &f[3], &f[4],
               &f[5], &f[6], &f[7]) < 4)
        return -1;
    s->all = 0;
    for (int i = 0; i < 8; i++)
        s->all += f[i]; /* user nice system idle iowait irq softirq steal (guest is in user) */
    s->steal = f[7];
    const char *p = strstr(text, "\nprocs_running ");
    if (p)
        s->running = atoi(p + 15);
    return 0;
}

/* Is this machine a virtual one (the CPU's "hypervisor" flag)? Only there is steal time read:
 * /proc/stat costs more to read than everything else here together. Read once. */
static int on_vm(void) {
    static int vm = -1;
    if (vm >= 0)
        return vm;
    vm = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5) || !strncmp(line, "Features", 8)) {
            vm = strstr(line, " hypervisor") != NULL;
            break;
        }
    if (f)
        fclose(f);
    return vm;
}

/* The machine's counters: on a VM /proc/stat (steal and procs_running), elsewhere only the
 * runnable tasks, from /proc/loadavg ("0.5 0.4 0.3 RUNNABLE/ALL LASTPID"). -1 when unreadable. */
static int read_stat(struct cpu_wait_stat *s, int vm) {
    char buf[8192];
    *s = (struct cpu_wait_stat){0, 0, -1};
    if (vm) /* the cpu line and procs_running: in the first 8 KiB up to about 60 cores */
        return slurp("/proc/stat", buf, sizeof buf) < 0 ? -1 : cpu_wait_parse_stat(buf, s);
    if (slurp("/proc/loadavg", buf, sizeof buf) < 0)
        return -1;
    double l1, l5, l15;
    return sscanf(buf, "%lf %lf %lf %d/", &l1, &l5, &l15, &s->running) == 4 ? 0 : -1;
}

/* Is thread tid of this process runnable now (state R in /proc/self/task/TID/stat)? */
static int runnable(int tid) {
    char path[96], buf[512];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    if (slurp(path, buf, sizeof buf) < 0)
        return 0;
    const char *close = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
    return close && close[1] == ' ' && close[2] == 'R';
}

static double mono_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

void cpu_wait_begin(struct cpu_wait *c) {
    c->self_tid = (int)syscall(SYS_gettid);
    c->n = cpu_wait_read_threads("/proc/self/task", c->th, CPU_WAIT_MAX_THREADS);
    c->ok = c->n > 0;
    c->vm = on_vm();
    struct cpu_wait_stat st;
    /* other processes' runnable tasks now: the machine's less ours that are (the reader, and a
     * pool worker or OpenBLAS thread that spins between runs) */
    c->others0 = -1;
    if (read_stat(&st, c->vm) == 0 && st.running >= 0) {
        int ours = 1;
        for (int i = 0; i < c->n; i++)
            ours += c->th[i].tid != c->self_tid && runnable(c->th[i].tid);
        c->others0 = st.running > ours ? st.running - ours : 0;
    }
    c->st = c->vm ? st : (struct cpu_wait_stat){0, 0, -1}; /* elsewhere: no steal to read */
    if (c->vm && c->others0 < 0)
        c->st = (struct cpu_wait_stat){0, 0, -1};
    c->t0_ns = mono_ns();
}

double cpu_wait_share(const struct cpu_wait_thread *a, int na, const struct cpu_wait_thread *b,
                      int nb, int self_tid, double wall_ns, double steal) {
    if (!(wall_ns > 0))
        return -1;
    double most = 0;
    int self_seen = 0;
    for (int j = 0; j < nb; j++) {
        double wait = b[j].wait_ns;
        for (int i = 0; i < na; i++)
            if (a[i].tid == b[j].tid) { /* else the thread started in the window: all of it */
                wait -= a[i].wait_ns;
                break;
            }
        self_seen |= b[j].tid == self_tid;
        most = wait > most ? wait : most; /* a sleeper waits for no core: it never leads */
    }
    if (!self_seen)
        return -1;
    double w = most / wall_ns;
    w = w > 1 ? 1 : w;
    double s = steal > 0 ? (steal < 1 ? steal : 1) : 0;
    return w + (1 - w) * s;
}

/* The threads of the window read again: those read at its start (the pool's, OpenBLAS's and a
 * library's threads start before any row; one started within the window is not counted). */
static int read_again(const struct cpu_wait *c, struct cpu_wait_thread *now) {
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        char path[96], buf[128];
        snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", c->th[i].tid);
        if (slurp(path, buf, sizeof buf) < 0)
            continue; /* it ended */
        now[n].tid = c->th[i].tid;
        if (sscanf(buf, "%lf %lf", &now[n].run_ns, &now[n].wait_ns) == 2)
            n++;
    }
    return n;
}

/* Runnable tasks of other processes at the end: the machine's less ours, the reader and every
 * thread that worked in the window and is runnable now (a thread asleep through the window is
 * asleep now). */
static int others_now(const struct cpu_wait *c, const struct cpu_wait_stat *s,
                      const struct cpu_wait_thread *now, int n, double wall) {
    if (s->running < 0)
        return -1;
    int ours = 1; /* the reader */
    for (int j = 0; j < n; j++) {
        if (now[j].tid == c->self_tid)
            continue;
        for (int i = 0; i < c->n; i++)
            if (c->th[i].tid == now[j].tid &&
                now[j].run_ns - c->th[i].run_ns + now[j].wait_ns - c->th[i].wait_ns >=
                    CPU_WAIT_WORKING * wall) {
                ours += runnable(now[j].tid);
                break;
            }
    }
    return s->running > ours ? s->running - ours : 0;
}

void cpu_wait_end(struct cpu_wait *c, double *pct, int *others) {
    double wall = mono_ns() - c->t0_ns;
    static struct cpu_wait_thread now[CPU_WAIT_MAX_THREADS]; /* rows are timed one at a time */
    struct cpu_wait_stat st;
    *pct = -1;
    *others = -1;
    int n = c->ok ? read_again(c, now) : 0;
    if (n <= 0)
        return;
    double steal = 0;
    if (read_stat(&st, c->vm) == 0) {
        double all = st.all - c->st.all;
        if (c->vm && c->st.running >= 0 && all > 0) /* no tick in the window: none seen */
            steal = (st.steal - c->st.steal) / all;
        *others = others_now(c, &st, now, n, wall);
    }
    double w = cpu_wait_share(c->th, c->n, now, n, c->self_tid, wall, steal);
    *pct = w >= 0 ? 100 * w : -1;
    /* Waiting with no other process's task runnable at the window's start or end and nothing
     * stolen is this process's own threads waiting for each other (the pool's caller and its
     * workers on the same cores), not a shared CPU: seen on an idle machine, 77–87% on the
     * pool's f64 vecadd row at --quick. It is not counted. */
    if (*pct > 0 && c->others0 == 0 && *others == 0 && !(steal > 0))
        *pct = 0;
}

void cpu_wait_note(double pct, int others, char *out, size_t len) {
    out[0] = '\0';
    if (!(pct > CPU_WAIT_SHARED_PCT))
        return;
    int n = snprintf(out, len, "CPU shared: %.0f%% of the timed time waiting for a core", pct);
    if (others >= 0 && n > 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, " (%d other runnable task%s)", others,
                 others == 1 ? "" : "s");
}
