/* test_dtype.c — the precision tiers: names, the binary16/bfloat16/tf32 roundings (every bit
 * pattern, ties, overflow, subnormals), the tier-aware inputs and the tolerances. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/dtype.h"
#include "harness/core/inputs.h"
#include "harness/core/verify.h"
#include "tests/testhelp.h"

static void test_names(void) {
    enum dtype t;
    for (int i = 0; i < DT_COUNT; i++) {
        CHECK(dtype_parse(dtype_flag((enum dtype)i), &t) == 0 && t == (enum dtype)i);
        CHECK(dtype_parse(dtype_name((enum dtype)i), &t) == 0 && t == (enum dtype)i);
    }
    CHECK(dtype_parse("f8", &t) != 0 && dtype_parse("", &t) != 0 && dtype_parse("F32", &t) != 0);
    CHECK(DT_F32 == 0 && !strcmp(dtype_name(DT_F32), "float32")); /* zeroed = float32 */
    CHECK(dtype_mask(0) == DT_BIT(DT_F32) && dtype_mask(DT_ALL) == DT_ALL);
    CHECK(dtype_bytes(DT_F64) == 8 && dtype_bytes(DT_F16) == 2 && dtype_bytes(DT_TF32) == 4);
    CHECK(dtype_unit_roundoff(DT_BF16) == 0x1p-8 && dtype_acc_roundoff(DT_F16) == 0x1p-24);
}

/* Every finite binary16 / bfloat16 value survives the trip through float32 unchanged. */
static void test_round_trips(void) {
    int bad16 = 0, badbf = 0;
    for (unsigned h = 0; h < 65536; h++) {
        float x = dtype_f16_to_f32((uint16_t)h);
        if (!isnan(x) && dtype_f32_to_f16(x) != h)
            bad16++;
        float y = dtype_bf16_to_f32((uint16_t)h);
        if (!isnan(y) && dtype_f32_to_bf16(y) != h)
            badbf++;
    }
    CHECK_MSG(bad16 == 0, "%d binary16 values changed", bad16);
    CHECK_MSG(badbf == 0, "%d bfloat16 values changed", badbf);
    CHECK(dtype_f16_to_f32(0x3c00) == 1.0f && dtype_f16_to_f32(0x7bff) == 65504.0f);
    CHECK(dtype_f16_to_f32(0x0001) == 0x1p-24f && dtype_f16_to_f32(0xc000) == -2.0f);
}

static void test_rounding(void) {
    /* ties to even, at 1 (11-bit, 8-bit and tf32's 11-bit significands) */
    CHECK(dtype_round(DT_F16, 1.0f + 0x1p-11f) == 1.0f);
    CHECK(dtype_round(DT_F16, 1.0f + 3 * 0x1p-11f) == 1.0f + 0x1p-9f);
    CHECK(dtype_round(DT_F16, 1.0f + 0x1p-11f + 0x1p-20f) == 1.0f + 0x1p-10f);
    CHECK(dtype_round(DT_BF16, 1.0f + 0x1p-8f) == 1.0f);
    CHECK(dtype_round(DT_BF16, 1.0f + 3 * 0x1p-8f) == 1.0f + 0x1p-6f);
    CHECK(dtype_round(DT_TF32, 1.0f + 0x1p-11f) == 1.0f);
    CHECK(dtype_round(DT_TF32, 1.0f + 0x1p-10f) == 1.0f + 0x1p-10f);
    CHECK(dtype_round(DT_F32, 1.0f + 0x1p-23f) == 1.0f + 0x1p-23f);
    /* binary16's range: overflow and subnormals */
    CHECK(dtype_round(DT_F16, 65519.0f) == 65504.0f && isinf(dtype_round(DT_F16, 65520.0f)));
    CHECK(dtype_f32_to_f16(0x1p-25f) == 0 && dtype_f32_to_f16(1.5f * 0x1p-25f) == 1);
    CHECK(dtype_f32_to_f16(-0x1p-14f) == 0x8400);
    CHECK(dtype_f32_to_f16(NAN) == 0x7e00 && isnan(dtype_bf16_to_f32(dtype_f32_to_bf16(NAN))));
}

/* f16 inputs are f16 values none of which vanishes; f64 inputs use more than float32's bits. */
static void test_inputs(void) {
    struct buf b;
    enum { N = 100000 };
    CHECK(buf_alloc_dt(&b, "x", N, DT_F16) == 0 && b.data && !b.data64);
    fill_uniform_dt(&b, DT_F16, 42, 1, -1.0f, 1.0f);
    int bad = 0;
    for (size_t i = 0; i < N; i++)
        bad += dtype_round(DT_F16, b.data[i]) != b.data[i] || fabsf(b.data[i]) < 0x1p-6f ||
               fabsf(b.data[i]) > 1.0f;
    CHECK_MSG(bad == 0, "%d f16 inputs out of the tier or vanishing", bad);
    free(b.data);
    CHECK(buf_alloc_dt(&b, "x", N, DT_F64) == 0 && b.data64 && !b.data);
    fill_uniform_dt(&b, DT_F64, 42, 1, -1.0f, 1.0f);
    int wide = 0;
    for (size_t i = 0; i < N; i++)
        wide += (double)(float)b.data64[i] != b.data64[i];
    CHECK_MSG(wide > N * 99 / 100, "only %d of %d f64 inputs need more than float32", wide, N);
    free(b.data64);
}

/* The tolerances: f32 as before tiers (≈ 2e-6·k), f64 far tighter, tf32 looser. */
static void test_tolerances(void) {
    struct tol f32 = verify_tol(DT_F32, 2048, 1.0, 0), f64 = verify_tol(DT_F64, 2048, 1.0, 0);
    struct tol tf32 = verify_tol(DT_TF32, 2048, 1.0, 0), h = verify_tol(DT_F16, 1, 1.0, 1);
    CHECK(fabs(f32.atol - 32 * 2048 * 0x1p-24) < 1e-12 && f32.atol < 2e-6 * 2048);
    CHECK(f64.atol < 1e-10 && f64.atol > 0);
    /* ≈ 0.53: 8 steps of the conversion walk, a product off by 3·2^-11 (A truncated by wgmma,
     * B rounded) */
    CHECK(fabs(tf32.atol - (f32.atol + 8 * sqrt(2048.0) * 3 * 0x1p-11)) < 1e-12 &&
          tf32.atol > 50 * f32.atol && tf32.atol < 0.6);
    CHECK(h.rtol == 32 * 0x1p-11);
}

int main(void) {
    test_names();
    test_round_trips();
    test_rounding();
    test_inputs();
    test_tolerances();
    return TEST_END();
}
