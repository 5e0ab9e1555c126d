/* cycles.h — compare's cycle-space check: did two rows run at the same clocks, unthrottled alike?
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

#include "harness/io/csv_read.h"

/* Clocks that differ by more than this fraction count as different. */
#define CYCLES_CLOCK_TOL 0.05

/* Whether row b of table bt and row n of table nt differ in clocks or throttling. Returns 1 with
 * what differs in `why` ("SM clock 1530 -> 1100 MHz; throttling none -> sw_power_cap"), or 0 with
 * why = "". */
int cmp_cycles_differ(const struct csv_table *bt, const struct run_row *b,
                      const struct csv_table *nt, const struct run_row *n, char *why,
                      size_t whylen);

#endif
