/* nvml.h — the few NVML functions gpubench uses, declared here and resolved at run time.
 *
 * libnvidia-ml.so.1 ships with the driver, not the toolkit, so gpubench never links it: it is
 * opened with dlopen and every function is looked up with dlsym. A driver without NVML, or an
 * old one without a function (nvmlDeviceGetTotalEnergyConsumption came with Volta-era drivers,
 * the _v2 entry points with 2012's), leaves that pointer NULL and the metric "not available".
 * The types are NVML's own ABI (nvml.h of every driver since 2011): plain ints, unsigned ints and
 * an opaque device pointer, so the declarations below need no NVIDIA header.
 */
#ifndef GPUBENCH_NVML_H
#define GPUBENCH_NVML_H

#include <stddef.h>

typedef int gb_nvml_return;                  /* nvmlReturn_t: 0 is NVML_SUCCESS */
typedef struct gb_nvml_device_ *gb_nvml_dev; /* nvmlDevice_t */

enum {
    GB_NVML_SUCCESS = 0,
    GB_NVML_CLOCK_SM = 1,  /* nvmlClockType_t NVML_CLOCK_SM */
    GB_NVML_CLOCK_MEM = 2, /* NVML_CLOCK_MEM */
    GB_NVML_TEMP_GPU = 0,  /* nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU */
    GB_NVML_ERROR_INSUFFICIENT_SIZE = 7, /* a list longer than the array given */
};

/* The records nvmlDeviceGet{Compute,Graphics}RunningProcesses fill, one per process with a
 * context on the device. NVML's nvml.h has two layouts: nvmlProcessInfo_v1_t {pid,
 * usedGpuMemory}, 16 bytes, for the unversioned entry points (every driver since 2011), and
 * nvmlProcessInfo_v2_t {pid, usedGpuMemory, gpuInstanceId, computeInstanceId}, 24 bytes, for
 * the _v2 (R470) and _v3 (R510) entry points (nvml.h also calls it nvmlProcessInfo_t). Only the
 * pid is read: struct gb_nvml's procs_size says which layout its function fills. */
struct gb_nvml_proc_v1 {
    unsigned pid;
    unsigned long long used_memory;
};
struct gb_nvml_proc_v2 {
    unsigned pid;
    unsigned long long used_memory;
    unsigned gpu_instance, compute_instance;
};

/* nvmlUtilization_t: the percent of the last sample period (1/6 s to 1 s, by product) during
 * which a kernel ran (gpu) or device memory was read or written (memory). */
struct gb_nvml_util {
    unsigned gpu, memory;
};

/* nvmlClocksEventReasons (formerly ClocksThrottleReasons) bits. */
#define GB_NVML_REASON_IDLE 0x1ULL
#define GB_NVML_REASON_APP_CLOCKS 0x2ULL
#define GB_NVML_REASON_SW_POWER_CAP 0x4ULL
#define GB_NVML_REASON_HW_SLOWDOWN 0x8ULL
#define GB_NVML_REASON_SYNC_BOOST 0x10ULL
#define GB_NVML_REASON_SW_THERMAL 0x20ULL
#define GB_NVML_REASON_HW_THERMAL 0x40ULL
#define GB_NVML_REASON_HW_POWER_BRAKE 0x80ULL
#define GB_NVML_REASON_DISPLAY_CLOCKS 0x100ULL

/* nvmlMemory_t: bytes. */
struct gb_nvml_memory {
    unsigned long long total, free, used;
};

