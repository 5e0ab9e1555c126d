/* tel_cols.c — the telemetry columns (tel_cols.h). */
#include "harness/io/tel_cols.h"

#include <math.h>
#include <string.h>

static const char *const names[TEL_NCOLS] = {
    "sm_clock_start_mhz", "sm_clock_end_mhz", "sm_clock_max_mhz", "mem_clock_start_mhz",
    "mem_clock_end_mhz",  "mem_clock_max_mhz", "power_avg_w",     "power_peak_w",
    "energy_per_rep_j",   "gflops_per_j",      "gb_per_j",        "temp_c",
    "throttle_reasons",   "pcie_gen",          "pcie_width",      "pcie_gen_max",
    "pcie_width_max",     "ecc",               "persistence",     "shared_gpu"};

/* A figure that is known (> 0), else NAN. */
static double known(double v, int ok) {
    return ok && v > 0 ? v : NAN;
}

static const char *mode(int m) {
    return m == 2 ? "on" : m == 1 ? "off" : "";
}

void tel_cells(const struct result *r, struct tel_cell c[TEL_NCOLS]) {
    const struct row_telemetry *t = &r->tel;
    int ok = r->st.n > 0;
    double w = t->power_avg_w;
    /* efficiency: the row's rate over its power (GFLOP/s per W = GFLOP per J) */
    double per_j_flop = ok && r->gflops > 0 && w > 0 ? r->gflops / w : NAN;
    double per_j_byte = ok && r->gbps > 0 && w > 0 ? r->gbps / w : NAN;
    const double num[TEL_NCOLS] = {
        known(t->sm_mhz_start, ok),  known(t->sm_mhz_end, ok),    known(t->sm_mhz_max, ok),
        known(t->mem_mhz_start, ok), known(t->mem_mhz_end, ok),   known(t->mem_mhz_max, ok),
        known(w, ok),                known(t->power_peak_w, ok),  known(t->energy_j, ok),
        per_j_flop,                  per_j_byte,                  known(t->temp_c, ok),
        NAN,                         known(t->pcie_gen, ok),      known(t->pcie_width, ok),
        known(t->pcie_gen_max, ok),  known(t->pcie_width_max, ok), NAN,
        NAN,                         NAN};
    for (int i = 0; i < TEL_NCOLS; i++) {
        c[i].name = names[i];
        c[i].is_text = i == 12 || i >= 17;
        c[i].num = num[i];
        c[i].text = "";
        c[i].fmt = i < 6 || i == 11 || (i >= 13 && i <= 16) ? "%.0f" : "%.4g";
    }
    if (ok && t->throttle_known)
        c[12].text = t->throttle_words;
    c[17].text = ok ? mode(t->ecc) : "";
    c[18].text = ok ? mode(t->persistence) : "";
    /* yes: another process held a context on the card, or it was busy without us (row_shared) */
    int sh = row_shared(t);
    c[19].text = !ok || sh < 0 ? "" : sh ? "yes" : "no";
}
