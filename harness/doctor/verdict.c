/* verdict.c — the verdict of `gpubench doctor` as a pure function. See verdict.h.
 *
 * The rules, in the order they are applied:
 *  1. Code: a cubin for sm X.y runs on devices X.z with z >= y (same major); PTX for compute_X.Y
 *     is JIT-compiled by the driver for any device of X.Y or newer. "a" variants run only on
 *     exactly their architecture, "f" variants on the same family. (CUDA C++ Programming Guide,
 *     "Binary Compatibility" and "PTX Compatibility";
 *     https://docs.nvidia.com/cuda/cuda-c-programming-guide/#binary-compatibility)
 *  2. The driver must support the card: not newer than its last branch (R390 for Fermi, R470 for
 *     Kepler, …: cuda_facts.c), not older than the toolkit that introduced it (the release notes
 *     pair each toolkit with the driver that shipped with it).
 *  3. The CUDA runtime of the build must start on the driver (minimum driver per runtime, or
 *     minor version compatibility from CUDA 11 on: cuda_facts.c).
 *  4. PTX is JIT-compiled only by a driver at least as new as the toolkit that wrote it; minor
 *     version compatibility does not cover it (cudaErrorUnsupportedPtxVersion;
 *     https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html).
 */
#include "harness/doctor/verdict.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gpuinfo/cuda_facts.h"

/* Default shapes fit the smallest supported card (docs/ARCHITECTURE.md: 512 MiB). */
#define DV_SMALL_MEM ((size_t)512 << 20)

const char *dv_verdict_name(enum dv_verdict v) {
    switch (v) {
    case DV_USABLE: return "usable";
    case DV_USABLE_JIT: return "usable via PTX JIT";
    default: return "not usable";
    }
}

int dv_parse_cuda_version(const char *s, int *cuda) {
    char *end;
    long major, minor = 0;
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    major = strtol(s, &end, 10);
    if (*end == '.') {
        if (!isdigit((unsigned char)end[1]))
            return -1;
        minor = strtol(end + 1, &end, 10);
        if (*end == '.') { /* patch level: ignored */
            if (!isdigit((unsigned char)end[1]))
                return -1;
            strtol(end + 1, &end, 10);
        }
    }
    if (*end != '\0' || major < 1 || major > 99 || minor > 9)
        return -1;
    *cuda = CUDA_VER((int)major, (int)minor);
    return 0;
}

/* Parse one CMake architecture entry ("86", "90a-real", "120-virtual"). Returns 0 or -1. */
static int parse_arch(const char *s, size_t len, struct dv_arch *a) {
    char buf[32];
    char *end;
    long sm;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (!isdigit((unsigned char)buf[0]))
        return -1;
    sm = strtol(buf, &end, 10);
    if (sm < 10 || sm > 999)
        return -1;
    a->sm = (int)sm;
    a->variant = 0;
    if (*end == 'a' || *end == 'f')
        a->variant = *end++;
    if (*end == '\0') {
        a->sass = a->ptx = 1;
    } else if (strcmp(end, "-real") == 0) {
        a->sass = 1;
        a->ptx = 0;
    } else if (strcmp(end, "-virtual") == 0) {
        a->sass = 0;
        a->ptx = 1;
    } else {
        return -1;
    }
    return 0;
}

int dv_parse_archs(const char *cmake_list, struct dv_build *b, char *err, size_t errlen) {
    const char *p = cmake_list ? cmake_list : "";
    b->narch = 0;
    b->archs_unknown = 0;
    if (strcmp(p, "all") == 0 || strcmp(p, "all-major") == 0) {
        b->archs_unknown = 1;
        return 0;
    }
    while (*p) {
        size_t len = strcspn(p, "; ");
        if (len > 0) {
            if (b->narch == DV_MAX_ARCHS || parse_arch(p, len, &b->arch[b->narch]) != 0) {
                snprintf(err, errlen, "bad architecture '%.*s' in \"%s\"", (int)len, p, cmake_list);
                b->archs_unknown = 1;
                return -1;
            }
            b->narch++;
        }
        p += len;
        if (*p)
            p++;
    }
    if (b->narch == 0 && b->cuda)
        b->archs_unknown = 1;
    return 0;
}

