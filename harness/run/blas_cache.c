/* blas_cache.c — the remembered choices of OpenBLAS's core: lock, read, rewrite (blas_cache.h). */
#include "harness/run/blas_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void blas_cache_path(char *out, size_t len) {
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && x[0])
        snprintf(out, len, "%s/gpubench/blas-core", x);
    else if (h && h[0])
        snprintf(out, len, "%s/.cache/gpubench/blas-core", h);
    else
        out[0] = '\0';
}

/* mkdir -p of the folder that holds `path` (two levels: ~/.cache/gpubench). */
static void make_parents(const char *path) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = '\0';
    char *parent = strrchr(dir, '/');
    if (parent && parent != dir) {
        *parent = '\0';
        mkdir(dir, 0755);
        *parent = '/';
    }
    mkdir(dir, 0755);
}

int blas_cache_lock(const char *path, int wait_s) {
    char lock[600];
    if (!path[0])
        return -1;
    make_parents(path);
    snprintf(lock, sizeof lock, "%s.lock", path);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    /* Polled rather than blocking, so that a holder that never lets go (a stopped process)
     * costs a bounded wait, not a hung run. */
    for (long waited_ms = 0;; waited_ms += 50) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return fd;
        if ((errno != EWOULDBLOCK && errno != EINTR) || waited_ms >= wait_s * 1000L)
            break;
        struct timespec t = {0, 50 * 1000 * 1000};
        nanosleep(&t, NULL);
    }
    close(fd);
    return -1;
}

/* Split "KEY\tCORE\tPROVED\tSTRUCK\n" in place; 0 when it is such a line. */
static int parse(char *line, char **key, struct blas_memo *m) {
    char *f[4];
    line[strcspn(line, "\n")] = '\0';
    f[0] = line;
    for (int i = 1; i < 4; i++) {
        char *tab = strchr(f[i - 1], '\t');
        if (!tab)
            return -1;
        *tab = '\0';
        f[i] = tab + 1;
    }
    if (strchr(f[3], '\t'))
        return -1;
    *key = f[0];
    snprintf(m->core, sizeof m->core, "%s", strcmp(f[1], "-") == 0 ? "" : f[1]);
    m->proved = atoll(f[2]);
    snprintf(m->struck, sizeof m->struck, "%s", strcmp(f[3], "-") == 0 ? "" : f[3]);
    return 0;
}

/* Does the key's library file ("PATH|SIZE|MTIME|…") still exist as it was? */
static int library_same(const char *key) {
    char path[512];
    long long size = -1, mtime = -1;
    const char *bar = strchr(key, '|');
    if (!bar || (size_t)(bar - key) >= sizeof path ||
        sscanf(bar + 1, "%lld|%lld|", &size, &mtime) != 2)
        return 0;
    memcpy(path, key, (size_t)(bar - key));
    path[bar - key] = '\0';
    struct stat st;
    return stat(path, &st) == 0 && (long long)st.st_size == size && (long long)st.st_mtime == mtime;
}

int blas_cache_get(const char *path, const char *key, struct blas_memo *m) {
    char line[1024];
    memset(m, 0, sizeof *m);
    FILE *fp = path[0] ? fopen(path, "r") : NULL;
    int found = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        char *k;
        struct blas_memo got;
        if (parse(line, &k, &got) == 0 && strcmp(k, key) == 0) {
            *m = got; /* one line per key; were there more, the last wins */
            found = 1;
        }
    }
    if (fp)
        fclose(fp);
    return found;
}

static void put_line(FILE *out, const char *key, const struct blas_memo *m) {
    fprintf(out, "%s\t%s\t%lld\t%s\n", key, m->core[0] ? m->core : "-", m->proved,
            m->struck[0] ? m->struck : "-");
}

int blas_cache_put(const char *path, const char *key, const struct blas_memo *m) {
    char tmp[600], line[1024];
    static char keep[BLAS_CACHE_MAX_LINES][1024];
    int nkeep = 0;
    if (!path[0])
        return -1;
    make_parents(path);
    /* The other keys' lines, oldest first, the newest BLAS_CACHE_MAX_LINES - 1 of them kept. */
    FILE *in = fopen(path, "r");
    while (in && fgets(line, sizeof line, in)) {
        char copy[1024], *k;
        struct blas_memo got;
        snprintf(copy, sizeof copy, "%s", line);
        if (parse(copy, &k, &got) != 0 || strcmp(k, key) == 0 || !library_same(k))
            continue;
        int dup = -1;
        for (int i = 0; i < nkeep && dup < 0; i++) {
            char other[1024], *ok;
            struct blas_memo og;
            snprintf(other, sizeof other, "%s", keep[i]);
            if (parse(other, &ok, &og) == 0 && strcmp(ok, k) == 0)
                dup = i;
        }
        if (dup < 0 && nkeep == BLAS_CACHE_MAX_LINES - 1)
            dup = 0; /* full: the oldest line goes */
        if (dup >= 0) {
            memmove(keep[dup], keep[dup + 1], sizeof keep[0] * (size_t)(nkeep - dup - 1));
            nkeep--;
        }
        snprintf(keep[nkeep++], sizeof keep[0], "%s", line);
    }
    if (in)
        fclose(in);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *out = fopen(tmp, "w");
    if (!out)
        return -1;
    for (int i = 0; i < nkeep; i++)
        fputs(keep[i], out);
    put_line(out, key, m);
    if (fclose(out) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int blas_memo_struck(const struct blas_memo *m, const char *core) {
    size_t n = strlen(core);
    for (const char *p = m->struck; *p;) {
        size_t item = strcspn(p, ",");
        if (item == n && strncasecmp(p, core, n) == 0)
            return 1;
        p += item + (p[item] == ',');
    }
    return 0;
}
