/* child.c — the parent side of a process per repetition (child.h). */
#include "kernels/common/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/device.h"

extern char **environ;

enum { MAX_ARGS = 8 + SHAPE_MAX_KEYS, MAX_ENV = 8 };

/* environ with `extra` in front (an extra NAME= replaces the inherited one). */
static char **child_env(const char *const *extra, char ***alloc) {
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    char **e = calloc(n + MAX_ENV + 1, sizeof *e);
    *alloc = e;
    if (!e)
        return environ;
    for (size_t i = 0; extra && extra[i] && k < MAX_ENV; i++)
        e[k++] = (char *)extra[i];
    for (size_t i = 0; i < n; i++) {
        int replaced = 0;
        for (size_t j = 0; j < k && !replaced; j++) {
            size_t len = strcspn(e[j], "=") + 1;
            replaced = strncmp(environ[i], e[j], len) == 0;
        }
        if (!replaced)
            e[k++] = environ[i];
    }
    return e;
}

/* Read the child's stdout until EOF or the deadline; returns 0, or -1 at the deadline. */
static int read_all(int fd, char *buf, size_t len, double timeout_s) {
    size_t used = 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        double spent = (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9;
        double left = timeout_s - spent;
        struct pollfd p = {fd, POLLIN, 0};
        if (left <= 0)
            return -1;
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r == 0 ? -1 : 0;
        ssize_t got = read(fd, buf + used, len - 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        used += (size_t)got;
        if (used >= len - 1)
            break;
    }
    buf[used] = '\0';
    return 0;
}

/* The child's line into ctx: "ok MS V…" or "STATUS NOTE". */
static enum status parse_answer(struct impl_ctx *ctx, const char *line) {
    char word[16];
    int at = 0;
    if (sscanf(line, "%15s %n", word, &at) != 1)
        return ST_ERROR;
    if (strcmp(word, "ok") != 0) {
        for (int s = ST_WRONG; s <= ST_TIMEOUT; s++)
            if (!strcmp(word, status_name((enum status)s))) {
                snprintf(ctx->note, sizeof ctx->note, "%.*s", (int)strcspn(line + at, "\n"),
                         line + at);
                return (enum status)s;
            }
        return ST_ERROR;
    }
    const char *s = line + at;
    char *end;
    ctx->child_ms = strtod(s, &end);
    struct buf *o = &ctx->p->out[0];
    for (size_t i = 0; i < o->n && i < GB_CHILD_MAX_OUT && end != s; i++) {
        s = end;
        o->data[i] = strtof(s, &end);
    }
    return ctx->child_ms >= 0 ? ST_OK : ST_ERROR;
}

/* Spawn the child with its stdout on a pipe; *pid and the pipe's read end, or -1. */
static int spawn(char *const *argv, char *const *envp, pid_t *pid) {
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawn(pid, argv[0], &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc != 0) {
        close(fd[0]);
        errno = rc;
        return -1;
    }
    return fd[0];
}

/* How a child ended that gave no answer line. */
static enum status died(struct impl_ctx *ctx, int status, int timed_out) {
    if (timed_out)
        snprintf(ctx->note, sizeof ctx->note, "child process killed after %d s",
                 GB_CHILD_TIMEOUT_S);
    else if (WIFSIGNALED(status))
        snprintf(ctx->note, sizeof ctx->note, "child process died of signal %d (%s)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(ctx->note, sizeof ctx->note, "child process exited %d without an answer",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return timed_out ? ST_TIMEOUT : ST_ERROR;
}

enum status gb_child_run(struct impl_ctx *ctx, const char *workload, const char *impl,
                         const char *const *env) {
    char nums[3 + SHAPE_MAX_KEYS][32], *argv[MAX_ARGS + 1];
    const char *exe = getenv("GPUBENCH_CHILD_EXE");
    int a = 0;
    argv[a++] = (char *)(exe && exe[0] ? exe : "/proc/self/exe");
    argv[a++] = "__child";
    argv[a++] = (char *)workload;
    argv[a++] = (char *)impl;
    long head[3] = {ctx->dev ? ctx->dev->ordinal : 0, ctx->threads, (long)ctx->p->seed};
    for (int i = 0; i < 3 + SHAPE_MAX_KEYS; i++) {
        snprintf(nums[i], sizeof nums[i], "%ld", i < 3 ? head[i] : ctx->p->shape.v[i - 3]);
        argv[a++] = nums[i];
    }
    argv[a] = NULL;
    char **alloc = NULL, answer[1024];
    pid_t pid;
    int fd = spawn(argv, child_env(env, &alloc), &pid);
    free(alloc);
    if (fd < 0) {
        snprintf(ctx->note, sizeof ctx->note, "cannot start %s: %s", argv[0], strerror(errno));
        return ST_ERROR;
    }
    int late = read_all(fd, answer, sizeof answer, GB_CHILD_TIMEOUT_S) != 0;
    close(fd);
    if (late)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (late || !answer[0])
        return died(ctx, status, late);
    return parse_answer(ctx, answer);
}

void gb_child_report(FILE *f, enum status st, double ms, const struct problem *p,
                     const char *note) {
    if (st != ST_OK) {
        fprintf(f, "%s %s\n", status_name(st), note && note[0] ? note : "failed");
        return;
    }
    fprintf(f, "ok %.9g", ms);
    for (size_t i = 0; i < p->out[0].n && i < GB_CHILD_MAX_OUT; i++)
        fprintf(f, " %.9g", p->out[0].data[i]);
    fputc('\n', f);
}
