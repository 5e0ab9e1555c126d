/* json.h — the one JSON writer of every command (run, compare, doctor): one escaping, one null
 * convention, one number format, so a field reads the same whichever command wrote it.
 *
 * Conventions: a missing or empty string is null; a number that is not finite is null (callers
 * pass NAN for "does not apply"); strings are UTF-8 passed through, with '"', '\' and every
 * control character escaped. */
#ifndef GPUBENCH_JSON_H
#define GPUBENCH_JSON_H

#include <stdio.h>

/* `s` as a JSON string; NULL or "" as null. */
void json_string(FILE *f, const char *s);

/* `v` with 10 significant digits; NaN and infinities as null. */
void json_number(FILE *f, double v);

/* "key": then the value: the members of an object, `sep` written first (", " or ""). */
void json_member_string(FILE *f, const char *sep, const char *key, const char *s);
void json_member_number(FILE *f, const char *sep, const char *key, double v);

#endif
