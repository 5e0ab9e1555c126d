/* fleet.c — the fleet folders of `gpubench merge`: which tasks were expected, what each
 * left behind, and in plain words why a task is missing or failed.
 *
 * A fleet folder (scripts/slurm/fleet) holds fleet.conf (tasks=N, expect_gpu=yes|no), and per
 * task T: task-T.csv (the run), task-T.exit (key=value lines written when gpubench ended: node,
 * exit, reason; or by the merge job from Slurm's record when the task could not write one) and
 * task-T.log (its output).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/merge/internal.h"

/* "dir/name" in a new string, or NULL when out of memory. */
static char *merge_join(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", dir, name);
    return s;
}

/* Value of `key` in a file of key=value lines into out (empty if absent). Returns 0 if the file
 * was readable, -1 if not. Later lines win, so an appended correction overrides. */
static int kv_get(const char *path, const char *key, char *out, size_t len) {
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) != 0 || line[kl] != '=')
            continue;
        snprintf(out, len, "%s", line + kl + 1);
        out[strcspn(out, "\r\n")] = '\0';
    }
    fclose(f);
    return 0;
}

/* A whole decimal number 0..max from s, or -1. */
static long parse_count(const char *s, long max) {
    if (!*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 0 || v > max)
        return -1;
    return v;
}

/* The task number of "task-N<suffix>", or -1. */
static long task_of(const char *name, const char *suffix) {
    if (strncmp(name, "task-", 5) != 0)
        return -1;
    const char *p = name + 5, *q = p;
    while (*q >= '0' && *q <= '9')
        q++;
    if (q == p || q - p > 6 || strcmp(q, suffix) != 0)
        return -1;
    return strtol(p, NULL, 10);
}

/* What an exit code of fleet-task.sbatch means, for records that carry no reason: the code
 * itself is gpubench's (or the task script's) real exit status, never a stand-in. */
static void exit_meaning(int code, char *buf, size_t len) {
    switch (code) {
    case 0:
        snprintf(buf, len,
                 "gpubench reported success but left no CSV (was --help or --version "
                 "among its arguments?)");
        return;
    case 1: snprintf(buf, len, "some rows are wrong or error"); return;
    case 2: snprintf(buf, len, "gpubench rejected its arguments or input"); return;
    case 3:
        snprintf(buf, len,
                 "the task could not write to the results folder from its node (is it "
                 "on a file system shared with the compute nodes?)");
        return;
    case 127: snprintf(buf, len, "the gpubench binary was not found on the node"); return;
    case 130: snprintf(buf, len, "interrupted"); return;
    case 137:
        snprintf(buf, len,
                 "killed (SIGKILL: out of memory, or the time limit's grace period "
                 "ran out)");
        return;
    case 143: snprintf(buf, len, "terminated (SIGTERM: scancel or time limit)"); return;
    default:
        if (code > 128)
            snprintf(buf, len, "killed by signal %d (%s)", code - 128, strsignal(code - 128));
        else
            snprintf(buf, len, "gpubench exited with %d", code);
    }
}

/* Copy src into dst of size len, cut short when it does not fit (messages only). */
static void copy_cut(char *dst, size_t len, const char *src) {
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* The last line of the task's log that gpubench wrote as an error ("gpubench: ..."), or, with
 * `needle`, the rest of the last line holding needle. Empty when there is none. */
static void log_line(const struct merge_src *m, const char *needle, char *out, size_t len) {
    out[0] = '\0';
    char name[32];
    snprintf(name, sizeof name, "task-%d.log", m->task);
    char *path = merge_join(m->dir, name);
    FILE *f = path ? fopen(path, "r") : NULL;
    free(path);
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *hit = needle ? strstr(line, needle) : NULL;
        if (needle && hit)
            copy_cut(out, len, hit + strlen(needle));
        else if (!needle && strncmp(line, "gpubench: ", 10) == 0 &&
                 strncmp(line, "gpubench: wrote ", 16) != 0 &&
                 strncmp(line, "gpubench: warning", 17) != 0)
            copy_cut(out, len, line);
    }
    fclose(f);
}

