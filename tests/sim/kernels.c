/* kernels.c — the device code of the binary: its fat binaries as nvcc's registration calls hand
 * them over (which SASS and PTX architectures it really carries), its kernels by name, the
 * "is there code for this card" decision, and launches run on the CPU emulation of the kernels.
 * Test-only code.
 *
 * The emulation is built once per architecture group the kernel sources branch on (the
 * GB_ARCH thresholds; CMake finds them), each as a module libgbsim_kernels_sm<ARCH>.so next to
 * this library, loaded privately (RTLD_LOCAL) on first use. A launch runs the module whose
 * group matches the code the card would run: the SASS architecture it picks, or the PTX it
 * would JIT (cudaFuncGetAttributes' ptxVersion), so that a K40m running sm_35 code takes the
 * kernels' sm_35 paths.
 *
 * The JIT cache: the first launch of a kernel whose code for the card is PTX (a module without
 * SASS for it, or CUDA_FORCE_PTX_JIT=1) loads its fat binary as the driver does under lazy
 * loading, JIT-compiling it, once per process and device; what the JIT cache did goes to the
 * events file (gbsim_event, "jit RESULT compute_P sm_S"):
 *   forced   CUDA_FORCE_PTX_JIT=1: compiled, and the cache neither read nor written (the real
 *            driver ignores its cache then: an H200 took 15.3 ms three times in a row)
 *   off      CUDA_CACHE_DISABLE=1: compiled, no cache
 *   hit      the cache held this fat binary's code for this card: loaded, not compiled
 *   miss     compiled, and written to the cache (a file gbsim-jit-HASH-compute_P-sm_S in
 *            CUDA_CACHE_PATH, or without it $TMPDIR/gbsim-UID-ComputeCache standing for
 *            ~/.nv/ComputeCache)
 *   unstored compiled, not cached (larger than CUDA_CACHE_MAXSIZE, or the file not written)
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gbsim_config.h" /* GBSIM_ARCH_GROUPS, generated */
#include "kernels/common/cuda_impl.h" /* GB_ARCH_FEAT_SHARED_BYTES */
#include "tests/sim/sim.h"
#include "tests/sim/sim_kernel.h"

/* --- fat binaries -------------------------------------------------------------------------------
 * The wrapper nvcc registers (fatbinary_section.h: __fatBinC_Wrapper_t, magic 0x466243B1) points
 * at a fat binary: a 16-byte header (magic 0xBA55ED50, version, header size, size of the
 * entries) followed by entries, each a header (kind 1 = PTX, 2 = ELF/SASS, its own size, the
 * payload size, the architecture at byte 28, flags at byte 40: 0x00100000 marks arch-specific
 * code, sm_90a's for 90) and its payload. The layout is NVIDIA's, not
 * documented; it is what cuobjdump reads (and the test sim_fatbin checks our reading against
 * cuobjdump's). */
enum { FATBINC_MAGIC = 0x466243B1, FATBIN_MAGIC = 0xBA55ED50, MAX_CODES = 32 };
#define FATBIN_ARCH_SPECIFIC 0x00100000u

struct fatbin {
    int sass[MAX_CODES], nsass;
    int sass_a[MAX_CODES]; /* 1: that SASS is arch-specific (sm_90a: "90a-real") */
    int ptx[MAX_CODES], nptx;
    uint64_t ptx_bytes[MAX_CODES]; /* each PTX entry's payload size */
    uint64_t hash;                 /* of the whole fat binary: the JIT cache's key */
    uint64_t loaded;               /* the devices (bit = ordinal) it was JIT-loaded on */
    int parsed; /* 0: not a fat binary we could read (every card then gets "no image") */
    struct fatbin *next;
};

struct func {
    const void *host; /* the host stub's address: what <<<>>> and cudaFuncGetAttributes pass */
    char name[128];   /* demangled kernel name */
    size_t max_dyn;   /* cudaFuncAttributeMaxDynamicSharedMemorySize set (0: 48 KiB) */
    struct fatbin *fb;
    struct func *next;
};

