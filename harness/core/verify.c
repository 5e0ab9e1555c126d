/* verify.c — the one validator: |got − ref| ≤ atol + rtol·|ref|, first mismatches recorded. */
#include "harness/core/verify.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { SHOW_BAD = 3 };

void verify_begin(struct verify_report *r) { memset(r, 0, sizeof *r); }

/* got is float32 (got32) or double (got64). */
static size_t verify_any(struct verify_report *r, const char *name, const float *got32,
                         const double *got64, const double *ref, const size_t *idx, size_t n,
                         double atol, double rtol) {
    size_t bad = 0;
    for (size_t j = 0; j < n; j++) {
        size_t i = idx ? idx[j] : j;
        double g = got64 ? got64[i] : got32[i], want = ref[j];
        double err = fabs(g - want);
        /* Relative error against a floor of atol/rtol, so values near zero don't blow it up. */
        double scale = fmax(fabs(want), rtol > 0 ? atol / rtol : 1.0);
        double rel = scale > 0 ? err / scale : err;
        int ok = isfinite(g) && err <= atol + rtol * fabs(want);
        if (!isfinite(g))
            rel = INFINITY;
        if (rel > r->max_rel_err || isnan(rel))
            r->max_rel_err = isnan(rel) ? INFINITY : rel;
        if (!ok) {
            if (r->bad + bad < SHOW_BAD) {
                size_t len = strlen(r->first_bad);
                snprintf(r->first_bad + len, sizeof r->first_bad - len, "%s%s[%zu]=%.*g want %.*g",
                         len ? "; " : "", name, i, got64 ? 12 : 6, g, got64 ? 12 : 6, want);
            }
            bad++;
        }
    }
    r->checked += n;
    r->bad += bad;
    return bad;
}

size_t verify_close(struct verify_report *r, const char *name, const float *got,
                    const double *ref, const size_t *idx, size_t n, double atol, double rtol) {
    return verify_any(r, name, got, NULL, ref, idx, n, atol, rtol);
}

size_t verify_buf(struct verify_report *r, const struct buf *b, const double *ref,
                  const size_t *idx, size_t n, double atol, double rtol) {
    return verify_any(r, b->name, b->data, b->data64, ref, idx, n, atol, rtol);
}

/* e_in of tf32 (docs/precision.md, "TF32 on Hopper's wgmma"): an operand rounded to nearest
 * (cvt.rna) is off by at most u = 2^-11 of itself, one truncated (Hopper's wgmma reading FP32
 * bits in place keeps their top 19) by less than 2u; gemm/cuda_tc's wgmma kernel truncates A
 * where it reads A in place and rounds Bᵀ, so a product is off by at most 3u (2u where both are
 * rounded: the mma.sync and WMMA kernels). */
struct tol verify_tol(enum dtype t, double terms, double term_max, int out_in_tier) {
    double e_in = t == DT_TF32 ? 3 * dtype_unit_roundoff(t) : 0.0;
    double u_acc = dtype_acc_roundoff(t);
    double u_out = out_in_tier ? dtype_unit_roundoff(t) : u_acc;
    double atol = term_max * (TOL_SAFETY * terms * u_acc + TOL_SIGMAS * sqrt(terms) * e_in);
    struct tol tl = {atol, TOL_SAFETY * u_out};
    return tl;
}

enum status verify_status(const struct verify_report *r) { return r->bad ? ST_WRONG : ST_OK; }
