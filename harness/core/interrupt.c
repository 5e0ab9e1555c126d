/* interrupt.c — the run's "stop now" flag (interrupt.h). */
#include "harness/core/interrupt.h"

volatile sig_atomic_t gb_interrupted;
