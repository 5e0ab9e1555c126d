/* merge.c — `gpubench merge`: options, reading the inputs, refusing the same run twice, and
 * writing one tidy CSV atomically. Fleet folders and their tasks: fleet.c. Every check
 * happens before the output is opened, so a refused merge leaves nothing behind.
 */
#include "harness/merge/merge.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/core/device.h"
#include "harness/io/csv_write.h"
#include "harness/io/csv_read.h"
#include "harness/io/marks.h"
#include "harness/merge/internal.h"

struct merge_opts {
    const char *out, *list;
    int allow_missing;
};

static void merge_usage(FILE *f) {
    fputs("usage: gpubench merge [options] FILE|DIR... --out FLEET.csv\n"
          "\n"
          "Merges run CSVs into one: the fixed gpubench-1 columns, then every extra column of any\n"
          "input (slurm_job_id, slurm_array_task_id, ...). A DIR is a fleet results folder\n"
          "(scripts/slurm/fleet): every task in its fleet.conf must have left a CSV and exit 0.\n"
          "Each task's line names its exit status and why; a failed task that left a complete\n"
          "CSV (exit 1: rows wrong; a crash after the CSV was written; interrupted) has its rows\n"
          "merged with --allow-missing, and the line says so; a task killed mid-run left only a\n"
          "CSV.partial, and nothing of it is merged.\n"
          "\n"
          "options:\n"
          "  -o, --out PATH       the merged CSV (written atomically)\n"
          "      --allow-missing  merge the tasks that produced a CSV even when others are\n"
          "                       missing or failed (they are named; exit 1)\n"
          "      --list PATH      also write the run CSVs merged, one path a line\n"
          "  -h, --help           this text\n"
          "\n"
          "exit: 0 all merged; 1 some task missing or failed, or the output could not be\n"
          "written (a full disk), as a run; 2 bad usage or input\n"
          "\n"
          "examples:\n"
          "  gpubench merge results/fleet/1234 --out fleet.csv\n"
          "  gpubench merge results/fleet/1234 --out fleet.csv --allow-missing\n"
          "  gpubench merge a100.csv k80.csv --out both.csv\n",
          f);
}

