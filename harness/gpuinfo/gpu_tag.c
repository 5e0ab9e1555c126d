/* gpu_tag.c — the provenance strings of a CUDA device (cc, driver, library versions, extra), as
 * pure functions of numbers and text, so that they are tested on data from real cards. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "harness/core/device.h"
#include "harness/gpuinfo/cuda_facts.h"
#include "harness/gpuinfo/gpu_props.h"

void gpu_cc_string(int cc_major, int cc_minor, char *out, size_t outlen) {
    snprintf(out, outlen, "%d.%d", cc_major, cc_minor);
}

void gpu_cuda_version_string(int version, char *out, size_t outlen) {
    if (version <= 0)
        snprintf(out, outlen, "none");
    else
        cuda_facts_ver_str(version, out, outlen);
}

/* The module version is the first token after "Kernel Module" that starts with a digit and
 * holds a dot; older drivers print "NVRM version: NVIDIA UNIX x86_64 Kernel Module  390.157 …",
 * open-kernel ones "… Open Kernel Module for x86_64  570.86.15 …". */
int gpu_parse_nvrm_version(const char *text, char *out, size_t outlen) {
    if (outlen)
        out[0] = '\0';
    if (!text || !outlen)
        return -1;
    const char *s = strstr(text, "Kernel Module");
    if (!s)
        return -1;
    s += strlen("Kernel Module");
    const char *eol = strchr(s, '\n');
    while (*s && (!eol || s < eol)) {
        while (*s == ' ' || *s == '\t')
            s++;
        const char *tok = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        size_t len = (size_t)(s - tok);
        if (len && isdigit((unsigned char)tok[0]) && memchr(tok, '.', len)) {
            int ok = 1;
            for (size_t i = 0; i < len; i++)
                if (!isdigit((unsigned char)tok[i]) && tok[i] != '.')
                    ok = 0;
            if (ok && len < outlen) {
                memcpy(out, tok, len);
                out[len] = '\0';
                return 0;
            }
        }
    }
    return -1;
}

void gpu_driver_string(const char *module_version, int driver_version, char *out, size_t outlen) {
    char cuda[16];
    gpu_cuda_version_string(driver_version, cuda, sizeof cuda);
    if (module_version && module_version[0])
        snprintf(out, outlen, "%s (CUDA %s)", module_version, cuda);
    else
        snprintf(out, outlen, "CUDA %s", cuda);
}

void gpu_cudnn_version_split(long version, int *major, int *minor, int *patch) {
    /* cuDNN 9 changed CUDNN_VERSION from 1000·major to 10000·major (9.1.0 = 90100); the largest
     * cuDNN 8 number is below 9000 and the smallest cuDNN 9 one is 90000. */
    long unit = version >= 10000 ? 10000 : 1000;
    *major = (int)(version / unit);
    *minor = (int)((version % unit) / 100);
    *patch = (int)(version % 100);
}

void gpu_cublas_lib_string(int major, int minor, int patch, int emulation_env, char *out,
                           size_t outlen) {
    if (major <= 0)
        snprintf(out, outlen, "none (built without cuBLAS)");
    else
        snprintf(out, outlen, "cuBLAS %d.%d.%d (%s)", major, minor, patch,
                 emulation_env ? "emulation variables set: math per row" : "default math");
}

void gpu_cudnn_lib_string(long loaded, long built, char *out, size_t outlen) {
    int lmaj, lmin, lpat, bmaj, bmin, bpat;
    if (built <= 0) {
        snprintf(out, outlen, "none (built without cuDNN)");
        return;
    }
    gpu_cudnn_version_split(built, &bmaj, &bmin, &bpat);
    if (loaded <= 0) {
        snprintf(out, outlen, "cuDNN not loadable (built %d.%d.%d)", bmaj, bmin, bpat);
        return;
    }
    gpu_cudnn_version_split(loaded, &lmaj, &lmin, &lpat);
    snprintf(out, outlen, "cuDNN %d.%d.%d (built %d.%d.%d)", lmaj, lmin, lpat, bmaj, bmin, bpat);
}

void gpu_extra_string(const struct gpu_props *p, const char *binding, char *out, size_t outlen) {
    double gib = (double)p->global_mem / (1024.0 * 1024.0 * 1024.0);
    snprintf(out, outlen,
             "sm=%d clk=%dMHz memclk=%dMHz bus=%db mem=%.1fGiB ecc=%s pci=%s watchdog=%s "
             "bind=%s",
             p->sm_count, p->core_clock_khz / 1000, p->mem_clock_khz / 1000, p->mem_bus_bits, gib,
             p->ecc ? "on" : "off", p->pci_bus_id[0] ? p->pci_bus_id : "?",
             p->kernel_timeout ? "yes" : "no", binding && binding[0] ? binding : "none");
    char q[160];
    gpu_row_qualifiers(p->name, q, sizeof q);
    if (q[0]) {
        size_t len = strlen(out);
        snprintf(out + len, outlen - len, "; %s", q);
    }
}

void gpu_row_qualifiers(const char *name, char *out, size_t outlen) {
    out[0] = '\0';
    if (device_is_simulated(name))
        snprintf(out, outlen, "simulated device: times are CPU-emulation times");
    /* A MIG instance is named "<GPU> MIG <profile>" and reports its own SMs and memory, but the
     * bus width, and so the memory peak, and NVML's power and clocks are the whole GPU's. */
    if (strstr(name, " MIG ")) {
        size_t len = strlen(out);
        snprintf(out + len, outlen - len, "%sa MIG slice: the memory peak and the telemetry are "
                 "the whole GPU's", len ? "; " : "");
    }
}
