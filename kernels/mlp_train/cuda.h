/* cuda.h — mlp_train's GPU side from C: the launchers of kernels.cuh (cuda.cu), which enqueue on
 * gb_stream() and return ST_OK or, the note of ctx (the row's impl_ctx) naming it, the status of
 * what the runtime reports where it happens; and what the rows share (cuda.c, amp.c,
 * cuda_tc.c). */
#ifndef GPUBENCH_MLP_CUDA_H
#define GPUBENCH_MLP_CUDA_H

#include "kernels/common/cuda_check.h"
#include "kernels/common/cuda_impl.h"
#include "kernels/common/dev_bufs.h"
#include "kernels/mlp_train/amp_step.h"
#include "kernels/mlp_train/step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every kernel of kernels.cuh, for gb_check_kernels; gb_mlp_step's ops on our launchers, gemm
 * NULL (a row copies one and sets its GEMM); the launchers of the own DGEMM's operand transpose
 * and of the f16 step (amp_step.h): what each does is its kernel's comment (kernels.cuh, amp.cuh). */
int gb_mlp_kernels(const struct gb_kernel_ref **refs);
extern const struct gb_mlp_ops gb_mlp_gpu_ops;
extern const struct gb_mlp_ops64 gb_mlp_gpu_ops64;
int gb_transpose64(void *ctx, const double *in, int rows, int cols, int ld, double *out);
int gb_f16_cast(void *ctx, const float *in, unsigned short *out, size_t n);
int gb_bias_relu_f16(void *ctx, const float *z, const float *bias, unsigned short *a, int rows,
                     int cols);
int gb_relu_backward_f16(void *ctx, float *dh, const unsigned short *a, unsigned short *dh16,
                         size_t n);
int gb_nonfinite(void *ctx, const float *g, size_t n, int *bad);
int gb_amp_sgd(void *ctx, float *w, const float *g, size_t n, float lr, float inv_scale,
               const int *bad);

/* A row's state: the layer's buffers first (gb_dev_* take ctx->state as it; ptr[] is the
 * step's buf), the step's dims and ops with the row's GEMM, then each row's own. */
struct mlp_gpu {
    struct gb_dev_bufs dev;
    struct mlp_dims d;
    struct gb_mlp_ops ops;
    struct gb_mlp_ops64 ops64;
    struct gb_arch arch; /* cuda */
    double *tr;          /* cuda, f64: room for the largest operand the step transposes */
#ifdef GPUBENCH_HAVE_CUBLAS
    cublasHandle_t h; /* cublas */
    int have_handle;
#endif
    struct gb_mlp_amp_bufs amp;    /* the f16 step's (cublas, cuda_tc) */
    struct gb_mlp_amp_ops amp_ops; /* its ops, with the row's GEMM */
};

/* prepare's start in every row, state made: the shape into g->d (ST_UNSUPPORTED where batch·hidden
 * reaches 2^31: our kernels index in 32 bits) and the specs of spec[GB_MLP_X .. GB_MLP_LOSS]. */
enum status mlp_gpu_begin(struct impl_ctx *ctx, struct gb_dev_spec *spec);

/* The f16 step of `cublas` and `cuda_tc` (amp.c): prepare's part after the row's state (the card
 * and build checked, the buffers, the ops with the row's gemm, the note: "mixed precision:
 * <gemm_note>, …"; cublas: cuBLAS's workspace named in the footprint), and its run. */
enum status mlp_amp_buffers(struct impl_ctx *ctx, gb_mlp_gemm16 *gemm, const char *gemm_note,
                            int cublas);
enum status mlp_amp_run(struct impl_ctx *ctx);
/* The f16 step's host memory beyond the problem's: the FP16 copy of X (impl.host_bytes). */
double mlp_amp_host_bytes(const struct shape *sh);
#ifdef GPUBENCH_HAVE_CUBLAS
gb_mlp_gemm16 mlp_amp_cublas_gemm; /* cublasGemmEx on the row's handle (cuda.c's h) */
#endif

#ifdef __cplusplus
}
#endif

#endif
