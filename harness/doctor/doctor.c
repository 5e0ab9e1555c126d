/* doctor.c — `gpubench doctor`: options, the machine probe, the verdict per GPU, the exit code.
 *
 * The decisions live in verdict.c (pure), the facts in cuda_facts.c, the CUDA calls in
 * probe_cuda.c (CUDA builds) or probe_none.c, the writers in report.c. This
 * file only gathers: build manifest, probe, /proc driver version, OpenBLAS, hwloc. */
#include "harness/doctor/doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_manifest.h"
#include "harness/core/blas.h"
#include "harness/doctor/nvml_cards.h"
#include "harness/doctor/probe.h"
#include "harness/doctor/report.h"
#include "harness/doctor/spec.h"
#include "harness/doctor/verdict.h"
#include "harness/gpuinfo/cuda_explain.h"
#include "harness/gpuinfo/cuda_facts.h"
#include "harness/run/blas_core.h"
#include "harness/run/topology.h"

enum { DOCTOR_MAX_ASSUME = DOCTOR_MAX_GPUS };

struct doctor_opts {
    const char *assume[DOCTOR_MAX_ASSUME];
    int nassume;
    const char *assume_build;
    const char *blas_core; /* --blas-core; NULL = auto */
    int json;
};

static void doctor_usage(FILE *f) {
    fprintf(
        f, "usage: gpubench doctor [--assume SPEC]... [--assume-build SPEC] "
           "[--format text|json]\n"
           "\n"
           "Says whether this build of gpubench can use each GPU of this machine, and if not,\n"
           "exactly why and what to do (driver, toolkit, architectures, cuBLAS, cuDNN).\n"
           "\n"
           "  --assume SPEC        judge a hypothetical GPU instead of this machine's; SPEC is\n"
           "                       cc=MAJOR.MINOR, then any of ,name=\"...\" ,mem=SIZE\n"
           "                       ,driver=VERSION|none (repeatable); SIZE needs a unit:\n"
           "                       12GiB, 512MiB, 4GB\n"
           "  --assume-build SPEC  judge against a hypothetical build: cuda=VERSION|none,\n"
           "                       archs=CMAKE_LIST (e.g. \"35-real;37\"), cublas=yes|no,\n"
           "                       cudnn=VERSION|none (keys not given keep this build's values)\n"
           "  -f, --format FMT     text (default) or json (docs/json.md)\n"
           "  --blas-core CORE     OpenBLAS's kernels, as for run: auto, trial (try again now),\n"
           "                       own or a core name\n"
           "  -h, --help           this text\n"
           "\n"
           "Exit status: 0 when at least one GPU is usable by this build, 1 when none is,\n"
           "2 for a usage error.\n"
           "\n"
           "Examples:\n"
           "  gpubench doctor\n"
           "  gpubench doctor --assume 'cc=3.5,name=\"Tesla K40m\",mem=12GiB,driver=470.82'\n"
           "  gpubench doctor --assume cc=2.1,name=\"NVS 310\",driver=390.157 \\\n"
           "                  --assume-build 'cuda=8.0,archs=20-real;30-real;35-real;50-real;60'\n"
           "  gpubench doctor --format json && gpubench run\n");
}

/* The value of option argv[*i] ("--opt VALUE" or "--opt=VALUE"); NULL when missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (strcmp(argv[*i], name) == 0 && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static int is_opt(const char *arg, const char *name) {
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* Returns 0 to go on, 1 after --help, 2 after a usage error. */
static int doctor_parse(int argc, char **argv, struct doctor_opts *o) {
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            doctor_usage(stdout);
            return 1;
        } else if (is_opt(a, "--assume-build")) {
            if (!(v = opt_value(argc, argv, &i, "--assume-build"))) {
                fprintf(stderr, "gpubench doctor: --assume-build needs a SPEC\n");
                return 2;
            }
            o->assume_build = v;
        } else if (is_opt(a, "--assume")) {
            if (!(v = opt_value(argc, argv, &i, "--assume"))) {
                fprintf(stderr, "gpubench doctor: --assume needs a SPEC, e.g. --assume cc=3.5\n");
                return 2;
            }
            if (o->nassume == DOCTOR_MAX_ASSUME) {
                fprintf(stderr, "gpubench doctor: --assume: at most %d devices\n",
                        DOCTOR_MAX_ASSUME);
                return 2;
            }
            o->assume[o->nassume++] = v;
        } else if (is_opt(a, "--blas-core")) { /* acted on in main (blas_core.h) */
            if (!(v = opt_value(argc, argv, &i, "--blas-core")) || !blas_core_option_ok(v)) {
                fprintf(stderr, "gpubench doctor: --blas-core needs auto, trial, own or an "
                                "OpenBLAS core name\n");
                return 2;
            }
            o->blas_core = v;
        } else if (is_opt(a, "--format") || strcmp(a, "-f") == 0) {
            if (!(v = opt_value(argc, argv, &i, a[1] == 'f' ? "-f" : "--format"))) {
                fprintf(stderr, "gpubench doctor: --format needs text or json\n");
                return 2;
            }
            if (strcmp(v, "json") == 0)
                o->json = 1;
            else if (strcmp(v, "text") != 0) {
                fprintf(stderr, "gpubench doctor: --format: unknown format '%s' (text, json)\n", v);
                return 2;
            }
        } else {
            fprintf(stderr,
                    "gpubench doctor: unknown argument '%s' (see gpubench doctor "
                    "--help)\n",
                    a);
            return 2;
        }
    }
    return 0;
}

