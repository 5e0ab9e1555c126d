/* cuda_facts.c — NVIDIA's support tables (toolkits, drivers, cuDNN per architecture), each fact
 * with the page it was read from. See cuda_facts.h. Pure C; no CUDA headers.
 *
 * When NVIDIA publishes a new toolkit or drops an architecture, change the rows here and the
 * default architecture lists in cmake/cuda_setup.cmake; the test doctor_cmake_agree checks that
 * the two agree. */
#include "harness/gpuinfo/cuda_facts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- minimum Linux driver per CUDA runtime -------------------------------------------------
 * Source: CUDA Toolkit Release Notes, Table 3 "CUDA Toolkit and Corresponding Driver Versions",
 * Linux x86_64 column, GA rows (an Update of the same minor sometimes needs a slightly newer
 * driver; cudaRuntimeGetVersion cannot tell Updates apart, so the GA row is the floor).
 * https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html (read for CUDA 13.2
 * Update 2; the 7.0–11.8 rows are unchanged since their releases). CUDA 11.0 uses the 11.0.2 GA
 * row. */
struct driver_row {
    int cuda;
    const char *linux_min;
};
static const struct driver_row driver_rows[] = {
    {CUDA_VER(7, 0), "346.46"},     {CUDA_VER(7, 5), "352.31"},
    {CUDA_VER(8, 0), "367.48"}, /* 8.0.44; 8.0.61 GA2 needs 375.26 */
    {CUDA_VER(9, 0), "384.81"},     {CUDA_VER(9, 1), "390.46"},
    {CUDA_VER(9, 2), "396.26"},     {CUDA_VER(10, 0), "410.48"},
    {CUDA_VER(10, 1), "418.39"},    {CUDA_VER(10, 2), "440.33"},
    {CUDA_VER(11, 0), "450.51.05"}, {CUDA_VER(11, 1), "455.23"},
    {CUDA_VER(11, 2), "460.27.03"}, {CUDA_VER(11, 3), "465.19.01"},
    {CUDA_VER(11, 4), "470.42.01"}, {CUDA_VER(11, 5), "495.29.05"},
    {CUDA_VER(11, 6), "510.39.01"}, {CUDA_VER(11, 7), "515.43.04"},
    {CUDA_VER(11, 8), "520.61.05"}, {CUDA_VER(12, 0), "525.60.13"},
    {CUDA_VER(12, 1), "530.30.02"}, {CUDA_VER(12, 2), "535.54.03"},
    {CUDA_VER(12, 3), "545.23.06"}, {CUDA_VER(12, 4), "550.54.14"},
    {CUDA_VER(12, 5), "555.42.02"}, {CUDA_VER(12, 6), "560.28.03"},
    {CUDA_VER(12, 8), "570.26"},    {CUDA_VER(12, 9), "575.51.03"},
    {CUDA_VER(13, 0), "580.65.06"}, {CUDA_VER(13, 1), "590.44.01"},
    {CUDA_VER(13, 2), "595.45.04"},
};
enum { DRIVER_ROWS = sizeof driver_rows / sizeof driver_rows[0] };

/* ---- minor version compatibility -------------------------------------------------------------
 * Source: same release notes, Table 2 "CUDA Toolkit and Minimum Required Driver Version for CUDA
 * Minor Version Compatibility": 13.x >= 580, 12.x >= 525 (< 580), 11.x >= 450 (< 525), with the
 * footnote that 11.x needs 450.80.02 for minor version compatibility. We print the first driver
 * of each branch that the release notes name (525.60.13 = 12.0 GA, 580.65.06 = 13.0 GA). Minor
 * version compatibility does not cover JIT of PTX newer than the driver
 * (https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html). */
static const struct driver_row compat_rows[] = {
    {CUDA_VER(11, 0), "450.80.02"},
    {CUDA_VER(12, 0), "525.60.13"},
    {CUDA_VER(13, 0), "580.65.06"},
};
enum { COMPAT_ROWS = sizeof compat_rows / sizeof compat_rows[0] };

