/* interrupt.h — the one "stop now" flag of a run. The run command's signal handler sets it
 * (Ctrl-C, SIGTERM, a hang-up: harness/run/run_cmd.c); every loop long enough to matter polls
 * it — input generation (inputs.c), the workloads' references (bench/), the runner between its
 * stages and repetitions (harness/run/runner.c) — so that a run ends within a second or two at
 * any stage. A loop that sees it returns early with its work unfinished; the caller checks the
 * flag after each stage and keeps nothing from an interrupted one. */
#ifndef GPUBENCH_INTERRUPT_H
#define GPUBENCH_INTERRUPT_H

#include <signal.h>

extern volatile sig_atomic_t gb_interrupted;

#endif
