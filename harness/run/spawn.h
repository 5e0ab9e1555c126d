/* spawn.h — start this binary again as a child of its own: the one way a run starts the
 * processes it watches (the runs of --runs N, runs.c; the worker of each run, supervise.c). */
#ifndef GPUBENCH_SPAWN_H
#define GPUBENCH_SPAWN_H

#include <sys/types.h>

/* fork + exec /proc/self/exe with `args` (NULL-terminated; args[0] is the name it shows). The
 * child is in a process group of its own (a signal for the parent — Ctrl-C at the terminal —
 * does not reach it, and kill(-pid, …) reaches it and every process it starts) and gets
 * `death_signal` when this process dies (Linux; 0: none). `env`: NULL-terminated "NAME=VALUE"
 * strings to set, or "NAME" to unset, in the child. `fds`: nfds descriptors the child gets as
 * 3, 4, … (every other descriptor of ours opened close-on-exec stays ours). Returns the pid, or
 * -1 with errno set (the fork failed; a failed exec exits the child with 127 after one line on
 * stderr naming `what`). */
pid_t spawn_self(char *const *args, const char *const *env, const int *fds, int nfds,
                 int death_signal, const char *what);

#endif