/* Append printf-style text to out (bounded, always terminated). */
static void cat(char *out, size_t outlen, const char *fmt, ...) {
    size_t used = strlen(out);
    va_list ap;
    if (used + 1 >= outlen)
        return;
    va_start(ap, fmt);
    vsnprintf(out + used, outlen - used, fmt, ap);
    va_end(ap);
}

/* "3.5" style text of an sm number. */
static const char *cc_text(int sm, char *buf, size_t n) {
    snprintf(buf, n, "%d.%d", sm / 10, sm % 10);
    return buf;
}

static void arch_name(const struct dv_arch *a, char *buf, size_t n) {
    snprintf(buf, n, "%d%s", a->sm, a->variant == 'a' ? "a" : a->variant == 'f' ? "f" : "");
}

void dv_archs_text(const struct dv_build *b, char *out, size_t outlen) {
    char nm[16];
    int nptx = 0;
    out[0] = '\0';
    if (b->archs_unknown && b->narch == 0) {
        snprintf(out, outlen, "(unknown)");
        return;
    }
    for (int i = 0; i < b->narch; i++) {
        if (!b->arch[i].sass)
            continue;
        arch_name(&b->arch[i], nm, sizeof nm);
        cat(out, outlen, "%s%s", out[0] ? " " : "", nm);
    }
    for (int i = 0; i < b->narch; i++) {
        if (!b->arch[i].ptx)
            continue;
        arch_name(&b->arch[i], nm, sizeof nm);
        cat(out, outlen, "%s%s", nptx++ ? " " : (out[0] ? " + PTX " : "PTX "), nm);
    }
    if (!out[0])
        snprintf(out, outlen, "(none)");
}

/* Does SASS entry `a` run on device `sm`? */
static int sass_runs(const struct dv_arch *a, int sm) {
    if (!a->sass || a->sm / 10 != sm / 10 || a->sm % 10 > sm % 10)
        return 0;
    return a->variant != 'a' || a->sm == sm;
}

/* Can PTX entry `a` be JIT-compiled for device `sm`? */
static int ptx_runs(const struct dv_arch *a, int sm) {
    if (!a->ptx || a->sm > sm)
        return 0;
    if (a->variant == 'a')
        return a->sm == sm;
    if (a->variant == 'f')
        return a->sm / 10 == sm / 10;
    return 1;
}

int dv_parse_nvrm(const char *text, char *out, size_t outlen) {
    /* The version is the first token of the form N.N or N.N.N with N >= 100 first. */
    const char *p = text;
    while (p && *p) {
        if (isdigit((unsigned char)*p) && (p == text || isspace((unsigned char)p[-1]))) {
            size_t len = strspn(p, "0123456789.");
            char buf[32];
            if (len < sizeof buf) {
                memcpy(buf, p, len);
                buf[len] = '\0';
                if (strchr(buf, '.') && cuda_facts_driver_valid(buf)) {
                    snprintf(out, outlen, "%s", buf);
                    return 0;
                }
            }
            p += len;
        } else {
            p++;
        }
    }
    return -1;
}

/* The CMake architecture value for a device: Fermi 2.1 is built as 20 (21 is no valid value). */
static int cmake_sm(int sm) {
    return sm == 21 ? 20 : sm;
}