static void libver_str(const struct doctor_libver *l, char *out, size_t n) {
    if (l->major < 0)
        out[0] = '\0';
    else
        snprintf(out, n, "%d.%d.%d", l->major, l->minor, l->patch);
}

/* This binary's build, from the manifest CMake generated. */
static void doctor_this_build(struct doctor_report *r) {
    char err[256];
    struct dv_build *b = &r->build;
    memset(b, 0, sizeof *b);
    if (GPUBENCH_BUILD_CUDA_VERSION[0] &&
        dv_parse_cuda_version(GPUBENCH_BUILD_CUDA_VERSION, &b->cuda) != 0)
        b->cuda = 0;
    snprintf(r->build_archs_cmake, sizeof r->build_archs_cmake, "%s", GPUBENCH_BUILD_CUDA_ARCHS);
    if (b->cuda)
        dv_parse_archs(GPUBENCH_BUILD_CUDA_ARCHS, b, err, sizeof err);
    b->cublas = GPUBENCH_BUILD_CUBLAS_VERSION[0] != '\0';
    if (GPUBENCH_BUILD_CUDNN_VERSION[0])
        doctor_parse_libver(GPUBENCH_BUILD_CUDNN_VERSION, &b->cudnn_major, &b->cudnn_minor);
}

/* The Linux driver version from /proc/driver/nvidia/version; 1 when the file exists. */
static int doctor_proc_driver(char *out, size_t outlen) {
    char text[1024];
    size_t n;
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    out[0] = '\0';
    if (!f)
        return 0;
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    if (dv_parse_nvrm(text, out, outlen) != 0)
        out[0] = '\0';
    return 1;
}

static void doctor_openblas(struct doctor_report *r) {
    /* OpenBLAS's own answers: the kernel set it runs and its thread count; how that core was
     * chosen and whether it fits the CPU (harness/run/blas_core.h). */
    char *core = openblas_get_corename();
    char *config = openblas_get_config();
    char how[112];
    blas_core_announce(1);
    blas_core_how_text(how, sizeof how);
    snprintf(r->openblas, sizeof r->openblas, "%s, core %s%s, %d threads (%s)",
             GPUBENCH_BUILD_OPENBLAS_VERSION, core ? core : "unknown", how,
             openblas_get_num_threads(), config ? config : "");
    blas_core_verdict(GPUBENCH_BUILD_OPENBLAS_VERSION, r->openblas_verdict,
                      sizeof r->openblas_verdict, r->openblas_fix, sizeof r->openblas_fix);
}

/* Nearest NUMA node(s) and PUs of the GPU at PCI bus id g->pci, from hwloc's I/O tree. */
static void doctor_place(struct doctor_gpu *g) {
    hwloc_topology_t t = topology_get();
    hwloc_obj_t pci, near;
    if (!t || !g->pci[0])
        return;
    pci = hwloc_get_pcidev_by_busidstring(t, g->pci);
    if (!pci)
        return;
    near = hwloc_get_non_io_ancestor_obj(t, pci);
    if (!near)
        return;
    if (near->cpuset)
        hwloc_bitmap_list_snprintf(g->cores, sizeof g->cores, near->cpuset);
    if (near->nodeset)
        hwloc_bitmap_list_snprintf(g->numa, sizeof g->numa, near->nodeset);
}

