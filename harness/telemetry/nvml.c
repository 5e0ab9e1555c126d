/* nvml.c — NVML through dlopen/dlsym (nvml.h): no build dependency on the driver, any driver
 * since NVML exists, and a NULL entry point for each function an old driver lacks. */
#include "harness/telemetry/nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static struct gb_nvml api;
static int loaded;         /* 0 not tried, 1 usable, -1 failed */
static char load_why[256]; /* why it failed, repeated to later callers */

/* The first of `names` this library exports, or NULL. */
static void *sym(void *lib, const char *a, const char *b) {
    void *p = dlsym(lib, a);
    if (!p && b)
        p = dlsym(lib, b);
    return p;
}

/* Each pointer from its symbol: dlsym returns void *, and POSIX guarantees it converts to a
 * function pointer (the memcpy keeps -Wpedantic quiet about the conversion). */
#define RESOLVE(field, a, b)                                                                       \
    do {                                                                                           \
        void *p_ = sym(lib, a, b);                                                                 \
        memcpy(&api.field, &p_, sizeof p_);                                                        \
    } while (0)

static void resolve(void *lib) {
    RESOLVE(init, "nvmlInit_v2", "nvmlInit");
    RESOLVE(shutdown, "nvmlShutdown", NULL);
    RESOLVE(error_string, "nvmlErrorString", NULL);
    RESOLVE(handle_by_pci, "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId");
    RESOLVE(clock, "nvmlDeviceGetClockInfo", NULL);
    RESOLVE(max_clock, "nvmlDeviceGetMaxClockInfo", NULL);
    RESOLVE(power, "nvmlDeviceGetPowerUsage", NULL);
    RESOLVE(energy, "nvmlDeviceGetTotalEnergyConsumption", NULL);
    RESOLVE(temperature, "nvmlDeviceGetTemperature", NULL);
    RESOLVE(reasons, "nvmlDeviceGetCurrentClocksEventReasons",
            "nvmlDeviceGetCurrentClocksThrottleReasons");
    RESOLVE(pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration", NULL);
    RESOLVE(pcie_width, "nvmlDeviceGetCurrPcieLinkWidth", NULL);
    RESOLVE(pcie_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration", NULL);
    RESOLVE(pcie_width_max, "nvmlDeviceGetMaxPcieLinkWidth", NULL);
    RESOLVE(ecc, "nvmlDeviceGetEccMode", NULL);
    RESOLVE(persistence, "nvmlDeviceGetPersistenceMode", NULL);
    RESOLVE(utilization, "nvmlDeviceGetUtilizationRates", NULL);
    /* The process lists: the _v3 or _v2 entry point fills 24-byte records, the unversioned one
     * 16-byte records (nvml.h). */
    static const char *const names[2][3] = {
        {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2",
         "nvmlDeviceGetComputeRunningProcesses"},
        {"nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2",
         "nvmlDeviceGetGraphicsRunningProcesses"}};
    for (int i = 0; i < 2; i++) {
        void *p = sym(lib, names[i][0], names[i][1]);
        api.procs_size[i] = sizeof(struct gb_nvml_proc_v2);
        if (!p) {
            p = sym(lib, names[i][2], NULL);
            api.procs_size[i] = sizeof(struct gb_nvml_proc_v1);
        }
        memcpy(&api.procs[i], &p, sizeof p);
    }
    RESOLVE(count, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
    RESOLVE(handle_by_index, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
    RESOLVE(name, "nvmlDeviceGetName", NULL);
    RESOLVE(cuda_cc, "nvmlDeviceGetCudaComputeCapability", NULL);
    RESOLVE(memory, "nvmlDeviceGetMemoryInfo", NULL);
    RESOLVE(driver_version, "nvmlSystemGetDriverVersion", NULL);
    RESOLVE(cuda_driver_version, "nvmlSystemGetCudaDriverVersion_v2",
            "nvmlSystemGetCudaDriverVersion");
}

const char *gb_nvml_error_name(gb_nvml_return r) {
    const char *s = api.error_string ? api.error_string(r) : NULL;
    return s ? s : "unknown NVML error";
}

const struct gb_nvml *gb_nvml_load(char *why, size_t whylen) {
    if (!loaded) {
        loaded = -1;
        /* RTLD_LOCAL: its symbols stay out of the global namespace (a test's fake included). */
        void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char *e = dlerror();
            snprintf(load_why, sizeof load_why, "NVML not available: %s",
                     e ? e : "libnvidia-ml.so.1 not found");
        } else {
            resolve(lib);
            gb_nvml_return r = api.init ? api.init() : -1;
            if (!api.init)
                snprintf(load_why, sizeof load_why, "NVML not available: no nvmlInit");
            else if (r != GB_NVML_SUCCESS)
                snprintf(load_why, sizeof load_why, "NVML not available: nvmlInit: %s",
                         gb_nvml_error_name(r));
            else
                loaded = 1;
            /* The library stays open for the process: handles and entry points point into it. */
        }
    }
    if (loaded < 0)
        snprintf(why, whylen, "%s", load_why);
    return loaded > 0 ? &api : NULL;
}

int gb_nvml_device(const struct gb_nvml *n, const char *bus_id, gb_nvml_dev *dev, char *why,
                   size_t whylen) {
    *dev = NULL;
    if (!n->handle_by_pci) {
        snprintf(why, whylen, "NVML has no nvmlDeviceGetHandleByPciBusId");
        return -1;
    }
    if (!bus_id || !bus_id[0]) {
        snprintf(why, whylen, "the GPU's PCI bus id is unknown, so NVML cannot find it");
        return -1;
    }
    gb_nvml_return r = n->handle_by_pci(bus_id, dev);
    if (r != GB_NVML_SUCCESS) {
        snprintf(why, whylen, "nvmlDeviceGetHandleByPciBusId(%s): %s", bus_id,
                 gb_nvml_error_name(r));
        *dev = NULL;
        return -1;
    }
    return 0;
}

/* The pid of record i of a list of `size`-byte records (both layouts start with it). */
static unsigned record_pid(const unsigned char *records, size_t size, unsigned i) {
    unsigned pid;
    memcpy(&pid, records + (size_t)i * size, sizeof pid);
    return pid;
}

int gb_nvml_processes(const struct gb_nvml *n, gb_nvml_dev dev, unsigned *pids, int max,
                      int *named) {
    enum { CAP = 64 };
    struct gb_nvml_proc_v2 records[CAP]; /* room for CAP of either layout */
    int total = 0, any = 0;
    *named = 1;
    for (int k = 0; k < 2; k++) {
        unsigned count = CAP;
        if (!n->procs[k])
            continue;
        gb_nvml_return r = n->procs[k](dev, &count, records);
        if (r == GB_NVML_ERROR_INSUFFICIENT_SIZE) { /* count is how many there are */
            any = 1;
            *named = 0;
            total = (int)count > total ? (int)count : total;
            continue;
        }
        if (r != GB_NVML_SUCCESS)
            continue;
        any = 1;
        for (unsigned i = 0; i < count && i < CAP; i++) {
            unsigned pid = record_pid((const unsigned char *)records, n->procs_size[k], i);
            int seen = 0;
            for (int j = 0; j < total && j < max; j++)
                seen |= pids[j] == pid;
            if (seen) /* a process with a compute and a graphics context is one process */
                continue;
            if (total < max)
                pids[total] = pid;
            else
                *named = 0;
            total++;
        }
    }
    return any ? total : -1;
}

void gb_nvml_missing(const struct gb_nvml *n, char *out, size_t outlen) {
    const struct {
        int present;
        const char *name;
    } f[] = {
        {n->clock != NULL, "nvmlDeviceGetClockInfo"},
        {n->max_clock != NULL, "nvmlDeviceGetMaxClockInfo"},
        {n->power != NULL, "nvmlDeviceGetPowerUsage"},
        {n->energy != NULL, "nvmlDeviceGetTotalEnergyConsumption"},
        {n->temperature != NULL, "nvmlDeviceGetTemperature"},
        {n->reasons != NULL, "nvmlDeviceGetCurrentClocksEventReasons"},
        {n->pcie_gen != NULL, "nvmlDeviceGetCurrPcieLinkGeneration"},
        {n->pcie_width != NULL, "nvmlDeviceGetCurrPcieLinkWidth"},
        {n->pcie_gen_max != NULL, "nvmlDeviceGetMaxPcieLinkGeneration"},
        {n->pcie_width_max != NULL, "nvmlDeviceGetMaxPcieLinkWidth"},
        {n->ecc != NULL, "nvmlDeviceGetEccMode"},
        {n->persistence != NULL, "nvmlDeviceGetPersistenceMode"},
        {n->procs[0] != NULL, "nvmlDeviceGetComputeRunningProcesses"},
        {n->procs[1] != NULL, "nvmlDeviceGetGraphicsRunningProcesses"},
        {n->utilization != NULL, "nvmlDeviceGetUtilizationRates"},
    };
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!f[i].present && len < outlen)
            len += (size_t)snprintf(out + len, outlen - len, "%s%s", len ? ", " : "", f[i].name);
}
