/* core.c — the simulated machine: its devices from GPUBENCH_SIM, the driver and runtime versions
 * they imply, device memory, the per-thread last error and sticky errors. Test-only code; see
 * sim.h for the model.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "harness/gpuinfo/cuda_facts.h"
#include "tests/sim/sim.h"

static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

void gbsim_lock(void) {
    pthread_mutex_lock(&big_lock);
}

void gbsim_unlock(void) {
    pthread_mutex_unlock(&big_lock);
}

pthread_mutex_t *gbsim_big_lock(void) {
    return &big_lock;
}

double gbsim_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* --- the machine ---------------------------------------------------------------------------- */
static struct gbsim_device devices[GBSIM_MAX_DEVICES];
static int ndevices;
static int driver_version, runtime_version;
static cudaError_t init_error = cudaSuccess;
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

static void die_usage(const char *value, const char *why) {
    size_t n;
    const struct gbsim_profile *p = gbsim_profiles(&n);
    fprintf(stderr,
            "gbsim: GPUBENCH_SIM=%s: %s; give <profile>[:built-for-card][:exclusive-process][,…] "
            "with "
            "profiles:",
            value, why);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, " %s", p[i].key);
    fputc('\n', stderr);
    exit(2);
}

/* The driver must be able to run this runtime: from CUDA 11 on, any driver of the same major
 * (minor version compatibility, from the driver branch that introduced it); before, a driver at
 * least as new (CUDA release notes, "CUDA Toolkit and Corresponding Driver Versions"). */
static int driver_runs(int driver, int runtime) {
    if (runtime >= 11000)
        return driver / 1000 >= runtime / 1000;
    return driver >= runtime;
}

/* A context, the driver and (on display cards) the desktop take memory before any program does:
 * an estimate of 5% of the card, at most 256 MiB, never free to the program. */
static size_t reservation(size_t total) {
    size_t r = total / 20, cap = (size_t)256 << 20;
    return r < cap ? r : cap;
}

/* One machine has one driver: the oldest card's last (parse_env). A card whose architecture
 * came after that driver (an H100 beside an NVS 310, whose last driver is R390 = CUDA 9.1; the
 * H100 needs CUDA 11.8's) cannot be in that machine. Where the runtime would start on that
 * driver (an old card built for: runtime 8.0), refuse it in one line rather than run the new
 * card (it ran `ok`, tagged runtime 8.0 and driver CUDA 9.1); where the runtime fails, as a
 * current build's does on R390, the machine is doctor's case of cards NVML names but CUDA
 * cannot start on (sim_doctor_old_cards), and is kept. */
static void refuse_impossible_machine(const char *env) {
    const struct gbsim_device *old = &devices[0];
    char have[16], need[16];
    for (int i = 1; i < ndevices; i++)
        if (devices[i].p->driver_cuda < old->p->driver_cuda)
            old = &devices[i];
    for (int i = 0; i < ndevices; i++) {
        const struct cuda_arch_fact *f = cuda_facts_arch(devices[i].sm);
        if (!f || f->first_cuda <= driver_version)
            continue;
        fprintf(stderr,
                "gbsim: GPUBENCH_SIM=%s: one machine has one driver, here the %s's last (%s, "
                "CUDA %s), and the %s needs one of CUDA %s or newer: no real machine holds both "
                "cards; simulate each in a run of its own (gpubench merge joins the runs)\n",
                env, old->p->key, old->p->driver,
                cuda_facts_ver_str(driver_version, have, sizeof have), devices[i].p->key,
                cuda_facts_ver_str(f->first_cuda, need, sizeof need));
        exit(2);
    }
}

/* GPUBENCH_SIM_GONE=FILE (stage.c): an earlier process's staged trap or hang left the cards
 * lost, as a card that fell off the bus after a fault (Xid 79) is until the machine is reset.
 * The runtime then reports cudaErrorNoDevice, as it does when the driver enumerates no usable
 * device: the kernel module does not bring up a lost GPU again, so a new process's cuInit finds
 * none to offer (cudaErrorDevicesUnavailable would say the cards are there but busy or in a
 * forbidding compute mode, which a lost card is not). NVML still counts the cards and answers
 * their handles with NVML_ERROR_GPU_IS_LOST (nvml.c), which is how nvidia-smi tells a lost GPU
 * from an absent one. Every simulated card of the machine is lost: the simulation does not
 * renumber a machine that lost only some of them. */
