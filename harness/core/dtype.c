/* dtype.c — the precision tiers' names, sizes and round-offs, and host conversions to the 16-bit
 * formats (the CPU side of f16 and bf16 rows: staging buffers, rounded inputs, references). */
#include "harness/core/dtype.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct tier {
    const char *flag, *name, *label;
    int bytes;
    double u, u_acc;
};

static const struct tier tiers[DT_COUNT] = {
    [DT_F32] = {"f32", "float32", "FP32", 4, 0x1p-24, 0x1p-24},
    [DT_F64] = {"f64", "float64", "FP64", 8, 0x1p-53, 0x1p-53},
    [DT_TF32] = {"tf32", "tfloat32", "TF32", 4, 0x1p-11, 0x1p-24},
    [DT_F16] = {"f16", "float16", "FP16", 2, 0x1p-11, 0x1p-24},
    [DT_BF16] = {"bf16", "bfloat16", "BF16", 2, 0x1p-8, 0x1p-24},
};

static const struct tier *tier(enum dtype t) {
    return &tiers[(unsigned)t < DT_COUNT ? t : DT_F32];
}

const char *dtype_flag(enum dtype t) {
    return tier(t)->flag;
}
const char *dtype_name(enum dtype t) {
    return tier(t)->name;
}
const char *dtype_label(enum dtype t) {
    return tier(t)->label;
}
int dtype_bytes(enum dtype t) {
    return tier(t)->bytes;
}
double dtype_unit_roundoff(enum dtype t) {
    return tier(t)->u;
}
double dtype_acc_roundoff(enum dtype t) {
    return tier(t)->u_acc;
}

int dtype_parse(const char *s, enum dtype *out) {
    for (int t = 0; t < DT_COUNT; t++)
        if (strcmp(s, tiers[t].flag) == 0 || strcmp(s, tiers[t].name) == 0) {
            *out = (enum dtype)t;
            return 0;
        }
    return -1;
}

unsigned dtype_mask(unsigned declared) {
    return declared ? declared & DT_ALL : DT_BIT(DT_F32);
}

static uint32_t bits_of(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float float_of(uint32_t u) {
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* x with its low `drop` mantissa bits rounded away (to nearest, ties to even); NaN and Inf kept.
 * Used for tf32 and bf16, which keep float32's exponent range. */
static float round_mantissa(float x, int drop) {
    uint32_t u = bits_of(x);
    if ((u & 0x7f800000u) == 0x7f800000u)
        return x;
    uint32_t half = 1u << (drop - 1), lsb = (u >> drop) & 1u;
    u = (u + half - 1 + lsb) & ~((1u << drop) - 1u);
    return float_of(u);
}

uint16_t dtype_f32_to_bf16(float x) {
    if (isnan(x))
        return 0x7fc0;
    return (uint16_t)(bits_of(round_mantissa(x, 16)) >> 16);
}

float dtype_bf16_to_f32(uint16_t h) {
    return float_of((uint32_t)h << 16);
}

uint16_t dtype_f32_to_f16(float x) {
    uint32_t u = bits_of(x);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    float a = fabsf(x);
    if (isnan(x))
        return 0x7e00;
    if (a >= 65520.0f) /* 65504 + half an ulp rounds to infinity */
        return sign | 0x7c00;
    if (a < 0x1p-14f) { /* subnormal: a multiple of 2^-24, rounded to nearest even by rintf */
        return sign | (uint16_t)rintf(a * 0x1p24f);
    }
    uint32_t r = bits_of(round_mantissa(a, 13));
    int e = (int)((r >> 23) & 0xff) - 127 + 15;
    return sign | (uint16_t)((unsigned)e << 10) | (uint16_t)((r >> 13) & 0x3ffu);
}

float dtype_f16_to_f32(uint16_t h) {
    float sign = (h & 0x8000u) ? -1.0f : 1.0f;
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0)
        return sign * ldexpf((float)m, -24);
    if (e == 31)
        return m ? NAN : sign * INFINITY;
    return sign * ldexpf((float)(m | 0x400), e - 25);
}

float dtype_round(enum dtype t, float x) {
    switch (t) {
    case DT_TF32: return round_mantissa(x, 13);
    case DT_F16: return dtype_f16_to_f32(dtype_f32_to_f16(x));
    case DT_BF16: return dtype_bf16_to_f32(dtype_f32_to_bf16(x));
    default: return x;
    }
}

uint16_t *dtype_halves_new(const float *x, size_t n, enum dtype t) {
    uint16_t *h = malloc(n * sizeof *h + 1); /* + 1: n = 0 still gets an array */
    if (h)
        for (size_t i = 0; i < n; i++)
            h[i] = t == DT_BF16 ? dtype_f32_to_bf16(x[i]) : dtype_f32_to_f16(x[i]);
    return h;
}

void dtype_halves_to_f32(const uint16_t *h, float *out, size_t n, enum dtype t) {
    for (size_t i = 0; i < n; i++)
        out[i] = t == DT_BF16 ? dtype_bf16_to_f32(h[i]) : dtype_f16_to_f32(h[i]);
}
