/* pci_nvidia.c — an NVIDIA GPU on the PCI bus, from sysfs (pci_nvidia.h). */
#include "harness/gpuinfo/pci_nvidia.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hex number in DIR/NAME/FILE ("0x10de\n"), or -1 when it cannot be read. */
static long read_hex(const char *dir, const char *name, const char *file) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", dir, name, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[32] = "";
    char *end = NULL;
    long v = fgets(buf, sizeof buf, f) ? strtol(buf, &end, 16) : -1;
    fclose(f);
    return end && end != buf ? v : -1;
}

int pci_nvidia_gpu(char *bus_id, size_t len) {
    const char *root = getenv("GPUBENCH_TEST_SYSFS_PCI");
    if (!root || !root[0])
        root = "/sys/bus/pci/devices";
    DIR *d = opendir(root);
    if (!d)
        return -1;
    int found = 0;
    const struct dirent *e;
    /* the lowest bus id, so that the answer does not depend on readdir's order */
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || read_hex(root, e->d_name, "vendor") != 0x10de ||
            (read_hex(root, e->d_name, "class") >> 16) != 0x03)
            continue;
        if (!found || strcmp(e->d_name, bus_id) < 0)
            snprintf(bus_id, len, "%s", e->d_name);
        found = 1;
    }
    closedir(d);
    return found;
}