/* ---- architectures -------------------------------------------------------------------------
 * first_cuda: the first toolkit that compiles for the architecture. For Turing and newer these
 *   bound real checks ("this driver/toolkit predates the card") and come from: CMake's record of
 *   nvcc's architectures (sm_87 from CUDA 11.4, sm_89/sm_90 from 11.8: "CUDA: Update set of
 *   architectures supported by CUDA 12",
 * https://gitlab.kitware.com/cmake/cmake/-/merge_requests/8031), PyTorch's CUDA 12.8 builds
 * adding 10.0 and 12.0 (https://github.com/pytorch/pytorch/issues/157517), and `nvcc
 * --list-gpu-arch` of the CUDA 13.0 toolkit installed here (compute_75 80 86 87 88 89 90 100 110
 * 103 120 121; sm_101 was renamed sm_110 in 13.0, cuRANDDx 0.2.1 release notes,
 *   https://docs.nvidia.com/cuda/curanddx/0.2.4/release_notes.html). The pre-Turing first_cuda
 *   values come from the nvcc documentation of their time and are not re-verified: no check
 *   made today depends on them.
 * last_cuda and last_driver (last Linux driver branch) — NVIDIA's "CUDA and Architecture Matrix"
 *   of the data-center driver documentation (https://docs.nvidia.com/datacenter/tesla/drivers/),
 *   as reproduced in https://wccftech.com/nvidia-tretire-kepler-gpu-architecture-geforce-gtx-600-
 *   700-series-r470-drivers/: Fermi 2.x last toolkit CUDA 8.0, last driver R390; Kepler 3.0/3.2
 *   last toolkit 10.2, Kepler 3.5/3.7 last toolkit 11.x, both last driver R470. The LLVM CUDA
 *   support notes agree: "sm_30 and sm_32 were removed in cuda-11.0, sm_35 and sm_37 were
 *   removed in cuda-12.0" (llvm/llvm-project commit 0f49116e, https://reviews.llvm.org/D152027).
 *   Maxwell, Pascal, Volta: CUDA 13.0 release notes, "Offline compilation and library support for
 *   these architectures have been removed in CUDA Toolkit 13.0"
 *   (https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/, "Deprecated Architectures"), so
 *   12.9 is their last toolkit; NVIDIA's Unix graphics feature deprecation schedule: "The release
 *   580 series will be the last to support GPUs based on the Maxwell, Pascal, and Volta
 *   architectures" (quoted in https://www.neowin.net/amp/nvidia-is-soon-ending-driver-support-for-
 *   some-of-its-most-legendary-graphics-cards/).
 * last_driver_min: the first driver of that branch in the driver table above, used only to ask
 *   which CUDA version the branch runs (R390 -> 9.1, R470 -> 11.4, R580 -> 13.0).
 */
/* cmake/cuda_setup.cmake reads this table (sm, family, examples, first_cuda, last_cuda) to check
 * CMAKE_CUDA_ARCHITECTURES before nvcc runs: keep each row's start on one line in this form. */
