/* wire.c — supervisor ↔ worker messages (wire.h). A message is its type (1 byte), its payload's
 * length (4 bytes, this machine's order: both ends are one binary on one machine) and the
 * payload. */
#include "harness/run/wire.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/registry.h"

enum { WIRE_HEAD = 5, WIRE_MAX = 64 << 20 };

void wire_begin(struct wire_msg *m) {
    m->len = 0;
    m->err = 0;
}

void wire_free(struct wire_msg *m) {
    free(m->p);
    memset(m, 0, sizeof *m);
}

void wire_put(struct wire_msg *m, const void *p, size_t n) {
    if (m->err)
        return;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 4096;
        while (cap < m->len + n)
            cap *= 2;
        char *q = realloc(m->p, cap);
        if (!q) {
            m->err = 1;
            return;
        }
        m->p = q;
        m->cap = cap;
    }
    memcpy(m->p + m->len, p, n);
    m->len += n;
}

void wire_put_int(struct wire_msg *m, int v) { wire_put(m, &v, sizeof v); }
void wire_put_double(struct wire_msg *m, double v) { wire_put(m, &v, sizeof v); }

void wire_put_str(struct wire_msg *m, const char *s) {
    int n = s ? (int)strlen(s) : -1;
    wire_put_int(m, n);
    if (s)
        wire_put(m, s, (size_t)n);
}

void wire_put_device(struct wire_msg *m, const struct device *d) {
    struct device copy = *d;
    copy.be = NULL;
    for (int t = 0; t < DT_COUNT; t++)
        copy.peak_tier_why[t] = NULL;
    wire_put(m, &copy, sizeof copy);
    for (int t = 0; t < DT_COUNT; t++)
        wire_put_str(m, d->peak_tier_why[t]);
}

void wire_put_result(struct wire_msg *m, const struct result *r, int dev_index, int with_samples) {
    struct result copy = *r;
    copy.dev = NULL;
    copy.w = NULL;
    copy.im = NULL;
    copy.no_peak = NULL;
    copy.samples = NULL;
    copy.trace_mhz = copy.trace_w = NULL;
    wire_put(m, &copy, sizeof copy);
    wire_put_int(m, dev_index);
    wire_put_str(m, r->w ? r->w->name : NULL);
    wire_put_str(m, r->im ? r->im->name : NULL);
    wire_put_str(m, r->no_peak);
    size_t n = with_samples && r->samples ? r->st.n : 0;
    wire_put_int(m, (int)n);
    if (n) {
        wire_put(m, r->samples, n * sizeof *r->samples);
        int traces = r->trace_mhz && r->trace_w;
        wire_put_int(m, traces);
        if (traces) {
            wire_put(m, r->trace_mhz, n * sizeof *r->trace_mhz);
            wire_put(m, r->trace_w, n * sizeof *r->trace_w);
        }
    }
}

/* write() until all of it is written; async-signal-safe. */
static int write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int wire_send(int fd, int type, const struct wire_msg *m) {
    if (m->err || m->len > WIRE_MAX)
        return -1;
    char head[WIRE_HEAD];
    uint32_t len = (uint32_t)m->len;
    head[0] = (char)type;
    memcpy(head + 1, &len, sizeof len);
    if (write_all(fd, head, sizeof head) != 0)
        return -1;
    return m->len ? write_all(fd, m->p, m->len) : 0;
}

long wire_fill(struct wire_reader *r, int fd) {
    if (r->used > 0) { /* drop the messages already handed out */
        memmove(r->buf, r->buf + r->used, r->len - r->used);
        r->len -= r->used;
        r->used = 0;
    }
    if (r->cap - r->len < 65536) {
        size_t cap = r->cap ? 2 * r->cap : 1 << 17;
        char *b = realloc(r->buf, cap);
        if (!b) {
            errno = ENOMEM;
            return -1;
        }
        r->buf = b;
        r->cap = cap;
    }
    ssize_t n = read(fd, r->buf + r->len, r->cap - r->len);
    if (n > 0)
        r->len += (size_t)n;
    return (long)n;
}

