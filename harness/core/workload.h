/* workload.h — the core contract: what a workload and an implementation are, as seen by the
 * harness.
 *
 * A workload (bench/<name>.c) knows its shape keys and defaults, its FLOP and byte counts, how to
 * make deterministic inputs, the CPU reference and how to verify an output against it. An
 * implementation (kernels/<workload>/<impl>.c) knows how to compute it on one kind of device:
 * prepare / upload / run / download / release. Both are registered in bench/workloads.def. The
 * harness owns the timing loop, the statistics and every sink; nothing here times itself.
 */
#ifndef GPUBENCH_WORKLOAD_H
#define GPUBENCH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/dtype.h"

enum { SHAPE_MAX_KEYS = 12, PROBLEM_MAX_BUFS = 8, NOTE_LEN = 512 };

/* Row status, as written in the CSV `status` column. */
enum status { ST_OK = 0, ST_WRONG, ST_UNSUPPORTED, ST_OOM, ST_ERROR, ST_TIMEOUT };
const char *status_name(enum status st);

enum device_kind { DEV_CPU = 0, DEV_CUDA = 1 };

/* A shape: one value per key of the workload, in the workload's canonical key order. */
struct shape {
    long v[SHAPE_MAX_KEYS];
};

/* A host buffer owned by a problem: float32 in `data` for every tier but f64, whose problems
 * hold doubles in `data64` (the other is NULL). f16, bf16 and tf32 problems keep float32 host
 * buffers: inputs hold values the tier stores exactly (tf32: full float32, which the hardware
 * rounds), and the implementation converts to its device format outside the timed run. */
struct buf {
    const char *name; /* "a", "W1", … (static string) */
    float *data;
    size_t n; /* elements */
    double *data64;
};

/* One shape's data: inputs generated once from the seed (read-only: every implementation of the
 * shape shares them), outputs that implementations write
 * (poisoned with NaN by the harness before each verification run) and the reference, which
 * belongs to the workload (`ref`, freed by its free_problem). */
struct problem {
    struct shape shape;
    enum dtype dtype; /* the tier of every row of this problem */
    uint64_t seed;
    int nin, nout;
    struct buf in[PROBLEM_MAX_BUFS];
    struct buf out[PROBLEM_MAX_BUFS];
    void *ref; /* workload-private reference data */
};

struct device;

/* What an implementation gets: the problem, the device it runs on, the thread count, and room
 * for its private state and a note (error string, chosen algorithm, …). */
struct impl_ctx {
    struct problem *p;
    const struct device *dev;
    int threads;
    void *state;
    char note[NOTE_LEN];
    double child_ms; /* a `child` implementation's run: the cost its fresh process measured */
};

/* An implementation. Every function returns a status; on failure it writes ctx->note.
 *  prepare:  allocate device memory and private buffers; must not be timed. Outputs it writes
 *            later come from p->out (already poisoned) so an unwritten element fails.
 *  upload:   host→device copy of inputs (NULL on the CPU). Timed only in end-to-end time.
 *  run:      the launch, and nothing else. Timed. Called repeatedly; may change outputs.
 *  download: device→host copy into p->out (NULL on the CPU: run writes p->out directly).
 *  finish:   after the verified run only, never timed: turn outputs kept in the tier's own
 *            storage (the FP16 halves of an f16 row) into p->out's float32 for the verifier, so
 *            that no timed run pays a conversion a real program would not. NULL for most.
 *  release:  free everything prepare allocated; must accept a partly prepared state. */
