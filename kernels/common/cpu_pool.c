/* cpu_pool.c — a fixed pool of pinned worker threads (see cpu_pool.h for why not OpenMP). */
#include "kernels/common/cpu_pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

enum { POOL_MAX = 256 };

static struct {
    int n;                   /* threads including the caller; 0 = not started */
    pthread_t tid[POOL_MAX];
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long generation; /* bumped for every pool_run */
    int pending;              /* workers still running the current job */
    int quit;
    pool_fn fn;
    void *arg;
    pool_bind_fn bind;
    void *bind_arg;
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
          .go = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

struct worker_arg {
    int id;
};
static struct worker_arg worker_args[POOL_MAX];

static void *worker_main(void *p) {
    int id = ((struct worker_arg *)p)->id;
    if (pool.bind)
        pool.bind(pool.bind_arg, id);
    unsigned long seen = 0;
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        while (!pool.quit && pool.generation == seen)
            pthread_cond_wait(&pool.go, &pool.mu);
        if (pool.quit)
            break;
        seen = pool.generation;
        pool_fn fn = pool.fn;
        void *arg = pool.arg;
        int n = pool.n;
        pthread_mutex_unlock(&pool.mu);
        fn(arg, id, n);
        pthread_mutex_lock(&pool.mu);
        if (--pool.pending == 0)
            pthread_cond_signal(&pool.done);
    }
    pthread_mutex_unlock(&pool.mu);
    return NULL;
}

static void pool_noop(void *arg, int tid, int nthreads) { (void)arg, (void)tid, (void)nthreads; }

int pool_start(int nthreads, pool_bind_fn bind, void *bind_arg) {
    pool_stop();
    if (nthreads < 1 || nthreads > POOL_MAX) {
        errno = EINVAL;
        return -1;
    }
    pool.quit = 0;
    pool.generation = 0;
    pool.bind = bind;
    pool.bind_arg = bind_arg;
    /* The caller is thread 0: pin it too, so its share of every loop stays on its core. */
    if (bind)
        bind(bind_arg, 0);
    pool.n = 1;
    for (int i = 1; i < nthreads; i++) {
        worker_args[i].id = i;
        int rc = pthread_create(&pool.tid[i], NULL, worker_main, &worker_args[i]);
        if (rc != 0) {
            pool.n = i; /* stop what started */
            pool_stop();
            errno = rc;
            return -1;
        }
        pool.n = i + 1;
    }
    pool_run(pool_noop, NULL); /* returns once every worker is up and pinned */
    return 0;
}

void pool_run(pool_fn fn, void *arg) {
    if (pool.n <= 1) {
        fn(arg, 0, 1);
        return;
    }
    pthread_mutex_lock(&pool.mu);
    pool.fn = fn;
    pool.arg = arg;
    pool.pending = pool.n - 1;
    pool.generation++;
    pthread_cond_broadcast(&pool.go);
    pthread_mutex_unlock(&pool.mu);
    fn(arg, 0, pool.n);
    pthread_mutex_lock(&pool.mu);
    while (pool.pending > 0)
        pthread_cond_wait(&pool.done, &pool.mu);
    pthread_mutex_unlock(&pool.mu);
}

int pool_threads(void) { return pool.n > 0 ? pool.n : 1; }

void pool_stop(void) {
    if (pool.n > 1) {
        pthread_mutex_lock(&pool.mu);
        pool.quit = 1;
        pthread_cond_broadcast(&pool.go);
        pthread_mutex_unlock(&pool.mu);
        for (int i = 1; i < pool.n; i++)
            pthread_join(pool.tid[i], NULL);
    }
    pool.bind = NULL;
    pool.n = 0;
    pool.quit = 0;
}

void pool_range(size_t n, int parts, int i, size_t align, size_t *lo, size_t *hi) {
    if (parts < 1)
        parts = 1;
    if (align < 1)
        align = 1;
    size_t blocks = (n + align - 1) / align; /* split whole aligned blocks */
    size_t per = blocks / (size_t)parts, extra = blocks % (size_t)parts;
    size_t b0 = (size_t)i * per + ((size_t)i < extra ? (size_t)i : extra);
    size_t b1 = b0 + per + ((size_t)i < extra ? 1 : 0);
    *lo = b0 * align < n ? b0 * align : n;
    *hi = b1 * align < n ? b1 * align : n;
}
