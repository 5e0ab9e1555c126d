/* test_compare_plot.c — scripts/plot draws both chart kinds from run CSVs, and what it writes is
 * a valid PNG (signature, every chunk's CRC, IHDR first, IEND last) of the size asked for.
 * usage: test_compare_plot PYTHON PLOT_SCRIPT OUT_DIR RUN.csv... (exit 77 without matplotlib) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/testhelp.h"

static uint32_t crc_table[256];

static void crc_init(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

/* CRC-32 as PNG uses it (ISO 3309 / ITU-T V.42), over the chunk type and data. */
static uint32_t crc32_png(const unsigned char *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* 0 when `path` is a well-formed PNG of w × h pixels; else -1 with the reason on stderr. */
static int check_png(const char *path, uint32_t w, uint32_t h) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: not written\n", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *b = malloc((size_t)n);
    size_t got = b ? fread(b, 1, (size_t)n, f) : 0;
    fclose(f);
    int rc = -1;
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (got != (size_t)n || n < 8 + 25 + 12 || memcmp(b, sig, 8) != 0) {
        fprintf(stderr, "%s: no PNG signature\n", path);
        goto out;
    }
    size_t pos = 8;
    int chunks = 0, idat = 0, iend = 0;
    while (pos + 12 <= (size_t)n && !iend) {
        uint32_t len = be32(b + pos);
        if (len > (size_t)n - pos - 12) {
            fprintf(stderr, "%s: chunk %d overruns the file\n", path, chunks);
            goto out;
        }
        const unsigned char *type = b + pos + 4;
        if (crc32_png(type, len + 4) != be32(b + pos + 8 + len)) {
            fprintf(stderr, "%s: bad CRC in chunk %.4s\n", path, (const char *)type);
            goto out;
        }
        if (chunks == 0) {
            if (memcmp(type, "IHDR", 4) || len != 13) {
                fprintf(stderr, "%s: first chunk is not IHDR\n", path);
                goto out;
            }
            uint32_t pw = be32(type + 4), ph = be32(type + 8);
            if (pw != w || ph != h) {
                fprintf(stderr, "%s: %ux%u pixels, want %ux%u\n", path, pw, ph, w, h);
                goto out;
            }
        }
        idat += !memcmp(type, "IDAT", 4);
        iend = !memcmp(type, "IEND", 4);
        chunks++;
        pos += 12 + len;
    }
    if (!idat || !iend || pos != (size_t)n) {
        fprintf(stderr, "%s: %s\n", path, !idat ? "no image data" : "no IEND at the end");
        goto out;
    }
    rc = 0;
out:
    free(b);
    return rc;
}

/* Run argv, stdout and stderr through to ours; the exit status, or -1. */
static int run(char *const argv[]) {
    pid_t pid = fork();
    if (pid == 0) {
        execv(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s PYTHON PLOT_SCRIPT OUT_DIR RUN.csv...\n", argv[0]);
        return 2;
    }
    char *py = argv[1], *script = argv[2], *dir = argv[3];
    char *probe[] = {py, "-c", "import matplotlib", NULL};
    if (run(probe) != 0) {
        printf("SKIP: %s cannot import matplotlib: apt-get install python3-matplotlib\n", py);
        return 77;
    }
    crc_init();
    char speed[4096], sweep[4096], bad[4096];
    snprintf(speed, sizeof speed, "%s/speedup.png", dir);
    snprintf(sweep, sizeof sweep, "%s/sweep.png", dir);
    snprintf(bad, sizeof bad, "%s/bad.png", dir);
    unlink(speed);
    unlink(sweep);
    unlink(bad);

    char *a[64];
    int n = 0;
    a[n++] = py;
    a[n++] = script;
    a[n++] = "speedup";
    a[n++] = "--out";
    a[n++] = speed;
    a[n++] = "--size";
    a[n++] = "900x600";
    for (int i = 4; i < argc && n < 60; i++)
        a[n++] = argv[i];
    a[n] = NULL;
    CHECK(run(a) == 0);
    CHECK(check_png(speed, 900, 600) == 0);
    /* the checker itself can fail: another size, or one flipped byte */
    CHECK(check_png(speed, 600, 900) == -1);
    FILE *in = fopen(speed, "rb"), *out = fopen(bad, "wb");
    int ch;
    long at = 0;
    while (in && out && (ch = fgetc(in)) != EOF)
        fputc(at++ == 100 ? ch ^ 1 : ch, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    CHECK(check_png(bad, 900, 600) == -1);
    unlink(bad);

    n = 0;
    a[n++] = py;
    a[n++] = script;
    a[n++] = "sweep";
    a[n++] = "--out";
    a[n++] = sweep;
    for (int i = 4; i < argc && n < 60; i++)
        a[n++] = argv[i];
    a[n] = NULL;
    CHECK(run(a) == 0);
    CHECK(check_png(sweep, 1200, 800) == 0); /* the default size */

    /* the per-tier bars, on the run files given and on a file with float32 and float64 rows
     * (TIERS_CSV: tests/data/compare/tiers.csv) */
    char tiers[4096];
    snprintf(tiers, sizeof tiers, "%s/tiers.png", dir);
    unlink(tiers);
    char *t[] = {py, script, "tiers", "--out", tiers, "--size", "800x500", TIERS_CSV, NULL};
    CHECK(run(t) == 0);
    CHECK(check_png(tiers, 800, 500) == 0);

    /* bad input: exit 2 and no picture */
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/no-such-run.csv", dir);
    char *b[] = {py, script, "speedup", "--out", bad, missing, NULL};
    CHECK(run(b) == 2);
    CHECK(access(bad, F_OK) != 0);
    char *c[] = {py, script, "speedup", "--size", "12x", argv[4], NULL};
    CHECK(run(c) == 2);
    return TEST_END();
}
