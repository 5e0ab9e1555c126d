/* supervise.h — one run under a supervisor (docs/ARCHITECTURE.md, "Processes of a run"): the
 * rows are measured by a worker process (worker.h) and written here, so that a row that hangs or
 * kills its process costs that row, and Ctrl-C ends the run within 2 s whatever call the worker
 * is in. */
#ifndef GPUBENCH_SUPERVISE_H
#define GPUBENCH_SUPERVISE_H

#include "harness/run/cli.h"

/* Run the plan of `o` in workers started with `argv` (run's options as given; argv[0] the
 * command), `run_index` one of several runs (-1 alone). Returns the exit code: 0, 1 (a row
 * failed, or an output could not be written), 2 (a usage error, printed, nothing left behind),
 * 130 (interrupted: the finished rows committed). */
int supervise_run(int argc, char **argv, const struct options *o, int run_index);

#endif
