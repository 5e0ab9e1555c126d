/* rapl.h — CPU package energy through the Linux powercap interface (RAPL).
 *
 * /sys/class/powercap/<zone>/energy_uj is a running count of the microjoules the zone used,
 * wrapping to 0 after max_energy_range_uj. gpubench sums the package zones ("name" begins with
 * "package": each socket's cores, caches and uncore; not psys, which would count them twice).
 * Many systems make energy_uj readable by root only (since the 2020 PLATYPUS fixes) and VMs have
 * no zones: then there is no CPU energy and the columns stay empty.
 *
 * A counter wraps every max_energy_range_uj / power: 2^32 µJ at 200 W is 21 s, so a row is not
 * measured from its two ends alone. The caller reads the counters every period_s (a quarter of
 * the shortest wrap time at the zone's highest power limit, constraint_N_power_limit_uw or
 * constraint_N_max_power_uw; RAPL_ASSUME_W where the zone states none) and adds the deltas.
 */
#ifndef GPUBENCH_RAPL_H
#define GPUBENCH_RAPL_H

#include <stddef.h>

enum { RAPL_MAX_ZONES = 8 };

/* The power assumed for a zone that states no limit (no CPU package draws 1 kW), and the longest
 * sampling period whatever the wrap time (so that a wrap missed for another reason costs less). */
#define RAPL_ASSUME_W 1000.0
#define RAPL_PERIOD_MAX_S 1.0
#define RAPL_PERIOD_MIN_S 0.005

struct rapl {
    int n;                             /* package zones found readable */
    char path[RAPL_MAX_ZONES][320];    /* their energy_uj files */
    double max_uj[RAPL_MAX_ZONES];     /* their wrap-around points */
    double limit_w[RAPL_MAX_ZONES];    /* their highest power limit, RAPL_ASSUME_W if none */
    double period_s;                   /* read every zone at least this often */
};

struct rapl_snap {
    double uj[RAPL_MAX_ZONES];
};

/* Find the readable package zones. The root is /sys/class/powercap, or $GPUBENCH_TEST_POWERCAP
 * (set only by tests, which build a fake tree). Returns 0 when there is at least one, else -1
 * with one line in `why`. */
int rapl_open(struct rapl *r, char *why, size_t whylen);

/* Read every zone's counter. Returns 0, or -1 when one could not be read. */
int rapl_read(const struct rapl *r, struct rapl_snap *s);

/* Joules used between snapshots a and b (taken in that order), each zone's counter allowed to
 * wrap once: a and b must be less than one wrap time apart (period_s is a quarter of it). */
double rapl_joules(const struct rapl *r, const struct rapl_snap *a, const struct rapl_snap *b);

/* A row's energy, read by read. A delta between reads closer than the zone's wrap time at its
 * power limit is exact (one wrap at most, seen as a smaller count). Reads further apart (the
 * sampler held off the CPU on a loaded machine) could hide whole wraps: such a gap is kept and,
 * at the end, given the number of wraps that brings its power nearest the zone's power over the
 * exact stretches of the same row; with no exact stretch the energy is unknown. */
enum { RAPL_MAX_GAPS = 64 };

struct rapl_acc {
    struct rapl_snap last;
    double last_s;                              /* when `last` was read (CLOCK_MONOTONIC) */
    double exact_uj[RAPL_MAX_ZONES], exact_s[RAPL_MAX_ZONES]; /* the exact stretches */
    double gap_uj[RAPL_MAX_ZONES][RAPL_MAX_GAPS];              /* a long gap's wrapped delta */
    double gap_s[RAPL_MAX_ZONES][RAPL_MAX_GAPS];               /* and its length */
    int n_gap[RAPL_MAX_ZONES];
    int failed; /* a read failed, or too many gaps: unknown */
};

/* Start a row at snapshot s, read at time now_s. */
void rapl_acc_start(const struct rapl *r, struct rapl_acc *a, const struct rapl_snap *s,
                    double now_s);

/* Add the stretch up to snapshot s, read at now_s (after the previous one). */
void rapl_acc_add(const struct rapl *r, struct rapl_acc *a, const struct rapl_snap *s,
                  double now_s);

/* The row's joules so far, or -1 when unknown. */
double rapl_acc_joules(const struct rapl *r, const struct rapl_acc *a);

#endif
