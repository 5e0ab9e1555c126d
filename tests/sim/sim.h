/* sim.h — the simulated CUDA device's internals, shared by its three libraries (test-only code):
 * the CUDA runtime stand-in (cudart.c and the files below, built as the toolkit's libcudart
 * SONAME), and the cuBLAS and cuDNN stand-ins (cublas.c, cudnn.c), which call into the runtime
 * through the gbsim_* functions declared here (exported under a private version node).
 *
 * The model (README.md has the user's view):
 *   - devices come from GPUBENCH_SIM=<profile>[:built-for-card][,…] (profiles.c: real cards'
 *     numbers); each has a memory budget, a sticky-error slot and its streams;
 *   - every stream is a FIFO run in order by its own worker thread: kernels (the CPU emulation,
 *     one launch at a time in the process), copies, library calls and event markers are queued
 *     and the host returns at once, as on a GPU; synchronisation waits until the FIFO drains;
 *   - every API function counts its call (fault.c) and may be made to fail on its N-th call.
 */
#ifndef GPUBENCH_SIM_H
#define GPUBENCH_SIM_H

#include <pthread.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#define GBSIM_API __attribute__((visibility("default")))

enum { GBSIM_MAX_DEVICES = 8 };

/* --- card profiles (profiles.c) ----------------------------------------------------------- */
struct gbsim_profile {
    const char *key;  /* GPUBENCH_SIM name: "k40m" */
    const char *name; /* marketing name: "Tesla K40m" (the device is "simulated Tesla K40m") */
    int major, minor;
    int sms, clock_khz, mem_clock_khz, bus_bits;
    size_t mem_bytes;
    int l2_bytes;
    int threads_per_sm, regs_per_sm, regs_per_block;
    int shared_per_sm; /* bytes; per block it is 48 KiB on every profile */
    int ecc, watchdog;
    unsigned pci_id;    /* PCI device id (vendor 0x10de) */
    const char *driver; /* the newest driver branch that supports the card */
    int driver_cuda;    /* the CUDA version that driver reports (11040 = 11.4) */
    int toolkit_cuda;   /* the newest toolkit that compiles for the card, 0 = current */
};

/* Shared memory a block may have with opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize;
 * kernels.c): what cudaDevAttrMaxSharedMemoryPerBlockOptin reports. */
size_t gbsim_shared_optin(const struct gbsim_profile *p);

/* The profile named `key`, or NULL. */
const struct gbsim_profile *gbsim_profile_find(const char *key);

/* Every profile, for messages ("k40m t4 …"). */
const struct gbsim_profile *gbsim_profiles(size_t *n);

/* --- devices (core.c) ------------------------------------------------------------------------- */
struct gbsim_stream;

struct gbsim_device {
    int ordinal;
    const struct gbsim_profile *p;
    int built_for_card;               /* the build is pretended to carry SASS for this card */
    int exclusive;                    /* :exclusive-process: one process's context at a time */
    int ctx_fd;                       /* exclusive: the held lock file's descriptor + 1, or 0 */
    int has_context;                  /* this process has asked for a context (NVML lists it) */
    int sm;                           /* 10·major + minor */
    size_t reserved;                  /* context and driver reservation, never free */
    size_t used;                      /* bytes of live allocations (and library workspaces) */
    cudaError_t sticky;               /* cudaSuccess, or the error that broke the context */
    struct gbsim_stream *null_stream; /* the legacy default stream, made on first use */
};

/* The process-wide lock of the runtime's tables (devices, allocations, streams, events). */
void gbsim_lock(void);
void gbsim_unlock(void);

/* Parse GPUBENCH_SIM once; the number of simulated devices (0 when unset). A malformed value
 * ends the process with a message (a test that mistyped a profile must not pass quietly). */
int gbsim_device_count(void);

/* Device `ordinal`, or NULL when out of range. */
struct gbsim_device *gbsim_device(int ordinal);

/* The calling host thread's current device (cudaSetDevice; 0 by default). */
struct gbsim_device *gbsim_current(void);
void gbsim_set_current(int ordinal);

