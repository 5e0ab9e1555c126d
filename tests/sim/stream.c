/* stream.c — streams as FIFOs run by worker threads, and events. Test-only code; see sim.h.
 *
 * Each stream has one worker thread that runs its operations in order; the host thread that
 * queued them goes on at once, as with a GPU. A broken device (sticky error) skips the work of
 * later operations but still runs their markers, so that nobody waits forever on an event.
 * Everything shared is under the big lock; operations run without it.
 *
 * Staged faults (stage.c): device work that GPUBENCH_SIM_HANG names holds its stream's worker
 * for good (the stream is `hung`: nothing after it runs, nothing waits on it with a timeout or
 * exits 86, and the exit-time join leaves it); work GPUBENCH_SIM_TRAP names is not done and
 * breaks the device with cudaErrorIllegalAddress, as a kernel's illegal address does.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/sim/sim.h"

static pthread_cond_t progress = PTHREAD_COND_INITIALIZER; /* an operation finished */
static struct gbsim_stream *streams;                       /* every stream not yet reaped */
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

pthread_cond_t *gbsim_progress(void) {
    return &progress;
}

/* GPUBENCH_SIM_OP_MS=<ms>: every operation takes exactly that long as the events see it: a
 * per-stream clock that each operation (not an event marker) advances, instead of the host's
 * clock. Timing is then the same in every run, and so are the runner's time-dependent choices
 * (how many runs a batch has): the fault sweep needs the same calls in every run. 0: off. */
static double op_ms = -1;

static double fixed_op_ms(void) {
    if (op_ms < 0) { /* first use is under the big lock */
        const char *v = getenv("GPUBENCH_SIM_OP_MS");
        op_ms = v && *v ? atof(v) : 0;
        op_ms = op_ms > 0 ? op_ms : 0;
    }
    return op_ms;
}

static cudaError_t run_record(struct gbsim_op *op, int broken);

/* GPUBENCH_SIM_QUEUE_DEPTH=<n>: how many operations a stream holds queued or running (sim.h,
 * gbsim_enqueue); 1024 by default, like a real device's pending-launch queue. */
static long queue_depth;

static long depth(void) {
    if (queue_depth == 0) { /* first use is under the big lock */
        const char *v = getenv("GPUBENCH_SIM_QUEUE_DEPTH");
        queue_depth = v && *v ? atol(v) : 1024;
        queue_depth = queue_depth > 0 ? queue_depth : 1024;
    }
    return queue_depth;
}

/* --- the pace ---------------------------------------------------------------------------------
 * gpubench times a row's kernel-only samples between two events (device time) and its end-to-end
 * samples on the host clock around upload, run and download. On a card the end-to-end time is
 * the longer: it holds the same kernels and the copies. Here both are the wall time of a CPU
 * emulation that another process's load stretches at random, and the two are different samples
 * taken at different times: a quiet moment during the end-to-end loop gave medians below the
 * kernel-only one (20–30% of a --quick run's GPU rows). So an operation run outside a timed
 * span (no timing event's marker open on its stream: the end-to-end loop, warm-up, the verified
 * run) takes at least as long as the most the same operation (gbsim_pace_key) was charged
 * inside one: it waits out the difference. The kernel-only samples are untouched, their
 * operations' charges add up to each whole span (pace_charge), and the end-to-end loop, which
 * runs after them, so takes no less than the longest kernel-only sample. */
enum { PACE_SLOTS = 4096 };
static struct {
    unsigned long long key;
    double max_ms; /* the longest inside a timed span */
} pace[PACE_SLOTS];

unsigned long long gbsim_pace_key(const void *fn, const long long *v, int n) {
    unsigned long long h = 1469598103934665603ull ^ (unsigned long long)(uintptr_t)fn;
    for (int i = 0; i < n; i++)
        h = (h ^ (unsigned long long)v[i]) * 1099511628211ull;
    return h ? h : 1;
}

/* The slot of key (found or claimed), or NULL when the table is full. Under the big lock. */
static double *pace_slot(unsigned long long key) {
    for (unsigned i = 0, at = (unsigned)(key % PACE_SLOTS); i < PACE_SLOTS; i++) {
        unsigned j = (at + i) % PACE_SLOTS;
        if (pace[j].key == key || pace[j].key == 0) {
            pace[j].key = key;
            return &pace[j].max_ms;
        }
    }
    return NULL;
}

