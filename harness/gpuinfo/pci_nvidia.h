/* pci_nvidia.h — is there an NVIDIA GPU on this machine's PCI bus, driver or not. The kernel
 * lists every PCI function under /sys/bus/pci/devices/<bus id>/ with its vendor and class
 * whether a driver is bound or not, so this tells "no NVIDIA GPU here" from "a GPU whose driver
 * is not loaded", which the CUDA runtime reports alike. */
#ifndef GPUBENCH_PCI_NVIDIA_H
#define GPUBENCH_PCI_NVIDIA_H

#include <stddef.h>

/* Look for a display-class function (class 0x03xxxx: VGA or 3D controller) of vendor 0x10de,
 * NVIDIA (its HDMI audio and USB functions do not count). Returns 1 and the first one's bus id
 * ("0000:3b:00.0") in bus_id, 0 when there is none, -1 when the folder cannot be read (not
 * Linux, or /sys not mounted). The folder is GPUBENCH_TEST_SYSFS_PCI when set (tests give a
 * fake one), else /sys/bus/pci/devices. */
int pci_nvidia_gpu(char *bus_id, size_t len);

#endif