static struct fatbin *fatbins;
static struct func *funcs;

static uint32_t rd32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t rd64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void parse_fatbin(struct fatbin *fb, const void *wrapper) {
    const unsigned char *w = wrapper, *data, *e, *end;
    if (!w || rd32(w) != FATBINC_MAGIC)
        return;
    memcpy(&data, w + 8, sizeof data);
    if (!data || rd32(data) != FATBIN_MAGIC)
        return;
    e = data + (data[6] | data[7] << 8); /* header size, 16 */
    end = e + rd64(data + 8);
    fb->hash = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *p = data; p < end; p++)
        fb->hash = (fb->hash ^ *p) * 1099511628211ULL;
    while (e + 32 <= end) {
        unsigned kind = e[0] | e[1] << 8;
        uint32_t hsize = rd32(e + 4), arch = rd32(e + 28);
        uint64_t psize = rd64(e + 8);
        if (hsize < 32 || (uint64_t)(end - e) < hsize + psize)
            break;
        if (kind == 1 && fb->nptx < MAX_CODES) {
            fb->ptx_bytes[fb->nptx] = psize;
            fb->ptx[fb->nptx++] = (int)arch;
        } else if (kind == 2 && fb->nsass < MAX_CODES) {
            fb->sass_a[fb->nsass] = (rd32(e + 40) & FATBIN_ARCH_SPECIFIC) != 0;
            fb->sass[fb->nsass++] = (int)arch;
        }
        e += hsize + psize;
    }
    fb->parsed = 1;
    if (getenv("GBSIM_DEBUG")) {
        fprintf(stderr, "gbsim: fat binary:");
        for (int i = 0; i < fb->nsass; i++)
            fprintf(stderr, " sm_%d%s", fb->sass[i], fb->sass_a[i] ? "a" : "");
        for (int i = 0; i < fb->nptx; i++)
            fprintf(stderr, " compute_%d", fb->ptx[i]);
        fputc('\n', stderr);
    }
}

GBSIM_API void **__cudaRegisterFatBinary(void *fatCubin) {
    struct fatbin *fb = calloc(1, sizeof *fb);
    if (!fb) {
        fprintf(stderr, "gbsim: out of memory registering a fat binary\n");
        abort();
    }
    parse_fatbin(fb, fatCubin);
    gbsim_lock();
    fb->next = fatbins;
    fatbins = fb;
    gbsim_unlock();
    return (void **)fb;
}

GBSIM_API void __cudaRegisterFatBinaryEnd(void **handle) {
    (void)handle;
}

GBSIM_API void __cudaUnregisterFatBinary(void **handle) {
    struct fatbin *fb = (struct fatbin *)handle, **p;
    struct func **q;
    gbsim_lock();
    for (q = &funcs; *q;)
        if ((*q)->fb == fb) {
            struct func *dead = *q;
            *q = dead->next;
            free(dead);
        } else {
            q = &(*q)->next;
        }
    for (p = &fatbins; *p; p = &(*p)->next)
        if (*p == fb) {
            *p = fb->next;
            free(fb);
            break;
        }
    gbsim_unlock();
}

/* "_Z16gb_vecadd_kernelPKfS0_Pfm" → "gb_vecadd_kernel"; an unmangled name as it is. */
static void demangle(const char *mangled, char *out, size_t outlen) {
    const char *s = mangled;
    long len;
    char *end;
    if (strncmp(s, "_Z", 2) == 0) {
        len = strtol(s + 2, &end, 10);
        if (end != s + 2 && len > 0 && (size_t)len < outlen && strlen(end) >= (size_t)len) {
            memcpy(out, end, (size_t)len);
            out[len] = '\0';
            return;
        }
    }
    snprintf(out, outlen, "%s", mangled);
}

