/* grid_fit.c — a compare table fitted to the terminal's width (internal.h: grid_print_fit): the
 * wide table where it fits, else its column groups (one device's kernel and e2e) split over
 * several tables that repeat the key columns, a long first column (a shape, a device name) on
 * lines of its own. Files and pipes, whose width nothing tells, keep the wide form. */
#include <stdlib.h>
#include <string.h>

#include "harness/compare/internal.h"
#include "harness/io/termcols.h"

int grid_width(const struct cmp_grid *g) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return -1;
    grid_print(g, 0, m);
    fclose(m);
    int widest = 0;
    for (char *line = buf, *end; line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        if (end)
            *end = '\0';
        widest = term_cols(line) > widest ? term_cols(line) : widest;
    }
    free(buf);
    return widest;
}

static const char *cell(const struct cmp_grid *g, int r, int c) {
    return g->cells[(size_t)r * (size_t)g->ncols + (size_t)c];
}

int grid_keep(const struct cmp_grid *g, const int *keep, struct cmp_grid *out) {
    int n = 0, k = 0;
    for (int c = 0; c < g->ncols; c++)
        n += keep[c];
    if (grid_init(out, n))
        return -1;
    out->indent = g->indent;
    for (int c = 0; c < g->ncols; c++) {
        if (!keep[c])
            continue;
        int whole = g->group_span[c] > 0; /* a group only of all its columns */
        for (int j = c; whole && j < c + g->group_span[c] && j < g->ncols; j++)
            whole = keep[j];
        if (grid_head(out, k, g->head[c], g->right[c]) ||
            (whole && grid_group(out, k, g->group_span[c], g->group[c])))
            return -1;
        k++;
    }
    for (int r = 0; r < g->nrows; r++) {
        int row = g->own[r] ? grid_line(out, g->rule[r], "%s", cell(g, r, 0) ? cell(g, r, 0) : "")
                            : grid_row(out, g->rule[r]);
        if (row < 0)
            return -1;
        for (int c = 0, j = 0; c < g->ncols && !g->own[r]; c++)
            if (keep[c] && grid_set(out, row, j++, "%s", cell(g, r, c) ? cell(g, r, c) : ""))
                return -1;
    }
    return 0;
}

/* g with column 0 moved out of the columns, into *out: each row that sets it gets a line of its
 * own over it, named by the column's head ("shape: m=512 n=512 k=512" over its implementations),
 * or where that row's column 1 is an empty key its text there (the "geomean" row keeps one
 * line). Returns 0 or -1 (no memory). */
static int first_to_own_lines(const struct cmp_grid *g, int nkey, struct cmp_grid *out) {
    if (grid_init(out, g->ncols - 1))
        return -1;
    out->indent = 2; /* the rows under their own line */
    for (int c = 1; c < g->ncols; c++)
        if (grid_head(out, c - 1, g->head[c], g->right[c]) ||
            (g->group_span[c] > 0 && grid_group(out, c - 1, g->group_span[c], g->group[c])))
            return -1;
    for (int r = 0; r < g->nrows; r++) {
        const char *first = cell(g, r, 0);
        int rule = g->rule[r];
        if (g->own[r]) {
            if (grid_line(out, rule, "%s", first ? first : "") < 0)
                return -1;
            continue;
        }
        int into_key = first && *first && nkey > 1 && !(cell(g, r, 1) && *cell(g, r, 1));
        if (first && *first && !into_key) {
            if (grid_line(out, rule, "%s: %s", g->head[0], first) < 0)
                return -1;
            rule = 0;
        }
        int row = grid_row(out, rule);
        if (row < 0)
            return -1;
        for (int c = 1; c < g->ncols; c++)
            if (grid_set(out, row, c - 1, "%s",
                         c == 1 && into_key ? first
                         : cell(g, r, c)    ? cell(g, r, c)
                                            : ""))
                return -1;
    }
    return 0;
}

/* The next part of g: the keys and the groups from column `from` on, as many as fit `width`
 * (at least one). Sets *next to the column after it. Returns 0 or -1 (no memory). */
static int next_part(const struct cmp_grid *g, int nkey, int from, int width, struct cmp_grid *part,
                     int *next) {
    int *keep = calloc((size_t)g->ncols, sizeof *keep);
    if (!keep)
        return -1;
    for (int c = 0; c < nkey; c++)
        keep[c] = 1;
    int end = from, rc = -1;
    memset(part, 0, sizeof *part);
    while (end < g->ncols) {
        int span = g->group_span[end] > 0 ? g->group_span[end] : 1;
        int stop = end + span < g->ncols ? end + span : g->ncols;
        for (int c = end; c < stop; c++)
            keep[c] = 1;
        struct cmp_grid trial;
        if (grid_keep(g, keep, &trial)) {
            grid_free(&trial);
            goto done;
        }
        if (end > from &&
            grid_width(&trial) > width) { /* the part so far is the widest that fits */
            grid_free(&trial);
            break;
        }
        grid_free(part);
        *part = trial;
        end = stop;
    }
    *next = end;
    rc = 0;
done:
    free(keep);
    return rc;
}

/* How many parts g takes at `width`; a part wider than it counts as many as there are columns. */
static int count_parts(const struct cmp_grid *g, int nkey, int width) {
    int n = 0;
    for (int from = nkey; from < g->ncols;) {
        struct cmp_grid part;
        int next;
        if (next_part(g, nkey, from, width, &part, &next)) {
            grid_free(&part);
            return g->ncols + 1;
        }
        n += grid_width(&part) > width ? g->ncols : 1;
        grid_free(&part);
        from = next;
    }
    return n;
}

static void print_parts(const struct cmp_grid *g, int nkey, int width, FILE *out) {
    for (int from = nkey, first = 1; from < g->ncols; first = 0) {
        struct cmp_grid part;
        int next;
        if (next_part(g, nkey, from, width, &part, &next)) {
            grid_free(&part);
            grid_print(g, 0, out); /* no memory to split it: the wide table */
            return;
        }
        if (!first)
            fputc('\n', out);
        grid_print(&part, 0, out);
        grid_free(&part);
        from = next;
    }
}

void grid_print_fit(const struct cmp_grid *g, int nkey, int width, FILE *out) {
    if (width <= 0 || nkey >= g->ncols || grid_width(g) <= width) {
        grid_print(g, 0, out);
        return;
    }
    struct cmp_grid moved;
    int ok = nkey > 0 && first_to_own_lines(g, nkey, &moved) == 0;
    if (ok && count_parts(&moved, nkey - 1, width) < count_parts(g, nkey, width))
        print_parts(&moved, nkey - 1, width, out);
    else
        print_parts(g, nkey, width, out);
    if (nkey > 0)
        grid_free(&moved);
}
