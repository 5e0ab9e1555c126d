/* cuda_explain.c — CUDA, cuBLAS and cuDNN errors in plain words: one sentence of cause, one of
 * fix, looked up by the error's name. See cuda_explain.h. Pure C: no CUDA headers, so the text is
 * tested in every build and the run's "why no GPU row ran" line uses the same words. */
#include "harness/gpuinfo/cuda_explain.h"

#include <stdio.h>
#include <string.h>

#include "harness/gpuinfo/cuda_facts.h"
#include "harness/gpuinfo/pci_nvidia.h"

struct explanation {
    const char *name;
    const char *cause;
    const char *fix;
};

/* Errors a user meets at start or on a first launch, by name: names are stable across toolkits,
 * numbers are not (docs/ARCHITECTURE.md, "Record errors by name"). */
static const struct explanation table[] = {
    {"cudaErrorStubLibrary", NULL, NULL}, /* handled below: no GPU, or a GPU with no driver */
    /* A GPU lost after a fault (fallen off the bus, Xid 79) is also no device to a new process,
     * while nvidia-smi still lists it as lost: GPUBENCH_SIM_GONE stages it (tests/sim/stage.c). */
    {"cudaErrorNoDevice",
     "The NVIDIA driver is loaded but reports no CUDA device (none installed, all hidden by "
     "CUDA_VISIBLE_DEVICES, the device node is missing inside a container, or the GPU was lost "
     "after a fault: it fell off the bus, dmesg shows Xid 79 and nvidia-smi reports the GPU as "
     "lost)",
     "Check nvidia-smi, dmesg and CUDA_VISIBLE_DEVICES; a lost GPU needs a reset (nvidia-smi -r) "
     "or a reboot; in a container, start it with the GPUs exposed (e.g. docker --gpus all)"},
    {"cudaErrorInvalidDevice",
     "The device number asked for does not exist (CUDA_VISIBLE_DEVICES renumbers devices from 0)",
     "Run gpubench doctor to list the devices and pass one of their numbers to --device"},
    {"cudaErrorNoKernelImageForDevice",
     "This binary has no machine code (SASS) for this GPU's architecture and no PTX it can "
     "compile for it",
     "Run gpubench doctor for this GPU: it names the toolkit and -DCMAKE_CUDA_ARCHITECTURES value "
     "to rebuild with"},
    {"cudaErrorInvalidDeviceFunction",
     "The kernel has no code this GPU can run (older toolkits reported a missing kernel image "
     "this way)",
     "Run gpubench doctor for this GPU: it names the toolkit and -DCMAKE_CUDA_ARCHITECTURES value "
     "to rebuild with"},
    {"cudaErrorUnsupportedPtxVersion",
     "The binary carries only PTX for this GPU, and that PTX is newer than the installed driver "
     "can compile (the driver is older than the toolkit that built it)",
     "Update the driver to one that supports the toolkit version, or rebuild with real code for "
     "this GPU, e.g. -DCMAKE_CUDA_ARCHITECTURES=<cc>-real"},
    {"cudaErrorInvalidPtx", "The driver's JIT compiler rejected the PTX in this binary",
     "Rebuild with real code (SASS) for this GPU's architecture so that no JIT is needed"},
    {"cudaErrorJitCompilerNotFound",
     "The binary needs PTX JIT for this GPU, but the driver's JIT compiler library "
     "(libnvidia-ptxjitcompiler) is missing",
     "Install the complete NVIDIA driver package, or rebuild with real code for this GPU"},
    {"cudaErrorJitCompilationDisabled",
     "The binary needs PTX JIT for this GPU, but JIT is disabled (CUDA_DISABLE_PTX_JIT=1)",
     "Unset CUDA_DISABLE_PTX_JIT, or rebuild with real code for this GPU"},
    {"cudaErrorMemoryAllocation",
     "The GPU ran out of memory for this problem size (other processes may hold memory too)",
     "Use a smaller --shape, or free the GPU (nvidia-smi lists the processes using it)"},
    {"cudaErrorLaunchTimeout",
     "The kernel ran longer than the display watchdog allows on a GPU that also drives a "
     "display, and the driver killed it",
     "Use a smaller --shape, run on a GPU without a display, or stop the X server / display "
     "manager on this GPU"},
    {"cudaErrorLaunchOutOfResources",
     "The kernel asked for more registers, shared memory or threads per block than this GPU has",
     "Report it as a gpubench bug with the output of gpubench doctor; other rows still run"},
    {"cudaErrorIllegalAddress",
     "A kernel read or wrote outside its buffers; the GPU context is lost for the rest of the run",
     "Report it as a gpubench bug with the row's shape; rerun with --impl to skip that "
     "implementation"},
    {"cudaErrorLaunchFailure",
     "A kernel crashed on the GPU; the GPU context is lost for the rest of the run",
     "Check dmesg for Xid errors (a hardware or driver fault), and report the row's shape"},
    {"cudaErrorECCUncorrectable", "The GPU's memory reported an uncorrectable ECC error",
     "Check nvidia-smi -q -d ECC and dmesg; reset the GPU (nvidia-smi -r) or have it serviced"},
    {"cudaErrorDevicesUnavailable",
     "Every GPU is busy or in a compute mode that forbids this process (exclusive-process or "
     "prohibited)",
     "Wait for the other process, or change the compute mode with nvidia-smi -c DEFAULT"},
    {"cudaErrorSystemDriverMismatch",
     "The NVIDIA kernel module and the user-space driver library (libcuda.so) have different "
     "versions, usually after a driver update without a reboot",
     "Reboot, or reload the nvidia kernel modules, so that both are the same version"},
    {"cudaErrorCompatNotSupportedOnDevice",
     "The CUDA forward-compatibility package is installed, but this GPU does not support it "
     "(forward compatibility is for data-center GPUs)",
     "Remove the cuda-compat libraries from the library path and update the driver instead"},
    {"cudaErrorSystemNotReady",
     "The system is not ready for CUDA: on NVSwitch systems the Fabric Manager is not running",
     "Start nvidia-fabricmanager (systemctl start nvidia-fabricmanager) and retry"},
    {"cudaErrorInitializationError",
     "The CUDA driver failed to initialize (often the kernel module is not loaded or the "
     "/dev/nvidia* nodes are missing or not accessible)",
     "Check nvidia-smi and dmesg; load the module (modprobe nvidia) and check permissions on "
     "/dev/nvidia*"},
    {"cudaErrorOperatingSystem", "An operating-system call made by the CUDA driver failed",
     "Check dmesg and the driver installation; in a container check the device cgroup"},
    {"cudaErrorNotPermitted",
     "The operation is not permitted in this environment (e.g. a restricted container or MIG "
     "instance)",
     "Run outside the restriction or ask the administrator which GPU operations are allowed"},
    {"cudaErrorInsufficientDriver", NULL, NULL}, /* handled below: two different causes */
    /* cuBLAS and cuDNN status names, which reach the same notes */
    {"CUBLAS_STATUS_NOT_INITIALIZED",
     "cuBLAS could not start, usually because the CUDA runtime could not (no driver, no device) "
     "or the GPU is out of memory",
     "Run gpubench doctor; it names the underlying CUDA problem"},
    {"CUBLAS_STATUS_ARCH_MISMATCH",
     "This cuBLAS has no code for this GPU's architecture or the call needs a newer one",
     "Use a toolkit whose cuBLAS supports this GPU (gpubench doctor names it)"},
    {"CUBLAS_STATUS_ALLOC_FAILED", "cuBLAS could not allocate GPU memory for its workspace",
     "Use a smaller --shape or free GPU memory"},
    {"CUDNN_STATUS_NOT_INITIALIZED",
     "cuDNN could not start, usually because the CUDA runtime could not (no driver, no device)",
     "Run gpubench doctor; it names the underlying CUDA problem"},
    {"CUDNN_STATUS_ARCH_MISMATCH", "This cuDNN does not support this GPU's architecture",
     "Use a cuDNN release that supports it (gpubench doctor names the last one), or skip the "
     "cudnn rows"},
    {"CUDNN_STATUS_VERSION_MISMATCH",
     "The cuDNN library loaded at run time is not the version gpubench was compiled against",
     "Make LD_LIBRARY_PATH point at the cuDNN gpubench was built with, or rebuild gpubench"},
    {"CUDNN_STATUS_ALLOC_FAILED", "cuDNN could not allocate GPU memory",
     "Use a smaller --shape or free GPU memory"},
    {"CUDNN_STATUS_NOT_SUPPORTED", "cuDNN has no algorithm for this configuration on this GPU",
     "The row is reported as unsupported; other shapes or the cuda implementation still run"},
};
enum { TABLE_LEN = sizeof table / sizeof table[0] };

