/* emu_half.h — CUDA's 16-bit types for the emulation (included by emu.h): __half, __half2,
 * __nv_bfloat16, __nv_bfloat162 and float2 with CUDA's sizes and alignments, and the conversions
 * the kernels use, in software (round to nearest even, subnormals, infinities and NaN as the
 * hardware's cvt).
 * Test-only code. Only the conversions: no kernel does arithmetic in half (the GEMM tier
 * accumulates in FP32), so none is emulated. */
#ifndef GPUBENCH_EMU_HALF_H
#define GPUBENCH_EMU_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    unsigned short bits; /* IEEE binary16 */
} __half;
typedef struct {
    _Alignas(4) __half x; /* a pair of halves is one 4-byte word in CUDA: same contract */
    __half y;
} __half2;
typedef struct {
    _Alignas(8) float x;
    float y;
} float2;

/* Every half is a float exactly: a normal one by moving its fields (exponent bias 15 → 127), a
 * subnormal one as m·2^-24. By bits, not ldexpf: the emulated f16 kernels convert every operand
 * they read, and ldexpf was a third of their time. */
static inline float __half2float(__half h) {
    uint32_t s = (uint32_t)(h.bits >> 15) << 31, e = (h.bits >> 10) & 31u, m = h.bits & 1023u, x;
    float v;
    if (e == 31) {
        v = m ? NAN : INFINITY;
        return s ? -v : v;
    }
    if (e == 0) {
        v = (float)m * 0x1p-24f; /* subnormal (or zero): exact, m < 2^10 */
        return s ? -v : v;
    }
    x = s | ((e + 112u) << 23) | (m << 13);
    memcpy(&v, &x, sizeof v);
    return v;
}

static inline float2 __half22float2(__half2 h) {
    float2 r;
    r.x = __half2float(h.x);
    r.y = __half2float(h.y);
    return r;
}

/* float → half, round to nearest even (the __float2half_rn of cuda_fp16.h). */
static inline __half __float2half_rn(float f) {
    __half h;
    uint32_t x, s, e, m;
    memcpy(&x, &f, sizeof x);
    s = (x >> 16) & 0x8000u;
    if ((x & 0x7fffffffu) > 0x7f800000u) {
        h.bits = (unsigned short)(s | 0x7e00u);
        return h;
    }
    e = (x >> 23) & 255u;
    m = x & 0x7fffffu;
    if (e >= 143) { /* 2^16 and up: infinity (65520 up to 2^16 rounds there below) */
        h.bits = (unsigned short)(s | 0x7c00u);
        return h;
    }
    if (e < 113) { /* below 2^-14: a subnormal half, m·2^-24 rounded */
        float a = fabsf(f) * 0x1p24f;
        h.bits = (unsigned short)(s | (uint32_t)nearbyintf(a));
        return h;
    }
    {
        uint32_t r = ((e - 112) << 10) | (m >> 13), rest = m & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (r & 1u)))
            r++; /* may carry into the exponent: still right */
        h.bits = (unsigned short)(s | r);
    }
    return h;
}

/* BF16 (cuda_bf16.h, CUDA 11): the upper 16 bits of a float. */
typedef struct {
    unsigned short bits;
} __nv_bfloat16;
typedef struct {
    _Alignas(4) __nv_bfloat16 x;
    __nv_bfloat16 y;
} __nv_bfloat162;

static inline float __bfloat162float(__nv_bfloat16 h) {
    uint32_t x = (uint32_t)h.bits << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* float → bf16, round to nearest even (the __float2bfloat16 of cuda_bf16.h); NaN stays NaN. */
static inline __nv_bfloat16 __float2bfloat16(float f) {
    __nv_bfloat16 h;
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        h.bits = (unsigned short)((x >> 16) | 0x40u);
    else
        h.bits = (unsigned short)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
    return h;
}

#endif