/* In a fleet that expects GPUs: did task m's run have a working GPU row, or want none? A run
 * with cuda rows needs one that is ok; a run without any is fine when it asked for none (-d cpu,
 * -i of CPU implementations only: gpubench then does not say "no GPU rows"), and failed when
 * its log says why no GPU could be used. Returns 1 (usable or not wanted), or 0 with why. */
static int gpu_usable(const struct merge_src *m, char *why, size_t len) {
    const char *note = NULL;
    int cuda = 0;
    for (size_t r = 0; r < m->t.nrows; r++) {
        const struct run_row *row = &m->t.run[r];
        if (strncmp(row->device, "cuda", 4) != 0)
            continue;
        cuda++;
        if (row->status == ST_OK)
            return 1;
        if (!note && row->note[0])
            note = row->note;
    }
    log_line(m, "no GPU rows: ", why, len);
    if (!cuda && !why[0])
        return 1; /* the run asked for no GPU row */
    if (!why[0])
        snprintf(why, len, "%s", note ? note : "the run has no working cuda row");
    return 0;
}

/* Task m's exit record at path: its exit status, node, reason and source, or why a record that
 * is there cannot be read (m->exit_bad: an empty file, no exit= line, a status that is no
 * number; a task killed, or a node lost, while writing it), never a made-up status. */
static void read_exit(struct merge_src *m, const char *path) {
    struct stat st;
    char val[256];
    if (stat(path, &st) != 0)
        return; /* no record */
    const char *name = strrchr(path, '/') + 1;
    if (!S_ISREG(st.st_mode)) {
        snprintf(m->exit_bad, sizeof m->exit_bad, "%s is not a regular file", name);
        return;
    }
    if (kv_get(path, "exit", val, sizeof val) != 0) {
        snprintf(m->exit_bad, sizeof m->exit_bad, "%s cannot be read: %s", name, strerror(errno));
        return;
    }
    long c = parse_count(val, 255);
    if (c < 0) {
        if (st.st_size == 0)
            snprintf(m->exit_bad, sizeof m->exit_bad,
                     "%s is empty (the task was killed, or its node lost, while writing it)",
                     name);
        else if (!val[0])
            snprintf(m->exit_bad, sizeof m->exit_bad, "%s holds no exit status", name);
        else
            snprintf(m->exit_bad, sizeof m->exit_bad, "%s: exit='%.64s' is not an exit status",
                     name, val);
        return;
    }
    m->has_exit = 1;
    m->exit_code = (int)c;
    kv_get(path, "node", m->node, sizeof m->node);
    kv_get(path, "reason", m->reason, sizeof m->reason);
    kv_get(path, "source", val, sizeof val);
    m->from_slurm = strcmp(val, "slurm") == 0;
}

/* Add every expected task of fleet folder `dir`. Returns 0, or 2 with a message printed. */
int merge_add_fleet_dir(struct merge_set *set, const char *dir) {
    char conf[PATH_MAX], val[256];
    snprintf(conf, sizeof conf, "%s/fleet.conf", dir);
    long expected = -1;
    int expect_gpu = 0;
    if (kv_get(conf, "tasks", val, sizeof val) == 0) {
        expected = parse_count(val, MERGE_MAX_TASKS);
        if (expected < 1) {
            fprintf(stderr, "gpubench merge: %s: tasks='%s' is not a task count\n", conf, val);
            return 2;
        }
        kv_get(conf, "expect_gpu", val, sizeof val);
        expect_gpu = strcmp(val, "yes") == 0;
    }
    /* Without a fleet.conf, the tasks are those that left any trace (0 .. the highest). */
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "gpubench merge: %s: cannot read the folder: %s\n", dir, strerror(errno));
        return 2;
    }
    long highest = -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        long t = task_of(e->d_name, ".csv");
        if (t < 0)
            t = task_of(e->d_name, ".exit");
        if (t < 0)
            t = task_of(e->d_name, ".log");
        if (t > highest)
            highest = t;
    }
    closedir(d);
    long n = expected > highest + 1 ? expected : highest + 1;
    if (n <= 0) {
        fprintf(stderr,
                "gpubench merge: %s: not a fleet results folder (no fleet.conf, no "
                "task-N.csv)\n",
                dir);
        return 2;
    }
    for (long t = 0; t < n; t++) {
        struct merge_src *m = merge_set_add(set);
        char name[48];
        snprintf(name, sizeof name, "task-%ld.csv", t);
        if (!m || !(m->csv = merge_join(dir, name)) || !(m->dir = strdup(dir))) {
            fprintf(stderr, "gpubench merge: out of memory\n");
            return 2;
        }
        m->task = (int)t;
        m->expect_gpu = expect_gpu;
        char exitp[PATH_MAX];
        snprintf(exitp, sizeof exitp, "%s/task-%ld.exit", dir, t);
        read_exit(m, exitp);
    }
    return 0;
}