int wire_next(struct wire_reader *r, int *type, struct wire_cur *c) {
    size_t have = r->len - r->used;
    if (have < WIRE_HEAD)
        return 0;
    const char *h = r->buf + r->used;
    uint32_t len;
    memcpy(&len, h + 1, sizeof len);
    if (have < WIRE_HEAD + (size_t)len)
        return 0;
    *type = (unsigned char)h[0];
    c->p = h + WIRE_HEAD;
    c->left = len;
    c->err = 0;
    r->used += WIRE_HEAD + len;
    return 1;
}

void wire_reader_free(struct wire_reader *r) {
    free(r->buf);
    memset(r, 0, sizeof *r);
}

static void get(struct wire_cur *c, void *out, size_t n) {
    if (c->err || c->left < n) {
        c->err = 1;
        memset(out, 0, n);
        return;
    }
    memcpy(out, c->p, n);
    c->p += n;
    c->left -= n;
}

int wire_get_int(struct wire_cur *c) {
    int v;
    get(c, &v, sizeof v);
    return v;
}

double wire_get_double(struct wire_cur *c) {
    double v;
    get(c, &v, sizeof v);
    return v;
}

/* Every text a message brought, once: the same text is the same pointer. */
struct interned {
    struct interned *next;
    char s[];
};
static struct interned *interned;

static const char *intern(const char *s, size_t n) {
    for (struct interned *i = interned; i; i = i->next)
        if (strlen(i->s) == n && memcmp(i->s, s, n) == 0)
            return i->s;
    struct interned *i = malloc(sizeof *i + n + 1);
    if (!i)
        return "";
    memcpy(i->s, s, n);
    i->s[n] = '\0';
    i->next = interned;
    interned = i;
    return i->s;
}

/* A string's bytes (its length first): where they start, their count in *n; NULL when the
 * message is cut short (c->err set). */
static const char *take_str(struct wire_cur *c, size_t *n) {
    int len = wire_get_int(c);
    if (len < 0 || c->err)
        return NULL;
    if ((size_t)len > c->left) {
        c->err = 1;
        return NULL;
    }
    const char *p = c->p;
    c->p += len;
    c->left -= (size_t)len;
    *n = (size_t)len;
    return p;
}

const char *wire_get_str(struct wire_cur *c) {
    size_t n;
    const char *p = take_str(c, &n);
    return p ? intern(p, n) : NULL;
}

void wire_get_strbuf(struct wire_cur *c, char *buf, size_t len) {
    size_t n;
    const char *p = take_str(c, &n);
    size_t k = !p ? 0 : n < len ? n : len - 1;
    if (k)
        memcpy(buf, p, k);
    buf[k] = '\0';
}

void wire_get_device(struct wire_cur *c, struct device *d) {
    get(c, d, sizeof *d);
    d->be = NULL;
    for (int t = 0; t < DT_COUNT; t++)
        d->peak_tier_why[t] = wire_get_str(c);
}

int wire_get_result(struct wire_cur *c, struct result *r, int *dev_index, double **samples,
                    float **traces, size_t *cap) {
    get(c, r, sizeof *r);
    *dev_index = wire_get_int(c);
    const char *w = wire_get_str(c), *im = wire_get_str(c);
    r->no_peak = wire_get_str(c);
    r->dev = NULL;
    r->w = w ? registry_find_workload(w) : NULL;
    r->im = r->w && im ? registry_find_impl(r->w, im) : NULL;
    r->samples = NULL;
    r->trace_mhz = r->trace_w = NULL;
    int n = wire_get_int(c);
    if (c->err || !r->w || !r->im || n < 0 || (n > 0 && (size_t)n != r->st.n))
        return -1;
    if (n > 0) {
        if ((size_t)n > *cap) {
            double *s = realloc(*samples, (size_t)n * sizeof *s);
            if (s)
                *samples = s;
            float *t = realloc(*traces, 2 * (size_t)n * sizeof *t);
            if (t)
                *traces = t;
            if (!s || !t)
                return -1;
            *cap = (size_t)n;
        }
        get(c, *samples, (size_t)n * sizeof **samples);
        r->samples = *samples;
        if (wire_get_int(c)) {
            get(c, *traces, (size_t)n * sizeof **traces);
            get(c, *traces + n, (size_t)n * sizeof **traces);
            r->trace_mhz = *traces;
            r->trace_w = *traces + n;
        }
    }
    return c->err ? -1 : 0;
}
