/* fake_nvml.c — a test-only libnvidia-ml.so.1 that plays scripted cards, so that the telemetry
 * code runs its NVML path on a machine without a GPU. Tests put its folder first on
 * LD_LIBRARY_PATH (the loader path gpubench's dlopen uses) and pick a card with
 * FAKE_NVML_SCENARIO:
 *   full      a Volta-class card: energy counter, 250 W, 1530/877 MHz, PCIe 3.0 x16, ECC on
 *   nopower   a GeForce/Fermi board without a power sensor: power and energy not supported
 *   throttle  a hot card held by its power cap: clocks fall 1500 → 1100 MHz, 92 °C,
 *             reasons sw_power_cap + hw_thermal
 *   pcie2x8   a PCIe 3.0 x16 card in a PCIe 2.0 x8 slot
 *   noinit    a driver that is not loaded: nvmlInit fails
 *   shared    a neighbour: besides the caller, process 4242 holds a compute context and 4343 a
 *             graphics one (the caller's pid is in both lists, as a process with both is)
 *   busy      no other process listed, but the card is 37% busy (a neighbour NVML cannot list)
 *   namespace the caller in a container: NVML lists host pids 900001 and 900002, neither the
 *             caller's own (one of them is the caller)
 *   child     the caller and its child FAKE_NVML_CHILD_PID hold compute contexts (a ptx_jit
 *             row's fresh process): no neighbour
 * Every other scenario lists the caller's own compute context and reads 0% utilisation.
 * Built a second time with FAKE_OLD_DRIVER: a driver from before nvmlInit_v2, the _v2 handle
 * lookup, nvmlDeviceGetTotalEnergyConsumption, the "clocks event" name (it has the old
 * nvmlDeviceGetCurrentClocksThrottleReasons) and the _v2/_v3 process lists (it has the
 * unversioned ones, whose records are nvml.h's 16-byte nvmlProcessInfo_v1_t; the new build's _v3
 * fill the 24-byte nvmlProcessInfo_v2_t, and its unversioned ones the 16-byte records, so a
 * reader that takes the wrong layout reads a wrong pid). The one GPU is at PCI bus id
 * 0000:01:00.0. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int nvmlReturn_t;
typedef struct fake_dev *nvmlDevice_t;
enum { OK = 0, NOT_SUPPORTED = 3, NOT_FOUND = 6, DRIVER_NOT_LOADED = 9 };

static struct fake_dev {
    int unused;
} the_gpu;
static int calls; /* clock reads so far: the throttling card slows down after the first */

static int is(const char *name) {
    const char *s = getenv("FAKE_NVML_SCENARIO");
    return s && strcmp(s, name) == 0;
}

#ifndef FAKE_OLD_DRIVER
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
#endif

static double watts(void) {
    return is("throttle") ? 149.0 : 250.0;
}

nvmlReturn_t nvmlInit(void) {
    return is("noinit") ? DRIVER_NOT_LOADED : OK;
}
#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlInit_v2(void) {
    return nvmlInit();
}
#endif
nvmlReturn_t nvmlShutdown(void) {
    return OK;
}
const char *nvmlErrorString(nvmlReturn_t r) {
    return r == NOT_SUPPORTED ? "Not Supported"
           : r == NOT_FOUND   ? "Not Found"
           : r == DRIVER_NOT_LOADED ? "Driver Not Loaded"
                                    : "Unknown Error";
}

