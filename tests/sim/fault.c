/* fault.c — call counting and fault injection for every function the simulated libraries
 * answer, and the libraries' error names. Test-only code.
 *
 *   GPUBENCH_SIM_FAULT=FUNC:N:ERROR[,FUNC:N:ERROR…]  the N-th call of FUNC (an exported name such
 *       as cudaMalloc or cublasSgemm_v2) returns ERROR: a cudaError name, CUBLAS_STATUS_… or
 *       CUDNN_STATUS_…. FUNC `*`: the N-th call of any function that can return ERROR's kind (a
 *       cudaError: every call; a cuBLAS or cuDNN status: that library's calls). A cudaError
 *       given to a cuBLAS or cuDNN function is the failure of the CUDA work the library did: a
 *       sticky error breaks the device and the call returns EXECUTION_FAILED, an allocation error
 *       returns the library's allocation status. Each fault fires once.
 *   GPUBENCH_SIM_COUNT=FILE   at exit: "FUNC COUNT" per function, "* TOTAL", per fault
 *       "fault SPEC fired CALL FUNC [held]" or "fault SPEC not-fired", then what was never freed
 *       (gbsim_report_live: "live …" per device, "live-objects N").
 *   Faults fire once per run, not once per process: a run's fresh worker (a process started
 *       after a fault, harness/run/supervise.c) must not meet the same fault again at its own
 *       N-th call. A fault that fires is appended to FILE.fired beside GPUBENCH_SIM_COUNT's FILE
 *       (fired_record); a process that starts later reads it and counts that fault as fired,
 *       and reports it so in its count file.
 *   GPUBENCH_SIM_TRACE=FILE   every counted call as it happens: "CALL FUNC DEVICE [held]"
 *       (device -1 when the call concerns none; "held" while a stream hold, the kernel
 *       GBSIM_HOLD_KERNEL, is queued or spinning: the calls a failure must not leave held).
 *   GPUBENCH_SIM_EVENTS=FILE  what a test checks beyond calls, appended as it happens by every
 *       process (gpubench and its `__child` processes): "TAG WORDS…", TAG `main` or the child's
 *       WORKLOAD/IMPL (gbsim_event): the math mode of a cuBLAS GEMM (tests/sim/cublas.c) and
 *       each JIT compilation with what the JIT cache did (tests/sim/kernels.c).
 * Faults staged by name rather than by call number (GPUBENCH_SIM_HANG, _TRAP, _CRASH, _GONE)
 * are stage.c's; gbsim_enter hands it each call's name for _CRASH, and remembers the function
 * the thread entered (gbsim_calling) as the name of the work a cuBLAS or cuDNN call queues.
 * Not counted: registration at load time and the pure name lookups (cudaGetErrorName/String,
 * cudnnGetErrorString, cudnnGetVersion, cudnnGetCudartVersion), which cannot fail.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cublas_v2.h> /* cublas_api.h alone stops CUDA 11 (CUBLASAPI undefined) */

#include "gbsim_error_names.h" /* generated from the toolkit's headers */
#include "tests/sim/sim.h"

enum { MAX_FUNCS = 256, MAX_FAULTS = 8 };

struct fault {
    char func[64];
    long n;
    char error[96];
    int code;
    enum gbsim_lib lib; /* the error's family */
    long fired_at;      /* global call number, 0 = not fired */
    const char *fired_func;
    int held; /* it fired while a stream hold was queued or spinning */
};

static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static struct {
    const char *name;
    long n;
} funcs[MAX_FUNCS];
static int nfuncs;
static long total[3], total_all;
static struct fault faults[MAX_FAULTS];
static int nfaults;
static FILE *trace;

static int lookup(const struct gbsim_errname *t, size_t n, const char *name, int *code) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0) {
            *code = t[i].code;
            return 1;
        }
    return 0;
}

static const char *name_of(const struct gbsim_errname *t, size_t n, int code) {
    for (size_t i = 0; i < n; i++)
        if (t[i].code == code)
            return t[i].name;
    return "";
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *gbsim_cuda_error_name(int code) {
    return name_of(gbsim_cuda_errors, NELEM(gbsim_cuda_errors), code);
}

const char *gbsim_cublas_status_name(int code) {
    return name_of(gbsim_cublas_statuses, NELEM(gbsim_cublas_statuses), code);
}

const char *gbsim_cudnn_status_name(int code) {
    return name_of(gbsim_cudnn_statuses, NELEM(gbsim_cudnn_statuses), code);
}

static void bad_fault(const char *spec, const char *why) {
    fprintf(stderr, "gbsim: GPUBENCH_SIM_FAULT: '%s': %s (want FUNC:N:ERROR)\n", spec, why);
    exit(2);
}

/* FILE.fired of GPUBENCH_SIM_COUNT=FILE (see the header), or "" when no count file is asked for. */
static void fired_path(char *path, size_t len) {
    const char *count = getenv("GPUBENCH_SIM_COUNT");
    snprintf(path, len, "%s%s", count && count[0] ? count : "", count && count[0] ? ".fired" : "");
}

/* A fault that fired, for the processes of the run that start after this one: one line
 * "FUNC:N:ERROR CALL FIRED_FUNC [held]", one write with O_APPEND. */
static void fired_record(const struct fault *f) {
    char path[4096], line[512];
    fired_path(path, sizeof path);
    if (!path[0])
        return;
    int n = snprintf(line, sizeof line, "%s:%ld:%s %ld %s%s\n", f->func, f->n, f->error,
                     f->fired_at, f->fired_func, f->held ? " held" : "");
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, line, (size_t)n) != n)
        fprintf(stderr, "gbsim: cannot record a fired fault in %s\n", path);
    if (fd >= 0)
        close(fd);
}