GBSIM_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid,
                                      uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize) {
    struct func *f = calloc(1, sizeof *f);
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    if (!f) {
        fprintf(stderr, "gbsim: out of memory registering %s\n", deviceName);
        abort();
    }
    f->host = hostFun;
    f->fb = (struct fatbin *)handle;
    demangle(deviceName, f->name, sizeof f->name);
    gbsim_lock();
    f->next = funcs;
    funcs = f;
    gbsim_unlock();
}

static struct func *func_of(const void *host) {
    struct func *f;
    gbsim_lock();
    for (f = funcs; f; f = f->next)
        if (f->host == host)
            break;
    gbsim_unlock();
    return f;
}

/* The code d would run for a kernel of fb: SASS of the same major and a minor not above the
 * card's (binary compatibility), else PTX of an architecture not above the card's (JIT); with
 * built-for-card, SASS for the card itself (Fermi 2.1 as CMake builds it, sm_20) unless fb has
 * no SASS at all (a PTX-only module is PTX-only in an old toolkit's build too). Returns 0 when
 * there is none; *binary and *ptx as cudaFuncGetAttributes reports them (10·major + minor),
 * *jit 1 when the driver would JIT-compile the PTX. */
static int code_for(const struct fatbin *fb, const struct gbsim_device *d, int *binary, int *ptx,
                    int *jit) {
    int best = -1;
    int pretend = d->built_for_card && fb->nsass > 0;
    *jit = 0;
    /* CUDA_FORCE_PTX_JIT=1: the driver ignores every SASS image and JIT-compiles PTX, and a
     * kernel without PTX the card can JIT does not load. A built-for-card binary stands for an
     * old toolkit's default build, whose only PTX is its newest architecture's: none for the
     * card. */
    const char *force = getenv("CUDA_FORCE_PTX_JIT");
    if (force && strcmp(force, "1") == 0) {
        for (int i = 0; !pretend && i < fb->nptx; i++)
            if (fb->ptx[i] <= d->sm && fb->ptx[i] > best)
                best = fb->ptx[i];
        if (best <= 0)
            return 0;
        *binary = d->sm;
        *ptx = best;
        *jit = 1;
        return 1;
    }
    if (pretend) {
        *binary = *ptx = d->sm == 21 ? 20 : d->sm;
        return 1;
    }
    for (int i = 0; i < fb->nsass; i++) /* arch-specific SASS runs on its own minor alone */
        if (fb->sass[i] / 10 == d->sm / 10 && fb->sass[i] <= d->sm && fb->sass[i] > best &&
            (!fb->sass_a[i] || fb->sass[i] == d->sm))
            best = fb->sass[i];
    if (best > 0) {
        *binary = *ptx = best;
        return 1;
    }
    for (int i = 0; i < fb->nptx; i++)
        if (fb->ptx[i] <= d->sm && fb->ptx[i] > best)
            best = fb->ptx[i];
    if (best > 0) {
        *binary = d->sm;
        *ptx = best;
        *jit = 1;
        return 1;
    }
    return 0;
}

/* --- the JIT cache (the file's header comment) ---------------------------------------------- */
static uint64_t ptx_size(const struct fatbin *fb, int ptx) {
    for (int i = 0; i < fb->nptx; i++)
        if (fb->ptx[i] == ptx)
            return fb->ptx_bytes[i];
    return 0;
}

