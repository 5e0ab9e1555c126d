/* blas_core.h — OpenBLAS on the best kernels it has for this CPU.
 *
 * A DYNAMIC_ARCH OpenBLAS picks its kernel set ("core") when the library loads, from
 * OPENBLAS_CORETYPE or its own CPU table; an old release on a new CPU falls back to generic
 * kernels (0.3.21 runs Prescott, SSE3, on AVX-512 Xeons it does not know, at a tenth of the
 * peak). blas_core_choose(), first thing in main(), ranks OpenBLAS's own pick against what the
 * CPU runs (cpuid); only where the pick is older does it try the candidates, each in a child
 * process on a verified SGEMM and DGEMM, asked in interleaved rounds until the winner is clear
 * (blas_core_decide: the newest within noise of the fastest), and re-execute gpubench with
 * OPENBLAS_CORETYPE set to it; the processes it starts inherit the decision. The choice is
 * remembered per machine and library file (blas_cache.h: one line per key, a lock so that
 * processes started together share one trial), tried again after a week or with `--blas-core
 * trial`, and proved by every gemm row's verification. A user's OPENBLAS_CORETYPE always wins
 * (one OpenBLAS ignores is said as such); `--blas-core own` keeps OpenBLAS's pick.
 *
 * Tests inject what the machine would say: GPUBENCH_TEST_BLAS_OWN_CORE (OpenBLAS's pick; kept
 * for real by forcing it), GPUBENCH_TEST_CPU_FEATURES ("avx512f,avx512bf16,avx2,fma,avx,amd"),
 * GPUBENCH_TEST_BLAS_TRIAL_FAULT ("SkylakeX:crash,Haswell:wrong": a candidate's trial dies or
 * verifies wrong; "slow": it sleeps 1 s before each answer), GPUBENCH_TEST_BLAS_ROW_WRONG=1 (an
 * openblas row's output is poisoned after its verified run, harness/run/runner.c, so its
 * verification really fails), GPUBENCH_TEST_BLAS_USER_CORETYPE (judged as a user's
 * OPENBLAS_CORETYPE that OpenBLAS ignored, where the environment sets none: no test sets
 * OPENBLAS_CORETYPE).
 */
#ifndef GPUBENCH_BLAS_CORE_H
#define GPUBENCH_BLAS_CORE_H

#include <stddef.h>

#include "harness/core/blas_rank.h" /* the ranking of cores and CPU levels */

/* CPU features that decide which OpenBLAS cores can run (bits). */
enum {
    BC_AVX = 1u << 0,
    BC_AVX2 = 1u << 1,
    BC_FMA = 1u << 2,
    BC_AVX512F = 1u << 3,
    BC_AVX512BF16 = 1u << 4,
    BC_AMD = 1u << 5, /* AuthenticAMD: OpenBLAS's Zen kernels are a candidate */
};

/* The highest level the CPU runs (features: BC_ bits; named by blas_level_name). */
int blas_cpu_level(unsigned features);
/* Features from a "avx512f,avx2,fma" list; -1 on an unknown word. */
int blas_features_parse(const char *list, unsigned *features);

/* How the core in use was decided. */
enum blas_how {
    BLAS_FITS,     /* OpenBLAS's own pick is as new as the CPU: no trial */
    BLAS_USER,     /* the user's OPENBLAS_CORETYPE */
    BLAS_OWN,      /* --blas-core own */
    BLAS_OPTION,   /* --blas-core NAME */
    BLAS_TRIAL,    /* chosen by a trial in this run */
    BLAS_CACHED,   /* chosen by an earlier trial, remembered */
    BLAS_ALL_FAILED, /* every newer candidate failed its trial: OpenBLAS's pick kept */
    BLAS_USER_IGNORED, /* the user's OPENBLAS_CORETYPE names no core this OpenBLAS knows */
};

/* The decision before any trial (pure): what to do given the user's OPENBLAS_CORETYPE (NULL or
 * ""), the --blas-core value (NULL, "auto", "own" or a core name), OpenBLAS's own pick and the
 * CPU's features. Returns BLAS_USER, BLAS_OWN, BLAS_OPTION, BLAS_FITS, or BLAS_TRIAL with the
 * candidates to try (best first, OpenBLAS's own pick last) in cand[0..*ncand). */
enum blas_how blas_core_plan(const char *user_env, const char *option, const char *own,
                             unsigned features, const char **cand, int maxcand, int *ncand);

/* 1 when VALUE is a --blas-core value: auto, own, trial (the trial again, whatever is
 * remembered), or a core name blas_core_rank knows. */
int blas_core_option_ok(const char *value);

/* The trial: every candidate in a child process of its own, started once; then rounds, each
 * asking every candidate for one timed SGEMM + DGEMM in turn (the first to go rotates), while
 * the others are stopped (SIGSTOP), so that no idle candidate's threads spin beside the one
 * timed. Rounds go on until blas_core_decide calls the winner clear, at least
 * BLAS_TRIAL_MIN_ROUNDS and at most BLAS_TRIAL_MAX_ROUNDS or BLAS_TRIAL_BUDGET_S seconds. */
