/* probe_none.c — the doctor probe of a CPU-only build: no CUDA runtime, no libraries.
 * See probe.h; the CUDA counterpart is probe_cuda.c. */
#include "harness/doctor/probe.h"

#include <string.h>

void doctor_probe_run(struct doctor_probe *p) {
    memset(p, 0, sizeof *p);
    p->cublas_compiled.major = p->cublas_loaded.major = -1;
    p->cudnn_compiled.major = p->cudnn_loaded.major = -1;
}
