/* report.c — the text and JSON writers of `gpubench doctor`. See report.h. */
#include "harness/doctor/report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gpuinfo/cuda_facts.h"
#include "harness/io/json.h"
#include "harness/io/termcols.h"

int doctor_report_usable(const struct doctor_report *r) {
    int n = 0;
    for (int i = 0; i < r->ngpu; i++)
        if (!r->gpu[i].error[0] && r->gpu[i].res.verdict != DV_NOT_USABLE)
            n++;
    return n;
}

static const char *yes_no(int ok) {
    return ok > 0 ? "yes" : ok == 0 ? "no" : "unknown";
}

/* "13.0" or "none". */
static const char *ver(int cuda, char *buf, size_t n) {
    if (cuda <= 0)
        return "none";
    return cuda_facts_ver_str(cuda, buf, n);
}

/* One line of a key/value block: "  key   value", the key padded to `cols` display columns
 * (harness/io/termcols.h), the value printf's. */
__attribute__((format(printf, 4, 5))) static void kv_line(FILE *f, const char *key, int cols,
                                                          const char *fmt, ...) {
    va_list ap;
    fputs("  ", f);
    term_cell(f, key, cols, 0);
    fputc(' ', f);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

static void text_libs(const char *what, const char *compiled, const char *loaded, FILE *f) {
    if (!compiled[0] && !loaded[0]) {
        kv_line(f, what, 14, "not in this build\n");
        return;
    }
    kv_line(f, what, 14, "%s compiled, %s loaded", compiled[0] ? compiled : "unknown",
            loaded[0] ? loaded : "unknown");
    if (compiled[0] && loaded[0] && strcmp(compiled, loaded) != 0)
        fprintf(f, "  <- MISMATCH: the library found at run time is not the one gpubench was "
                   "built against (check LD_LIBRARY_PATH)");
    fputc('\n', f);
}

static void text_machine(const struct doctor_report *r, FILE *f) {
    char v[16], archs[256];
    const char *need = cuda_facts_min_driver(r->runtime_cuda);
    const char *compat = cuda_facts_compat_driver(r->runtime_cuda);

    fprintf(f, "%s\n", r->assumed ? "Build (the machine is not probed with --assume)" : "Machine");
    if (r->assumed)
        ; /* the driver is each assumed device's own */
    else if (r->driver_cuda > 0)
        kv_line(f, "NVIDIA driver", 14, "loaded, %s (supports CUDA up to %s)\n",
                r->driver[0] ? r->driver : "version unknown",
                cuda_facts_ver_str(r->driver_cuda, v, sizeof v));
    else if (r->driver_module)
        kv_line(f, "NVIDIA driver", 14,
                "kernel module %s loaded, but the CUDA driver library (libcuda.so) "
                "did not answer\n",
                r->driver[0] ? r->driver : "");
    else
        kv_line(f, "NVIDIA driver", 14, "not loaded (no NVIDIA driver on this machine)\n");
    if (r->runtime_cuda > 0) {
        kv_line(f, "CUDA runtime", 14, "%s (this binary); needs Linux driver >= %s",
                cuda_facts_ver_str(r->runtime_cuda, v, sizeof v), need ? need : "?");
        if (compat && need && strcmp(compat, need) != 0)
            fprintf(f,
                    ", or >= %s through minor version compatibility (no PTX JIT of newer "
                    "PTX)",
                    compat);
        fputc('\n', f);
    } else {
        kv_line(f, "CUDA runtime", 14, "none (CPU-only build)\n");
    }
    if (r->assumed) {
        /* Nothing is loaded: the build's libraries are what the verdicts judge. */
        kv_line(f, "libraries", 14, "cuBLAS %s, cuDNN ", r->build.cublas ? "yes" : "no");
        if (r->build.cudnn_major)
            fprintf(f, "%d.%d\n", r->build.cudnn_major, r->build.cudnn_minor);
        else
            fprintf(f, "none\n");
    } else {
        text_libs("cuBLAS", r->cublas_compiled, r->cublas_loaded, f);
        text_libs("cuDNN", r->cudnn_compiled, r->cudnn_loaded, f);
    }
    dv_archs_text(&r->build, archs, sizeof archs);
    if (r->build.cuda)
        kv_line(f, "build", 14, "CUDA %s%s, SASS %s%s%s%s%s\n", ver(r->build.cuda, v, sizeof v),
                r->assumed_build ? " (--assume-build)" : "", archs,
                r->build.archs_unknown ? " (list not known)" : "",
                r->build_archs_cmake[0] ? " (CMake: " : "", r->build_archs_cmake,
                r->build_archs_cmake[0] ? ")" : "");
    else
        kv_line(f, "build", 14, "without CUDA%s (CPU rows only)\n",
                r->assumed_build ? " (--assume-build)" : "");
    if (r->assumed)
        return;
    if (r->openblas[0])
        kv_line(f, "OpenBLAS", 14, "%s\n", r->openblas);
    if (r->openblas_verdict[0])
        kv_line(f, "BLAS verdict", 14, "%s\n", r->openblas_verdict);
    if (r->openblas_fix[0])
        kv_line(f, "BLAS fix", 14, "%s\n", r->openblas_fix);
    if (r->topology[0])
        kv_line(f, "topology", 14, "%s\n", r->topology);
}

static void text_gpu(const struct doctor_gpu *g, FILE *f) {
    const struct dv_result *s = &g->res;
    char mem[32] = "memory unknown";

    if (g->via_nvml)
        fprintf(f, "GPU %d  %s  (named by the driver's NVML: the CUDA runtime cannot start)\n",
                g->ordinal, g->dev.name[0] ? g->dev.name : "(unnamed)");
    else if (g->ordinal >= 0)
        fprintf(f, "GPU %d  %s\n", g->ordinal, g->dev.name[0] ? g->dev.name : "(unnamed)");
    else
        fprintf(f, "Assumed GPU  %s\n", g->dev.name[0] ? g->dev.name : "(unnamed)");
    if (g->error[0]) {
        fprintf(f, "  could not be queried: %s\n", g->error);
        return;
    }
    if (g->dev.mem >= (size_t)1 << 30)
        snprintf(mem, sizeof mem, "%.1f GiB", (double)g->dev.mem / (1024.0 * 1024 * 1024));
    else if (g->dev.mem >= (size_t)1 << 20)
        snprintf(mem, sizeof mem, "%.0f MiB", (double)g->dev.mem / (1024.0 * 1024));
    else if (g->dev.mem)
        snprintf(mem, sizeof mem, "%zu bytes", g->dev.mem);
    fprintf(f, "  compute capability %d.%d (%s), %s", g->dev.cc_major, g->dev.cc_minor, s->family,
            mem);
    if (g->pci[0])
        fprintf(f, ", PCI %s", g->pci);
    if (g->numa[0])
        fprintf(f, ", NUMA node %s", g->numa);
    if (g->cores[0])
        fprintf(f, ", cores %s", g->cores);
    if (g->ordinal < 0)
        fprintf(f, ", driver %s",
                g->dev.driver[0]          ? g->dev.driver
                : g->dev.driver_cuda == 0 ? "none"
                                          : "not given");
    if (g->via_nvml && (g->dev.driver[0] || g->dev.driver_cuda > 0)) {
        char v[16] = "?";
        if (g->dev.driver_cuda > 0)
            cuda_facts_ver_str(g->dev.driver_cuda, v, sizeof v);
        fprintf(f, ", driver %s (supports CUDA up to %s)",
                g->dev.driver[0] ? g->dev.driver : "version unknown", v);
    }
    fputc('\n', f);
    kv_line(f, "verdict", 8, "%s\n", dv_verdict_name(s->verdict));
    kv_line(f, s->verdict == DV_NOT_USABLE ? "reason" : "how", 8, "%s\n", s->reason);
    if (s->fix[0])
        kv_line(f, "fix", 8, "%s\n", s->fix);
    if (s->note[0])
        kv_line(f, "note", 8, "%s\n", s->note);
    kv_line(f, "support", 8, "%s\n", s->support);
    kv_line(f, "rows", 8, "cuda (hand-written kernels): %s\n", yes_no(s->cuda.ok));
    kv_line(f, "", 8, "cublas: %s - %s\n", yes_no(s->cublas.ok), s->cublas.why);
    kv_line(f, "", 8, "cudnn:  %s - %s\n", yes_no(s->cudnn.ok), s->cudnn.why);
}

/* The report at its full width (one line per fact). */
static void report_text_wide(const struct doctor_report *r, FILE *f) {
    int usable = doctor_report_usable(r);

    text_machine(r, f);
    fputc('\n', f);
    if (r->ngpu == 0) {
        fprintf(f, "GPUs\n  none found%s%s%s: %s\n",
                r->count_err[0] ? " (cudaGetDeviceCount: " : "", r->count_err,
                r->count_err[0] ? ")" : "",
                r->no_gpu_why[0] ? r->no_gpu_why : "no CUDA device was found.");
        /* A driver the runtime cannot use, and NVML could not name its cards: the toolkit for a
         * card comes from its compute capability, which --assume takes. */
        if (r->nvml_why[0] && (r->driver_cuda > 0 || r->driver_module))
            fprintf(f,
                    "  The driver's NVML cannot name the cards (%s): gpubench doctor --assume "
                    "cc=X.Y gives the toolkit and command for a card of compute capability X.Y "
                    "(nvidia-smi --query-gpu=name,compute_cap --format=csv lists them).\n",
                    r->nvml_why);
    } else if (r->gpu[0].via_nvml) {
        fprintf(f, "GPUs\n  no CUDA device (cudaGetDeviceCount: %s): %s\n", r->count_err,
                r->no_gpu_why);
        fprintf(f, "  The driver's NVML sees %d card%s; each has its verdict and fix below.\n\n",
                r->ngpu, r->ngpu == 1 ? "" : "s");
    }
    for (int i = 0; i < r->ngpu; i++) {
        text_gpu(&r->gpu[i], f);
        fputc('\n', f);
    }
    if (r->ngpu == 0)
        fputc('\n', f);
    if (usable)
        fprintf(f, "Result: %d of %d GPU%s usable by this build (exit 0)\n", usable, r->ngpu,
                r->ngpu == 1 ? "" : "s");
    else
        fprintf(f, "Result: no GPU is usable by this build; CPU rows still run (exit 1)\n");
}

void doctor_report_text(const struct doctor_report *r, FILE *f) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) { /* no memory to fit it: the wide form */
        report_text_wide(r, f);
        return;
    }
    report_text_wide(r, m);
    fclose(m);
    term_fit(f, buf, len, term_width(f)); /* long facts wrapped under their values */
    free(buf);
}