/* The support sentence for the device's architecture. */
static void support_text(int sm, const struct cuda_arch_fact *f, char *out, size_t outlen) {
    char v[16], dv[16], cc[16];
    if (!f && sm < 20) { /* NVIDIA's legacy driver list; CUDA 7.0 release notes */
        snprintf(out, outlen,
                 "compute capability %s is the Tesla architecture (GeForce 8800 to GTX 285, "
                 "Tesla C1060): last toolkit CUDA 6.5, last driver branch R340",
                 cc_text(sm, cc, sizeof cc));
        return;
    }
    if (!f) {
        const char *family = cuda_facts_family(sm);
        if (family)
            snprintf(out, outlen,
                     "compute capability %s (%s) is not in gpubench's table of architectures",
                     cc_text(sm, cc, sizeof cc), family);
        else
            snprintf(out, outlen,
                     "compute capability %s is no NVIDIA architecture (there was "
                     "no 4.x, and none is newer than 12.x so far)",
                     cc_text(sm, cc, sizeof cc));
        return;
    }
    if (!f->last_cuda) {
        snprintf(out, outlen,
                 "%s (%s) is supported by current toolkits (CUDA %s and newer) and "
                 "drivers",
                 f->family, f->examples, cuda_facts_ver_str(f->first_cuda, v, sizeof v));
        return;
    }
    cuda_facts_ver_str(f->last_cuda, v, sizeof v);
    cuda_facts_ver_str(cuda_facts_driver_cuda(f->last_driver_min), dv, sizeof dv);
    snprintf(out, outlen, "%s (%s): last toolkit CUDA %s; last driver branch R%s (runs CUDA %s%s)",
             f->family, f->examples, v, f->last_driver, dv,
             f->last_cuda >= CUDA_VER(11, 0) &&
                     cuda_facts_driver_cuda(f->last_driver_min) < f->last_cuda
                 ? ", and the rest of its major version through minor version compatibility"
                 : "");
}

/* The configure command for toolkit `cuda` and the CMake architecture value of `sm` (with
 * `suffix`, e.g. "-real"): the complete command, with the toolkit's path and a host compiler it
 * accepts (cuda_facts_rebuild_cmd). */
static const char *rebuild(int cuda, int sm, const char *suffix, char *out, size_t outlen) {
    char archs[32];
    snprintf(archs, sizeof archs, "%d%s", cmake_sm(sm), suffix);
    return cuda_facts_rebuild_cmd(cuda, archs, out, outlen);
}

/* The fix for "no code for this device": which toolkit and architecture value to rebuild with. */
static void fix_no_code(int sm, const struct cuda_arch_fact *f, const struct dv_build *b, char *out,
                        size_t outlen) {
    char v[16], v2[16], cmd[DV_TEXT / 2];
    int csm = cmake_sm(sm);
    if (!f && sm < 20) {
        snprintf(out, outlen,
                 "None: no toolkit gpubench builds with (CUDA 8 and newer) can target the Tesla "
                 "architecture (CUDA 6.5 was the last); use the CPU rows");
        return;
    }
    if (!f && !cuda_facts_family(sm)) {
        snprintf(out, outlen, "Check the compute capability: no NVIDIA GPU has %d.%d", sm / 10,
                 sm % 10);
        return;
    }
    if (!f) {
        snprintf(out, outlen,
                 "Rebuild with a CUDA toolkit that supports compute capability %d.%d: cmake -S . "
                 "-B build -DCMAKE_CUDA_COMPILER=<its nvcc> -DCMAKE_CUDA_ARCHITECTURES=%d",
                 sm / 10, sm % 10, csm);
        return;
    }
    if (cuda_facts_toolkit_supports(b->cuda, sm)) {
        snprintf(out, outlen,
                 "Rebuild with this toolkit (CUDA %s) and code for it: cmake -S . -B build "
                 "-DCMAKE_CUDA_ARCHITECTURES=%d",
                 cuda_facts_ver_str(b->cuda, v, sizeof v), csm);
        return;
    }
    if (b->cuda < f->first_cuda) {
        snprintf(out, outlen,
                 "CUDA %s predates %s (sm_%d needs CUDA %s or newer): rebuild with a newer "
                 "toolkit: %s",
                 cuda_facts_ver_str(b->cuda, v, sizeof v), f->family, sm,
                 cuda_facts_ver_str(f->first_cuda, v2, sizeof v2),
                 rebuild(f->first_cuda, sm, "", cmd, sizeof cmd));
        return;
    }
    snprintf(out, outlen, "CUDA %s cannot target %s: rebuild with CUDA %s: %s",
             cuda_facts_ver_str(b->cuda, v, sizeof v), f->family,
             cuda_facts_ver_str(f->last_cuda, v2, sizeof v2),
             rebuild(f->last_cuda, sm, "", cmd, sizeof cmd));
}

