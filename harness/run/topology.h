/* topology.h — the hwloc topology, loaded once per process, and thread pinning from it. */
#ifndef GPUBENCH_TOPOLOGY_H
#define GPUBENCH_TOPOLOGY_H

#include <hwloc.h>
#include <stddef.h>

/* Load the topology (first call only). Returns 0, or -1 with a reason in err. */
int topology_load(char *err, size_t errlen);

/* The loaded topology (NULL before topology_load succeeds). */
hwloc_topology_t topology_get(void);

/* Physical cores (at least 1). */
int topology_cores(void);

/* One line: "1 package, 2 cores, 2 PUs, 1 NUMA node, L3 33 MiB". */
void topology_summary(char *out, size_t outlen);

/* The last-level cache of the first `cores` cores (those topology_bind_thread pins threads
 * 0 … cores − 1 to): its level into name ("L3"; "L2" on machines without an L3) and the total size
 * of the instances those cores share in (a working set spread over the threads can use them
 * all); 0 when the topology does not say. */
size_t topology_llc(char *name, size_t namelen, int cores);

/* A pool_bind_fn (kernels/common/cpu_pool.h): pins thread tid to core tid mod cores. Failures are
 * counted, not fatal (pinning is a quality-of-measurement matter, never a reason to stop). */
void topology_bind_thread(void *arg, int tid);

/* Threads pinned so far, and the first binding error seen (empty when none). */
int topology_pinned(void);
const char *topology_bind_error(void);

/* Release the topology at exit. */
void topology_unload(void);

#endif