/* The resolved entry points; any may be NULL (not in this driver). */
struct gb_nvml {
    gb_nvml_return (*init)(void); /* nvmlInit_v2, else nvmlInit */
    gb_nvml_return (*shutdown)(void);
    const char *(*error_string)(gb_nvml_return);
    /* nvmlDeviceGetHandleByPciBusId_v2, else nvmlDeviceGetHandleByPciBusId */
    gb_nvml_return (*handle_by_pci)(const char *bus_id, gb_nvml_dev *dev);
    gb_nvml_return (*clock)(gb_nvml_dev, int type, unsigned *mhz);     /* GetClockInfo */
    gb_nvml_return (*max_clock)(gb_nvml_dev, int type, unsigned *mhz); /* GetMaxClockInfo */
    gb_nvml_return (*power)(gb_nvml_dev, unsigned *mw);                /* GetPowerUsage */
    gb_nvml_return (*energy)(gb_nvml_dev, unsigned long long *mj); /* GetTotalEnergyConsumption */
    gb_nvml_return (*temperature)(gb_nvml_dev, int sensor, unsigned *c);
    /* GetCurrentClocksEventReasons, else GetCurrentClocksThrottleReasons */
    gb_nvml_return (*reasons)(gb_nvml_dev, unsigned long long *bits);
    gb_nvml_return (*pcie_gen)(gb_nvml_dev, unsigned *gen);         /* GetCurrPcieLinkGeneration */
    gb_nvml_return (*pcie_width)(gb_nvml_dev, unsigned *lanes);     /* GetCurrPcieLinkWidth */
    gb_nvml_return (*pcie_gen_max)(gb_nvml_dev, unsigned *gen);     /* GetMaxPcieLinkGeneration */
    gb_nvml_return (*pcie_width_max)(gb_nvml_dev, unsigned *lanes); /* GetMaxPcieLinkWidth */
    gb_nvml_return (*ecc)(gb_nvml_dev, int *current, int *pending); /* GetEccMode */
    gb_nvml_return (*persistence)(gb_nvml_dev, int *mode);          /* GetPersistenceMode */
    /* [0] GetComputeRunningProcesses, [1] GetGraphicsRunningProcesses: _v3, else _v2 (records
     * of 24 bytes), else unversioned (16); procs_size[i] is the record size of procs[i]. */
    gb_nvml_return (*procs[2])(gb_nvml_dev, unsigned *count, void *records);
    size_t procs_size[2];
    gb_nvml_return (*utilization)(gb_nvml_dev, struct gb_nvml_util *); /* GetUtilizationRates */
    /* The cards the driver sees, for `gpubench doctor` when the CUDA runtime cannot start. */
    gb_nvml_return (*count)(unsigned *n); /* nvmlDeviceGetCount_v2, else nvmlDeviceGetCount */
    gb_nvml_return (*handle_by_index)(unsigned i, gb_nvml_dev *dev); /* GetHandleByIndex(_v2) */
    gb_nvml_return (*name)(gb_nvml_dev, char *name, unsigned len);   /* GetName */
    gb_nvml_return (*cuda_cc)(gb_nvml_dev, int *major, int *minor);  /* GetCudaComputeCapability */
    gb_nvml_return (*memory)(gb_nvml_dev, struct gb_nvml_memory *);  /* GetMemoryInfo */
    gb_nvml_return (*driver_version)(char *version, unsigned len); /* nvmlSystemGetDriverVersion */
    /* nvmlSystemGetCudaDriverVersion_v2, else nvmlSystemGetCudaDriverVersion: 11040 = 11.4 */
    gb_nvml_return (*cuda_driver_version)(int *cuda);
};

/* Open libnvidia-ml.so.1 (through the loader path), resolve what it has and call its init, once
 * per process. Returns the table, or NULL with one line in `why` ("libnvidia-ml.so.1: cannot
 * open …", "nvmlInit: …"); later calls return the same answer. */
const struct gb_nvml *gb_nvml_load(char *why, size_t whylen);

/* The NVML handle of the GPU at PCI bus id `bus_id` (cudaDeviceGetPCIBusId's
 * "0000:01:00.0"). Returns 0, or -1 with one line in `why`. */
int gb_nvml_device(const struct gb_nvml *n, const char *bus_id, gb_nvml_dev *dev, char *why,
                   size_t whylen);

/* The processes with a context on `dev` (compute and graphics lists together, each pid once),
 * up to `max` of them into pids. Returns how many there are (it may exceed max: NVML then said
 * how many without naming them, and *named is 0), or -1 when neither list could be read. */
int gb_nvml_processes(const struct gb_nvml *n, gb_nvml_dev dev, unsigned *pids, int max,
                      int *named);
/* NVML's name of error r ("Not Supported"). */
const char *gb_nvml_error_name(gb_nvml_return r);

/* The names of the functions this NVML lacks ("" when it has them all), comma-separated. */
void gb_nvml_missing(const struct gb_nvml *n, char *out, size_t outlen);

#endif
