/* test_dev_bufs.c — kernels/common/dev_bufs.h on cuda:0 (CTest label `gpu`; tests/sim runs it on
 * a simulated H100 as sim_dev_bufs): in every tier, each storage's element size, a round trip
 * through the device (upload, download, finish) that gives back the problem's values — in place,
 * FP32 in a 16-bit tier, FP32 always, and with a placement applied to the 16-bit copies, one of
 * them padded (more device elements than the problem's, the rest zero: 16-bit tiers only) — the
 * device holding what the tier stores, the note left alone; a footprint that can never fit, an
 * in-place buffer of two sizes, a buffer without host data of its storage and more buffers than
 * there is room for refused; release after each (the teardown hook called once) and on a NULL
 * state. Exits 77 (skipped) without a usable GPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness/core/dtype.h"
#include "harness/run/backend.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"
#include "tests/testhelp.h"

enum { SKIP = 77, N = 6 };

struct state {
    struct gb_dev_bufs dev; /* first, as the layer asks */
    int *torn;              /* counts teardown calls */
};

static void teardown(struct impl_ctx *ctx) {
    struct state *s = ctx->state;
    (*s->torn)++;
}

/* gb_dev_place_fn: element i of n (arg) at n − 1 − i. */
static size_t reverse(size_t i, const void *arg) {
    return *(const size_t *)arg - 1 - i;
}

/* gb_dev_place_fn: element i at 2i (a padded layout: the odd places are padding). */
static size_t spread(size_t i, const void *arg) {
    (void)arg;
    return 2 * i;
}

/* A fresh row on dev: the state, with the teardown counter. */
static int begin(const struct device *dev, struct impl_ctx *ctx, int *torn) {
    char note[NOTE_LEN];
    if (dev->be->activate(dev, note, sizeof note) != ST_OK ||
        gb_impl_state(ctx, sizeof(struct state)) != ST_OK) {
        CHECK_MSG(0, "activate or state: %s", note);
        return -1;
    }
    struct state *s = ctx->state;
    s->torn = torn;
    s->dev.teardown = teardown;
    return 0;
}

/* The host value of element i of b in tier t (data64 for f64 unless only data is there). */
static double val(const struct buf *b, enum dtype t, size_t i) {
    return t == DT_F64 && b->data64 ? b->data64[i] : b->data[i];
}

