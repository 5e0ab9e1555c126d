/* json.c — the one JSON writer (json.h). */
#include "harness/io/json.h"

#include <math.h>
#include <stdlib.h>

void json_string(FILE *f, const char *s) {
    if (!s || !s[0]) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

int json_number_text(char *out, size_t len, double v) {
    if (!isfinite(v))
        return snprintf(out, len, "null");
    /* Whole numbers (counts: flops, bytes, reps) positionally, as JSON integers: below 2^53
     * doubles are at most 1 apart, so "1000000000" has no more significant digits than
     * "1e+09" needs, and it is what readers expect of a count. */
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        return snprintf(out, len, "%.0f", v);
    /* The fewest significant digits whose text reads back as the same double: 17 always do
     * (IEEE 754 binary64), most values need far fewer (0.1, not 0.10000000000000001). */
    for (int digits = 1; digits <= 17; digits++) {
        int n = snprintf(out, len, "%.*g", digits, v);
        if (n < 0 || (size_t)n >= len || strtod(out, NULL) == v)
            return n;
    }
    return snprintf(out, len, "%.17g", v);
}

void json_number(FILE *f, double v) {
    char text[JSON_NUMBER_MAX];
    json_number_text(text, sizeof text, v);
    fputs(text, f);
}

void json_member_string(FILE *f, const char *sep, const char *key, const char *s) {
    fprintf(f, "%s\"%s\": ", sep, key);
    json_string(f, s);
}

void json_member_number(FILE *f, const char *sep, const char *key, double v) {
    fprintf(f, "%s\"%s\": ", sep, key);
    json_number(f, v);
}

void json_document_begin(FILE *f, const char *command) {
    fputc('{', f);
    json_member_string(f, "", "schema", JSON_SCHEMA);
    json_member_string(f, ", ", "command", command);
    json_member_string(f, ", ", "gpubench_version", GPUBENCH_VERSION);
}
