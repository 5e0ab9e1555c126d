/* rapl.c — package energy from /sys/class/powercap (rapl.h). */
#include "harness/telemetry/rapl.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line of `path` into buf; 0, or -1 when unreadable or empty. */
static int read_line(const char *path, char *buf, size_t len) {
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return buf[0] ? 0 : -1;
}

/* A whole non-negative number of microjoules from `path`. */
static int read_uj(const char *path, double *uj) {
    char buf[64], *end;
    if (read_line(path, buf, sizeof buf) != 0)
        return -1;
    unsigned long long v = strtoull(buf, &end, 10);
    if (end == buf || *end != '\0')
        return -1;
    *uj = (double)v;
    return 0;
}

/* A top-level zone ("intel-rapl:0", not the subzone "intel-rapl:0:1") named package-N whose
 * counter this process can read: added to r. */
static void add_zone(struct rapl *r, const char *root, const char *zone) {
    const char *colon = strchr(zone, ':');
    if (!colon || strchr(colon + 1, ':') || !strstr(zone, "rapl") || r->n >= RAPL_MAX_ZONES)
        return;
    char path[320], name[64];
    snprintf(path, sizeof path, "%s/%s/name", root, zone);
    if (read_line(path, name, sizeof name) != 0 || strncmp(name, "package", 7) != 0)
        return;
    double now, max;
    snprintf(path, sizeof path, "%s/%s/max_energy_range_uj", root, zone);
    if (read_uj(path, &max) != 0 || max <= 0)
        return;
    snprintf(path, sizeof path, "%s/%s/energy_uj", root, zone);
    if (read_uj(path, &now) != 0)
        return;
    snprintf(r->path[r->n], sizeof r->path[r->n], "%s", path);
    r->max_uj[r->n] = max;
    /* The highest of the zone's limits (long term, short term, peak) bounds its draw; a missing
     * or unreadable one is skipped. */
    double limit = 0;
    for (int c = 0; c < 4; c++) {
        static const char *const kind[] = {"power_limit_uw", "max_power_uw"};
        for (int k = 0; k < 2; k++) {
            double uw;
            snprintf(path, sizeof path, "%s/%s/constraint_%d_%s", root, zone, c, kind[k]);
            if (read_uj(path, &uw) == 0 && uw / 1e6 > limit)
                limit = uw / 1e6;
        }
    }
    r->limit_w[r->n++] = limit > 0 ? limit : RAPL_ASSUME_W;
}

/* A quarter of the shortest wrap time, within [RAPL_PERIOD_MIN_S, RAPL_PERIOD_MAX_S]. */
static double sampling_period(const struct rapl *r) {
    double p = RAPL_PERIOD_MAX_S;
    for (int i = 0; i < r->n; i++) {
        double wrap_s = r->max_uj[i] / 1e6 / r->limit_w[i];
        if (wrap_s / 4 < p)
            p = wrap_s / 4;
    }
    return p < RAPL_PERIOD_MIN_S ? RAPL_PERIOD_MIN_S : p;
}

int rapl_open(struct rapl *r, char *why, size_t whylen) {
    const char *root = getenv("GPUBENCH_TEST_POWERCAP");
    if (!root || !root[0])
        root = "/sys/class/powercap";
    memset(r, 0, sizeof *r);
    /* Sorted, so that zones are summed in the same order on every run. */
    struct dirent **names = NULL;
    int count = scandir(root, &names, NULL, alphasort);
    if (count < 0) {
        snprintf(why, whylen, "no CPU energy: %s cannot be read (no powercap, e.g. a VM)", root);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        add_zone(r, root, names[i]->d_name);
        free(names[i]);
    }
    free(names);
    if (r->n == 0) {
        snprintf(why, whylen,
                 "no CPU energy: no readable RAPL package counter under %s (root only here?)",
                 root);
        return -1;
    }
    r->period_s = sampling_period(r);
    return 0;
}

int rapl_read(const struct rapl *r, struct rapl_snap *s) {
    for (int i = 0; i < r->n; i++)
        if (read_uj(r->path[i], &s->uj[i]) != 0)
            return -1;
    return 0;
}

double rapl_joules(const struct rapl *r, const struct rapl_snap *a, const struct rapl_snap *b) {
    double uj = 0;
    for (int i = 0; i < r->n; i++) {
        double d = b->uj[i] - a->uj[i];
        if (d < 0) /* wrapped past max_energy_range_uj back to 0 */
            d += r->max_uj[i];
        uj += d;
    }
    return uj / 1e6;
}

void rapl_acc_start(const struct rapl *r, struct rapl_acc *a, const struct rapl_snap *s,
                    double now_s) {
    (void)r;
    memset(a, 0, sizeof *a);
    a->last = *s;
    a->last_s = now_s;
}

void rapl_acc_add(const struct rapl *r, struct rapl_acc *a, const struct rapl_snap *s,
                  double now_s) {
    double dt = now_s - a->last_s;
    for (int i = 0; i < r->n; i++) {
        double d = s->uj[i] - a->last.uj[i];
        if (d < 0) /* wrapped past max_energy_range_uj back to 0 */
            d += r->max_uj[i];
        double wrap_s = r->max_uj[i] / 1e6 / r->limit_w[i];
        if (dt < wrap_s) {
            a->exact_uj[i] += d;
            a->exact_s[i] += dt;
        } else if (a->n_gap[i] < RAPL_MAX_GAPS) {
            a->gap_uj[i][a->n_gap[i]] = d;
            a->gap_s[i][a->n_gap[i]++] = dt;
        } else {
            a->failed = 1;
        }
    }
    a->last = *s;
    a->last_s = now_s;
}

double rapl_acc_joules(const struct rapl *r, const struct rapl_acc *a) {
    if (a->failed)
        return -1;
    double uj = 0;
    for (int i = 0; i < r->n; i++) {
        uj += a->exact_uj[i];
        if (a->n_gap[i] == 0)
            continue;
        if (!(a->exact_s[i] > 0))
            return -1;
        double w_uj_s = a->exact_uj[i] / a->exact_s[i]; /* µJ per second */
        for (int g = 0; g < a->n_gap[i]; g++) {
            double k = floor((w_uj_s * a->gap_s[i][g] - a->gap_uj[i][g]) / r->max_uj[i] + 0.5);
            uj += a->gap_uj[i][g] + (k > 0 ? k : 0) * r->max_uj[i];
        }
    }
    return uj / 1e6;
}
