/* run_cmd.c — the `run` command's entry (options, OpenBLAS's core, then one run under its
 * supervisor or the runs of --runs N) and `list`. */
#include "harness/run/run_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/blas_core.h"
#include "harness/run/cli.h"
#include "harness/run/devices.h"
#include "harness/run/list.h"
#include "harness/run/outputs.h"
#include "harness/run/runs.h"
#include "harness/run/supervise.h"

/* `--runs N` in this process: the parent of the N runs (each a process of its own). */
static int run_many(int argc, char **argv, const struct options *o) {
    struct run_info ri;
    char out_path[4096];
    run_info_make(&ri);
    if (o->out)
        snprintf(out_path, sizeof out_path, "%s", o->out);
    else if (run_default_out(&ri, out_path, sizeof out_path))
        return 2;
    return runs_parent(argc, argv, o, out_path, run_made_results_dir());
}

int run_main(int argc, char **argv) {
    struct options o;
    /* the options as given, for the runs of --runs: parsing splits lists in place */
    char **given = malloc(((size_t)argc + 1) * sizeof *given);
    for (int i = 0; given && i < argc; i++)
        if (!(given[i] = strdup(argv[i]))) {
            fprintf(stderr, "gpubench: out of memory\n");
            return 2;
        }
    int rc = cli_parse_run(argc, argv, &o);
    if (!rc)
        blas_core_choose(o.blas_core); /* may re-execute: nothing is measured yet */
    int run_index = rc ? -1 : runs_child_index(&o); /* -1: not one of several runs */
    if (!rc && o.runs > 1 && run_index < 0)
        rc = given ? run_many(argc, given, &o) : 2;
    else if (!rc)
        rc = supervise_run(argc, given ? given : argv, &o, run_index);
    else if (rc == 1)
        rc = 0; /* --help, --version */
    for (int i = 0; given && i < argc; i++)
        free(given[i]);
    free(given);
    return rc;
}

static void list_usage(FILE *f) {
    fputs("usage: gpubench list\n"
          "\n"
          "Lists what this build can run: each workload with its implementations (and the kind\n"
          "of device each runs on), its default, --quick and --sweep shapes, and the devices\n"
          "found on this machine (the CPU, and every GPU or why there is none).\n"
          "\n"
          "options:\n"
          "  -h, --help   this text\n",
          f);
}

int list_cmd(int argc, char **argv) {
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        list_usage(stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "gpubench list: unexpected argument '%s'\n", argv[1]);
        return 2;
    }
    struct device_list devs;
    char gpu_why[512];
    devices_discover(0, 0, &devs, gpu_why, sizeof gpu_why);
    int rc = list_main(&devs, gpu_why);
    devices_shutdown(&devs);
    return rc;
}