static const struct cuda_arch_fact arch_rows[] = {
    {20, "Fermi", "GTX 480, Tesla C2050", CUDA_VER(3, 0), CUDA_VER(8, 0), "390", "390.46"},
    {21, "Fermi", "NVS 310, GTX 560 Ti", CUDA_VER(3, 2), CUDA_VER(8, 0), "390", "390.46"},
    {30, "Kepler", "GTX 680, K2100M, GRID K1", CUDA_VER(4, 2), CUDA_VER(10, 2), "470", "470.42.01"},
    {32, "Kepler", "Tegra K1", CUDA_VER(6, 0), CUDA_VER(10, 2), "470", "470.42.01"},
    {35, "Kepler", "K20m, K40m, GTX 780", CUDA_VER(5, 0), CUDA_VER(11, 8), "470", "470.42.01"},
    {37, "Kepler", "Tesla K80", CUDA_VER(6, 5), CUDA_VER(11, 8), "470", "470.42.01"},
    {50, "Maxwell", "GTX 750 Ti, Quadro K620", CUDA_VER(6, 0), CUDA_VER(12, 9), "580", "580.65.06"},
    {52, "Maxwell", "GTX 980, Titan X, Tesla M40", CUDA_VER(6, 5), CUDA_VER(12, 9), "580",
     "580.65.06"},
    {53, "Maxwell", "Jetson Nano, Tegra X1", CUDA_VER(7, 0), CUDA_VER(12, 9), "580", "580.65.06"},
    {60, "Pascal", "Tesla P100", CUDA_VER(8, 0), CUDA_VER(12, 9), "580", "580.65.06"},
    {61, "Pascal", "GTX 1080, Tesla P4, P40", CUDA_VER(8, 0), CUDA_VER(12, 9), "580", "580.65.06"},
    {62, "Pascal", "Jetson TX2", CUDA_VER(8, 0), CUDA_VER(12, 9), "580", "580.65.06"},
    {70, "Volta", "Tesla V100, Titan V", CUDA_VER(9, 0), CUDA_VER(12, 9), "580", "580.65.06"},
    {72, "Volta", "Jetson AGX Xavier", CUDA_VER(10, 0), CUDA_VER(12, 9), "580", "580.65.06"},
    {75, "Turing", "Tesla T4, RTX 2080", CUDA_VER(10, 0), 0, NULL, NULL},
    {80, "Ampere", "A100, A30", CUDA_VER(11, 0), 0, NULL, NULL},
    {86, "Ampere", "RTX 3090, A40, A10", CUDA_VER(11, 1), 0, NULL, NULL},
    {87, "Ampere", "Jetson AGX Orin", CUDA_VER(11, 4), 0, NULL, NULL},
    {88, "8.x", "no public product known to gpubench", CUDA_VER(13, 0), 0, NULL, NULL},
    {89, "Ada Lovelace", "RTX 4090, L4, L40", CUDA_VER(11, 8), 0, NULL, NULL},
    {90, "Hopper", "H100, H200, GH200", CUDA_VER(11, 8), 0, NULL, NULL},
    {100, "Blackwell", "B200, GB200", CUDA_VER(12, 8), 0, NULL, NULL},
    {103, "Blackwell", "B300, GB300", CUDA_VER(12, 9), 0, NULL, NULL},
    {110, "Blackwell", "Jetson Thor", CUDA_VER(13, 0), 0, NULL, NULL},
    {120, "Blackwell", "RTX 5090, RTX PRO 6000", CUDA_VER(12, 8), 0, NULL, NULL},
    {121, "Blackwell", "DGX Spark (GB10)", CUDA_VER(12, 9), 0, NULL, NULL},
};
enum { ARCH_ROWS = sizeof arch_rows / sizeof arch_rows[0] };

const struct cuda_arch_fact *cuda_facts_arch_table(size_t *n) {
    *n = ARCH_ROWS;
    return arch_rows;
}

const struct cuda_arch_fact *cuda_facts_arch(int sm) {
    for (size_t i = 0; i < ARCH_ROWS; i++)
        if (arch_rows[i].sm == sm)
            return &arch_rows[i];
    return NULL;
}

/* The architectures by major version (NVIDIA, CUDA C++ Programming Guide, "Compute
 * Capabilities": 1.x Tesla, 2.x Fermi, 3.x Kepler, 5.x Maxwell, 6.x Pascal, 7.0/7.2 Volta,
 * 7.5 Turing, 8.0/8.6/8.7 Ampere, 8.9 Ada, 9.0 Hopper, 10.x/11.x/12.x Blackwell; there was never a
 * 4.x). */
const char *cuda_facts_family(int sm) {
    const struct cuda_arch_fact *f = cuda_facts_arch(sm);
    if (f)
        return f->family;
    int major = sm / 10, minor = sm % 10;
    switch (major) {
    case 1: return "Tesla architecture";
    case 2: return "Fermi";
    case 3: return "Kepler";
    case 5: return "Maxwell";
    case 6: return "Pascal";
    case 7: return minor < 5 ? "Volta" : "Turing";
    case 8: return minor == 9 ? "Ada Lovelace" : "Ampere";
    case 9: return "Hopper";
    case 10:
    case 11:
    case 12: return "Blackwell";
    default: return NULL;
    }
}

int cuda_facts_toolkit_supports(int cuda, int sm) {
    const struct cuda_arch_fact *a = cuda_facts_arch(sm);
    if (!a)
        return 0;
    return cuda >= a->first_cuda && (a->last_cuda == 0 || cuda <= a->last_cuda);
}

int cuda_facts_oldest_sm(int cuda) {
    for (size_t i = 0; i < ARCH_ROWS; i++)
        if (cuda_facts_toolkit_supports(cuda, arch_rows[i].sm))
            return arch_rows[i].sm;
    return 0;
}

