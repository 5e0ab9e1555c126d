/* dev_bufs.h — a CUDA row's device buffers, done once for every implementation: each buffer
 * allocated on the device in the storage type its tier asks for, the row's footprint declared
 * and checked before anything is allocated, the inputs uploaded and the outputs downloaded on
 * the run's stream, 16-bit outputs converted for the verifier after the verified run, and all of
 * it freed again. Implemented in kernels/common/dev_bufs.c; C11, host code (CUDA builds only).
 *
 * How an implementation uses it:
 *
 *   struct my_state {
 *       struct gb_dev_bufs dev; // first: the gb_dev_* functions take ctx->state as this
 *       cublasHandle_t h;       // what is the implementation's own
 *   };
 *   prepare:  gb_impl_state(ctx, sizeof(struct my_state)), then (optionally) set dev.teardown,
 *             then gb_dev_prepare(ctx, spec, n, extra, what) with one gb_dev_spec per buffer;
 *             the device pointers are then dev.ptr[0 .. n), in the spec's order.
 *   run:      the launch, on dev.ptr[…] (the layer never touches run).
 *   impl table: .upload = gb_dev_upload, .download = gb_dev_download, .finish = gb_dev_finish,
 *             .release = gb_dev_release.
 *
 * Storage per tier: f64 rows hold doubles (the problem's buf.data64), f32 and tf32 rows floats
 * (buf.data), f16 and bf16 rows 16-bit halves, which prepare converts from buf.data on the host
 * (never timed) and finish converts back into p->out's float32 after the verified run's
 * download (never timed): upload and download move what a program holding the tier would move,
 * and no timed run pays a conversion. A buffer may keep a wider type (gb_dev_store).
 *
 * Errors: every CUDA call is checked (CU_TRY, kernels/common/cuda_check.h), the error's name
 * reaches ctx->note and the status is the one its name maps to; allocation goes through
 * gb_malloc (out of device memory: `oom` or `unsupported` with sizes, kernels/common/cuda_impl.h);
 * out of host memory for the 16-bit copies is ST_OOM, "out of host memory for the FP16 copies"
 * (BF16 for a bf16 row). */
#ifndef GPUBENCH_DEV_BUFS_H
#define GPUBENCH_DEV_BUFS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many device buffers per row: every input and output of a problem, each its own. */
enum { GB_DEV_MAX_BUFS = 2 * PROBLEM_MAX_BUFS };

/* What a device buffer holds, in each tier. */
enum gb_dev_store {
    GB_DEV_TIER = 0, /* the tier's storage: doubles (f64), floats (f32, tf32), halves (f16, bf16) */
    GB_DEV_WIDE,     /* the tier's, but floats in a 16-bit tier: an FP32 result of 16-bit
                      * operands (gemm's C, bench/gemm.h) */
    GB_DEV_FP32,     /* floats in every tier, f64 included, read from and written to buf.data
                      * (a problem buffer that stays float32, such as mlp_train's class labels,
                      * bench/mlp_train.c) */
};

/* Where element i of a problem buffer sits in a device buffer of another layout (cuDNN's NHWC
 * where the problem is NCHW); `arg` is the spec's place_arg. Used for 16-bit storage only, where
 * the host copy is made element by element anyway. */
typedef size_t (*gb_dev_place_fn)(size_t i, const void *arg);

/* One device buffer, as gb_dev_prepare is asked for it. A zeroed spec with a name and an `in` is
 * a tier-typed input. */
struct gb_dev_spec {
    const char *name;     /* for gb_malloc's notes ("A", "y (b, then c)"); a static string */
    const struct buf *in; /* gb_dev_upload copies this problem input into it; NULL: none */
    struct buf *out;      /* gb_dev_download copies it into this problem output; NULL: none.
                           * One buffer may have both (an in-place result); then in->n must
                           * equal out->n. */
    size_t n;             /* elements of a buffer with neither in nor out (device-only scratch,
                           * of the spec's storage type); for a placed 16-bit input, the device
                           * buffer's elements where they are more than in's (a padded layout:
                           * the places no element maps to are zero); ignored otherwise */
    enum gb_dev_store store;
    gb_dev_place_fn place; /* NULL: element i at i */
    const void *place_arg; /* passed to place; must stay valid until gb_dev_release */
};

