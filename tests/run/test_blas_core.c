/* test_blas_core.c — the pure part of OpenBLAS's core choice (harness/run/blas_core.h): the
 * ranking, the plan from the user's OPENBLAS_CORETYPE, --blas-core, OpenBLAS's own pick and the
 * CPU's features, the trial's rule on made-up rounds, and the cache file and its lock
 * (harness/run/blas_cache.h) in a temporary folder. No environment is read or changed here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/run/blas_cache.h"
#include "harness/run/blas_core.h"
#include "tests/testhelp.h"

static const unsigned AVX512 = BC_AVX | BC_AVX2 | BC_FMA | BC_AVX512F;
static const unsigned ZEN3 = BC_AVX | BC_AVX2 | BC_FMA | BC_AMD;

/* Candidates in preference order (newest ISA first) with per-round times base[i] * load[r] *
 * jitter: a load common to a round (the machine busy or not) and a few % of noise of each. */
static void rounds(struct blas_trial *t, const double *base, int n, int nr, double busy) {
    unsigned seed = 12345;
    for (int r = 0; r < nr; r++) {
        seed = seed * 1103515245u + 12345u;
        double load = 1.0 + busy * (double)(seed >> 16 & 0xff) / 255.0; /* 1 .. 1 + busy */
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            double jitter = 0.97 + 0.06 * (double)(seed >> 16 & 0xff) / 255.0; /* +-3% */
            t[i].ms[r] = base[i] * load * jitter;
            t[i].n = nr;
        }
    }
}

static void test_decide(void) {
    static const char *names[] = {"Cooperlake", "SkylakeX", "Haswell", "Prescott"};
    struct blas_trial t[4];
    int clear = -1;
    for (int i = 0; i < 4; i++)
        memset(&t[i], 0, sizeof t[i]), t[i].core = names[i], t[i].ok = 1;
    /* This machine's shape: the two AVX-512 cores within a few %, SkylakeX a hair faster;
     * Haswell 1.7x, Prescott 4.5x. Quiet, or with rounds up to 10x slower, the newest wins. */
    const double tied[4] = {2.05, 2.0, 3.4, 9.3};
    rounds(t, tied, 4, 8, 0.0);
    CHECK(blas_core_decide(t, 4, &clear) == 0 && clear == 1);
    rounds(t, tied, 4, 8, 9.0);
    CHECK(blas_core_decide(t, 4, &clear) == 0);
    /* Haswell clearly faster than both AVX-512 cores: the evidence beats the preference. */
    const double old_fast[4] = {4.0, 4.1, 2.0, 9.3};
    rounds(t, old_fast, 4, 10, 5.0);
    CHECK(blas_core_decide(t, 4, &clear) == 2 && clear == 1);
    /* Too few rounds for a 99% interval (8): the newest, and not clear yet. */
    rounds(t, old_fast, 4, 7, 0.0);
    CHECK(blas_core_decide(t, 4, &clear) == 0 && clear == 0);
    /* Candidates that failed are passed over; none left: -1. */
    rounds(t, tied, 4, 8, 0.0);
    t[0].ok = 0;
    CHECK(blas_core_decide(t, 4, &clear) == 1);
    t[1].ok = t[2].ok = t[3].ok = 0;
    CHECK(blas_core_decide(t, 4, &clear) == -1);
    struct blas_trial m = {"x", 1, 3, {3.0, 1.0, 2.0}};
    CHECK(blas_trial_median(&m) == 2.0);
}

/* A key as blas_core.c writes it ("PATH|SIZE|MTIME|..."), for a library file of the test's. */
static void key_for(char *out, size_t len, const char *lib, const char *rest) {
    struct stat st;
    CHECK(stat(lib, &st) == 0);
    snprintf(out, len, "%s|%lld|%lld|%s", lib, (long long)st.st_size, (long long)st.st_mtime, rest);
}

static int lines_of(const char *path) {
    FILE *fp = fopen(path, "r");
    int n = 0, c;
    while (fp && (c = fgetc(fp)) != EOF)
        n += c == '\n';
    if (fp)
        fclose(fp);
    return n;
}

static void write_file(const char *path, const char *mode, const char *text) {
    FILE *fp = fopen(path, mode);
    CHECK(fp != NULL);
    if (fp)
        fputs(text, fp), fclose(fp);
}

