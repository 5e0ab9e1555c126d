/* tel_cols.h — the telemetry columns of a run row (appended after every other column): their
 * names in order and a row's values, so that the CSV and the JSON writer say the same thing.
 * results/README.md documents each with its unit and source. */
#ifndef GPUBENCH_TEL_COLS_H
#define GPUBENCH_TEL_COLS_H

#include "harness/core/result.h"

enum { TEL_NCOLS = 20 };

/* The columns, as the CSV header's tail (tel_cells names the same, in the same order). */
#define TEL_HEADER                                                                                 \
    "sm_clock_start_mhz,sm_clock_end_mhz,sm_clock_max_mhz,mem_clock_start_mhz,mem_clock_end_mhz," \
    "mem_clock_max_mhz,power_avg_w,power_peak_w,energy_per_rep_j,gflops_per_j,gb_per_j,temp_c,"   \
    "throttle_reasons,pcie_gen,pcie_width,pcie_gen_max,pcie_width_max,ecc,persistence,shared_gpu"

/* One cell: a number (NAN when unknown) or, for text columns, text ("" when unknown). */
struct tel_cell {
    const char *name;
    int is_text;
    double num;
    const char *text;
    const char *fmt; /* printf format of a number in the CSV */
};

/* The row's cells, in column order. A row that was not timed has all of them unknown. */
void tel_cells(const struct result *r, struct tel_cell cells[TEL_NCOLS]);

#endif
