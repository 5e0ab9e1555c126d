/* cli.c — `gpubench compare`: options, mode choice, and the rule that a bad input prints
 * one line and nothing else (the report is built in memory and printed only when complete). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/compare/compare.h"
#include "harness/compare/internal.h"
#include "harness/io/stdout_check.h"

static const char usage[] =
    "usage: gpubench compare [options] FILE.csv...\n"
    "       gpubench compare [options] --base FILE.csv... --new FILE.csv...\n"
    "\n"
    "Two modes, from gpubench-1 run CSVs (rows join on workload, impl, shape and dtype; a FILE\n"
    "of - is standard input); the first line of the report names the mode:\n"
    "  slowdown    --baseline DEVICE or FILE:DEVICE (also the default for one file, or three or\n"
    "              more, against cpu): each device's median time relative to the baseline,\n"
    "              kernel-only and end to end, geometric means, and for --sweep runs the size\n"
    "              from which a GPU (end to end) beats the CPU.\n"
    "  regression  --base and --new, or exactly two files (the first is the base): the runs of\n"
    "              one machine before and after a change (gpubench --runs N on each side). Per\n"
    "              row, from one median per run: the change, its CI, the minimum detectable\n"
    "              change and a verdict SLOWER / FASTER / SAME / UNSURE (Welch's t-test on the\n"
    "              log medians against the margin, a permutation test as a cross-check,\n"
    "              Benjamini-Hochberg across rows). One run a side, or a row timed on a\n"
    "              shared CPU (cpu_wait_pct above 10%), is UNSURE. A row whose status went\n"
    "              from ok to wrong/error/timeout/..., or that vanished, is a regression too,\n"
    "              its cause named. Runs of different hosts or devices are refused unless\n"
    "              --allow-different-hosts.\n"
    "\n"
    "options:\n"
    "  -b, --baseline SPEC    slowdown mode against device SPEC (cpu, cuda:0) of the first file\n"
    "                         that has it, or FILE:DEVICE (e.g. a100.csv:cuda:0)\n"
    "      --base FILE...     regression mode: the runs before (every file up to the next option)\n"
    "      --new FILE...      regression mode: the runs after\n"
    "      --threshold PCT    regression margin: the change that matters (default 5 = 5%)\n"
    "      --alpha P          false discovery rate across rows (default 0.05)\n"
    "      --single-run-floor PCT  with one run per side (always UNSURE: run-to-run noise is\n"
    "                         unknown), the change from which the verdict says it looks slower\n"
    "                         (default 25 = +25%) or faster (the same factor: -20%)\n"
    "      --strict           UNSURE rows (one run a side, a shared CPU included), and runs\n"
    "                         timed on a shared GPU, fail too (exit 1)\n"
    "      --common           regression mode: only the rows both sides ran (no VANISHED or NEW:\n"
    "                         a run limited with -w or -i is checked on what it chose)\n"
    "      --allow-different-hosts  a regression check of runs from different hosts or devices\n"
    "      --samples FILE     a samples file (gpubench --samples); repeatable; matched to its run\n"
    "                         CSV by run_id; with one run per side, its repetitions tell whether\n"
    "                         the two runs separate\n"
    "      --seed N           seed of the permutations drawn at random (default 1)\n"
    "  -f, --format FMT       table (default), markdown, csv or json\n"
    "  -h, --help             this text\n"
    "\n"
    "exit status: 0 no regression (UNSURE rows included, unless --strict), 1 a row SLOWER,\n"
    "BROKEN or VANISHED (or, with --strict, UNSURE or a run timed on a shared GPU), 2 bad usage\n"
    "or input (one line naming the argument, or the file, line and column)\n"
    "\n"
    "examples:\n"
    "  gpubench compare --baseline cpu results/k40m.csv\n"
    "  gpubench compare --baseline a100.csv:cuda:0 a100.csv k40m.csv k2100m.csv\n"
    "  gpubench --runs 5 --out before.csv   (then upgrade, then the same into after.csv)\n"
    "  gpubench compare before.csv after.csv --threshold 3\n"
    "  gpubench compare --base old-*.csv --new new-*.csv --strict\n";

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

/* A percentage option ("5" or "5%") into *frac as a fraction. Returns 0, or 2 with err. */
static int opt_pct(const char *name, const char *arg, double max, double *frac, char *err,
                   size_t errlen) {
    char tmp[64];
    double v;
    snprintf(tmp, sizeof tmp, "%s", arg);
    size_t n = strlen(tmp);
    if (n && tmp[n - 1] == '%')
        tmp[n - 1] = '\0';
    if (parse_double(tmp, &v) || v < 0 || v >= max) {
        snprintf(err, errlen, "compare: %s '%s': want a percentage below %g, e.g. 5", name, arg,
                 max);
        return 2;
    }
    *frac = v / 100;
    return 0;
}