/* Inside a span an operation is charged its time since the span's previous operation or
 * marker ended, so that a span's charges add up to the whole span, gaps included (the worker
 * descheduled between two kernels by another process); the gap before the closing marker goes
 * to the span's last operation (pace_marker). */
static void pace_charge(unsigned long long key, double ms) {
    double *max = key ? pace_slot(key) : NULL;
    if (max && ms > *max)
        *max = ms;
}

/* A timing marker ran on st at `now` (run_record, under the big lock): it opens a span, or
 * closes one and charges its last operation the gap before it. */
static void pace_marker(struct gbsim_stream *st, const struct gbsim_event *e, double now) {
    if (st->span && st->span != e) { /* closes */
        pace_charge(st->span_key, st->span_charge + (now - st->span_last_ms));
        st->span = NULL;
    } else {
        st->span = e;
    }
    st->span_key = 0;
    st->span_last_ms = now;
}

/* After op ran from t0 to t1 on st: inside a timed span, remember what it was charged; outside
 * one, wait until it has taken at least the most it was ever charged. Called without the big
 * lock. */
static void pace_op(struct gbsim_stream *st, const struct gbsim_op *op, double t0, double t1) {
    if (op->hold_release || fixed_op_ms() > 0)
        return;
    double wait = 0;
    gbsim_lock();
    if (st->span) {
        st->span_key = op->pace_key;
        st->span_charge = t1 - st->span_last_ms;
        st->span_last_ms = t1;
        pace_charge(op->pace_key, st->span_charge);
    } else if (op->pace_key) {
        double *max = pace_slot(op->pace_key);
        wait = max ? *max - (t1 - t0) : 0;
    }
    gbsim_unlock();
    if (wait > 0) {
        struct timespec t = {(time_t)(wait / 1e3), (long)(fmod(wait, 1e3) * 1e6)};
        while (nanosleep(&t, &t) != 0 && errno == EINTR) {
        }
    }
}

static void *worker(void *arg) {
    struct gbsim_stream *st = arg;
    gbsim_lock();
    for (;;) {
        struct gbsim_op *op;
        cudaError_t err, broken;
        while (!st->head && !st->quit)
            pthread_cond_wait(&st->wake, gbsim_big_lock());
        if (!st->head)
            break;
        op = st->head;
        st->head = op->next;
        if (!st->head)
            st->tail = NULL;
        st->busy = 1;
        st->running = op;
        broken = st->dev->sticky;
        if (op->stage == GBSIM_STAGE_HANG && broken == cudaSuccess) /* a broken device runs no
                                                                       work: nothing to hang */
            __atomic_store_n(&st->hung, 1, __ATOMIC_RELEASE);
        gbsim_unlock();
        if (st->hung)
            gbsim_stage_hang(st->dev, op->name); /* never returns */
        if (op->stage == GBSIM_STAGE_TRAP && broken == cudaSuccess) {
            op->run(op, 1); /* the work is not done, its bookkeeping is (the hold count) */
            err = gbsim_stage_trap(st->dev, op->name);
        } else {
            double t0 = gbsim_now_ms();
            err = op->run(op, broken != cudaSuccess);
            if (broken == cudaSuccess && err == cudaSuccess && op->run != run_record)
                pace_op(st, op, t0, gbsim_now_ms());
        }
        if (err != cudaSuccess && broken == cudaSuccess)
            gbsim_break(st->dev, err);
        gbsim_lock();
        if (op->run != run_record)
            st->vclock_ms += fixed_op_ms();
        st->busy = 0;
        st->running = NULL;
        st->pending--;
        if (op->waited) {
            op->done = 1; /* the waiting host thread frees it */
        } else if (op->free) {
            op->free(op);
        } else {
            free(op);
        }
        pthread_cond_broadcast(&progress);
    }
    st->exited = 1;
    pthread_cond_broadcast(&progress);
    gbsim_unlock();
    return NULL;
}

/* At exit: stop every worker (they are idle when the program synchronized before exiting). */
static void stop_workers(void) {
    struct gbsim_stream *st;
    gbsim_lock();
    for (st = streams; st; st = st->next_all) {
        st->quit = 1;
        pthread_cond_signal(&st->wake);
    }
    gbsim_unlock();
    for (st = streams; st; st = st->next_all)
        if (!st->joined && !__atomic_load_n(&st->hung, __ATOMIC_ACQUIRE)) { /* hung: for good */
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            t.tv_sec += 2; /* a worker stuck in a spinning kernel is left behind */
            if (pthread_timedjoin_np(st->thread, NULL, &t) == 0)
                st->joined = 1;
        }
    gbsim_lock();
    while (streams && streams->joined) {
        struct gbsim_stream *next = streams->next_all;
        pthread_cond_destroy(&streams->wake);
        free(streams);
        streams = next;
    }
    gbsim_unlock();
}

