/* spec.h — the SPEC strings of `gpubench doctor --assume` and `--assume-build`, parsed
 * into the plain data the verdict takes. Pure C, no I/O. */
#ifndef GPUBENCH_DOCTOR_SPEC_H
#define GPUBENCH_DOCTOR_SPEC_H

#include <stddef.h>

#include "harness/doctor/verdict.h"

/* Parse "cc=3.5,name=\"Tesla K40m\",mem=12GiB,driver=470.82" into *d. Keys: cc (required,
 * MAJOR.MINOR), name, mem (a size with a unit: B for bytes, K/M/G/T and KiB/MiB/GiB/TiB as powers
 * of 1024, KB/MB/GB/TB as powers of 1000; a bare number is refused, as "12" could mean 12 bytes or
 * 12 GiB), driver (a dotted Linux driver version, or "none" for no
 * driver). Values may be double-quoted (then they may hold commas). Returns 0, or -1 with one
 * line naming the bad key or value in err. Unset: name "", mem 0, driver unknown. */
int doctor_spec_device(const char *spec, struct dv_device *d, char *err, size_t errlen);

/* Parse "cuda=11.8,archs=35-real;37,cublas=yes,cudnn=8.9" over *b (keys not given keep their
 * values, so *b starts as this build). cuda may be "none" (a CPU-only build), cudnn "none".
 * Returns 0, or -1 with one line naming the bad key or value in err. */
int doctor_spec_build(const char *spec, struct dv_build *b, char *err, size_t errlen);

/* Parse a memory size as doctor_spec_device does ("12GiB", "512MiB", "4000000000B").
 * Returns 0, or -1. */
int doctor_parse_mem(const char *s, size_t *bytes);

/* Parse a library version "9.19.0" or "8.9" into major and minor. Returns 0, or -1. */
int doctor_parse_libver(const char *s, int *major, int *minor);

#endif
