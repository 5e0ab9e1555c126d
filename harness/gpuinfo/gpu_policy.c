/* gpu_policy.c — pure decisions of the CUDA side: "no kernel image" notes, cuDNN support and
 * algorithm choice, whether an allocation fits the card. See gpu_policy.h. No CUDA headers. */
#include "harness/gpuinfo/gpu_policy.h"

#include <stdio.h>
#include <string.h>

#include "harness/gpuinfo/cuda_explain.h"
#include "harness/gpuinfo/cuda_facts.h"

void gpu_archs_plain(const char *cmake_archs, char *out, size_t outlen) {
    size_t o = 0;
    if (!outlen)
        return;
    out[0] = '\0';
    if (!cmake_archs)
        return;
    const char *s = cmake_archs;
    while (*s) {
        /* One list element: digits, an "a" or "f" suffix (90a: sm_90a's arch-specific code),
         * optionally "-real" or "-virtual"; keep the digits and the suffix. */
        const char *e = s;
        while (*e && *e != ';')
            e++;
        size_t digits = 0;
        while (s + digits < e && s[digits] >= '0' && s[digits] <= '9')
            digits++;
        if (digits && s + digits < e && (s[digits] == 'a' || s[digits] == 'f'))
            digits++;
        if (digits) {
            int w = snprintf(out + o, outlen - o, "%s%.*s", o ? " " : "", (int)digits, s);
            if (w < 0 || (size_t)w >= outlen - o)
                return; /* truncated: leave what fits */
            o += (size_t)w;
        }
        s = *e ? e + 1 : e;
    }
}

int gpu_archs_ptx_for(const char *cmake_archs, int sm) {
    int best = 0;
    const char *s = cmake_archs ? cmake_archs : "";
    while (*s) {
        const char *e = strchr(s, ';');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int arch = 0;
        size_t d = 0;
        while (d < len && s[d] >= '0' && s[d] <= '9')
            arch = arch * 10 + (s[d++] - '0');
        /* "90a"-style suffixes are not PTX every later card can JIT: digits then "" or
         * "-virtual" only */
        int ptx = d > 0 && (d == len || (len - d == 8 && !strncmp(s + d, "-virtual", 8)));
        if (ptx && arch <= sm && arch > best)
            best = arch;
        s = e ? e + 1 : s + len;
    }
    return best;
}

void gpu_no_image_note(int cc_major, int cc_minor, const char *cmake_archs, const char *build_cuda,
                       char *out, size_t outlen) {
    int sm = cc_major * 10 + cc_minor;
    /* CMake accepts only the architectures nvcc names; Fermi 2.1 runs sm_20 code. */
    int arch = sm == 21 ? 20 : sm;
    char built[128], fix[96];
    gpu_archs_plain(cmake_archs, built, sizeof built);
    int last = cuda_facts_last_toolkit(sm);
    int have = 0, maj = 0, min = 0;
    if (build_cuda && sscanf(build_cuda, "%d.%d", &maj, &min) == 2)
        have = CUDA_VER(maj, min);
    if (last > 0 && (have == 0 || have > last)) {
        char ver[16];
        cuda_facts_ver_str(last, ver, sizeof ver);
        snprintf(fix, sizeof fix, "rebuild with CUDA %s and -DCMAKE_CUDA_ARCHITECTURES=%d", ver,
                 arch);
    } else if (last < 0) {
        snprintf(fix, sizeof fix,
                 "rebuild with a CUDA toolkit that knows sm_%d and -DCMAKE_CUDA_ARCHITECTURES=%d",
                 sm, arch);
    } else {
        snprintf(fix, sizeof fix, "rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d", arch);
    }
    snprintf(out, outlen, "no kernel image for sm_%d in this build (built for %s); %s", sm,
             built[0] ? built : "no CUDA architecture", fix);
}

int gpu_cudnn_support(int cc_major, int cc_minor, const char *name, long cudnn_version,
                      int cudnn_cudart, char *note, size_t notelen) {
    int maj, min, patch;
    char why[256];
    gpu_cudnn_version_split(cudnn_version, &maj, &min, &patch);
    int sm = cc_major * 10 + cc_minor;
    /* cuda_facts tells builds apart by CUDA major; 0 (unknown) matches the any-build rows. */
    int cuda_major = cudnn_cudart > 0 ? cudnn_cudart / 1000 : 0;
    int known = cuda_facts_cudnn_supports(maj, min, cuda_major, sm, why, sizeof why);
    if (known == 1)
        return 1;
    snprintf(note, notelen, "cuDNN %d.%d %s sm_%d%s%s%s: %s", maj, min,
             known == 0 ? "does not support" : "support is not known for", sm, name ? " (" : "",
             name ? name : "", name ? ")" : "", why);
    return known == 0 ? 0 : -1;
}

