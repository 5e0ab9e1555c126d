/* sinks.h — what goes to stdout as rows complete (table, markdown, or a machine-readable format
 * of harness/io/rows.h: csv, json, gbench, bmf), and progress on stderr when it is a terminal. */
#ifndef GPUBENCH_SINKS_H
#define GPUBENCH_SINKS_H

#include "harness/run/cli.h"
#include "harness/core/result.h"
#include "harness/io/marks.h"

struct row_format;

enum { SINK_NO_PEAK_MAX = 8 };

enum { SINK_WAIT_WORST = 3 };

struct sink {
    enum out_format fmt;
    const struct row_format *rows_fmt; /* NULL for table and markdown */
    int rows;                          /* rows (entries, for rows_fmt) written */
    int progress;    /* stderr is a terminal */
    int shape_width; /* width of the table's shape column */
    int impl_width;  /* and of its implementation column */
    const struct run_info *ri; /* the run's devices, for the table's footer */
    const char *lost;          /* what the run does once stdout fails (said with the failure) */
    int dead;                  /* stdout failed: nothing more is written to it */
    /* The table fitted to the terminal (sinks.c, table_fit): its width in display columns (0:
     * unknown, the wide form), each column's width and whether it shows. */
    int width, colw[12], show[12];
    /* The reasons for a '-' in `peak` seen so far (result.no_peak) and their rows. */
    const char *no_peak[SINK_NO_PEAK_MAX];
    int no_peak_rows[SINK_NO_PEAK_MAX], nno_peak;
    /* The timed rows seen so far with each mark (harness/io/marks.h: mark_kinds' order), for
     * the legend under the table. */
    int mark_rows[MARK_KINDS];
    /* The rows timed on a shared CPU (cpu_wait_pct above CPU_WAIT_SHARED_PCT,
     * harness/telemetry/cpu_wait.h) seen so far: how many, and the worst SINK_WAIT_WORST, worst
     * first ("cpu gemm openblas f32 m=256 n=256 k=256"), for the footer. */
    int nwait, nwait_timed;
    double wait_pct[SINK_WAIT_WORST];
    char wait_row[SINK_WAIT_WORST][200];
};

/* Start the output; shape_width and impl_width are the longest short shape and implementation
 * name the run will print (plan_shape_width, plan_impl_width). Every write to stdout is
 * checked (harness/io/stdout_check.h): after a failed one (a full disk, a closed pipe) the sink
 * writes nothing more, and the failure is said once on stderr followed by `lost`, what the run
 * does about it ("the run goes on: its rows go to out.csv"). */
void sink_begin(struct sink *s, enum out_format fmt, int shape_width, int impl_width,
                const struct run_info *ri, const char *lost);
void sink_row(struct sink *s, const struct run_info *ri, const struct result *r);
/* The end of the output; a table or markdown ends with each device's machine facts, once (a
 * row's note holds only what concerns that row). */
void sink_end(struct sink *s);

/* "[3/12] <workload>/<impl> on cpu, <shape>" on stderr, overwritten in place. */
void sink_progress(struct sink *s, int i, int total, const char *what);
void sink_progress_clear(struct sink *s);

/* Format a time in ms with 3–4 significant digits: "0.0123", "12.3", "1234". */
void sink_fmt_ms(char *out, size_t len, double ms);

#endif
