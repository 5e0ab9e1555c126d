/* verify.c — the one validator: |got − ref| ≤ atol + rtol·|ref|, first mismatches recorded. */
#include "harness/core/verify.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { SHOW_BAD = 3 };

void verify_begin(struct verify_report *r) { memset(r, 0, sizeof *r); }

size_t verify_close(struct verify_report *r, const char *name, const float *got,
                    const double *ref, const size_t *idx, size_t n, double atol, double rtol) {
    size_t bad = 0;
    for (size_t j = 0; j < n; j++) {
        size_t i = idx ? idx[j] : j;
        double g = got[i], want = ref[j];
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
                snprintf(r->first_bad + len, sizeof r->first_bad - len, "%s%s[%zu]=%.6g want %.6g",
                         len ? "; " : "", name, i, g, want);
            }
            bad++;
        }
    }
    r->checked += n;
    r->bad += bad;
    return bad;
}

enum status verify_status(const struct verify_report *r) { return r->bad ? ST_WRONG : ST_OK; }
