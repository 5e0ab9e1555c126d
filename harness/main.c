/* main.c — gpubench: the command dispatch. Each command is its own folder of harness/ (run and
 * list: run/, compare/, doctor/, merge/); docs/ARCHITECTURE.md has the map. Every command's
 * standard output is checked at its end (stdout_finish): a failed write is one line on stderr
 * and exit 1. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "harness/compare/compare.h"
#include "harness/doctor/doctor.h"
#include "harness/io/stdout_check.h"
#include "harness/merge/merge.h"
#include "harness/run/blas_core.h"
#include "harness/run/run_cmd.h"
#include "harness/run/worker.h"

static int dispatch(int argc, char **argv) {
    if (argc > 1 && argv[1][0] != '-') {
        const char *cmd = argv[1];
        if (strcmp(cmd, "run") == 0)
            return run_main(argc - 1, argv + 1);
        if (strcmp(cmd, "list") == 0)
            return list_cmd(argc - 1, argv + 1);
        if (strcmp(cmd, "compare") == 0)
            return compare_main(argc - 1, argv + 1);
        if (strcmp(cmd, "doctor") == 0)
            return doctor_main(argc - 1, argv + 1);
        if (strcmp(cmd, "merge") == 0)
            return merge_main(argc - 1, argv + 1);
        if (strcmp(cmd, "__worker") == 0) /* a run's measuring process (supervise.h) */
            return worker_main(argc - 1, argv + 1);
        if (strcmp(cmd, "__child") == 0) /* a run's process per repetition (start-up rows) */
            return child_main(argc - 1, argv + 1);
        if (strcmp(cmd, "__blas-trial") == 0) /* one OpenBLAS core on trial (blas_core.h) */
            return blas_core_trial_main();
        fprintf(stderr,
                "gpubench: unknown command '%s' (run, list, doctor, compare, merge; see "
                "gpubench --help)\n",
                cmd);
        return 2;
    }
    return run_main(argc, argv);
}

int main(int argc, char **argv) {
    /* A reader that closes the pipe (`gpubench … | head -1`) makes writes to stdout fail with
     * EPIPE instead of killing the process: a run keeps measuring and commits its file. */
    signal(SIGPIPE, SIG_IGN);
    /* OpenBLAS read OPENBLAS_CORETYPE when it loaded: a better core means a re-execution with
     * this argv, before anything runs (run and doctor call blas_core_choose). */
    blas_core_init(argc, argv);
    return stdout_finish(dispatch(argc, argv));
}
