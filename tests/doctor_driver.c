/* doctor_driver.c — runs `gpubench doctor` through doctor_main without the rest of the CLI, so
 * the doctor's CLI tests do not depend on how main.c dispatches commands. Usage:
 * doctor_driver [doctor options...] (argv[0] becomes "doctor"). */
#include "harness/doctor.h"

int main(int argc, char **argv) {
    argv[0] = "doctor";
    return doctor_main(argc, argv);
}