/* The faults an earlier process of the run fired: fired already here. */
static void fired_read(void) {
    char path[4096], spec[256], func[128], held[8], mine[320];
    long at;
    fired_path(path, sizeof path);
    FILE *f = path[0] ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        held[0] = '\0';
        if (sscanf(line, "%255s %ld %127s %7s", spec, &at, func, held) < 3)
            continue;
        for (int i = 0; i < nfaults; i++) {
            struct fault *ft = &faults[i];
            if (snprintf(mine, sizeof mine, "%.64s:%ld:%.96s", ft->func, ft->n, ft->error) < 0)
                continue;
            if (!ft->fired_at && strcmp(mine, spec) == 0) {
                ft->fired_at = at;
                ft->fired_func = strdup(func);
                ft->held = strcmp(held, "held") == 0;
            }
        }
    }
    fclose(f);
}

static void parse_faults(void) {
    const char *env = getenv("GPUBENCH_SIM_FAULT");
    const char *path = getenv("GPUBENCH_SIM_TRACE");
    char buf[1024], *save = NULL, *item;
    if (path && path[0] && !(trace = fopen(path, "w"))) {
        fprintf(stderr, "gbsim: GPUBENCH_SIM_TRACE=%s: cannot write\n", path);
        exit(2);
    }
    if (!env || !env[0])
        return;
    if (strlen(env) >= sizeof buf)
        bad_fault(env, "too long");
    strcpy(buf, env);
    for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        struct fault *f = &faults[nfaults];
        char *c1 = strchr(item, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *end;
        if (nfaults == MAX_FAULTS)
            bad_fault(item, "too many faults");
        if (!c1 || !c2 || c1 == item || (size_t)(c1 - item) >= sizeof f->func)
            bad_fault(item, "malformed");
        memcpy(f->func, item, (size_t)(c1 - item));
        f->func[c1 - item] = '\0';
        f->n = strtol(c1 + 1, &end, 10);
        if (end != c2 || f->n < 1)
            bad_fault(item, "N must be a whole number from 1");
        snprintf(f->error, sizeof f->error, "%s", c2 + 1);
        if (lookup(gbsim_cuda_errors, NELEM(gbsim_cuda_errors), f->error, &f->code))
            f->lib = GBSIM_CUDART;
        else if (lookup(gbsim_cublas_statuses, NELEM(gbsim_cublas_statuses), f->error, &f->code))
            f->lib = GBSIM_CUBLAS;
        else if (lookup(gbsim_cudnn_statuses, NELEM(gbsim_cudnn_statuses), f->error, &f->code))
            f->lib = GBSIM_CUDNN;
        else
            bad_fault(item, "unknown ERROR (a cudaError, CUBLAS_STATUS_ or CUDNN_STATUS_ name)");
        if (f->code == 0)
            bad_fault(item, "ERROR is a success code");
        nfaults++;
    }
    fired_read();
}

static __thread const char *calling; /* the function this thread entered last */

const char *gbsim_calling(void) {
    return calling;
}

