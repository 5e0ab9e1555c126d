/* blas_core.c — the choice of OpenBLAS's core (blas_core.h): the ranking and plan (pure), the
 * re-execution with OPENBLAS_CORETYPE and the remembered choice. The trials are blas_trial.c,
 * their rule blas_decide.c, the cache file blas_cache.c, the texts rows and doctor print
 * blas_text.c. */
#include "harness/run/blas_core.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/blas.h"
#include "harness/run/blas_cache.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

/* Set in the re-executed process (and inherited by its children: --runs, __child): OpenBLAS's
 * own pick, and how the core in OPENBLAS_CORETYPE was chosen. */
#define PICKED_ENV "GPUBENCH_BLAS_PICKED"
#define HOW_ENV "GPUBENCH_BLAS_HOW"
#define NEWER_FAILED_ENV "GPUBENCH_BLAS_NEWER_FAILED" /* "1": a core newer than the pick failed */
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
    return v && (strcmp(v, "auto") == 0 || strcmp(v, "own") == 0 || strcmp(v, "trial") == 0 ||
                 blas_core_rank(v) > 0);
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

/* The key of the remembered choice (blas_cache.h): the OpenBLAS library file ("PATH|SIZE|MTIME|"),
 * so that an upgrade or another library asks again, then the CPU's brand and features,
 * OpenBLAS's config and its own pick, so that another machine or CPU asks again. */
static void cache_key(char *out, size_t len, unsigned f, const char *own) {
    char brand[49] = "", lib[4200] = "/proc/self/exe";
#if defined(__x86_64__) && defined(__GNUC__)
    unsigned *r = (unsigned *)brand;
    for (unsigned i = 0; i < 3; i++)
        if (!__get_cpuid(0x80000002u + i, &r[4 * i], &r[4 * i + 1], &r[4 * i + 2], &r[4 * i + 3]))
            brand[0] = '\0';
    brand[48] = '\0';
#endif
    /* The file that holds OpenBLAS: the shared library, or this program where it is linked in. */
    Dl_info info;
    char *(*fn)(void) = openblas_get_corename;
    void *addr;
    memcpy(&addr, &fn, sizeof addr);
    if (dladdr(addr, &info) && info.dli_fname && info.dli_fname[0] == '/')
        snprintf(lib, sizeof lib, "%s", info.dli_fname);
    char real[4096];
    struct stat st;
    if (!realpath(lib, real) || stat(real, &st) != 0) {
        snprintf(real, sizeof real, "%s", lib);
        memset(&st, 0, sizeof st);
    }
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
    snprintf(out, len, "%.400s|%lld|%lld|%s|%#x|%s|%s", real, (long long)st.st_size,
             (long long)st.st_mtime, brand, f, cfg, own);
    for (char *p = out; *p; p++)
        if (*p == '\t' || *p == '\n')
            *p = ' ';
}

static const char *how_names[] = {"fits",   "user",   "own",    "option",
                                  "trial",  "cached", "failed", "ignored"};

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
    setenv(NEWER_FAILED_ENV, state.newer_failed ? "1" : "0", 1);
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
    /* tests: a value judged as the user's that OpenBLAS never saw (blas_core.h), so that no test
     * sets OPENBLAS_CORETYPE itself; a machine's own value wins over it */
    const char *as_user = getenv("GPUBENCH_TEST_BLAS_USER_CORETYPE");
    if (as_user && !(env && env[0]))
        env = as_user;
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
        const char *nf = getenv(NEWER_FAILED_ENV);
        state.newer_failed = nf && strcmp(nf, "1") == 0;
        state.how = BLAS_TRIAL;
        for (int i = 0; i < (int)(sizeof how_names / sizeof how_names[0]); i++)
            if (strcmp(how, how_names[i]) == 0)
                state.how = (enum blas_how)i;
        return;
    }
    state.how = env && env[0] ? BLAS_USER : BLAS_FITS;
    snprintf(state.own, sizeof state.own, "%s", env && env[0] ? "" : own_pick());
    /* OpenBLAS takes OPENBLAS_CORETYPE only where it names one of its cores exactly (any case);
     * else it runs its own pick, which is then the core in use. */
    if (env && env[0] && used && strcasecmp(env, used) != 0) {
        state.how = BLAS_USER_IGNORED;
        snprintf(state.user, sizeof state.user, "%s", env);
        snprintf(state.own, sizeof state.own, "%s", used);
    }
}

/* Say in the environment what this process decided, for the processes it starts (--runs,
 * workers): they take it as decided (blas_core_init) and try nothing again. */
static void mark(const char *core, const char *own, enum blas_how how) {
    setenv("OPENBLAS_CORETYPE", core, 1);
    setenv(PICKED_ENV, own, 1);
    setenv(HOW_ENV, how_names[how], 1);
    setenv(NEWER_FAILED_ENV, state.newer_failed ? "1" : "0", 1);
}