enum status gpu_cudnn_check(int cc_major, int cc_minor, const char *name, long cudnn_version,
                            int cudnn_cudart, char *note, size_t notelen) {
    int known =
        gpu_cudnn_support(cc_major, cc_minor, name, cudnn_version, cudnn_cudart, note, notelen);
    return known == 0 ? ST_UNSUPPORTED : ST_OK;
}

int gpu_pick_algo(const struct gpu_algo_result *r, int n, size_t mem_limit) {
    int best = -1, first_fit = -1;
    for (int i = 0; i < n; i++) {
        if (!r[i].ok || r[i].memory > mem_limit)
            continue;
        if (first_fit < 0)
            first_fit = i;
        if (r[i].ms < 0)
            continue; /* heuristic: no time to compare */
        if (best < 0 || r[i].ms < r[best].ms ||
            (r[i].ms == r[best].ms && r[i].memory < r[best].memory))
            best = i;
    }
    return best >= 0 ? best : first_fit;
}

size_t gpu_workspace_limit(size_t free_bytes) {
    size_t reserve = (size_t)64 << 20;
    if (free_bytes / 10 > reserve)
        reserve = free_bytes / 10;
    return free_bytes > reserve ? free_bytes - reserve : 0;
}

const char *gpu_cudnn_fwd_algo_name(int algo) {
    /* cudnnConvolutionFwdAlgo_t, unchanged from cuDNN 5 to 9 (cudnn_ops.h in 9.x). */
    static const char *const names[] = {
        "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT", "FFT", "FFT_TILING",
        "WINOGRAD",      "WINOGRAD_NONFUSED",
    };
    if (algo < 0 || algo >= (int)(sizeof names / sizeof names[0]))
        return "UNKNOWN";
    return names[algo];
}

void gpu_no_device_reason(const char *err_name, int driver_version, int runtime_version, char *out,
                          size_t outlen) {
    /* Success with zero devices is what cudaErrorNoDevice means; word it the same way. */
    if (!err_name || !err_name[0] || strcmp(err_name, "cudaSuccess") == 0)
        err_name = "cudaErrorNoDevice";
    char explain[640];
    cuda_explain(err_name, driver_version, runtime_version, explain, sizeof explain);
    /* A driver older than the runtime: doctor names each card (through the driver's NVML) and
     * the toolkit and command for it. */
    snprintf(out, outlen, "%s%s [cudaGetDeviceCount: %s]", explain,
             strcmp(err_name, "cudaErrorInsufficientDriver") == 0 && driver_version > 0
                 ? " gpubench doctor names each card and the command to rebuild with."
                 : "",
             err_name);
}

enum status gpu_memory_fit(size_t held, size_t bytes, size_t free_b, size_t usable, size_t total,
                           const char *what, char *note, size_t notelen) {
    const double mib = 1024.0 * 1024.0;
    if (!usable || usable > total)
        usable = total;
    if (held + bytes > usable) {
        snprintf(note, notelen,
                 "does not fit this card: needs at least %.1f MiB of device memory (%s: %.1f "
                 "MiB); the card has %.1f MiB, %.1f MiB of it for a process",
                 (double)(held + bytes) / mib, what, (double)bytes / mib, (double)total / mib,
                 (double)usable / mib);
        return ST_UNSUPPORTED;
    }
    if (bytes > free_b) {
        snprintf(note, notelen,
                 "out of device memory: %s needs %.1f MiB, %.1f MiB free of %.1f MiB", what,
                 (double)bytes / mib, (double)free_b / mib, (double)total / mib);
        return ST_OOM;
    }
    return ST_OK;
}

enum status gpu_footprint_fit(size_t footprint, size_t usable, size_t total, const char *what,
                              char *note, size_t notelen) {
    const double mib = 1024.0 * 1024.0;
    if (!usable || usable > total)
        usable = total;
    if (footprint <= usable)
        return ST_OK;
    snprintf(note, notelen,
             "does not fit this card: the row needs at least %.1f MiB of device memory (%s); the "
             "card has %.1f MiB, %.1f MiB of it for a process (the rest: the CUDA context)",
             (double)footprint / mib, what, (double)total / mib, (double)usable / mib);
    return ST_UNSUPPORTED;
}
