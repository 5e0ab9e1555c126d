/* nvml.c — the simulated driver's NVML: libnvidia-ml.so.1 for the cards of GPUBENCH_SIM, as the
 * real driver offers it beside libcuda (test-only code; README.md, "NVML").
 *
 * It reads the same machine as the runtime stand-in (core.c: the profiles, the one driver of the
 * machine, each device's memory in use), so NVML and CUDA agree, and it answers even when the
 * CUDA runtime cannot start: a Kepler card on its last driver (R470, CUDA 11.4) under a CUDA 13
 * runtime is cudaErrorInsufficientDriver to cudaGetDeviceCount, but NVML names it, as the real
 * driver does. What the simulation does not model (clocks, power, energy, temperature, throttle
 * reasons, PCIe link, ECC and persistence modes) is NVML_ERROR_NOT_SUPPORTED, so that telemetry
 * columns stay empty rather than invented.
 *
 * Other processes: GPUBENCH_SIM_FOREIGN_PROCESS=<pid> puts one foreign compute process on every
 * card (256 MiB, and the card 100% busy); without it the card runs only this process's context
 * (listed once the process has one) and reads 0% busy.
 *
 * The types are NVML's ABI (nvml.h of every driver since 2011; nvmlProcessInfo_t's layouts of
 * the unversioned, _v2 and _v3 entry points as in the CUDA 12/13 nvml.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/sim/sim.h"

typedef int nvmlReturn_t;
typedef struct gbsim_nvml_dev *nvmlDevice_t;

/* nvmlReturn_t values (nvml.h). */
enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_UNKNOWN = 999,
};

enum { NVML_COMPUTEMODE_DEFAULT = 0, NVML_COMPUTEMODE_EXCLUSIVE_PROCESS = 3 };
#define NVML_VALUE_NOT_AVAILABLE_UINT 0xffffffffu

typedef struct {
    unsigned long long total, free, used;
} nvmlMemory_t;

typedef struct {
    unsigned gpu, memory; /* percent of the last sample period */
} nvmlUtilization_t;

typedef struct { /* nvmlProcessInfo_v1_t: the unversioned entry points */
    unsigned pid;
    unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;

typedef struct { /* nvmlProcessInfo_t: the _v2 and _v3 entry points */
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;

/* One handle per simulated device; the handle is its address, as NVML's are opaque pointers. */
struct gbsim_nvml_dev {
    int ordinal;
};
static struct gbsim_nvml_dev handles[GBSIM_MAX_DEVICES];
static int inits; /* nvmlInit minus nvmlShutdown calls */

GBSIM_API const char *nvmlErrorString(nvmlReturn_t r) {
    switch (r) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    default: return "Unknown Error";
    }
}

/* Nothing simulated is a machine without a driver: NVML cannot start there. */
static nvmlReturn_t init(void) {
    if (gbsim_device_count() == 0)
        return NVML_ERROR_DRIVER_NOT_LOADED;
    for (int i = 0; i < GBSIM_MAX_DEVICES; i++)
        handles[i].ordinal = i;
    __atomic_add_fetch(&inits, 1, __ATOMIC_ACQ_REL);
    return NVML_SUCCESS;
}

GBSIM_API nvmlReturn_t nvmlInit_v2(void) {
    return init();
}

GBSIM_API nvmlReturn_t nvmlInit(void) {
    return init();
}

GBSIM_API nvmlReturn_t nvmlShutdown(void) {
    int n = __atomic_load_n(&inits, __ATOMIC_ACQUIRE);
    if (n <= 0)
        return NVML_ERROR_UNINITIALIZED;
    __atomic_sub_fetch(&inits, 1, __ATOMIC_ACQ_REL);
    return NVML_SUCCESS;
}

static int ready(void) {
    return __atomic_load_n(&inits, __ATOMIC_ACQUIRE) > 0;
}

/* The device behind handle h, or NULL (and *r set) when NVML is not initialised or h is not one
 * of ours. */
static struct gbsim_device *dev_of(nvmlDevice_t h, nvmlReturn_t *r) {
    if (!ready()) {
        *r = NVML_ERROR_UNINITIALIZED;
        return NULL;
    }
    if (h < &handles[0] || h >= &handles[GBSIM_MAX_DEVICES] || !gbsim_device(h->ordinal)) {
        *r = NVML_ERROR_INVALID_ARGUMENT;
        return NULL;
    }
    if (gbsim_gone()) { /* GPUBENCH_SIM_GONE (core.c): the card fell off the bus */
        *r = NVML_ERROR_GPU_IS_LOST;
        return NULL;
    }
    *r = NVML_SUCCESS;
    return gbsim_device(h->ordinal);
}

/* Copy s into out[len], as NVML's string getters do: NVML_ERROR_INSUFFICIENT_SIZE when short. */
static nvmlReturn_t put_string(const char *s, char *out, unsigned len) {
    if (!out)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(s) + 1 > len)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(out, s, strlen(s) + 1);
    return NVML_SUCCESS;
}

