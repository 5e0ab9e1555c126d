/* cli.h — options of `gpubench run` and their parsing. */
#ifndef GPUBENCH_CLI_H
#define GPUBENCH_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { CLI_MAX_SHAPES = 64, CLI_MAX_LIST = 32 };

enum out_format { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_MARKDOWN, FMT_GBENCH, FMT_BMF };

struct shape_arg {
    char workload[32];
    char text[480]; /* "m=64,n=64,k=64" */
};

struct options {
    char *workloads[CLI_MAX_LIST]; int nworkloads; /* empty = all */
    char *impls[CLI_MAX_LIST]; int nimpls;         /* empty = all */
    char *devices[CLI_MAX_LIST]; int ndevices;     /* empty = all found */
    struct shape_arg shapes[CLI_MAX_SHAPES]; int nshapes;
    unsigned dtypes;           /* precision tiers, a DT_BIT mask (default f32 and f64) */
    int sweep, quick;
    double min_time, max_time; /* seconds */
    long min_reps, warmup;
    double row_timeout;        /* seconds: the floor of every stage's deadline (runner.c) */
    int threads;               /* 0 = physical cores */
    uint64_t seed;
    const char *out, *samples;
    const char *json;          /* --json PATH: the JSON document beside the --out file */
    int no_out;                /* --no-out: no run file */
    const char *blas_core;     /* --blas-core: auto (NULL), own or a core name (blas_core.h) */
    int no_telemetry;          /* --no-telemetry: no clocks, power or energy columns */
    enum out_format format;
    int runs;                  /* independent runs, each its own process (--runs, default 1) */
    /* Set when the user gave them, so --quick does not override explicit values. */
    int set_min_time, set_max_time, set_reps, set_warmup, set_format;
};

/* Parse the options of `run` (argv[0] is the command name). Returns 0 to run, 1 when --help or
 * --version was printed (exit 0), or 2 after printing a one-line error naming the argument. */
int cli_parse_run(int argc, char **argv, struct options *o);

/* Does --out PATH name the JSON document (it ends in .json, in any case: x.JSON)? */
int cli_out_is_json(const char *path);

/* The usage text, with worked examples. */
void cli_usage(FILE *f);

#endif