/* --alpha, --seed (getopt codes 'a', 'S'). Returns 0, or 2 with err. */
static int opt_stats(int opt, const char *arg, struct cmp_opts *o, char *err, size_t errlen) {
    double v;
    uint64_t u;
    if (opt == 'a') {
        if (parse_double(arg, &v) || !(v > 0 && v < 1)) {
            snprintf(err, errlen, "compare: --alpha '%s': want a number in (0, 1)", arg);
            return 2;
        }
        o->alpha = v;
        return 0;
    }
    if (parse_u64(arg, &u)) {
        snprintf(err, errlen, "compare: --seed '%s': want a whole number", arg);
        return 2;
    }
    o->seed = u;
    return 0;
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

/* The file arguments in order, each with the side it was given on (0 none, 1 base, 2 new). */
struct file_args {
    char **path;
    int *side;
    int n;
};

/* The long-only options (getopt codes): short forms are kept for what means the same in every
 * command (-b here only, -f format, -h help), so -s and -t stay `run`'s --shape and --threads. */
enum {
    OPT_SAMPLES = 256,
    OPT_THRESHOLD,
    OPT_ALPHA,
    OPT_SEED,
    OPT_FLOOR,
    OPT_STRICT,
    OPT_HOSTS,
    OPT_COMMON,
    OPT_BASE,
    OPT_NEW
};

/* One option (not a file). Returns 0, 1 when --help was printed, or 2 with err. */
static int one_option(int opt, char **argv, struct cmp_opts *o, char **samples, int *nsamples,
                      int *side, FILE *out, char *err, size_t errlen) {
    switch (opt) {
    case 'b': o->baseline = optarg; return 0;
    case OPT_SAMPLES: samples[(*nsamples)++] = optarg; return 0;
    case OPT_THRESHOLD: return opt_pct("--threshold", optarg, 1000, &o->threshold, err, errlen);
    case OPT_FLOOR:
        return opt_pct("--single-run-floor", optarg, 1000, &o->single_floor, err, errlen);
    case OPT_ALPHA: return opt_stats('a', optarg, o, err, errlen);
    case OPT_SEED: return opt_stats('S', optarg, o, err, errlen);
    case OPT_STRICT: o->strict = 1; return 0;
    case OPT_HOSTS: o->allow_hosts = 1; return 0;
    case OPT_COMMON: o->common = 1; return 0;
    case OPT_BASE:
    case OPT_NEW: *side = opt == OPT_BASE ? 1 : 2; return 0;
    case 'f': return opt_format(optarg, o, err, errlen);
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

/* The options of argv into o, samples[] and the files in order with their side (arrays with
 * room for argc). --base F1 F2 --new F3: every file after --base or --new, up to the next one,
 * is of that side ("--base=F" works too). Returns 0, 1 when --help was printed, or 2 with err. */
static int parse_options(int argc, char **argv, struct cmp_opts *o, char **samples, int *nsamples,
                         struct file_args *fa, FILE *out, char *err, size_t errlen) {
    static const struct option longopts[] = {
        {"baseline", required_argument, NULL, 'b'},
        {"base", optional_argument, NULL, OPT_BASE},
        {"new", optional_argument, NULL, OPT_NEW},
        {"samples", required_argument, NULL, OPT_SAMPLES},
        {"threshold", required_argument, NULL, OPT_THRESHOLD},
        {"alpha", required_argument, NULL, OPT_ALPHA},
        {"single-run-floor", required_argument, NULL, OPT_FLOOR},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"allow-different-hosts", no_argument, NULL, OPT_HOSTS},
        {"common", no_argument, NULL, OPT_COMMON},
        {"seed", required_argument, NULL, OPT_SEED},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int opt, rc = 0, side = 0;
    optind = 0; /* a fresh scan: main or an earlier call may have used getopt */
    opterr = 0;
    /* "-": files come back in order (code 1), so that each can take the side named before it */
    while (rc == 0 && (opt = getopt_long(argc, argv, "-:b:f:h", longopts, NULL)) != -1) {
        if (opt == 1 || ((opt == OPT_BASE || opt == OPT_NEW) && optarg)) {
            if (opt != 1)
                side = opt == OPT_BASE ? 1 : 2;
            fa->path[fa->n] = optarg;
            fa->side[fa->n++] = side;
            continue;
        }
        rc = one_option(opt, argv, o, samples, nsamples, &side, out, err, errlen);
    }
    /* after "--" every argument is a file (of the side named last), even one that starts '-' */
    for (; rc == 0 && optind < argc; optind++) {
        fa->path[fa->n] = argv[optind];
        fa->side[fa->n++] = side;
    }
    return rc;
}

/* The sides of --base/--new into files[] (base first, o->nbase of them), or the plain files.
 * Returns the number of files, or -1 with err. */
static int order_files(const struct file_args *fa, struct cmp_opts *o, char **files, char *err,
                       size_t errlen) {
    int n = 0, sides = 0;
    for (int i = 0; i < fa->n; i++)
        sides |= fa->side[i];
    if (!sides) {
        for (int i = 0; i < fa->n; i++)
            files[n++] = fa->path[i];
        return n;
    }
    for (int i = 0; i < fa->n; i++)
        if (!fa->side[i]) {
            snprintf(err, errlen, "compare: %s: give every file after --base or --new",
                     fa->path[i]);
            return -1;
        }
    if (o->baseline) {
        snprintf(err, errlen,
                 "compare: --baseline (slowdown mode) and --base/--new (regression "
                 "mode) exclude each other");
        return -1;
    }
    if (sides != 3) {
        snprintf(err, errlen, "compare: %s: no file given (regression mode needs both sides)",
                 sides == 1 ? "--new" : "--base");
        return -1;
    }
    for (int want = 1; want <= 2; want++)
        for (int i = 0; i < fa->n; i++)
            if (fa->side[i] == want)
                files[n++] = fa->path[i];
    o->nbase = 0;
    for (int i = 0; i < fa->n; i++)
        o->nbase += fa->side[i] == 1;
    o->sides_given = 1;
    return n;
}

/* The run CSVs to load into files[] (room for argc + 1): a --baseline FILE not among the
 * arguments first, then the files. Returns how many, or -1 with err. */
static int input_files(struct cmp_opts *o, const struct file_args *fa, char **files, char *err,
                       size_t errlen) {
    int nfiles = 0;
    if (o->baseline) {
        const char *bf = baseline_file(o->baseline, fa->path, fa->n);
        if (bf)
            files[nfiles++] = (char *)bf;
    }
    int n = order_files(fa, o, files + nfiles, err, errlen);
    return n < 0 ? -1 : nfiles + n;
}

/* `gpubench compare` into out (the caller prints it only on success). Returns the exit code:
 * 0, 1 (a regression) or 2 with one line in err. */
static int run(int argc, char **argv, FILE *out, char *err, size_t errlen) {
    struct cmp_opts o = {
        .threshold = 0.05, .alpha = 0.05, .single_floor = 0.25, .seed = 1, .format = CMP_TABLE};
    char **samples = calloc((size_t)argc + 1, sizeof *samples);
    char **files = calloc((size_t)argc + 2, sizeof *files);
    struct file_args fa = {calloc((size_t)argc + 1, sizeof(char *)),
                           calloc((size_t)argc + 1, sizeof(int)), 0};
    int nsamples = 0, nfiles = 0, rc = 2;
    struct cmp_input in = {0};
    if (!samples || !files || !fa.path || !fa.side) {
        snprintf(err, errlen, "compare: out of memory");
        goto out;
    }
    rc = parse_options(argc, argv, &o, samples, &nsamples, &fa, out, err, errlen);
    if (rc != 0) {
        rc = rc == 1 ? 0 : 2; /* --help is a success */
        goto out;
    }
    rc = 2;
    nfiles = input_files(&o, &fa, files, err, errlen);
    if (nfiles < 0)
        goto out;
    if (nfiles == 0) {
        snprintf(err, errlen, "compare: no run CSV given (see gpubench compare --help)");
        goto out;
    }
    if (!o.baseline && !o.sides_given) {
        if (nfiles == 2)
            o.nbase = 1; /* two files: before and after, if they are of one machine */
        else
            o.baseline = "cpu", o.baseline_default = 1; /* one run, or many: the CPU */
    }
    if (cmp_load(&in, files, nfiles, samples, nsamples, err, errlen))
        goto out;
    rc = o.baseline ? cmp_slowdown(&in, &o, out, err, errlen)
                    : cmp_regress(&in, &o, out, err, errlen);
out:
    cmp_free(&in);
    free(samples);
    free(files);
    free(fa.path);
    free(fa.side);
    return rc;
}

int compare_run(int argc, char **argv, FILE *out, FILE *errf) {
    char err[CSV_ERR_LEN + 256] = "";
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        fprintf(errf, "gpubench compare: out of memory\n");
        return 2;
    }
    int rc = run(argc, argv, mem, err, sizeof err);
    fclose(mem);
    if (rc == 2) {
        /* every error line reads "gpubench compare: ..." (docs/ARCHITECTURE.md, "Error lines"),
         * whether its text began with "compare: " or with the file it names */
        const char *msg = err[0] ? err : "failed";
        if (strncmp(msg, "compare: ", 9) == 0)
            msg += 9;
        fprintf(errf, "gpubench compare: %s\n", msg);
    } else {
        /* flushed, and checked, at the command's end (main.c); a write too large for the
         * buffer fails here, and only here is its reason known */
        if (fwrite(buf, 1, len, out) != len && out == stdout)
            stdout_failed(errno);
    }
    free(buf);
    return rc;
}

int compare_main(int argc, char **argv) {
    return compare_run(argc, argv, stdout, stderr);
}