/* No driver answered (cudaErrorStubLibrary, or cudaErrorInsufficientDriver with no driver
 * version): there is no NVIDIA GPU here at all, or there is one whose driver is not loaded. The
 * PCI bus tells them apart (pci_nvidia.h); where it cannot be read, the driver is named. */
static void explain_no_driver(int stub, char *out, size_t outlen) {
    static const char *const stub_why =
        "the CUDA runtime found only the toolkit's stub libcuda.so (lib64/stubs), which exists "
        "for linking, not for running";
    static const char *const why =
        "the CUDA runtime found no libcuda.so, or its kernel module is not running";
    static const char *const stub_fix =
        " and remove the toolkit's stubs directory from LD_LIBRARY_PATH";
    char bus[256];
    int gpu = pci_nvidia_gpu(bus, sizeof bus);
    if (gpu == 0) {
        snprintf(out, outlen,
                 "No NVIDIA GPU on this machine (no NVIDIA display device on its PCI bus), so "
                 "no GPU row can run here; the CPU rows still do. Run on a machine with an "
                 "NVIDIA GPU for GPU rows.");
        return;
    }
    if (gpu == 1)
        snprintf(out, outlen, "An NVIDIA GPU at PCI %s with no driver loaded: %s. ", bus,
                 stub ? stub_why : why);
    else
        snprintf(out, outlen, "No NVIDIA driver is loaded: %s, so no GPU can be used. ",
                 stub ? stub_why : why);
    size_t n = strlen(out);
    if (n < outlen)
        snprintf(out + n, outlen - n,
                 "Install the NVIDIA driver for this GPU and check that nvidia-smi works%s.",
                 stub ? stub_fix : "");
}

