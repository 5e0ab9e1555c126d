/* emu.c — the scheduler of the SIMT emulation (emu.h): blocks one at a time, a block's threads
 * as fibers run barrier to barrier in a chosen order. Test-only code.
 *
 * Fibers: each thread slot gets a stack and a ucontext once (makecontext + one setcontext, the
 * only calls that cost a system call: glibc saves and restores the signal mask in them); from
 * then on every switch is a _setjmp/_longjmp pair, which is what keeps a 256-thread SGEMM block
 * with its barriers in the milliseconds. A fiber runs a loop — park, run the kernel body of the
 * block, mark itself done, park again — so slots are reused from block to block and launch to
 * launch. _FORTIFY_SOURCE is undone here because glibc's checked longjmp refuses, by design, to
 * jump between stacks.
 */
#undef _FORTIFY_SOURCE
#include "tests/emu/emu.h"

#include <sched.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

/* Under AddressSanitizer every switch between the scheduler's stack and a fiber's is announced
 * (sanitizer/common_interface_defs.h), so that ASan knows which stack is running and does not
 * take a fiber's frames for overflows of the thread's stack. Nothing otherwise. */
#if defined(__SANITIZE_ADDRESS__)
#define EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMU_ASAN 1
#endif
#endif
#ifdef EMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
static const void *emu_sched_bottom; /* the scheduler's stack, learnt on the first switch */
static size_t emu_sched_size;
#define EMU_TO_STACK(save, bottom, size) __sanitizer_start_switch_fiber((save), (bottom), (size))
#define EMU_ON_STACK(save, from_sched)                                                             \
    __sanitizer_finish_switch_fiber((save), (from_sched) ? &emu_sched_bottom : NULL,              \
                                    (from_sched) ? &emu_sched_size : NULL)
#else
#define EMU_TO_STACK(save, bottom, size) ((void)0)
#define EMU_ON_STACK(save, from_sched) ((void)0)
#endif

enum { EMU_MAX_THREADS = 1024, EMU_STACK = 128 * 1024 };

enum emu_state { T_READY, T_AT_BARRIER, T_DONE };

struct emu_thread {
    ucontext_t ctx; /* only to enter the fiber the first time */
    jmp_buf start;  /* parked between blocks: resume here to run a block's body */
    jmp_buf resume; /* parked at a barrier */
    int made;       /* the fiber exists and is parked at `start` */
    int fresh;      /* this block's body has not started on it yet */
    uint3 idx;
    enum emu_state state;
    const char *bar_file; /* where it waits */
    int bar_line;
    void *asan_save; /* ASan's fake-stack handle while the fiber is parked */
};

uint3 emu_thread_idx, emu_block_idx, emu_block_dim, emu_grid_dim;

static struct emu_thread emu_threads[EMU_MAX_THREADS];
static struct emu_thread *emu_self;
static jmp_buf emu_sched;
static char *emu_stacks; /* EMU_MAX_THREADS stacks, mapped once, touched lazily */
#ifdef EMU_ASAN
static void *emu_sched_save;
#endif
static unsigned char *emu_dyn;
static size_t emu_dyn_bytes;
static void (*emu_body)(void *);
/* Bounds of the section holding every `__shared__` variable (emu.h), provided by the linker;
 * weak, so that a test whose kernels have none still links. */
extern unsigned char __start_gb_emu_shared[] __attribute__((weak));
extern unsigned char __stop_gb_emu_shared[] __attribute__((weak));
static void *emu_args;
static enum emu_failure emu_failure_last;
static const char *emu_trap_file; /* where the running launch trapped, or NULL */
static int emu_trap_line;

const char *emu_order_name(enum emu_order order) {
    static const char *const names[] = {"forward", "reverse", "shuffle"};
    return (unsigned)order < EMU_ORDERS ? names[order] : "?";
}

dim3 emu_dim3(unsigned x, unsigned y, unsigned z) {
    dim3 d;
    d.x = x;
    d.y = y;
    d.z = z;
    return d;
}

void emu_syncthreads(const char *file, int line) {
    struct emu_thread *t = emu_self;
    t->state = T_AT_BARRIER;
    t->bar_file = file;
    t->bar_line = line;
    if (_setjmp(t->resume) == 0) {
        EMU_TO_STACK(&t->asan_save, emu_sched_bottom, emu_sched_size);
        _longjmp(emu_sched, 1);
    }
    EMU_ON_STACK(emu_self->asan_save, 1);
}

void *emu_dynamic_shared(void) {
    return emu_dyn;
}

long emu_clock_khz = 1000000;

long long emu_clock64(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    sched_yield();
    return ((long long)ts.tv_sec * 1000000000LL + ts.tv_nsec) / 1000000 * emu_clock_khz +
           ((long long)ts.tv_nsec % 1000000) * emu_clock_khz / 1000000;
}

enum emu_failure emu_last_failure(void) {
    return emu_failure_last;
}

