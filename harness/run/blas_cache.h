/* blas_cache.h — the remembered choices of OpenBLAS's core (blas_core.h): one file,
 * $XDG_CACHE_HOME/gpubench/blas-core (else ~/.cache/gpubench/blas-core), one line per key:
 *
 *     KEY \t CORE \t PROVED \t STRUCK
 *
 * KEY starts with the OpenBLAS library file's identity, "PATH|SIZE|MTIME|", then what else tells
 * machines and libraries apart (blas_core.c). CORE is the trial's winner, PROVED the Unix time of
 * the trial that chose it, STRUCK the cores a gemm row verified wrong here ("Haswell,Zen", "-"
 * for none). Every write rewrites the file whole (a new file renamed over the old): the key's
 * line replaced, the lines of library files that are gone or changed dropped, and at most
 * BLAS_CACHE_MAX_LINES kept, so the file never grows without bound. A lock file beside it
 * (blas-core.lock, flock) makes processes started together share one decision: the first runs
 * the trial, the others wait and read its answer.
 */
#ifndef GPUBENCH_BLAS_CACHE_H
#define GPUBENCH_BLAS_CACHE_H

#include <stddef.h>

enum { BLAS_CACHE_MAX_LINES = 64 };

struct blas_memo {
    char core[32];    /* "" when the key has no winner yet (only struck cores) */
    long long proved; /* Unix time of the trial that chose core */
    char struck[160]; /* "Haswell,Zen"; "" for none */
};

/* The cache file's path into out ("" when neither XDG_CACHE_HOME nor HOME is set). */
void blas_cache_path(char *out, size_t len);

/* Take the lock beside `path` (creating its folder), waiting up to wait_s seconds for another
 * process's trial. Returns the lock's descriptor (close it to release), or -1 when the lock
 * cannot be had (unwritable folder, or the wait ran out): the caller goes on unlocked. */
int blas_cache_lock(const char *path, int wait_s);

/* The line for `key` in the file at `path` into m; 1 when found, 0 when not (m cleared). */
int blas_cache_get(const char *path, const char *key, struct blas_memo *m);

/* Replace the line for `key` with m (or add it), dropping stale lines as said above. Returns 0,
 * or -1 when the file cannot be written (a cache that cannot be written only costs the next run
 * another trial). */
int blas_cache_put(const char *path, const char *key, const struct blas_memo *m);

/* 1 when `core` is in the comma-separated list `struck` (case-insensitive). */
int blas_memo_struck(const struct blas_memo *m, const char *core);

#endif
