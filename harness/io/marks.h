/* marks.h — the few facts that change what a row's figure means, decided in one place and
 * carried by every output in its own way:
 *
 *   emulated    a simulated device (gpubench-sim): the time is CPU emulation, not the card's;
 *   cached      the working set was served by the last-level cache (runner.c's cache_note):
 *               a cache rate, not a memory rate;
 *   below-res   the median is below the timer's resolution: a count of ticks, not a time;
 *   shared-cpu  the row's threads waited for a core more than MARK_SHARED_CPU_PCT % of the
 *               timed time: another process had the CPU.
 *
 * The table and Markdown put the words in the status cell and a legend under the table
 * (harness/run/sinks.c), the CSV in its `marks` column, the run JSON in a `marks` array,
 * Google Benchmark JSON in each benchmark's `label` (and the run's context), Bencher's BMF in a
 * suffix of the benchmark's name, the plots in their titles and legends (scripts/plot, which
 * reads the CSV column), compare in its lines (harness/compare). */
#ifndef GPUBENCH_MARKS_H
#define GPUBENCH_MARKS_H

#include <stddef.h>

#include "harness/core/result.h"

enum {
    MARK_EMULATED = 1u << 0,
    MARK_CACHED = 1u << 1,
    MARK_BELOW_RES = 1u << 2,
    MARK_SHARED_CPU = 1u << 3,
    MARK_KINDS = 4
};

/* Above this share of the timed time spent waiting for a core (result.cpu_wait_pct), the row's
 * CPU counts as shared. */
#define MARK_SHARED_CPU_PCT CPU_WAIT_SHARED_PCT /* harness/core/result.h: one threshold */

struct mark_kind {
    unsigned bit;
    const char *word;   /* in files: "emulated" */
    const char *legend; /* what it means, one sentence for legends */
};

/* Every kind, in the order words are written. */
extern const struct mark_kind mark_kinds[MARK_KINDS];

/* The marks of a row as it was measured. */
unsigned marks_of(const struct result *r);

/* The marks of a row read back from a run CSV: its `marks` column (`words`, NULL where the file
 * has none); a file written before the column still marks a simulated device's rows and rows
 * whose note says "cache bandwidth, not memory". */
unsigned marks_of_fields(const char *words, const char *device_name, const char *note);

/* The words of `m` joined by sep ("emulated+cached"); "" when none. Returns out. */
char *marks_words(unsigned m, const char *sep, char *out, size_t len);

/* The marks named by words joined by '+', ',' or ';' (a CSV cell); unknown words are ignored
 * (a newer writer's). */
unsigned marks_parse(const char *words);

#endif
