/* json.h — the one JSON writer of every command (run, compare, doctor): one escaping, one null
 * convention, one number format, so a field reads the same whichever command wrote it.
 *
 * Conventions: a missing or empty string is null; a number that is not finite is null (callers
 * pass NAN for "does not apply"); a number is written with the fewest significant digits that
 * read back as exactly the same double (so a JSON reader gets the value gpubench computed, and
 * 0.1 stays "0.1"); strings are UTF-8 passed through, with '"', '\' and every control
 * character escaped. */
#ifndef GPUBENCH_JSON_H
#define GPUBENCH_JSON_H

#include <stddef.h>
#include <stdio.h>

/* The schema every JSON document of gpubench names (docs/json.md, docs/gpubench.schema.json):
 * the same version as the run CSV's, since a run's rows are the CSV's columns. */
#define JSON_SCHEMA "gpubench-1"

/* Room for any number json_number_text writes ("-2.2250738585072014e-308" and its NUL). */
enum { JSON_NUMBER_MAX = 32 };

/* `s` as a JSON string; NULL or "" as null. */
void json_string(FILE *f, const char *s);

/* `v` as the text with the fewest significant digits that reads back (strtod) as the same
 * double — whole numbers below 2^53 positionally ("1000000000", not "1e+09"); NaN and
 * infinities as null. */
void json_number(FILE *f, double v);

/* The same text into out (at least JSON_NUMBER_MAX bytes); returns its length. For writers that
 * need the text itself (a JSON key, a CSV cell). */
int json_number_text(char *out, size_t len, double v);

/* "key": then the value: the members of an object, `sep` written first (", " or ""). */
void json_member_string(FILE *f, const char *sep, const char *key, const char *s);
void json_member_number(FILE *f, const char *sep, const char *key, double v);

/* Open a document: '{' and the members every command's document starts with — "schema",
 * "command" ("run", "compare", "doctor") and "gpubench_version". The caller goes on with
 * ", " and its own members, and closes the object. */
void json_document_begin(FILE *f, const char *command);

#endif
