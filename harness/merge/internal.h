/* internal.h — what merge.c and fleet.c share: the inputs of `gpubench merge`. */
#ifndef GPUBENCH_MERGE_INT_H
#define GPUBENCH_MERGE_INT_H

#include "harness/io/csv_read.h"

enum { MERGE_MAX_TASKS = 100000, MERGE_WHY_LEN = 2048 };

enum task_state { SRC_OK, SRC_FAILED, SRC_MISSING };

/* One input: a file given as such (task < 0) or one task of a fleet folder. */
struct merge_src {
    char *csv;      /* path of its run CSV */
    char *dir;      /* the fleet folder, for tasks */
    int task;       /* -1 for a file given by name */
    int expect_gpu; /* the fleet wants a working GPU row from this task */
    int has_exit, exit_code;
    int from_slurm; /* the exit record was written from Slurm's accounting, not by the task */
    char node[256];
    char reason[512]; /* from the exit record */
    char exit_bad[256]; /* why its exit record exists but cannot be read ("" when it can) */
    enum task_state state;
    char why[MERGE_WHY_LEN];
    struct csv_table t;
    int loaded; /* t holds the CSV */
};

struct merge_set {
    struct merge_src *v;
    int n, cap;
};

/* Append a source; returns it (zeroed but for task = -1), or NULL when out of memory. */
struct merge_src *merge_set_add(struct merge_set *s);

/* Free every source of s and its tables. */
void merge_set_free(struct merge_set *s);

/* Add one source per expected task of fleet folder `dir`: tasks 0..N-1 of its fleet.conf, or
 * without one, 0 up to the highest task that left a file. Reads each task's exit record.
 * Returns 0, or 2 with a message printed (not a folder, a broken fleet.conf, no tasks). */
int merge_add_fleet_dir(struct merge_set *set, const char *dir);

/* Read task m's CSV if it has one and decide its state (ok, failed or missing) and why, from
 * the CSV, its exit record, its log and, in a GPU fleet, whether any GPU row worked. */
void merge_judge_task(struct merge_src *m);

#endif
