/* blas_core.c — the choice of OpenBLAS's core (blas_core.h): the ranking and plan (pure), the
 * re-execution with OPENBLAS_CORETYPE, the cache, and the texts rows and doctor print. The
 * trials themselves are blas_trial.c. */
#include "harness/run/blas_core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/core/blas.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

/* Set in the re-executed process (and inherited by its children: --runs, __child): OpenBLAS's
 * own pick, and how the core in OPENBLAS_CORETYPE was chosen. */
#define PICKED_ENV "GPUBENCH_BLAS_PICKED"
#define HOW_ENV "GPUBENCH_BLAS_HOW"
/* The line that tells of a new choice, carried over the re-execution to where the CPU is used
 * (blas_core_announce): a usage error after the choice stays one line. */
#define NEWS_ENV "GPUBENCH_BLAS_NEWS"
static char news[768];

int blas_cpu_level(unsigned f) {
    if (f & BC_AVX512F)
        return 4;
    if ((f & BC_AVX2) && (f & BC_FMA))
        return 3;
    return f & BC_AVX ? 2 : 1;
}

int blas_features_parse(const char *list, unsigned *features) {
    static const struct {
        const char *w;
        unsigned bit;
    } words[] = {{"avx", BC_AVX},         {"avx2", BC_AVX2},         {"fma", BC_FMA},
                 {"avx512f", BC_AVX512F}, {"avx512bf16", BC_AVX512BF16}, {"amd", BC_AMD}};
    *features = 0;
    while (list && *list) {
        size_t n = strcspn(list, ","), i;
        for (i = 0; i < sizeof words / sizeof words[0]; i++)
            if (strlen(words[i].w) == n && strncmp(list, words[i].w, n) == 0)
                break;
        if (n && i == sizeof words / sizeof words[0])
            return -1;
        if (n)
            *features |= words[i].bit;
        list += n + (list[n] == ',');
    }
    return 0;
}

int blas_core_option_ok(const char *v) {
    return v && (strcmp(v, "auto") == 0 || strcmp(v, "own") == 0 || blas_core_rank(v) > 0);
}

enum blas_how blas_core_plan(const char *user_env, const char *option, const char *own,
                             unsigned f, const char **cand, int maxcand, int *ncand) {
    *ncand = 0;
    if (user_env && user_env[0])
        return BLAS_USER;
    if (option && strcmp(option, "own") == 0)
        return BLAS_OWN;
    if (option && strcmp(option, "auto") != 0 && blas_core_rank(option) > 0)
        return BLAS_OPTION;
    int level = blas_cpu_level(f), rank = blas_core_rank(own);
    if (rank == 0 || rank >= level)
        return BLAS_FITS;
    /* The newest kernels first; a name this OpenBLAS does not know reports another core in its
     * trial and is dropped there. */
    const char *list[6];
    int n = 0;
    if (level >= 4 && (f & BC_AVX512BF16))
        list[n++] = "Cooperlake";
    if (level >= 4)
        list[n++] = "SkylakeX";
    if (level >= 3 && (f & BC_AMD))
        list[n++] = "Zen";
    if (level >= 3)
        list[n++] = "Haswell";
    if (level == 2)
        list[n++] = "Sandybridge";
    for (int i = 0; i < n && *ncand < maxcand - 1; i++)
        if (blas_core_rank(list[i]) > rank)
            cand[(*ncand)++] = list[i];
    if (*ncand < maxcand)
        cand[(*ncand)++] = own;
    return BLAS_TRIAL;
}

int blas_core_pick(const struct blas_trial *t, int n) {
    int best = -1;
    for (int i = 0; i < n; i++)
        if (t[i].ok && (best < 0 || t[i].ms < t[best].ms))
            best = i;
    return best;
}

static struct blas_core_state state;

const struct blas_core_state *blas_core_state(void) { return &state; }

