/* verdict.h — can this build use this GPU? The decision of `gpubench doctor` as a pure
 * function of plain data: the device (compute capability, name, memory), the driver, the build
 * manifest (toolkit, SASS and PTX architectures) and the library versions. No CUDA headers, no
 * I/O: the tests drive it with cards and toolkits we do not have. */
#ifndef GPUBENCH_DOCTOR_VERDICT_H
#define GPUBENCH_DOCTOR_VERDICT_H

#include <stddef.h>

enum { DV_MAX_ARCHS = 48, DV_TEXT = 1024 };

enum dv_verdict { DV_USABLE = 0, DV_USABLE_JIT, DV_NOT_USABLE };

/* One entry of CMAKE_CUDA_ARCHITECTURES: "35-real" (SASS only), "120-virtual" (PTX only), "86"
 * (both); an "a" or "f" suffix ("90a-real", "100f") marks arch- or family-specific code. */
struct dv_arch {
    int sm;       /* 35 = compute capability 3.5 */
    char variant; /* 0, 'a' (runs only on exactly sm) or 'f' (runs on the same family) */
    int sass, ptx;
};

/* What the binary was built with and links against. */
struct dv_build {
    int cuda; /* toolkit as CUDA_VER(13, 0); 0 = built without CUDA */
    int narch;
    struct dv_arch arch[DV_MAX_ARCHS];
    int archs_unknown; /* the list was "all", "all-major" or unparsable: no code check possible */
    int cublas;        /* built with cuBLAS */
    int cudnn_major, cudnn_minor; /* cuDNN in use (loaded, else compiled); 0.0 = no cuDNN */
};

/* The device, real (from gpu_query) or assumed (--assume). */
struct dv_device {
    int cc_major, cc_minor;
    char name[128];
    size_t mem;      /* bytes; 0 = unknown */
    char driver[32]; /* Linux driver "470.82.01"; "" = unknown */
    int driver_cuda; /* cudaDriverGetVersion (11040 = 11.4); 0 = no driver; -1 = unknown */
};

/* One implementation family (hand-written CUDA kernels, cuBLAS, cuDNN). */
struct dv_family {
    int ok; /* 1 yes, 0 no, -1 unknown */
    char why[DV_TEXT];
};

struct dv_result {
    enum dv_verdict verdict;
    int code_sm;           /* the build's code that would run (sm), 0 when none */
    int code_is_ptx;       /* 1 when that code is PTX (JIT on first launch) */
    char family[32];       /* "Kepler"; "unknown" */
    char reason[DV_TEXT];  /* why not usable (or how it runs when usable) */
    char fix[DV_TEXT];     /* what to do; "" when usable */
    char note[DV_TEXT];    /* JIT, memory and assumption remarks; may be "" */
    char support[DV_TEXT]; /* last toolkit and driver branch for the architecture */
    struct dv_family cuda, cublas, cudnn;
};

/* Parse a toolkit version "13.0", "13.0.88" or "11" into *cuda (CUDA_VER form). Returns 0, or -1
 * when `s` is not a version. */
int dv_parse_cuda_version(const char *s, int *cuda);

/* Fill b->arch / b->narch / b->archs_unknown from a CMake list ("75-real;80-real;120"). Returns 0;
 * -1 with the offending entry named in err when an entry is malformed (archs_unknown is then set,
 * so a verdict can still be given with a note). "all" and "all-major" set archs_unknown and
 * return 0. */
int dv_parse_archs(const char *cmake_list, struct dv_build *b, char *err, size_t errlen);

/* "75 80 86 89 90 100 120 + PTX 120" (SASS list, then PTX list) into out. */
void dv_archs_text(const struct dv_build *b, char *out, size_t outlen);

/* Decide whether build `b` can use device `d`, with reason, fix, per-family answers and the
 * support facts for the device's architecture. Never fails: unknown inputs give notes. */
void dv_evaluate(const struct dv_device *d, const struct dv_build *b, struct dv_result *r);

/* "usable", "usable via PTX JIT", "not usable". */
const char *dv_verdict_name(enum dv_verdict v);

/* Extract the driver version from the text of /proc/driver/nvidia/version ("NVRM version: NVIDIA
 * UNIX x86_64 Kernel Module  570.86.15  …") into out. Returns 0, or -1 when none is found. */
int dv_parse_nvrm(const char *text, char *out, size_t outlen);

#endif
