/* inputs.c — deterministic inputs and aligned buffers shared by every workload. */
#include "harness/core/inputs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/interrupt.h"

/* Elements generated between two looks at gb_interrupted: a few hundred microseconds. */
enum { POLL_EVERY = 1 << 16 };

uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void fill_uniform(float *x, size_t n, uint64_t seed, uint64_t stream, float lo, float hi) {
    /* Counter-based: element i depends only on (seed, stream, i), so generation order and thread
     * count never change the data. 24 random bits give every float in [0,1) the same spacing. */
    uint64_t key = splitmix64(seed ^ splitmix64(stream + 0x5851f42d4c957f2dULL));
    float span = hi - lo;
    for (size_t i = 0; i < n; i++) {
        if (i % POLL_EVERY == 0 && gb_interrupted)
            return;
        uint64_t r = splitmix64(key + i);
        float u = (float)(r >> 40) * (1.0f / 16777216.0f);
        x[i] = lo + span * u;
    }
}

int buf_alloc(struct buf *b, const char *name, size_t n) {
    b->data64 = NULL;
    b->name = name;
    b->n = n;
    size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
    b->data = aligned_alloc(64, bytes ? bytes : 64);
    return b->data ? 0 : -1;
}

int buf_alloc_dt(struct buf *b, const char *name, size_t n, enum dtype t) {
    if (t != DT_F64)
        return buf_alloc(b, name, n);
    b->name = name;
    b->n = n;
    b->data = NULL;
    size_t bytes = (n * sizeof(double) + 63) / 64 * 64;
    b->data64 = aligned_alloc(64, bytes ? bytes : 64);
    return b->data64 ? 0 : -1;
}

/* The f64 counterpart of fill_uniform: 53 random bits per value. */
static void fill_uniform64(double *x, size_t n, uint64_t key, double lo, double hi) {
    for (size_t i = 0; i < n && !(i % POLL_EVERY == 0 && gb_interrupted); i++)
        x[i] = lo + (hi - lo) * ((double)(splitmix64(key + i) >> 11) * 0x1p-53);
}

void fill_uniform_dt(struct buf *b, enum dtype t, uint64_t seed, uint64_t stream, float lo,
                     float hi) {
    if (t == DT_F64) {
        uint64_t key = splitmix64(seed ^ splitmix64(stream + 0x2545f4914f6cdd1dULL));
        fill_uniform64(b->data64, b->n, key, lo, hi);
        return;
    }
    fill_uniform(b->data, b->n, seed, stream, lo, hi);
    if (t != DT_F16 && t != DT_BF16)
        return;
    for (size_t i = 0; i < b->n && !(i % POLL_EVERY == 0 && gb_interrupted); i++) {
        float x = b->data[i];
        b->data[i] = fabsf(x) < 0x1p-6f ? copysignf(0x1p-6f, x) : dtype_round(t, x);
    }
}

void problem_free_bufs(struct problem *p) {
    for (int i = 0; i < p->nin; i++) {
        free(p->in[i].data);
        free(p->in[i].data64);
    }
    for (int i = 0; i < p->nout; i++) {
        free(p->out[i].data);
        free(p->out[i].data64);
    }
    memset(p->in, 0, sizeof p->in);
    memset(p->out, 0, sizeof p->out);
    p->nin = p->nout = 0;
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

size_t *sample_indices(size_t n, size_t count, uint64_t seed) {
    size_t *idx = malloc((count ? count : 1) * sizeof *idx);
    if (!idx)
        return NULL;
    for (size_t j = 0; j < count; j++) {
        /* Always include the first and last element: edges are where tiling bugs live. */
        if (j == 0)
            idx[j] = 0;
        else if (j == 1)
            idx[j] = n - 1;
        else
            idx[j] = (size_t)(splitmix64(seed * 31 + j) % n);
    }
    sort_indices(idx, count);
    return idx;
}

void sort_indices(size_t *idx, size_t count) { qsort(idx, count, sizeof *idx, cmp_size); }

void problem_free_sampled(struct problem *p) {
    struct sampled_ref *ref = p->ref;
    if (ref) {
        free(ref->idx);
        free(ref->val);
        free(ref);
        p->ref = NULL;
    }
    problem_free_bufs(p);
}