static void register_exit(void) {
    atexit(stop_workers);
}

struct gbsim_stream *gbsim_stream_new(struct gbsim_device *d, unsigned flags, cudaError_t *err) {
    struct gbsim_stream *st = calloc(1, sizeof *st);
    pthread_once(&exit_once, register_exit);
    if (!st) {
        *err = cudaErrorMemoryAllocation;
        return NULL;
    }
    st->dev = d;
    st->flags = flags;
    st->magic = GBSIM_STREAM_MAGIC;
    pthread_cond_init(&st->wake, NULL);
    if (pthread_create(&st->thread, NULL, worker, st) != 0) {
        pthread_cond_destroy(&st->wake);
        free(st);
        *err = cudaErrorMemoryAllocation;
        return NULL;
    }
    gbsim_lock();
    st->next_all = streams;
    streams = st;
    gbsim_unlock();
    *err = cudaSuccess;
    return st;
}

/* Destroyed streams keep their worker until the queue drains; the structure stays listed (and is
 * freed at exit) so that a stale handle is recognised as dead rather than read after free. */
void gbsim_stream_destroy(struct gbsim_stream *st) {
    gbsim_lock();
    st->magic = GBSIM_STREAM_DEAD;
    st->quit = 1;
    pthread_cond_signal(&st->wake);
    gbsim_unlock();
}

struct gbsim_stream *gbsim_stream_of(cudaStream_t s, struct gbsim_device *cur, cudaError_t *err) {
    struct gbsim_stream *st;
    *err = cudaSuccess;
    /* 0, cudaStreamLegacy and cudaStreamPerThread: the device's default stream */
    if (s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread) {
        gbsim_lock();
        st = cur->null_stream;
        gbsim_unlock();
        if (!st) {
            st = gbsim_stream_new(cur, 0, err);
            if (!st)
                return NULL;
            gbsim_lock();
            if (cur->null_stream) { /* another thread was first: keep one */
                st->magic = GBSIM_STREAM_DEAD;
                st->quit = 1;
                pthread_cond_signal(&st->wake);
                st = cur->null_stream;
            } else {
                cur->null_stream = st;
            }
            gbsim_unlock();
        }
        return st;
    }
    gbsim_lock();
    for (st = streams; st; st = st->next_all)
        if ((cudaStream_t)st == s)
            break;
    if (!st || st->magic != GBSIM_STREAM_MAGIC) {
        gbsim_unlock();
        *err = cudaErrorInvalidResourceHandle;
        return NULL;
    }
    gbsim_unlock();
    return st;
}

struct gbsim_device *gbsim_stream_device(const struct gbsim_stream *st) {
    return st->dev;
}

/* A full queue that cannot drain: the operation running is a hold nobody has released. Called
 * under the big lock by the host thread blocked on the full queue. */
static void stalled(const struct gbsim_stream *st) {
    const struct gbsim_op *r = st->running;
    if (st->hung || !r || !r->hold_release || *r->hold_release != 0)
        return;
    fprintf(stderr,
            "gbsim: cuda:%d: deadlock: launch queue full (%d operations, "
            "GPUBENCH_SIM_QUEUE_DEPTH %ld) behind a kernel waiting on the host (%s spins on a "
            "host-mapped flag that only the blocked host thread would set); a real card would "
            "wait out the hold's timeout\n",
            st->dev->ordinal, st->pending, depth(), GBSIM_HOLD_KERNEL);
    fflush(stderr);
    _exit(GBSIM_EXIT_STALL);
}