/* cudaSuccess, or why the runtime cannot start at all, as the real runtime answers every call
 * then: cudaErrorInsufficientDriver when nothing is simulated (a machine without a driver) or
 * the simulated machine's driver is older than this runtime. */
cudaError_t gbsim_init_error(void);

/* The CUDA version the simulated machine's driver reports (cudaDriverGetVersion), and the
 * runtime version reported (the headers' CUDART_VERSION, or an old toolkit's with
 * built-for-card). */
int gbsim_driver_version(void);
int gbsim_runtime_version(void);

/* The calling process's context on d, made on first use. On an :exclusive-process device (the
 * compute mode cudaComputeModeExclusiveProcess) only one live process may hold one: the context
 * is a flock'ed lock file per device, $TMPDIR/gbsim-<uid>-<profile>-<ordinal>.lock, held until
 * the process ends; another process gets cudaErrorDevicesUnavailable, as from a real card. */
cudaError_t gbsim_context(struct gbsim_device *d);

/* Make err the device's sticky error (first one wins) and return it. */
cudaError_t gbsim_break(struct gbsim_device *d, cudaError_t err);

/* The calling thread's last runtime error (cudaGetLastError), recorded by every failing call. */
cudaError_t gbsim_record(cudaError_t err);
cudaError_t gbsim_take_last(int reset);

/* Errors the CUDA runtime documents as corrupting the context (sticky). */
int gbsim_is_sticky(cudaError_t err);

/* 1 when the build has no code the runtime could run on d (neither SASS nor PTX it can JIT) and
 * the card is not built-for-card. Shared by cuBLAS's architecture check. */
int gbsim_device_below(const struct gbsim_device *d, int min_sm);

/* --- memory ----------------------------------------------------------------------------------- */
enum gbsim_mem_kind { GBSIM_MEM_NONE = 0, GBSIM_MEM_DEVICE, GBSIM_MEM_PINNED };

/* Allocate `bytes` of device memory on d (NULL and cudaErrorMemoryAllocation beyond what is
 * free). Pinned host memory: device NULL. */
cudaError_t gbsim_alloc(struct gbsim_device *d, enum gbsim_mem_kind kind, size_t bytes, void **out);
cudaError_t gbsim_free(enum gbsim_mem_kind kind, void *p);

/* What `p` points into: GBSIM_MEM_DEVICE (and *dev, *avail = bytes from p to the allocation's
 * end), GBSIM_MEM_PINNED, or GBSIM_MEM_NONE (ordinary host memory). */
enum gbsim_mem_kind gbsim_lookup(const void *p, int *dev, size_t *avail);

/* 1 when [p, p + bytes) lies in one live device allocation of device `dev` (any device when
 * dev < 0). */
int gbsim_device_range(const void *p, size_t bytes, int dev);

/* The libraries' own objects (cuBLAS handles, cuDNN handles and descriptors) are listed here
 * while they live, as a real library keeps track of what it handed out: a destroy call that
 * fails (an injected fault) leaves the object owned by the library, not lost. gbsim_keep
 * returns 0 when out of memory. */
int gbsim_keep(void *obj);
void gbsim_drop(void *obj);

/* The kernel gpubench holds a stream with (kernels/common/hold.cuh), and how many such launches
 * are queued or running right now (kernels.c): the trace marks the calls made meanwhile. */
#define GBSIM_HOLD_KERNEL "gb_hold_kernel"
int gbsim_holding(void);

/* At exit, for the count file: per device "live ORDINAL device N BYTES pinned N sticky ERROR|-"
 * (device allocations and page-locked host memory allocated while it was current, not freed),
 * then "live-objects N" (cuBLAS/cuDNN handles and descriptors not destroyed). */
void gbsim_report_live(FILE *f);

/* Charge or release bytes of d's memory for a library's own use (cuBLAS workspace). */
int gbsim_charge(struct gbsim_device *d, size_t bytes);
void gbsim_release(struct gbsim_device *d, size_t bytes);

