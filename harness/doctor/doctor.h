/* doctor.h — `gpubench doctor`: can this build use this machine's GPUs, and if not, exactly why
 * and what to do. */
#ifndef GPUBENCH_DOCTOR_H
#define GPUBENCH_DOCTOR_H

/* Run `gpubench doctor [--assume SPEC]... [--assume-build SPEC] [--format text|json]`; argv[0]
 * is "doctor". Prints the machine section (driver, runtime, libraries, build manifest, OpenBLAS,
 * topology) and a verdict per GPU (or per assumed device) on stdout. Returns the exit code: 0
 * when at least one GPU is usable by this build, 1 when none is, 2 after a one-line usage error
 * on stderr naming the bad argument. */
int doctor_main(int argc, char **argv);

#endif