static void round_trip(const struct device *dev, enum dtype t) {
    /* values every tier stores exactly; in f64 the tier buffers hold doubles only */
    float a[N], b[N], w[N], lab[N], c[N], wo[N], ao[N];
    double a64[N], b64[N], w64[N], c64[N], wo64[N], ao64[N];
    const int f64 = t == DT_F64, h16 = t == DT_F16 || t == DT_BF16;
    size_t n = N, i;
    for (i = 0; i < N; i++) {
        a[i] = 0.5f * (float)i - 1.0f, b[i] = 2.0f + (float)i, w[i] = 0.25f * (float)i;
        lab[i] = (float)i;
        a64[i] = a[i], b64[i] = b[i], w64[i] = w[i];
        c[i] = wo[i] = ao[i] = -7.0f, c64[i] = wo64[i] = ao64[i] = -7.0;
    }
    struct problem p = {.dtype = t, .nin = 4, .nout = 3};
    p.in[0] = (struct buf){"a", f64 ? NULL : a, N, f64 ? a64 : NULL};
    p.in[1] = (struct buf){"b", f64 ? NULL : b, N, f64 ? b64 : NULL};
    p.in[2] = (struct buf){"w", f64 ? NULL : w, N, f64 ? w64 : NULL};
    p.in[3] = (struct buf){"labels", lab, N, NULL};
    p.out[0] = (struct buf){"c", f64 ? NULL : c, N, f64 ? c64 : NULL};
    p.out[1] = (struct buf){"wo", f64 ? NULL : wo, N, f64 ? wo64 : NULL};
    p.out[2] = (struct buf){"ao", f64 ? NULL : ao, N, f64 ? ao64 : NULL};
    struct impl_ctx ctx = {.p = &p, .dev = dev};
    int torn = 0;
    if (begin(dev, &ctx, &torn) != 0)
        return;
    const struct gb_dev_spec spec[] = {
        {.name = "a", .in = &p.in[0]},
        {.name = "b, then c", .in = &p.in[1], .out = &p.out[0]},
        {.name = "w", .in = &p.in[2], .out = &p.out[1], .store = GB_DEV_WIDE},
        {.name = "labels", .in = &p.in[3], .store = GB_DEV_FP32},
        {.name = "a, placed", .in = &p.in[0], .out = &p.out[2], .place = reverse, .place_arg = &n},
        {.name = "scratch", .n = 3},
        {.name = "a, padded", .in = &p.in[0], .n = 2 * N, .place = spread},
    };
    struct state *s = ctx.state;
    enum status st = gb_dev_prepare(&ctx, spec, 7, 0, "test buffers");
    CHECK_MSG(st == ST_OK && s->dev.nbufs == 7, "%s %s: %s", dtype_flag(t), status_name(st),
              ctx.note);
    if (st == ST_OK) {
        size_t el = (size_t)dtype_bytes(t);
        CHECK(s->dev.buf[0].size == el && s->dev.buf[1].size == el && s->dev.buf[4].size == el);
        CHECK(s->dev.buf[2].size == (h16 ? 4 : el) && s->dev.buf[3].size == 4);
        CHECK(s->dev.buf[5].n == 3 && s->dev.buf[5].size == el && s->dev.ptr[5] != NULL);
        /* a padded placement (16-bit storage only): 2N device elements, a[i] at 2i, zero
         * between; other tiers keep the problem's N */
        CHECK_MSG(s->dev.buf[6].n == (h16 ? 2 * N : N), "%s padded: %zu elements",
                  dtype_flag(t), s->dev.buf[6].n);
        for (i = 0; h16 && i < N; i++)
            CHECK(s->dev.buf[6].half_up[2 * i] ==
                      (t == DT_F16 ? dtype_f32_to_f16(a[i]) : dtype_f32_to_bf16(a[i])) &&
                  s->dev.buf[6].half_up[2 * i + 1] == 0);
        /* the 16-bit copy of the placed buffer holds a[i] at n − 1 − i */
        for (i = 0; h16 && i < N; i++)
            CHECK(s->dev.buf[4].half_up[N - 1 - i] ==
                  (t == DT_F16 ? dtype_f32_to_f16(a[i]) : dtype_f32_to_bf16(a[i])));
        CHECK(gb_dev_upload(&ctx) == ST_OK && gb_dev_download(&ctx) == ST_OK);
        CHECK(cudaStreamSynchronize(gb_stream()) == cudaSuccess);
        CHECK(gb_dev_finish(&ctx) == ST_OK);
        for (i = 0; i < N; i++) {
            CHECK_MSG(val(&p.out[0], t, i) == val(&p.in[1], t, i), "%s c[%zu]", dtype_flag(t), i);
            CHECK_MSG(val(&p.out[1], t, i) == val(&p.in[2], t, i), "%s wo[%zu]", dtype_flag(t), i);
            CHECK_MSG(val(&p.out[2], t, i) == val(&p.in[0], t, i), "%s ao[%zu]", dtype_flag(t), i);
        }
        /* the device holds floats for the labels in every tier, the tier's storage for a */
        float dlab[N];
        unsigned char da[N * 8], want[N * 8];
        CHECK(cudaMemcpy(dlab, s->dev.ptr[3], sizeof dlab, cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK(memcmp(dlab, lab, sizeof lab) == 0);
        CHECK(cudaMemcpy(da, s->dev.ptr[0], N * el, cudaMemcpyDeviceToHost) == cudaSuccess);
        memcpy(want,
               f64   ? (const void *)a64
               : h16 ? (const void *)s->dev.buf[0].half_up
                     : a,
               N * el);
        CHECK(memcmp(da, want, N * el) == 0);
        if (h16) { /* the padded buffer's upload: all 2N halves, padding included */
            uint16_t dp[2 * N];
            CHECK(cudaMemcpy(dp, s->dev.ptr[6], sizeof dp, cudaMemcpyDeviceToHost) ==
                  cudaSuccess);
            CHECK(memcmp(dp, s->dev.buf[6].half_up, sizeof dp) == 0);
        }
        CHECK_MSG(ctx.note[0] == '\0', "note written on success: %s", ctx.note);
    }
    gb_dev_release(&ctx);
    CHECK(ctx.state == NULL && torn == 1);
}

/* Refusals, each released afterwards; a NULL state released. */
static void refusals(const struct device *dev) {
    float x[N] = {0}, y[N - 1] = {0};
    struct problem p = {.dtype = DT_F16, .nin = 1, .nout = 1};
    p.in[0] = (struct buf){"x", x, N, NULL};
    p.out[0] = (struct buf){"y", y, N - 1, NULL};
    struct impl_ctx ctx = {.p = &p, .dev = dev};
    int torn = 0;
    struct gb_dev_spec big = {.name = "big", .n = 1};
    if (begin(dev, &ctx, &torn) != 0)
        return;
    enum status st = gb_dev_prepare(&ctx, &big, 1, SIZE_MAX / 4, "the whole address space");
    CHECK_MSG(st == ST_UNSUPPORTED && strstr(ctx.note, "the whole address space"), "%s: %s",
              status_name(st), ctx.note);
    CHECK(((struct state *)ctx.state)->dev.ptr[0] == NULL);
    gb_dev_release(&ctx);

    struct gb_dev_spec two = {.name = "x, then y", .in = &p.in[0], .out = &p.out[0]};
    if (begin(dev, &ctx, &torn) != 0)
        return;
    st = gb_dev_prepare(&ctx, &two, 1, 0, "x");
    CHECK_MSG(st == ST_ERROR && strstr(ctx.note, "x, then y"), "%s: %s", status_name(st), ctx.note);
    gb_dev_release(&ctx);

    p.dtype = DT_F64; /* x has no doubles */
    struct gb_dev_spec nodata = {.name = "x in doubles", .in = &p.in[0]};
    if (begin(dev, &ctx, &torn) != 0)
        return;
    st = gb_dev_prepare(&ctx, &nodata, 1, 0, "x");
    CHECK_MSG(st == ST_ERROR && strstr(ctx.note, "x in doubles"), "%s: %s", status_name(st),
              ctx.note);
    gb_dev_release(&ctx);

    struct gb_dev_spec many[GB_DEV_MAX_BUFS + 1];
    for (int i = 0; i < GB_DEV_MAX_BUFS + 1; i++)
        many[i] = (struct gb_dev_spec){.name = "one of many", .n = 1};
    if (begin(dev, &ctx, &torn) != 0)
        return;
    st = gb_dev_prepare(&ctx, many, GB_DEV_MAX_BUFS + 1, 0, "many");
    CHECK_MSG(st == ST_ERROR, "%s: %s", status_name(st), ctx.note);
    gb_dev_release(&ctx);
    CHECK(ctx.state == NULL && torn == 4);
    gb_dev_release(&ctx); /* NULL: nothing to do */
    CHECK(ctx.state == NULL && torn == 4);
}

int main(void) {
    struct device_list list;
    memset(&list, 0, sizeof list);
    char why[600] = "";
    if (cuda_backend.discover(&list, 1, why, sizeof why) == 0) {
        printf("no usable GPU: %s\n", why);
        return SKIP;
    }
    for (int t = 0; t < DT_COUNT; t++)
        round_trip(&list.d[0], (enum dtype)t);
    refusals(&list.d[0]);
    list.d[0].be->shutdown(&list.d[0]);
    return TEST_END();
}