/* What the JIT cache does when fb's PTX `ptx` is loaded on d: the result word of the event. */
static const char *jit_cache(const struct fatbin *fb, const struct gbsim_device *d, int ptx) {
    const char *force = getenv("CUDA_FORCE_PTX_JIT"), *off = getenv("CUDA_CACHE_DISABLE");
    const char *path = getenv("CUDA_CACHE_PATH"), *max = getenv("CUDA_CACHE_MAXSIZE");
    char dir[512], file[640];
    if (force && strcmp(force, "1") == 0)
        return "forced";
    if (off && strcmp(off, "1") == 0)
        return "off";
    if (path && path[0])
        snprintf(dir, sizeof dir, "%s", path);
    else
        snprintf(dir, sizeof dir, "%s/gbsim-%u-ComputeCache",
                 getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp",
                 (unsigned)getuid());
    snprintf(file, sizeof file, "%s/gbsim-jit-%016llx-compute_%d-sm_%d", dir,
             (unsigned long long)fb->hash, ptx, d->sm);
    if (access(file, F_OK) == 0)
        return "hit";
    if (max && max[0] && strtoull(max, NULL, 10) < ptx_size(fb, ptx))
        return "unstored";
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return "unstored";
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno == EEXIST ? "hit" : "unstored";
    int ok = write(fd, "gbsim JIT cache entry\n", 22) == 22;
    close(fd);
    return ok ? "miss" : "unstored";
}

/* The first use of fb's JIT-compiled code on d in this process: the module's load. */
static void jit_load(struct fatbin *fb, const struct gbsim_device *d, int ptx) {
    uint64_t bit = 1ULL << (d->ordinal & 63);
    gbsim_lock();
    int first = !(fb->loaded & bit);
    fb->loaded |= bit;
    gbsim_unlock();
    if (first)
        gbsim_event("jit %s compute_%d sm_%d", jit_cache(fb, d, ptx), ptx, d->sm);
}

/* --- emulation modules --------------------------------------------------------------------- */
struct edim3 {
    unsigned x, y, z;
};
typedef const struct gbsim_kernel_entry *const *(*kernels_fn)(size_t *n);
typedef int (*launch_fn)(struct edim3 grid, struct edim3 block, size_t shmem, int order,
                         uint64_t seed, long clock_khz, void (*body)(void *), void *args);
typedef int (*failure_fn)(void);

static const int groups[] = {GBSIM_ARCH_GROUPS};
enum { NGROUPS = sizeof groups / sizeof groups[0] };

struct module {
    int tried;
    void *dl;
    const struct gbsim_kernel_entry *const *k;
    size_t nk;
    launch_fn launch;
    failure_fn failure;
};

static struct module modules[NGROUPS];
/* emu_lock: the emulation is one machine, one launch runs at a time. module_lock: loading and
 * looking up modules, apart, because a running kernel may wait for the host (the stream hold
 * spins until the host releases it) and the host must still be able to queue launches. */
static pthread_mutex_t emu_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t module_lock = PTHREAD_MUTEX_INITIALIZER;

/* The module of group g, loaded from this library's folder; NULL (after a message) when it
 * cannot be. Under module_lock. */
static struct module *module_get(int g) {
    struct module *m = &modules[g];
    if (!m->tried) {
        Dl_info self;
        char path[4096];
        const char *slash;
        kernels_fn list;
        m->tried = 1;
        if (!dladdr((void *)module_get, &self) || !self.dli_fname ||
            !(slash = strrchr(self.dli_fname, '/'))) {
            fprintf(stderr, "gbsim: cannot find the folder of the simulated runtime\n");
            return NULL;
        }
        snprintf(path, sizeof path, "%.*s/libgbsim_kernels_sm%d.so", (int)(slash - self.dli_fname),
                 self.dli_fname, groups[g]);
        m->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!m->dl) {
            fprintf(stderr, "gbsim: %s\n", dlerror());
            return NULL;
        }
        list = (kernels_fn)dlsym(m->dl, "gbsim_module_kernels");
        m->launch = (launch_fn)dlsym(m->dl, "gbsim_module_launch");
        m->failure = (failure_fn)dlsym(m->dl, "gbsim_module_failure");
        if (!list || !m->launch || !m->failure) {
            fprintf(stderr, "gbsim: %s is not a kernel module\n", path);
            dlclose(m->dl);
            m->dl = NULL;
            return NULL;
        }
        m->k = list(&m->nk);
    }
    return m->dl ? m : NULL;
}