/* Effective CUDA version of the driver: from the dotted version when given, else the runtime's
 * answer. -1 when unknown. */
static int driver_cuda_of(const struct dv_device *d) {
    if (d->driver[0])
        return cuda_facts_driver_cuda(d->driver);
    return d->driver_cuda;
}

/* Can the build's runtime start on this driver? 1 yes, 0 no, -1 unknown driver. */
static int runtime_starts(const struct dv_device *d, int cuda) {
    if (d->driver[0])
        return cuda_facts_runtime_runs(cuda, d->driver);
    if (d->driver_cuda < 0)
        return -1;
    if (d->driver_cuda >= cuda)
        return 1;
    /* minor version compatibility (CUDA 11+): same major is enough */
    return cuda >= CUDA_VER(11, 0) && d->driver_cuda / 1000 == cuda / 1000;
}

static void family_set(struct dv_family *f, int ok, const char *fmt, ...) {
    va_list ap;
    f->ok = ok;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
}

/* What the rules of dv_evaluate share: the inputs, the device's facts, the code chosen for it
 * (rule 1), the driver's CUDA version and whether anything CUDA can start at all (rules 2, 3). */
struct dv_case {
    const struct dv_device *d;
    const struct dv_build *b;
    int sm;                           /* 35 = compute capability 3.5 */
    const struct cuda_arch_fact *f;   /* NULL when the architecture is not in the table */
    const struct dv_arch *sass, *ptx; /* the best code of each kind that runs; NULL when none */
    char cc[16], archs[256];          /* "3.5"; the build's list as dv_archs_text writes it */
    int blocked; /* the runtime cannot start or the driver cannot drive the card */
    int starts;  /* runtime_starts() for the build's toolkit */
    int dcuda;   /* driver_cuda_of() */
};

/* The oldest driver that starts the CUDA `cuda` runtime: the minor version compatibility one when
 * it is older than the toolkit's own. NULL when neither is known. */
static const char *runtime_min_driver(int cuda) {
    const char *need = cuda_facts_min_driver(cuda);
    const char *compat = cuda_facts_compat_driver(cuda);
    return compat && cuda_facts_driver_cmp(compat, need ? need : "0") < 0 ? compat : need;
}

/* Is the driver newer than the last branch that drives the card? */
static int driver_too_new(const struct dv_case *c) {
    return c->d->driver[0] && c->f && c->f->last_driver &&
           atoi(c->d->driver) > atoi(c->f->last_driver);
}

/* 0. A build without CUDA can use no GPU. Returns 1 when it decided the verdict. */
static int rule_no_cuda(const struct dv_case *c, struct dv_result *r) {
    char v[16], cmd[DV_TEXT / 2];
    if (c->b->cuda)
        return 0;
    r->verdict = DV_NOT_USABLE;
    snprintf(r->reason, sizeof r->reason,
             "this gpubench was built without CUDA (no nvcc at configure time)");
    if (c->f && c->f->last_cuda)
        snprintf(r->fix, sizeof r->fix, "Install CUDA %s and rebuild: %s",
                 cuda_facts_ver_str(c->f->last_cuda, v, sizeof v),
                 rebuild(c->f->last_cuda, c->sm, "", cmd, sizeof cmd));
    else
        snprintf(r->fix, sizeof r->fix,
                 "Install a CUDA toolkit (nvcc on PATH) and rebuild: cmake -S . -B build");
    family_set(&r->cuda, 0, "no CUDA in this build");
    family_set(&r->cublas, 0, "no CUDA in this build");
    family_set(&r->cudnn, 0, "no CUDA in this build");
    return 1;
}

