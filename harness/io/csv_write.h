/* csv_write.h — the run CSV (fixed gpubench-1 columns) and the samples CSV, written atomically:
 * rows go to PATH.partial as they complete (flushed), and PATH appears only at csv_commit. */
#ifndef GPUBENCH_CSV_WRITE_H
#define GPUBENCH_CSV_WRITE_H

#include <stdio.h>

#include "harness/core/result.h"

#define CSV_SCHEMA "gpubench-1"

/* The header line of the run CSV (no newline): the fixed columns, then the extra ones. */
extern const char CSV_HEADER[];
extern const char SAMPLES_HEADER[];

struct csv_file {
    FILE *f;
    char path[4096], partial[4112];
    int write_errno; /* the first failed flush's errno (0: none), reported by csv_commit */
    int direct; /* PATH is a device or a pipe (/dev/null): written in place, never renamed */
};

/* Create PATH.partial and write `header` (a line; none when NULL). PATH.partial stays locked
 * (flock) until it is committed or discarded: when another process holds it, CSV_BUSY. A PATH
 * that is a character device or a pipe (/dev/null, /dev/stdout) is written directly instead;
 * any other PATH that exists and is not a regular file is refused. Returns 0, or -1 or CSV_BUSY
 * with "PATH: reason" in err. */
enum { CSV_BUSY = -2 };
int csv_open(struct csv_file *c, const char *path, const char *header, char *err, size_t errlen);

/* Write `text` as one CSV field: quoted when it holds a comma, quote, CR or LF. */
void csv_field(FILE *f, const char *text);

/* One row of the run CSV to f (any stream: the file, or stdout for --format csv). */
void csv_write_result(FILE *f, const struct run_info *ri, const struct result *r);

/* Every sample of r, one line each, to f. */
void csv_write_samples(FILE *f, const struct run_info *ri, const struct result *r);

/* Flush after a row, so an interrupted run keeps what it measured. A failure (a full disk) is
 * kept for csv_commit, which says it once. */
void csv_flush(struct csv_file *c);

/* Close, then rename PATH.partial to PATH. Returns 0, or -1 with a reason in err; when the file
 * could not be written whole, PATH.partial is removed (a truncated file is no result) and the
 * reason says so. */
int csv_commit(struct csv_file *c, char *err, size_t errlen);

/* Close and delete PATH.partial (nothing was measured worth keeping). */
void csv_discard(struct csv_file *c);

/* An interrupted run that finished no row: csv_discard, so that PATH stays as it was (an
 * earlier run's file is not replaced by a header alone). Writes what became of PATH into what:
 * "PATH left as it was", or "nothing written to PATH" where there was none. */
void csv_abandon(struct csv_file *c, char *what, size_t len);

#endif
