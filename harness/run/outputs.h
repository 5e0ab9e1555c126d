/* outputs.h — a run's files and where its rows go (the supervisor's side of a run,
 * harness/run/supervise.c): the run's facts, the --out / --json / --samples files written as
 * PATH.partial and committed at the end, and one finished row written to the sink and every
 * file. */
#ifndef GPUBENCH_OUTPUTS_H
#define GPUBENCH_OUTPUTS_H

#include <stddef.h>

#include "harness/core/result.h"
#include "harness/io/csv_write.h"
#include "harness/io/rows.h"
#include "harness/run/cli.h"
#include "harness/run/sinks.h"

/* The run's id, time (UTC), host and Slurm ids. */
void run_info_make(struct run_info *ri);

/* results/<host>-<UTC timestamp>.csv into path, creating results/ when it is missing. Returns
 * 0, or 2 after one line on stderr. */
int run_default_out(const struct run_info *ri, char *path, size_t len);
/* 1 when run_default_out created results/ (removed again after a usage error). */
int run_made_results_dir(void);

/* The run's files: --out (CSV, or JSON by its name) unless --no-out, --json, --samples. */
struct run_files {
    struct result_file out, json;
    struct csv_file samples;
    int have_out, have_json, have_samples;
    char out_path[4096];
};

/* Open every file the options ask for. Returns 0, or 2 with one line printed and nothing left. */
int run_files_open(const struct options *o, const struct run_info *ri, struct run_files *rf);

/* Commit every file (PATH.partial -> PATH) and, when `say`, where the results are (one of
 * several runs leaves that to the parent, which gathers them). `rows`: the rows finished; an
 * interrupted run with none commits nothing and leaves every file as it was. Returns rc, or 1
 * when a file could not be written and rc was 0. */
int run_files_commit(struct run_files *rf, int rc, int rows, int say);

/* What the run does once stdout fails ("the run goes on: its rows go to out.csv"). */
void run_files_lost(const struct run_files *rf, int run_index, char *lost, size_t len);

enum { RUN_FILES = 2 };

/* Where a finished row goes. */
struct run_outputs {
    struct result_file *files[RUN_FILES]; /* the --out and --json files; NULL where absent */
    struct csv_file *samples;             /* may be NULL */
    struct sink *sink;
    int rows; /* rows written so far */
};

/* One finished row: to the sink, then to every file (flushed: an interrupted run keeps it). */
void run_outputs_row(struct run_outputs *out, const struct run_info *ri, const struct result *r);

#endif
