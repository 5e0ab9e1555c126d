/* numfmt.h — a number as a person reads it in a sentence (notes, machine facts). */
#ifndef GPUBENCH_NUMFMT_H
#define GPUBENCH_NUMFMT_H

#include <stddef.h>

/* v to 4 significant digits, never with an exponent from 10^4 up ("66910", not "6.691e+04";
 * below, as %.4g: "364.2", "0.064"). Writes into buf and returns it. */
const char *num_sig4(double v, char *buf, size_t len);

#endif