/* 1. Which of the build's code runs on this device? Best SASS, else best PTX. */
static void rule_code(struct dv_case *c, struct dv_result *r) {
    for (int i = 0; i < c->b->narch; i++) {
        const struct dv_arch *a = &c->b->arch[i];
        if (sass_runs(a, c->sm) && (!c->sass || a->sm > c->sass->sm))
            c->sass = a;
        if (ptx_runs(a, c->sm) && (!c->ptx || a->sm > c->ptx->sm))
            c->ptx = a;
    }
    if (c->sass) {
        r->code_sm = c->sass->sm;
    } else if (c->ptx) {
        r->code_sm = c->ptx->sm;
        r->code_is_ptx = 1;
    }
}

/* 2. Driver present, and new enough / old enough for the card. Sets c->blocked when not. */
static void rule_driver_card(struct dv_case *c, struct dv_result *r) {
    const struct dv_device *d = c->d;
    const struct cuda_arch_fact *f = c->f;
    char v[16], v2[16];
    if (!d->driver[0] && d->driver_cuda == 0) {
        c->blocked = 1;
        snprintf(r->reason, sizeof r->reason, "no NVIDIA driver is loaded");
        if (f && f->last_driver)
            snprintf(r->fix, sizeof r->fix,
                     "Install the NVIDIA driver: the R%s branch is the last for %s; nvidia-smi "
                     "must list the GPU",
                     f->last_driver, f->family);
        else
            snprintf(r->fix, sizeof r->fix,
                     "Install the NVIDIA driver for this GPU; nvidia-smi must list it");
    } else if (driver_too_new(c)) {
        c->blocked = 1;
        snprintf(r->reason, sizeof r->reason,
                 "driver %s does not support %s GPUs: R%s is the last driver branch for them",
                 d->driver, f->family, f->last_driver);
        snprintf(r->fix, sizeof r->fix, "Install the newest %s.xx driver", f->last_driver);
    } else if (c->dcuda > 0 && f && c->dcuda < f->first_cuda) {
        /* A driver older than the toolkit that introduced the architecture does not know the
         * card: the first driver for it is the one released with that toolkit. */
        const char *first = cuda_facts_min_driver(f->first_cuda);
        c->blocked = 1;
        snprintf(r->reason, sizeof r->reason,
                 "driver %s (CUDA %s) predates %s GPUs (sm_%d arrived with CUDA %s)",
                 d->driver[0] ? d->driver : "(this)", cuda_facts_ver_str(c->dcuda, v, sizeof v),
                 f->family, c->sm, cuda_facts_ver_str(f->first_cuda, v2, sizeof v2));
        /* The fix names the newer of what the card and this build's runtime need, so that the
         * user updates once (an H100 on 470 needs 520.61.05; a CUDA 13 build, 580.65.06). */
        const char *build = c->b->cuda ? runtime_min_driver(c->b->cuda) : NULL;
        if (first && build && cuda_facts_driver_cmp(build, first) > 0)
            snprintf(r->fix, sizeof r->fix,
                     "Update the driver to %s or newer (this build's CUDA %s runtime needs it; "
                     "%s GPUs need %s)",
                     build, cuda_facts_ver_str(c->b->cuda, v, sizeof v), f->family, first);
        else
            snprintf(r->fix, sizeof r->fix, "Update the driver to %s or newer",
                     first ? first : "a current release");
    }
}

/* 3. Does this build's CUDA runtime start on the driver? Sets c->starts, and c->blocked when it
 * does not (unless rule 2 already blocked: its reason comes first). */