__attribute__((destructor)) static void close_modules(void) {
    for (int g = 0; g < NGROUPS; g++)
        if (modules[g].dl)
            dlclose(modules[g].dl);
}

/* The group for code of architecture `ptx` (10·major + minor): the newest group not above it. */
static int group_of(int ptx) {
    int g = 0;
    for (int i = 0; i < NGROUPS; i++)
        if (groups[i] <= ptx * 10)
            g = i;
    return g;
}

/* --- the runtime's kernel functions -------------------------------------------------------- */
/* The kernel at host and the code d runs for it (code_for), or the runtime's error. */
static cudaError_t func_code(const void *host, const struct gbsim_device *d, struct func **f,
                             int *binary, int *ptx, int *jit) {
    if (!(*f = func_of(host)))
        return cudaErrorInvalidDeviceFunction;
    return code_for((*f)->fb, d, binary, ptx, jit) ? cudaSuccess
                                                   : cudaErrorNoKernelImageForDevice;
}

/* The registers a thread of kernel `name` starts with, as cudaFuncGetAttributes' numRegs:
 * GPUBENCH_SIM_NUM_REGS=NAME=N[,…] where it names the kernel (a test of a host's register check,
 * e.g. kernels/gemm/cuda_tc.c's fallback from the persistent wgmma kernel); else what CUDA 13's
 * ptxas gives the kernels whose host reads the figure (the persistent wgmma kernels: the 168 a
 * thread their setmaxnreg moves assume, kernels/gemm/wgmma_persist.cuh's GB_WP_REGS_ENTRY;
 * sim_wgmma_persist_regs fails where the two part); else a typical 32, not known without the
 * SASS. A malformed value ends the process with a message (exit 2). */
static int func_num_regs(const char *name) {
    static const struct {
        const char *name;
        int regs;
    } known[] = {{"gb_hgemm_wgmma_persist_128x256", 168},
                 {"gb_bgemm_wgmma_persist_128x256", 168},
                 {"gb_tgemm_wgmma_persist_128x256", 168}};
    const char *env = getenv("GPUBENCH_SIM_NUM_REGS"), *p = env;
    const size_t len = strlen(name);
    while (p && *p) {
        const char *eq = strchr(p, '='), *comma = strchr(p, ',');
        char *end;
        long n;
        if (!eq || (comma && comma < eq)) {
            fprintf(stderr, "gbsim: GPUBENCH_SIM_NUM_REGS='%s': want NAME=N[,NAME=N]\n", env);
            exit(2);
        }
        n = strtol(eq + 1, &end, 10);
        if (end == eq + 1 || (*end && *end != ',') || n < 1 || n > 255) {
            fprintf(stderr, "gbsim: GPUBENCH_SIM_NUM_REGS='%s': N must be a whole number 1-255\n",
                    env);
            exit(2);
        }
        if ((size_t)(eq - p) == len && strncmp(p, name, len) == 0)
            return (int)n;
        p = *end ? end + 1 : end;
    }
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].name, name) == 0)
            return known[i].regs;
    return 32;
}

cudaError_t gbsim_func_attributes(const void *host, const struct gbsim_device *d,
                                  struct cudaFuncAttributes *attr) {
    struct func *f;
    int binary, ptx, jit;
    cudaError_t err = func_code(host, d, &f, &binary, &ptx, &jit);
    if (err != cudaSuccess)
        return err;
    if (jit) /* the attributes of a kernel need its module loaded */
        jit_load(f->fb, d, ptx);
    memset(attr, 0, sizeof *attr);
    attr->binaryVersion = binary;
    attr->ptxVersion = ptx;
    attr->maxThreadsPerBlock = 1024;
    attr->numRegs = func_num_regs(f->name);
    attr->maxDynamicSharedSizeBytes = f->max_dyn > 48 * 1024 ? (int)f->max_dyn : 48 * 1024;
    /* arch-specific SASS (sm_90a, 9.0 only): the probe kernel's code there alone has static
     * shared memory, which is how gpubench tells it from sm_90 code (kernels/common/arch.cu);
     * a built-for-card binary stands for a plain build of the card's own architecture */
    if (!jit && !d->built_for_card && strcmp(f->name, "gb_arch_probe_kernel") == 0)
        for (int i = 0; i < f->fb->nsass; i++)
            if (f->fb->sass[i] == binary && f->fb->sass_a[i])
                attr->sharedSizeBytes = GB_ARCH_FEAT_SHARED_BYTES;
    return cudaSuccess;
}