/* The layer's record of one buffer (filled by gb_dev_prepare; read-only for implementations). */
struct gb_dev_buf {
    struct gb_dev_spec spec;
    size_t n, size;                /* elements, bytes per element on the device */
    const void *up;                /* what upload copies from: the problem's, or half_up */
    void *down;                    /* where download copies to: the problem's, or half_down */
    uint16_t *half_up, *half_down; /* 16-bit host copies of in and for out (16-bit storage) */
};

/* The layer's state: the first member of an implementation's state struct. A zeroed one (as
 * gb_impl_state allocates it) is valid and empty, so release works after any failure. */
struct gb_dev_bufs {
    void *ptr[GB_DEV_MAX_BUFS]; /* device pointers, in the order of gb_dev_prepare's specs */
    struct gb_dev_buf buf[GB_DEV_MAX_BUFS];
    int nbufs;
    enum dtype t; /* the row's tier */
    /* The implementation's own teardown (library handles, descriptors, device memory it
     * allocated itself), or NULL: gb_dev_release calls it after synchronizing the stream and
     * before freeing the buffers, with ctx->state still valid. It must accept a partly prepared
     * state (set it before the first call that can fail). */
    void (*teardown)(struct impl_ctx *ctx);
};

/* In prepare, after gb_impl_state (ctx->state is a struct whose first member is a struct
 * gb_dev_bufs): appends the n buffers of `spec` (in order: dev.ptr[nbufs before + i] is spec[i]).
 * First declares the row's footprint — every buffer's bytes plus `extra` (what the
 * implementation allocates itself, where known) — through gb_row_footprint with `what` naming
 * them ("A, B, C; cuBLAS's workspace comes on top"); what == NULL declares none (a second call,
 * or a footprint declared by the caller). Then makes the 16-bit host copies of the inputs (and
 * room for 16-bit outputs), then allocates the buffers with gb_malloc in spec order. Returns
 * ST_OK, or the failing step's status with ctx->note written; what was made so far is freed by
 * gb_dev_release. A caller's mistake is ST_ERROR, its note naming the buffer: more than
 * GB_DEV_MAX_BUFS buffers, an in-place buffer whose in and out differ in size, a problem buffer
 * without the host data its storage reads (data64 for an f64 row's tier-typed buffer, data
 * otherwise). Never writes ctx->note on success. */
enum status gb_dev_prepare(struct impl_ctx *ctx, const struct gb_dev_spec *spec, int n,
                           size_t extra, const char *what);

/* impl.upload: every buffer with an `in`, host → device, cudaMemcpyAsync on gb_stream(), in
 * spec order. Also callable in prepare (then synchronize the stream before using the data). */
enum status gb_dev_upload(struct impl_ctx *ctx);

/* impl.download: every buffer with an `out`, device → host (the problem's output, or the 16-bit
 * host copy), cudaMemcpyAsync on gb_stream(); the harness synchronizes. */
enum status gb_dev_download(struct impl_ctx *ctx);

/* impl.finish: after the verified run's download, synchronized, never timed: each output kept
 * in 16-bit storage converted into its problem output's float32 (`place` applied). ST_OK; a
 * no-op for rows without 16-bit outputs. */
enum status gb_dev_finish(struct impl_ctx *ctx);

/* impl.release: for any state from a prepare that succeeded, failed, or never started (NULL):
 * synchronizes gb_stream() (nothing of the row may still be queued on memory about to be freed),
 * calls teardown, frees every device buffer and host copy, then the state; ctx->state = NULL.
 * Failures are reported on stderr and the rest is freed anyway. */
void gb_dev_release(struct impl_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