int cuda_facts_last_toolkit(int sm) {
    const struct cuda_arch_fact *a = cuda_facts_arch(sm);
    return a ? a->last_cuda : -1;
}

/* ---- host compilers -----------------------------------------------------------------------
 * The newest GCC major each toolkit's nvcc accepts as host compiler, newest row at or below the
 * toolkit. Source: the toolkit's include/crt/host_config.h, which stops the compile with
 * "unsupported GNU version! gcc versions later than N are not supported!" above N (CUDA 13.0
 * installed here: N = 15), as summarized per release in the "Supported Compilers" tables of the
 * CUDA Installation Guide for Linux: 8.0 -> GCC 5, 9.0 -> 6, 9.2 -> 7, 10.1 -> 8, 11.0 -> 9,
 * 11.1 -> 10, 11.5 -> 11, 12.0 -> 12, 12.4 -> 13. Where a minor release raised the bound
 * mid-series (GCC 11 arrived in an 11.4 update) the lower bound is kept: the advice must build.
 * cmake/cuda_setup.cmake reads this table too: keep each row in the form {CUDA_VER(M, m), GCC}. */
struct host_gcc_row {
    int cuda;
    int gcc;
};
static const struct host_gcc_row host_gcc_rows[] = {
    {CUDA_VER(8, 0), 5},  {CUDA_VER(9, 0), 6},   {CUDA_VER(9, 2), 7},   {CUDA_VER(10, 1), 8},
    {CUDA_VER(11, 0), 9}, {CUDA_VER(11, 1), 10}, {CUDA_VER(11, 5), 11}, {CUDA_VER(12, 0), 12},
    {CUDA_VER(12, 4), 13}, {CUDA_VER(13, 0), 15},
};
enum { HOST_GCC_ROWS = sizeof host_gcc_rows / sizeof host_gcc_rows[0] };

int cuda_facts_host_gcc(int cuda) {
    int gcc = 0;
    for (size_t i = 0; i < HOST_GCC_ROWS && host_gcc_rows[i].cuda <= cuda; i++)
        gcc = host_gcc_rows[i].gcc;
    return gcc;
}

char *cuda_facts_rebuild_cmd(int cuda, const char *archs, char *out, size_t outlen) {
    char v[16];
    int gcc = cuda_facts_host_gcc(cuda);
    cuda_facts_ver_str(cuda, v, sizeof v);
    if (gcc)
        snprintf(out, outlen,
                 "cmake -S . -B build-cuda%s -DCMAKE_CUDA_COMPILER=/usr/local/cuda-%s/bin/nvcc "
                 "-DCMAKE_CUDA_HOST_COMPILER=g++-%d -DCMAKE_CUDA_ARCHITECTURES=%s",
                 v, v, gcc, archs);
    else
        snprintf(out, outlen,
                 "cmake -S . -B build-cuda%s -DCMAKE_CUDA_COMPILER=/usr/local/cuda-%s/bin/nvcc "
                 "-DCMAKE_CUDA_ARCHITECTURES=%s",
                 v, v, archs);
    return out;
}

/* ---- drivers ----------------------------------------------------------------------------------
 */

/* Split a dotted version into up to 3 numbers; returns the count parsed, 0 when malformed. */
static int driver_parts(const char *s, long part[3]) {
    int n = 0;
    part[0] = part[1] = part[2] = 0;
    if (!s || !isdigit((unsigned char)*s))
        return 0;
    while (n < 3) {
        char *end;
        part[n++] = strtol(s, &end, 10);
        if (*end == '\0')
            return n;
        if (*end != '.' || !isdigit((unsigned char)end[1]))
            return 0;
        s = end + 1;
    }
    return 0; /* a fourth component */
}

int cuda_facts_driver_valid(const char *s) {
    long p[3];
    return driver_parts(s, p) > 0 && p[0] >= 100 && p[0] <= 9999;
}

int cuda_facts_driver_cmp(const char *a, const char *b) {
    long pa[3], pb[3];
    driver_parts(a, pa);
    driver_parts(b, pb);
    for (int i = 0; i < 3; i++)
        if (pa[i] != pb[i])
            return pa[i] < pb[i] ? -1 : 1;
    return 0;
}

const char *cuda_facts_min_driver(int cuda) {
    const char *best = NULL;
    for (size_t i = 0; i < DRIVER_ROWS; i++) {
        if (driver_rows[i].cuda > cuda)
            break;
        best = driver_rows[i].linux_min;
    }
    return best;
}