size_t gbsim_shared_optin(const struct gbsim_profile *p) {
    /* the Programming Guide's "maximum shared memory per thread block" with opt-in: 48 KiB before
     * 7.0, all of an SM's on 7.x, all but 1 KiB (reserved by the system) from 8.0 */
    int sm = p->major * 10 + p->minor;
    return sm >= 80   ? (size_t)p->shared_per_sm - 1024
           : sm >= 70 ? (size_t)p->shared_per_sm
                      : 48 * 1024;
}

cudaError_t gbsim_func_set_attribute(const void *host, const struct gbsim_device *d, int attr,
                                     int value) {
    struct func *f;
    int binary, ptx, jit;
    cudaError_t err = func_code(host, d, &f, &binary, &ptx, &jit);
    if (err != cudaSuccess)
        return err;
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > gbsim_shared_optin(d->p))
            return cudaErrorInvalidValue;
        gbsim_lock();
        f->max_dyn = (size_t)value;
        gbsim_unlock();
        return cudaSuccess;
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return value < -1 || value > 100 ? cudaErrorInvalidValue : cudaSuccess;
    return cudaErrorInvalidValue; /* not one gpubench sets: the simulation does not model it */
}

struct launch {
    struct gbsim_op op;
    int hold; /* a GBSIM_HOLD_KERNEL launch: counted in `holding` until it ends */
    const struct gbsim_kernel_entry *k;
    struct module *m;
    struct edim3 grid, block;
    size_t shmem;
    uint64_t seed;
    void *argv[12];
    _Alignas(16) unsigned char store[];
};

static int holding;

int gbsim_holding(void) {
    return __atomic_load_n(&holding, __ATOMIC_SEQ_CST);
}

static cudaError_t run_launch(struct gbsim_op *op, int broken) {
    struct launch *l = (struct launch *)op;
    int rc, why;
    if (broken) {
        if (l->hold)
            __atomic_sub_fetch(&holding, 1, __ATOMIC_SEQ_CST);
        return cudaSuccess;
    }
    pthread_mutex_lock(&emu_lock);
    rc = l->m->launch(l->grid, l->block, l->shmem, 2 /* shuffled */, l->seed, op->dev->p->clock_khz,
                      l->k->body, l->argv);
    why = l->m->failure();
    pthread_mutex_unlock(&emu_lock);
    if (l->hold)
        __atomic_sub_fetch(&holding, 1, __ATOMIC_SEQ_CST);
    if (rc == 0)
        return cudaSuccess;
    fprintf(stderr,
            "gbsim: cuda:%d: kernel %s, grid (%u,%u,%u) block (%u,%u,%u), failed on the "
            "emulation (%s)\n",
            op->dev->ordinal, l->k->name, l->grid.x, l->grid.y, l->grid.z, l->block.x, l->block.y,
            l->block.z,
            why == 4   ? "__trap()"
            : why == 3 ? "barrier"
                       : "launch");
    /* __trap() is "an illegal instruction" from Volta on, "unspecified launch failure" before */
    if (why == 4 && op->dev->sm >= 70)
        return cudaErrorIllegalInstruction;
    return cudaErrorLaunchFailure;
}

static uint64_t launches;

