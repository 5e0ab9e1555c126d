/* out.c — how `gpubench compare` prints: aligned terminal tables, markdown tables,
 * RFC 4180 CSV fields, JSON values, and number formats with their units. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "harness/compare/internal.h"
#include "harness/io/termcols.h"

int grid_init(struct cmp_grid *g, int ncols) {
    memset(g, 0, sizeof *g);
    g->ncols = ncols;
    g->head = calloc((size_t)ncols, sizeof *g->head);
    g->group = calloc((size_t)ncols, sizeof *g->group);
    g->group_span = calloc((size_t)ncols, sizeof *g->group_span);
    g->right = calloc((size_t)ncols, 1);
    if (!g->head || !g->group || !g->group_span || !g->right)
        return -1;
    return 0;
}

int grid_head(struct cmp_grid *g, int c, const char *head, int right) {
    free(g->head[c]);
    g->head[c] = strdup(head);
    g->right[c] = (unsigned char)right;
    return g->head[c] ? 0 : -1;
}

int grid_group(struct cmp_grid *g, int c, int span, const char *label) {
    free(g->group[c]);
    g->group[c] = label ? strdup(label) : NULL;
    g->group_span[c] = span;
    return !label || g->group[c] ? 0 : -1;
}

int grid_row(struct cmp_grid *g, int rule) {
    if (g->nrows == g->cap) {
        int cap = g->cap ? 2 * g->cap : 32;
        char **cells = realloc(g->cells, (size_t)cap * (size_t)g->ncols * sizeof *cells);
        if (!cells)
            return -1;
        g->cells = cells;
        unsigned char *r = realloc(g->rule, (size_t)cap);
        if (!r)
            return -1;
        g->rule = r;
        r = realloc(g->own, (size_t)cap);
        if (!r)
            return -1;
        g->own = r;
        g->cap = cap;
    }
    for (int c = 0; c < g->ncols; c++)
        g->cells[(size_t)g->nrows * (size_t)g->ncols + (size_t)c] = NULL;
    g->rule[g->nrows] = (unsigned char)rule;
    g->own[g->nrows] = 0;
    return g->nrows++;
}

int grid_line(struct cmp_grid *g, int rule, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    int row = grid_row(g, rule);
    if (row < 0 || grid_set(g, row, 0, "%s", buf))
        return -1;
    g->own[row] = 1;
    return row;
}

int grid_set(struct cmp_grid *g, int row, int c, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **cell = &g->cells[(size_t)row * (size_t)g->ncols + (size_t)c];
    free(*cell);
    *cell = strdup(buf);
    return *cell ? 0 : -1;
}

void grid_free(struct cmp_grid *g) {
    for (int c = 0; c < g->ncols; c++) {
        if (g->head)
            free(g->head[c]);
        if (g->group)
            free(g->group[c]);
    }
    for (size_t i = 0; i < (size_t)g->nrows * (size_t)g->ncols; i++)
        free(g->cells[i]);
    free(g->head);
    free(g->group);
    free(g->group_span);
    free(g->right);
    free(g->cells);
    free(g->rule);
    free(g->own);
    memset(g, 0, sizeof *g);
}

static const char *cell(const struct cmp_grid *g, int r, int c) {
    return g->cells[(size_t)r * (size_t)g->ncols + (size_t)c];
}

static void print_rule(FILE *out, int indent, int len) {
    fprintf(out, "%*s", indent, "");
    for (int i = 0; i < len; i++)
        fputc('-', out);
    fputc('\n', out);
}

static void print_terminal(const struct cmp_grid *g, FILE *out) {
    int *w = calloc((size_t)g->ncols, sizeof *w);
    if (!w)
        return;
    int any_group = 0;
    for (int c = 0; c < g->ncols; c++) {
        w[c] = term_cols(g->head[c]);
        for (int r = 0; r < g->nrows; r++)
            if (!g->own[r] && term_cols(cell(g, r, c)) > w[c])
                w[c] = term_cols(cell(g, r, c));
    }
    /* a group label wider than its columns widens them, evenly */
    for (int c = 0; c < g->ncols; c++) {
        if (!g->group[c])
            continue;
        any_group = 1;
        int span = g->group_span[c], have = 0;
        if (c + span > g->ncols)
            span = g->ncols - c;
        for (int k = c; k < c + span; k++)
            have += w[k] + (k > c ? 2 : 0);
        int need = term_cols(g->group[c]);
        for (int k = c; need > have && k < c + span; k++) {
            int add = (need - have + (c + span - k) - 1) / (c + span - k);
            w[k] += add;
            have += add;
        }
    }
    int total = 0;
    for (int c = 0; c < g->ncols; c++)
        total += w[c] + (c ? 2 : 0);
    if (any_group) {
        fprintf(out, "%*s", g->indent, "");
        for (int c = 0; c < g->ncols;) {
            if (c)
                fputs("  ", out);
            if (g->group[c]) {
                int span = g->group_span[c], have = 0;
                for (int k = c; k < c + span && k < g->ncols; k++)
                    have += w[k] + (k > c ? 2 : 0);
                term_cell(out, g->group[c], have, 0);
                c += span;
            } else {
                term_cell(out, "", w[c], 0);
                c++;
            }
        }
        fputc('\n', out);
    }
    fprintf(out, "%*s", g->indent, "");
    for (int c = 0; c < g->ncols; c++) {
        if (c)
            fputs("  ", out);
        term_cell(out, g->head[c], w[c], g->right[c]);
    }
    fputc('\n', out);
    print_rule(out, g->indent, total);
    for (int r = 0; r < g->nrows; r++) {
        if (g->rule[r])
            print_rule(out, g->indent, total);
        if (g->own[r]) { /* its own line, in no column */
            fprintf(out, "%s\n", cell(g, r, 0) ? cell(g, r, 0) : "");
            continue;
        }
        fprintf(out, "%*s", g->indent, "");
        for (int c = 0; c < g->ncols; c++) {
            if (c)
                fputs("  ", out);
            term_cell(out, cell(g, r, c), c == g->ncols - 1 && !g->right[c] ? 0 : w[c],
                      g->right[c]);
        }
        fputc('\n', out);
    }
    free(w);
}

