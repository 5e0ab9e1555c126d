/* cli.c — `gpubench run` options: getopt_long, strict numbers, one-line errors. */
#include "harness/run/cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "bench/registry.h"
#include "build_manifest.h"
#include "harness/core/dtype.h"
#include "harness/core/shape.h"
#include "harness/core/stats.h"
#include "harness/run/blas_core.h"

/* How many workloads the --workload line names before its ",...": the registry's first four,
 * which every build has (later ones may need CUDA), so that --help reads the same in every build
 * and the line stays short; `gpubench list` names them all. */
enum { USAGE_WORKLOADS = 4 };

/* The registry's first USAGE_WORKLOADS workload names, then ",...". */
static void usage_workloads(FILE *f) {
    for (int i = 0; i < USAGE_WORKLOADS && registry_workloads[i]; i++)
        fprintf(f, "%s,", registry_workloads[i]->name);
    fputs("...\n", f);
}

/* Examples with the registry's own workloads and shapes, so they stay runnable: one workload at
 * an explicit shape on the first GPU, and a sweep of two workloads compared with the CPU. */
static void usage_examples(FILE *f) {
    const struct workload *a = registry_workloads[0];
    const struct workload *b = registry_workloads[1] ? registry_workloads[1] : a;
    fprintf(f, "  gpubench -w %s -s %s:%s -d cuda:0 --samples s.csv\n", b->name, b->name,
            b->default_shapes[0]);
    fprintf(f, "  gpubench --sweep -w %s,%s --out sweep.csv && gpubench compare sweep.csv "
               "--baseline cpu\n",
            b->name, a->name);
}

void cli_usage(FILE *f) {
    fputs("usage: gpubench [run] [options]      run benchmarks (the default command)\n"
          "       gpubench list                 workloads, implementations, devices, shapes\n"
          "       gpubench doctor [--assume SPEC] [--assume-build SPEC] [--format text|json]\n"
          "       gpubench compare FILE... [--baseline DEVICE|FILE:DEVICE]\n"
          "       gpubench compare --base BEFORE.csv... --new AFTER.csv...\n"
          "       gpubench merge FILE... --out FLEET.csv\n"
          "\n"
          "run options:\n"
          "  -w, --workload LIST   workloads to run (default: all): ",
          f);
    usage_workloads(f);
    fputs(
        "  -i, --impl LIST       implementations (default: all): cpu,openblas,cuda,cublas,cudnn\n"
        "  -d, --device LIST     devices (default: all found): cpu, cuda (every GPU), cuda:N\n"
        "  -s, --shape W:K=V,... replace the default shapes of workload W (repeatable;\n"
        "                        ';' also separates pairs; values may be written 2^N); a key\n"
        "                        left out takes its value in W's default shape (-s conv2d:h=8);\n"
        "                        with --sweep, W runs its ladder and these shapes both\n"
        "  -D, --dtype LIST      precision tiers: f32,f64,tf32,f16,bf16 or all (default f32,f64);\n"
        "                        a tier an implementation or card lacks is an unsupported row\n"
        "      --sweep           run each workload's size ladder (find the GPU/CPU crossover)\n"
        "  -q, --quick           small shapes and short timing: the whole suite in seconds\n"
        "      --min-time SEC    time each row at least this long (default 0.5 s; quick 0.05)\n"
        "      --max-time SEC    stop timing a row after this long (default 10 s; quick 1)\n"
        "  -r, --reps N          at least N timed repetitions, even past --max-time (default 10;\n"
        "                        quick 6: the fewest with a 95% CI of the median)\n"
        "      --warmup N        untimed runs before timing (default 2; quick 1)\n"
        "      --row-timeout SEC a row's stages end after this long, plus what --warmup,\n"
        "                        --reps and --max-time allow (default 300): a hung row is\n"
        "                        `timeout` and the run goes on in a fresh worker\n"
        "  -t, --threads N       CPU threads for our pool and OpenBLAS (default: physical cores)\n"
        "      --blas-core CORE  OpenBLAS's kernels: auto (default: the CPU's best, tried once\n"
        "                        and remembered), trial (try again now), own (OpenBLAS's own\n"
        "                        pick), or a core name (SkylakeX, Haswell, ...);\n"
        "                        OPENBLAS_CORETYPE, if set, wins\n"
        "      --seed N          seed of the random inputs (default 42)\n"
        "  -o, --out PATH        run file (default results/<host>-<UTC time>.csv); CSV, or\n"
        "                        the JSON document when PATH ends in .json; - is stdout\n"
        "                        (the run CSV there, in place of the table)\n"
        "      --json PATH       also write the JSON document (full precision) to PATH\n"
        "      --no-out          write no run file (as -o /dev/null)\n"
        "      --samples PATH    also write every timed sample to PATH (CSV)\n"
        "      --runs N          N independent runs, one process each, rows shuffled in each;\n"
        "                        one CSV with a run column (for compare's verdicts; default 1)\n"
        "      --no-telemetry    no clocks, power, energy, throttling, PCIe link or shared-CPU\n"
        "                        (cpu_wait_pct) columns\n"
        "  -f, --format F        what goes to stdout: table (default), csv, json, markdown,\n"
        "                        gbench (Google Benchmark JSON), bmf (Bencher Metric Format)\n"
        "  -h, --help            this text\n"
        "  -V, --version         version and what this binary was built for\n"
        "\n"
        "examples:\n"
        "  gpubench                                    # default suite on every device\n",
        f);
    usage_examples(f);
}

