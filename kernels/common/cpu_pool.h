/* cpu_pool.h — a fixed pool of worker threads, each pinned to one core, for our threaded loops.
 *
 * Why our own pool and not OpenMP: Debian's OpenBLAS runs its own pthreads; an OpenMP runtime
 * would spin on the same cores between parallel regions. Idle workers here block on a condition
 * variable, so they leave the cores to OpenBLAS between our loops.
 */
#ifndef GPUBENCH_CPU_POOL_H
#define GPUBENCH_CPU_POOL_H

#include <stddef.h>

/* The work of one thread: `tid` in [0, nthreads). */
typedef void (*pool_fn)(void *arg, int tid, int nthreads);

/* Pins thread `tid` (called once on each thread as it starts; thread 0 is the caller). */
typedef void (*pool_bind_fn)(void *arg, int tid);

/* Start `nthreads` - 1 workers (the caller is thread 0). `bind` may be NULL; the harness passes
 * one that pins each thread to a core through its hwloc topology (loaded once, not here).
 * Returns 0, or -1 with errno set. Calling it again restarts the pool. */
int pool_start(int nthreads, pool_bind_fn bind, void *bind_arg);

/* Run fn(arg, tid, n) on every thread of the pool and wait for all of them. Thread 0 is the
 * caller. Without a started pool, runs fn(arg, 0, 1) inline. */
void pool_run(pool_fn fn, void *arg);

/* Number of threads pool_run uses (1 when not started). */
int pool_threads(void);

/* Stop and join the workers. */
void pool_stop(void);

/* Split [0, n) into `parts` contiguous ranges and give the `i`-th as [*lo, *hi), with range
 * starts aligned to `align` elements (so each thread's first element is cache-line aligned). */
void pool_range(size_t n, int parts, int i, size_t align, size_t *lo, size_t *hi);

#endif