static int usage_error(const char *fmt, const char *arg) {
    fputs("gpubench merge: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 2;
}

/* Append a source; returns it (zeroed but for task = -1), or NULL when out of memory. */
struct merge_src *merge_set_add(struct merge_set *s) {
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        struct merge_src *v = realloc(s->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        s->v = v;
        s->cap = cap;
    }
    struct merge_src *m = &s->v[s->n++];
    memset(m, 0, sizeof *m);
    m->task = -1;
    return m;
}

/* Free every source of s and its tables. */
void merge_set_free(struct merge_set *s) {
    for (int i = 0; i < s->n; i++) {
        free(s->v[i].csv);
        free(s->v[i].dir);
        csv_free(&s->v[i].t);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Read one source's CSV and decide its state. A file given by name must be a good CSV with rows
 * (returns 2 otherwise, message printed); a task that is not is recorded as failed or missing. */
static int load_src(struct merge_src *m) {
    if (m->task >= 0) {
        merge_judge_task(m);
        return 0;
    }
    char err[CSV_ERR_LEN];
    if (csv_read_file(m->csv, CSV_RUN, &m->t, err, sizeof err) != 0) {
        /* the reader's hint is for compare, which takes samples files; merge does not */
        char *hint = strstr(err, " (give it with --samples)");
        if (hint)
            *hint = '\0';
        fprintf(stderr, "gpubench merge: %s\n", err);
        return 2;
    }
    if (m->t.nrows == 0) {
        fprintf(stderr, "gpubench merge: %s:2: column schema: no result rows (only a header)\n",
                m->csv);
        return 2;
    }
    m->loaded = 1;
    m->state = SRC_OK;
    return 0;
}

/* True if source m's rows go into the output. */
static int src_merged(const struct merge_src *m) {
    return m->loaded && m->state != SRC_MISSING && m->t.nrows > 0;
}

struct runref {
    const char *run_id;
    int src, line;
};

static int runref_cmp(const void *pa, const void *pb) {
    const struct runref *a = pa, *b = pb;
    int c = strcmp(a->run_id, b->run_id);
    if (c)
        return c;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* Refuse the same run_id in two inputs (one run merged twice, or a merged file merged again):
 * every row's run_id sorted, then equal neighbours from different inputs. Returns 0, or 2 with
 * a message naming both places. */
static int check_duplicate_runs(const struct merge_set *s) {
    size_t total = 0, k = 0;
    for (int i = 0; i < s->n; i++)
        if (src_merged(&s->v[i]))
            total += s->v[i].t.nrows;
    if (total == 0)
        return 0;
    struct runref *v = malloc(total * sizeof *v);
    if (!v) {
        fprintf(stderr, "gpubench merge: out of memory\n");
        return 2;
    }
    for (int i = 0; i < s->n; i++)
        if (src_merged(&s->v[i]))
            for (size_t r = 0; r < s->v[i].t.nrows; r++)
                v[k++] = (struct runref){s->v[i].t.run[r].run_id, i, s->v[i].t.run[r].line};
    qsort(v, total, sizeof *v, runref_cmp);
    int rc = 0;
    size_t group = 0; /* first entry of the current run_id: its smallest input, first line */
    for (size_t r = 1; r < total && rc == 0; r++) {
        if (strcmp(v[r].run_id, v[group].run_id) != 0) {
            group = r;
            continue;
        }
        if (v[r].src == v[group].src)
            continue;
        fprintf(stderr,
                "gpubench merge: %s:%d: column run_id: run %s is also in %s:%d (the same "
                "run given twice?)\n",
                s->v[v[r].src].t.name, v[r].line, v[r].run_id, s->v[v[group].src].t.name,
                v[group].line);
        rc = 2;
    }
    free(v);
    return rc;
}

/* Rows of a simulated device (gpubench-sim) are CPU-emulation times: a fleet file never mixes a
 * run that has them with a run that has none (a CPU row of a simulated run belongs to it).
 * Returns 2 (message printed) or 0. */
static int refuse_simulated_mix(const struct merge_set *s) {
    const struct run_row **sim, *real = NULL; /* one row of each simulated run */
    const char *sim_name = NULL, *real_name = NULL;
    size_t total = 0, nsim = 0;
    for (int i = 0; i < s->n; i++)
        total += src_merged(&s->v[i]) ? s->v[i].t.nrows : 0;
    if (!(sim = malloc((total ? total : 1) * sizeof *sim))) {
        fprintf(stderr, "gpubench merge: out of memory\n");
        return 2;
    }
    for (int i = 0; i < s->n; i++)
        for (size_t r = 0; src_merged(&s->v[i]) && r < s->v[i].t.nrows; r++) {
            const struct run_row *row = &s->v[i].t.run[r];
            int known = 0;
            if (!device_is_simulated(row->device_name))
                continue;
            for (size_t k = 0; k < nsim && !known; k++)
                known = !strcmp(sim[k]->run_id, row->run_id);
            if (!known) {
                if (nsim == 0)
                    sim_name = s->v[i].t.name;
                sim[nsim++] = row;
            }
        }
    for (int i = 0; i < s->n && nsim && !real; i++)
        for (size_t r = 0; src_merged(&s->v[i]) && r < s->v[i].t.nrows && !real; r++) {
            const struct run_row *row = &s->v[i].t.run[r];
            int simulated = device_is_simulated(row->device_name);
            for (size_t k = 0; k < nsim && !simulated; k++)
                simulated = !strcmp(sim[k]->run_id, row->run_id);
            if (!simulated) {
                real = row;
                real_name = s->v[i].t.name;
            }
        }
    if (real)
        fprintf(stderr,
                "gpubench merge: %s:%d: run %s has rows of a simulated device (%s: CPU-emulation "
                "times, gpubench-sim) and %s:%d: run %s has none; simulated and real runs are "
                "never merged\n",
                sim_name, sim[0]->line, sim[0]->run_id, sim[0]->device_name, real_name, real->line,
                real->run_id);
    free(sim);
    return real ? 2 : 0;
}

/* The output columns: the fixed ones, then each extra column in the order first seen. */
static int output_columns(const struct merge_set *s, const char ***cols, int *ncols) {
    int cap = CSV_RUN_NCOLS + 8, n = 0;
    const char **c = malloc((size_t)cap * sizeof *c);
    if (!c)
        return -1;
    for (; n < CSV_RUN_NCOLS; n++)
        c[n] = csv_run_columns[n];
    for (int i = 0; i < s->n; i++) {
        if (!src_merged(&s->v[i]))
            continue;
        const struct csv_table *t = &s->v[i].t;
        for (int k = CSV_RUN_NCOLS; k < t->ncols; k++) {
            int seen = 0;
            for (int j = CSV_RUN_NCOLS; j < n && !seen; j++)
                seen = !strcmp(c[j], t->cols[k]);
            if (seen)
                continue;
            if (n == cap) {
                const char **g = realloc(c, (size_t)(cap *= 2) * sizeof *c);
                if (!g) {
                    free(c);
                    return -1;
                }
                c = g;
            }
            c[n++] = t->cols[k];
        }
    }
    *cols = c;
    *ncols = n;
    return 0;
}

/* Write the merged CSV atomically (PATH.partial, then rename). Returns 0, 2 when --out cannot be
 * opened, or 1 when writing it failed (a full disk: exit 1, as a run's), with a message. */
static int write_merged(const struct merge_set *s, const char *out, size_t *rows) {
    const char **cols;
    int ncols;
    if (output_columns(s, &cols, &ncols) != 0) {
        fprintf(stderr, "gpubench merge: out of memory\n");
        return 2;
    }
    char *header = NULL;
    size_t hlen = 0;
    FILE *h = open_memstream(&header, &hlen);
    int *map = malloc((size_t)ncols * sizeof *map);
    if (!h || !map) {
        if (h)
            fclose(h);
        free(header);
        free(map);
        free(cols);
        fprintf(stderr, "gpubench merge: out of memory\n");
        return 2;
    }
    for (int j = 0; j < ncols; j++) {
        if (j)
            fputc(',', h);
        csv_field(h, cols[j]);
    }
    fclose(h);
    struct csv_file cf;
    char err[512];
    int rc = 0;
    *rows = 0;
    if (csv_open(&cf, out, header, err, sizeof err) != 0) {
        fprintf(stderr, "gpubench merge: --out: %s\n", err);
        rc = 2;
        goto done;
    }
    for (int i = 0; i < s->n; i++) {
        const struct merge_src *m = &s->v[i];
        if (!src_merged(m))
            continue;
        for (int j = 0; j < ncols; j++)
            map[j] = csv_col_index(&m->t, cols[j]);
        for (size_t r = 0; r < m->t.nrows; r++) {
            for (int j = 0; j < ncols; j++) {
                if (j)
                    fputc(',', cf.f);
                char words[96];
                if (map[j] >= 0)
                    csv_field(cf.f, m->t.run[r].raw[map[j]]);
                else if (!strcmp(cols[j], "marks")) /* a file from before the column: what its
                                                        rows imply (csv_read.c, marks.h) */
                    csv_field(cf.f, marks_words(m->t.run[r].marks, "+", words, sizeof words));
            }
            fputc('\n', cf.f);
            (*rows)++;
        }
    }
    if (ferror(cf.f)) {
        fprintf(stderr, "gpubench merge: --out: %s: write error\n", out);
        csv_discard(&cf);
        rc = 1;
    } else if (csv_commit(&cf, err, sizeof err) != 0) {
        fprintf(stderr, "gpubench merge: --out: %s\n", err);
        rc = 1;
    }
done:
    free(header);
    free(map);
    free(cols);
    return rc;
}

/* Write the merged inputs' paths, one a line, atomically. Returns 0, or 2 with a message. */
static int write_list(const struct merge_set *s, const char *path) {
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.partial", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "gpubench merge: --list: %s: cannot write: %s\n", path, strerror(errno));
        return 2;
    }
    for (int i = 0; i < s->n; i++)
        if (src_merged(&s->v[i]))
            fprintf(f, "%s\n", s->v[i].csv);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        fprintf(stderr, "gpubench merge: --list: %s: cannot write\n", path);
        unlink(tmp);
        return 1; /* a failed write, as --out's */
    }
    return 0;
}

/* True if the folder that would hold `path` exists and is writable: checked before any input
 * is read, so an unwritable --out costs nothing and leaves nothing. */
static int dir_writable(const char *path, char *why, size_t len) {
    char d[PATH_MAX];
    snprintf(d, sizeof d, "%s", path);
    char *slash = strrchr(d, '/');
    if (!slash)
        snprintf(d, sizeof d, ".");
    else if (slash == d)
        d[1] = '\0';
    else
        *slash = '\0';
    struct stat st;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, len, "folder %s does not exist", d);
        return 0;
    }
    if (access(d, W_OK) != 0) {
        snprintf(why, len, "folder %s is not writable", d);
        return 0;
    }
    return 1;
}

