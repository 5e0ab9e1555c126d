/* rapl.h — CPU package energy through the Linux powercap interface (RAPL).
 *
 * /sys/class/powercap/<zone>/energy_uj is a running count of the microjoules the zone used,
 * wrapping to 0 after max_energy_range_uj. gpubench sums the package zones ("name" begins with
 * "package": each socket's cores, caches and uncore; not psys, which would count them twice).
 * Many systems make energy_uj readable by root only (since the 2020 PLATYPUS fixes) and VMs have
 * no zones: then there is no CPU energy and the columns stay empty.
 */
#ifndef GPUBENCH_RAPL_H
#define GPUBENCH_RAPL_H

#include <stddef.h>

enum { RAPL_MAX_ZONES = 8 };

struct rapl {
    int n;                             /* package zones found readable */
    char path[RAPL_MAX_ZONES][320];    /* their energy_uj files */
    double max_uj[RAPL_MAX_ZONES];     /* their wrap-around points */
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
 * wrap once (at ~100 W a 2^32-µJ counter wraps every 43 s; most are 2^38, hours). */
double rapl_joules(const struct rapl *r, const struct rapl_snap *a, const struct rapl_snap *b);

#endif