static void print_version(void) {
    printf("gpubench %s\n", GPUBENCH_VERSION);
    printf("built with %s (%s); OpenBLAS %s; hwloc %s\n", GPUBENCH_BUILD_C_COMPILER,
           GPUBENCH_BUILD_TYPE, GPUBENCH_BUILD_OPENBLAS_VERSION, GPUBENCH_BUILD_HWLOC_VERSION);
    if (GPUBENCH_BUILD_CUDA_VERSION[0])
        printf("CUDA %s, architectures %s; cuBLAS %s; cuDNN %s\n", GPUBENCH_BUILD_CUDA_VERSION,
               GPUBENCH_BUILD_CUDA_ARCHS,
               GPUBENCH_BUILD_CUBLAS_VERSION[0] ? GPUBENCH_BUILD_CUBLAS_VERSION : "none",
               GPUBENCH_BUILD_CUDNN_VERSION[0] ? GPUBENCH_BUILD_CUDNN_VERSION : "none");
    else
        printf("CPU-only build (no CUDA)\n");
}

static int usage_error(const char *fmt, const char *a, const char *b) {
    fprintf(stderr, "gpubench: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (see gpubench --help)\n");
    return 2;
}

/* Split a comma-separated LIST into items; empty items are an error. */
static int split_list(const char *opt, char *arg, char **items, int *n) {
    if (!arg[0])
        return usage_error("%s: empty list%s", opt, "");
    size_t len = strlen(arg);
    if (arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
        return usage_error("%s: empty item in list '%s'", opt, arg);
    char *save = NULL;
    for (char *t = strtok_r(arg, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*n >= CLI_MAX_LIST)
            return usage_error("%s: more than %s items", opt, "32");
        items[(*n)++] = t;
    }
    return 0;
}

static int parse_seconds(const char *opt, const char *arg, double *out) {
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || *end != '\0' || !isfinite(v) || v < 0)
        return usage_error("%s: '%s' is not a non-negative number of seconds", opt, arg);
    *out = v;
    return 0;
}

static int parse_num(const char *opt, const char *arg, long min, long max, long *out) {
    char err[160];
    if (parse_long(arg, min, max, 0, out, err, sizeof err, opt) != 0) {
        fprintf(stderr, "gpubench: %s (see gpubench --help)\n", err);
        return 2;
    }
    return 0;
}

