/* numfmt.c — numbers in sentences (numfmt.h). */
#include "harness/core/numfmt.h"

#include <math.h>
#include <stdio.h>

const char *num_sig4(double v, char *buf, size_t len) {
    if (!(fabs(v) >= 1e4) || isinf(v)) { /* %.4g has no exponent below 10^4 (down to 10^-4) */
        snprintf(buf, len, "%.4g", v);
        return buf;
    }
    double unit = pow(10, floor(log10(fabs(v))) - 3); /* the 4th significant digit */
    snprintf(buf, len, "%.0f", round(v / unit) * unit);
    return buf;
}
