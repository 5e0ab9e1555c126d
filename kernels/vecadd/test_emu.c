/* test_emu.c — the grid-stride vecadd kernel (kernels/vecadd/kernels.cuh) on the
 * CPU emulation: lengths that are not multiples of the block or of 4, aligned (float4 path) and
 * misaligned (scalar path) operands, the launcher's grid and grids small enough that every
 * thread strides several times, every thread order; and the f64 and f16 kernels on the same
 * lengths (f16: eight at a time when 16-byte aligned, pairs when 4-byte aligned, one by one
 * when not).
 *
 * Emulation builds: arch 750
 */
#include "tests/emu/emu.h"

#include "kernels/vecadd/kernels.cuh"
#include "harness/core/dtype.h"
#include "tests/emu/emu_test.h"

struct vecadd_args {
    const float *a, *b;
    float *c;
    size_t n;
};

struct vecadd64_args {
    const double *a, *b;
    double *c;
    size_t n;
};

static void vecadd64_body(void *p) {
    const struct vecadd64_args *v = p;
    gb_vecadd64_kernel(v->a, v->b, v->c, v->n);
}

/* The f64 kernel: exact sums (one double rounding, as on the GPU), nothing written past c. */
static void test_f64(size_t n, unsigned blocks, enum emu_order o) {
    double *a = emu_alloc(n * sizeof *a), *b = emu_alloc(n * sizeof *b);
    double *c = emu_alloc((n + 1) * sizeof *c);
    float *f = emu_alloc(n * sizeof *f);
    size_t i, bad = 0;
    emu_fill(f, n, 43, -1, 1);
    for (i = 0; i < n; i++)
        a[i] = f[i] + 0x1p-30 * (double)i, b[i] = 1.0 / 3.0 + f[i];
    for (i = 0; i <= n; i++)
        c[i] = NAN;
    struct vecadd64_args v = {a, b, c, n};
    int rc = emu_launch(emu_dim3(blocks ? blocks : gb_ew_blocks(n), 1, 1),
                        emu_dim3(GB_EW_THREADS, 1, 1), 0, o, 6, vecadd64_body, &v);
    for (i = 0; i < n; i++)
        bad += c[i] != a[i] + b[i];
    bad += !isnan(c[n]);
    EMU_CHECK(rc == 0 && bad == 0, "vecadd64 n=%zu, %u blocks, %s: %zu wrong", n, blocks,
              emu_order_name(o), bad);
    free(a), free(b), free(c), free(f);
}

struct vecadd16_args {
    const unsigned short *a, *b;
    unsigned short *c;
    size_t n;
};

static void vecadd16_body(void *p) {
    const struct vecadd16_args *v = p;
    gb_vecadd16_kernel(v->a, v->b, v->c, v->n);
}

/* The f16 kernel: every element the correctly rounded half of the exact sum (the double sum of
 * two halves is exact), nothing written outside c. mis shifts a and c by that many halves (0: the
 * 16-byte path; 1: no 4-byte alignment, the one-by-one path; 2: 4-byte but not 16-byte aligned,
 * the pair path). Values span several binades so that sums round. */
static void test_f16(size_t n, int mis, unsigned blocks, enum emu_order o) {
    unsigned short *a = emu_alloc((n + 2) * 2), *b = emu_alloc((n + 2) * 2);
    unsigned short *c = emu_alloc((n + 2) * 2);
    float *f = emu_alloc((n + 2) * sizeof *f);
    size_t i, bad = 0;
    emu_fill(f, n + 2, 44, -1, 1);
    for (i = 0; i < n + 2; i++) {
        a[i] = dtype_f32_to_f16(f[i] * (float)(1 + i % 7) * 37.0f);
        b[i] = dtype_f32_to_f16(f[(i * 7919) % (n + 2)] / (float)(1 + i % 5));
        c[i] = 0x7e00; /* NaN */
    }
    struct vecadd16_args v = {a + mis, b, c + mis, n};
    int rc = emu_launch(emu_dim3(blocks ? blocks : gb_ew_blocks(n), 1, 1),
                        emu_dim3(GB_EW_THREADS, 1, 1), 0, o, 7, vecadd16_body, &v);
    for (i = 0; i < n; i++) {
        double exact = (double)dtype_f16_to_f32(v.a[i]) + (double)dtype_f16_to_f32(v.b[i]);
        bad += v.c[i] != dtype_f32_to_f16((float)exact);
    }
    for (i = 0; i < n + 2; i++)
        bad += (i < (size_t)mis || i >= n + (size_t)mis) && c[i] != 0x7e00;
    EMU_CHECK(rc == 0 && bad == 0, "vecadd16 n=%zu misalign %d, %u blocks, %s: %zu wrong", n, mis,
              blocks, emu_order_name(o), bad);
    free(a), free(b), free(c), free(f);
}