static void md_text(FILE *out, const char *s) {
    for (; s && *s; s++) {
        if (*s == '|')
            fputc('\\', out);
        fputc(*s == '\n' ? ' ' : *s, out);
    }
}

static void print_markdown(const struct cmp_grid *g, FILE *out) {
    const char *grp = NULL;
    int left = 0;
    fputc('|', out);
    for (int c = 0; c < g->ncols; c++) {
        if (g->group[c]) {
            grp = g->group[c];
            left = g->group_span[c];
        }
        fputc(' ', out);
        if (grp && left > 0) {
            md_text(out, grp);
            fputc(' ', out);
        }
        md_text(out, g->head[c]);
        fputs(" |", out);
        if (left > 0 && --left == 0)
            grp = NULL;
    }
    fputs("\n|", out);
    for (int c = 0; c < g->ncols; c++)
        fputs(g->right[c] ? "---:|" : "---|", out);
    fputc('\n', out);
    for (int r = 0; r < g->nrows; r++) {
        fputc('|', out);
        for (int c = 0; c < g->ncols; c++) {
            fputc(' ', out);
            const char *s = cell(g, r, c);
            if (g->rule[r] && s && *s) {
                fputs("**", out);
                md_text(out, s);
                fputs("**", out);
            } else {
                md_text(out, s);
            }
            fputs(" |", out);
        }
        fputc('\n', out);
    }
}

/* Copy text to out without the spaces that padding leaves at the ends of lines. */
static void put_trimmed(const char *s, size_t len, FILE *out) {
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\n')
            continue;
        size_t end = i;
        while (end > start && s[end - 1] == ' ')
            end--;
        fwrite(s + start, 1, end - start, out);
        if (i < len)
            fputc('\n', out);
        start = i + 1;
    }
}

void grid_print(const struct cmp_grid *g, int markdown, FILE *out) {
    if (markdown) {
        print_markdown(g, out);
        return;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        print_terminal(g, out);
        return;
    }
    print_terminal(g, m);
    fclose(m);
    put_trimmed(buf, len, out);
    free(buf);
}

void fmt_ms(char *buf, size_t len, double ms) {
    /* about 4 significant digits, no exponent from 1000 ms down to 0.0001 ms */
    if (!isfinite(ms))
        snprintf(buf, len, "-");
    else if (ms >= 1000)
        snprintf(buf, len, "%.0f", ms);
    else if (ms >= 100)
        snprintf(buf, len, "%.1f", ms);
    else if (ms >= 10)
        snprintf(buf, len, "%.2f", ms);
    else if (ms >= 1)
        snprintf(buf, len, "%.3f", ms);
    else
        snprintf(buf, len, "%.4g", ms);
}

/* 3 significant digits without an exponent. */
static void fmt_factor(char *buf, size_t len, double x) {
    if (x >= 100)
        snprintf(buf, len, "%.0f", x);
    else if (x >= 10)
        snprintf(buf, len, "%.1f", x);
    else
        snprintf(buf, len, "%.2f", x);
}

void fmt_ratio(char *buf, size_t len, double ratio) {
    char f[32];
    if (!(ratio > 0) || !isfinite(ratio)) {
        snprintf(buf, len, "-");
        return;
    }
    if (ratio >= 1) {
        fmt_factor(f, sizeof f, ratio);
        /* equal to the digits shown: "1.00× slower" would claim a difference it cannot show */
        snprintf(buf, len, strcmp(f, "1.00") ? "%s× slower" : "same", f);
    } else {
        fmt_factor(f, sizeof f, 1 / ratio);
        snprintf(buf, len, strcmp(f, "1.00") ? "%s× faster" : "same", f);
    }
}

void fmt_change(char *buf, size_t len, double change) {
    if (!isfinite(change))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%+.1f%%", 100 * change);
}
