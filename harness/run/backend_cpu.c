/* backend_cpu.c — the CPU backend: one device, `cpu`, with pinned pool threads and OpenBLAS.
 *
 * Peak FP32 FLOP/s comes from properties: cores × SIMD lanes × 2 (FMA) × FMA units × clock.
 * The clock is the highest the kernel reports (cpufreq max, else /proc/cpuinfo "cpu MHz", the
 * nominal clock in most VMs), and FMA support is taken as two FMA units: machines that turbo
 * above that clock, or have one FMA unit, make peak_pct read high. `extra` (in every CPU row's
 * note) records the clock and units used.
 */
#include <cblas.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/run/backend.h"
#include "harness/run/topology.h"
#include "kernels/common/cpu_features.h"
#include "kernels/common/cpu_pool.h"


static void cpu_model(char *out, size_t len) {
    snprintf(out, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c += 2;
                c[strcspn(c, "\n")] = '\0';
                snprintf(out, len, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

/* Highest clock in MHz: cpufreq's max when present (VMs often lack it), else "cpu MHz". */
static double cpu_clock_mhz(void) {
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    double khz = 0;
    if (f) {
        if (fscanf(f, "%lf", &khz) != 1)
            khz = 0;
        fclose(f);
        if (khz > 0)
            return khz / 1000.0;
    }
    f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[512];
    double mhz = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "cpu MHz", 7) == 0 && strchr(line, ':') &&
            sscanf(strchr(line, ':') + 1, "%lf", &mhz) == 1)
            break;
    fclose(f);
    return mhz;
}

/* FP32 lanes of the widest vector unit and FMA units, from the compiler's CPU detection. */
static void cpu_simd(int *lanes, int *fma_units, const char **isa) {
    __builtin_cpu_init();
    *fma_units = __builtin_cpu_supports("fma") ? 2 : 1;
    if (GB_CPU_HAS_AVX512F()) {
        *lanes = 16;
        *isa = "AVX-512";
    } else if (__builtin_cpu_supports("avx")) {
        *lanes = 8;
        *isa = __builtin_cpu_supports("avx2") ? "AVX2" : "AVX";
    } else {
        *lanes = 4;
        *isa = "SSE";
    }
}

/* OpenBLAS's worker threads (all but the caller) pinned to cores 1, 2, … so they stay off the
 * caller's core 0, as our pool's threads do. Debian builds OpenBLAS with NO_AFFINITY, so nothing
 * pins them otherwise. Returns how many were pinned. */
static int pin_openblas_threads(int threads) {
    int ok = 0, cores = topology_cores();
    if (!topology_get())
        return 0; /* hwloc failed to load: nothing to pin with (main said so) */
    for (int i = 0; i + 1 < threads; i++) {
        hwloc_obj_t core =
            hwloc_get_obj_by_type(topology_get(), HWLOC_OBJ_CORE, (unsigned)((i + 1) % cores));
        if (!core)
            continue;
        cpu_set_t set;
        CPU_ZERO(&set);
        int pu = hwloc_bitmap_first(core->cpuset);
        if (pu < 0)
            continue;
        CPU_SET(pu, &set);
        if (openblas_setaffinity(i, sizeof set, &set) == 0)
            ok++;
    }
    return ok;
}

static int cpu_discover(struct device_list *list, int threads, char *why, size_t whylen) {
    if (list->n >= DEVICE_MAX) {
        snprintf(why, whylen, "device list full");
        return 0;
    }
    struct device *d = &list->d[list->n];
    memset(d, 0, sizeof *d);
    snprintf(d->id, sizeof d->id, "cpu");
    d->kind = DEV_CPU;
    d->be = &cpu_backend;
    cpu_model(d->name, sizeof d->name);
    d->threads = threads;
    /* Our pool and OpenBLAS use the same count; OpenBLAS keeps its own pthreads. */
    if (pool_start(threads, topology_bind_thread, NULL) != 0) {
        snprintf(why, whylen, "could not start %d CPU threads", threads);
        return 0;
    }
    openblas_set_num_threads(threads);
    int blas_pinned = pin_openblas_threads(openblas_get_num_threads());
    /* The config reads "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64". */
    snprintf(d->blas_lib, sizeof d->blas_lib, "%s core=%s threads=%d", openblas_get_config(),
             openblas_get_corename(), openblas_get_num_threads());
    int lanes, fma;
    const char *isa;
    cpu_simd(&lanes, &fma, &isa);
    double mhz = cpu_clock_mhz();
    int cores = topology_cores();
    int used = threads < cores ? threads : cores;
    d->peak_gflops = used * lanes * 2.0 * fma * mhz / 1000.0;
    /* A SIMD register holds half as many doubles: FP64 peaks at half the FP32 rate. The 16-bit
     * tiers have no CPU peak here (AVX512_BF16 and AVX512_FP16 rates vary by core). */
    d->peak_tier_gflops[DT_F32] = d->peak_gflops;
    d->peak_tier_gflops[DT_F64] = d->peak_gflops / 2;
    d->peak_gbps = 0; /* no portable property gives it; see README */
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    d->mem_bytes = pages > 0 && psize > 0 ? (size_t)pages * (size_t)psize : 0;
    char topo[96];
    topology_summary(topo, sizeof topo);
    snprintf(d->extra, sizeof d->extra,
             "%.96s; %s x%d FMA units %d @ %.0f MHz; pinned pool %d/%d, OpenBLAS workers %d", topo,
             isa, lanes, fma, mhz, topology_pinned(), threads, blas_pinned);
    if (topology_bind_error()[0]) {
        size_t len = strlen(d->extra);
        snprintf(d->extra + len, sizeof d->extra - len, "; %s", topology_bind_error());
    }
    list->n++;
    return 1;
}

/* The main thread is pool thread 0: pin it back to its core, since a GPU row before may have
 * bound it to the cores nearest that GPU. */
static enum status cpu_activate(const struct device *dev, char *note, size_t notelen) {
    (void)dev, (void)note, (void)notelen;
    topology_bind_thread(NULL, 0);
    return ST_OK;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static enum status cpu_time_runs(const struct impl *im, struct impl_ctx *ctx, long reps,
                                double *ms) {
    enum status st = ST_OK;
    double t0 = now_ms();
    for (long i = 0; i < reps && st == ST_OK; i++)
        st = im->run(ctx);
    *ms = now_ms() - t0;
    return st;
}

static enum status cpu_sync(const struct device *dev, char *note, size_t notelen) {
    (void)dev, (void)note, (void)notelen;
    return ST_OK;
}

static void cpu_shutdown(const struct device *dev) {
    (void)dev;
    pool_stop();
}

const struct backend cpu_backend = {
    .kind_name = "cpu",
    .discover = cpu_discover,
    .activate = cpu_activate,
    .time_runs = cpu_time_runs,
    .sync = cpu_sync,
    .shutdown = cpu_shutdown,
};
