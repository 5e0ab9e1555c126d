/* cycles.c — the cycle-space check of `gpubench compare` (cycles.h). */
#include "harness/compare/cycles.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file a row was read from (its columns are by name). */
static const struct csv_table *table_of(const struct cmp_input *in, const struct run_row *r) {
    for (int i = 0; i < in->nfiles; i++)
        if (r >= in->runs[i].run && r < in->runs[i].run + in->runs[i].nrows)
            return &in->runs[i];
    return NULL;
}

/* A known (positive) number of column `name`, or NAN (no such column, empty, not a number). */
static double cell_num(const struct csv_table *t, const struct run_row *r, const char *name) {
    int i = t ? csv_col_index(t, name) : -1;
    if (i < 0 || !r->raw[i][0])
        return NAN;
    char *end;
    double v = strtod(r->raw[i], &end);
    return end != r->raw[i] && *end == '\0' && v > 0 ? v : NAN;
}

/* One side's clock: the mean over its runs of each run's mean of start and end (or whichever
 * of the two is known); NAN when no run has one. */
static double side_clock(const struct cmp_input *in, const struct run_row *const *rows, int n,
                         const char *start, const char *end) {
    double sum = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        const struct csv_table *t = table_of(in, rows[i]);
        double a = cell_num(t, rows[i], start), b = cell_num(t, rows[i], end);
        double c = isfinite(a) && isfinite(b) ? (a + b) / 2 : isfinite(a) ? a : b;
        if (isfinite(c)) {
            sum += c;
            k++;
        }
    }
    return k ? sum / k : NAN;
}

/* Whether `word` is a reason that holds a working card down (not idle, application or display
 * clocks, not "none"). */
static int throttling_word(const char *w) {
    return strcmp(w, "none") && strcmp(w, "idle") && strcmp(w, "app_clocks") &&
           strcmp(w, "display_clocks");
}

/* The union of one side's throttling reasons, '+'-joined in first-seen order, "none" when the
 * runs saw none, "" when no run knows. */
static void side_throttling(const struct cmp_input *in, const struct run_row *const *rows, int n,
                            char *out, size_t len) {
    int known = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        const struct csv_table *t = table_of(in, rows[i]);
        int c = t ? csv_col_index(t, "throttle_reasons") : -1;
        if (c < 0 || !rows[i]->raw[c][0])
            continue;
        known = 1;
        char words[256], *save = NULL;
        snprintf(words, sizeof words, "%s", rows[i]->raw[c]);
        for (char *w = strtok_r(words, "+", &save); w; w = strtok_r(NULL, "+", &save)) {
            size_t at = strlen(out);
            char padded[80];
            snprintf(padded, sizeof padded, "+%s+", w);
            char have[300];
            snprintf(have, sizeof have, "+%s+", out);
            if (throttling_word(w) && !strstr(have, padded) && at + strlen(w) + 2 < len)
                snprintf(out + at, len - at, "%s%s", at ? "+" : "", w);
        }
    }
    if (known && !out[0])
        snprintf(out, len, "none");
}

static void add(char *why, size_t len, const char *what, double a, double b) {
    size_t n = strlen(why);
    if (n + 2 < len)
        snprintf(why + n, len - n, "%s%s clock %.0f -> %.0f MHz", n ? "; " : "", what, a, b);
}

int cmp_cycles_differ(const struct cmp_input *in, const struct run_row *const *b, int nb,
                      const struct run_row *const *n, int nn, char *why, size_t whylen) {
    static const char *const cols[2][3] = {
        {"SM", "sm_clock_start_mhz", "sm_clock_end_mhz"},
        {"memory", "mem_clock_start_mhz", "mem_clock_end_mhz"}};
    why[0] = '\0';
    for (int k = 0; k < 2; k++) {
        double cb = side_clock(in, b, nb, cols[k][1], cols[k][2]);
        double cn = side_clock(in, n, nn, cols[k][1], cols[k][2]);
        if (isfinite(cb) && isfinite(cn) && fabs(cn / cb - 1) > CYCLES_CLOCK_TOL)
            add(why, whylen, cols[k][0], cb, cn);
    }
    char tb[160], tn[160];
    side_throttling(in, b, nb, tb, sizeof tb);
    side_throttling(in, n, nn, tn, sizeof tn);
    if (tb[0] && tn[0] && strcmp(tb, tn)) {
        size_t len = strlen(why);
        snprintf(why + len, whylen - len, "%sthrottling %s -> %s", len ? "; " : "", tb, tn);
    }
    return why[0] != '\0';
}