/* --- the system ------------------------------------------------------------------------------- */

/* The machine's one driver (core.c: the newest that supports every card): its version string. */
GBSIM_API nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned length) {
    if (!ready())
        return NVML_ERROR_UNINITIALIZED;
    for (int i = 0; i < gbsim_device_count(); i++)
        if (gbsim_device(i)->p->driver_cuda == gbsim_driver_version())
            return put_string(gbsim_device(i)->p->driver, version, length);
    return NVML_ERROR_UNKNOWN;
}

/* The CUDA version the driver supports, as cuDriverGetVersion reports it (11040 = 11.4). */
GBSIM_API nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *version) {
    if (!ready())
        return NVML_ERROR_UNINITIALIZED;
    if (!version)
        return NVML_ERROR_INVALID_ARGUMENT;
    *version = gbsim_driver_version();
    return NVML_SUCCESS;
}

GBSIM_API nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *version) {
    return nvmlSystemGetCudaDriverVersion(version);
}

/* --- devices ---------------------------------------------------------------------------------- */

GBSIM_API nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *count) {
    if (!ready())
        return NVML_ERROR_UNINITIALIZED;
    if (!count)
        return NVML_ERROR_INVALID_ARGUMENT;
    *count = (unsigned)gbsim_device_count();
    return NVML_SUCCESS;
}

GBSIM_API nvmlReturn_t nvmlDeviceGetCount(unsigned *count) {
    return nvmlDeviceGetCount_v2(count);
}

GBSIM_API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t *device) {
    if (!ready())
        return NVML_ERROR_UNINITIALIZED;
    if (!device || index >= (unsigned)gbsim_device_count())
        return NVML_ERROR_INVALID_ARGUMENT;
    if (gbsim_gone()) /* the lost card is still counted: its handle is refused (nvml.h) */
        return NVML_ERROR_GPU_IS_LOST;
    *device = &handles[index];
    return NVML_SUCCESS;
}

GBSIM_API nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned index, nvmlDevice_t *device) {
    return nvmlDeviceGetHandleByIndex_v2(index, device);
}

/* The bus id as cudaDeviceGetPCIBusId gives it ("0000:81:00.0", cudart.c: bus 0x81 + ordinal)
 * or as NVML writes it ("00000000:81:00.0"); NVML accepts both. */
static nvmlReturn_t by_pci(const char *bus_id, nvmlDevice_t *device) {
    unsigned domain, bus, slot, fn;
    if (!ready())
        return NVML_ERROR_UNINITIALIZED;
    if (!bus_id || !device || sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
        return NVML_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < gbsim_device_count(); i++)
        if (domain == 0 && bus == 0x81u + (unsigned)i && slot == 0 && fn == 0) {
            if (gbsim_gone())
                return NVML_ERROR_GPU_IS_LOST;
            *device = &handles[i];
            return NVML_SUCCESS;
        }
    return NVML_ERROR_NOT_FOUND;
}

GBSIM_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, nvmlDevice_t *device) {
    return by_pci(bus_id, device);
}

GBSIM_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *bus_id, nvmlDevice_t *device) {
    return by_pci(bus_id, device);
}