static void rule_runtime(struct dv_case *c, struct dv_result *r) {
    const struct dv_device *d = c->d;
    const struct cuda_arch_fact *f = c->f;
    int cuda = c->b->cuda;
    const char *need, *compat;
    char v[16], v2[16], cmd[DV_TEXT / 2];
    c->starts = runtime_starts(d, cuda);
    if (c->blocked || c->starts != 0)
        return;
    need = cuda_facts_min_driver(cuda);
    compat = cuda_facts_compat_driver(cuda);
    c->blocked = 1;
    if (c->dcuda > 0)
        snprintf(r->reason, sizeof r->reason,
                 "driver %s supports CUDA up to %s; this binary uses the CUDA %s runtime, "
                 "which needs driver >= %s",
                 d->driver[0] ? d->driver : "(this)", cuda_facts_ver_str(c->dcuda, v, sizeof v),
                 cuda_facts_ver_str(cuda, v2, sizeof v2),
                 runtime_min_driver(cuda) ? runtime_min_driver(cuda) : "?");
    else
        snprintf(r->reason, sizeof r->reason,
                 "driver %s is older than every CUDA runtime gpubench knows", d->driver);
    if (f && f->last_driver && need && atoi(compat ? compat : need) > atoi(f->last_driver))
        snprintf(r->fix, sizeof r->fix,
                 "%s GPUs stop at driver branch R%s, which cannot run CUDA %s: rebuild with "
                 "CUDA %s: %s",
                 f->family, f->last_driver, cuda_facts_ver_str(cuda, v, sizeof v),
                 cuda_facts_ver_str(f->last_cuda, v2, sizeof v2),
                 rebuild(f->last_cuda, c->sm, "", cmd, sizeof cmd));
    else if (runtime_min_driver(cuda))
        snprintf(r->fix, sizeof r->fix, "Update the driver to %s or newer",
                 runtime_min_driver(cuda));
    else /* a runtime older than gpubench's driver table (before CUDA 7.0) */
        snprintf(r->fix, sizeof r->fix, "Update the driver to one that runs CUDA %s",
                 cuda_facts_ver_str(cuda, v, sizeof v));
}

/* 4. No code for the device: the reason that matters most when a driver rule also failed, since
 * a rebuild fixes both; the driver's reason and fix follow as "Also: …". */
static void rule_no_code(const struct dv_case *c, struct dv_result *r) {
    char also[DV_TEXT], also_fix[DV_TEXT];
    int anyptx = 0;
    for (int i = 0; i < c->b->narch; i++)
        anyptx |= c->b->arch[i].ptx;
    snprintf(also, sizeof also, "%s", c->blocked ? r->reason : "");
    snprintf(also_fix, sizeof also_fix, "%s", c->blocked ? r->fix : "");
    r->reason[0] = '\0';
    /* PTX is JIT-compiled only for its own or newer architectures. */
    cat(r->reason, sizeof r->reason, "this build has no code for sm_%d (built for %s%s%s%s)", c->sm,
        c->archs, anyptx ? ", which a " : "", anyptx ? c->cc : "",
        anyptx ? " device cannot JIT" : "");
    r->fix[0] = '\0';
    fix_no_code(c->sm, c->f, c->b, r->fix, sizeof r->fix);
    if (c->blocked) {
        int target = c->f && c->f->last_cuda && !cuda_facts_toolkit_supports(c->b->cuda, c->sm)
                         ? c->f->last_cuda
                         : c->b->cuda;
        cat(r->reason, sizeof r->reason, ". Also: %s", also);
        /* Rebuilding with an older toolkit also cures "driver too old for the runtime",
         * unless the driver cannot run even that toolkit, or cannot drive the card. */
        if (!c->d->driver[0] || runtime_starts(c->d, target) != 1 || driver_too_new(c))
            cat(r->fix, sizeof r->fix, ". Also: %s", also_fix);
    }
    r->verdict = DV_NOT_USABLE;
}

