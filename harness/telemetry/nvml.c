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
    };
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!f[i].present && len < outlen)
            len += (size_t)snprintf(out + len, outlen - len, "%s%s", len ? ", " : "", f[i].name);
}
