/* run_cmd.h — the `run` and `list` commands (harness/run/run_cmd.c). */
#ifndef GPUBENCH_RUN_CMD_H
#define GPUBENCH_RUN_CMD_H

/* `gpubench [run] [options]`: argv[0] is the command name. Returns the exit code: 0 all rows
 * ok or unsupported, 1 some row failed, 2 usage error, 130 interrupted. */
int run_main(int argc, char **argv);

/* `gpubench list`: workloads, implementations, shapes and devices. Returns the exit code. */
int list_cmd(int argc, char **argv);

/* `gpubench __child …`: one repetition of a per-process cost in this fresh process (child.c,
 * kernels/common/child.h). Internal: started by a run, never by a user. */
int child_main(int argc, char **argv);

#endif
