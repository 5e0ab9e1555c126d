/* stdout_check.c — failed writes to standard output said once and turned into an exit code
 * (stdout_check.h). */
#include "harness/io/stdout_check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int lost_errno; /* the first failure's errno (-1: not known); 0 while stdout is fine */

/* Note the failure e (0: its errno is not known); say it on stderr the first time (stderr may be
 * gone too: nothing to do then but the exit code). */
static void lost(int e, const char *then) {
    if (lost_errno)
        return;
    lost_errno = e ? e : -1;
    fprintf(stderr, "gpubench: error writing standard output%s%s%s%s\n", e ? ": " : "",
            e ? strerror(e) : "", then ? "; " : "", then ? then : "");
    fflush(stderr);
}

void stdout_failed(int e) {
    lost(e, NULL);
}

int stdout_flush_checked(const char *then) {
    if (lost_errno)
        return -1;
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    lost(errno, then); /* errno 0: the write failed inside an earlier printf */
    return -1;
}

int stdout_finish(int rc) {
    errno = 0;
    int e = 0, bad = 0;
    if (fflush(stdout) != 0)
        bad = 1, e = errno;
    else if (ferror(stdout)) /* a write failed earlier (its errno is long gone) */
        bad = 1;
    errno = 0;
    if (fclose(stdout) != 0 && !bad)
        bad = 1, e = errno;
    if (!bad && !lost_errno)
        return rc;
    lost(e, NULL);
    return rc ? rc : 1;
}
