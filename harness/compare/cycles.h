/* cycles.h — compare's cycle-space check: did two sides' rows run at the same clocks, throttled
 * alike?
 *
 * A row that got slower because the card ran at a lower clock (a hot card, a power cap, another
 * job's heat) is a different finding from one whose code or driver got slower: the same number
 * of cycles at a lower clock. nvbench's robust compare checks this; gpubench reads it from the
 * telemetry columns (results/README.md): the SM and memory clocks over the timed repetitions and
 * the throttle reasons seen. Files without those columns, or rows with them empty, are never
 * flagged.
 */
#ifndef GPUBENCH_COMPARE_CYCLES_H
#define GPUBENCH_COMPARE_CYCLES_H

#include <stddef.h>

#include "harness/compare/internal.h"

/* Clocks that differ by more than this fraction count as different. */
#define CYCLES_CLOCK_TOL 0.05

/* Whether the base rows b[0, nb) and the new rows n[0, nn) of one key (one per run) differ in
 * clocks (each side's mean over its runs of the mean of start and end) or throttling (the union
 * of the runs' reasons). Returns 1 with what differs in `why` ("SM clock 1410 -> 1095 MHz;
 * throttling none -> sw_power_cap"), or 0 with why = "". */
int cmp_cycles_differ(const struct cmp_input *in, const struct run_row *const *b, int nb,
                      const struct run_row *const *n, int nn, char *why, size_t whylen);

#endif
