/* cli.c — `gpubench compare`: options, mode choice, and the rule that a bad input prints
 * one line and nothing else (the report is built in memory and printed only when complete). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/compare/compare.h"
#include "harness/compare/internal.h"

static const char usage[] =
    "usage: gpubench compare [options] FILE.csv...\n"
    "\n"
    "Two modes, from gpubench-1 run CSVs (rows join on workload, impl, shape and dtype):\n"
    "  slowdown    --baseline DEVICE or FILE:DEVICE (also the default for one file, against\n"
    "              cpu): each device's median time relative to the baseline, kernel-only and\n"
    "              end to end, geometric means, and for --sweep runs the size from which a GPU\n"
    "              (end to end) beats the CPU.\n"
    "  regression  exactly two files, BASE NEW (same devices, e.g. before and after a driver\n"
    "              upgrade): per row the change of the median and a verdict same / faster /\n"
    "              slower from a Mann-Whitney U test on the samples (or, without samples, from\n"
    "              the rows' 95% confidence intervals) and a minimum effect; a row whose status\n"
    "              went from ok to wrong/error/..., or that vanished, is a regression too.\n"
    "\n"
    "options:\n"
    "  -b, --baseline SPEC    slowdown mode against device SPEC (cpu, cuda:0) of the first file\n"
    "                         that has it, or FILE:DEVICE (e.g. a100.csv:cuda:0)\n"
    "  -s, --samples FILE     a samples file (gpubench --samples); repeatable; each is matched to\n"
    "                         its run CSV by run_id\n"
    "  -t, --threshold PCT    smallest change that counts as slower/faster (default 5 = 5%)\n"
    "      --alpha P          significance level of the test (default 0.01)\n"
    "      --seed N           seed of the bootstrap confidence intervals (default 1)\n"
    "      --bootstrap N      bootstrap resamples (default 2000)\n"
    "  -f, --format FMT       table (default), markdown, csv or json\n"
    "  -h, --help             this text\n"
    "\n"
    "exit status: 0 no regression, 1 regression found, 2 bad usage or input (one line naming\n"
    "the file, line and column)\n"
    "\n"
    "examples:\n"
    "  gpubench compare --baseline cpu results/k40m.csv\n"
    "  gpubench compare --baseline a100.csv:cuda:0 a100.csv k40m.csv k2100m.csv\n"
    "  gpubench compare before.csv after.csv --samples before.samples.csv \\\n"
    "                   --samples after.samples.csv --threshold 3\n";

static int parse_double(const char *s, double *v) {
    char *end;
    if (!s[0])
        return -1;
    *v = strtod(s, &end);
    return (*end == '\0' && isfinite(*v)) ? 0 : -1;
}

static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    if (!(s[0] >= '0' && s[0] <= '9'))
        return -1;
    *v = strtoull(s, &end, 10);
    return *end == '\0' ? 0 : -1;
}

/* --baseline FILE:DEVICE may name a file not listed among the inputs: read it first then. */
static const char *baseline_file(const char *spec, char *const *files, int nfiles) {
    static char buf[4096];
    for (const char *c = strchr(spec, ':'); c; c = strchr(c + 1, ':')) {
        size_t n = (size_t)(c - spec);
        for (int f = 0; f < nfiles; f++)
            if (strlen(files[f]) == n && !strncmp(files[f], spec, n))
                return NULL;
        if (n >= sizeof buf)
            return NULL;
        memcpy(buf, spec, n);
        buf[n] = '\0';
        if (access(buf, F_OK) == 0)
            return buf;
    }
    return NULL;
}

/* --threshold PCT ("5" or "5%") into o->threshold as a fraction. Returns 0, or 2 with err. */
static int opt_threshold(const char *arg, struct cmp_opts *o, char *err, size_t errlen) {
    char tmp[64];
    double v;
    snprintf(tmp, sizeof tmp, "%s", arg);
    size_t n = strlen(tmp);
    if (n && tmp[n - 1] == '%')
        tmp[n - 1] = '\0';
    if (parse_double(tmp, &v) || v < 0 || v >= 1000) {
        snprintf(err, errlen, "compare: --threshold '%s': want a percentage, e.g. 5", arg);
        return 2;
    }
    o->threshold = v / 100;
    return 0;
}

/* --alpha, --seed, --bootstrap (getopt letters a, S, B). Returns 0, or 2 with err. */
static int opt_stats(int opt, const char *arg, struct cmp_opts *o, char *err, size_t errlen) {
    double v;
    uint64_t u;
    switch (opt) {
    case 'a':
        if (parse_double(arg, &v) || !(v > 0 && v < 1)) {
            snprintf(err, errlen, "compare: --alpha '%s': want a number in (0, 1)", arg);
            return 2;
        }
        o->alpha = v;
        return 0;
    case 'S':
        if (parse_u64(arg, &u)) {
            snprintf(err, errlen, "compare: --seed '%s': want a whole number", arg);
            return 2;
        }
        o->seed = u;
        return 0;
    default:
        if (parse_u64(arg, &u) || u < 100 || u > 1000000) {
            snprintf(err, errlen, "compare: --bootstrap '%s': want 100 to 1000000", arg);
            return 2;
        }
        o->boot_iters = (int)u;
        return 0;
    }
}

