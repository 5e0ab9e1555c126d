/* json.c — the one JSON writer (json.h). */
#include "harness/io/json.h"

#include <math.h>

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

void json_number(FILE *f, double v) {
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputs("null", f);
}

void json_member_string(FILE *f, const char *sep, const char *key, const char *s) {
    fprintf(f, "%s\"%s\": ", sep, key);
    json_string(f, s);
}

void json_member_number(FILE *f, const char *sep, const char *key, double v) {
    fprintf(f, "%s\"%s\": ", sep, key);
    json_number(f, v);
}