/* m->why for a task whose exit record says it failed: "exit N" when N is an exit status (the
 * task's own record, or Slurm's record of a signal), Slurm's words alone when Slurm recorded
 * no status ("exit 0" of a task that never ran is no exit status); then `what` ("no CSV"), the
 * reason and gpubench's last error line from the log. */
static void exit_why(struct merge_src *m, const char *what, const char *detail) {
    char meaning[256], head[64] = "";
    if (!m->from_slurm || m->exit_code != 0)
        snprintf(head, sizeof head, "exit %d", m->exit_code);
    if (what)
        snprintf(head + strlen(head), sizeof head - strlen(head), "%s%s", head[0] ? ", " : "",
                 what);
    exit_meaning(m->exit_code, meaning, sizeof meaning);
    snprintf(m->why, sizeof m->why, "%s: %s%s%s", head, m->reason[0] ? m->reason : meaning,
             detail[0] ? ": " : "", detail);
}

void merge_judge_task(struct merge_src *m) {
    char err[CSV_ERR_LEN];
    struct stat st;
    int exists = stat(m->csv, &st) == 0;
    char detail[512] = "";
    if (!exists) {
        char partial[PATH_MAX + 16];
        snprintf(partial, sizeof partial, "%s.partial", m->csv);
        int has_partial = stat(partial, &st) == 0;
        if (m->exit_bad[0]) {
            log_line(m, NULL, detail, sizeof detail);
            m->state = SRC_FAILED;
            snprintf(m->why, sizeof m->why, "no CSV, and its exit record is unreadable: %s%s%s",
                     m->exit_bad, detail[0] ? ": " : "", detail);
            return;
        }
        if (!m->has_exit) {
            m->state = SRC_MISSING;
            snprintf(m->why, sizeof m->why, "%s",
                     has_partial ? "no CSV, only its .partial: the task was killed while "
                                   "running (node failure, time limit, scancel)"
                                 : "no CSV and no exit record: it never ran, was cancelled, or "
                                   "could not reach the results folder from its node");
            return;
        }
        log_line(m, NULL, detail, sizeof detail);
        m->state = SRC_FAILED;
        exit_why(m, "no CSV", detail);
        return;
    }
    if (csv_read_file(m->csv, CSV_RUN, &m->t, err, sizeof err) != 0) {
        m->state = SRC_FAILED;
        snprintf(m->why, sizeof m->why, "its CSV is not usable: %s", err);
        return;
    }
    m->loaded = 1;
    if (!m->node[0] && m->t.nrows > 0)
        snprintf(m->node, sizeof m->node, "%s", m->t.run[0].host);
    if (m->t.nrows == 0) {
        m->state = SRC_FAILED;
        snprintf(m->why, sizeof m->why, "its CSV has no result rows");
        return;
    }
    if (m->exit_bad[0]) { /* rows, but no word of how the run ended */
        m->state = SRC_FAILED;
        snprintf(m->why, sizeof m->why, "its exit record is unreadable: %s", m->exit_bad);
        return;
    }
    if (m->has_exit && m->exit_code != 0) {
        log_line(m, NULL, detail, sizeof detail);
        m->state = SRC_FAILED;
        exit_why(m, NULL, detail);
        return;
    }
    if (m->expect_gpu && !gpu_usable(m, detail, sizeof detail)) {
        m->state = SRC_FAILED;
        snprintf(m->why, sizeof m->why, "no usable GPU: %s", detail);
        return;
    }
    m->state = SRC_OK;
    return;
}
