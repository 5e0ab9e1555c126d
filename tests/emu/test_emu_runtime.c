/* test_emu_runtime.c — the emulation itself (tests/emu/emu.c): the built-in index variables,
 * the three scheduling orders, that threads really stop at barriers, that shared memory (static
 * and dynamic) starts every block as NaN, and that a barrier not every thread reaches is an
 * error. The kernel tests rest on these properties. */
#include "tests/emu/emu.h"

#include "tests/emu/emu_test.h"

#include <string.h>

enum { LOG_MAX = 4096 };
static int log_buf[LOG_MAX];
static int log_len;

/* --- indices ------------------------------------------------------------------------------- */
static void index_kernel(void *p) {
    unsigned *out = p;
    unsigned tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned bid = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned *o = out + 4 * (bid * blockDim.x * blockDim.y * blockDim.z + tid);
    o[0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
    o[1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
    o[2] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
    o[3] = gridDim.x | gridDim.y << 8 | gridDim.z << 16;
}

static void test_indices(void) {
    const dim3 grid = emu_dim3(2, 3, 2), block = emu_dim3(4, 3, 2);
    const unsigned nb = 12, nt = 24;
    unsigned *out = emu_alloc(4 * nb * nt * sizeof(unsigned)), b, t, bad = 0;
    memset(out, 0xff, 4 * nb * nt * sizeof(unsigned));
    EMU_CHECK(emu_launch(grid, block, 0, EMU_SHUFFLE, 3, index_kernel, out) == 0, "launch");
    for (b = 0; b < nb; b++)
        for (t = 0; t < nt; t++) {
            const unsigned *o = out + 4 * (b * nt + t);
            unsigned tx = t % 4, ty = t / 4 % 3, tz = t / 12, bx = b % 2, by = b / 2 % 3,
                     bz = b / 6;
            bad += o[0] != (tx | ty << 8 | tz << 16) || o[1] != (bx | by << 8 | bz << 16) ||
                   o[2] != (4u | 3u << 8 | 2u << 16) || o[3] != (2u | 3u << 8 | 2u << 16);
        }
    EMU_CHECK(bad == 0, "%u threads saw wrong indices", bad);
    free(out);
}

/* --- orders and barriers ------------------------------------------------------------------- */
/* Each thread logs its index, waits at a barrier, logs it again (+100). */
static void order_kernel(void *p) {
    (void)p;
    log_buf[log_len++] = (int)threadIdx.x;
    __syncthreads();
    log_buf[log_len++] = 100 + (int)threadIdx.x;
}

static void test_orders(void) {
    enum { NT = 16 };
    int i, seen[NT], same_rounds = 1, forward_like = 1;
    int first[2 * NT];
    /* forward: 0..15 then 100..115: nobody passes the barrier before everyone reached it */
    log_len = 0;
    EMU_CHECK(emu_launch(emu_dim3(1, 1, 1), emu_dim3(NT, 1, 1), 0, EMU_FORWARD, 1, order_kernel,
                         NULL) == 0,
              "launch");
    for (i = 0; i < 2 * NT; i++)
        EMU_CHECK(log_buf[i] == (i < NT ? i : 100 + i - NT), "forward: log[%d] = %d", i,
                  log_buf[i]);
    log_len = 0;
    emu_launch(emu_dim3(1, 1, 1), emu_dim3(NT, 1, 1), 0, EMU_REVERSE, 1, order_kernel, NULL);
    for (i = 0; i < 2 * NT; i++)
        EMU_CHECK(log_buf[i] == (i < NT ? NT - 1 - i : 100 + 2 * NT - 1 - i),
                  "reverse: log[%d] = %d", i, log_buf[i]);
    /* shuffle: each round a permutation, redrawn per round, the same for the same seed */
    log_len = 0;
    emu_launch(emu_dim3(1, 1, 1), emu_dim3(NT, 1, 1), 0, EMU_SHUFFLE, 7, order_kernel, NULL);
    memcpy(first, log_buf, sizeof first);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < NT; i++) {
        EMU_CHECK(first[i] >= 0 && first[i] < NT && first[NT + i] - 100 >= 0 &&
                      first[NT + i] - 100 < NT,
                  "shuffle: log[%d] = %d", i, first[i]);
        if (first[i] >= 0 && first[i] < NT)
            seen[first[i]]++;
        same_rounds &= first[i] == first[NT + i] - 100;
        forward_like &= first[i] == i;
    }
    for (i = 0; i < NT; i++)
        EMU_CHECK(seen[i] == 1, "shuffle: thread %d ran %d times before the barrier", i, seen[i]);
    EMU_CHECK(!same_rounds && !forward_like, "shuffle is not shuffling");
    log_len = 0;
    emu_launch(emu_dim3(1, 1, 1), emu_dim3(NT, 1, 1), 0, EMU_SHUFFLE, 7, order_kernel, NULL);
    EMU_CHECK(memcmp(first, log_buf, sizeof first) == 0, "shuffle: same seed, other order");
}

/* Blocks follow the order too. */
static void block_order_kernel(void *p) {
    (void)p;
    if (threadIdx.x == 0)
        log_buf[log_len++] = (int)blockIdx.x;
}

static void test_block_order(void) {
    int i;
    log_len = 0;
    emu_launch(emu_dim3(5, 1, 1), emu_dim3(2, 1, 1), 0, EMU_REVERSE, 1, block_order_kernel, NULL);
    for (i = 0; i < 5; i++)
        EMU_CHECK(log_buf[i] == 4 - i, "reverse: block %d ran as number %d", log_buf[i], i);
}

/* --- shared memory starts each block as NaN ------------------------------------------------ */
static void shared_kernel(void *p) {
    float *out = p;
    __shared__ float s[4];
    GB_EXTERN_SHARED(float, dyn);
    /* block 0 writes; block 1 only reads: it must not see block 0's values */
    if (blockIdx.x == 0) {
        s[threadIdx.x] = 1.0f;
        dyn[threadIdx.x] = 2.0f;
    }
    __syncthreads();
    out[2 * (blockIdx.x * 4 + threadIdx.x)] = s[(threadIdx.x + 1) % 4];
    out[2 * (blockIdx.x * 4 + threadIdx.x) + 1] = dyn[(threadIdx.x + 1) % 4];
}

static void test_shared(void) {
    float out[16];
    int i;
    EMU_CHECK(emu_launch(emu_dim3(2, 1, 1), emu_dim3(4, 1, 1), 4 * sizeof(float), EMU_FORWARD, 1,
                         shared_kernel, out) == 0,
              "launch");
    for (i = 0; i < 4; i++) {
        EMU_CHECK(out[2 * i] == 1.0f && out[2 * i + 1] == 2.0f,
                  "block 0 thread %d: a neighbour's shared write not seen after the barrier", i);
        EMU_CHECK(isnan(out[8 + 2 * i]) && isnan(out[9 + 2 * i]),
                  "block 1 thread %d saw block 0's shared memory", i);
    }
}

/* --- barriers not every thread reaches ----------------------------------------------------- */
static void early_exit_kernel(void *p) {
    (void)p;
    if (threadIdx.x % 2)
        return; /* undefined on a GPU: the others wait at a barrier these never reach */
    __syncthreads();
}

static void split_barrier_kernel(void *p) {
    (void)p;
    if (threadIdx.x < 3)
        __syncthreads();
    else
        __syncthreads();
}

static void test_divergence(void) {
    fprintf(stderr, "(three emulation errors expected below)\n");
    EMU_CHECK(emu_launch(emu_dim3(1, 1, 1), emu_dim3(8, 1, 1), 0, EMU_FORWARD, 1, early_exit_kernel,
                         NULL) != 0,
              "an early return before a barrier was not reported");
    EMU_CHECK(emu_launch(emu_dim3(1, 1, 1), emu_dim3(8, 1, 1), 0, EMU_REVERSE, 1,
                         split_barrier_kernel, NULL) != 0,
              "threads at different __syncthreads() were not reported");
    /* and the runtime is still usable afterwards */
    log_len = 0;
    EMU_CHECK(emu_launch(emu_dim3(1, 1, 1), emu_dim3(8, 1, 1), 0, EMU_FORWARD, 1, order_kernel,
                         NULL) == 0 &&
                  log_len == 16,
              "launch after an error");
    EMU_CHECK(emu_launch(emu_dim3(1, 1, 1), emu_dim3(2048, 1, 1), 0, EMU_FORWARD, 1, order_kernel,
                         NULL) != 0,
              "2048 threads per block accepted");
}

/* --- __trap(): the launch fails, the runtime stays usable -------------------------------- */
static int trap_ran;
static void trap_kernel(void *p) {
    (void)p;
    if (threadIdx.x == 3 && blockIdx.x == 1)
        __trap();
    __syncthreads(); /* the other threads wait here when thread 3 traps */
    trap_ran++;
}

static void test_trap(void) {
    fprintf(stderr, "(one emulation error expected below)\n");
    trap_ran = 0;
    EMU_CHECK(emu_launch(emu_dim3(2, 1, 1), emu_dim3(8, 1, 1), 0, EMU_FORWARD, 1, trap_kernel,
                         NULL) != 0 &&
                  emu_last_failure() == EMU_TRAP,
              "a __trap() was not reported as a failed launch");
    EMU_CHECK(trap_ran == 8, "block 0 should complete and block 1 stop: %d threads ran", trap_ran);
    log_len = 0;
    EMU_CHECK(emu_launch(emu_dim3(1, 1, 1), emu_dim3(8, 1, 1), 0, EMU_SHUFFLE, 2, order_kernel,
                         NULL) == 0 &&
                  log_len == 16 && emu_last_failure() == EMU_OK,
              "launch after a trap");
}

int main(void) {
    test_indices();
    test_orders();
    test_block_order();
    test_shared();
    test_divergence();
    test_trap();
    printf("emulation runtime: %d failures\n", emu_failures);
    return emu_failures ? 1 : 0;
}