static void test_cache(void) {
    char dir[] = "/tmp/test_blas_cache.XXXXXX", path[128], lib[128], lib2[128], key[512];
    char key2[512];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/gpubench/blas-core", dir);
    snprintf(lib, sizeof lib, "%s/libopenblas.so", dir);
    snprintf(lib2, sizeof lib2, "%s/libother.so", dir);
    write_file(lib, "w", "x");
    write_file(lib2, "w", "y");
    key_for(key, sizeof key, lib, "cpu|0x1f|cfg|Prescott");
    key_for(key2, sizeof key2, lib2, "cpu|0x1f|cfg|Prescott");

    /* The lock: a second holder waits (here: 0 s, so it gives up), and has it once the first
     * lets go. */
    int a = blas_cache_lock(path, 0);
    CHECK(a >= 0);
    CHECK(blas_cache_lock(path, 0) == -1);
    close(a);
    a = blas_cache_lock(path, 0);
    CHECK(a >= 0);
    close(a);

    /* One line per key, however often it is written. */
    struct blas_memo m = {"SkylakeX", 1000, ""}, got;
    CHECK(blas_cache_get(path, key, &got) == 0);
    CHECK(blas_cache_put(path, key, &m) == 0);
    snprintf(m.core, sizeof m.core, "Cooperlake");
    m.proved = 2000;
    CHECK(blas_cache_put(path, key, &m) == 0 && blas_cache_put(path, key, &m) == 0);
    CHECK(lines_of(path) == 1);
    CHECK(blas_cache_get(path, key, &got) == 1 && strcmp(got.core, "Cooperlake") == 0 &&
          got.proved == 2000 && got.struck[0] == '\0');
    /* Struck cores travel with the line. */
    snprintf(m.struck, sizeof m.struck, "Haswell,Zen");
    CHECK(blas_cache_put(path, key2, &m) == 0 && lines_of(path) == 2);
    CHECK(blas_cache_get(path, key2, &got) == 1 && blas_memo_struck(&got, "zen") &&
          blas_memo_struck(&got, "Haswell") && !blas_memo_struck(&got, "Has"));
    /* A library that changed (its size): its line goes at the next write. */
    write_file(lib2, "a", "more");
    CHECK(blas_cache_put(path, key, &m) == 0 && lines_of(path) == 1);
    /* Never more than BLAS_CACHE_MAX_LINES lines. */
    for (int i = 0; i < BLAS_CACHE_MAX_LINES + 10; i++) {
        char k[600];
        snprintf(k, sizeof k, "%s|cpu%d", key, i);
        CHECK(blas_cache_put(path, k, &m) == 0);
    }
    CHECK(lines_of(path) == BLAS_CACHE_MAX_LINES);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

int main(void) {
    const char *c[8];
    int n = -1;
    unsigned f = 0;

    CHECK(blas_core_rank("Prescott") == 1 && blas_core_rank("prescott") == 1);
    CHECK(blas_core_rank("Haswell") == 3 && blas_core_rank("Zen") == 3);
    CHECK(blas_core_rank("SkylakeX") == 4 && blas_core_rank("Cooperlake") == 4);
    CHECK(blas_core_rank("Zen5") == 0 && blas_core_rank(NULL) == 0);
    CHECK(blas_cpu_level(AVX512) == 4 && blas_cpu_level(ZEN3) == 3);
    CHECK(blas_cpu_level(BC_AVX2) == 1); /* AVX2 without FMA runs no Haswell kernels */
    CHECK(blas_features_parse("avx512f,avx512bf16,avx2,fma", &f) == 0 &&
          f == (BC_AVX512F | BC_AVX512BF16 | BC_AVX2 | BC_FMA));
    CHECK(blas_features_parse("avx512f,sse9", &f) == -1);
    CHECK(blas_core_option_ok("own") && blas_core_option_ok("auto") &&
          blas_core_option_ok("trial") && blas_core_option_ok("SkylakeX") &&
          !blas_core_option_ok("Fast") && !blas_core_option_ok(NULL));

    /* This project's machines: Prescott on an AVX-512 Xeon with BF16 → try the newest first,
     * OpenBLAS's own pick last. */
    CHECK(blas_core_plan(NULL, NULL, "Prescott", AVX512 | BC_AVX512BF16, c, 8, &n) == BLAS_TRIAL);
    CHECK(n == 4 && strcmp(c[0], "Cooperlake") == 0 && strcmp(c[1], "SkylakeX") == 0 &&
          strcmp(c[2], "Haswell") == 0 && strcmp(c[3], "Prescott") == 0);
    /* Without BF16 no Cooperlake; Haswell on AVX-512 tries only the AVX-512 cores. */
    CHECK(blas_core_plan(NULL, "auto", "Haswell", AVX512, c, 8, &n) == BLAS_TRIAL);
    CHECK(n == 2 && strcmp(c[0], "SkylakeX") == 0 && strcmp(c[1], "Haswell") == 0);
    /* Zen 3 with OpenBLAS's Zen: no trial. An AMD CPU on Prescott tries Zen and Haswell. */
    CHECK(blas_core_plan(NULL, NULL, "Zen", ZEN3, c, 8, &n) == BLAS_FITS && n == 0);
    CHECK(blas_core_plan(NULL, NULL, "Prescott", ZEN3, c, 8, &n) == BLAS_TRIAL && n == 3 &&
          strcmp(c[0], "Zen") == 0 && strcmp(c[1], "Haswell") == 0);
    /* A name newer than our table is taken as fitting. */
    CHECK(blas_core_plan(NULL, NULL, "Zen5", AVX512, c, 8, &n) == BLAS_FITS);
    /* The user's OPENBLAS_CORETYPE always wins, over --blas-core too; then --blas-core. */
    CHECK(blas_core_plan("Prescott", "SkylakeX", "Prescott", AVX512, c, 8, &n) == BLAS_USER);
    CHECK(blas_core_plan("", NULL, "Prescott", AVX512, c, 8, &n) == BLAS_TRIAL);
    CHECK(blas_core_plan(NULL, "own", "Prescott", AVX512, c, 8, &n) == BLAS_OWN && n == 0);
    CHECK(blas_core_plan(NULL, "SkylakeX", "Prescott", AVX512, c, 8, &n) == BLAS_OPTION);

    test_decide();
    test_cache();
    return TEST_END();
}
