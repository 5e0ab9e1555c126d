/* amp.h — the f16 tier of mlp_train/cublas: one mixed-precision SGD step (FP16 operands, FP32
 * accumulation and master weights, static loss scaling; amp.c). mlp_train/cublas hands an f16
 * problem's prepare, upload, run, download and release to these, with the same contracts
 * (harness/core/workload.h, struct impl). */
#ifndef GPUBENCH_MLP_AMP_H
#define GPUBENCH_MLP_AMP_H

#include "harness/core/workload.h"

enum status mlp_amp_prepare(struct impl_ctx *ctx);
enum status mlp_amp_upload(struct impl_ctx *ctx);
enum status mlp_amp_run(struct impl_ctx *ctx);
enum status mlp_amp_download(struct impl_ctx *ctx);
void mlp_amp_release(struct impl_ctx *ctx);

#endif