/* --format FMT. Returns 0, or 2 with err. */
static int opt_format(const char *arg, struct cmp_opts *o, char *err, size_t errlen) {
    if (!strcmp(arg, "table"))
        o->format = CMP_TABLE;
    else if (!strcmp(arg, "markdown"))
        o->format = CMP_MARKDOWN;
    else if (!strcmp(arg, "csv"))
        o->format = CMP_CSV;
    else if (!strcmp(arg, "json"))
        o->format = CMP_JSON;
    else {
        snprintf(err, errlen, "compare: --format '%s': want table, markdown, csv or json", arg);
        return 2;
    }
    return 0;
}

/* The options of argv into o and samples[] (room for argc). Returns 0 to go on (optind at the
 * first file), 1 when --help was printed to out, or 2 with one line in err. */
static int parse_options(int argc, char **argv, struct cmp_opts *o, char **samples, int *nsamples,
                         FILE *out, char *err, size_t errlen) {
    static const struct option longopts[] = {{"baseline", required_argument, NULL, 'b'},
                                             {"samples", required_argument, NULL, 's'},
                                             {"threshold", required_argument, NULL, 't'},
                                             {"alpha", required_argument, NULL, 'a'},
                                             {"seed", required_argument, NULL, 'S'},
                                             {"bootstrap", required_argument, NULL, 'B'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    int opt, rc = 0;
    optind = 0; /* a fresh scan: main or an earlier call may have used getopt */
    opterr = 0;
    while (rc == 0 && (opt = getopt_long(argc, argv, ":b:s:t:f:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'b': o->baseline = optarg; break;
        case 's': samples[(*nsamples)++] = optarg; break;
        case 't': rc = opt_threshold(optarg, o, err, errlen); break;
        case 'a':
        case 'S':
        case 'B': rc = opt_stats(opt, optarg, o, err, errlen); break;
        case 'f': rc = opt_format(optarg, o, err, errlen); break;
        case 'h': fputs(usage, out); return 1;
        case ':':
            snprintf(err, errlen, "compare: %s needs a value (see gpubench compare --help)",
                     argv[optind - 1]);
            return 2;
        default:
            snprintf(err, errlen, "compare: unknown option '%s' (see gpubench compare --help)",
                     argv[optind - 1]);
            return 2;
        }
    }
    return rc;
}

/* The run CSVs to load into files[] (room for argc + 1): a --baseline FILE not among the
 * arguments first, then the arguments from optind. Returns how many. */
static int input_files(const char *baseline, int argc, char **argv, char **files) {
    int nfiles = 0;
    if (baseline) {
        const char *bf = baseline_file(baseline, argv + optind, argc - optind);
        if (bf)
            files[nfiles++] = (char *)bf;
    }
    for (int i = optind; i < argc; i++)
        files[nfiles++] = argv[i];
    return nfiles;
}

/* `gpubench compare` into out (the caller prints it only on success). Returns the exit code:
 * 0, 1 (a regression) or 2 with one line in err. */
static int run(int argc, char **argv, FILE *out, char *err, size_t errlen) {
    struct cmp_opts o = {
        .threshold = 0.05, .alpha = 0.01, .seed = 1, .boot_iters = 2000, .format = CMP_TABLE};
    char **samples = calloc((size_t)argc + 1, sizeof *samples);
    char **files = calloc((size_t)argc + 2, sizeof *files);
    int nsamples = 0, nfiles = 0, rc = 2;
    struct cmp_input in = {0};
    if (!samples || !files) {
        snprintf(err, errlen, "compare: out of memory");
        goto out;
    }
    rc = parse_options(argc, argv, &o, samples, &nsamples, out, err, errlen);
    if (rc != 0) {
        rc = rc == 1 ? 0 : 2; /* --help is a success */
        goto out;
    }
    rc = 2;
    nfiles = input_files(o.baseline, argc, argv, files);
    if (nfiles == 0) {
        snprintf(err, errlen, "compare: no run CSV given (see gpubench compare --help)");
        goto out;
    }
    if (!o.baseline && nfiles != 2)
        o.baseline = "cpu"; /* one run, or many: against the CPU */
    if (cmp_load(&in, files, nfiles, samples, nsamples, err, errlen))
        goto out;
    rc = o.baseline ? cmp_slowdown(&in, &o, out, err, errlen)
                    : cmp_regress(&in, &o, out, err, errlen);
out:
    cmp_free(&in);
    free(samples);
    free(files);
    return rc;
}

int compare_run(int argc, char **argv, FILE *out, FILE *errf) {
    char err[CSV_ERR_LEN + 256] = "";
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        fprintf(errf, "compare: out of memory\n");
        return 2;
    }
    int rc = run(argc, argv, mem, err, sizeof err);
    fclose(mem);
    if (rc == 2) {
        fprintf(errf, "%s\n", err[0] ? err : "compare: failed");
    } else {
        fwrite(buf, 1, len, out);
        fflush(out);
    }
    free(buf);
    return rc;
}

int compare_main(int argc, char **argv) {
    return compare_run(argc, argv, stdout, stderr);
}
