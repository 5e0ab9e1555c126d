/* dtype.h — precision tiers: what a row computes in. Every row of a run is one tier; the CSV's
 * `dtype` column names it, and (workload, impl, shape, dtype) is a row's identity.
 *
 *   tier  CSV name  storage  unit round-off u            accumulation
 *   f32   float32   4 bytes  2^-24                       FP32
 *   f64   float64   8 bytes  2^-53                       FP64
 *   tf32  tfloat32  4 bytes  2^-11 (inputs rounded to a   FP32 (tensor cores, cc 8.0+)
 *                            10-bit mantissa by the hardware)
 *   f16   float16   2 bytes  2^-11                       FP32 (storage in half precision)
 *   bf16  bfloat16  2 bytes  2^-8                        FP32
 *
 * f32 is 0, so a zeroed problem or implementation is float32, as every one was before tiers. */
#ifndef GPUBENCH_DTYPE_H
#define GPUBENCH_DTYPE_H

#include <stddef.h>
#include <stdint.h>

enum dtype { DT_F32 = 0, DT_F64, DT_TF32, DT_F16, DT_BF16, DT_COUNT };

/* A set of tiers as a bitmask; 0 in an impl or workload means "float32 only". */
#define DT_BIT(t) (1u << (t))
#define DT_ALL ((1u << DT_COUNT) - 1u)
#define DT_DEFAULT (DT_BIT(DT_F32) | DT_BIT(DT_F64))

/* The short name used on the command line: "f32", "f64", "tf32", "f16", "bf16". */
const char *dtype_flag(enum dtype t);

/* The name written in the CSV `dtype` column: "float32", "float64", "tfloat32", "float16",
 * "bfloat16" (NumPy's and PyTorch's names; TF32 has none there). */
const char *dtype_name(enum dtype t);

/* The hardware's name for the tier, for notes: "FP32", "FP64", "TF32", "FP16", "BF16". */
const char *dtype_label(enum dtype t);

/* Bytes of one stored element (tf32 is stored as float32). */
int dtype_bytes(enum dtype t);

/* Unit round-off of the tier's arithmetic on its inputs (see the table above). */
double dtype_unit_roundoff(enum dtype t);

/* Unit round-off of the accumulation: 2^-53 for f64, 2^-24 (FP32) for every other tier. */
double dtype_acc_roundoff(enum dtype t);

/* The tier named `s` (flag or CSV name). Returns 0, or -1 when s names none. */
int dtype_parse(const char *s, enum dtype *out);

/* The tiers of a mask, 0 meaning float32 only. */
unsigned dtype_mask(unsigned declared);

/* Round x to the nearest value the tier stores (ties to even; f16 with its subnormals and
 * overflow to infinity; tf32 to a 10-bit mantissa; f32 and f64 leave x as it is). */
float dtype_round(enum dtype t, float x);

/* IEEE binary16 and bfloat16 bit patterns, converted on the host (round to nearest even). */
uint16_t dtype_f32_to_f16(float x);
float dtype_f16_to_f32(uint16_t h);
uint16_t dtype_f32_to_bf16(float x);
float dtype_bf16_to_f32(uint16_t h);

/* The 16-bit patterns of n float32 values of tier t (f16 or bf16; values already of the tier
 * convert exactly), in a new malloc'd array; NULL when out of memory. n = 0 gives a valid,
 * empty array. */
uint16_t *dtype_halves_new(const float *x, size_t n, enum dtype t);

/* out[i] = the float32 value of the tier-t pattern h[i], i in [0, n). */
void dtype_halves_to_f32(const uint16_t *h, float *out, size_t n, enum dtype t);

#endif