/* The name the runtime gives the device too (cudart.c), "simulated Tesla K40m": a real driver's
 * NVML and CUDA agree, and a simulated card is never taken for a real one. */
GBSIM_API nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t h, char *name, unsigned length) {
    nvmlReturn_t r;
    struct gbsim_device *d = dev_of(h, &r);
    char buf[128];
    if (!d)
        return r;
    snprintf(buf, sizeof buf, "simulated %s", d->p->name);
    return put_string(buf, name, length);
}

GBSIM_API nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t h, int *major, int *minor) {
    nvmlReturn_t r;
    struct gbsim_device *d = dev_of(h, &r);
    if (!d)
        return r;
    if (!major || !minor)
        return NVML_ERROR_INVALID_ARGUMENT;
    *major = d->p->major;
    *minor = d->p->minor;
    return NVML_SUCCESS;
}

/* Total as the card reports it; used is the driver's reservation plus what this process holds. */
GBSIM_API nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t h, nvmlMemory_t *mem) {
    nvmlReturn_t r;
    struct gbsim_device *d = dev_of(h, &r);
    if (!d)
        return r;
    if (!mem)
        return NVML_ERROR_INVALID_ARGUMENT;
    gbsim_lock();
    mem->total = d->p->mem_bytes;
    mem->used = d->reserved + d->used;
    gbsim_unlock();
    mem->free = mem->total > mem->used ? mem->total - mem->used : 0;
    return NVML_SUCCESS;
}

GBSIM_API nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t h, int *mode) {
    nvmlReturn_t r;
    struct gbsim_device *d = dev_of(h, &r);
    if (!d)
        return r;
    if (!mode)
        return NVML_ERROR_INVALID_ARGUMENT;
    *mode = d->exclusive ? NVML_COMPUTEMODE_EXCLUSIVE_PROCESS : NVML_COMPUTEMODE_DEFAULT;
    return NVML_SUCCESS;
}

/* --- other processes -------------------------------------------------------------------------- */

enum { FOREIGN_MIB = 256 };

/* GPUBENCH_SIM_FOREIGN_PROCESS's process id, or 0 when unset. A value that is not a process id
 * ends the process with a message (a test that mistyped it must not pass quietly). */
static unsigned foreign_pid(void) {
    const char *s = getenv("GPUBENCH_SIM_FOREIGN_PROCESS");
    char *end;
    unsigned long v;
    if (!s || !s[0])
        return 0;
    v = strtoul(s, &end, 10);
    if (*end || v == 0 || v > 0x7fffffffUL || s[0] == '-' || s[0] == '+') {
        fprintf(stderr,
                "gbsim: GPUBENCH_SIM_FOREIGN_PROCESS=%s: give a process id (a positive "
                "number)\n",
                s);
        exit(2);
    }
    return (unsigned)v;
}

/* The compute processes on d: this process once it has a context there, then the foreign one. */
static int processes(struct gbsim_device *d, nvmlProcessInfo_t out[2]) {
    int n = 0;
    if (__atomic_load_n(&d->has_context, __ATOMIC_ACQUIRE)) {
        out[n].pid = (unsigned)getpid();
        gbsim_lock();
        out[n].usedGpuMemory = d->used;
        gbsim_unlock();
        n++;
    }
    if (foreign_pid()) {
        out[n].pid = foreign_pid();
        out[n].usedGpuMemory = (unsigned long long)FOREIGN_MIB << 20;
        n++;
    }
    for (int i = 0; i < n; i++) /* not a MIG instance */
        out[i].gpuInstanceId = out[i].computeInstanceId = NVML_VALUE_NOT_AVAILABLE_UINT;
    return n;
}

/* NVML's contract: *count in is the room in `infos`; out, the number of processes. Too little
 * room (a count query with 0 included) is NVML_ERROR_INSUFFICIENT_SIZE when there are any. */