/* The CPU's features from cpuid, or GPUBENCH_TEST_CPU_FEATURES. */
static unsigned cpu_features(void) {
    unsigned f = 0;
    const char *t = getenv("GPUBENCH_TEST_CPU_FEATURES");
    if (t && blas_features_parse(t, &f) == 0)
        return f;
#if defined(__x86_64__) && defined(__GNUC__)
    unsigned a, b, c, d;
    if (__get_cpuid(0, &a, &b, &c, &d) && b == 0x68747541) /* "Auth"enticAMD */
        f |= BC_AMD;
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        f |= (c >> 28 & 1) ? BC_AVX : 0;
        f |= (c >> 12 & 1) ? BC_FMA : 0;
    }
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        f |= (b >> 5 & 1) ? BC_AVX2 : 0;
        f |= (b >> 16 & 1) ? BC_AVX512F : 0;
    }
    if (__get_cpuid_count(7, 1, &a, &b, &c, &d))
        f |= (a >> 5 & 1) ? BC_AVX512BF16 : 0;
#endif
    return f;
}

/* What OpenBLAS picked itself (only meaningful while OPENBLAS_CORETYPE is unset), or the test's
 * injected pick. */
static const char *own_pick(void) {
    const char *t = getenv("GPUBENCH_TEST_BLAS_OWN_CORE");
    if (t && t[0])
        return t;
    const char *c = openblas_get_corename();
    return c ? c : "";
}

/* The remembered choices: lines "KEY\tCORE". KEY: CPU brand, features, OpenBLAS's config and
 * its own pick, so another machine, CPU or library asks again. */
static void cache_path(char *out, size_t len) {
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (x && x[0])
        snprintf(out, len, "%s/gpubench/blas-core", x);
    else if (h && h[0])
        snprintf(out, len, "%s/.cache/gpubench/blas-core", h);
    else
        out[0] = '\0';
}

static void cache_key(char *out, size_t len, unsigned f, const char *own) {
    char brand[49] = "";
#if defined(__x86_64__) && defined(__GNUC__)
    unsigned *r = (unsigned *)brand;
    for (unsigned i = 0; i < 3; i++)
        if (!__get_cpuid(0x80000002u + i, &r[4 * i], &r[4 * i + 1], &r[4 * i + 2], &r[4 * i + 3]))
            brand[0] = '\0';
    brand[48] = '\0';
#endif
    /* A DYNAMIC_ARCH OpenBLAS's config names the core it runs ("… NO_AFFINITY Haswell
     * MAX_THREADS=64"): left out, so the key is the same before the re-execution that changes
     * the core and after it (blas_core_distrust writes from there). */
    char cfg[256];
    const char *c = openblas_get_config(), *run = openblas_get_corename();
    snprintf(cfg, sizeof cfg, "%s", c ? c : "");
    size_t rl = run ? strlen(run) : 0;
    for (char *p = cfg; rl && *p; p++)
        if (strncasecmp(p, run, rl) == 0 && (p == cfg || p[-1] == ' ') &&
            (p[rl] == ' ' || p[rl] == '\0')) {
            memmove(p, p + rl, strlen(p + rl) + 1);
            break;
        }
    snprintf(out, len, "%s|%#x|%s|%s", brand, f, cfg, own);
    for (char *p = out; *p; p++)
        if (*p == '\t' || *p == '\n')
            *p = ' ';
}

/* Cores a gemm row proved wrong on this machine (lines "KEY\t-CORE", blas_core_distrust): never
 * taken from the cache nor tried again. */
static char struck[8][32];
static int nstruck;

static int is_struck(const char *core) {
    for (int i = 0; i < nstruck; i++)
        if (strcasecmp(struck[i], core) == 0)
            return 1;
    return 0;
}

/* The remembered core for KEY (the last line wins, unless a later "-CORE" line struck it), and
 * the struck cores into struck[]. */
