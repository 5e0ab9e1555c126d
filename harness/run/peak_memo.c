/* peak_memo.c — the memory peak remembered per machine (peak_memo.h). */
#include "harness/run/peak_memo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

enum { LINE_MAX_LEN = 4096 };

/* The file's path, its folders made; -1 (and why) when there is no cache folder. */
static int memo_path(char *out, size_t len, char *why, size_t whylen) {
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    char base[900], dir[960];
    if (x && x[0])
        snprintf(base, sizeof base, "%s", x);
    else if (h && h[0])
        snprintf(base, sizeof base, "%s/.cache", h);
    else {
        snprintf(why, whylen, "no XDG_CACHE_HOME or HOME");
        return -1;
    }
    snprintf(dir, sizeof dir, "%s/gpubench", base);
    mkdir(base, 0755); /* an error shows at the next one */
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(why, whylen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    snprintf(out, len, "%s/mem-peak", dir);
    return 0;
}

/* The whole file into a NUL-terminated buffer (empty for a new file); NULL when unreadable. */
static char *slurp(int fd) {
    struct stat st;
    if (fstat(fd, &st) != 0)
        return NULL;
    char *b = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (b && got < (size_t)st.st_size) {
        ssize_t r = pread(fd, b + got, (size_t)st.st_size - got, (off_t)got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (b)
        b[got] = '\0';
    return b;
}

/* The key as one field: no tab or line end in it. */
static void clean_key(const char *key, char *out, size_t len) {
    snprintf(out, len, "%s", key);
    for (char *p = out; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
}

double peak_memo(const char *key, double gbps, int *n, char *why, size_t whylen) {
    char path[1024], k[LINE_MAX_LEN / 2];
    *n = 0;
    why[0] = '\0';
    if (!(gbps > 0) || memo_path(path, sizeof path, why, whylen))
        return gbps;
    clean_key(key, k, sizeof k);
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    if (fd < 0) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return gbps;
    }
    if (flock(fd, LOCK_EX) != 0) {
        snprintf(why, whylen, "%s: cannot lock: %s", path, strerror(errno));
        close(fd);
        return gbps;
    }
    char *old = slurp(fd);
    size_t cap = (old ? strlen(old) : 0) + strlen(k) + 64 * (PEAK_MEMO_KEEP + 1) + 4;
    char *out = malloc(cap);
    double best = gbps;
    if (!old || !out) {
        snprintf(why, whylen, "%s: cannot read", path);
        free(old), free(out), close(fd);
        return gbps;
    }
    /* the other machines' lines, the newest PEAK_MEMO_MACHINES - 1 of them, then this one's */
    size_t used = 0, klen = strlen(k);
    int others = 0;
    double vals[PEAK_MEMO_KEEP];
    int nv = 0;
    for (char *line = old; *line;) {
        char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        if (ll > klen && !strncmp(line, k, klen) && line[klen] == '\t') {
            for (char *p = line + klen + 1; p < line + ll && nv < PEAK_MEMO_KEEP;) {
                char *e;
                double v = strtod(p, &e);
                if (e == p)
                    break;
                if (v > 0)
                    vals[nv++] = v;
                p = e;
            }
        } else if (ll > 0 && memchr(line, '\t', ll))
            others++;
        line += ll + (end != NULL);
    }
    int skip = others > PEAK_MEMO_MACHINES - 1 ? others - (PEAK_MEMO_MACHINES - 1) : 0;
    for (char *line = old; *line;) {
        char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        int mine = ll > klen && !strncmp(line, k, klen) && line[klen] == '\t';
        if (!mine && ll > 0 && memchr(line, '\t', ll) && skip-- <= 0) {
            memcpy(out + used, line, ll);
            used += ll;
            out[used++] = '\n';
        }
        line += ll + (end != NULL);
    }
    /* this machine's: its last PEAK_MEMO_KEEP - 1 values, then this run's */
    int first = nv > PEAK_MEMO_KEEP - 1 ? nv - (PEAK_MEMO_KEEP - 1) : 0;
    used += (size_t)snprintf(out + used, cap - used, "%s\t", k);
    for (int i = first; i < nv; i++) {
        best = vals[i] > best ? vals[i] : best;
        used += (size_t)snprintf(out + used, cap - used, "%.4g ", vals[i]);
    }
    used += (size_t)snprintf(out + used, cap - used, "%.4g\n", gbps);
    int ok = ftruncate(fd, 0) == 0 && pwrite(fd, out, used, 0) == (ssize_t)used;
    if (!ok)
        snprintf(why, whylen, "%s: cannot write: %s", path, strerror(errno));
    free(old);
    free(out);
    close(fd); /* releases the lock */
    *n = ok ? nv - first + 1 : 0;
    return ok ? best : gbps;
}
