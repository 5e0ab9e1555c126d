/* blas_text.c — what rows and doctor say about OpenBLAS's core (blas_core.h): how it was decided,
 * why it is older than the CPU runs, and doctor's verdict and fix. Each follows what happened: a
 * forced core, a remembered choice, a trial, the user's value or one OpenBLAS ignored. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "harness/run/blas_core.h"

void blas_core_how_text(char *out, size_t len) {
    const struct blas_core_state *s = blas_core_state();
    const char *u = s->used, *o = s->own;
    switch (s->how) {
    /* Short: it ends the row's blas_lib, after OpenBLAS's config string. */
    case BLAS_FITS: snprintf(out, len, " (OpenBLAS's own pick)"); break;
    case BLAS_USER: snprintf(out, len, " (OPENBLAS_CORETYPE=%.20s set by the user)", u); break;
    case BLAS_USER_IGNORED:
        snprintf(out, len,
                 " (OPENBLAS_CORETYPE='%.31s' is not a core this OpenBLAS knows: it runs its own "
                 "pick)",
                 s->user);
        break;
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

/* Why the core in use is the one it is, for a core older than the CPU runs: the cause, and in
 * it the way out. */
static const char *older_cause(const struct blas_core_state *s) {
    switch (s->how) {
    case BLAS_OWN: return " (--blas-core own)";
    case BLAS_USER: return " (OPENBLAS_CORETYPE set by the user)";
    case BLAS_USER_IGNORED:
        return " (OpenBLAS's own pick: OPENBLAS_CORETYPE names no core it knows)";
    case BLAS_ALL_FAILED: return " (every newer core failed its trial)";
    case BLAS_OPTION: return " (forced by --blas-core)";
    case BLAS_CACHED: return " (remembered from an earlier trial; --blas-core trial redoes it)";
    case BLAS_TRIAL:
        return s->newer_failed ? " (newer cores failed this run's trial)"
                               : " (newer cores were clearly slower in this run's trial)";
    case BLAS_FITS: break;
    }
    return "";
}

void blas_core_why(char *out, size_t len) {
    const struct blas_core_state *s = blas_core_state();
    int r = blas_core_rank(s->used);
    out[0] = '\0';
    if (r == 0 || r >= s->cpu_level)
        return;
    snprintf(out, len, "OpenBLAS's %s%s (%s) kernels on an %s CPU%s", r == 1 ? "generic " : "",
             s->used, blas_core_isa(s->used), blas_level_name(s->cpu_level), older_cause(s));
}

int blas_core_verdict(const char *version, char *verdict, size_t vlen, char *fix, size_t flen) {
    const struct blas_core_state *s = blas_core_state();
    int ru = blas_core_rank(s->used), ro = blas_core_rank(s->own);
    const char *lv = blas_level_name(s->cpu_level);
    fix[0] = '\0';
    if (s->how == BLAS_USER_IGNORED) {
        char older[96] = "";
        if (ru > 0 && ru < s->cpu_level)
            snprintf(older, sizeof older, " (%s kernels on an %s CPU)", blas_core_isa(s->used), lv);
        snprintf(verdict, vlen,
                 "OPENBLAS_CORETYPE='%s' is not a core this OpenBLAS knows: it runs its own pick, "
                 "%s%s",
                 s->user, s->used, older);
        snprintf(fix, flen,
                 "unset OPENBLAS_CORETYPE (gpubench then chooses), or name a core "
                 "OpenBLAS knows exactly (SkylakeX, Haswell, …)");
        return 0;
    }
    if (ru > 0 && ru < s->cpu_level) {
        char why[200];
        blas_core_why(why, sizeof why);
        if (s->how == BLAS_TRIAL && !s->newer_failed) { /* the evidence says it is the fastest */
            snprintf(verdict, vlen, "ok: %s", why);
            return 1;
        }
        snprintf(verdict, vlen, "slow: %s", why);
        const char *f =
            s->how == BLAS_OWN      ? "drop --blas-core own (gpubench then tries the newer kernels)"
            : s->how == BLAS_USER   ? "unset OPENBLAS_CORETYPE (gpubench then chooses)"
            : s->how == BLAS_OPTION ? "drop --blas-core (gpubench then chooses)"
            : s->how == BLAS_CACHED ? "redo the trial with --blas-core trial"
                                    : "build against a current OpenBLAS: this one's newer "
                                      "kernels failed on this CPU";
        snprintf(fix, flen, "%s", f);
        return 0;
    }
    if (ro > 0 && ro < s->cpu_level && strcasecmp(s->own, s->used) != 0) {
        snprintf(verdict, vlen, "OpenBLAS %s picks %s (%s) on this %s CPU: gpubench runs %s",
                 version, s->own, blas_core_isa(s->own), lv, s->used);
        /* This library has the newer kernels (gpubench runs them): other programs need only
         * the variable; a newer OpenBLAS would pick them itself. */
        snprintf(fix, flen,
                 "elsewhere: export OPENBLAS_CORETYPE=%s (this OpenBLAS has its kernels; a newer "
                 "release picks them itself)",
                 s->used);
        return 0;
    }
    if (ru == 0)
        snprintf(verdict, vlen,
                 "ok: OpenBLAS runs %s, a core gpubench's x86 table does not know "
                 "(taken as fitting)",
                 s->used);
    else if (s->how == BLAS_FITS)
        snprintf(verdict, vlen, "ok: no trial needed: OpenBLAS's own pick %s (%s) fits this %s CPU",
                 s->used, blas_core_isa(s->used), lv);
    else
        snprintf(verdict, vlen, "ok: %s (%s) kernels fit this %s CPU", s->used,
                 blas_core_isa(s->used), lv);
    return 1;
}