static int cache_read(const char *key, char *core, size_t len) {
    char path[512], line[768];
    cache_path(path, sizeof path);
    FILE *fp = path[0] ? fopen(path, "r") : NULL;
    int found = 0;
    nstruck = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        char *tab = strchr(line, '\t');
        if (!tab || (size_t)(tab - line) != strlen(key) || strncmp(line, key, strlen(key)) != 0)
            continue;
        char *v = tab + 1;
        v[strcspn(v, "\n")] = '\0';
        if (v[0] == '-' && blas_core_rank(v + 1) > 0) {
            if (!is_struck(v + 1) && nstruck < (int)(sizeof struck / sizeof struck[0]))
                snprintf(struck[nstruck++], sizeof struck[0], "%s", v + 1);
            if (found && strcasecmp(core, v + 1) == 0)
                found = 0;
        } else if (blas_core_rank(v) > 0) {
            snprintf(core, len, "%s", v);
            found = 1;
        }
    }
    if (fp)
        fclose(fp);
    return found;
}

/* Append KEY\tCORE (the last line for a key wins); a cache that cannot be written only costs
 * the next run another trial. Returns the path written, or "". */
static const char *cache_write(const char *key, const char *core) {
    static char path[512];
    cache_path(path, sizeof path);
    char *slash = strrchr(path, '/');
    if (!path[0] || !slash)
        return "";
    *slash = '\0';
    char *parent = strrchr(path, '/');
    if (parent) {
        *parent = '\0';
        mkdir(path, 0755);
        *parent = '/';
    }
    mkdir(path, 0755);
    *slash = '/';
    FILE *fp = fopen(path, "a");
    if (!fp)
        return "";
    fprintf(fp, "%s\t%s\n", key, core);
    return fclose(fp) == 0 ? path : "";
}

static const char *how_names[] = {"fits", "user", "own", "option", "trial", "cached", "failed"};

void blas_core_announce(int print) {
    if (news[0] && print)
        fprintf(stderr, "%s\n", news);
    news[0] = '\0';
    unsetenv(NEWS_ENV); /* not again in the processes this one starts */
}

/* Re-execute with OPENBLAS_CORETYPE=core; returns only when exec fails. */
static void reexec(char **argv, const char *core, const char *own, enum blas_how how) {
    setenv("OPENBLAS_CORETYPE", core, 1);
    setenv(PICKED_ENV, own, 1);
    setenv(HOW_ENV, how_names[how], 1);
    if (news[0])
        setenv(NEWS_ENV, news, 1);
    fflush(NULL);
    execv("/proc/self/exe", argv);
    fprintf(stderr, "gpubench: cannot re-execute with OPENBLAS_CORETYPE=%s (%s): OpenBLAS's %s "
                    "kept\n",
            core, strerror(errno), own);
    unsetenv("OPENBLAS_CORETYPE");
    unsetenv(PICKED_ENV);
    unsetenv(HOW_ENV);
    unsetenv(NEWS_ENV);
}

static char **saved_argv; /* main's argv, copied before any parser splits it in place */
static int in_reexec;     /* this process is our re-execution (or one of its children) */

void blas_core_init(int argc, char **argv) {
    const char *env = getenv("OPENBLAS_CORETYPE"), *picked = getenv(PICKED_ENV);
    const char *how = getenv(HOW_ENV), *used = openblas_get_corename();
    state.cpu_level = blas_cpu_level(cpu_features());
    snprintf(state.used, sizeof state.used, "%s", used ? used : "unknown");
    saved_argv = calloc((size_t)argc + 1, sizeof *saved_argv);
    for (int i = 0; saved_argv && i < argc; i++)
        if (!(saved_argv[i] = strdup(argv[i])))
            saved_argv = NULL; /* then no re-execution: OpenBLAS's pick is kept */
    if (env && env[0] && picked && how) {
        const char *n = getenv(NEWS_ENV);
        snprintf(news, sizeof news, "%s", n ? n : "");
        in_reexec = 1;
        snprintf(state.own, sizeof state.own, "%s", picked);
        state.how = BLAS_TRIAL;
        for (int i = 0; i < (int)(sizeof how_names / sizeof how_names[0]); i++)
            if (strcmp(how, how_names[i]) == 0)
                state.how = (enum blas_how)i;
        return;
    }
    state.how = env && env[0] ? BLAS_USER : BLAS_FITS;
    snprintf(state.own, sizeof state.own, "%s", env && env[0] ? "" : own_pick());
}

