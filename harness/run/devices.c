/* devices.c — find the run's devices and let them go (devices.h). */
#include "harness/run/devices.h"

#include <stdio.h>
#include <string.h>

#include "harness/run/backend.h"
#include "harness/run/topology.h"

/* Load the topology, start the CPU threads, and find every device. */
void devices_discover(int threads, int quiet, struct device_list *devs, char *gpu_why,
                      size_t whylen) {
    char err[256];
    if (topology_load(err, sizeof err) != 0 && !quiet)
        fprintf(stderr, "gpubench: warning: %s; CPU threads will not be pinned\n", err);
    if (threads <= 0)
        threads = topology_cores();
    else if (topology_cores() > 0 && threads > topology_cores() && !quiet)
        fprintf(stderr,
                "gpubench: warning: --threads %d is more than this machine's %d cores: threads "
                "share cores, so CPU rows measure oversubscription\n",
                threads, topology_cores());
    char cpu_why[256] = "";
    memset(devs, 0, sizeof *devs);
    if (cpu_backend.discover(devs, threads, cpu_why, sizeof cpu_why) == 0)
        fprintf(stderr, "gpubench: warning: no CPU device: %s\n", cpu_why);
    gpu_why[0] = '\0';
    cuda_backend.discover(devs, threads, gpu_why, whylen);
}

void devices_shutdown(const struct device_list *devs) {
    for (int i = 0; i < devs->n; i++)
        if (devs->d[i].be->shutdown)
            devs->d[i].be->shutdown(&devs->d[i]);
    topology_unload();
}