/* ---- JSON ------------------------------------------------------------------------------------ */

/* A key and a string value (NULL and "" become null), then ", " unless it is the last. */
static void json_kv(FILE *f, const char *key, const char *val, int last) {
    json_member_string(f, "", key, val);
    fputs(last ? "" : ", ", f);
}

static void json_family(FILE *f, const char *key, const struct dv_family *fam, int last) {
    fprintf(f, "\"%s\": {\"ok\": %s, ", key,
            fam->ok > 0    ? "true"
            : fam->ok == 0 ? "false"
                           : "null");
    json_kv(f, "why", fam->why, 1);
    fprintf(f, "}%s", last ? "" : ", ");
}

/* "machine": what was probed (null under --assume: nothing is). */
static void json_machine(const struct doctor_report *r, FILE *f) {
    char v[16];
    if (r->assumed) {
        fputs("\"machine\": null, ", f); /* not probed */
        return;
    }
    fprintf(f, "\"machine\": {\"driver_loaded\": %s, ", r->driver_cuda > 0 ? "true" : "false");
    json_kv(f, "driver", r->driver, 0);
    json_kv(f, "driver_cuda", r->driver_cuda > 0 ? ver(r->driver_cuda, v, sizeof v) : "", 0);
    json_kv(f, "device_count_error", r->count_err, 0);
    json_kv(f, "no_gpu_why", r->no_gpu_why, 0);
    json_kv(f, "nvml_why", r->nvml_why, 0);
    json_kv(f, "cublas_compiled", r->cublas_compiled, 0);
    json_kv(f, "cublas_loaded", r->cublas_loaded, 0);
    json_kv(f, "cudnn_compiled", r->cudnn_compiled, 0);
    json_kv(f, "cudnn_loaded", r->cudnn_loaded, 0);
    json_kv(f, "openblas", r->openblas, 0);
    json_kv(f, "openblas_verdict", r->openblas_verdict, 0);
    json_kv(f, "openblas_fix", r->openblas_fix, 0);
    json_kv(f, "topology", r->topology, 1);
    fputs("}, ", f);
}

