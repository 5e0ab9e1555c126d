/* hardware.h — what tells one machine from another, written into every run row (the run CSV's
 * `hardware` column, results/README.md) so that `gpubench compare` can refuse a regression
 * check between two machines that share a host name and a CPU model string (cloud VMs named
 * `vm`, containers named `localhost`).
 *
 * The text is `key=value` pairs joined by `;`, keys in a fixed order. Only facts a driver or
 * library upgrade leaves alone: the host's CPU model and features, packages, cores, hardware
 * threads, NUMA nodes, last-level cache, memory and the PCI addresses of its NVIDIA GPUs; a
 * GPU row adds its own PCI address and memory (keys `gpu_…`). Driver, runtime and library
 * versions are columns of their own and may differ between two runs of one machine. */
#ifndef GPUBENCH_HARDWARE_H
#define GPUBENCH_HARDWARE_H

#include <stddef.h>

#include "harness/core/device.h"

/* The host's facts, "cpu=…;features=…;packages=1;cores=2;pus=2;numa=1;llc_mib=32;
 * memory_mib=16013;gpus=none" (worked out once; the topology must be loaded first, else its
 * counts are 0). */
void hardware_host(char *out, size_t len);

/* d->hardware: the host's facts, and for a GPU ";gpu_pci=…;gpu_memory_mib=…" (d->pci_bus_id,
 * d->mem_bytes must be set). */
void hardware_describe(struct device *d);

#endif
