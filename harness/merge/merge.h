/* merge.h — `gpubench merge`: many run CSVs (a fleet's tasks, or any files) into one tidy CSV.
 *
 * Inputs are run CSV files, or fleet results folders (RESULTS/<job>/ as written by
 * scripts/slurm/fleet: fleet.conf, task-N.csv, task-N.exit, task-N.log). Every file is read with
 * the strict gpubench-1 reader; the same run (run_id) in two inputs is refused. The output holds
 * the fixed columns, then every extra column seen in any input (slurm_job_id, …; empty where an
 * input lacks it), and is written atomically. For a folder, each expected task is accounted
 * for: a task with no CSV, a non-zero exit, or (when the fleet expects GPUs) no working GPU row
 * is named with the reason, and --allow-missing merges the rest.
 */
#ifndef GPUBENCH_MERGE_H
#define GPUBENCH_MERGE_H

/* `gpubench merge [options] FILE|DIR... --out FLEET.csv` with argv[0] = "merge". Per-task
 * findings and errors go to stderr. Returns the exit code: 0 everything merged; 1 some task is
 * missing or failed (the file is written only with --allow-missing, holding the others), or
 * writing the output failed (a full disk, as a run's exit 1); 2 bad usage or input (unreadable
 * or malformed CSV, the same run twice, nothing to merge, an --out that cannot be opened): one
 * line naming the argument or the file, line and column, nothing written. */
int merge_main(int argc, char **argv);

#endif
