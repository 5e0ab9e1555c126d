/* blas_rank.c — OpenBLAS's cores and a CPU's flags on one ISA scale (blas_rank.h). */
#include "harness/core/blas_rank.h"

#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    int level;
    const char *isa; /* what its kernels use, for messages */
} cores[] = {
    /* OpenBLAS's x86-64 DYNAMIC_ARCH names (driver/others/dynamic.c), by the ISA their kernels
     * use; a name this table lacks (a newer OpenBLAS's) is taken as fitting. */
    {"Katmai", 1, "SSE"},         {"Coppermine", 1, "SSE"},
    {"Northwood", 1, "SSE2"},     {"Prescott", 1, "SSE3"},
    {"Banias", 1, "SSE2"},        {"Atom", 1, "SSSE3"},
    {"Core2", 1, "SSSE3"},        {"Penryn", 1, "SSE4.1"},
    {"Dunnington", 1, "SSE4.1"},  {"Nehalem", 1, "SSE4.2"},
    {"Athlon", 1, "SSE"},         {"Opteron", 1, "SSE2"},
    {"Opteron(SSE3)", 1, "SSE3"}, {"Barcelona", 1, "SSE4a"},
    {"Nano", 1, "SSE3"},          {"Bobcat", 1, "SSE4a"},
    {"Sandybridge", 2, "AVX"},    {"Bulldozer", 2, "AVX"},
    {"Piledriver", 2, "AVX"},     {"Steamroller", 2, "AVX"},
    {"Haswell", 3, "AVX2"},       {"Excavator", 3, "AVX2"},
    {"Zen", 3, "AVX2"},           {"SkylakeX", 4, "AVX-512"},
    {"Cooperlake", 4, "AVX-512"}, {"SapphireRapids", 4, "AVX-512"},
};

const char *blas_core_isa(const char *core) {
    for (size_t i = 0; core && i < sizeof cores / sizeof cores[0]; i++)
        if (strcasecmp(core, cores[i].name) == 0)
            return cores[i].isa;
    return "unknown ISA";
}

int blas_core_rank(const char *core) {
    for (size_t i = 0; core && i < sizeof cores / sizeof cores[0]; i++)
        if (strcasecmp(core, cores[i].name) == 0)
            return cores[i].level;
    return 0;
}

const char *blas_level_name(int level) {
    static const char *const names[] = {"unknown", "SSE", "AVX", "AVX2", "AVX-512"};
    return level >= 0 && level <= 4 ? names[level] : names[0];
}

/* Is `word` one of the space-separated words of `list`? */
static int has_word(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

int blas_level_of_flags(const char *flags) {
    if (!flags)
        return 0;
    if (has_word(flags, "avx512f"))
        return 4;
    if (has_word(flags, "avx2") && has_word(flags, "fma"))
        return 3;
    if (has_word(flags, "avx"))
        return 2;
    return has_word(flags, "sse4_2") ? 1 : 0;
}
