/* hardware.c — a row's `hardware` column: the facts that tell machines apart (hardware.h). */
#include "harness/run/hardware.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/run/topology.h"

static int count(hwloc_topology_t t, hwloc_obj_type_t type) {
    int n = t ? hwloc_get_nbobjs_by_type(t, type) : 0;
    return n > 0 ? n : 0;
}

/* The value of /proc/cpuinfo's first line starting with one of keys ("" when none), with any
 * ';' or '=' made a ',' so that it stays one value of the key=value list. */
static void cpuinfo(const char *const *keys, char *out, size_t len) {
    out[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[4096];
    while (!out[0] && fgets(line, sizeof line, f)) {
        for (int k = 0; keys[k] && !out[0]; k++) {
            size_t kl = strlen(keys[k]);
            char *c = strchr(line, ':');
            if (strncmp(line, keys[k], kl) || !c || (line[kl] != ' ' && line[kl] != '\t'))
                continue;
            c += 1 + (c[1] == ' ');
            c[strcspn(c, "\n")] = '\0';
            snprintf(out, len, "%s", c);
        }
    }
    fclose(f);
    for (char *p = out; *p; p++)
        if (*p == ';' || *p == '=')
            *p = ',';
}

/* Of the features that decide which code a benchmark runs (SIMD width, FMA, 16-bit and matrix
 * units), those the CPU reports, space-separated; "none" when it reports none of them. */
static void features(char *out, size_t len) {
    static const char *const keys[] = {"flags", "Features", NULL};
    static const char *const wanted[] = {"sse4_2",   "avx",         "avx2",        "fma",
                                         "avx512f",  "avx512_bf16", "avx512_fp16", "amx_tile",
                                         "asimd",    "asimdhp",     "sve",         "sve2",
                                         NULL};
    char all[4096];
    cpuinfo(keys, all, sizeof all);
    out[0] = '\0';
    for (int w = 0; wanted[w]; w++) {
        size_t wl = strlen(wanted[w]);
        for (const char *p = all; (p = strstr(p, wanted[w])) != NULL; p += wl)
            if ((p == all || isspace((unsigned char)p[-1])) &&
                (p[wl] == '\0' || isspace((unsigned char)p[wl]))) {
                size_t used = strlen(out);
                snprintf(out + used, len - used, "%s%s", used ? " " : "", wanted[w]);
                break;
            }
    }
    if (!out[0])
        snprintf(out, len, "none");
}

/* The PCI addresses of the machine's NVIDIA display or 3D controllers (vendor 0x10de, class
 * 0x03xx) as hwloc sees them — whether a driver is loaded or not, and whichever devices the run
 * chose — space-separated; "none" when there is none. */
static void nvidia_gpus(hwloc_topology_t t, char *out, size_t len) {
    out[0] = '\0';
#if HWLOC_API_VERSION >= 0x00020000
    for (hwloc_obj_t o = t ? hwloc_get_next_pcidev(t, NULL) : NULL; o;
         o = hwloc_get_next_pcidev(t, o)) {
        const struct hwloc_pcidev_attr_s *p = &o->attr->pcidev;
        if (p->vendor_id != 0x10de || (p->class_id >> 8) != 0x03)
            continue;
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%04x:%02x:%02x.%01x", used ? " " : "",
                 (unsigned)p->domain, (unsigned)p->bus, (unsigned)p->dev, (unsigned)p->func);
    }
#else
    (void)t;
#endif
    if (!out[0])
        snprintf(out, len, "none");
}

void hardware_host(char *out, size_t len) {
    static char host[1024];
    if (!host[0]) {
        static const char *const model_keys[] = {"model name", "Model", "cpu model", NULL};
        hwloc_topology_t t = topology_get();
        char model[256], feat[256], gpus[512];
        cpuinfo(model_keys, model, sizeof model);
        features(feat, sizeof feat);
        nvidia_gpus(t, gpus, sizeof gpus);
        char llc[8];
        size_t llc_bytes = topology_llc(llc, sizeof llc, topology_cores());
        long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
        unsigned long long mem = pages > 0 && psize > 0 ? (unsigned long long)pages * psize : 0;
        int numa = count(t, HWLOC_OBJ_NUMANODE);
        snprintf(host, sizeof host,
                 "cpu=%s;features=%s;packages=%d;cores=%d;pus=%d;numa=%d;llc_mib=%zu;"
                 "memory_mib=%llu;gpus=%s",
                 model[0] ? model : "unknown", feat, count(t, HWLOC_OBJ_PACKAGE),
                 count(t, HWLOC_OBJ_CORE), count(t, HWLOC_OBJ_PU), numa ? numa : 1, llc_bytes >> 20,
                 mem >> 20, gpus);
    }
    snprintf(out, len, "%s", host);
}

void hardware_describe(struct device *d) {
    hardware_host(d->hardware, sizeof d->hardware);
    if (d->kind != DEV_CUDA)
        return;
    size_t used = strlen(d->hardware);
    snprintf(d->hardware + used, sizeof d->hardware - used, ";gpu_pci=%s;gpu_memory_mib=%zu",
             d->pci_bus_id[0] ? d->pci_bus_id : "unknown", d->mem_bytes >> 20);
}
