/* nvml_cards.c — the cards the driver's NVML sees (nvml_cards.h). Asks only; the verdicts are
 * verdict.c's, as for the cards the CUDA runtime names. */
#include "harness/doctor/nvml_cards.h"

#include <stdio.h>
#include <string.h>

#include "harness/telemetry/nvml.h"

/* One card's name, compute capability and memory; its `error` says what NVML refused. */
static void ask_card(const struct gb_nvml *n, unsigned i, struct doctor_nvml_card *c) {
    gb_nvml_dev dev = NULL;
    struct gb_nvml_memory mem;
    gb_nvml_return r = GB_NVML_SUCCESS;

    c->cc_major = c->cc_minor = -1;
    if (!n->handle_by_index || (r = n->handle_by_index(i, &dev)) != GB_NVML_SUCCESS) {
        snprintf(c->error, sizeof c->error, "nvmlDeviceGetHandleByIndex(%u): %s", i,
                 n->handle_by_index ? gb_nvml_error_name(r) : "not in this driver's NVML");
        return;
    }
    if (n->name && n->name(dev, c->name, sizeof c->name) != GB_NVML_SUCCESS)
        c->name[0] = '\0';
    if (n->memory && n->memory(dev, &mem) == GB_NVML_SUCCESS)
        c->mem = (size_t)mem.total;
    if (!n->cuda_cc)
        snprintf(c->error, sizeof c->error,
                 "this driver's NVML has no nvmlDeviceGetCudaComputeCapability, so its compute "
                 "capability is unknown (gpubench doctor --assume cc=X.Y judges it)");
    else if ((r = n->cuda_cc(dev, &c->cc_major, &c->cc_minor)) != GB_NVML_SUCCESS)
        snprintf(c->error, sizeof c->error, "nvmlDeviceGetCudaComputeCapability: %s",
                 gb_nvml_error_name(r));
}

void doctor_nvml_cards(struct doctor_nvml *out) {
    const struct gb_nvml *n;
    unsigned count = 0;
    gb_nvml_return r = GB_NVML_SUCCESS;

    memset(out, 0, sizeof *out);
    n = gb_nvml_load(out->why, sizeof out->why);
    if (!n)
        return;
    if (!n->count || (r = n->count(&count)) != GB_NVML_SUCCESS) {
        snprintf(out->why, sizeof out->why, "nvmlDeviceGetCount: %s",
                 n->count ? gb_nvml_error_name(r) : "not in this driver's NVML");
        return;
    }
    out->ok = 1;
    if (n->driver_version && n->driver_version(out->driver, sizeof out->driver) != GB_NVML_SUCCESS)
        out->driver[0] = '\0';
    if (n->cuda_driver_version && n->cuda_driver_version(&out->driver_cuda) != GB_NVML_SUCCESS)
        out->driver_cuda = 0;
    out->count = (int)count;
    for (unsigned i = 0; i < count && i < DOCTOR_MAX_GPUS; i++)
        ask_card(n, i, &out->card[i]);
}