/* The CUDA runtime cannot start, so it names no card: the driver's NVML does, and each card gets
 * its verdict and fix as one the runtime named would (the driver's version and CUDA version from
 * NVML, else from /proc and cudaDriverGetVersion). */
static void doctor_nvml_gpus(struct doctor_report *r) {
    static struct doctor_nvml nv; /* large: keep it off the stack */

    doctor_nvml_cards(&nv);
    if (!nv.ok) {
        snprintf(r->nvml_why, sizeof r->nvml_why, "%s", nv.why);
        return;
    }
    if (nv.count == 0) {
        snprintf(r->nvml_why, sizeof r->nvml_why, "the driver's NVML reports no card");
        return;
    }
    if (!r->driver[0])
        snprintf(r->driver, sizeof r->driver, "%s", nv.driver);
    if (r->driver_cuda <= 0)
        r->driver_cuda = nv.driver_cuda;
    r->ngpu = nv.count < DOCTOR_MAX_GPUS ? nv.count : DOCTOR_MAX_GPUS;
    for (int i = 0; i < r->ngpu; i++) {
        struct doctor_gpu *g = &r->gpu[i];
        const struct doctor_nvml_card *c = &nv.card[i];
        g->ordinal = i;
        g->via_nvml = 1;
        snprintf(g->dev.name, sizeof g->dev.name, "%s", c->name);
        if (c->error[0]) {
            snprintf(g->error, sizeof g->error, "%s", c->error);
            continue;
        }
        g->dev.cc_major = c->cc_major;
        g->dev.cc_minor = c->cc_minor;
        g->dev.mem = c->mem;
        snprintf(g->dev.driver, sizeof g->dev.driver, "%s", r->driver);
        g->dev.driver_cuda = r->driver_cuda;
        dv_evaluate(&g->dev, &r->build, &g->res);
        /* The tables may find nothing wrong with card, driver and build; the runtime still did
         * not start, so nothing of this binary runs on the card until that is fixed. */
        if (g->res.verdict != DV_NOT_USABLE) {
            char how[DV_TEXT];
            snprintf(how, sizeof how, "%s", g->res.reason);
            g->res.verdict = DV_NOT_USABLE;
            snprintf(g->res.reason, sizeof g->res.reason,
                     "the CUDA runtime does not start (cudaGetDeviceCount: %s), although this "
                     "build fits the card and driver (%.700s)",
                     r->count_err, how);
            snprintf(g->res.fix, sizeof g->res.fix,
                     "Fix what stops the CUDA runtime (under GPUs above), then run gpubench "
                     "doctor again to see the card as a CUDA device");
            struct dv_family *fam[] = {&g->res.cuda, &g->res.cublas, &g->res.cudnn};
            for (int k = 0; k < 3; k++) {
                fam[k]->ok = 0;
                snprintf(fam[k]->why, sizeof fam[k]->why,
                         "nothing CUDA runs until the runtime starts (see reason)");
            }
        }
    }
}

