/* stage.c — faults staged by name, so that a test (or a user) can make the simulated device fail
 * as a card does: a kernel that never finishes, an illegal address, a library that segfaults, a
 * card that fell off the bus. Test-only code; README.md, "Fault injection and accounting".
 *
 * Each variable holds one NAME or a comma-separated list; a NAME matches every name that contains
 * it (case-sensitive substring). The names matched: a kernel launch's readable kernel name, the C
 * name the kernel is defined with and GB_SIM_KERNEL lists (gb_hgemm_wgmma_persist_128x256: the
 * name after the "_Z<len>" of the mangled one, kernels.c); a cuBLAS or cuDNN call's exported
 * function name (cublasGemmEx, cublasSgemm_v2, cudnnConvolutionForward), whose device work is
 * the operation it queues; for CRASH also any CUDA runtime function the simulation counts
 * (fault.c, gbsim_enter).
 *
 *   GPUBENCH_SIM_HANG=NAME   the launch (or the library call) is accepted, but its work never
 *       completes: the stream's worker blocks on a condition variable nobody signals (no core
 *       spins), so every later operation of that stream waits behind it; synchronising on it
 *       blocks forever and cudaEventQuery / cudaStreamQuery answer cudaErrorNotReady. Neither
 *       the launch queue's deadlock check (stream.c, exit 86) nor the exit-time join of the
 *       workers waits on a hung stream: the process ends on exit(), SIGTERM or SIGKILL as one
 *       with a hung kernel does.
 *   GPUBENCH_SIM_TRAP=NAME   the launch returns cudaSuccess, and its work faults as an illegal
 *       address does on a card: cudaErrorIllegalAddress, sticky (core.c, gbsim_break), seen
 *       at the next synchronisation and by every later call on that device.
 *   GPUBENCH_SIM_CRASH=NAME  the call (or launch) kills the process with SIGSEGV, a real invalid
 *       access on the calling host thread, as a segfault inside a library does.
 *   GPUBENCH_SIM_GONE=FILE   the card fell off the bus after the fault: when a TRAP fires or a
 *       HANG starts, FILE is created (one line naming the device and the fault); a process whose
 *       simulation starts while FILE exists finds every simulated card lost (core.c: the
 *       runtime's cudaErrorNoDevice; nvml.c: NVML_ERROR_GPU_IS_LOST). Remove FILE to "reboot".
 * Each staged fault prints one "gbsim: …" line on stderr when it fires.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/sim/sim.h"

enum { MAX_NAMES = 16, NAME_BYTES = 128 };

struct names {
    const char *var;
    char name[MAX_NAMES][NAME_BYTES];
    int n;
};

static struct names hang = {"GPUBENCH_SIM_HANG", {{0}}, 0};
static struct names trap = {"GPUBENCH_SIM_TRAP", {{0}}, 0};
static struct names crash = {"GPUBENCH_SIM_CRASH", {{0}}, 0};
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

static void parse_one(struct names *s) {
    const char *env = getenv(s->var), *p = env;
    while (p && *p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len >= NAME_BYTES || s->n == MAX_NAMES) {
            fprintf(stderr, "gbsim: %s=%s: at most %d names of at most %d characters each\n",
                    s->var, env, MAX_NAMES, NAME_BYTES - 1);
            exit(2);
        }
        if (len > 0) { /* empty items ("a,,b", a trailing comma) name nothing */
            memcpy(s->name[s->n], p, len);
            s->name[s->n++][len] = '\0';
        }
        p = end ? end + 1 : NULL;
    }
}

static void parse(void) {
    parse_one(&hang);
    parse_one(&trap);
    parse_one(&crash);
}

/* The first NAME of s that `name` contains, or NULL. */
static const char *match(struct names *s, const char *name) {
    pthread_once(&parse_once, parse);
    for (int i = 0; name && i < s->n; i++)
        if (strstr(name, s->name[i]))
            return s->name[i];
    return NULL;
}

int gbsim_stage_of(const char *name) {
    if (match(&hang, name))
        return GBSIM_STAGE_HANG;
    if (match(&trap, name))
        return GBSIM_STAGE_TRAP;
    return GBSIM_STAGE_NONE;
}

/* Read through a volatile object, so that the compiler cannot see the access is invalid: the
 * store below is a real fault of the calling thread, as a library's own would be (a handler the
 * program installed sees it as such; raise() would not re-fault if that handler returned). */
static volatile uintptr_t unmapped = 16;

void gbsim_stage_crash(const char *name) {
    const char *hit = match(&crash, name);
    if (!hit)
        return;
    fprintf(stderr, "gbsim: %s: segmentation fault (GPUBENCH_SIM_CRASH=%s)\n", name, hit);
    fflush(stderr);
    *(volatile int *)unmapped = 1;
    abort(); /* not reached: the store faults */
}

/* GPUBENCH_SIM_GONE: the file that says the machine's cards are lost (core.c reads it). */
static void stage_gone(const struct gbsim_device *d, const char *what, const char *name) {
    const char *path = getenv("GPUBENCH_SIM_GONE");
    char line[512];
    if (!path || !path[0])
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "gbsim: GPUBENCH_SIM_GONE=%s: cannot create: %s\n", path, strerror(errno));
        return;
    }
    int n = snprintf(line, sizeof line, "cuda:%d simulated %s fell off the bus after a %s in %s\n",
                     d->ordinal, d->p->name, what, name);
    if (write(fd, line, (size_t)n) != n)
        fprintf(stderr, "gbsim: GPUBENCH_SIM_GONE=%s: cannot write\n", path);
    close(fd);
}

cudaError_t gbsim_stage_trap(const struct gbsim_device *d, const char *name) {
    fprintf(stderr,
            "gbsim: cuda:%d: %s: an illegal memory access (GPUBENCH_SIM_TRAP=%s): the launch "
            "returned cudaSuccess, the error comes at the next synchronisation\n",
            d->ordinal, name, match(&trap, name));
    stage_gone(d, "trap", name);
    return cudaErrorIllegalAddress;
}

/* Never signalled: a hung stream's worker waits here for good. A condition variable, not a loop
 * or sleep, so that the process uses no CPU while hung; a signal's handler still runs on this
 * thread and the wait resumes after it. */
static pthread_mutex_t never_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

void gbsim_stage_hang(const struct gbsim_device *d, const char *name) {
    fprintf(stderr,
            "gbsim: cuda:%d: %s never completes (GPUBENCH_SIM_HANG=%s): its stream waits for "
            "good\n",
            d->ordinal, name, match(&hang, name));
    fflush(stderr);
    stage_gone(d, "hang", name);
    pthread_mutex_lock(&never_lock);
    for (;;)
        pthread_cond_wait(&never, &never_lock);
}
