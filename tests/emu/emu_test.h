/* emu_test.h — the small helpers the emulation tests share: inputs, a tolerance check against a
 * double-precision reference, and a failure count. Test-only code. */
#ifndef GPUBENCH_EMU_TEST_H
#define GPUBENCH_EMU_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int emu_failures; /* every failed check adds one; main returns it (capped) */

#define EMU_CHECK(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            emu_failures++;                                                                        \
        }                                                                                          \
    } while (0)

/* malloc or exit: a test that cannot allocate has nothing to say. */
static inline void *emu_alloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* x[i] uniform in [lo, hi), deterministic in (seed, i); never all zeros. */
static inline void emu_fill(float *x, size_t n, uint64_t seed, float lo, float hi) {
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t z = seed * 0x9E3779B97F4A7C15ULL + i * 0xBF58476D1CE4E5B9ULL + 1;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        x[i] = lo + (hi - lo) * (float)((double)(z >> 40) / (double)(1ULL << 24));
    }
}

/* x[i] = NaN: an output element the kernel fails to write then fails the check. */
static inline void emu_poison(float *x, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        x[i] = NAN;
}

/* Count elements with |got − ref| > tol·scale + 1e-30 (scale[i] is the magnitude that the
 * rounding error grows with, e.g. Σ|a·b| for a dot product; NULL means |ref|+1). Prints the
 * first three mismatches prefixed by `what` when `report` is set. */
static inline size_t emu_mismatches(const char *what, const float *got, const double *ref,
                                    const double *scale, size_t n, double tol, int report) {
    size_t i, bad = 0;
    for (i = 0; i < n; i++) {
        double s = scale ? scale[i] : fabs(ref[i]) + 1.0;
        double d = fabs((double)got[i] - ref[i]);
        if (!(d <= tol * s + 1e-30)) { /* NaN fails too */
            if (report && bad < 3)
                fprintf(stderr, "  %s[%zu] = %.9g, want %.9g (tol %.3g)\n", what, i, (double)got[i],
                        ref[i], tol * s);
            bad++;
        }
    }
    return bad;
}

#endif
