/* csv_read.c — a strict reader of gpubench-1 run and samples CSVs (see csv_read.h).
 *
 * Two passes: an RFC 4180 tokenizer turns the bytes into records of unescaped fields (one
 * allocation for all text), then a checker validates the header and types each row through a
 * table of column descriptors. Every failure is one line naming file, line and column.
 */
#include "harness/io/csv_read.h"

#include "harness/io/marks.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const csv_run_columns[] = {
    "schema",     "run_id",        "utc",     "host",     "device",    "device_name",
    "cc",         "driver",        "runtime", "blas_lib", "dnn_lib",   "threads",
    "workload",   "impl",          "dtype",   "shape",    "flops",     "bytes",
    "reps",       "median_ms",     "min_ms",  "mean_ms",  "stddev_ms", "ci95_lo_ms",
    "ci95_hi_ms", "e2e_median_ms", "gflops",  "gbps",     "peak_pct",  "max_rel_err",
    "status",     "note",          NULL};

const char *const csv_samples_columns[] = {"run_id", "device", "workload", "impl",
                                           "shape",  "rep",    "ms",       NULL};

/* How a fixed column is typed. */
enum ftype {
    F_STR,    /* any text, may be empty */
    F_KEY,    /* text that must not be empty (part of a row's identity) */
    F_INT,    /* decimal integer ≥ 0, or empty (-1) */
    F_REQINT, /* decimal integer ≥ 0, required */
    F_NUM,    /* finite number ≥ 0, or empty (NaN) */
    F_REQNUM, /* finite number ≥ 0, required */
    F_ERRNUM, /* number ≥ 0, or "inf" (an output holding NaN or Inf), or empty (NaN) */
    F_STATUS  /* one of the status names */
};

struct fdesc {
    enum ftype type;
    size_t off;
};

#define RF(f, t)                                                                                   \
    { t, offsetof(struct run_row, f) }
static const struct fdesc run_desc[CSV_RUN_NCOLS] = {
    RF(schema, F_KEY),     RF(run_id, F_KEY),         RF(utc, F_STR),       RF(host, F_STR),
    RF(device, F_KEY),     RF(device_name, F_STR),    RF(cc, F_STR),        RF(driver, F_STR),
    RF(runtime, F_STR),    RF(blas_lib, F_STR),       RF(dnn_lib, F_STR),   RF(threads, F_INT),
    RF(workload, F_KEY),   RF(impl, F_KEY),           RF(dtype, F_KEY),     RF(shape, F_KEY),
    RF(flops, F_NUM),      RF(bytes, F_NUM),          RF(reps, F_INT),      RF(median_ms, F_NUM),
    RF(min_ms, F_NUM),     RF(mean_ms, F_NUM),        RF(stddev_ms, F_NUM), RF(ci95_lo_ms, F_NUM),
    RF(ci95_hi_ms, F_NUM), RF(e2e_median_ms, F_NUM),  RF(gflops, F_NUM),    RF(gbps, F_NUM),
    RF(peak_pct, F_NUM),   RF(max_rel_err, F_ERRNUM), RF(status, F_STATUS), RF(note, F_STR),
};
#undef RF

#define SF(f, t)                                                                                   \
    { t, offsetof(struct sample_row, f) }
static const struct fdesc samples_desc[CSV_SAMPLES_NCOLS] = {
    SF(run_id, F_KEY), SF(device, F_KEY), SF(workload, F_KEY), SF(impl, F_KEY),
    SF(shape, F_KEY),  SF(rep, F_REQINT), SF(ms, F_REQNUM),
};
#undef SF

/* The columns that identify a row within one file: a run never measures the same device,
 * workload, implementation, shape and dtype twice; a samples file never repeats a rep. */
static const char *const run_key[] = {"run_id", "device", "workload", "impl",
                                      "shape",  "dtype",  NULL};
static const char *const samples_key[] = {"run_id", "device", "workload", "impl",
                                          "shape",  "rep",    NULL};
