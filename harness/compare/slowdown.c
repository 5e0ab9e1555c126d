/* slowdown.c — slowdown mode of `gpubench compare`: every device's median time relative
 * to a baseline device, kernel-only and end to end, geometric means per workload and overall,
 * and for size sweeps the size from which a GPU (end to end) beats the CPU. A line is measured
 * against the baseline's row of the same precision tier; with several tiers in the files each
 * workload has one table per tier and a summary gives every device's geometric mean per tier
 * ("Tesla K40m: float64 2.90× faster, float32 7.46× faster"). */
#include <stdlib.h>

#include "harness/compare/shared.h"
#include "harness/compare/slowdown.h"

/* Resolve --baseline: "DEVICE" (first file that has it) or "FILE:DEVICE"; `given`: typed by the
 * user (else the default, cpu, which a message must not present as an option they gave). */
static int find_baseline(const struct cmp_input *in, const char *spec, int given, char *err,
                         size_t errlen) {
    const char *dev = spec;
    int file = -1;
    for (int f = 0; f < in->nfiles; f++) {
        size_t n = strlen(in->runs[f].name);
        if (!strncmp(spec, in->runs[f].name, n) && spec[n] == ':') {
            file = f;
            dev = spec + n + 1;
            break;
        }
    }
    for (int s = 0; s < in->nseries; s++)
        if ((file < 0 || in->series[s].file == file) && !strcmp(in->series[s].device, dev))
            return s;
    char have[256] = "";
    size_t used = 0;
    for (int s = 0; s < in->nseries && used < sizeof have - 64; s++) {
        int seen = 0; /* a file of N runs has N series per device: each device once per file */
        for (int t = 0; t < s && !seen; t++)
            seen = !strcmp(in->series[t].device, in->series[s].device) &&
                   in->series[t].file == in->series[s].file;
        if (seen)
            continue;
        int n =
            in->nfiles == 1 /* one file: its devices, no file name after each */
                ? snprintf(have + used, sizeof have - used, "%s%s", used ? ", " : "",
                           in->series[s].device)
                : snprintf(have + used, sizeof have - used, "%s%s in %s", used ? ", " : "",
                           in->series[s].device, cmp_basename(in->runs[in->series[s].file].name));
        if (n > 0)
            used += (size_t)n;
    }
    if (!given) {
        if (in->nfiles == 1)
            snprintf(err, errlen,
                     "%s: no cpu rows to compare against (the default baseline); pass "
                     "--baseline DEVICE (devices in the file: %s)",
                     in->runs[0].name, have);
        else
            snprintf(err, errlen,
                     "compare: no cpu rows in the files to compare against (the default "
                     "baseline); pass --baseline DEVICE or FILE:DEVICE (the files hold: %s)",
                     have);
        return -1;
    }
    /* "FILE:DEVICE" whose FILE is none of the files: say that, not "no such device". */
    const char *colon = file < 0 ? strchr(spec, ':') : NULL;
    while (colon && strcmp(colon + 1, "cpu") && strncmp(colon + 1, "cuda", 4))
        colon = strchr(colon + 1, ':');
    if (colon && colon > spec) {
        snprintf(err, errlen,
                 "--baseline %s: the file %.*s was not given (it is none of the files, and "
                 "none by that name could be read); give it among the files, or name a device "
                 "(the files hold: %s)",
                 spec, (int)(colon - spec), spec, have);
        return -1;
    }
    snprintf(err, errlen, "--baseline %s: no such device in %s (the files hold: %s)", spec,
             file >= 0 ? in->runs[file].name : "the files given", have);
    return -1;
}

/* A run is one run however many files hold it: the same run_id in two files would set a device
 * beside itself as two columns (and join rows with their copies). -1 with the run named. */
static int refuse_run_twice(const struct cmp_input *in, char *err, size_t errlen) {
    for (int s = 0; s < in->nseries; s++)
        for (int t = 0; t < s; t++)
            if (in->series[s].file != in->series[t].file &&
                !strcmp(in->series[s].run_id, in->series[t].run_id)) {
                snprintf(err, errlen,
                         "compare: run %s is in both %s and %s: the same run given twice "
                         "(give it once)",
                         in->series[s].run_id, in->runs[in->series[t].file].name,
                         in->runs[in->series[s].file].name);
                return -1;
            }
    return 0;
}

int cmp_slowdown(const struct cmp_input *in, const struct cmp_opts *o, FILE *out, char *err,
                 size_t errlen) {
    struct sd d = {.in = in, .o = o};
    if (refuse_run_twice(in, err, errlen))
        return 2;
    d.base = find_baseline(in, o->baseline, !o->baseline_default, err, errlen);
    if (d.base < 0)
        return 2;
    if (sd_build(&d, err, errlen)) {
        sd_free(&d);
        return 2;
    }
    struct xover *x = calloc((size_t)d.ncombo * (size_t)in->nseries + 1, sizeof *x);
    if (!x) {
        sd_free(&d);
        snprintf(err, errlen, "compare: out of memory");
        return 2;
    }
    int nx = 0;
    for (int c0 = 0; c0 < d.ncombo; c0 = sd_wl_end(&d, c0))
        nx += sd_crossovers(&d, c0, sd_wl_end(&d, c0), x + nx);
    if (o->format == CMP_CSV) {
        sd_print_csv(&d, x, nx, out);
    } else if (o->format == CMP_JSON) {
        sd_print_json(&d, x, nx, out);
    } else {
        sd_print_text(&d, x, nx, out, o->format == CMP_MARKDOWN);
    }
    int shared = 0; /* series timed on a shared GPU */
    for (int s = 0; s < in->nseries; s++)
        shared += cmp_shared_of(in, in->series[s].file, in->series[s].run_id,
                                in->series[s].device).yes > 0;
    if (o->strict && shared && o->format != CMP_CSV && o->format != CMP_JSON)
        cmp_shared_refusal(shared, o->format == CMP_MARKDOWN, out);
    free(x);
    sd_free(&d);
    return o->strict && shared ? 1 : 0;
}