const char *cuda_facts_compat_driver(int cuda) {
    for (size_t i = 0; i < COMPAT_ROWS; i++)
        if (compat_rows[i].cuda / 1000 == cuda / 1000)
            return compat_rows[i].linux_min;
    return NULL;
}

int cuda_facts_driver_cuda(const char *driver) {
    int best = 0;
    if (!cuda_facts_driver_valid(driver))
        return 0;
    for (size_t i = 0; i < DRIVER_ROWS; i++)
        if (cuda_facts_driver_cmp(driver, driver_rows[i].linux_min) >= 0)
            best = driver_rows[i].cuda;
    return best;
}

int cuda_facts_runtime_runs(int cuda, const char *driver) {
    const char *full = cuda_facts_min_driver(cuda);
    const char *compat = cuda_facts_compat_driver(cuda);
    if (!cuda_facts_driver_valid(driver))
        return 0;
    if (full && cuda_facts_driver_cmp(driver, full) >= 0)
        return 1;
    return compat && cuda_facts_driver_cmp(driver, compat) >= 0;
}

char *cuda_facts_ver_str(int cuda, char *out, size_t outlen) {
    snprintf(out, outlen, "%d.%d", cuda / 1000, (cuda % 1000) / 10);
    return out;
}

/* ---- cuDNN ------------------------------------------------------------------------------------
 * One row per range of cuDNN releases (and CUDA major of the cuDNN build, 0 = any): the oldest
 * compute capability supported, and below it a band where the matrices we could read do not say
 * (answered "unknown", never guessed). First matching row wins. Sources, NVIDIA's cuDNN support
 * matrices:
 *   cuDNN was never released for Fermi: every matrix down to 7.x starts at Kepler 3.x, e.g.
 *     https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn_760/cudnn-support-matrix/
 *     ("Kepler (3.x)" is the oldest hardware listed for cuDNN 7.5.0–7.6.0).
 *   cuDNN 8.0–8.5: "SM 3.0 and later" for the CUDA 10.2 build, "SM 3.5 and later" for CUDA 11.x
 *     builds: …/cudnn/archives/cudnn-803/support-matrix/index.html (8.0.0–8.0.3),
 *     …/archives/cudnn-822/support-matrix/ (8.1–8.2), …/archives/cudnn-840/support-matrix/,
 *     …/archives/cudnn-850/pdf/cuDNN-Support-Matrix.pdf (8.5.0 for CUDA 11.x: SM 3.5 and later).
 *   cuDNN 8.9: 5.0 is the oldest compute capability for both the CUDA 11.x and 12.x builds:
 *     …/archives/cudnn-891/support-matrix/index.html, …/archives/cudnn-896/support-matrix.
 *   cuDNN 8.6–8.8 for CUDA 11.x, read from the libraries themselves (PyPI's nvidia-cudnn-cu11
 *     wheels, `cuobjdump --list-elf` of libcudnn_ops_infer.so.8 and libcudnn_cnn_infer.so.8):
 *     8.5.0.96, 8.6.0.163 and 8.7.0.84 carry sm_35 machine code (sm_35 50 60 61 70 75 80 86, and
 *     90 from 8.6); 8.8.1.3, 8.9.0.131 and 8.9.6.50 start at sm_50 and have no Kepler code or
 *     PTX at all. So 8.7 is the last cuDNN for sm_35/37 (sm_37 runs sm_35 code), and 8.8 needs
 *     sm_50. The CUDA 10.2 builds of 8.6–8.7 were not read: Kepler is "unknown" there.
 *   cuDNN 9.0–9.10: CUDA 11.8 and 12.x builds list 5.0 … 9.0 (12.0 and 10.0 for the 12.8+ build):
 *     https://docs.nvidia.com/deeplearning/cudnn/backend/v9.0.0/reference/support-matrix.html,
 *     …/backend/v9.5.1/reference/support-matrix.html, and the 9.10.2 matrix (Maxwell, Pascal,
 *     Volta still listed, footnoted) at …/cudnn/latest/support-matrix/index.html when 9.10.2 was
 *     current.
 *   cuDNN 9.17: CUDA 13.x and 12.x builds list 7.5, 8.0, 8.6, 8.9, 9.0, 10.0, 12.0 only
 *     (https://docs.nvidia.com/deeplearning/sdk/cudnn-support-matrix/index.html, read for 9.17.0).
 *     9.11–9.16: not verified for Maxwell–Volta ("unknown").
 *   Every cuDNN build for CUDA 13 needs 7.5 or newer: CUDA 13 itself cannot target older GPUs
 *     (CUDA 13.0 release notes) and the 9.17 matrix above lists 7.5 as the oldest.
 */