static int lost;

static void find_lost_cards(void) {
    const char *path = getenv("GPUBENCH_SIM_GONE");
    if (!path || !path[0] || access(path, F_OK) != 0)
        return;
    lost = 1;
    init_error = cudaErrorNoDevice;
    fprintf(stderr,
            "gbsim: GPUBENCH_SIM_GONE=%s exists: the simulated cards fell off the bus after a "
            "fault in an earlier process; no CUDA device (remove the file to bring them back)\n",
            path);
}

static void parse_env(void) {
    const char *env = getenv("GPUBENCH_SIM");
    char buf[512], *save = NULL, *item;
    int any_old_build = 0;
    ndevices = 0;
    if (!env || !env[0]) { /* nothing simulated: as on a machine without a driver */
        init_error = cudaErrorInsufficientDriver;
        return;
    }
    if (strlen(env) >= sizeof buf)
        die_usage(env, "too long");
    strcpy(buf, env);
    driver_version = 0;
    runtime_version = CUDART_VERSION;
    for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *mods = strchr(item, ':');
        struct gbsim_device *d;
        if (ndevices == GBSIM_MAX_DEVICES)
            die_usage(env, "too many devices");
        if (mods)
            *mods++ = '\0';
        d = &devices[ndevices];
        memset(d, 0, sizeof *d);
        d->p = gbsim_profile_find(item);
        if (!d->p)
            die_usage(env, "unknown profile");
        while (mods && *mods) {
            char *next = strchr(mods, ':');
            if (next)
                *next++ = '\0';
            if (strcmp(mods, "built-for-card") == 0)
                d->built_for_card = 1;
            else if (strcmp(mods, "exclusive-process") == 0)
                d->exclusive = 1;
            else
                die_usage(env, "unknown modifier (known: built-for-card, exclusive-process)");
            mods = next;
        }
        d->ordinal = ndevices;
        d->sm = 10 * d->p->major + d->p->minor;
        d->reserved = reservation(d->p->mem_bytes);
        d->sticky = cudaSuccess;
        /* one machine, one driver: the newest that supports every card */
        if (driver_version == 0 || d->p->driver_cuda < driver_version)
            driver_version = d->p->driver_cuda;
        /* built-for-card: the binary is as an old toolkit would build it, runtime included */
        if (d->built_for_card && d->p->toolkit_cuda &&
            (!any_old_build || d->p->toolkit_cuda < runtime_version)) {
            runtime_version = d->p->toolkit_cuda;
            any_old_build = 1;
        }
        ndevices++;
    }
    if (ndevices == 0)
        die_usage(env, "no profile");
    if (!driver_runs(driver_version, runtime_version))
        init_error = cudaErrorInsufficientDriver; /* as the real runtime: NVML still names all */
    else
        refuse_impossible_machine(env); /* else the runtime would run a card that driver cannot */
    find_lost_cards();
}

cudaError_t gbsim_context(struct gbsim_device *d) {
    char path[512];
    const char *tmp = getenv("TMPDIR");
    cudaError_t err = cudaSuccess;
    int fd;
    if (!d->exclusive) {
        __atomic_store_n(&d->has_context, 1, __ATOMIC_RELEASE); /* NVML lists this process */
        return cudaSuccess;
    }
    gbsim_lock();
    if (d->ctx_fd) {
        gbsim_unlock();
        return cudaSuccess;
    }
    snprintf(path, sizeof path, "%s/gbsim-%u-%s-%d.lock", tmp && tmp[0] ? tmp : "/tmp",
             (unsigned)getuid(), d->p->key, d->ordinal);
    /* close-on-exec: a child process must not inherit (and so share) the parent's lock */
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "gbsim: cuda:%d: cannot open %s: %s\n", d->ordinal, path, strerror(errno));
        err = cudaErrorDevicesUnavailable;
    } else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd); /* another live process holds the device's context */
        err = cudaErrorDevicesUnavailable;
    } else {
        d->ctx_fd = fd + 1; /* held until the process ends */
        __atomic_store_n(&d->has_context, 1, __ATOMIC_RELEASE);
    }
    gbsim_unlock();
    return err;
}

int gbsim_device_count(void) {
    pthread_once(&parse_once, parse_env);
    return ndevices;
}

cudaError_t gbsim_init_error(void) {
    pthread_once(&parse_once, parse_env);
    return init_error;
}

