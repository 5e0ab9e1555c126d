/* shape.h — parse and print shapes: "m=2048,n=2048,k=2048" ⇄ struct shape. */
#ifndef GPUBENCH_SHAPE_H
#define GPUBENCH_SHAPE_H

#include <stddef.h>

#include "harness/core/workload.h"

/* Number of keys of workload w. */
int shape_nkeys(const struct workload *w);

/* Parse `text` — key=value pairs separated by ',' or ';' — into *s for workload w. A key K
 * that w lacks but whose K_h and K_w it has (stride, pad) sets both. Values are decimal
 * integers or 2^N. A key left out takes its value in the workload's default shape (its first),
 * where that shape gives it. Unknown, repeated or still missing keys, malformed or negative
 * numbers and values the workload's `complete` hook rejects give -1 and a one-line reason. */
int shape_parse(const struct workload *w, const char *text, struct shape *s, char *err,
                size_t errlen);

/* Canonical form: every key in the workload's order, "k=v" joined by ';'. */
void shape_format(const struct workload *w, const struct shape *s, char *out, size_t outlen);

/* Short form for the terminal table: like shape_format with ' ' between pairs and per-axis
 * pairs that are equal folded (stride_h=stride_w=1 → stride=1): shape_compact of the canonical
 * form, so that every human output prints a shape the same way. */
void shape_format_short(const struct workload *w, const struct shape *s, char *out,
                        size_t outlen);

/* The short form of a canonical shape string, for commands that have the string but not the
 * workload (compare): "k=v" pairs joined by ' ', a K_h=v;K_w=v pair of equal values as K=v. */
void shape_compact(const char *canonical, char *out, size_t outlen);

/* Parse a whole number for option `what`: decimal digits only (or 2^N when allow_pow2),
 * within [min, max]. Returns 0, or -1 with a one-line reason in err. */
int parse_long(const char *text, long min, long max, int allow_pow2, long *out, char *err,
               size_t errlen, const char *what);

#endif
