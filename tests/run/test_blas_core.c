/* test_blas_core.c — the pure part of OpenBLAS's core choice (harness/run/blas_core.h): the
 * ranking, the plan from the user's OPENBLAS_CORETYPE, --blas-core, OpenBLAS's own pick and the
 * CPU's features, and the pick among trials. No environment is read or changed here. */
#include <string.h>

#include "harness/run/blas_core.h"
#include "tests/testhelp.h"

static const unsigned AVX512 = BC_AVX | BC_AVX2 | BC_FMA | BC_AVX512F;
static const unsigned ZEN3 = BC_AVX | BC_AVX2 | BC_FMA | BC_AMD;

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
          blas_core_option_ok("SkylakeX") && !blas_core_option_ok("Fast") &&
          !blas_core_option_ok(NULL));

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

    /* The fastest that verified wins; none verified: -1 (OpenBLAS's pick is kept). */
    struct blas_trial t[3] = {{"SkylakeX", 0, 0}, {"Haswell", 1, 50}, {"Prescott", 1, 240}};
    CHECK(blas_core_pick(t, 3) == 1);
    t[0].ok = 1, t[0].ms = 30;
    CHECK(blas_core_pick(t, 3) == 0);
    t[0].ok = t[1].ok = t[2].ok = 0;
    CHECK(blas_core_pick(t, 3) == -1);
    return TEST_END();
}