int gbsim_gone(void) {
    pthread_once(&parse_once, parse_env);
    return lost;
}

int gbsim_driver_version(void) {
    pthread_once(&parse_once, parse_env);
    return driver_version;
}

int gbsim_runtime_version(void) {
    pthread_once(&parse_once, parse_env);
    return ndevices ? runtime_version : CUDART_VERSION;
}

struct gbsim_device *gbsim_device(int ordinal) {
    pthread_once(&parse_once, parse_env);
    return ordinal >= 0 && ordinal < ndevices ? &devices[ordinal] : NULL;
}

static __thread int current_ordinal;

struct gbsim_device *gbsim_current(void) {
    return gbsim_device(current_ordinal);
}

void gbsim_set_current(int ordinal) {
    current_ordinal = ordinal;
}

int gbsim_device_below(const struct gbsim_device *d, int min_sm) {
    return !d->built_for_card && d->sm < min_sm;
}

/* --- errors ----------------------------------------------------------------------------------- */
static __thread cudaError_t last_error = cudaSuccess;

cudaError_t gbsim_record(cudaError_t err) {
    if (err != cudaSuccess)
        last_error = err;
    return err;
}

cudaError_t gbsim_take_last(int reset) {
    struct gbsim_device *d = gbsim_current();
    cudaError_t e;
    if (d) {
        gbsim_lock();
        e = d->sticky;
        gbsim_unlock();
        if (e != cudaSuccess)
            return e; /* a broken context cannot be cleared */
    }
    e = last_error;
    if (reset)
        last_error = cudaSuccess;
    return e;
}

/* The errors the CUDA Runtime API reference documents as leaving the process "in an
 * inconsistent state" in which "any further CUDA work will return the same error" (cudaError
 * enum documentation), plus an uncorrectable ECC error. */
int gbsim_is_sticky(cudaError_t err) {
    switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable: return 1;
    default: return 0;
    }
}

cudaError_t gbsim_break(struct gbsim_device *d, cudaError_t err) {
    cudaError_t now;
    int first = 0;
    gbsim_lock();
    if (d->sticky == cudaSuccess) {
        d->sticky = err;
        first = 1;
    }
    now = d->sticky;
    gbsim_unlock();
    if (first)
        fprintf(stderr,
                "gbsim: cuda:%d (simulated %s): %s: the context is broken, every later "
                "call on this device returns it\n",
                d->ordinal, d->p->name, gbsim_cuda_error_name(err));
    return now;
}

/* --- memory --------------------------------------------------------------------------------- */
struct allocation {
    char *base;
    size_t size, charged;
    enum gbsim_mem_kind kind;
    int dev;
};

static struct allocation *allocs;
static size_t nallocs, cap_allocs;

/* cudaMalloc's alignment (256 bytes, CUDA C++ Programming Guide, "Device Memory Accesses") and
 * the granularity the budget is charged in. */
enum { ALIGN = 256, GRAIN = 512 };
/* New memory reads as NaN, like the runner's poisoned outputs, so that a kernel reading what
 * nobody wrote fails verification; beyond this size it is left untouched (and unbacked until
 * used), so a big card costs no host memory it is not asked for. */
#define POISON_MAX ((size_t)64 << 20)

int gbsim_charge(struct gbsim_device *d, size_t bytes) {
    int ok;
    gbsim_lock();
    ok = bytes <= d->p->mem_bytes - d->reserved - d->used;
    if (ok)
        d->used += bytes;
    gbsim_unlock();
    return ok;
}

void gbsim_release(struct gbsim_device *d, size_t bytes) {
    gbsim_lock();
    d->used -= bytes < d->used ? bytes : d->used;
    gbsim_unlock();
}