/* cudaErrorInsufficientDriver has two causes that need opposite fixes: no driver at all
 * (cudaDriverGetVersion returned 0) or a driver older than the runtime. */
static void explain_insufficient(int driver_version, int runtime_version, char *out,
                                 size_t outlen) {
    char rt[16], drv[16];
    const char *need, *compat;

    if (driver_version == 0) {
        explain_no_driver(0, out, outlen);
        return;
    }
    cuda_facts_ver_str(runtime_version, rt, sizeof rt);
    cuda_facts_ver_str(driver_version, drv, sizeof drv);
    need = cuda_facts_min_driver(runtime_version);
    compat = cuda_facts_compat_driver(runtime_version);
    if (compat && need && strcmp(compat, need) == 0)
        compat = NULL; /* x.0: the GA minimum is the compatibility minimum */
    if (!need) {
        snprintf(out, outlen,
                 "The NVIDIA driver supports CUDA up to %s, older than the CUDA %s runtime this "
                 "binary uses. Update the driver, or rebuild gpubench with a CUDA toolkit no "
                 "newer than %s.",
                 drv, rt, drv);
        return;
    }
    snprintf(out, outlen,
             "The NVIDIA driver supports CUDA up to %s, older than the CUDA %s runtime this "
             "binary uses (it needs Linux driver >= %s%s%s%s). Update the driver, or, if this GPU "
             "cannot run a newer driver (Kepler ends at 470.xx = CUDA 11.4, Fermi at 390.xx = "
             "CUDA 9.1), rebuild gpubench with a toolkit that driver runs and that still "
             "compiles for the card.",
             drv, rt, need, compat ? ", or >= " : "", compat ? compat : "",
             compat ? " through minor version compatibility" : "");
}

int cuda_explain(const char *err_name, int driver_version, int runtime_version, char *out,
                 size_t outlen) {
    if (!out || outlen == 0)
        return 0;
    if (!err_name)
        err_name = "(unknown)";
    if (strcmp(err_name, "cudaErrorInsufficientDriver") == 0) {
        explain_insufficient(driver_version, runtime_version, out, outlen);
        return 1;
    }
    if (strcmp(err_name, "cudaErrorStubLibrary") == 0) {
        explain_no_driver(1, out, outlen);
        return 1;
    }
    for (size_t i = 0; i < TABLE_LEN; i++) {
        if (table[i].cause && strcmp(err_name, table[i].name) == 0) {
            snprintf(out, outlen, "%s. %s.", table[i].cause, table[i].fix);
            return 1;
        }
    }
    snprintf(out, outlen,
             "The CUDA call failed with %s. Run gpubench doctor for what this build and driver "
             "support, and report the error if it persists.",
             err_name);
    return 0;
}