cudaError_t gbsim_launch(const void *host, dim3 grid, dim3 block, void **args, size_t shmem,
                         cudaStream_t stream) {
    struct gbsim_device *d = gbsim_current();
    struct func *f = func_of(host);
    struct gbsim_stream *st;
    const struct gbsim_kernel_entry *k = NULL;
    struct module *m;
    struct launch *l;
    cudaError_t err;
    size_t off = 0, need;
    int binary, ptx, jit, g;
    const unsigned long long max_x = d->sm >= 30 ? 2147483647ULL : 65535ULL;
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    if (!code_for(f->fb, d, &binary, &ptx, &jit))
        return cudaErrorNoKernelImageForDevice;
    if (jit)
        jit_load(f->fb, d, ptx);
    /* the limits of every profile (profiles.c) */
    if (block.x < 1 || block.y < 1 || block.z < 1 || block.x > 1024 || block.y > 1024 ||
        block.z > 64 || (unsigned long long)block.x * block.y * block.z > 1024 || grid.x < 1 ||
        grid.y < 1 || grid.z < 1 || grid.x > max_x || grid.y > 65535 || grid.z > 65535)
        return cudaErrorInvalidConfiguration;
    if (shmem > 48 * 1024 && shmem > f->max_dyn) /* above 48 KiB: opted in, up to the card's */
        return cudaErrorInvalidValue;
    st = gbsim_stream_of(stream, d, &err);
    if (!st)
        return err;
    if (gbsim_stream_device(st) != d)
        return cudaErrorInvalidResourceHandle;
    g = group_of(ptx);
    pthread_mutex_lock(&module_lock);
    m = module_get(g);
    for (size_t i = 0; m && i < m->nk; i++)
        if (strcmp(m->k[i]->name, f->name) == 0)
            k = m->k[i];
    pthread_mutex_unlock(&module_lock);
    gbsim_stage_crash(f->name); /* GPUBENCH_SIM_CRASH naming the kernel */
    if (!k) {
        fprintf(stderr,
                "gbsim: kernel %s has no emulation (a GB_SIM_KERNEL line after its definition "
                "in kernels/<workload>/kernels.cuh, module sm%d)\n",
                f->name, groups[g]);
        return cudaErrorInvalidDeviceFunction;
    }
    need = 0;
    for (int i = 0; i < k->nargs; i++)
        need = (need + k->aligns[i] - 1) / k->aligns[i] * k->aligns[i] + k->sizes[i];
    l = calloc(1, sizeof *l + need);
    if (!l)
        return cudaErrorMemoryAllocation;
    for (int i = 0; i < k->nargs; i++) { /* the stub's locals are gone when the stream runs it */
        off = (off + k->aligns[i] - 1) / k->aligns[i] * k->aligns[i];
        memcpy(l->store + off, args[i], k->sizes[i]);
        l->argv[i] = l->store + off;
        off += k->sizes[i];
    }
    l->op.run = run_launch;
    l->op.name = k->name; /* GPUBENCH_SIM_HANG / _TRAP match it (stage.c) */
    l->k = k;
    l->m = m;
    l->grid = (struct edim3){grid.x, grid.y, grid.z};
    l->block = (struct edim3){block.x, block.y, block.z};
    l->shmem = shmem;
    l->op.pace_key = gbsim_pace_key(
        k, (const long long[]){grid.x, grid.y, grid.z, block.x, block.y, block.z, (long long)shmem},
        7);
    l->hold = strcmp(k->name, GBSIM_HOLD_KERNEL) == 0;
    if (l->hold) {
        __atomic_add_fetch(&holding, 1, __ATOMIC_SEQ_CST);
        /* its first parameter: the release flag, host-mapped (the same address on the host) */
        if (k->nargs > 0 && k->sizes[0] == sizeof(void *))
            memcpy((void *)&l->op.hold_release, l->argv[0], sizeof(void *));
    }
    gbsim_lock();
    l->seed = ++launches;
    gbsim_unlock();
    gbsim_enqueue(st, &l->op, 0);
    return cudaSuccess;
}
