/* stdout_check.h — standard output, checked: a failed or short write to it (a full disk, a
 * reader that closed the pipe, a terminal that went away) is said once on stderr and makes the
 * command's exit code non-zero, whatever the command and format. SIGPIPE is ignored (main.c), so
 * a closed pipe is such a failure (EPIPE), not a death that would lose a run's file. */
#ifndef GPUBENCH_STDOUT_CHECK_H
#define GPUBENCH_STDOUT_CHECK_H

/* Flush stdout. Returns 0, or -1 when a write to it has failed (now or before): the first
 * failure prints "gpubench: error writing standard output: REASON" on stderr, then "; " and
 * `then` (what the command does about it) when `then` is not NULL. */
int stdout_flush_checked(const char *then);

/* A write to stdout the caller saw fail with errno e (a short fwrite, whose errno a later flush
 * no longer knows): said once, as stdout_flush_checked says it. */
void stdout_failed(int e);

/* A command's end (main.c, once for every command): flush and close stdout. Returns rc, or 1
 * when rc is 0 and stdout could not be written whole (said on stderr, once). A non-zero rc is
 * kept: it already says the command did not succeed (2 a usage error, 130 interrupted, …). */
int stdout_finish(int rc);

#endif