/* --- streams and events (stream.c) ---------------------------------------------------------- */
/* One queued operation: run(op, broken) on the stream's worker. `broken`: the device has a
 * sticky error, so the work must be skipped (markers still complete). It returns cudaSuccess or
 * a sticky error, which breaks the device. free(op) afterwards (plain free() when NULL). */
struct gbsim_op {
    struct gbsim_op *next;
    cudaError_t (*run)(struct gbsim_op *op, int broken);
    void (*free)(struct gbsim_op *op);
    struct gbsim_device *dev;
    int done;   /* set by the worker after run (for waiting on one operation) */
    int waited; /* a host thread waits on it: the waiter frees it */
    /* A GBSIM_HOLD_KERNEL launch: the host-mapped flag it spins on until it is nonzero (NULL
     * for every other operation). A full launch queue behind it is a deadlock (gbsim_enqueue). */
    const volatile int *hold_release;
    /* The name of the device work (a kernel's C name, a cuBLAS/cuDNN function's exported name;
     * NULL for copies and markers) and its staged fault (stage.c, GBSIM_STAGE_*), set by
     * gbsim_enqueue from the name. */
    const char *name;
    int stage;
    /* What the operation computes, for the pace (stream.c, gbsim_pace_key): the same kernel,
     * library call or copy at the same sizes has the same key; 0: not paced (events, holds). */
    unsigned long long pace_key;
};

/* A pace key from the function that runs an operation and the numbers that size it. */
unsigned long long gbsim_pace_key(const void *fn, const long long *v, int n);

enum {
    GBSIM_STREAM_MAGIC = 0x5743,
    GBSIM_STREAM_DEAD = 0xdead,
    GBSIM_EVENT_MAGIC = 0xe7e7,
    GBSIM_EVENT_DEAD = 0xdeae
};

struct gbsim_stream {
    int magic;
    struct gbsim_device *dev;
    unsigned flags;
    pthread_t thread;
    pthread_cond_t wake;
    struct gbsim_op *head, *tail;
    int busy, quit, exited, joined;
    int pending;              /* operations queued or running: at most the queue depth */
    struct gbsim_op *running; /* the operation the worker runs now, or NULL */
    int hung;                 /* its worker waits for good on a GPUBENCH_SIM_HANG operation */
    double vclock_ms; /* GPUBENCH_SIM_OP_MS: the stream's clock, advanced by each operation */
    /* The timing event whose marker ran last on this stream while no span was open: operations
     * run until another timing event's marker are inside a timed span (stream.c, the pace). */
    const struct gbsim_event *span;
    double span_last_ms;          /* inside a span: when its last operation or marker ended */
    unsigned long long span_key;  /* and that operation's pace key (0: none yet) */
    double span_charge;           /* and what it was charged (its time since the one before) */
    struct gbsim_stream *next_all;
};

struct gbsim_event {
    int magic;
    struct gbsim_device *dev;
    unsigned flags;
    long recorded, completed; /* markers queued and markers run */
    double t_ms;              /* host time the last marker ran */
    struct gbsim_event *next_all;
};

/* The big lock itself, and the condition broadcast whenever an operation finishes, for waits. */
pthread_mutex_t *gbsim_big_lock(void);
pthread_cond_t *gbsim_progress(void);

/* New stream of d (its worker started); NULL and *err on failure. */
struct gbsim_stream *gbsim_stream_new(struct gbsim_device *d, unsigned flags, cudaError_t *err);
void gbsim_stream_destroy(struct gbsim_stream *st);
int gbsim_stream_idle(struct gbsim_stream *st);

struct gbsim_event *gbsim_event_new(struct gbsim_device *d, unsigned flags);
struct gbsim_event *gbsim_event_of(cudaEvent_t h); /* NULL unless live */
void gbsim_event_destroy(struct gbsim_event *e);
cudaError_t gbsim_event_record(struct gbsim_event *e, struct gbsim_stream *st);
int gbsim_event_complete(struct gbsim_event *e);
void gbsim_event_wait(struct gbsim_event *e);

/* The stream handle `s` as the runtime sees it (NULL: the device's legacy stream, made on first
 * use); NULL and *err when s is not a live stream. */
