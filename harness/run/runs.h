/* runs.h — `gpubench run --runs N`: N independent runs in one invocation. Each run is its own
 * process (this binary again, with the same options), so what changes between runs — clocks,
 * placement, page layout, other tenants — changes between them as it would between two
 * invocations; each run shuffles its rows and keeps its own samples; the parent gathers the
 * runs into one CSV (and one samples file) whose `run` column numbers them. */
#ifndef GPUBENCH_RUNS_H
#define GPUBENCH_RUNS_H

#include "harness/run/cli.h"

/* Which run of `--runs N` this process is (0 .. N−1), as its parent gpubench said in the
 * environment; -1 for the parent itself and for a plain run. */
int runs_child_index(const struct options *o);

/* When the previous run of `--runs N` ended (CLOCK_MONOTONIC seconds: one clock for every process
 * of the machine), as the parent said in the environment; 0 for the first run, the parent and a
 * plain run. The cards were busy with our own work until then (tel_gpu_work_ended). */
double runs_previous_end(const struct options *o);

/* The parent of `--runs N` (o->runs > 1): runs gpubench N times, one after another, each writing
 * `out_path.runI` (and `samples.runI`), appends their rows to out_path (and the samples file),
 * written atomically like any run CSV. argv is run's (argv[0] = the command). `made_dir`: the
 * default results/ folder was created for this run (removed again after a usage error).
 * Returns the exit code: 0 every run's rows ok, 1 some row failed or a run died, 2 a usage error
 * (the first run printed it; nothing is left behind), 130 interrupted (the runs so far kept). */
int runs_parent(int argc, char **argv, const struct options *o, const char *out_path, int made_dir);

#endif