enum { BLAS_TRIAL_MIN_ROUNDS = 5, BLAS_TRIAL_MAX_ROUNDS = 30, BLAS_TRIAL_BUDGET_S = 15 };
/* Within this share of the fastest's time a core ties with it (10%). */
#define BLAS_TRIAL_TIE 0.10
struct blas_trial {
    const char *core;
    int ok; /* ran, reported that core, verified, and answered every round asked */
    int n;  /* rounds answered */
    double ms[BLAS_TRIAL_MAX_ROUNDS]; /* SGEMM + DGEMM of each round, best of two */
};
/* The rule (pure): t[] in order of preference, newest ISA first (blas_core_plan's order). The
 * fastest f has the lowest median. A candidate is clearly slower than f when the 99%
 * distribution-free confidence interval of the median of its per-round ratios t_i/t_f (rounds
 * pair the two, so a load that comes and goes cancels) lies wholly above 1 + BLAS_TRIAL_TIE. The
 * winner is the first candidate in preference order that is not clearly slower: a tie within
 * noise goes to the newest ISA, so a noisy machine gives a quiet one's answer. *clear is 1 when
 * the winner's interval also lies wholly below 1 + BLAS_TRIAL_TIE (or it is f), after at least
 * BLAS_TRIAL_MIN_ROUNDS rounds. Returns the winner's index, -1 when no candidate is ok. */
int blas_core_decide(const struct blas_trial *t, int n, int *clear);
/* The median of t's rounds (ms). */
double blas_trial_median(const struct blas_trial *t);
/* Run the trial of cand[0..n) (blas_trial.c): t[i] for cand[i]; the outcome in log
 * ("Cooperlake 2.1 ms, SkylakeX 2.0 ms, Haswell died (Illegal instruction), …; 5 rounds") and
 * the winner's index (-1: none ok). */
int blas_trials_run(const char **cand, int n, struct blas_trial *t, char *log, size_t loglen);

/* Read what is decided already (the user's OPENBLAS_CORETYPE, or our re-execution's marks,
 * which --runs children and start-up rows' children inherit) and keep a copy of argv for a
 * re-execution. First thing in main(). */
void blas_core_init(int argc, char **argv);
/* Decide, and where needed try the candidates and re-execute this program with
 * OPENBLAS_CORETYPE set (it does not return then). `option`: --blas-core's value (NULL = auto).
 * Called by run and doctor once their options parsed (a usage error costs no trial), before
 * any BLAS call. */
void blas_core_choose(const char *option);

/* Print (print = 1) or drop, once, the stderr line of a choice made anew in this run (or
 * before its re-execution): printed once a run's plan and outputs are good, and on doctor's
 * OpenBLAS line, so that usage errors stay one line; dropped in all but the first of --runs. */
void blas_core_announce(int print);

/* Pass the choice made here on to the processes this one starts next (a run's worker,
 * harness/run/worker.c): they run the same core and say the same of it (how it was chosen)
 * without deciding again. Nothing to pass where the user's OPENBLAS_CORETYPE decides. */
void blas_core_pass_on(void);

/* `gpubench __blas-trial`: the child side of a trial (SGEMM and DGEMM, verified, timed). */
int blas_core_trial_main(void);

/* What happened, for rows and doctor. */
struct blas_core_state {
    enum blas_how how;
    char used[32];  /* the core OpenBLAS runs ("SkylakeX") */
    char own[32];   /* OpenBLAS's own pick ("Prescott"); "" when not known (user's value) */
    char user[32];  /* BLAS_USER_IGNORED: the user's OPENBLAS_CORETYPE, as given ("SkylakeX ") */
    int newer_failed; /* BLAS_TRIAL: a core newer than the one chosen failed the trial */
    int cpu_level;  /* blas_cpu_level of this CPU */
};
const struct blas_core_state *blas_core_state(void);

/* A gemm row on OpenBLAS verified wrong. Where gpubench chose the core (a trial, or remembered),
 * strike it from the remembered choices (a later trial skips it too) and say so in msg;
 * returns 1 then, 0 where the core was OpenBLAS's or the user's (nothing to undo). */
int blas_core_distrust(char *msg, size_t len);

/* " (chosen by gpubench; OpenBLAS picked Prescott)" style: how the core was decided. */
void blas_core_how_text(char *out, size_t len);
/* Why the core in use is older than the CPU runs ("OpenBLAS's generic Prescott (SSE) kernels on
 * an AVX-512 CPU (--blas-core own)"); "" when it fits. */
void blas_core_why(char *out, size_t len);
/* doctor's verdict on the BLAS: returns 1 (fits) or 0 (older kernels in use or picked by
 * OpenBLAS), with a one-line verdict and a fix line ("" when none is needed). `version` is
 * OpenBLAS's version ("0.3.21"). */
int blas_core_verdict(const char *version, char *verdict, size_t vlen, char *fix, size_t flen);

#endif
