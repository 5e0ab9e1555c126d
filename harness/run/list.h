/* list.h — `gpubench list`. */
#ifndef GPUBENCH_LIST_H
#define GPUBENCH_LIST_H

#include "harness/core/device.h"

/* Print workloads (with implementations and default, quick and sweep shapes) and devices.
 * Returns the exit code (0). */
int list_main(const struct device_list *devs, const char *gpu_why);

#endif