struct impl {
    const char *name;       /* "cpu", "openblas", "cuda", "cublas", "cudnn" */
    enum device_kind kind;  /* which devices can run it */
    const char *summary;    /* one line for `gpubench list` */
    enum status (*prepare)(struct impl_ctx *ctx);
    enum status (*upload)(struct impl_ctx *ctx);
    enum status (*run)(struct impl_ctx *ctx);
    enum status (*download)(struct impl_ctx *ctx);
    void (*release)(struct impl_ctx *ctx);
    enum status (*finish)(struct impl_ctx *ctx);
    /* 1 when `run` copies between host and device memory (memcpy's h2d and d2h rows): the bus
     * bounds it, so the device's caches say nothing about its speed, and the row's note compares
     * its GB/s with the PCIe link's (harness/telemetry). */
    int host_transfer;
    /* Bytes of memory traffic per byte the workload counts, when this implementation moves more
     * than the workload's convention says (0: the same). A device-to-device copy counts each
     * byte once (memcpy's convention) but reads it and writes it: 2. The memory peak a row's
     * peak_pct divides by is scaled down by it. */
    double traffic_per_byte;
    /* Bytes of memory it touches per byte the workload counts, when not the same (0: the same).
     * In-place y = x + y (vecadd's openblas and cublas rows) touches x and y, 2 of the 3 arrays
     * vecadd counts: 2.0 / 3. The row's cache note compares this working set, not the count,
     * with the last-level cache. */
    double touched_per_byte;
    /* What its memory traffic is where it differs from the workload's convention, as a clause
     * ("in place: ..."), or NULL. The note of a row above 100% of the memory peak names it. */
    const char *traffic_note;
    /* Tiers it has elsewhere that this build lacks (a DT_BIT mask, not in `dtypes`), and why
     * ("this OpenBLAS has no cblas_sbgemm …"), said in those tiers' `unsupported` rows. */
    unsigned no_tiers;
    const char *no_tier_why;
    /* 1 when run itself makes the host wait for the device (a copy from or to pageable host
     * memory): the backend cannot hold the device's queue while it enqueues the timed work, so
     * such a row's kernel-only time includes the host's share, which is the cost of that copy. */
    int run_waits;
    /* 1 when run is the whole transfer (the copy rows): end to end is then run alone,
     * host-clocked with its synchronization, not upload + run + download. */
    int e2e_is_run;
    /* The tiers it computes in (DT_BIT(DT_F64) | …; 0: float32 only). A row of another tier of
     * its workload is `unsupported`, "no <tier> <workload>/<impl> in gpubench yet"; `prepare`
     * may still refuse a tier the device cannot do (the harness first checks the card's
     * compute capability against the tier's, harness/gpuinfo/gpu_tier.c). */
    unsigned dtypes;
    /* A cost paid once per process (the start-up rows), which no timer outside the process can
     * isolate: `child` runs inside a fresh process (`gpubench __child …`, harness/run/child.c),
     * pays the cost around its own clock, writes the outputs and returns the milliseconds in
     * *ms. Such an implementation's `run` starts that process (kernels/common/child.h), copies
     * its outputs back and leaves its figure in ctx->child_ms, which the harness takes as the
     * repetition's time: every repetition is a new process. NULL for all others. */
    enum status (*child)(struct impl_ctx *ctx, double *ms);
    /* Host memory its prepare allocates for shape s beyond the problem's own buffers (scratch,
     * staging copies), in bytes for a float32 problem (an f64 problem's is twice it), for the
     * plan's host-memory check, which adds the largest of a workload's implementations to the
     * workload's host_bytes (rows run one at a time). NULL: nothing worth counting. */
    double (*host_bytes)(const struct shape *s);
};

/* Verification report, filled by verify_close (harness/core/verify.c). */
struct verify_report {
    size_t checked, bad;
    double max_rel_err; /* max |got-ref| / max(|ref|, atol/rtol) over checked elements */
    char first_bad[256]; /* "W1[17]=nan want 0.25; …" for the first few mismatches */
};

struct workload {
    const char *name;
    const char *summary;
    const char *const *keys; /* canonical key order, NULL-terminated */
    const char *const *default_shapes; /* shape strings ("m=2048;n=2048;k=2048"), NULL-term. */
    const char *const *quick_shapes;
    const char *const *sweep_shapes;
    /* The default shape of the CPU's rows where the common one would not measure there what the
     * workload means (vecadd: arrays past a big L3 are memory, inside it the cache), from the
     * CPU's last-level cache and host memory in bytes: the shape into shape, and the reason
     * into why ("each array 4× the 32 MiB L3, STREAM's rule"), returning 0; -1 where the
     * default shapes serve the CPU too. NULL: they always do. GPUs keep default_shapes, the same
     * on every card (docs/ARCHITECTURE.md). */
    int (*cpu_default)(size_t llc_bytes, size_t mem_bytes, char *shape, size_t shapelen,
                       char *why, size_t whylen);
    /* Small shapes that are not multiples of any implementation's tiles, on which the tests
     * check every implementation against the reference (tests/workloads, the emulation). */
    const char *const *test_shapes;
    /* Fill derived keys and check ranges. `given` has one flag per key: 1 if the user set it.
     * Returns 0, or -1 with a one-line reason in err. May be NULL (all keys required, > 0). */
    int (*complete)(struct shape *s, const int *given, char *err, size_t errlen);
    double (*flops)(const struct shape *s); /* useful floating point operations per run */
    double (*bytes)(const struct shape *s); /* minimum bytes moved to/from memory per run */
    /* The same in tier t, where not every element is of the tier's size (NULL: bytes() × the
     * tier's element size ÷ 4): gemm's FP16, BF16 and TF32 tiers keep C in FP32. */
    double (*tier_bytes)(const struct shape *s, enum dtype t);
    /* Host memory a problem of shape s holds (inputs, outputs, reference and its scratch), for
     * the plan's host-memory check; implementations declare their own (impl.host_bytes). */
    double (*host_bytes)(const struct shape *s);
    /* Allocate inputs (seeded), outputs and the reference. Returns 0 or -1 (out of memory). */
    int (*make_problem)(struct problem *p, char *err, size_t errlen);
    /* Compare p->out with the reference; fills r; returns ST_OK or ST_WRONG. */
    enum status (*verify)(const struct problem *p, struct verify_report *r);
    void (*free_problem)(struct problem *p);
    /* The tiers it defines (make_problem and verify handle each; 0: float32 only). Tiers outside
     * it are not planned at all; inside it every implementation has a row, `unsupported` where it
     * lacks the tier. flops and bytes count float32 elements; the harness scales bytes by the
     * tier's element size (harness/run/runner.c). */
    unsigned dtypes;
    /* Its implementations are not listed here: bench/workloads.def has them (bench/registry.h). */
};

#endif