static const char *const samples_key_dtype[] = {"run_id", "device", "workload", "impl",
                                                "shape",  "dtype",  "rep",      NULL};

/* Each sample's tier: its dtype column, or float32 in a file written before tiers. */
static void samples_dtype(struct csv_table *t) {
    int col = csv_col_index(t, "dtype");
    for (size_t r = 0; r < t->nrows; r++)
        t->samples[r].dtype = col >= 0 ? t->samples[r].raw[col] : "float32";
}

/* A record found by the tokenizer: its fields are fields[first .. first+n). */
struct rec {
    int line;
    int n;
    size_t first;
    int blank; /* an empty line */
};

struct tok {
    const char *name;
    char *store;
    size_t nstore;
    char **fields;
    size_t nfields, capfields;
    struct rec *recs;
    size_t nrecs, caprecs;
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* A field value made safe for a one-line message: control bytes become '?', long values are cut
 * (out must hold 64 bytes). */
static const char *shown(const char *s, char *out) {
    size_t i = 0;
    for (; s[i] && i < 40; i++)
        out[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
    if (s[i]) {
        memcpy(out + i, "...", 3);
        i += 3;
    }
    out[i] = '\0';
    return out;
}

static int push_field(struct tok *t, char *f) {
    if (t->nfields == t->capfields) {
        size_t cap = t->capfields ? 2 * t->capfields : 256;
        char **p = realloc(t->fields, cap * sizeof *p);
        if (!p)
            return -1;
        t->fields = p;
        t->capfields = cap;
    }
    t->fields[t->nfields++] = f;
    return 0;
}

static int push_rec(struct tok *t, struct rec r) {
    if (t->nrecs == t->caprecs) {
        size_t cap = t->caprecs ? 2 * t->caprecs : 64;
        struct rec *p = realloc(t->recs, cap * sizeof *p);
        if (!p)
            return -1;
        t->recs = p;
        t->caprecs = cap;
    }
    t->recs[t->nrecs++] = r;
    return 0;
}

/* The name of field `i` for messages: the header's name once the header is known. */
static const char *field_name(const struct tok *t, int i, char *buf, size_t len) {
    if (t->nrecs > 0 && i < t->recs[0].n)
        return t->fields[t->recs[0].first + (size_t)i];
    snprintf(buf, len, "#%d", i + 1);
    return buf;
}

/* Where the tokenizer is: data[pos..len) still to read, on line `line`; `out` is the next free
 * byte of the text store. */
struct cursor {
    const char *data;
    size_t len, pos;
    int line;
    char *out;
};

/* The quoted field at cu->pos (on its opening quote) into the store, unescaped: "" is one quote;
 * line ends inside the quotes are text (and count as lines). Returns 0 or -1 with err. */
static int read_quoted(const struct tok *t, struct cursor *cu, const struct rec *r, char *err,
                       size_t errlen) {
    char nb[24];
    cu->pos++;
    for (;;) {
        if (cu->pos >= cu->len)
            return fail(err, errlen, "%s:%d: column %s: quote never closed", t->name, r->line,
                        field_name(t, r->n, nb, sizeof nb));
        char c = cu->data[cu->pos];
        if (c == '"') {
            if (cu->pos + 1 < cu->len && cu->data[cu->pos + 1] == '"') {
                *cu->out++ = '"';
                cu->pos += 2;
                continue;
            }
            cu->pos++;
            return 0;
        }
        if (c == '\0')
            return fail(err, errlen, "%s:%d: column %s: NUL byte (not a text file)", t->name,
                        cu->line, field_name(t, r->n, nb, sizeof nb));
        if (c == '\n')
            cu->line++;
        *cu->out++ = c;
        cu->pos++;
    }
}

/* The unquoted field at cu->pos into the store, up to a comma or line end. Returns 0 or -1. */
static int read_plain(const struct tok *t, struct cursor *cu, const struct rec *r, char *err,
                      size_t errlen) {
    char nb[24];
    while (cu->pos < cu->len && cu->data[cu->pos] != ',' && cu->data[cu->pos] != '\n' &&
           cu->data[cu->pos] != '\r') {
        char c = cu->data[cu->pos];
        if (c == '"')
            return fail(err, errlen, "%s:%d: column %s: quote inside an unquoted field", t->name,
                        cu->line, field_name(t, r->n, nb, sizeof nb));
        if (c == '\0')
            return fail(err, errlen, "%s:%d: column %s: NUL byte (not a text file)", t->name,
                        cu->line, field_name(t, r->n, nb, sizeof nb));
        *cu->out++ = c;
        cu->pos++;
    }
    return 0;
}

/* What follows field r->n - 1 (just read): a comma, consumed (returns 0: another field follows);
 * a line end, consumed, or the end of the data (1: the record is complete); else -1 with err. */
static int field_end(const struct tok *t, struct cursor *cu, const struct rec *r, char *err,
                     size_t errlen) {
    char nb[24];
    if (cu->pos >= cu->len)
        return 1; /* last record without a line end */
    char c = cu->data[cu->pos];
    if (c == ',') {
        cu->pos++;
        return 0;
    }
    if (c == '\r') {
        if (cu->pos + 1 >= cu->len || cu->data[cu->pos + 1] != '\n')
            return fail(err, errlen, "%s:%d: column %s: carriage return without a line feed",
                        t->name, cu->line, field_name(t, r->n - 1, nb, sizeof nb));
        cu->pos++;
    }
    if (c == '\n' || c == '\r') {
        cu->pos++;
        cu->line++;
        return 1;
    }
    /* Only a closing quote can be followed by something else. */
    return fail(err, errlen, "%s:%d: column %s: text after a closing quote", t->name, cu->line,
                field_name(t, r->n - 1, nb, sizeof nb));
}

/* The record at cu->pos: its fields and the record itself appended to t. Returns 0 or -1. */
static int read_record(struct tok *t, struct cursor *cu, char *err, size_t errlen) {
    struct rec r = {.line = cu->line, .n = 0, .first = t->nfields, .blank = 0};
    int quoted, end; /* quoted: whether the field just read was quoted */
    do {
        char *f = cu->out;
        if (r.n >= CSV_MAX_COLS)
            return fail(err, errlen, "%s:%d: column #%d: more than %d fields", t->name, r.line,
                        r.n + 1, CSV_MAX_COLS);
        quoted = cu->pos < cu->len && cu->data[cu->pos] == '"';
        if (quoted ? read_quoted(t, cu, &r, err, errlen) : read_plain(t, cu, &r, err, errlen))
            return -1;
        *cu->out++ = '\0';
        if (push_field(t, f))
            return fail(err, errlen, "%s: out of memory", t->name);
        r.n++;
        end = field_end(t, cu, &r, err, errlen);
        if (end < 0)
            return -1;
    } while (end == 0);
    r.blank = r.n == 1 && !quoted && t->fields[r.first][0] == '\0';
    if (push_rec(t, r))
        return fail(err, errlen, "%s: out of memory", t->name);
    return 0;
}

/* Split data[0..len) into records of unescaped fields. */
static int tokenize(struct tok *t, const char *data, size_t len, char *err, size_t errlen) {
    struct cursor cu = {.data = data, .len = len, .pos = 0, .line = 1};
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        cu.pos = 3; /* spreadsheets add a BOM */
    /* Unescaped text never exceeds the input, plus one NUL per field (each field but the last
     * of the file consumes at least one separator byte). */
    t->store = malloc(len + 2);
    if (!t->store)
        return fail(err, errlen, "%s: out of memory", t->name);
    cu.out = t->store;
    while (cu.pos < cu.len)
        if (read_record(t, &cu, err, errlen))
            return -1;
    return 0;
}

/* Strict number: the whole field, no spaces, finite (the sign is checked by the caller). */
static int parse_num(const char *s, double *v) {
    char *end;
    if (!((s[0] >= '0' && s[0] <= '9') || s[0] == '.' || s[0] == '-' || s[0] == '+'))
        return -1;
    errno = 0;
    *v = strtod(s, &end);
    if (*end != '\0' || end == s || !isfinite(*v))
        return -1;
    return 0;
}

static int parse_int(const char *s, long *v) {
    char *end;
    if (!(s[0] >= '0' && s[0] <= '9'))
        return -1;
    errno = 0;
    *v = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
    return 0;
}

int csv_parse_status(const char *s, enum status *st) {
    for (int i = ST_OK; i <= ST_TIMEOUT; i++) {
        if (strcmp(s, status_name((enum status)i)) == 0) {
            *st = (enum status)i;
            return 0;
        }
    }
    return -1;
}

/* Type field `v` of column `name` into the row struct at `row` as `d` says. */
static int type_field(const char *fname, int line, const char *name, const struct fdesc *d, char *v,
                      void *row, char *err, size_t errlen) {
    char *dst = (char *)row + d->off;
    char sv[64];
    switch (d->type) {
    case F_STR: *(const char **)dst = v; return 0;
    case F_KEY:
        if (!v[0])
            return fail(err, errlen, "%s:%d: column %s: empty", fname, line, name);
        *(const char **)dst = v;
        return 0;
    case F_INT:
    case F_REQINT: {
        long x = -1;
        if (!v[0] && d->type == F_INT) {
            *(long *)dst = -1;
            return 0;
        }
        if (!v[0])
            return fail(err, errlen, "%s:%d: column %s: empty", fname, line, name);
        if (parse_int(v, &x))
            return fail(err, errlen, "%s:%d: column %s: '%s' is not a whole number >= 0", fname,
                        line, name, shown(v, sv));
        *(long *)dst = x;
        return 0;
    }
    case F_NUM:
    case F_REQNUM:
    case F_ERRNUM: {
        double x;
        if (d->type == F_ERRNUM && (!strcmp(v, "inf") || !strcmp(v, "Inf"))) {
            *(double *)dst = INFINITY;
            return 0;
        }
        if (!v[0] && d->type != F_REQNUM) {
            *(double *)dst = NAN;
            return 0;
        }
        if (!v[0])
            return fail(err, errlen, "%s:%d: column %s: empty", fname, line, name);
        if (parse_num(v, &x))
            return fail(err, errlen, "%s:%d: column %s: '%s' is not a number", fname, line, name,
                        shown(v, sv));
        if (x < 0)
            return fail(err, errlen, "%s:%d: column %s: %s is negative", fname, line, name,
                        shown(v, sv));
        *(double *)dst = x;
        return 0;
    }
    case F_STATUS: {
        enum status st;
        if (csv_parse_status(v, &st))
            return fail(err, errlen,
                        "%s:%d: column %s: unknown status '%s' (ok, wrong, unsupported, oom, "
                        "error, timeout)",
                        fname, line, name, shown(v, sv));
        *(enum status *)dst = st;
        return 0;
    }
    }
    return 0;
}

/* The header: the fixed columns in order, then any others, no name twice. */
static int check_header(const struct csv_table *t, const char *const *want, int nwant, char *err,
                        size_t errlen) {
    char sv[64];
    for (int i = 0; i < nwant; i++) {
        if (i >= t->ncols)
            return fail(err, errlen,
                        "%s:1: column %s: missing (the header has %d columns, %s "
                        "has %d fixed ones)",
                        t->name, want[i], t->ncols, CSV_SCHEMA, nwant);
        if (strcmp(t->cols[i], want[i]) == 0)
            continue;
        if (csv_col_index(t, want[i]) >= 0)
            return fail(err, errlen,
                        "%s:1: column %s: out of place (column %d is '%s'; the "
                        "fixed columns come first, in order)",
                        t->name, want[i], i + 1, shown(t->cols[i], sv));
        return fail(err, errlen, "%s:1: column %s: missing (column %d is '%s')", t->name, want[i],
                    i + 1, shown(t->cols[i], sv));
    }
    for (int i = nwant; i < t->ncols; i++) {
        if (!t->cols[i][0])
            return fail(err, errlen, "%s:1: column #%d: empty column name", t->name, i + 1);
        for (int j = 0; j < i; j++)
            if (strcmp(t->cols[i], t->cols[j]) == 0)
                return fail(err, errlen, "%s:1: column %s: appears twice (columns %d and %d)",
                            t->name, shown(t->cols[i], sv), j + 1, i + 1);
    }
    return 0;
}

/* Key comparison for the duplicate check: rows sorted by their key fields, then by line. */
struct keyref {
    char **raw;
    const int *idx;
    int line;
};

static int keyref_cmp(const void *a, const void *b) {
    const struct keyref *x = a, *y = b;
    for (int k = 0; x->idx[k] >= 0; k++) {
        int c = strcmp(x->raw[x->idx[k]], y->raw[x->idx[k]]);
        if (c)
            return c;
    }
    return (x->line > y->line) - (x->line < y->line);
}

static int same_key(const struct keyref *x, const struct keyref *y) {
    for (int k = 0; x->idx[k] >= 0; k++)
        if (strcmp(x->raw[x->idx[k]], y->raw[x->idx[k]]))
            return 0;
    return 1;
}

static int check_duplicates(const struct csv_table *t, const char *const *key, char *err,
                            size_t errlen) {
    int idx[8], nk = 0;
    for (; key[nk]; nk++)
        idx[nk] = csv_col_index(t, key[nk]);
    idx[nk] = -1;
    if (t->nrows < 2)
        return 0;
    struct keyref *k = malloc(t->nrows * sizeof *k);
    if (!k)
        return fail(err, errlen, "%s: out of memory", t->name);
    for (size_t r = 0; r < t->nrows; r++) {
        k[r].raw = t->kind == CSV_RUN ? t->run[r].raw : t->samples[r].raw;
        k[r].line = t->kind == CSV_RUN ? t->run[r].line : t->samples[r].line;
        k[r].idx = idx;
    }
    qsort(k, t->nrows, sizeof *k, keyref_cmp);
    /* Within a group of equal keys the rows are in file order: its second row is the group's
     * first duplicate. Report the duplicate that comes first in the file. */
    int best = -1, first = 0;
    for (size_t r = 1; r < t->nrows; r++) {
        if (!same_key(&k[r], &k[r - 1]))
            continue;
        if (r >= 2 && same_key(&k[r - 1], &k[r - 2]))
            continue; /* not the group's second row */
        if (best < 0 || k[r].line < best) {
            best = k[r].line;
            first = k[r - 1].line;
        }
    }
    int rc = 0;
    if (best >= 0) {
        char msg[CSV_ERR_LEN] = "", sv[64];
        size_t used = 0;
        char **raw = NULL;
        for (size_t r = 0; r < t->nrows; r++)
            if ((t->kind == CSV_RUN ? t->run[r].line : t->samples[r].line) == best)
                raw = t->kind == CSV_RUN ? t->run[r].raw : t->samples[r].raw;
        for (int j = 0; j < nk && raw; j++) {
            int n = snprintf(msg + used, sizeof msg - used, "%s%s=%s", j ? " " : "", key[j],
                             shown(raw[idx[j]], sv));
            if (n < 0 || (size_t)n >= sizeof msg - used)
                break;
            used += (size_t)n;
        }
        rc = fail(err, errlen, "%s:%d: column %s: duplicate row (same %s as line %d)", t->name,
                  best, key[nk - 1], msg, first);
    }
    free(k);
    return rc;
}

/* The likely mix-ups, told apart before the column-by-column check: a samples file given as a
 * run CSV or the other way round, another file altogether, a run CSV of another schema version
 * (it may have other columns: say so before complaining about them). Returns 0 or -1 with err. */
static int check_kind(const struct csv_table *t, const struct tok *tk, char *err, size_t errlen) {
    const int run = t->kind == CSV_RUN;
    char sv[64];
    if (run && strcmp(t->cols[0], "schema") != 0) {
        if (strcmp(t->cols[0], "run_id") == 0 && t->ncols >= 2 && !strcmp(t->cols[1], "device"))
            return fail(err, errlen,
                        "%s:1: column schema: missing: this is a samples file, "
                        "not a run CSV (give it with --samples)",
                        t->name);
        return fail(err, errlen,
                    "%s:1: column schema: missing: not a %s run CSV (the header "
                    "starts with '%s')",
                    t->name, CSV_SCHEMA, shown(t->cols[0], sv));
    }
    if (!run && strcmp(t->cols[0], "run_id") != 0) {
        if (!strcmp(t->cols[0], "schema"))
            return fail(err, errlen,
                        "%s:1: column run_id: missing: this is a run CSV, not a "
                        "samples file",
                        t->name);
        return fail(err, errlen,
                    "%s:1: column run_id: missing: not a %s samples CSV (the "
                    "header starts with '%s')",
                    t->name, CSV_SCHEMA, shown(t->cols[0], sv));
    }
    if (run && tk->nrecs > 1 && !tk->recs[1].blank) {
        const char *s = tk->fields[tk->recs[1].first];
        if (strcmp(s, CSV_SCHEMA) != 0)
            return fail(err, errlen,
                        "%s:%d: column schema: '%s' is not %s (this build reads %s "
                        "files only; files of different schema versions cannot be compared)",
                        t->name, tk->recs[1].line, shown(s, sv), CSV_SCHEMA, CSV_SCHEMA);
    }
    return 0;
}

/* Record rc (fields raw) as the row struct at `row`: as many fields as the header, the schema
 * of this build, each fixed column typed. Returns 0 or -1 with err. */
static int check_row(const struct csv_table *t, const struct rec *rc, char **raw, void *row,
                     char *err, size_t errlen) {
    const int run = t->kind == CSV_RUN;
    const char *const *want = run ? csv_run_columns : csv_samples_columns;
    const int nwant = run ? CSV_RUN_NCOLS : CSV_SAMPLES_NCOLS;
    const struct fdesc *desc = run ? run_desc : samples_desc;
    char sv[64];
    if (rc->blank)
        return fail(err, errlen, "%s:%d: column %s: blank line between rows", t->name, rc->line,
                    t->cols[0]);
    if (rc->n < t->ncols)
        return fail(err, errlen,
                    "%s:%d: column %s: missing (the row has %d fields, the "
                    "header %d)",
                    t->name, rc->line, t->cols[rc->n], rc->n, t->ncols);
    if (rc->n > t->ncols)
        return fail(err, errlen,
                    "%s:%d: column #%d: extra field (the row has %d fields, the "
                    "header %d)",
                    t->name, rc->line, t->ncols + 1, rc->n, t->ncols);
    if (run && strcmp(raw[0], CSV_SCHEMA) != 0)
        return fail(err, errlen,
                    "%s:%d: column schema: '%s' is not %s (rows of different "
                    "schema versions cannot be mixed)",
                    t->name, rc->line, shown(raw[0], sv), CSV_SCHEMA);
    /* line and raw come first in both row structs */
    if (run) {
        ((struct run_row *)row)->line = rc->line;
        ((struct run_row *)row)->raw = raw;
    } else {
        ((struct sample_row *)row)->line = rc->line;
        ((struct sample_row *)row)->raw = raw;
    }
    for (int c = 0; c < nwant; c++)
        if (type_field(t->name, rc->line, want[c], &desc[c], raw[c], row, err, errlen))
            return -1;
    return 0;
}

/* The extra column `run` of a run row when the file has one (files written before it existed,
 * and other tools' files, do not): a whole number, or empty (-1). Returns 0 or -1 with err. */
static int check_run_index(const struct csv_table *t, int col, struct run_row *row, char *err,
                           size_t errlen) {
    static const struct fdesc desc = {F_INT, offsetof(struct run_row, run)};
    row->run = -1;
    if (col < 0)
        return 0;
    return type_field(t->name, row->line, "run", &desc, row->raw[col], row, err, errlen);
}

/* The extra column `cpu_wait_pct` of a run row when the file has one: a percentage from 0 to
 * 100, or empty (NaN). Returns 0 or -1 with err. */
static int check_cpu_wait(const struct csv_table *t, int col, struct run_row *row, char *err,
                          size_t errlen) {
    static const struct fdesc desc = {F_NUM, offsetof(struct run_row, cpu_wait_pct)};
    row->cpu_wait_pct = NAN;
    if (col < 0)
        return 0;
    if (type_field(t->name, row->line, "cpu_wait_pct", &desc, row->raw[col], row, err, errlen))
        return -1;
    if (row->cpu_wait_pct > 100)
        return fail(err, errlen, "%s:%d: column cpu_wait_pct: %s is above 100 (a percentage)",
                    t->name, row->line, row->raw[col]);
    return 0;
}

/* The rows after the header into t->run or t->samples. Blank lines are allowed only at the end
 * of the file. Returns 0 or -1 with err (t owns what was allocated). */
static int check_rows(struct csv_table *t, const struct tok *tk, char *err, size_t errlen) {
    const int run = t->kind == CSV_RUN;
    const int run_col = run ? csv_col_index(t, "run") : -1;
    const int hw_col = run ? csv_col_index(t, "hardware") : -1;
    const int wait_col = run ? csv_col_index(t, "cpu_wait_pct") : -1;
    const int marks_col = run ? csv_col_index(t, "marks") : -1;
    size_t nrec = tk->nrecs;
    while (nrec > 1 && tk->recs[nrec - 1].blank)
        nrec--;
    size_t nrows = nrec - 1;
    size_t rowsize = run ? sizeof(struct run_row) : sizeof(struct sample_row);
    void *rows = calloc(nrows ? nrows : 1, rowsize);
    if (!rows)
        return fail(err, errlen, "%s: out of memory", t->name);
    if (run)
        t->run = rows;
    else
        t->samples = rows;
    t->nrows = nrows;
    for (size_t r = 0; r < nrows; r++) {
        const struct rec *rc = &tk->recs[r + 1];
        if (check_row(t, rc, tk->fields + rc->first, (char *)rows + r * rowsize, err, errlen))
            return -1;
        if (run && (check_run_index(t, run_col, &t->run[r], err, errlen) ||
                    check_cpu_wait(t, wait_col, &t->run[r], err, errlen)))
            return -1;
        if (!run)
            continue;
        struct run_row *row = &t->run[r];
        row->hardware = hw_col >= 0 ? row->raw[hw_col] : "";
        row->marks = marks_of_fields(marks_col >= 0 ? row->raw[marks_col] : NULL,
                                     row->device_name, row->note);
    }
    return 0;
}

/* The tokenized file as a table of t->kind: header, rows, no duplicate keys. */
static int check_table(struct csv_table *t, const struct tok *tk, char *err, size_t errlen) {
    const int run = t->kind == CSV_RUN;
    if (tk->nrecs == 0 || (tk->nrecs == 1 && tk->recs[0].blank))
        return fail(err, errlen, "%s: empty file (no header)", t->name);
    const struct rec *h = &tk->recs[0];
    t->ncols = h->n;
    t->cols = tk->fields + h->first;
    if (check_kind(t, tk, err, errlen))
        return -1;
    if (check_header(t, run ? csv_run_columns : csv_samples_columns,
                     run ? CSV_RUN_NCOLS : CSV_SAMPLES_NCOLS, err, errlen))
        return -1;
    if (check_rows(t, tk, err, errlen))
        return -1;
    if (run)
        return check_duplicates(t, run_key, err, errlen);
    samples_dtype(t);
    int has_dtype = csv_col_index(t, "dtype") >= 0;
    return check_duplicates(t, has_dtype ? samples_key_dtype : samples_key, err, errlen);
}

/* A file that is plainly something else than a CSV, named for what it is: gpubench's own JSON
 * output (--out FILE.json, --json, doctor --json: `{"schema"...` ) or a gzip-compressed CSV (as
 * results/ keeps samples files); the tokenizer would only call them "quote inside an unquoted
 * field" or "NUL byte". Returns 0, or -1 with one line in err. */
static int check_not_csv(const char *name, const char *data, size_t len, char *err, size_t errlen) {
    if (len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b)
        return fail(err, errlen, "%s: gzip-compressed, not a CSV: gunzip it first (gunzip -k %s)",
                    name, name);
    size_t i = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
        i++;
    if (i >= len || (data[i] != '{' && data[i] != '['))
        return 0;
    static const char gpubench_json[] = "\"schema\"";
    size_t head = len - i < 64 ? len - i : 64;
    int ours = 0;
    for (size_t k = i; k + sizeof gpubench_json - 1 <= i + head && !ours; k++)
        ours = !memcmp(data + k, gpubench_json, sizeof gpubench_json - 1);
    return fail(err, errlen,
                ours ? "%s: this is a gpubench JSON file, not a CSV: give the run's CSV "
                       "(gpubench --out FILE.csv writes one)"
                     : "%s: a JSON file, not a gpubench CSV",
                name);
}

int csv_read_buffer(const char *name, const char *data, size_t len, enum csv_kind kind,
                    struct csv_table *t, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    if (check_not_csv(name, data, len, err, errlen))
        return -1;
    t->kind = kind;
    t->name = strdup(name);
    if (!t->name)
        return fail(err, errlen, "%s: out of memory", name);
    struct tok tk = {.name = t->name};
    int rc = tokenize(&tk, data, len, err, errlen);
    /* the table owns the text and field pointers from here on: one place frees them */
    t->store_ = tk.store;
    t->fields_ = tk.fields;
    if (rc == 0)
        rc = check_table(t, &tk, err, errlen);
    if (rc == 0) {
        /* the header as written: everything before the first line end */
        size_t start = (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) ? 3 : 0, end = start;
        int inq = 0;
        while (end < len && (inq || (data[end] != '\n' && data[end] != '\r'))) {
            if (data[end] == '"')
                inq = !inq;
            end++;
        }
        t->header_raw = malloc(end - start + 1);
        if (!t->header_raw) {
            rc = fail(err, errlen, "%s: out of memory", name);
        } else {
            memcpy(t->header_raw, data + start, end - start);
            t->header_raw[end - start] = '\0';
        }
    }
    free(tk.recs);
    if (rc)
        csv_free(t);
    return rc;
}

int csv_read_file(const char *path, enum csv_kind kind, struct csv_table *t, char *err,
                  size_t errlen) {
    memset(t, 0, sizeof *t);
    int std_in = !strcmp(path, "-"); /* the convention: standard input */
    FILE *f = std_in ? stdin : fopen(path, "rb");
    if (!f)
        return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *data = malloc(cap);
    if (!data) {
        if (!std_in)
            fclose(f);
        return fail(err, errlen, "%s: out of memory", path);
    }
    for (;;) {
        if (len == cap) {
            char *p = cap < SIZE_MAX / 2 ? realloc(data, cap * 2) : NULL;
            if (!p) {
                free(data);
                if (!std_in)
                    fclose(f);
                return fail(err, errlen, "%s: out of memory", path);
            }
            data = p;
            cap *= 2;
        }
        size_t n = fread(data + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    int bad = ferror(f);
    int saved = errno;
    if (!std_in)
        fclose(f);
    if (bad) {
        free(data);
        return fail(err, errlen, "%s: cannot read: %s", path, strerror(saved));
    }
    int rc = csv_read_buffer(std_in ? "stdin" : path, data, len, kind, t, err, errlen);
    free(data);
    return rc;
}

void csv_free(struct csv_table *t) {
    free(t->name);
    free(t->header_raw);
    free(t->run);
    free(t->samples);
    free(t->store_);
    free(t->fields_);
    memset(t, 0, sizeof *t);
}

int csv_col_index(const struct csv_table *t, const char *name) {
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->cols[i], name) == 0)
            return i;
    return -1;
}