int gbsim_enter(const char *func, enum gbsim_lib lib, int dev, int *code, enum gbsim_lib *errlib) {
    long n_func = 0, n_all, n_lib;
    int i, hit = 0, held;
    pthread_once(&fault_once, parse_faults);
    calling = func;
    pthread_mutex_lock(&fault_lock);
    for (i = 0; i < nfuncs; i++)
        if (funcs[i].name == func || strcmp(funcs[i].name, func) == 0)
            break;
    if (i == nfuncs && nfuncs < MAX_FUNCS)
        funcs[nfuncs++].name = func;
    if (i < MAX_FUNCS)
        n_func = ++funcs[i].n;
    n_all = ++total_all;
    n_lib = ++total[lib];
    held = gbsim_holding();
    if (trace)
        fprintf(trace, "%ld %s %d%s\n", n_all, func, dev, held ? " held" : "");
    for (i = 0; i < nfaults && !hit; i++) {
        struct fault *f = &faults[i];
        int applies = f->lib == lib || f->lib == GBSIM_CUDART; /* cudaErrors reach every lib */
        if (f->fired_at || !applies)
            continue;
        if (strcmp(f->func, "*") == 0)
            hit = (f->lib == GBSIM_CUDART ? n_all : n_lib) == f->n;
        else
            hit = strcmp(f->func, func) == 0 && n_func == f->n;
        if (hit) {
            f->fired_at = n_all;
            f->fired_func = func;
            f->held = held;
            fired_record(f);
            *code = f->code;
            *errlib = f->lib;
            fprintf(stderr, "gbsim: fault injected: call %ld of %s (call %ld in all) returns %s\n",
                    n_func, func, n_all, f->error);
        }
    }
    if (trace)
        fflush(trace); /* a staged crash below must not lose the trace */
    pthread_mutex_unlock(&fault_lock);
    gbsim_stage_crash(func); /* GPUBENCH_SIM_CRASH (stage.c) */
    return hit;
}

/* This process's tag for the events file: "main", or WORKLOAD/IMPL of a `gpubench __child
 * WORKLOAD IMPL …` process (harness/run/child.c), read from /proc/self/cmdline. */
static void event_tag(char *tag, size_t len) {
    char buf[512];
    const char *arg[4] = {0};
    snprintf(tag, len, "main");
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (size_t i = 0, k = 0; i < n && k < 4; i += strlen(buf + i) + 1)
        arg[k++] = buf + i;
    if (arg[1] && arg[2] && arg[3] && strcmp(arg[1], "__child") == 0)
        snprintf(tag, len, "%s/%s", arg[2], arg[3]);
}

void gbsim_event(const char *fmt, ...) {
    const char *path = getenv("GPUBENCH_SIM_EVENTS");
    char tag[128], line[512];
    va_list ap;
    if (!path || !path[0])
        return;
    event_tag(tag, sizeof tag);
    int at = snprintf(line, sizeof line, "%s ", tag);
    va_start(ap, fmt);
    vsnprintf(line + at, sizeof line - (size_t)at - 1, fmt, ap);
    va_end(ap);
    strcat(line, "\n");
    /* one write of one line with O_APPEND: the processes' lines never interleave */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    if (write(fd, line, strlen(line)) < 0)
        fprintf(stderr, "gbsim: cannot write the events file %s\n", path);
    close(fd);
}

/* The count file, at exit (a destructor: after the program's own exit handlers), by a process
 * that made a counted call: not by a run's supervisor (harness/run/supervise.c), which makes
 * none and ends after its worker, whose file it would replace. */
__attribute__((destructor)) static void write_counts(void) {
    const char *path = getenv("GPUBENCH_SIM_COUNT");
    FILE *f;
    pthread_mutex_lock(&fault_lock);
    if (total_all == 0) {
        pthread_mutex_unlock(&fault_lock);
        return;
    }
    if (trace) {
        fclose(trace);
        trace = NULL;
    }
    if (path && path[0] && (f = fopen(path, "w"))) {
        for (int i = 0; i < nfuncs; i++)
            fprintf(f, "%s %ld\n", funcs[i].name, funcs[i].n);
        fprintf(f, "* %ld\n", total_all);
        for (int i = 0; i < nfaults; i++) {
            if (faults[i].fired_at)
                fprintf(f, "fault %s:%ld:%s fired %ld %s%s\n", faults[i].func, faults[i].n,
                        faults[i].error, faults[i].fired_at, faults[i].fired_func,
                        faults[i].held ? " held" : "");
            else
                fprintf(f, "fault %s:%ld:%s not-fired\n", faults[i].func, faults[i].n,
                        faults[i].error);
        }
        gbsim_report_live(f);
        fclose(f);
    }
    pthread_mutex_unlock(&fault_lock);
}

/* cudaGetErrorString's texts: the runtime's own wording for the errors gpubench can meet; the
 * others fall back to their name. */
const char *gbsim_cuda_error_string(int code) {
    switch ((cudaError_t)code) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInsufficientDriver:
        return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoKernelImageForDevice:
        return "no kernel image is available for execution on the device";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorHardwareStackError: return "hardware stack error";
    case cudaErrorInvalidPc: return "invalid program counter";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorECCUncorrectable: return "uncorrectable ECC error encountered";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
    case cudaErrorStubLibrary: return "CUDA driver is a stub library";
    case cudaErrorInvalidPtx: return "a PTX JIT compilation failed";
    case cudaErrorUnsupportedPtxVersion:
        return "the provided PTX was compiled with an unsupported toolchain.";
    case cudaErrorDevicesUnavailable: return "CUDA-capable device(s) is/are busy or unavailable";
    default: break;
    }
    const char *name = gbsim_cuda_error_name(code);
    return name[0] ? name : "unrecognized error code";
}