static void doctor_machine(struct doctor_report *r) {
    static struct doctor_probe p; /* large: keep it off the stack */
    char terr[160];

    doctor_probe_run(&p);
    r->driver_module = doctor_proc_driver(r->driver, sizeof r->driver);
    r->driver_cuda = p.driver_version;
    r->runtime_cuda = p.runtime_version ? p.runtime_version : r->build.cuda;
    snprintf(r->count_err, sizeof r->count_err, "%s", p.count_err);
    libver_str(&p.cublas_compiled, r->cublas_compiled, sizeof r->cublas_compiled);
    libver_str(&p.cublas_loaded, r->cublas_loaded, sizeof r->cublas_loaded);
    libver_str(&p.cudnn_compiled, r->cudnn_compiled, sizeof r->cudnn_compiled);
    libver_str(&p.cudnn_loaded, r->cudnn_loaded, sizeof r->cudnn_loaded);
    if (p.cudnn_loaded.major > 0 && !r->assumed_build) { /* judge the cuDNN that will run */
        r->build.cudnn_major = p.cudnn_loaded.major;
        r->build.cudnn_minor = p.cudnn_loaded.minor;
    }
    doctor_openblas(r);
    if (topology_load(terr, sizeof terr) == 0)
        topology_summary(r->topology, sizeof r->topology);
    else
        snprintf(r->topology, sizeof r->topology, "unknown (%s)", terr);

    if (!p.cuda_build) {
        snprintf(r->no_gpu_why, sizeof r->no_gpu_why,
                 "this gpubench was built without CUDA, so it uses no GPU. Install a CUDA "
                 "toolkit (nvcc on PATH) and rebuild to use one.");
        return;
    }
    if (p.count_err[0]) {
        /* cuda_explain's sentence for an error it does not know sends the user to doctor: this
         * is doctor, so say what to look at instead. */
        if (!cuda_explain(p.count_err, p.driver_version, r->runtime_cuda, r->no_gpu_why,
                          sizeof r->no_gpu_why))
            snprintf(r->no_gpu_why, sizeof r->no_gpu_why,
                     "The CUDA runtime did not start: cudaGetDeviceCount failed with %s. Check "
                     "that nvidia-smi works and dmesg for driver errors, and report it with this "
                     "output if it persists.",
                     p.count_err);
        doctor_nvml_gpus(r);
        return;
    }
    if (p.ngpu == 0) {
        snprintf(r->no_gpu_why, sizeof r->no_gpu_why,
                 "the NVIDIA driver is loaded but reports no CUDA device. Check nvidia-smi and "
                 "CUDA_VISIBLE_DEVICES.");
        return;
    }
    r->ngpu = p.ngpu < DOCTOR_MAX_GPUS ? p.ngpu : DOCTOR_MAX_GPUS;
    for (int i = 0; i < r->ngpu; i++) {
        struct doctor_gpu *g = &r->gpu[i];
        const struct gpu_props *q = &p.gpu[i];
        g->ordinal = i;
        if (p.gpu_err[i][0]) {
            snprintf(g->error, sizeof g->error, "%s", p.gpu_err[i]);
            continue;
        }
        g->dev.cc_major = q->cc_major;
        g->dev.cc_minor = q->cc_minor;
        snprintf(g->dev.name, sizeof g->dev.name, "%s", q->name);
        g->dev.mem = q->global_mem;
        snprintf(g->dev.driver, sizeof g->dev.driver, "%s", r->driver);
        g->dev.driver_cuda = p.driver_version;
        snprintf(g->pci, sizeof g->pci, "%s", q->pci_bus_id);
        doctor_place(g);
        dv_evaluate(&g->dev, &r->build, &g->res);
        if (q->kernel_timeout)
            strncat(g->res.note,
                    "A display watchdog limits kernel run time on this GPU "
                    "(cudaErrorLaunchTimeout on long kernels). ",
                    sizeof g->res.note - strlen(g->res.note) - 1);
    }
}

int doctor_main(int argc, char **argv) {
    static struct doctor_report r; /* large: keep it off the stack */
    struct doctor_opts o;
    char err[256];
    int rc = doctor_parse(argc, argv, &o);

    if (rc == 1)
        return 0;
    if (rc)
        return 2;
    if (!o.nassume) /* may re-execute: nothing is printed yet; --assume probes no machine */
        blas_core_choose(o.blas_core);
    memset(&r, 0, sizeof r);
    doctor_this_build(&r);
    if (o.assume_build) {
        if (doctor_spec_build(o.assume_build, &r.build, err, sizeof err) != 0) {
            fprintf(stderr, "gpubench doctor: --assume-build: %s\n", err);
            return 2;
        }
        r.assumed_build = 1;
        /* Only the archs the spec gave are known as a CMake list. */
        r.build_archs_cmake[0] = '\0';
    }
    if (o.nassume) {
        r.assumed = 1;
        for (int i = 0; i < o.nassume; i++) {
            struct doctor_gpu *g = &r.gpu[r.ngpu++];
            g->ordinal = -1;
            if (doctor_spec_device(o.assume[i], &g->dev, err, sizeof err) != 0) {
                fprintf(stderr, "gpubench doctor: --assume: %s\n", err);
                return 2;
            }
        }
        r.runtime_cuda = r.build.cuda;
        for (int i = 0; i < r.ngpu; i++)
            dv_evaluate(&r.gpu[i].dev, &r.build, &r.gpu[i].res);
    } else {
        doctor_machine(&r);
    }
    if (o.json)
        doctor_report_json(&r, stdout);
    else
        doctor_report_text(&r, stdout); /* flushed, and checked, at the command's end (main.c) */
    return doctor_report_usable(&r) > 0 ? 0 : 1;
}
