/* compare.h — `gpubench compare`: slowdown tables across devices and a statistical regression
 * verdict between two runs, from gpubench-1 run CSVs (and their samples files). */
#ifndef GPUBENCH_COMPARE_H
#define GPUBENCH_COMPARE_H

#include <stdio.h>

/* `gpubench compare [options] FILE...` with argv[0] = "compare". Prints the report on stdout and
 * problems on stderr. Returns the exit code: 0 no regression, 1 a regression was found, 2 bad
 * usage or input (one line naming the argument, or the file, line and column; nothing else is
 * printed then). */
int compare_main(int argc, char **argv);

/* The same, writing the report to `out` and messages to `err` (for tests). */
int compare_run(int argc, char **argv, FILE *out, FILE *err);

#endif