/* "build": the toolkit, architectures and libraries the verdicts judge. */
static void json_build(const struct doctor_report *r, FILE *f) {
    char v[16], archs[256];
    dv_archs_text(&r->build, archs, sizeof archs);
    fprintf(f, "\"build\": {\"assumed\": %s, ", r->assumed_build ? "true" : "false");
    json_kv(f, "cuda", r->build.cuda ? ver(r->build.cuda, v, sizeof v) : "", 0);
    json_kv(f, "runtime", r->runtime_cuda > 0 ? ver(r->runtime_cuda, v, sizeof v) : "", 0);
    json_kv(f, "runtime_min_driver", cuda_facts_min_driver(r->runtime_cuda), 0);
    json_kv(f, "archs_cmake", r->build_archs_cmake, 0);
    json_kv(f, "archs", archs, 0);
    fprintf(f, "\"cublas\": %s, ", r->build.cublas ? "true" : "false");
    if (r->build.cudnn_major)
        fprintf(f, "\"cudnn\": \"%d.%d\"}, ", r->build.cudnn_major, r->build.cudnn_minor);
    else
        fprintf(f, "\"cudnn\": null}, ");
}

/* Who named the card and its number: the CUDA runtime, the driver's NVML (the runtime cannot
 * start; nvml_index is NVML's numbering) or --assume. */