/* -w, -i, -d: the comma-separated lists. Returns 0 or 2 (error printed). */
static int opt_list(int c, char *arg, struct options *o) {
    switch (c) {
    case 'w': return split_list("--workload", arg, o->workloads, &o->nworkloads);
    case 'i': return split_list("--impl", arg, o->impls, &o->nimpls);
    default: return split_list("--device", arg, o->devices, &o->ndevices);
    }
}

/* -D LIST: the precision tiers, by short or CSV name, or `all`. */
static int opt_dtype(char *arg, struct options *o) {
    char *items[CLI_MAX_LIST];
    int n = 0, rc;
    if ((rc = split_list("--dtype", arg, items, &n)))
        return rc;
    o->dtypes = 0;
    for (int i = 0; i < n; i++) {
        enum dtype t;
        if (strcmp(items[i], "all") == 0)
            o->dtypes |= DT_ALL;
        else if (dtype_parse(items[i], &t) == 0)
            o->dtypes |= DT_BIT(t);
        else
            return usage_error("--dtype: unknown tier '%s' (f32, f64, tf32, f16, bf16 or all)%s",
                               items[i], "");
    }
    return 0;
}

/* -s WORKLOAD:key=value,...: kept as text; the plan parses it against the workload's keys. */
static int opt_shape(const char *arg, struct options *o) {
    const char *colon = strchr(arg, ':');
    if (!colon || colon == arg)
        return usage_error("--shape: '%s' is not WORKLOAD:key=value,...%s", arg, "");
    if (o->nshapes >= CLI_MAX_SHAPES)
        return usage_error("--shape: more than %s shapes%s", "64", "");
    struct shape_arg *sa = &o->shapes[o->nshapes++];
    size_t wl = (size_t)(colon - arg);
    if (wl >= sizeof sa->workload || strlen(colon + 1) >= sizeof sa->text)
        return usage_error("--shape: '%s' is too long%s", arg, "");
    memcpy(sa->workload, arg, wl);
    sa->workload[wl] = '\0';
    strcpy(sa->text, colon + 1);
    return 0;
}

/* --min-time, --max-time, -r, --warmup, --row-timeout: the timing numbers, each marked as given so that
 * --quick does not override it. */
static int opt_timing(int c, const char *arg, struct options *o) {
    int rc;
    switch (c) {
    case 'm':
        if ((rc = parse_seconds("--min-time", arg, &o->min_time)))
            return rc;
        o->set_min_time = 1;
        return 0;
    case 'M':
        if ((rc = parse_seconds("--max-time", arg, &o->max_time)))
            return rc;
        if (o->max_time <= 0)
            return usage_error("--max-time: '%s' must be more than 0 seconds%s", arg, "");
        o->set_max_time = 1;
        return 0;
    case 'r':
        if ((rc = parse_num("--reps", arg, 1, 10000000, &o->min_reps)))
            return rc;
        o->set_reps = 1;
        return 0;
    case 'O':
        if ((rc = parse_seconds("--row-timeout", arg, &o->row_timeout)))
            return rc;
        if (o->row_timeout <= 0)
            return usage_error("--row-timeout: '%s' must be more than 0 seconds%s", arg, "");
        return 0;
    default:
        if ((rc = parse_num("--warmup", arg, 0, 1000000, &o->warmup)))
            return rc;
        o->set_warmup = 1;
        return 0;
    }
}

/* -t, --seed, --runs: the other numbers. */
static int opt_number(int c, const char *arg, struct options *o) {
    long v;
    int rc;
    if (c == 'n') {
        if ((rc = parse_num("--runs", arg, 1, 1000, &v)))
            return rc;
        o->runs = (int)v;
        return 0;
    }
    if (c == 't') {
        if ((rc = parse_num("--threads", arg, 1, 256, &v)))
            return rc;
        o->threads = (int)v;
        return 0;
    }
    if ((rc = parse_num("--seed", arg, 0, 0x7fffffffffffffffL, &v)))
        return rc;
    o->seed = (uint64_t)v;
    return 0;
}