void blas_core_choose(const char *opt) {
    if (in_reexec || state.how == BLAS_USER || !saved_argv)
        return;
    unsigned f = cpu_features();
    const char *own = state.own, *real = state.used;
    const char *cand[8];
    int n = 0;
    state.how = blas_core_plan(NULL, opt, own, f, cand, 8, &n);
    if (state.how == BLAS_OPTION) {
        if (strcasecmp(opt, real) != 0)
            reexec(saved_argv, opt, own, BLAS_OPTION);
        return;
    }
    if (state.how != BLAS_TRIAL) { /* own pick kept: force it only where a test injected it */
        if (strcasecmp(own, real) != 0)
            reexec(saved_argv, own, own, state.how);
        return;
    }
    char key[512], core[32];
    cache_key(key, sizeof key, f, own);
    if (cache_read(key, core, sizeof core)) {
        enum blas_how h = strcasecmp(core, own) == 0 ? BLAS_ALL_FAILED : BLAS_CACHED;
        if (strcasecmp(core, real) != 0)
            reexec(saved_argv, core, own, h);
        state.how = h;
        return;
    }
    /* a core a gemm row proved wrong here is not tried again (OpenBLAS's own pick always is) */
    char log[512], gone[128] = "";
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (strcasecmp(cand[i], own) != 0 && is_struck(cand[i])) {
            size_t g = strlen(gone);
            snprintf(gone + g, sizeof gone - g, "%s%s", g ? ", " : "", cand[i]);
        } else {
            cand[kept++] = cand[i];
        }
    }
    n = kept;
    struct blas_trial t[8];
    blas_trials_run(cand, n, t, log, sizeof log);
    if (gone[0]) {
        size_t l = strlen(log);
        snprintf(log + l, sizeof log - l, "; not tried: %s (a gemm row verified wrong on it here)",
                 gone);
    }
    int best = blas_core_pick(t, n);
    const char *win = best >= 0 ? t[best].core : own;
    enum blas_how h = strcasecmp(win, own) == 0 ? BLAS_ALL_FAILED : BLAS_TRIAL;
    const char *path = cache_write(key, win);
    snprintf(news, sizeof news,
             "gpubench: OpenBLAS picked %.31s (%s) on this %s CPU; trial (SGEMM + DGEMM, "
             "verified): %.400s; running %.31s%s%.120s",
             own, blas_core_isa(own), blas_level_name(state.cpu_level), log, win,
             path[0] ? ", remembered in " : "", path);
    state.how = h;
    if (strcasecmp(win, real) != 0)
        reexec(saved_argv, win, own, h);
}

int blas_core_distrust(char *msg, size_t len) {
    if (state.how != BLAS_TRIAL && state.how != BLAS_CACHED)
        return 0;
    char key[512];
    cache_key(key, sizeof key, cpu_features(), state.own);
    char struck_line[40];
    snprintf(struck_line, sizeof struck_line, "-%s", state.used);
    const char *path = cache_write(key, struck_line);
    snprintf(msg, len,
             "OpenBLAS core %s was chosen by gpubench's trial (OpenBLAS picked %s): %s, so no "
             "later run chooses it; --blas-core own runs OpenBLAS's pick",
             state.used, state.own,
             path[0] ? "struck from the remembered choices" : "could not strike it from the "
                                                              "remembered choices (cache not "
                                                              "writable)");
    return 1;
}

