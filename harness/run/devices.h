/* devices.h — the devices of this machine, as the worker of a run (harness/run/worker.c) and
 * `gpubench list` find them. */
#ifndef GPUBENCH_DEVICES_H
#define GPUBENCH_DEVICES_H

#include <stddef.h>

#include "harness/core/device.h"

/* Load the topology, start the CPU threads (threads <= 0: one per physical core), and find
 * every device; why no GPU was found into gpu_why ("" when one was). quiet: leave out the
 * warnings about the machine itself (no topology, more threads than cores), which a run's first
 * worker printed already; what a device says is printed every time, since a card can change
 * between workers. */
void devices_discover(int threads, int quiet, struct device_list *devs, char *gpu_why,
                      size_t whylen);

/* Release every device's resources and the topology. */
void devices_shutdown(const struct device_list *devs);

#endif
