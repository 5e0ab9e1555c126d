/* topology.c — hwloc loaded once; cores counted; threads pinned to cores. */
#include "harness/run/topology.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static hwloc_topology_t topo;
/* The pool's threads pin themselves concurrently. A mutex and not <stdatomic.h>: GCC 4.8, which
 * CUDA 8 and CentOS 7 pair with, has no stdatomic.h. */
static pthread_mutex_t pin_lock = PTHREAD_MUTEX_INITIALIZER;
static int pinned;
static char bind_err[160]; /* the first failing thread's reason */

int topology_load(char *err, size_t errlen) {
    if (topo)
        return 0;
    if (hwloc_topology_init(&topo) != 0) {
        snprintf(err, errlen, "hwloc_topology_init: %s", strerror(errno));
        topo = NULL;
        return -1;
    }
#if HWLOC_API_VERSION >= 0x00020000
    /* Keep PCI devices so GPUs can be placed next to their cores (hwloc/cudart.h). */
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
#endif
    if (hwloc_topology_load(topo) != 0) {
        snprintf(err, errlen, "hwloc_topology_load: %s", strerror(errno));
        hwloc_topology_destroy(topo);
        topo = NULL;
        return -1;
    }
    return 0;
}

hwloc_topology_t topology_get(void) { return topo; }

static int count(hwloc_obj_type_t t) {
    int n = topo ? hwloc_get_nbobjs_by_type(topo, t) : 0;
    return n > 0 ? n : 0;
}

int topology_cores(void) {
    int n = count(HWLOC_OBJ_CORE);
    if (n < 1)
        n = count(HWLOC_OBJ_PU);
    return n > 0 ? n : 1;
}

void topology_summary(char *out, size_t outlen) {
    if (!topo) {
        snprintf(out, outlen, "topology not loaded");
        return;
    }
    int pk = count(HWLOC_OBJ_PACKAGE), co = count(HWLOC_OBJ_CORE), pu = count(HWLOC_OBJ_PU);
    int numa = count(HWLOC_OBJ_NUMANODE);
    unsigned long long l3 = 0;
#if HWLOC_API_VERSION >= 0x00020000
    hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L3CACHE, 0);
    if (c && c->attr)
        l3 = c->attr->cache.size;
#endif
    snprintf(out, outlen, "%d package%s, %d cores, %d PUs, %d NUMA node%s, L3 %llu MiB", pk,
             pk == 1 ? "" : "s", co, pu, numa ? numa : 1, numa > 1 ? "s" : "", l3 >> 20);
}

/* Does cache object c serve one of the first `cores` cores? */
static int serves(hwloc_obj_t c, int cores) {
    for (int i = 0; i < cores; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
        if (!core)
            core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
        if (core && hwloc_bitmap_intersects(c->cpuset, core->cpuset))
            return 1;
    }
    return 0;
}

size_t topology_llc(char *name, size_t namelen, int cores) {
    snprintf(name, namelen, "LLC");
    if (!topo)
        return 0;
    unsigned long long total = 0;
    unsigned level = 0;
#if HWLOC_API_VERSION >= 0x00020000
    static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE};
    for (int t = 0; t < 2 && !level; t++) {
        int n = hwloc_get_nbobjs_by_type(topo, types[t]);
        for (int i = 0; i < n; i++) {
            hwloc_obj_t c = hwloc_get_obj_by_type(topo, types[t], (unsigned)i);
            if (!c || !c->attr)
                continue;
            level = c->attr->cache.depth;
            if (serves(c, cores))
                total += c->attr->cache.size;
        }
    }
#else
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CACHE);
    for (int i = 0; i < n; i++) { /* the deepest level */
        hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CACHE, (unsigned)i);
        if (c && c->attr && c->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION &&
            c->attr->cache.depth > level)
            level = c->attr->cache.depth;
    }
    for (int i = 0; i < n; i++) {
        hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CACHE, (unsigned)i);
        if (c && c->attr && c->attr->cache.depth == level &&
            c->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION && serves(c, cores))
            total += c->attr->cache.size;
    }
#endif
    if (total && level)
        snprintf(name, namelen, "L%u", level);
    return (size_t)total;
}

void topology_bind_thread(void *arg, int tid) {
    (void)arg;
    if (!topo)
        return;
    int cores = topology_cores();
    hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)(tid % cores));
    if (!core)
        core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)(tid % cores));
    if (!core)
        return;
    /* One PU of the core: the thread must not wander between hyperthreads either. */
    hwloc_bitmap_t set = hwloc_bitmap_dup(core->cpuset);
    if (!set)
        return;
    hwloc_bitmap_singlify(set);
    int ok = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0;
    int why = errno;
    hwloc_bitmap_free(set);
    pthread_mutex_lock(&pin_lock);
    if (ok)
        pinned++;
    else if (!bind_err[0])
        snprintf(bind_err, sizeof bind_err, "hwloc_set_cpubind(thread %d): %s", tid,
                 strerror(why));
    pthread_mutex_unlock(&pin_lock);
}

int topology_pinned(void) {
    pthread_mutex_lock(&pin_lock);
    int n = pinned;
    pthread_mutex_unlock(&pin_lock);
    return n;
}
const char *topology_bind_error(void) { return bind_err; }

void topology_unload(void) {
    if (topo)
        hwloc_topology_destroy(topo);
    topo = NULL;
}