struct cudnn_row {
    int from, to;     /* cuDNN versions as 100*major + minor, inclusive */
    int cuda_major;   /* CUDA major of the cuDNN build; 0 = any */
    int min_sm;       /* oldest supported architecture */
    int unknown_from; /* sm in [unknown_from, min_sm) is not verified either way; 0 = none */
    const char *says;
};
static const struct cudnn_row cudnn_rows[] = {
    {100, 799, 0, 30, 0, "cuDNN 1-7 support Kepler (sm_30) and newer"},
    {800, 805, 10, 30, 0, "cuDNN 8.0-8.5 for CUDA 10.2 supports sm_30 and newer"},
    {800, 805, 0, 35, 0, "cuDNN 8.0-8.5 for CUDA 11.x supports sm_35 and newer"},
    {806, 807, 11, 35, 0, "cuDNN 8.6-8.7 for CUDA 11.x supports sm_35 and newer"},
    {806, 807, 0, 50, 30, "cuDNN 8.6-8.7 supports sm_50 and newer (Kepler not verified)"},
    {808, 808, 0, 50, 0, "cuDNN 8.8 supports sm_50 (Maxwell) and newer"},
    {809, 899, 0, 50, 0, "cuDNN 8.9 supports sm_50 (Maxwell) and newer"},
    {900, 9999, 13, 75, 0, "cuDNN 9 for CUDA 13 supports sm_75 (Turing) and newer"},
    {900, 910, 0, 50, 0, "cuDNN 9.0-9.10 supports sm_50 (Maxwell) and newer"},
    {911, 916, 0, 75, 50,
     "cuDNN 9.11-9.16 supports sm_75 and newer (Maxwell to Volta not verified)"},
    {917, 9999, 0, 75, 0, "cuDNN 9.17 and newer supports sm_75 (Turing) and newer"},
};
enum { CUDNN_ROWS = sizeof cudnn_rows / sizeof cudnn_rows[0] };

int cuda_facts_cudnn_supports(int cudnn_major, int cudnn_minor, int cuda_major, int sm, char *why,
                              size_t whylen) {
    int v = cudnn_major * 100 + cudnn_minor;
    if (sm < 30) {
        snprintf(why, whylen, "cuDNN never supported %s (sm_%d)",
                 sm < 20 ? "the Tesla architecture" : "Fermi", sm);
        return 0;
    }
    for (size_t i = 0; i < CUDNN_ROWS; i++) {
        const struct cudnn_row *r = &cudnn_rows[i];
        const char *last = cuda_facts_cudnn_last(sm);
        if (v < r->from || v > r->to || (r->cuda_major && r->cuda_major != cuda_major))
            continue;
        if (sm >= r->min_sm) {
            snprintf(why, whylen, "%s", r->says);
            return 1;
        }
        if (r->unknown_from && sm >= r->unknown_from) {
            snprintf(why, whylen, "%s; gpubench's table cannot say for sm_%d%s%s", r->says, sm,
                     last ? "; known to work: cuDNN " : "", last ? last : "");
            return -1;
        }
        snprintf(why, whylen, "%s, not sm_%d%s%s", r->says, sm, last ? " (last cuDNN for it: " : "",
                 last ? last : "");
        if (last)
            strncat(why, ")", whylen - strlen(why) - 1);
        return 0;
    }
    snprintf(why, whylen, "cuDNN %d.%d is not in gpubench's table", cudnn_major, cudnn_minor);
    return -1;
}

const char *cuda_facts_cudnn_last(int sm) {
    if (sm < 30)
        return NULL; /* never supported */
    if (sm < 35)
        return "8.5 for CUDA 10.2";
    if (sm < 50)
        return "8.7 for CUDA 11.x";
    if (sm < 75)
        return "9.10 for CUDA 11.8 or 12.x";
    return NULL; /* current */
}