/* 5. PTX needs a driver at least as new as the toolkit (no minor version compatibility). */
static void rule_ptx_too_new(const struct dv_case *c, struct dv_result *r) {
    const char *need = cuda_facts_min_driver(c->b->cuda);
    char v[16], v2[16];
    r->verdict = DV_NOT_USABLE;
    snprintf(r->reason, sizeof r->reason,
             "only PTX (compute_%d) in this build can run on sm_%d, and the driver (CUDA %s) "
             "is older than the CUDA %s toolkit that wrote it, so it cannot JIT-compile it "
             "(cudaErrorUnsupportedPtxVersion)",
             c->ptx->sm, c->sm, cuda_facts_ver_str(c->dcuda, v, sizeof v),
             cuda_facts_ver_str(c->b->cuda, v2, sizeof v2));
    if (cuda_facts_toolkit_supports(c->b->cuda, c->sm))
        snprintf(r->fix, sizeof r->fix,
                 "Update the driver to %s or newer, or rebuild with SASS for this GPU: cmake "
                 "-S . -B build -DCMAKE_CUDA_ARCHITECTURES=%d-real",
                 need ? need : "the newest", cmake_sm(c->sm));
    else
        snprintf(r->fix, sizeof r->fix, "Update the driver to %s or newer",
                 need ? need : "the newest");
}

/* Usable: the build's code list is unknown ("all"), so the launch-time check is the judge. */
static void usable_unknown_archs(const struct dv_case *c, struct dv_result *r) {
    r->verdict = DV_USABLE;
    snprintf(r->reason, sizeof r->reason,
             "the build's architecture list is not known, so gpubench assumes it has code "
             "for sm_%d (each kernel is checked with cudaFuncGetAttributes before it is timed)",
             c->sm);
}

/* Usable through the driver's JIT of the build's PTX, with a note on the cost and the cure. */
static void usable_jit(const struct dv_case *c, struct dv_result *r) {
    r->verdict = DV_USABLE_JIT;
    snprintf(r->reason, sizeof r->reason,
             "no SASS for sm_%d in this build; the driver JIT-compiles its PTX compute_%d "
             "on the first launch of each kernel",
             c->sm, c->ptx->sm);
    cat(r->note, sizeof r->note,
        "The first launch of each kernel is slow (JIT; cached in ~/.nv/ComputeCache); "
        "warm-up runs absorb it. For native code: cmake -S . -B build "
        "-DCMAKE_CUDA_ARCHITECTURES=%d. ",
        cmake_sm(c->sm));
}

/* The verdict from rules 4 and 5 and the blocks of rules 2 and 3, in that order of weight. */
static void decide(const struct dv_case *c, struct dv_result *r) {
    if (!c->sass && !c->ptx && !c->b->archs_unknown) {
        rule_no_code(c, r);
    } else if (c->blocked) {
        r->verdict = DV_NOT_USABLE;
    } else if (r->code_is_ptx && c->dcuda >= 0 && c->dcuda < c->b->cuda) {
        rule_ptx_too_new(c, r);
    } else if (c->b->archs_unknown) {
        usable_unknown_archs(c, r);
    } else if (r->code_is_ptx) {
        usable_jit(c, r);
    } else {
        r->verdict = DV_USABLE;
        snprintf(r->reason, sizeof r->reason, "native code (SASS sm_%d) for sm_%d in this build",
                 c->sass->sm, c->sm);
    }
}

/* cuBLAS carries its own code. What the toolkit's library supports comes first: it is the more
 * lasting answer (a driver can be updated, a library's architectures cannot). */
