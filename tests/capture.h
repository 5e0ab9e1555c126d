/* capture.h — what a printer writes to stdout, taken for a test (tests/io/test_marks.c,
 * tests/run/test_sink_cpu_wait.c). Needs _GNU_SOURCE, as gpubench's targets have it. */
#ifndef GPUBENCH_TESTS_CAPTURE_H
#define GPUBENCH_TESTS_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/testhelp.h"

/* Stdout taken into a temporary file between stdout_capture_begin and stdout_capture_end. */
struct stdout_capture {
    char path[32];
    int fd, saved;
};

static inline void stdout_capture_begin(struct stdout_capture *c) {
    snprintf(c->path, sizeof c->path, "/tmp/gb_stdout_XXXXXX");
    c->fd = mkstemp(c->path);
    CHECK(c->fd >= 0);
    fflush(stdout);
    c->saved = dup(STDOUT_FILENO);
    dup2(c->fd, STDOUT_FILENO);
}

/* Stdout back as it was; what was written meanwhile (up to 64 KiB), to free. */
static inline char *stdout_capture_end(struct stdout_capture *c) {
    fflush(stdout);
    dup2(c->saved, STDOUT_FILENO);
    close(c->saved);
    char *text = calloc(1, 65536);
    CHECK(text != NULL);
    if (text && c->fd >= 0 && lseek(c->fd, 0, SEEK_SET) == 0) {
        ssize_t n = read(c->fd, text, 65535);
        text[n > 0 ? n : 0] = '\0';
    }
    if (c->fd >= 0)
        close(c->fd);
    unlink(c->path);
    return text;
}

#endif