/* The thread is finished for this launch: park it as done and go back to the scheduler, which
 * stops the launch. Its abandoned frames lie above the fiber's loop, which a later block
 * re-enters at `start`. */
void emu_trap(const char *file, int line) {
    if (!emu_trap_file) {
        emu_trap_file = file;
        emu_trap_line = line;
    }
    emu_self->state = T_DONE;
    EMU_TO_STACK(&emu_self->asan_save, emu_sched_bottom, emu_sched_size);
    _longjmp(emu_sched, 1);
}

/* The life of a fiber: park; when resumed at `start`, run the kernel body as the thread
 * emu_self; mark it done; park again. Only globals are used across the jumps (emu_self is the
 * running thread whenever this fiber runs). */
static void emu_fiber_main(void) {
    EMU_ON_STACK(NULL, 1); /* entered from the scheduler by setcontext */
    for (;;) {
        if (_setjmp(emu_self->start) == 0) {
            EMU_TO_STACK(&emu_self->asan_save, emu_sched_bottom, emu_sched_size);
            _longjmp(emu_sched, 1);
        }
        EMU_ON_STACK(emu_self->asan_save, 1);
        emu_body(emu_args);
        emu_self->state = T_DONE;
    }
}

/* Switch to thread t until it parks (barrier or end). Out of line: _setjmp returns twice, and
 * nothing of this frame is needed after the second return. */
static __attribute__((noinline)) void emu_switch_to(struct emu_thread *t) {
    emu_self = t;
    emu_thread_idx = t->idx;
    if (_setjmp(emu_sched) == 0) {
        EMU_TO_STACK(&emu_sched_save, t->ctx.uc_stack.ss_sp, t->ctx.uc_stack.ss_size);
        if (!t->made) { /* first use of this slot: enter the fiber, which parks at once */
            t->made = 1;
            setcontext(&t->ctx);
            perror("emu: setcontext");
            abort();
        }
        if (t->fresh) {
            t->fresh = 0;
            _longjmp(t->start, 1);
        }
        _longjmp(t->resume, 1);
    }
    EMU_ON_STACK(emu_sched_save, 0);
}

/* xorshift64*: the shuffle's generator (a test needs the same order for the same seed). */
static uint64_t emu_next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* perm = 0..n-1 in `order`. */
static void emu_permute(unsigned *perm, unsigned n, enum emu_order order, uint64_t *rng) {
    unsigned i;
    for (i = 0; i < n; i++)
        perm[i] = order == EMU_REVERSE ? n - 1 - i : i;
    if (order == EMU_SHUFFLE)
        for (i = n; i > 1; i--) {
            unsigned j = (unsigned)(emu_next(rng) % i), t = perm[i - 1];
            perm[i - 1] = perm[j];
            perm[j] = t;
        }
}

/* getcontext only to initialise a context that makecontext then redirects: it never returns a
 * second time, so keeping it out of line spares the caller's locals the returns-twice
 * pessimism (and -Wclobbered). */
static __attribute__((noinline)) int emu_getcontext(ucontext_t *c) {
    return getcontext(c);
}

/* Make the fiber of every thread slot up to nthreads that has none yet, and mark the block's
 * threads fresh. Returns 0 or -1. */
static int emu_make_threads(unsigned nthreads) {
    unsigned i;
    for (i = 0; i < nthreads; i++) {
        struct emu_thread *t = &emu_threads[i];
        t->idx.x = i % emu_block_dim.x;
        t->idx.y = i / emu_block_dim.x % emu_block_dim.y;
        t->idx.z = i / (emu_block_dim.x * emu_block_dim.y);
        t->state = T_READY;
        if (!t->made) {
            if (emu_getcontext(&t->ctx) != 0) {
                perror("emu: getcontext");
                return -1;
            }
            t->ctx.uc_stack.ss_sp = emu_stacks + (size_t)i * EMU_STACK;
            t->ctx.uc_stack.ss_size = EMU_STACK;
            t->ctx.uc_link = NULL; /* never returns */
            makecontext(&t->ctx, emu_fiber_main, 0);
            emu_switch_to(t); /* enter it once: it parks at `start` */
        }
        t->fresh = 1;
    }
    return 0;
}

/* Let every live thread of the block run to its next barrier or its end, in perm's order. */
static void emu_run_round(const unsigned *perm, unsigned nthreads) {
    unsigned i;
    for (i = 0; i < nthreads && !emu_trap_file; i++) {
        struct emu_thread *t = &emu_threads[perm[i]];
        if (t->state == T_DONE)
            continue;
        t->state = T_READY;
        emu_switch_to(t);
    }
}

