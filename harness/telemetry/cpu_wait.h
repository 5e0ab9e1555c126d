/* cpu_wait.h — whether the CPU was shared while a row was timed: the time this process's threads
 * waited for a core, read from the kernel's scheduler statistics.
 *
 * /proc/self/task/TID/schedstat holds three numbers per thread: the time it ran on a core (ns),
 * the time it waited runnable on a run queue (ns, the "run delay") and its time slices. The
 * runner reads every thread's at the start and at the end of a row's timed repetitions: the
 * timing thread, the pinned pool's workers and OpenBLAS's threads alike. /proc/stat gives the
 * machine's steal time (a VM's vCPU held off by the host) and procs_running (the runnable tasks
 * of the whole machine).
 *
 * The figure (docs/measurement.md, "A shared CPU"): the longest any one thread waited for a core
 * during the window, as a share of it — a row's repetitions end when their slowest thread does
 * (the pool and OpenBLAS join at the end of every run), so the most delayed thread is the one
 * that cost the row its time; a mean over threads would halve it whenever the timing thread
 * sleeps while its worker waits —
 *     W = max over threads of Δwait_ns / wall_ns,
 * and of the rest, the share the VM's host stole (S = Δsteal / Δall of /proc/stat's cpu line):
 *     cpu_wait_pct = 100 × (W + (1 − W) × S), at most 100,
 * and 0 when no other process's task was runnable at the window's start or end and nothing was
 * stolen: then the wait was this process's own threads' (the pool's caller and its workers on
 * the same cores), not a shared CPU.
 * A row pays one walk of /proc/self/task, two small reads per thread, a read of each working
 * thread's state at the end, and /proc/loadavg (/proc/stat twice on a VM): tens of µs, outside
 * the timed repetitions (tests/telemetry/test_cpu_wait.c prints the figure).
 */
#ifndef GPUBENCH_CPU_WAIT_H
#define GPUBENCH_CPU_WAIT_H

#include <stddef.h>

#include "harness/core/result.h" /* CPU_WAIT_SHARED_PCT */

enum { CPU_WAIT_MAX_THREADS = 512 };

/* A thread counts as working when it ran or waited at least this share of the window (for the
 * runnable tasks of other processes: ours that worked may be runnable at the end). */
#define CPU_WAIT_WORKING 0.10

/* One thread's counters. */
struct cpu_wait_thread {
    int tid;
    double run_ns, wait_ns;
};

/* The machine's counters of /proc/stat. */
struct cpu_wait_stat {
    double steal, all; /* the cpu line's steal and the sum of its first 8 fields, in ticks */
    int running;       /* procs_running, -1 unread */
};

/* A window in progress. */
struct cpu_wait {
    int ok;       /* 0: the threads' counters could not be read (no schedstat: unknown) */
    int self_tid; /* the timing thread */
    double t0_ns; /* CLOCK_MONOTONIC at begin */
    int n;
    struct cpu_wait_thread th[CPU_WAIT_MAX_THREADS];
    int vm;                 /* a virtual machine: steal time read */
    struct cpu_wait_stat st; /* at begin (a VM's only) */
    int others0;             /* other processes' runnable tasks at begin, -1 unread */
};

/* Start a window (just before the first timed repetition). */
void cpu_wait_begin(struct cpu_wait *c);

/* End it (right after the last timed repetition): *pct the share of the window lost to waiting
 * for a core (percent, < 0 unknown), *others the runnable tasks of other processes at the end
 * (< 0 unknown). */
void cpu_wait_end(struct cpu_wait *c, double *pct, int *others);

/* The figure from two readings of the threads (a before, b after), the window's wall time, the
 * timing thread's id and the steal share s (0..1): the formula above, or -1 when wall_ns is not
 * positive or the timing thread is in neither reading. Pure: tests feed it numbers. */
double cpu_wait_share(const struct cpu_wait_thread *a, int na, const struct cpu_wait_thread *b,
                      int nb, int self_tid, double wall_ns, double steal);

/* Read the threads of `task_dir` (a /proc/PID/task folder) into th (at most max). Returns how
 * many, or -1 when the folder or a thread's schedstat cannot be read. */
int cpu_wait_read_threads(const char *task_dir, struct cpu_wait_thread *th, int max);

/* Read /proc/stat's text in `text` (the cpu line and procs_running). Returns 0, or -1 when the
 * cpu line is missing. */
int cpu_wait_parse_stat(const char *text, struct cpu_wait_stat *s);

/* The note for a row above CPU_WAIT_SHARED_PCT: "CPU shared: 41% of the timed time waiting for a
 * core (3 other runnable tasks)"; "" at or below it or when unknown. */
void cpu_wait_note(double pct, int others, char *out, size_t len);

#endif