static nvmlReturn_t list(nvmlDevice_t h, unsigned *count, void *infos, int v1, int graphics) {
    nvmlProcessInfo_t p[2];
    nvmlReturn_t r;
    struct gbsim_device *d = dev_of(h, &r);
    unsigned n;
    if (!d)
        return r;
    if (!count)
        return NVML_ERROR_INVALID_ARGUMENT;
    n = graphics ? 0 : (unsigned)processes(d, p); /* no display work is simulated */
    if (*count < n) {
        *count = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (n && !infos)
        return NVML_ERROR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < n; i++) {
        if (v1) {
            nvmlProcessInfo_v1_t *o = (nvmlProcessInfo_v1_t *)infos + i;
            o->pid = p[i].pid;
            o->usedGpuMemory = p[i].usedGpuMemory;
        } else {
            ((nvmlProcessInfo_t *)infos)[i] = p[i];
        }
    }
    *count = n;
    return NVML_SUCCESS;
}

GBSIM_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t h, unsigned *count,
                                                               nvmlProcessInfo_t *infos) {
    return list(h, count, infos, 0, 0);
}

GBSIM_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t h, unsigned *count,
                                                               nvmlProcessInfo_t *infos) {
    return list(h, count, infos, 0, 0);
}

GBSIM_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t h, unsigned *count,
                                                            nvmlProcessInfo_v1_t *infos) {
    return list(h, count, infos, 1, 0);
}

GBSIM_API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t h, unsigned *count,
                                                                nvmlProcessInfo_t *infos) {
    return list(h, count, infos, 0, 1);
}

GBSIM_API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t h, unsigned *count,
                                                                nvmlProcessInfo_t *infos) {
    return list(h, count, infos, 0, 1);
}

GBSIM_API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t h, unsigned *count,
                                                             nvmlProcessInfo_v1_t *infos) {
    return list(h, count, infos, 1, 1);
}

/* Busy only with the foreign process: this process's own kernels are not sampled. */
GBSIM_API nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t h, nvmlUtilization_t *u) {
    nvmlReturn_t r;
    struct gbsim_device *d = dev_of(h, &r);
    if (!d)
        return r;
    if (!u)
        return NVML_ERROR_INVALID_ARGUMENT;
    u->gpu = foreign_pid() ? 100 : 0;
    u->memory = foreign_pid() ? 50 : 0;
    return NVML_SUCCESS;
}

/* --- not modelled: telemetry (harness/telemetry/nvml.c looks each of these up) ---------------- */
/* Their arguments are unused: every call is refused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define NOT_MODELLED(name, ...)                                                                    \
    GBSIM_API nvmlReturn_t name(nvmlDevice_t h, __VA_ARGS__) {                                     \
        nvmlReturn_t r;                                                                            \
        return dev_of(h, &r) ? NVML_ERROR_NOT_SUPPORTED : r;                                       \
    }
NOT_MODELLED(nvmlDeviceGetClockInfo, int type, unsigned *mhz)
NOT_MODELLED(nvmlDeviceGetMaxClockInfo, int type, unsigned *mhz)
NOT_MODELLED(nvmlDeviceGetPowerUsage, unsigned *mw)
NOT_MODELLED(nvmlDeviceGetTotalEnergyConsumption, unsigned long long *mj)
NOT_MODELLED(nvmlDeviceGetTemperature, int sensor, unsigned *celsius)
NOT_MODELLED(nvmlDeviceGetCurrentClocksEventReasons, unsigned long long *reasons)
NOT_MODELLED(nvmlDeviceGetCurrentClocksThrottleReasons, unsigned long long *reasons)
NOT_MODELLED(nvmlDeviceGetCurrPcieLinkGeneration, unsigned *gen)
NOT_MODELLED(nvmlDeviceGetCurrPcieLinkWidth, unsigned *lanes)
NOT_MODELLED(nvmlDeviceGetMaxPcieLinkGeneration, unsigned *gen)
NOT_MODELLED(nvmlDeviceGetMaxPcieLinkWidth, unsigned *lanes)
NOT_MODELLED(nvmlDeviceGetEccMode, int *current, int *pending)
NOT_MODELLED(nvmlDeviceGetPersistenceMode, int *mode)