static void json_gpu_id(const struct doctor_gpu *g, FILE *f) {
    if (g->ordinal >= 0 && !g->via_nvml)
        fprintf(f, "\"device\": \"cuda:%d\", ", g->ordinal);
    else
        fprintf(f, "\"device\": null, ");
    fprintf(f, "\"seen_by\": \"%s\", ",
            g->via_nvml       ? "nvml"
            : g->ordinal >= 0 ? "cuda"
                              : "assumed");
    if (g->via_nvml)
        fprintf(f, "\"nvml_index\": %d, ", g->ordinal);
}

/* One entry of "gpus": the card, then its verdict and fix (only its error when it could not be
 * queried). */
static void json_gpu(const struct doctor_gpu *g, FILE *f) {
    char v[16], cc[16];
    snprintf(cc, sizeof cc, "%d.%d", g->dev.cc_major, g->dev.cc_minor);
    fputc('{', f);
    json_gpu_id(g, f);
    json_kv(f, "name", g->dev.name, 0);
    if (g->error[0]) {
        json_kv(f, "error", g->error, 1);
        fputc('}', f);
        return;
    }
    json_kv(f, "cc", cc, 0);
    fprintf(f, "\"mem_bytes\": %zu, ", g->dev.mem);
    json_kv(f, "driver", g->dev.driver, 0);
    /* the CUDA version the driver supports: as reported, else read from its version */
    int dcuda = g->dev.driver_cuda > 0 ? g->dev.driver_cuda
                : g->dev.driver[0]     ? cuda_facts_driver_cuda(g->dev.driver)
                                       : 0;
    json_kv(f, "driver_cuda", dcuda > 0 ? ver(dcuda, v, sizeof v) : "", 0);
    json_kv(f, "pci_bus_id", g->pci, 0);
    json_kv(f, "numa", g->numa, 0);
    json_kv(f, "cores", g->cores, 0);
    json_kv(f, "family", g->res.family, 0);
    json_kv(f, "verdict", dv_verdict_name(g->res.verdict), 0);
    fprintf(f, "\"usable\": %s, ", g->res.verdict != DV_NOT_USABLE ? "true" : "false");
    if (g->res.code_sm)
        fprintf(f, "\"code\": \"%s%d\", ", g->res.code_is_ptx ? "compute_" : "sm_",
                g->res.code_sm);
    else
        fprintf(f, "\"code\": null, ");
    json_kv(f, "reason", g->res.reason, 0);
    json_kv(f, "fix", g->res.fix, 0);
    json_kv(f, "note", g->res.note, 0);
    json_kv(f, "support", g->res.support, 0);
    fprintf(f, "\"families\": {");
    json_family(f, "cuda", &g->res.cuda, 0);
    json_family(f, "cublas", &g->res.cublas, 0);
    json_family(f, "cudnn", &g->res.cudnn, 1);
    fprintf(f, "}}");
}

void doctor_report_json(const struct doctor_report *r, FILE *f) {
    json_document_begin(f, "doctor");
    fprintf(f, ", \"assumed\": %s, ", r->assumed ? "true" : "false");
    json_machine(r, f);
    json_build(r, f);
    fprintf(f, "\"gpus\": [");
    for (int i = 0; i < r->ngpu; i++) {
        fputs(i ? ", " : "", f);
        json_gpu(&r->gpu[i], f);
    }
    fprintf(f, "], \"usable\": %d}\n", doctor_report_usable(r));
}