struct gbsim_stream *gbsim_stream_of(cudaStream_t s, struct gbsim_device *cur, cudaError_t *err);


/* Queue op on st. With wait, block until it has run (pageable copies); the op is freed here.
 * The queue is finite, as a real device's queue of pending launches is (about a thousand
 * entries; GPUBENCH_SIM_QUEUE_DEPTH, default 1024): with that many operations queued or running
 * the caller blocks until the stream's worker finishes one. When the operation running is a
 * stream hold whose flag is not set, nothing can drain — the host thread that would release
 * the hold is the one blocked — so the process ends with a message and GBSIM_EXIT_STALL
 * (a real card would wait out the hold's timeout and time the host's launches instead). */
enum { GBSIM_EXIT_STALL = 86 };
void gbsim_enqueue(struct gbsim_stream *st, struct gbsim_op *op, int wait);

/* Wait until st (or every stream of d) has drained. */
void gbsim_stream_drain(struct gbsim_stream *st);
void gbsim_device_drain(struct gbsim_device *d);
void gbsim_all_drain(void);

/* The device a stream belongs to. */
struct gbsim_device *gbsim_stream_device(const struct gbsim_stream *st);

/* Monotonic host time in ms. */
double gbsim_now_ms(void);

/* --- the emulation (kernels.c) ---------------------------------------------------------------- */
/* Run one kernel launch on the emulation (serialized process-wide). Returns cudaSuccess or the
 * sticky error a GPU would report (a trap, a barrier not reached by every thread). */
struct gbsim_launch;
cudaError_t gbsim_run_launch(struct gbsim_launch *l);

/* --- call counting and fault injection (fault.c) -------------------------------------------- */
enum gbsim_lib { GBSIM_CUDART, GBSIM_CUBLAS, GBSIM_CUDNN };

/* A fault to inject into this call: 0 for none; otherwise *code is the error to return, given in
 * the library family `*lib` of the error's name (a cudaError_t for GBSIM_CUDART, …). Counts the
 * call either way. `dev` is the ordinal the call concerns (for the trace), -1 when none. */
int gbsim_enter(const char *func, enum gbsim_lib lib, int dev, int *code, enum gbsim_lib *errlib);

/* The exported function the calling thread entered last (gbsim_enter): the name of the device
 * work a cuBLAS or cuDNN call queues. */
const char *gbsim_calling(void);

/* --- faults staged by name (stage.c) ------------------------------------------------------- */
enum { GBSIM_STAGE_NONE = 0, GBSIM_STAGE_HANG, GBSIM_STAGE_TRAP };

/* GBSIM_STAGE_HANG or _TRAP when GPUBENCH_SIM_HANG / _TRAP names device work called `name`. */
int gbsim_stage_of(const char *name);

/* On a stream's worker, instead of the work: a hang blocks for good (never returns); a trap
 * returns cudaErrorIllegalAddress. Both create GPUBENCH_SIM_GONE's file. */
void gbsim_stage_hang(const struct gbsim_device *d, const char *name) __attribute__((noreturn));
cudaError_t gbsim_stage_trap(const struct gbsim_device *d, const char *name);

/* A segfault when GPUBENCH_SIM_CRASH names `name` (a function or kernel); else nothing. */
void gbsim_stage_crash(const char *name);

/* 1 when GPUBENCH_SIM_GONE's file existed as this process's simulation started (core.c): every
 * simulated card is lost. */
int gbsim_gone(void);

/* The name of a CUDA error (complete: generated from the toolkit's driver_types.h), of a cuBLAS
 * status and of a cuDNN status; "" when unknown. */
const char *gbsim_cuda_error_name(int code);
const char *gbsim_cuda_error_string(int code);

/* One line "TAG WORDS…" appended to $GPUBENCH_SIM_EVENTS (fault.c; nothing when it is unset):
 * what a test checks beyond the calls, from any process of the run. printf-style. */
void gbsim_event(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *gbsim_cublas_status_name(int code);
const char *gbsim_cudnn_status_name(int code);

#endif
