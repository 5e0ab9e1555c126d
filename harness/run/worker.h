/* worker.h — `gpubench __worker`: the measuring half of a run (docs/ARCHITECTURE.md, "Processes
 * of a run"). Started by the run's supervisor (supervise.c) with the run's options; it finds
 * the devices, builds the plan, and measures the rows the supervisor asks for with runner.c,
 * streaming each stage and each finished row to the supervisor (wire.h). It writes no file. */
#ifndef GPUBENCH_WORKER_H
#define GPUBENCH_WORKER_H

#include <stddef.h>

/* What the supervisor tells a worker beside its options, in the environment:
 * "RUN_INDEX:PREV_END:FRESH" (run index of --runs, -1 alone; when the cards were last busy with
 * our own work, CLOCK_MONOTONIC seconds, 0 unknown; 1 for a worker after the run's first, which
 * leaves the machine's warnings to the first: devices_discover's quiet). Its messages go to
 * descriptor 3, the supervisor's answers come on 4. */
#define WORKER_ENV "GPUBENCH_WORKER"
enum { WORKER_MSG_FD = 3, WORKER_CTL_FD = 4 };

/* argv: "__worker", then the run's options. Returns the exit code: 0 or 1 (the rows' verdict,
 * also sent), RUNNER_RESTART (harness/run/runner.h), 2 a usage error (printed) before any
 * message. */
int worker_main(int argc, char **argv);

/* A row's key, the same in every worker of a run: "cuda:0|gemm|cublas|m=64;n=64;k=64|float32".
 * The supervisor matches a fresh worker's rows to the run's by it. */
void worker_row_key(const char *dev_id, const char *workload, const char *impl,
                    const char *shape, const char *dtype, char *key, size_t len);

#endif