static int parse_args(int argc, char **argv, struct merge_opts *o, int *first) {
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},
        {"allow-missing", no_argument, NULL, 'a'},
        {"list", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->out = optarg; break;
        case 'a': o->allow_missing = 1; break;
        case 'l': o->list = optarg; break;
        case 'h': merge_usage(stdout); return 1;
        case ':': return usage_error("%s: missing value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s' (see gpubench merge --help)", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return usage_error("%s", "no input: give run CSVs or a fleet folder");
    if (!o->out)
        return usage_error("%s", "--out FLEET.csv is required");
    *first = optind;
    return 0;
}

/* Every input (a fleet directory's tasks, or run CSVs) read and checked: no run twice, no
 * simulated rows beside real ones. Returns 0, or the exit code with the reason on stderr. */
static int load_inputs(struct merge_set *set, char **paths, int n) {
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = merge_add_fleet_dir(set, paths[i]);
            continue;
        }
        struct merge_src *m = merge_set_add(set);
        if (!m || !(m->csv = strdup(paths[i]))) {
            fprintf(stderr, "gpubench merge: out of memory\n");
            rc = 2;
        }
    }
    for (int i = 0; i < set->n && rc == 0; i++)
        rc = load_src(&set->v[i]);
    if (rc == 0)
        rc = check_duplicate_runs(set);
    if (rc == 0)
        rc = refuse_simulated_mix(set);
    return rc;
}