/* Run one block to completion. Returns 0 or -1 (barrier divergence, already reported). */
static int emu_run_block(unsigned nthreads, enum emu_order order, uint64_t *rng) {
    static unsigned perm[EMU_MAX_THREADS];
    unsigned i, round;
    if (emu_make_threads(nthreads) != 0)
        return -1;
    /* NaN everywhere: shared memory that no thread of this block wrote reads as NaN */
    if (emu_dyn_bytes)
        memset(emu_dyn, 0xff, emu_dyn_bytes);
    {
        unsigned char *lo = __start_gb_emu_shared, *hi = __stop_gb_emu_shared;
        if (lo && hi > lo)
            memset(lo, 0xff, (size_t)(hi - lo));
    }
    for (round = 0;; round++) {
        unsigned done = 0, waiting = 0;
        emu_permute(perm, nthreads, order, rng);
        emu_run_round(perm, nthreads);
        if (emu_trap_file) {
            fprintf(stderr, "emu: block (%u,%u,%u): __trap() at %s:%d\n", emu_block_idx.x,
                    emu_block_idx.y, emu_block_idx.z, emu_trap_file, emu_trap_line);
            emu_failure_last = EMU_TRAP;
            return -1;
        }
        for (i = 0; i < nthreads; i++) {
            const struct emu_thread *t = &emu_threads[i], *t0 = &emu_threads[0];
            if (t->state == T_DONE) {
                done++;
                continue;
            }
            waiting++;
            if (t0->state == T_AT_BARRIER &&
                (t->bar_line != t0->bar_line || strcmp(t->bar_file, t0->bar_file) != 0)) {
                fprintf(stderr,
                        "emu: block (%u,%u,%u): thread %u waits at %s:%d, thread 0 at %s:%d "
                        "(barrier %u)\n",
                        emu_block_idx.x, emu_block_idx.y, emu_block_idx.z, i, t->bar_file,
                        t->bar_line, t0->bar_file, t0->bar_line, round + 1);
                emu_failure_last = EMU_BARRIER;
                return -1;
            }
        }
        if (waiting == 0)
            return 0;
        if (done != 0) {
            fprintf(stderr,
                    "emu: block (%u,%u,%u): %u threads wait at barrier %u while %u have exited\n",
                    emu_block_idx.x, emu_block_idx.y, emu_block_idx.z, waiting, round + 1, done);
            emu_failure_last = EMU_BARRIER;
            return -1;
        }
    }
}

int emu_launch(dim3 grid, dim3 block, size_t dyn_shared, enum emu_order order, uint64_t seed,
               void (*body)(void *args), void *args) {
    static unsigned bperm_fixed[1];
    unsigned *bperm = bperm_fixed;
    size_t nthreads = (size_t)block.x * block.y * block.z;
    size_t nblocks = (size_t)grid.x * grid.y * grid.z, b;
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1; /* never 0: xorshift would stay at 0 */
    int rc = 0;
    emu_failure_last = EMU_OK;
    emu_trap_file = NULL;
    if (nthreads == 0 || nthreads > EMU_MAX_THREADS || nblocks == 0 || nblocks > (1u << 24)) {
        fprintf(stderr, "emu: bad launch: grid (%u,%u,%u) block (%u,%u,%u)\n", grid.x, grid.y,
                grid.z, block.x, block.y, block.z);
        emu_failure_last = EMU_BAD_LAUNCH;
        return -1;
    }
    if (!emu_stacks) {
        void *m = mmap(NULL, (size_t)EMU_MAX_THREADS * EMU_STACK, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) {
            perror("emu: mmap of the fiber stacks");
            emu_failure_last = EMU_NO_MEMORY;
            return -1;
        }
        emu_stacks = m;
    }
    emu_dyn_bytes = dyn_shared;
    emu_dyn = dyn_shared ? malloc(dyn_shared) : NULL;
    if (nblocks > 1)
        bperm = malloc(nblocks * sizeof *bperm);
    if ((dyn_shared && !emu_dyn) || !bperm) {
        fprintf(stderr, "emu: out of memory\n");
        emu_failure_last = EMU_NO_MEMORY;
        rc = -1;
        goto out;
    }
    emu_permute(bperm, (unsigned)nblocks, order, &rng);
    emu_body = body;
    emu_args = args;
    emu_block_dim = block;
    emu_grid_dim = grid;
    for (b = 0; b < nblocks && rc == 0; b++) {
        unsigned lin = bperm[b];
        emu_block_idx.x = lin % grid.x;
        emu_block_idx.y = lin / grid.x % grid.y;
        emu_block_idx.z = lin / (grid.x * grid.y);
        rc = emu_run_block((unsigned)nthreads, order, &rng);
    }
out:
#ifdef EMU_ASAN
    if (rc != 0 && emu_stacks) /* frames abandoned mid-call keep their poisoned redzones */
        ASAN_UNPOISON_MEMORY_REGION(emu_stacks, (size_t)EMU_MAX_THREADS * EMU_STACK);
#endif
    if (bperm != bperm_fixed)
        free(bperm);
    free(emu_dyn);
    emu_dyn = NULL;
    emu_dyn_bytes = 0;
    return rc;
}
