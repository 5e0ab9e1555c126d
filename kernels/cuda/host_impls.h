/* host_impls.h — the CUDA implementations that are host code only: library calls (cuBLAS,
 * cuDNN) and copies. Each is a row in its workload's impl table (bench/<workload>.c), present in
 * CUDA builds (GPUBENCH_HAVE_CUDA). Without cuBLAS or cuDNN in the build the rows stay and say
 * so (`unsupported`), so that no configuration vanishes from the results. */
#ifndef GPUBENCH_HOST_IMPLS_H
#define GPUBENCH_HOST_IMPLS_H

#include "bench/workload.h"

/* vecadd/cublas: cublasSaxpy, y = 1·x + y with y starting as b (kernels/cuda/vecadd_cublas.c). */
extern const struct impl vecadd_cublas_impl;

/* gemm/cublas: cublasSgemm, row-major by operand swap, pedantic FP32 where cuBLAS has it
 * (kernels/cuda/gemm_cublas.c). */
extern const struct impl gemm_cublas_impl;

/* conv2d/cudnn: cudnnConvolutionForward, algorithm chosen once per shape, FMA math
 * (kernels/cuda/conv2d_cudnn.c). */
extern const struct impl conv2d_cudnn_impl;

/* mlp_train/cublas: cuBLAS GEMMs, cuDNN activation and softmax where present
 * (kernels/cuda/mlp_train_cublas.c). */
extern const struct impl mlp_train_cublas_impl;

/* memcpy: cudaMemcpyAsync in each direction (kernels/cuda/memcpy_cuda.c). */
extern const struct impl memcpy_h2d_pinned_impl, memcpy_h2d_pageable_impl, memcpy_d2h_pinned_impl,
    memcpy_d2h_pageable_impl, memcpy_d2d_impl;

#endif
