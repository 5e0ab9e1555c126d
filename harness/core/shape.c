/* shape.c — shape parsing with strict numbers and one-line errors, and canonical printing. */
#include "harness/core/shape.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int shape_nkeys(const struct workload *w) {
    int n = 0;
    while (w->keys[n])
        n++;
    return n;
}

static int key_index(const struct workload *w, const char *key, size_t keylen) {
    for (int i = 0; w->keys[i]; i++)
        if (strlen(w->keys[i]) == keylen && strncmp(w->keys[i], key, keylen) == 0)
            return i;
    return -1;
}

int parse_long(const char *text, long min, long max, int allow_pow2, long *out, char *err,
               size_t errlen, const char *what) {
    const char *t = text;
    long v;
    if (allow_pow2 && t[0] == '2' && t[1] == '^') {
        long e;
        if (parse_long(t + 2, 0, 62, 0, &e, err, errlen, what) != 0)
            return -1;
        v = 1L << e;
    } else {
        if (!isdigit((unsigned char)t[0])) {
            snprintf(err, errlen, "%s: '%s' is not a whole number%s", what, text,
                     t[0] == '-' ? " (negative)" : "");
            return -1;
        }
        char *end;
        errno = 0;
        v = strtol(t, &end, 10);
        if (errno == ERANGE || *end != '\0') {
            snprintf(err, errlen, "%s: '%s' is not a whole number", what, text);
            return -1;
        }
    }
    if (v < min || v > max) {
        snprintf(err, errlen, "%s: %ld is out of range [%ld, %ld]", what, v, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

/* The key=value pairs of `text` into s->v, marking each key set in given[]. Returns the number of
 * pairs, or -1 with a reason in err. */
static int parse_pairs(const struct workload *w, const char *text, struct shape *s, int *given,
                       char *err, size_t errlen) {
    int nkeys = shape_nkeys(w);
    char copy[512];
    if (strlen(text) >= sizeof copy) {
        snprintf(err, errlen, "shape '%.40s…' is too long", text);
        return -1;
    }
    strcpy(copy, text);
    char *save = NULL;
    int npairs = 0;
    for (char *pair = strtok_r(copy, ",;", &save); pair; pair = strtok_r(NULL, ",;", &save)) {
        npairs++;
        char *eq = strchr(pair, '=');
        if (!eq || eq == pair) {
            snprintf(err, errlen, "'%s' is not key=value", pair);
            return -1;
        }
        *eq = '\0';
        const char *key = pair, *val = eq + 1;
        int idx[2] = {key_index(w, key, strlen(key)), -1};
        if (idx[0] < 0) { /* "stride" → stride_h and stride_w */
            char kh[64], kw[64];
            snprintf(kh, sizeof kh, "%s_h", key);
            snprintf(kw, sizeof kw, "%s_w", key);
            idx[0] = key_index(w, kh, strlen(kh));
            idx[1] = key_index(w, kw, strlen(kw));
            if (idx[0] < 0 || idx[1] < 0) {
                char known[256] = "";
                for (int i = 0; i < nkeys; i++)
                    snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                             i ? "," : "", w->keys[i]);
                snprintf(err, errlen, "unknown key '%s' for %s (keys: %s)", key, w->name, known);
                return -1;
            }
        }
        long v;
        char what[80];
        snprintf(what, sizeof what, "%s", key);
        if (parse_long(val, 0, LONG_MAX / 4, 1, &v, err, errlen, what) != 0)
            return -1;
        for (int j = 0; j < 2 && idx[j] >= 0; j++) {
            if (given[idx[j]]) {
                snprintf(err, errlen, "key '%s' given twice", w->keys[idx[j]]);
                return -1;
            }
            given[idx[j]] = 1;
            s->v[idx[j]] = v;
        }
    }
    return npairs;
}

int shape_parse(const struct workload *w, const char *text, struct shape *s, char *err,
                size_t errlen) {
    int nkeys = shape_nkeys(w);
    int given[SHAPE_MAX_KEYS] = {0};
    memset(s, 0, sizeof *s);
    int npairs = parse_pairs(w, text, s, given, err, errlen);
    if (npairs < 0)
        return -1;
    if (npairs == 0) {
        snprintf(err, errlen, "empty shape (expected key=value pairs)");
        return -1;
    }
    /* A partial shape (-s conv2d:h=8): each key left out takes the default shape's value, where
     * that shape gives it; the workload's complete hook sees the rest as not given. */
    const char *def = w->default_shapes ? w->default_shapes[0] : NULL;
    struct shape d;
    int dgiven[SHAPE_MAX_KEYS] = {0};
    char derr[256];
    memset(&d, 0, sizeof d);
    if (def && strcmp(def, text) != 0 && parse_pairs(w, def, &d, dgiven, derr, sizeof derr) > 0)
        for (int i = 0; i < nkeys; i++)
            if (!given[i] && dgiven[i]) {
                s->v[i] = d.v[i];
                given[i] = 1;
            }
    if (w->complete)
        return w->complete(s, given, err, errlen);
    for (int i = 0; i < nkeys; i++) {
        if (!given[i]) {
            snprintf(err, errlen, "missing key '%s' for %s", w->keys[i], w->name);
            return -1;
        }
        if (s->v[i] <= 0) {
            snprintf(err, errlen, "%s=%ld must be positive", w->keys[i], s->v[i]);
            return -1;
        }
    }
    return 0;
}

void shape_format(const struct workload *w, const struct shape *s, char *out, size_t outlen) {
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; w->keys[i] && len < outlen; i++)
        len += (size_t)snprintf(out + len, outlen - len, "%s%s=%ld", i ? ";" : "", w->keys[i],
                                s->v[i]);
}

void shape_format_short(const struct workload *w, const struct shape *s, char *out,
                        size_t outlen) {
    char canonical[512];
    shape_format(w, s, canonical, sizeof canonical);
    shape_compact(canonical, out, outlen);
}

/* Pair p ("K_h=v") and q ("K_w=v"): 1 when they are one per-axis key with equal values. */
static int same_axes(const char *p, size_t pl, const char *q, size_t ql) {
    const char *pe = memchr(p, '=', pl), *qe = memchr(q, '=', ql);
    if (!pe || !qe || pe - p < 3 || pe - p != qe - q || strncmp(pe - 2, "_h", 2) ||
        strncmp(qe - 2, "_w", 2) || strncmp(p, q, (size_t)(pe - p) - 2))
        return 0;
    return pl - (size_t)(pe - p) == ql - (size_t)(qe - q) &&
           !strncmp(pe, qe, pl - (size_t)(pe - p));
}

void shape_compact(const char *canonical, char *out, size_t outlen) {
    size_t len = 0;
    const char *p = canonical;
    out[0] = '\0';
    while (*p && len < outlen) {
        size_t pl = strcspn(p, ";,");
        const char *q = p[pl] ? p + pl + 1 : p + pl;
        size_t ql = strcspn(q, ";,");
        const char *eq = memchr(p, '=', pl);
        if (*q && same_axes(p, pl, q, ql)) { /* "stride_h=1;stride_w=1" → "stride=1" */
            len += (size_t)snprintf(out + len, outlen - len, "%s%.*s%.*s", len ? " " : "",
                                    (int)(eq - p - 2), p, (int)(pl - (size_t)(eq - p)), eq);
            p = q[ql] ? q + ql + 1 : q + ql;
            continue;
        }
        len += (size_t)snprintf(out + len, outlen - len, "%s%.*s", len ? " " : "", (int)pl, p);
        p = q;
    }
}