cudaError_t gbsim_alloc(struct gbsim_device *d, enum gbsim_mem_kind kind, size_t bytes,
                        void **out) {
    size_t charged = 0, rounded;
    char *p;
    *out = NULL;
    if (bytes == 0)
        return cudaSuccess;
    if (bytes > ((size_t)1 << 46))
        return cudaErrorMemoryAllocation;
    rounded = (bytes + ALIGN - 1) / ALIGN * ALIGN;
    if (kind == GBSIM_MEM_DEVICE) {
        charged = (bytes + GRAIN - 1) / GRAIN * GRAIN;
        if (!gbsim_charge(d, charged))
            return cudaErrorMemoryAllocation;
    }
    p = aligned_alloc(ALIGN, rounded);
    if (!p) {
        fprintf(stderr, "gbsim: the host could not back a %zu-byte allocation\n", bytes);
        if (charged)
            gbsim_release(d, charged);
        return cudaErrorMemoryAllocation;
    }
    if (rounded <= POISON_MAX)
        memset(p, 0xff, rounded);
    gbsim_lock();
    if (nallocs == cap_allocs) {
        size_t cap = cap_allocs ? 2 * cap_allocs : 64;
        struct allocation *a = realloc(allocs, cap * sizeof *a);
        if (!a) {
            gbsim_unlock();
            free(p);
            if (charged)
                gbsim_release(d, charged);
            return cudaErrorMemoryAllocation;
        }
        allocs = a;
        cap_allocs = cap;
    }
    allocs[nallocs++] = (struct allocation){p, bytes, charged, kind, d ? d->ordinal : -1};
    gbsim_unlock();
    *out = p;
    return cudaSuccess;
}

cudaError_t gbsim_free(enum gbsim_mem_kind kind, void *p) {
    size_t i;
    struct allocation a;
    if (!p)
        return cudaSuccess;
    gbsim_lock();
    for (i = 0; i < nallocs; i++)
        if (allocs[i].base == p && allocs[i].kind == kind)
            break;
    if (i == nallocs) {
        gbsim_unlock();
        return cudaErrorInvalidValue;
    }
    a = allocs[i];
    allocs[i] = allocs[--nallocs];
    if (a.charged)
        devices[a.dev].used -= a.charged;
    gbsim_unlock();
    free(a.base);
    return cudaSuccess;
}

enum gbsim_mem_kind gbsim_lookup(const void *p, int *dev, size_t *avail) {
    const char *c = p;
    enum gbsim_mem_kind k = GBSIM_MEM_NONE;
    gbsim_lock();
    for (size_t i = 0; i < nallocs; i++)
        if (c >= allocs[i].base && c < allocs[i].base + allocs[i].size) {
            k = allocs[i].kind;
            if (dev)
                *dev = allocs[i].dev;
            if (avail)
                *avail = (size_t)(allocs[i].base + allocs[i].size - c);
            break;
        }
    gbsim_unlock();
    return k;
}

int gbsim_device_range(const void *p, size_t bytes, int dev) {
    int d = -1;
    size_t avail = 0;
    if (!p)
        return 0;
    if (gbsim_lookup(p, &d, &avail) != GBSIM_MEM_DEVICE)
        return 0;
    return bytes <= avail && (dev < 0 || d == dev);
}

/* --- the libraries' objects ------------------------------------------------------------------ */
static void **kept;
static size_t nkept, cap_kept;

int gbsim_keep(void *obj) {
    int ok = 1;
    gbsim_lock();
    if (nkept == cap_kept) {
        size_t cap = cap_kept ? 2 * cap_kept : 64;
        void **k = realloc(kept, cap * sizeof *k);
        if (k) {
            kept = k;
            cap_kept = cap;
        } else {
            ok = 0;
        }
    }
    if (ok)
        kept[nkept++] = obj;
    gbsim_unlock();
    return ok;
}

void gbsim_drop(void *obj) {
    gbsim_lock();
    for (size_t i = 0; i < nkept; i++)
        if (kept[i] == obj) {
            kept[i] = kept[--nkept];
            break;
        }
    gbsim_unlock();
}

/* --- what is still alive at exit ------------------------------------------------------------ */
void gbsim_report_live(FILE *f) {
    gbsim_lock();
    for (int i = 0; i < ndevices; i++) {
        size_t ndev = 0, bytes = 0, npinned = 0;
        for (size_t a = 0; a < nallocs; a++) {
            if (allocs[a].dev != i)
                continue;
            if (allocs[a].kind == GBSIM_MEM_DEVICE) {
                ndev++;
                bytes += allocs[a].size;
            } else {
                npinned++;
            }
        }
        fprintf(f, "live %d device %zu %zu pinned %zu sticky %s\n", i, ndev, bytes, npinned,
                devices[i].sticky == cudaSuccess ? "-" : gbsim_cuda_error_name(devices[i].sticky));
    }
    fprintf(f, "live-objects %zu\n", nkept);
    gbsim_unlock();
}
