/* vecadd_cpu.h — c = a + b on the CPU. */
#ifndef GPUBENCH_VECADD_CPU_H
#define GPUBENCH_VECADD_CPU_H

#include <stddef.h>

/* c[i] = a[i] + b[i] for i in [0, n), split over the threads of the pool (cpu_pool.h) in
 * contiguous cache-line-aligned ranges. */
void vecadd_cpu(const float *a, const float *b, float *c, size_t n);

#endif