static nvmlReturn_t by_pci(const char *bus, nvmlDevice_t *dev) {
    if (strcmp(bus, "0000:01:00.0") != 0)
        return NOT_FOUND;
    *dev = &the_gpu;
    return OK;
}
nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *bus, nvmlDevice_t *dev) {
    return by_pci(bus, dev);
}
#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvmlDevice_t *dev) {
    return by_pci(bus, dev);
}
#endif

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned *mhz) {
    (void)d;
    if (type == 2)
        *mhz = 877;
    else
        *mhz = is("throttle") ? (calls++ ? 1100 : 1500) : 1530;
    return OK;
}
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned *mhz) {
    (void)d;
    *mhz = type == 2 ? 877 : 1530;
    return OK;
}
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned *mw) {
    (void)d;
    if (is("nopower"))
        return NOT_SUPPORTED;
    *mw = (unsigned)(watts() * 1000);
    return OK;
}
#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *mj) {
    (void)d;
    if (is("nopower"))
        return NOT_SUPPORTED;
    *mj = 123456789ULL + (unsigned long long)(now_s() * watts() * 1000.0);
    return OK;
}
#endif
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned *c) {
    (void)d;
    (void)sensor;
    *c = is("throttle") ? 92 : 65;
    return OK;
}
static nvmlReturn_t reasons(unsigned long long *bits) {
    *bits = is("throttle") ? 0x4ULL | 0x40ULL : 0;
    return OK;
}
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long *bits) {
    (void)d;
    return reasons(bits);
}
#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *bits) {
    (void)d;
    return reasons(bits);
}
#endif
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned *v) {
    (void)d;
    *v = is("pcie2x8") ? 2 : 3;
    return OK;
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned *v) {
    (void)d;
    *v = is("pcie2x8") ? 8 : 16;
    return OK;
}
nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned *v) {
    (void)d;
    *v = 3;
    return OK;
}
nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned *v) {
    (void)d;
    *v = 16;
    return OK;
}
nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, int *cur, int *pending) {
    (void)d;
    if (is("nopower"))
        return NOT_SUPPORTED; /* GeForce boards have no ECC */
    *cur = *pending = 1;
    return OK;
}
nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int *mode) {
    (void)d;
    *mode = 1;
    return OK;
}

/* --- processes and utilisation ---------------------------------------------------------------- */

struct proc_v1 { /* nvmlProcessInfo_v1_t */
    unsigned pid;
    unsigned long long used_memory;
};
struct proc_v2 { /* nvmlProcessInfo_v2_t, nvmlProcessInfo_t of the _v2 and _v3 entry points */
    unsigned pid;
    unsigned long long used_memory;
    unsigned gpu_instance, compute_instance;
};

/* The pids of the compute (graphics = 0) or graphics list of this scenario. */
static unsigned list(int graphics, unsigned pids[4]) {
    unsigned self = (unsigned)getpid();
    if (is("namespace")) {
        if (graphics)
            return 0;
        pids[0] = 900001;
        pids[1] = 900002;
        return 2;
    }
    if (is("shared")) {
        pids[0] = graphics ? 4343 : self;
        pids[1] = graphics ? self : 4242;
        return 2;
    }
    if (graphics)
        return 0;
    pids[0] = self;
    if (is("child") && getenv("FAKE_NVML_CHILD_PID")) {
        pids[1] = (unsigned)atoi(getenv("FAKE_NVML_CHILD_PID"));
        return 2;
    }
    return 1;
}

/* Fill `infos` with records of `size` bytes, as NVML does: INSUFFICIENT_SIZE (7) with the count
 * needed when *count is too small. */
static nvmlReturn_t fill(int graphics, unsigned *count, void *infos, size_t size) {
    unsigned pids[4], n = list(graphics, pids);
    if (*count < n) {
        *count = n;
        return 7;
    }
    *count = n;
    for (unsigned i = 0; i < n; i++) {
        struct proc_v2 r = {pids[i], 1ULL << 28, 0xffffffffu, 0xffffffffu};
        memcpy((char *)infos + i * size, &r, size); /* the v1 record is the v2's first 16 bytes */
    }
    return OK;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t d, unsigned *count,
                                                  struct proc_v1 *infos) {
    (void)d;
    return fill(0, count, infos, sizeof(struct proc_v1));
}
nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t d, unsigned *count,
                                                   struct proc_v1 *infos) {
    (void)d;
    return fill(1, count, infos, sizeof(struct proc_v1));
}
#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned *count,
                                                     struct proc_v2 *infos) {
    (void)d;
    return fill(0, count, infos, sizeof(struct proc_v2));
}
nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t d, unsigned *count,
                                                      struct proc_v2 *infos) {
    (void)d;
    return fill(1, count, infos, sizeof(struct proc_v2));
}
#endif

struct utilization { /* nvmlUtilization_t */
    unsigned gpu, memory;
};
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, struct utilization *u) {
    (void)d;
    u->gpu = is("busy") ? 37 : 0;
    u->memory = is("busy") ? 12 : 0;
    return OK;
}