void blas_core_how_text(char *out, size_t len) {
    const char *u = state.used, *o = state.own;
    switch (state.how) {
    /* Short: it ends the row's blas_lib, after OpenBLAS's config string. */
    case BLAS_FITS: snprintf(out, len, " (OpenBLAS's own pick)"); break;
    case BLAS_USER: snprintf(out, len, " (OPENBLAS_CORETYPE=%.20s set by the user)", u); break;
    case BLAS_OWN: snprintf(out, len, " (OpenBLAS's own pick, --blas-core own)"); break;
    case BLAS_OPTION: snprintf(out, len, " (--blas-core; OpenBLAS picked %.20s)", o); break;
    case BLAS_TRIAL: snprintf(out, len, " (chosen by gpubench; OpenBLAS picked %.20s)", o); break;
    case BLAS_CACHED:
        snprintf(out, len, " (chosen by gpubench, remembered; OpenBLAS picked %.20s)", o);
        break;
    case BLAS_ALL_FAILED:
        snprintf(out, len, " (OpenBLAS's own pick; newer cores failed gpubench's trial)");
        break;
    }
}

void blas_core_why(char *out, size_t len) {
    int r = blas_core_rank(state.used);
    out[0] = '\0';
    if (r == 0 || r >= state.cpu_level)
        return;
    const char *by = state.how == BLAS_OWN          ? " (--blas-core own)"
                     : state.how == BLAS_USER       ? " (OPENBLAS_CORETYPE set by the user)"
                     : state.how == BLAS_ALL_FAILED ? " (every newer core failed its trial)"
                     : state.how == BLAS_OPTION     ? " (--blas-core)"
                                                    : " (the newest core that passed the trial)";
    snprintf(out, len, "OpenBLAS's %s%s (%s) kernels on an %s CPU%s", r == 1 ? "generic " : "",
             state.used, blas_core_isa(state.used), blas_level_name(state.cpu_level), by);
}

int blas_core_verdict(const char *version, char *verdict, size_t vlen, char *fix, size_t flen) {
    const struct blas_core_state *s = &state;
    int ru = blas_core_rank(s->used), ro = blas_core_rank(s->own);
    const char *lv = blas_level_name(s->cpu_level);
    fix[0] = '\0';
    if (ru > 0 && ru < s->cpu_level) {
        char why[160];
        blas_core_why(why, sizeof why);
        snprintf(verdict, vlen, "slow: %s", why);
        snprintf(fix, flen, "%s",
                 s->how == BLAS_OWN    ? "drop --blas-core own, or build against a current OpenBLAS"
                 : s->how == BLAS_USER ? "unset OPENBLAS_CORETYPE (gpubench then chooses)"
                                       : "build against a current OpenBLAS");
        return 0;
    }
    if (ro > 0 && ro < s->cpu_level && strcasecmp(s->own, s->used) != 0) {
        snprintf(verdict, vlen, "OpenBLAS %s picks %s (%s) on this %s CPU: gpubench runs %s",
                 version, s->own, blas_core_isa(s->own), lv, s->used);
        snprintf(fix, flen, "elsewhere: export OPENBLAS_CORETYPE=%s, or build against a current "
                            "OpenBLAS",
                 s->used);
        return 0;
    }
    if (ru == 0)
        snprintf(verdict, vlen, "ok: OpenBLAS runs %s, a core gpubench's x86 table does not know "
                                "(taken as fitting)",
                 s->used);
    else if (s->how == BLAS_FITS)
        snprintf(verdict, vlen, "ok: no trial needed: OpenBLAS's own pick %s (%s) fits this %s CPU",
                 s->used, blas_core_isa(s->used), lv);
    else
        snprintf(verdict, vlen, "ok: %s (%s) kernels fit this %s CPU", s->used, blas_core_isa(s->used),
                 lv);
    return 1;
}