/* The remembered choice is proved again (the trial run anew) once it is this old: a kernel
 * update, a changed machine or a trial on a bad day is not kept for good. */
enum { PROVE_AFTER_S = 7 * 24 * 3600, LOCK_WAIT_S = 120 };

void blas_core_choose(const char *opt) {
    if (in_reexec || state.how == BLAS_USER || state.how == BLAS_USER_IGNORED || !saved_argv)
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
    char key[1024], path[512];
    cache_key(key, sizeof key, f, own);
    blas_cache_path(path, sizeof path);
    /* Processes started together share one trial: the first holds the lock while it tries, the
     * others wait and read its answer. */
    int lock = blas_cache_lock(path, LOCK_WAIT_S);
    struct blas_memo m;
    int have = blas_cache_get(path, key, &m);
    long long now = (long long)time(NULL), age = now - m.proved;
    int redo = opt && strcmp(opt, "trial") == 0, reproof = have && m.core[0] && !redo;
    if (have && m.core[0] && !redo && age >= 0 && age < PROVE_AFTER_S &&
        !blas_memo_struck(&m, m.core)) {
        if (lock >= 0)
            close(lock);
        enum blas_how h = strcasecmp(m.core, own) == 0 ? BLAS_ALL_FAILED : BLAS_CACHED;
        state.how = h;
        if (strcasecmp(m.core, real) != 0)
            reexec(saved_argv, m.core, own, h);
        mark(m.core, own, h);
        return;
    }
    /* a core a gemm row proved wrong here is not tried again (OpenBLAS's own pick always is) */
    char log[640], gone[128] = "";
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (strcasecmp(cand[i], own) != 0 && blas_memo_struck(&m, cand[i])) {
            size_t g = strlen(gone);
            snprintf(gone + g, sizeof gone - g, "%s%s", g ? ", " : "", cand[i]);
        } else {
            cand[kept++] = cand[i];
        }
    }
    n = kept;
    struct blas_trial t[8];
    int best = blas_trials_run(cand, n, t, log, sizeof log);
    if (gone[0]) {
        size_t l = strlen(log);
        snprintf(log + l, sizeof log - l, "; not tried: %s (a gemm row verified wrong on it here)",
                 gone);
    }
    const char *win = best >= 0 ? t[best].core : own;
    for (int i = 0; i < n && i < (best >= 0 ? best : n); i++)
        state.newer_failed |= !t[i].ok;
    enum blas_how h = strcasecmp(win, own) == 0 ? BLAS_ALL_FAILED : BLAS_TRIAL;
    snprintf(m.core, sizeof m.core, "%s", win);
    m.proved = now;
    int saved = blas_cache_put(path, key, &m) == 0;
    if (lock >= 0)
        close(lock);
    snprintf(news, sizeof news,
             "gpubench: OpenBLAS picked %.31s (%s) on this %s CPU; trial (SGEMM + DGEMM, "
             "verified%s): %.400s; running %.31s%s%.120s",
             own, blas_core_isa(own), blas_level_name(state.cpu_level),
             reproof ? ", the remembered choice proved again" : "", log, win,
             saved ? ", remembered in " : "", saved ? path : "");
    state.how = h;
    if (strcasecmp(win, real) != 0)
        reexec(saved_argv, win, own, h);
    mark(win, own, h);
}

int blas_core_distrust(char *msg, size_t len) {
    if (state.how != BLAS_TRIAL && state.how != BLAS_CACHED)
        return 0;
    char key[1024], path[512];
    cache_key(key, sizeof key, cpu_features(), state.own);
    blas_cache_path(path, sizeof path);
    int lock = blas_cache_lock(path, LOCK_WAIT_S);
    struct blas_memo m;
    blas_cache_get(path, key, &m);
    if (!blas_memo_struck(&m, state.used)) {
        size_t l = strlen(m.struck);
        snprintf(m.struck + l, sizeof m.struck - l, "%s%s", l ? "," : "", state.used);
    }
    if (strcasecmp(m.core, state.used) == 0)
        m.core[0] = '\0';
    int saved = blas_cache_put(path, key, &m) == 0;
    if (lock >= 0)
        close(lock);
    snprintf(msg, len,
             "OpenBLAS core %s was chosen by gpubench's trial (OpenBLAS picked %s): %s, so no "
             "later run chooses it; --blas-core own runs OpenBLAS's pick",
             state.used, state.own,
             saved ? "struck from the remembered choices" : "could not strike it from the "
                                                             "remembered choices (cache not "
                                                             "writable)");
    return 1;
}

void blas_core_pass_on(void) {
    if (in_reexec || state.how == BLAS_USER || state.how == BLAS_USER_IGNORED ||
        strcmp(state.used, "unknown") == 0)
        return; /* the environment already says it, or the user's variable decides */
    mark(state.used, state.own, state.how);
}