/* -o, --samples, --json, --no-out: where the results go. */
static int opt_output(int c, const char *arg, struct options *o) {
    static const char *const names[] = {"--out", "--samples", "--json"};
    const char **dest[] = {&o->out, &o->samples, &o->json};
    int i = c == 'o' ? 0 : c == 'a' ? 1 : 2;
    if (c == 'N') {
        o->no_out = 1;
        return 0;
    }
    if (!arg[0])
        return usage_error("%s: empty path%s", names[i], "");
    *dest[i] = arg;
    return 0;
}

int cli_out_is_json(const char *path) {
    size_t n = path ? strlen(path) : 0;
    return n >= 5 && strcasecmp(path + n - 5, ".json") == 0;
}

/* -f: what goes to stdout. */
static int opt_format(const char *arg, struct options *o) {
    if (strcmp(arg, "table") == 0)
        o->format = FMT_TABLE;
    else if (strcmp(arg, "csv") == 0)
        o->format = FMT_CSV;
    else if (strcmp(arg, "json") == 0)
        o->format = FMT_JSON;
    else if (strcmp(arg, "markdown") == 0)
        o->format = FMT_MARKDOWN;
    else if (strcmp(arg, "gbench") == 0)
        o->format = FMT_GBENCH;
    else if (strcmp(arg, "bmf") == 0)
        o->format = FMT_BMF;
    else
        return usage_error("--format: '%s' is not one of table, csv, json, markdown, gbench, "
                           "bmf%s",
                           arg, "");
    return 0;
}

/* The defaults, before any option. */
static void options_defaults(struct options *o) {
    memset(o, 0, sizeof *o);
    o->min_time = 0.5;
    o->max_time = 10.0;
    o->min_reps = 10;
    o->warmup = 2;
    o->row_timeout = 300.0;
    o->seed = 42;
    o->format = FMT_TABLE;
    o->dtypes = DT_DEFAULT;
    o->runs = 1;
}

/* --runs N gathers its runs' CSVs into one CSV: each run is its own process with its own stdout,
 * so N documents there (csv, json, gbench, bmf) would be one broken one, while tables simply
 * follow each other; and the gathered file is a CSV. Returns 0 or 2 (error printed). */
static int runs_options(const struct options *o) {
    static const char *const names[] = {"table", "csv", "json", "markdown", "gbench", "bmf"};
    size_t n = o->out ? strlen(o->out) : 0;
    if (o->format != FMT_TABLE && o->format != FMT_MARKDOWN)
        return usage_error("--format %s: one document per run; with --runs the run CSV (--out) "
                           "holds every run%s",
                           names[o->format], "");
    struct stat st;
    int device = o->out && stat(o->out, &st) == 0 && !S_ISREG(st.st_mode); /* -o /dev/null */
    (void)n;
    if (o->json || o->no_out || device || cli_out_is_json(o->out))
        return usage_error("--runs: gathers the runs into one CSV (--out PATH.csv); %s%s",
                           o->no_out || device ? "writing no run file leaves nothing to gather"
                                               : "JSON output is not supported with --runs",
                           "");
    return 0;
}

/* After the last option: --quick's short timing where not given, and the checks that need
 * several options. Returns 0 or 2 (error printed). */