static void vecadd_body(void *p) {
    const struct vecadd_args *v = p;
    gb_vecadd_kernel(v->a, v->b, v->c, v->n);
}

int main(void) {
    /* n, misalignment in floats of a, b, c, blocks (0: the launcher's) */
    static const struct {
        size_t n;
        int ma, mb, mc;
        unsigned blocks;
    } cases[] = {
        {1, 0, 0, 0, 0},    {3, 0, 0, 0, 0},    {1000, 0, 0, 0, 0},  {4099, 0, 0, 0, 2},
        {4099, 1, 0, 0, 0}, {4099, 0, 0, 3, 1}, {70001, 0, 0, 0, 3}, {257, 2, 2, 2, 0},
    };
    size_t ci, i;
    int o;
    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
        for (o = 0; o < EMU_ORDERS; o++) {
            size_t n = cases[ci].n;
            float *ab = emu_alloc((n + 4) * sizeof(float)),
                  *bb = emu_alloc((n + 4) * sizeof(float));
            float *cb = emu_alloc((n + 4) * sizeof(float));
            double *ref = emu_alloc(n * sizeof(double));
            struct vecadd_args v;
            unsigned blocks = cases[ci].blocks ? cases[ci].blocks : gb_ew_blocks(n);
            size_t bad = 0;
            int rc;
            emu_fill(ab, n + 4, 41, -1, 1);
            emu_fill(bb, n + 4, 42, -1, 1);
            emu_poison(cb, n + 4);
            v.a = ab + cases[ci].ma, v.b = bb + cases[ci].mb, v.c = cb + cases[ci].mc, v.n = n;
            for (i = 0; i < n; i++)
                ref[i] = (double)(v.a[i] + v.b[i]); /* one float rounding, as on the GPU */
            rc = emu_launch(emu_dim3(blocks, 1, 1), emu_dim3(GB_EW_THREADS, 1, 1), 0,
                            (enum emu_order)o, 5, vecadd_body, &v);
            bad = emu_mismatches("c", v.c, ref, NULL, n, 0, 1);
            for (i = 0; i < (size_t)cases[ci].mc; i++)
                bad += !isnan(cb[i]); /* nothing written before c… */
            for (i = n + (size_t)cases[ci].mc; i < n + 4; i++)
                bad += !isnan(cb[i]); /* …nor after it */
            EMU_CHECK(rc == 0 && bad == 0,
                      "vecadd n=%zu misalign %d/%d/%d, %u blocks, %s: %zu wrong", n, cases[ci].ma,
                      cases[ci].mb, cases[ci].mc, blocks, emu_order_name((enum emu_order)o), bad);
            free(ab), free(bb), free(cb), free(ref);
        }
    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
        for (o = 0; o < EMU_ORDERS; o++)
            test_f64(cases[ci].n, cases[ci].blocks, (enum emu_order)o);
    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
        for (o = 0; o < EMU_ORDERS; o++)
            test_f16(cases[ci].n, cases[ci].ma, cases[ci].blocks, (enum emu_order)o);
    printf("vecadd emulated: %d failures\n", emu_failures);
    return emu_failures ? 1 : 0;
}
