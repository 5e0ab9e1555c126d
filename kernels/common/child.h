/* child.h — a fresh process per repetition, for costs that are paid once per process (the
 * start-up rows: OpenBLAS's and our pool's first call, a CUDA context, cublasCreate, …), which no
 * clock outside that process can isolate. The parent side is here; the child side is
 * harness/run/child.c (`gpubench __child …`), which calls the implementation's `child`.
 */
#ifndef GPUBENCH_CHILD_H
#define GPUBENCH_CHILD_H

#include <stdio.h>

#include "harness/core/workload.h"

enum { GB_CHILD_TIMEOUT_S = 300, GB_CHILD_MAX_OUT = 16 };

/* Start `EXE __child WORKLOAD IMPL ORDINAL THREADS SEED V0 V1 …` (EXE: this executable,
 * /proc/self/exe, or $GPUBENCH_CHILD_EXE where a test's own binary is not gpubench; V: the shape's
 * values) with the "NAME=value" strings of `env` (NULL-terminated, or NULL) added to its
 * environment, wait for it (killed after GB_CHILD_TIMEOUT_S: `timeout`) and read its one line:
 * "ok MS V…" sets ctx->child_ms = MS and p->out[0]'s first elements to V…; "STATUS NOTE" returns
 * that status with the note. A child that dies is `error`, with how it died. */
enum status gb_child_run(struct impl_ctx *ctx, const char *workload, const char *impl,
                         const char *const *env);

/* The child's answer line for gb_child_run, to f. */
void gb_child_report(FILE *f, enum status st, double ms, const struct problem *p,
                     const char *note);

#endif
