/* test_gpu_tier.c — the tier/architecture decision table (harness/gpuinfo/gpu_tier.c) on the
 * cards gpubench's users have, from Fermi to Blackwell, and in a CUDA 8 build. */
#include <string.h>

#include "harness/gpuinfo/gpu_tier.h"
#include "tests/testhelp.h"

/* One card and the tiers it runs ("1" at f32, f64, tf32, f16, bf16 — the enum's order). */
struct card {
    const char *name;
    int major, minor;
    const char *runs; /* 5 characters, '1' or '0', in enum dtype order */
};

static const struct card cards[] = {
    {"NVS 310", 2, 1, "11000"},   {"Quadro K2100M", 3, 0, "11000"}, {"Tesla K40m", 3, 5, "11000"},
    {"Tesla K80", 3, 7, "11000"}, {"GTX 980", 5, 2, "11000"},       {"Tesla T4", 7, 5, "11010"},
    {"A100", 8, 0, "11111"},      {"H100", 9, 0, "11111"},          {"RTX 5090", 12, 0, "11111"},
};

static void test_cards(void) {
    for (size_t i = 0; i < sizeof cards / sizeof *cards; i++)
        for (int t = 0; t < DT_COUNT; t++) {
            char why[160] = "";
            const struct card *c = &cards[i];
            int ok = gpu_tier_check((enum dtype)t, c->major, c->minor, 13000, why, sizeof why) == 0;
            CHECK_MSG(ok == (c->runs[t] == '1'), "%s %s: %s (%s)", c->name,
                      dtype_flag((enum dtype)t), ok ? "runs" : "refused", why);
            CHECK_MSG(ok == (why[0] == '\0'), "%s %s: reason '%s'", c->name,
                      dtype_flag((enum dtype)t), why);
        }
}

static void test_reasons(void) {
    char why[160];
    CHECK(gpu_tier_check(DT_BF16, 3, 5, 11080, why, sizeof why) != 0);
    CHECK_MSG(!strcmp(why, "BF16 needs compute capability 8.0; this is 3.5"), "%s", why);
    CHECK(gpu_tier_check(DT_F16, 5, 2, 13000, why, sizeof why) != 0);
    CHECK_MSG(!strcmp(why, "FP16 needs compute capability 5.3; this is 5.2"), "%s", why);
    /* the toolkit: a CUDA 10.2 build on an A100 has no bf16 or tf32 types */
    CHECK(gpu_tier_check(DT_TF32, 8, 0, 10020, why, sizeof why) != 0);
    CHECK_MSG(!strcmp(why, "TF32 needs CUDA 11.0 or newer; this gpubench was built with CUDA "
                           "10.2"),
              "%s", why);
    CHECK(gpu_tier_check(DT_F16, 6, 0, 8000, why, sizeof why) == 0); /* CUDA 8 has half */
    CHECK(gpu_tier_check(DT_F64, 2, 0, 8000, why, sizeof why) == 0);
    CHECK(gpu_tier_check(DT_BF16, 8, 0, 0, why, sizeof why) == 0); /* unknown build: not checked */
    CHECK(gpu_cuda_version_number("13.0") == 13000 && gpu_cuda_version_number("10.2") == 10020);
    CHECK(gpu_cuda_version_number("") == 0 && gpu_cuda_version_number("x") == 0);
}

int main(void) {
    test_cards();
    test_reasons();
    return TEST_END();
}