void gbsim_enqueue(struct gbsim_stream *st, struct gbsim_op *op, int wait) {
    op->next = NULL;
    op->done = 0;
    op->waited = wait;
    op->dev = st->dev;
    op->stage = op->name ? gbsim_stage_of(op->name) : GBSIM_STAGE_NONE;
    gbsim_lock();
    while (st->pending >= depth() && !st->exited) {
        /* the worker broadcasts when an operation ends, not when one starts: look again soon */
        struct timespec t;
        if (st->hung) { /* nothing ends: wait as a host thread behind a hung kernel does */
            pthread_cond_wait(&progress, gbsim_big_lock());
            continue;
        }
        stalled(st);
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += 20 * 1000000L;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&progress, gbsim_big_lock(), &t);
    }
    st->pending++;
    if (st->tail)
        st->tail->next = op;
    else
        st->head = op;
    st->tail = op;
    pthread_cond_signal(&st->wake);
    if (wait) {
        while (!op->done)
            pthread_cond_wait(&progress, gbsim_big_lock());
        gbsim_unlock();
        if (op->free)
            op->free(op);
        else
            free(op);
        return;
    }
    gbsim_unlock();
}

static int idle(const struct gbsim_stream *st) {
    return !st->head && !st->busy;
}

void gbsim_stream_drain(struct gbsim_stream *st) {
    gbsim_lock();
    while (!idle(st))
        pthread_cond_wait(&progress, gbsim_big_lock());
    gbsim_unlock();
}

static void drain_where(const struct gbsim_device *d) {
    gbsim_lock();
    for (;;) {
        struct gbsim_stream *st;
        int busy = 0;
        for (st = streams; st && !busy; st = st->next_all)
            if ((!d || st->dev == d) && !st->exited && !idle(st))
                busy = 1;
        if (!busy)
            break;
        pthread_cond_wait(&progress, gbsim_big_lock());
    }
    gbsim_unlock();
}

void gbsim_device_drain(struct gbsim_device *d) {
    drain_where(d);
}

void gbsim_all_drain(void) {
    drain_where(NULL);
}

int gbsim_stream_idle(struct gbsim_stream *st) {
    int r;
    gbsim_lock();
    r = idle(st);
    gbsim_unlock();
    return r;
}

/* --- events ----------------------------------------------------------------------------------- */
static struct gbsim_event *events;

struct gbsim_event *gbsim_event_new(struct gbsim_device *d, unsigned flags) {
    struct gbsim_event *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->dev = d;
    e->flags = flags;
    e->magic = GBSIM_EVENT_MAGIC;
    gbsim_lock();
    e->next_all = events;
    events = e;
    gbsim_unlock();
    return e;
}

struct gbsim_event *gbsim_event_of(cudaEvent_t h) {
    struct gbsim_event *e;
    gbsim_lock();
    for (e = events; e; e = e->next_all)
        if ((cudaEvent_t)e == h && e->magic == GBSIM_EVENT_MAGIC)
            break;
    gbsim_unlock();
    return e;
}

/* Destroyed events stay listed, marked dead (a queued marker may still complete them). */
void gbsim_event_destroy(struct gbsim_event *e) {
    gbsim_lock();
    e->magic = GBSIM_EVENT_DEAD;
    gbsim_unlock();
}

struct record_op {
    struct gbsim_op op;
    struct gbsim_event *e;
    struct gbsim_stream *st;
    long seq;
};

static cudaError_t run_record(struct gbsim_op *op, int broken) {
    struct record_op *r = (struct record_op *)op;
    double now = gbsim_now_ms();
    (void)broken; /* markers complete even on a broken device: nobody may wait forever */
    gbsim_lock();
    if (fixed_op_ms() > 0)
        now = r->st->vclock_ms;
    if (r->seq > r->e->completed) {
        r->e->completed = r->seq;
        r->e->t_ms = now;
    }
    if (!(r->e->flags & cudaEventDisableTiming)) /* a span opens at one timing event, ends at
                                                   another's marker (the pace) */
        pace_marker(r->st, r->e, now);
    gbsim_unlock();
    return cudaSuccess;
}

cudaError_t gbsim_event_record(struct gbsim_event *e, struct gbsim_stream *st) {
    struct record_op *r = calloc(1, sizeof *r);
    if (!r)
        return cudaErrorMemoryAllocation;
    r->op.run = run_record;
    r->e = e;
    r->st = st;
    gbsim_lock();
    r->seq = ++e->recorded;
    gbsim_unlock();
    gbsim_enqueue(st, &r->op, 0);
    return cudaSuccess;
}

int gbsim_event_complete(struct gbsim_event *e) {
    int c;
    gbsim_lock();
    c = e->completed >= e->recorded;
    gbsim_unlock();
    return c;
}

void gbsim_event_wait(struct gbsim_event *e) {
    gbsim_lock();
    while (e->completed < e->recorded)
        pthread_cond_wait(&progress, gbsim_big_lock());
    gbsim_unlock();
}