static void family_cublas(const struct dv_case *c, struct dv_result *r) {
    const struct cuda_arch_fact *f = c->f;
    int cuda = c->b->cuda;
    char v[16], v2[16];
    if (!c->b->cublas)
        family_set(&r->cublas, 0, "this build has no cuBLAS");
    else if (f && f->last_cuda && cuda > f->last_cuda)
        family_set(&r->cublas, 0, "cuBLAS of CUDA %s has no code for %s (last toolkit: CUDA %s)",
                   cuda_facts_ver_str(cuda, v, sizeof v), f->family,
                   cuda_facts_ver_str(f->last_cuda, v2, sizeof v2));
    else if (c->blocked)
        family_set(&r->cublas, 0, "nothing CUDA runs until the driver is fixed (see reason)");
    else if (cuda_facts_toolkit_supports(cuda, c->sm))
        family_set(&r->cublas, 1, "cuBLAS of CUDA %s supports sm_%d",
                   cuda_facts_ver_str(cuda, v, sizeof v), c->sm);
    else
        family_set(&r->cublas, -1,
                   "cuBLAS of CUDA %s predates sm_%d; it runs only if the library's own PTX "
                   "JIT-compiles for it",
                   cuda_facts_ver_str(cuda, v, sizeof v), c->sm);
}

/* cuDNN carries its own code too: its support table first, then the driver. */
static void family_cudnn(const struct dv_case *c, struct dv_result *r) {
    const struct dv_build *b = c->b;
    char why[DV_TEXT];
    int ok;
    if (!b->cudnn_major) {
        family_set(&r->cudnn, 0, "this build has no cuDNN");
        return;
    }
    ok = cuda_facts_cudnn_supports(b->cudnn_major, b->cudnn_minor, b->cuda / 1000, c->sm, why,
                                   sizeof why);
    if (ok != 0 && c->blocked)
        family_set(&r->cudnn, 0, "nothing CUDA runs until the driver is fixed (see reason)");
    else if (ok != 0 && c->f && b->cuda < c->f->first_cuda)
        family_set(&r->cudnn, -1, "cuDNN %d.%d for CUDA %d predates sm_%d", b->cudnn_major,
                   b->cudnn_minor, b->cuda / 1000, c->sm);
    else
        family_set(&r->cudnn, ok, "%s", why);
}

void dv_evaluate(const struct dv_device *d, const struct dv_build *b, struct dv_result *r) {
    struct dv_case c = {.d = d, .b = b, .sm = d->cc_major * 10 + d->cc_minor};
    char v[16];

    c.f = cuda_facts_arch(c.sm);
    memset(r, 0, sizeof *r);
    const char *family = cuda_facts_family(c.sm);
    snprintf(r->family, sizeof r->family, "%s", family ? family : "no such architecture");
    support_text(c.sm, c.f, r->support, sizeof r->support);
    cc_text(c.sm, c.cc, sizeof c.cc);
    dv_archs_text(b, c.archs, sizeof c.archs);

    if (d->mem && d->mem < DV_SMALL_MEM)
        cat(r->note, sizeof r->note,
            "%zu MiB is below the 512 MiB the default shapes assume: "
            "use smaller --shape values. ",
            d->mem >> 20);
    if (rule_no_cuda(&c, r))
        return;
    rule_code(&c, r);
    c.dcuda = driver_cuda_of(d);
    rule_driver_card(&c, r);
    rule_runtime(&c, r);
    decide(&c, r);
    if (c.starts < 0)
        cat(r->note, sizeof r->note, "Driver not given: assumed new enough for CUDA %s (>= %s). ",
            cuda_facts_ver_str(b->cuda, v, sizeof v),
            cuda_facts_min_driver(b->cuda) ? cuda_facts_min_driver(b->cuda) : "?");

    /* Families. Hand-written kernels follow the verdict; libraries carry their own code. */
    if (r->verdict == DV_NOT_USABLE)
        family_set(&r->cuda, 0, "%s", r->reason);
    else
        family_set(&r->cuda, 1, "%s", dv_verdict_name(r->verdict));
    family_cublas(&c, r);
    family_cudnn(&c, r);
}
