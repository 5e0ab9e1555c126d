/* cycles.c — the cycle-space check of `gpubench compare` (cycles.h). */
#include "harness/compare/cycles.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A known (positive) number of column `name`, or NAN (no such column, empty, not a number). */
static double cell_num(const struct csv_table *t, const struct run_row *r, const char *name) {
    int i = csv_col_index(t, name);
    if (i < 0 || !r->raw[i][0])
        return NAN;
    char *end;
    double v = strtod(r->raw[i], &end);
    return end != r->raw[i] && *end == '\0' && v > 0 ? v : NAN;
}

/* The clock over the timed repetitions: the mean of start and end, or whichever is known. */
static double clock_of(const struct csv_table *t, const struct run_row *r, const char *start,
                       const char *end) {
    double a = cell_num(t, r, start), b = cell_num(t, r, end);
    return isfinite(a) && isfinite(b) ? (a + b) / 2 : isfinite(a) ? a : b;
}

/* The throttling words of the row's throttle_reasons (idle, application and display clocks left
 * out: they do not hold a working card down), "none" when there are none, "" when unknown. */
static void throttling(const struct csv_table *t, const struct run_row *r, char *out,
                       size_t len) {
    int i = csv_col_index(t, "throttle_reasons");
    size_t n = 0;
    out[0] = '\0';
    if (i < 0 || !r->raw[i][0])
        return;
    char words[256];
    snprintf(words, sizeof words, "%s", r->raw[i]);
    char *save = NULL;
    for (char *w = strtok_r(words, "+", &save); w; w = strtok_r(NULL, "+", &save)) {
        if (!strcmp(w, "none") || !strcmp(w, "idle") || !strcmp(w, "app_clocks") ||
            !strcmp(w, "display_clocks") || n >= len)
            continue;
        n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "+" : "", w);
    }
    if (!n)
        snprintf(out, len, "none");
}

static void add(char *why, size_t len, const char *fmt, const char *what, double a, double b) {
    size_t n = strlen(why);
    if (n + 2 < len) {
        snprintf(why + n, len - n, "%s", n ? "; " : "");
        n = strlen(why);
        snprintf(why + n, len - n, fmt, what, a, b);
    }
}

int cmp_cycles_differ(const struct csv_table *bt, const struct run_row *b,
                      const struct csv_table *nt, const struct run_row *n, char *why,
                      size_t whylen) {
    static const char *const cols[2][3] = {
        {"SM", "sm_clock_start_mhz", "sm_clock_end_mhz"},
        {"memory", "mem_clock_start_mhz", "mem_clock_end_mhz"}};
    why[0] = '\0';
    for (int k = 0; k < 2; k++) {
        double cb = clock_of(bt, b, cols[k][1], cols[k][2]);
        double cn = clock_of(nt, n, cols[k][1], cols[k][2]);
        if (isfinite(cb) && isfinite(cn) && fabs(cn / cb - 1) > CYCLES_CLOCK_TOL)
            add(why, whylen, "%s clock %.0f -> %.0f MHz", cols[k][0], cb, cn);
    }
    char tb[160], tn[160];
    throttling(bt, b, tb, sizeof tb);
    throttling(nt, n, tn, sizeof tn);
    if (tb[0] && tn[0] && strcmp(tb, tn)) {
        size_t len = strlen(why);
        snprintf(why + len, whylen - len, "%sthrottling %s -> %s", len ? "; " : "", tb, tn);
    }
    return why[0] != '\0';
}
