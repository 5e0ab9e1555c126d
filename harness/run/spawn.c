/* spawn.c — this binary again, as a watched child (spawn.h). */
#include "harness/run/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* Above any descriptor the child is given, so that moving one to 3, 4, … never closes another
 * still to be moved. */
enum { SPAWN_FD_PARK = 100 };

pid_t spawn_self(char *const *args, const char *const *env, const int *fds, int nfds,
                 int death_signal, const char *what) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    setpgid(0, 0);
#ifdef __linux__
    if (death_signal)
        prctl(PR_SET_PDEATHSIG, death_signal);
#else
    (void)death_signal;
#endif
    /* a signal the parent caught is a default one again here; ignored ones stay ignored
     * (nohup's SIGHUP), as exec would leave them */
    int parked[8];
    for (int i = 0; i < nfds && i < 8; i++)
        parked[i] = fcntl(fds[i], F_DUPFD, SPAWN_FD_PARK);
    for (int i = 0; i < nfds && i < 8; i++) {
        if (parked[i] < 0 || dup2(parked[i], 3 + i) < 0) {
            fprintf(stderr, "gpubench: cannot start %s: %s\n", what, strerror(errno));
            _exit(127);
        }
        close(parked[i]);
    }
    for (int i = 0; env && env[i]; i++) {
        const char *eq = strchr(env[i], '=');
        if (!eq) {
            unsetenv(env[i]);
            continue;
        }
        char name[128];
        size_t n = (size_t)(eq - env[i]);
        if (n >= sizeof name)
            continue;
        memcpy(name, env[i], n);
        name[n] = '\0';
        setenv(name, eq + 1, 1);
    }
    execv("/proc/self/exe", args);
    fprintf(stderr, "gpubench: cannot start %s: %s\n", what, strerror(errno));
    _exit(127);
}