static int options_finish(struct options *o) {
    if (o->quick) { /* short timing; small shapes unless --sweep chose the ladder */
        if (!o->set_min_time)
            o->min_time = 0.05;
        if (!o->set_max_time)
            o->max_time = 1.0;
        if (!o->set_reps) /* the fewest with a 95% interval of the median (stats.h) */
            o->min_reps = (long)stats_median_ci_min_n(STATS_CI_LEVEL);
        if (!o->set_warmup)
            o->warmup = 1;
    }
    if (!o->set_max_time && o->max_time < o->min_time)
        o->max_time = o->min_time; /* the default cap never undercuts a chosen minimum */
    if (o->out && !strcmp(o->out, "-")) { /* the run CSV on stdout, where the table would go */
        if (o->set_format && o->format != FMT_CSV)
            return usage_error("--out -: standard output carries the run CSV; --format %s would "
                               "write there too (give one of them)%s",
                               (const char *const[]){"table", "csv", "json", "markdown", "gbench",
                                                     "bmf"}[o->format],
                               "");
        if (o->runs > 1)
            return usage_error("--out -: --runs gathers its runs into a file (--out PATH.csv)%s%s",
                               "", "");
        o->format = FMT_CSV;
        o->out = NULL;
        o->no_out = 1;
    }
    if (o->out && o->samples && strcmp(o->out, o->samples) == 0)
        return usage_error("--samples: '%s' is also the --out file%s", o->samples, "");
    if (o->json && ((o->out && strcmp(o->out, o->json) == 0) ||
                    (o->samples && strcmp(o->samples, o->json) == 0)))
        return usage_error("--json: '%s' is also the --out or --samples file%s", o->json, "");
    if (o->no_out && o->out)
        return usage_error("--no-out: contradicts --out %s%s", o->out, "");
    if (o->max_time < o->min_time)
        return usage_error("--max-time is shorter than --min-time%s%s", "", "");
    return o->runs > 1 ? runs_options(o) : 0;
}

int cli_parse_run(int argc, char **argv, struct options *o) {
    static const struct option longopts[] = {
        {"workload", required_argument, NULL, 'w'}, {"impl", required_argument, NULL, 'i'},
        {"device", required_argument, NULL, 'd'},   {"shape", required_argument, NULL, 's'},
        {"sweep", no_argument, NULL, 'S'},          {"quick", no_argument, NULL, 'q'},
        {"min-time", required_argument, NULL, 'm'}, {"max-time", required_argument, NULL, 'M'},
        {"reps", required_argument, NULL, 'r'},     {"warmup", required_argument, NULL, 'W'},
        {"threads", required_argument, NULL, 't'},  {"seed", required_argument, NULL, 'e'},
        {"out", required_argument, NULL, 'o'},      {"samples", required_argument, NULL, 'a'},
        {"format", required_argument, NULL, 'f'},   {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},        {"json", required_argument, NULL, 'j'},
        {"no-out", no_argument, NULL, 'N'},         {"runs", required_argument, NULL, 'n'},
        {"dtype", required_argument, NULL, 'D'},   {"row-timeout", required_argument, NULL, 'O'},
        {"no-telemetry", no_argument, NULL, 'T'},
        {"blas-core", required_argument, NULL, 'B'},
        {NULL, 0, NULL, 0}};
    int c, rc = 0, version = 0;
    options_defaults(o);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":w:i:d:D:s:qr:t:o:f:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'w':
        case 'i':
        case 'd': rc = opt_list(c, optarg, o); break;
        case 's': rc = opt_shape(optarg, o); break;
        case 'D': rc = opt_dtype(optarg, o); break;
        case 'S': o->sweep = 1; break;
        case 'q': o->quick = 1; break;
        case 'm':
        case 'M':
        case 'r':
        case 'O':
        case 'W': rc = opt_timing(c, optarg, o); break;
        case 't':
        case 'n':
        case 'e': rc = opt_number(c, optarg, o); break;
        case 'o':
        case 'a':
        case 'j':
        case 'N': rc = opt_output(c, optarg, o); break;
        case 'f':
            rc = opt_format(optarg, o);
            o->set_format = 1;
            break;
        case 'T': o->no_telemetry = 1; break;
        case 'B':
            if (!blas_core_option_ok(optarg))
                return usage_error("--blas-core: '%s' is not auto, trial, own or an OpenBLAS core name "
                                   "(SkylakeX, Haswell, Zen, ...)%s",
                                   optarg, "");
            o->blas_core = optarg;
            break;
        case 'h': cli_usage(stdout); return 1;
        case 'V': version = 1; break; /* printed once every option is known good */
        case ':': return usage_error("%s: missing value%s", argv[optind - 1], "");
        default: return usage_error("unknown option '%s'%s", argv[optind - 1], "");
        }
        if (rc)
            return rc;
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'%s", argv[optind], "");
    if (version) {
        print_version();
        return 1;
    }
    return options_finish(o);
}