int merge_main(int argc, char **argv) {
    struct merge_opts o;
    int first;
    int rc = parse_args(argc, argv, &o, &first);
    if (rc)
        return rc == 1 ? 0 : rc;
    char why[PATH_MAX + 64];
    if (!dir_writable(o.out, why, sizeof why))
        return usage_error("--out: %s", why);
    if (o.list && !dir_writable(o.list, why, sizeof why))
        return usage_error("--list: %s", why);

    struct merge_set set = {0};
    if ((rc = load_inputs(&set, argv + first, argc - first)) != 0) {
        merge_set_free(&set);
        return rc;
    }

    int bad = 0, usable = 0, tasks = 0;
    for (int i = 0; i < set.n; i++) {
        const struct merge_src *m = &set.v[i];
        if (src_merged(m))
            usable++;
        if (m->task < 0)
            continue;
        tasks++;
        if (m->state == SRC_OK) {
            fprintf(stderr, "gpubench merge: task %d on %s: ok, %zu rows (run %s)\n", m->task,
                    m->node, m->t.nrows, m->t.run[0].run_id);
            continue;
        }
        bad++;
        /* a failed task's CSV, when it left one, is complete (gpubench writes it only when the
         * run ends: a crash in teardown, rows wrong, interrupted with the rows finished) */
        char rows[128] = "";
        if (src_merged(m))
            snprintf(rows, sizeof rows, "; its CSV's %zu rows %s", m->t.nrows,
                     o.allow_missing ? "are merged" : "would be merged with --allow-missing");
        fprintf(stderr, "gpubench merge: task %d%s%s: %s: %s%s (log %s/task-%d.log)\n", m->task,
                m->node[0] ? " on " : "", m->node, m->state == SRC_MISSING ? "missing" : "failed",
                m->why, rows, m->dir, m->task);
    }
    if (bad && !o.allow_missing) {
        fprintf(stderr,
                "gpubench merge: %d of %d tasks missing or failed; nothing written "
                "(--allow-missing merges the others)\n",
                bad, tasks);
        merge_set_free(&set);
        return 1;
    }
    if (usable == 0) {
        fprintf(stderr, "gpubench merge: no task left a usable CSV; nothing written\n");
        merge_set_free(&set);
        return 2;
    }
    size_t rows = 0;
    rc = write_merged(&set, o.out, &rows);
    if (rc == 0 && o.list)
        rc = write_list(&set, o.list);
    if (rc == 0)
        fprintf(stderr, "gpubench merge: wrote %s: %zu row%s from %d run CSV%s%s\n", o.out,
                rows, rows == 1 ? "" : "s", usable, usable == 1 ? "" : "s",
                bad ? " (some tasks missing or failed, see above)" : "");
    merge_set_free(&set);
    return rc ? rc : bad ? 1 : 0;
}
