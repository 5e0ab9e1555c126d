/* test_doctor.c — `gpubench doctor`'s decisions on cards and toolkits we do not have.
 *
 * The verdict table: 13 cards from Fermi to Blackwell × builds from the CUDA 8, 10.2, 11.8, 12.6,
 * 12.8 and 13.0 default architecture lists (cmake/cuda_setup.cmake) × an old and a new driver.
 * Then the special cases (PTX newer than the driver, driver too new or too old for the card, no
 * driver), cuBLAS/cuDNN rows, the facts tables, cuda_explain on every error name, and SPEC
 * parsing.
 *
 * `test_doctor --agree VERSION LIST` is called by doctor_cmake_agree.cmake with each toolkit's
 * default list from cmake/cuda_setup.cmake: it fails when the list names an architecture the
 * facts table says that toolkit cannot compile for, or differs from the manifest this file uses
 * for that toolkit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/gpuinfo/cuda_explain.h"
#include "harness/gpuinfo/cuda_facts.h"
#include "harness/doctor/spec.h"
#include "harness/doctor/verdict.h"
#include "tests/testhelp.h"

/* The default lists of cmake/cuda_setup.cmake, as the build manifest records them. */
struct manifest {
    const char *cuda;
    const char *archs;
    const char *cudnn; /* a cuDNN of that era, "" = none */
};
/* Named because the text cases below use them too. */
#define ARCHS_10_2 "30-real;35-real;50-real;60-real;70-real;75"
#define ARCHS_11_8 "35-real;37-real;50-real;60-real;70-real;75-real;80-real;86-real;89-real;90"
#define ARCHS_13_0 "75-real;80-real;86-real;89-real;90a-real;100-real;120"
static const struct manifest manifests[] = {
    {"8.0", "20-real;30-real;35-real;50-real;60", "7.1"},
    {"10.2", ARCHS_10_2, "7.6"},
    {"11.8", ARCHS_11_8, "8.9"},
    {"12.6", "50-real;60-real;70-real;75-real;80-real;86-real;89-real;90a-real;90-virtual", "9.5"},
    {"12.8", "50-real;60-real;70-real;75-real;80-real;86-real;89-real;90a-real;100-real;120",
     "9.10"},
    {"13.0", ARCHS_13_0, "9.19"},
};
enum { NMAN = sizeof manifests / sizeof manifests[0] };

/* One card, an old and a new driver it can run, and the expected verdict per manifest (in the
 * order above) for the old and the new driver: U usable, J usable via PTX JIT, N not usable. */
struct card {
    const char *name;
    int major, minor;
    const char *old_driver, *new_driver;
    const char *expect[NMAN];
};
static const struct card cards[] = {
    /*                                         8.0   10.2  11.8  12.6  12.8  13.0 */
    {"NVS 310", 2, 1, "375.26", "390.157", {"UU", "NN", "NN", "NN", "NN", "NN"}},
    {"Quadro K2100M", 3, 0, "418.39", "470.256.02", {"UU", "NU", "NN", "NN", "NN", "NN"}},
    {"Tesla K20m", 3, 5, "418.39", "470.256.02", {"UU", "NU", "NU", "NN", "NN", "NN"}},
    {"Tesla K40m", 3, 5, "418.39", "470.256.02", {"UU", "NU", "NU", "NN", "NN", "NN"}},
    {"Tesla K80", 3, 7, "418.39", "470.256.02", {"UU", "NU", "NU", "NN", "NN", "NN"}},
    {"GeForce GTX 980", 5, 2, "418.39", "580.95.05", {"UU", "NU", "NU", "NU", "NU", "NN"}},
    {"Tesla P100", 6, 0, "418.39", "580.95.05", {"UU", "NU", "NU", "NU", "NU", "NN"}},
    {"Tesla V100", 7, 0, "418.39", "580.95.05", {"JJ", "NU", "NU", "NU", "NU", "NN"}},
    {"Tesla T4", 7, 5, "418.39", "590.44.01", {"JJ", "NU", "NU", "NU", "NU", "NU"}},
    {"A100", 8, 0, "450.80.02", "590.44.01", {"JJ", "JJ", "UU", "NU", "NU", "NU"}},
    {"RTX 4090", 8, 9, "520.61.05", "590.44.01", {"JJ", "JJ", "UU", "NU", "NU", "NU"}},
    {"H100", 9, 0, "520.61.05", "590.44.01", {"JJ", "JJ", "UU", "NU", "NU", "NU"}},
    {"RTX 5090", 12, 0, "570.26", "590.44.01", {"JJ", "JJ", "JJ", "JJ", "UU", "NU"}},
};

static void make_build(const struct manifest *m, struct dv_build *b) {
    char err[256];
    memset(b, 0, sizeof *b);
    CHECK(dv_parse_cuda_version(m->cuda, &b->cuda) == 0);
    CHECK_MSG(dv_parse_archs(m->archs, b, err, sizeof err) == 0, "%s", err);
    b->cublas = 1;
    if (m->cudnn[0])
        CHECK(doctor_parse_libver(m->cudnn, &b->cudnn_major, &b->cudnn_minor) == 0);
}

static void make_device(const char *name, int major, int minor, const char *driver,
                        struct dv_device *d) {
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->cc_major = major;
    d->cc_minor = minor;
    d->mem = (size_t)4 << 30;
    if (driver)
        snprintf(d->driver, sizeof d->driver, "%s", driver);
    d->driver_cuda = driver ? -1 : 0;
}

static char letter(enum dv_verdict v) {
    return v == DV_USABLE ? 'U' : v == DV_USABLE_JIT ? 'J' : 'N';
}

static void test_verdict_table(void) {
    for (size_t c = 0; c < sizeof cards / sizeof cards[0]; c++) {
        for (int m = 0; m < NMAN; m++) {
            for (int k = 0; k < 2; k++) {
                const struct card *cd = &cards[c];
                struct dv_build b;
                struct dv_device d;
                struct dv_result r;
                make_build(&manifests[m], &b);
                make_device(cd->name, cd->major, cd->minor, k ? cd->new_driver : cd->old_driver,
                            &d);
                dv_evaluate(&d, &b, &r);
                CHECK_MSG(letter(r.verdict) == cd->expect[m][k],
                          "%s (%d.%d) on the CUDA %s build, driver %s: got %s (%s), expected %c",
                          cd->name, cd->major, cd->minor, manifests[m].cuda, d.driver,
                          dv_verdict_name(r.verdict), r.reason, cd->expect[m][k]);
                /* Every "not usable" says why and what to do; usable ones need no fix. */
                if (r.verdict == DV_NOT_USABLE)
                    CHECK_MSG(r.reason[0] && r.fix[0], "%s on CUDA %s: empty reason or fix",
                              cd->name, manifests[m].cuda);
                else
                    CHECK(r.fix[0] == '\0' && r.cuda.ok == 1);
                CHECK(r.support[0] != '\0');
            }
        }
    }
}

/* Run one case and return the result (for the detailed checks below). */
static void eval(const char *name, int major, int minor, const char *driver, const char *cuda,
                 const char *archs, const char *cudnn, struct dv_result *r) {
    struct manifest m = {cuda, archs, cudnn};
    struct dv_build b;
    struct dv_device d;
    make_build(&m, &b);
    make_device(name, major, minor, driver, &d);
    dv_evaluate(&d, &b, r);
}

#define HAS(s, sub) (strstr((s), (sub)) != NULL)

/* One case of the verdict texts: a card, its driver (NULL: none loaded; "": not given) and a
 * build; the verdict expected and the phrases each text must contain. */
enum { MAXSUB = 4 };
struct text_case {
    const char *what; /* the case, for failure messages */
    const char *name;
    int major, minor;
    const char *driver, *cuda, *archs, *cudnn;
    char verdict; /* 'U', 'J', 'N' as in the verdict table; 0: not checked */
    char libs;    /* 'U': cuBLAS and cuDNN usable, 'N': neither; 0: not checked */
    int ptx_sm;   /* the code that runs is PTX for this sm; 0: not checked */
    const char *reason[MAXSUB], *fix[MAXSUB], *support[MAXSUB], *note[MAXSUB];
};

static const struct text_case text_cases[] = {
    {"the issue's example: K40m against the CUDA 13 build", "Tesla K40m", 3, 5, "470.82", "13.0",
     ARCHS_13_0, "9.19", 'N', .libs = 'N',
     .reason = {"no code for sm_35", "built for 75 80 86 89 90a 100 120 + PTX 120",
                "which a 3.5 device cannot JIT"},
     .fix = {"CUDA 13.0 cannot target Kepler: rebuild with CUDA 11.8: cmake -S . -B build-cuda11.8",
             "-DCMAKE_CUDA_COMPILER=/usr/local/cuda-11.8/bin/nvcc -DCMAKE_CUDA_HOST_COMPILER=g++-11 "
             "-DCMAKE_CUDA_ARCHITECTURES=35"},
     .support = {"last toolkit CUDA 11.8", "R470", "11.4"}},
    {"Fermi: rebuild with CUDA 8 and architecture 20, never 21", "NVS 310", 2, 1, "390.157", "13.0",
     ARCHS_13_0, "9.19", .fix = {"rebuild with CUDA 8.0", "cuda-8.0/bin/nvcc", "g++-5",
                                 "ARCHITECTURES=20"},
     .support = {"R390"}},
    {"sm_30 needs CUDA 10.2, not 11.8", "Quadro K2100M", 3, 0, "470.256.02", "11.8", ARCHS_11_8,
     "8.9", .fix = {"rebuild with CUDA 10.2", "cuda-10.2/bin/nvcc", "g++-8", "ARCHITECTURES=30"}},
    {"the toolkit supports the card, the list just left it out (libraries carry their own code)",
     "Tesla T4", 7, 5, "590.44.01", "13.0", "80-real;90-real", "9.19", 'N', .libs = 'U',
     .fix = {"Rebuild with this toolkit (CUDA 13.0)", "=75"}},
    {"a card newer than the toolkit, with no PTX: needs a newer toolkit", "RTX 5090", 12, 0,
     "590.44.01", "11.8", "35-real;90-real", "8.9", 'N', .fix = {"needs CUDA 12.8 or newer"}},
    {"PTX newer than the driver: minor version compatibility starts the runtime, JIT fails",
     "RTX 5090", 12, 0, "570.26", "12.9", "90", "9.10", 'N',
     .reason = {"cudaErrorUnsupportedPtxVersion"}, .fix = {"575.51.03", "120-real"}},
    {"JIT: says so", "RTX 4090", 8, 9, "590.44.01", "10.2", ARCHS_10_2, "7.6", 'J', .ptx_sm = 75,
     .note = {"first launch"}},
    {"driver too new for the card", "Tesla K40m", 3, 5, "580.65.06", "11.8", ARCHS_11_8, "8.9", 'N',
     .reason = {"does not support Kepler"}, .fix = {"470.xx"}},
    {"driver too old for the card", "A100", 8, 0, "440.33", "10.2", ARCHS_10_2, "7.6", 'N',
     .reason = {"predates Ampere"}, .fix = {"450.51.05"}},
    {"driver too old for the card and for the build: the fix names the build's need, once",
     "H100", 9, 0, "470.82", "13.0", ARCHS_13_0, "9.19", 'N', .reason = {"predates Hopper"},
     .fix = {"Update the driver to 580.65.06 or newer", "CUDA 13.0 runtime",
             "Hopper GPUs need 520.61.05"}},
    {"no driver", "Tesla T4", 7, 5, NULL, "13.0", ARCHS_13_0, "9.19", 'N',
     .reason = {"no NVIDIA driver is loaded"}},
    {"driver older than the runtime, card can take a newer one: update the driver", "Tesla T4", 7,
     5, "535.54.03", "13.0", ARCHS_13_0, "9.19", .reason = {"supports CUDA up to 12.2"},
     .fix = {"Update the driver to 580.65.06"}},
    {"driver older than the runtime, card cannot take a newer one: rebuild", "Tesla K80", 3, 7,
     "470.256.02", "12.6", "37-real", "9.5", 'N', .fix = {"R470", "rebuild with CUDA 11.8"}},
    {"unknown driver (--assume without driver=): judged on code, with a note", "Tesla T4", 7, 5, "",
     "13.0", ARCHS_13_0, "9.19", 'U', .note = {"Driver not given"}},
};

/* Every phrase of subs (up to MAXSUB, NULL-ended) in text, named `field` in the failure. */
static void check_has(const struct text_case *c, const char *field, const char *text,
                      const char *const *subs) {
    for (int i = 0; i < MAXSUB && subs[i]; i++)
        CHECK_MSG(HAS(text, subs[i]), "%s: %s lacks \"%s\": %s", c->what, field, subs[i], text);
}

static void test_verdict_texts(void) {
    for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++) {
        const struct text_case *c = &text_cases[i];
        struct dv_result r;
        eval(c->name, c->major, c->minor, c->driver, c->cuda, c->archs, c->cudnn, &r);
        if (c->verdict)
            CHECK_MSG(letter(r.verdict) == c->verdict, "%s: got %s (%s)", c->what,
                      dv_verdict_name(r.verdict), r.reason);
        if (c->libs)
            CHECK_MSG(r.cublas.ok == (c->libs == 'U') && r.cudnn.ok == (c->libs == 'U'),
                      "%s: libraries %d / %d: %s / %s", c->what, r.cublas.ok, r.cudnn.ok,
                      r.cublas.why, r.cudnn.why);
        if (c->ptx_sm)
            CHECK_MSG(r.code_is_ptx && r.code_sm == c->ptx_sm, "%s: code sm %d%s", c->what,
                      r.code_sm, r.code_is_ptx ? " (PTX)" : "");
        check_has(c, "reason", r.reason, c->reason);
        check_has(c, "fix", r.fix, c->fix);
        check_has(c, "support", r.support, c->support);
        check_has(c, "note", r.note, c->note);
    }
}

/* A build without CUDA can use no GPU, and says which toolkit to install. */
static void test_verdict_no_cuda(void) {
    struct dv_result r;
    struct dv_build b;
    struct dv_device d;
    memset(&b, 0, sizeof b);
    make_device("Tesla K40m", 3, 5, "470.82", &d);
    dv_evaluate(&d, &b, &r);
    CHECK(r.verdict == DV_NOT_USABLE && HAS(r.reason, "without CUDA") && HAS(r.fix, "CUDA 11.8"));
}

/* Small memory is noted; arch-specific code runs only on its own architecture. */
static void test_verdict_arch_specific(void) {
    struct dv_result r;
    struct dv_build b;
    struct dv_device d;
    char err[128];
    memset(&b, 0, sizeof b);
    b.cuda = CUDA_VER(12, 8);
    CHECK(dv_parse_archs("90a-real;100a", &b, err, sizeof err) == 0);
    CHECK(b.narch == 2 && b.arch[0].variant == 'a' && b.arch[0].sass && !b.arch[0].ptx);
    make_device("H100", 9, 0, "570.26", &d);
    d.mem = (size_t)256 << 20;
    dv_evaluate(&d, &b, &r);
    CHECK(r.verdict == DV_USABLE && HAS(r.note, "512 MiB"));
    make_device("B300", 10, 3, "575.51.03", &d);
    dv_evaluate(&d, &b, &r);
    CHECK_MSG(r.verdict == DV_NOT_USABLE, "100a code must not run on 10.3: %s", r.reason);
}

static void test_libraries(void) {
    struct dv_result r;
    char why[512];

    eval("Tesla K40m", 3, 5, "470.82", "11.8", manifests[2].archs, "8.9", &r);
    CHECK(r.verdict == DV_USABLE && r.cublas.ok == 1 && r.cudnn.ok == 0);
    CHECK_MSG(HAS(r.cudnn.why, "8.7 for CUDA 11.x"), "%s", r.cudnn.why);
    eval("Tesla K40m", 3, 5, "470.82", "11.8", manifests[2].archs, "8.5", &r);
    CHECK(r.cudnn.ok == 1);
    /* 8.7 for CUDA 11 carries sm_35 code, 8.8 none (harness/gpuinfo/cuda_facts.c) */
    eval("Tesla K80", 3, 7, "470.82", "11.8", manifests[2].archs, "8.7", &r);
    CHECK_MSG(r.cudnn.ok == 1, "cuDNN 8.7 for CUDA 11 runs on Kepler: %s", r.cudnn.why);
    eval("Tesla K80", 3, 7, "470.82", "11.8", manifests[2].archs, "8.8", &r);
    CHECK_MSG(r.cudnn.ok == 0 && HAS(r.cudnn.why, "8.7 for CUDA 11.x"), "%s", r.cudnn.why);
    eval("Quadro K2100M", 3, 0, "470.82", "10.2", manifests[1].archs, "8.7", &r);
    CHECK_MSG(r.cudnn.ok == -1, "8.7 for CUDA 10.2 on sm_30 is not verified: %s", r.cudnn.why);
    eval("NVS 310", 2, 1, "390.157", "8.0", manifests[0].archs, "7.1", &r);
    CHECK(r.cublas.ok == 1 && r.cudnn.ok == 0 && HAS(r.cudnn.why, "never supported Fermi"));
    eval("Tesla T4", 7, 5, "590.44.01", "13.0", manifests[5].archs, "9.19", &r);
    CHECK(r.cublas.ok == 1 && r.cudnn.ok == 1);
    eval("GeForce GTX 980", 5, 2, "580.95.05", "12.6", manifests[3].archs, "9.5", &r);
    CHECK(r.cudnn.ok == 1);
    eval("GeForce GTX 980", 5, 2, "580.95.05", "12.6", manifests[3].archs, "9.17", &r);
    CHECK(r.cudnn.ok == 0 && HAS(r.cudnn.why, "9.10"));
    eval("RTX 5090", 12, 0, "590.44.01", "11.8", manifests[2].archs, "8.9", &r);
    CHECK_MSG(r.cublas.ok == -1, "cuBLAS 11.8 predates Blackwell: %s", r.cublas.why);
    eval("RTX 4090", 8, 9, "590.44.01", "11.8", manifests[2].archs, "", &r);
    CHECK(r.cudnn.ok == 0 && HAS(r.cudnn.why, "no cuDNN"));

    CHECK(cuda_facts_cudnn_supports(9, 19, 13, 70, why, sizeof why) == 0);
    CHECK_MSG(HAS(why, "CUDA 13") && HAS(why, "sm_75"), "%s", why);
    CHECK(cuda_facts_cudnn_supports(9, 1, 12, 50, why, sizeof why) == 1);
    CHECK(cuda_facts_cudnn_supports(8, 2, 10, 30, why, sizeof why) == 1);
    CHECK(cuda_facts_cudnn_supports(8, 2, 11, 30, why, sizeof why) == 0);
    CHECK(cuda_facts_cudnn_supports(7, 6, 10, 30, why, sizeof why) == 1);
    CHECK(cuda_facts_cudnn_supports(9, 12, 12, 60, why, sizeof why) == -1);
}

static void test_facts(void) {
    char v[16];
    size_t n;
    const struct cuda_arch_fact *t = cuda_facts_arch_table(&n);

    /* Which toolkit dropped which architecture. */
    CHECK(cuda_facts_last_toolkit(20) == CUDA_VER(8, 0));
    CHECK(cuda_facts_last_toolkit(21) == CUDA_VER(8, 0));
    CHECK(cuda_facts_last_toolkit(30) == CUDA_VER(10, 2));
    CHECK(cuda_facts_last_toolkit(35) == CUDA_VER(11, 8));
    CHECK(cuda_facts_last_toolkit(37) == CUDA_VER(11, 8));
    CHECK(cuda_facts_last_toolkit(52) == CUDA_VER(12, 9));
    CHECK(cuda_facts_last_toolkit(70) == CUDA_VER(12, 9));
    CHECK(cuda_facts_last_toolkit(75) == 0);
    CHECK(cuda_facts_last_toolkit(99) == -1);
    CHECK(cuda_facts_oldest_sm(CUDA_VER(8, 0)) == 20);
    CHECK(cuda_facts_oldest_sm(CUDA_VER(9, 0)) == 30);
    CHECK(cuda_facts_oldest_sm(CUDA_VER(11, 0)) == 35);
    CHECK(cuda_facts_oldest_sm(CUDA_VER(12, 0)) == 50);
    CHECK(cuda_facts_oldest_sm(CUDA_VER(13, 0)) == 75);
    CHECK(strcmp(cuda_facts_arch(35)->last_driver, "470") == 0);
    CHECK(strcmp(cuda_facts_arch(21)->last_driver, "390") == 0);
    CHECK(strcmp(cuda_facts_arch(60)->last_driver, "580") == 0);
    /* The host compiler each toolkit of a retired architecture accepts, in the rebuild advice. */
    char cmd[512];
    CHECK(cuda_facts_host_gcc(CUDA_VER(8, 0)) == 5 && cuda_facts_host_gcc(CUDA_VER(10, 2)) == 8);
    CHECK(cuda_facts_host_gcc(CUDA_VER(11, 8)) == 11 && cuda_facts_host_gcc(CUDA_VER(12, 9)) == 13);
    CHECK(cuda_facts_host_gcc(CUDA_VER(13, 0)) == 15 && cuda_facts_host_gcc(CUDA_VER(7, 5)) == 0);
    CHECK(strcmp(cuda_facts_rebuild_cmd(CUDA_VER(11, 8), "35", cmd, sizeof cmd),
                 "cmake -S . -B build-cuda11.8 -DCMAKE_CUDA_COMPILER=/usr/local/cuda-11.8/bin/nvcc "
                 "-DCMAKE_CUDA_HOST_COMPILER=g++-11 -DCMAKE_CUDA_ARCHITECTURES=35") == 0);
    /* The table is ordered, and every retired architecture has its last driver. */
    for (size_t i = 0; i < n; i++) {
        CHECK(i == 0 || t[i].sm > t[i - 1].sm);
        CHECK(t[i].first_cuda > 0 && (!t[i].last_cuda || t[i].last_cuda >= t[i].first_cuda));
        CHECK(!t[i].last_cuda == !t[i].last_driver);
        CHECK(!t[i].last_driver || cuda_facts_driver_valid(t[i].last_driver_min));
    }

    /* Drivers. */
    CHECK(strcmp(cuda_facts_min_driver(CUDA_VER(13, 0)), "580.65.06") == 0);
    CHECK(strcmp(cuda_facts_min_driver(CUDA_VER(12, 8)), "570.26") == 0);
    CHECK(strcmp(cuda_facts_min_driver(CUDA_VER(12, 7)), "560.28.03") == 0); /* no 12.7 */
    CHECK(strcmp(cuda_facts_min_driver(CUDA_VER(11, 8)), "520.61.05") == 0);
    CHECK(strcmp(cuda_facts_min_driver(CUDA_VER(10, 2)), "440.33") == 0);
    CHECK(strcmp(cuda_facts_min_driver(CUDA_VER(8, 0)), "367.48") == 0);
    CHECK(cuda_facts_min_driver(CUDA_VER(6, 5)) == NULL);
    CHECK(cuda_facts_compat_driver(CUDA_VER(10, 2)) == NULL);
    CHECK(strcmp(cuda_facts_compat_driver(CUDA_VER(11, 8)), "450.80.02") == 0);
    CHECK(cuda_facts_driver_cuda("470.82.01") == CUDA_VER(11, 4));
    CHECK(cuda_facts_driver_cuda("470.82") == CUDA_VER(11, 4));
    CHECK(cuda_facts_driver_cuda("390.157") == CUDA_VER(9, 1));
    CHECK(cuda_facts_driver_cuda("525.60.13") == CUDA_VER(12, 0));
    CHECK(cuda_facts_driver_cuda("580.95.05") == CUDA_VER(13, 0));
    CHECK(cuda_facts_driver_cuda("300.1") == 0);
    CHECK(cuda_facts_driver_cuda("abc") == 0);
    CHECK(cuda_facts_runtime_runs(CUDA_VER(11, 8), "470.82.01") == 1); /* minor version compat */
    CHECK(cuda_facts_runtime_runs(CUDA_VER(12, 0), "470.82.01") == 0);
    CHECK(cuda_facts_runtime_runs(CUDA_VER(10, 2), "418.39") == 0);
    CHECK(cuda_facts_runtime_runs(CUDA_VER(12, 9), "525.60.13") == 1);
    CHECK(cuda_facts_driver_cmp("470.82", "470.82.01") < 0);
    CHECK(cuda_facts_driver_cmp("470.103.01", "470.82.01") > 0);
    CHECK(cuda_facts_driver_valid("470") && !cuda_facts_driver_valid("470.") &&
          !cuda_facts_driver_valid("4.1.2.3") && !cuda_facts_driver_valid("12.0"));
    CHECK(strcmp(cuda_facts_ver_str(12080, v, sizeof v), "12.8") == 0);
}

/* A fake /sys/bus/pci/devices under dir: a host bridge, and with gpu an NVIDIA HDMI audio
 * function (not a GPU) and an NVIDIA 3D controller at 0000:3b:00.0. */
static void fake_pci(const char *dir, int gpu) {
    static const char *const fn[][3] = {{"0000:00:00.0", "0x8086", "0x060000"},
                                        {"0000:3b:00.1", "0x10de", "0x040300"},
                                        {"0000:3b:00.0", "0x10de", "0x030200"}};
    char path[512];
    mkdir(dir, 0700);
    for (int i = 0; i < (gpu ? 3 : 1); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, fn[i][0]);
        mkdir(path, 0700);
        for (int k = 1; k <= 2; k++) {
            snprintf(path, sizeof path, "%s/%s/%s", dir, fn[i][0], k == 1 ? "vendor" : "class");
            FILE *f = fopen(path, "w");
            CHECK(f != NULL);
            if (f) {
                fprintf(f, "%s\n", fn[i][k]);
                fclose(f);
            }
        }
    }
}

/* No driver answered: no NVIDIA GPU at all, or one with no driver (issue 38 item 8). */
static void test_explain_no_driver(void) {
    char tmp[] = "/tmp/gb_pci_XXXXXX", none[64], gpu[64], out[1024];
    CHECK(mkdtemp(tmp) != NULL);
    snprintf(none, sizeof none, "%s/none", tmp);
    snprintf(gpu, sizeof gpu, "%s/gpu", tmp);
    fake_pci(none, 0);
    fake_pci(gpu, 1);
    setenv("GPUBENCH_TEST_SYSFS_PCI", none, 1);
    cuda_explain("cudaErrorInsufficientDriver", 0, 13000, out, sizeof out);
    CHECK_MSG(HAS(out, "No NVIDIA GPU on this machine") && !HAS(out, "Install"), "%s", out);
    cuda_explain("cudaErrorStubLibrary", 0, 13000, out, sizeof out);
    CHECK_MSG(HAS(out, "No NVIDIA GPU on this machine") && !HAS(out, "Install"), "%s", out);
    setenv("GPUBENCH_TEST_SYSFS_PCI", gpu, 1);
    cuda_explain("cudaErrorInsufficientDriver", 0, 13000, out, sizeof out);
    CHECK_MSG(HAS(out, "An NVIDIA GPU at PCI 0000:3b:00.0 with no driver loaded") &&
                  HAS(out, "Install the NVIDIA driver") && !HAS(out, "older"),
              "%s", out);
    cuda_explain("cudaErrorStubLibrary", 0, 13000, out, sizeof out);
    CHECK_MSG(HAS(out, "An NVIDIA GPU at PCI 0000:3b:00.0 with no driver loaded") &&
                  HAS(out, "stubs"),
              "%s", out);
    setenv("GPUBENCH_TEST_SYSFS_PCI", "/nonexistent/pci", 1); /* unreadable: the driver named */
    cuda_explain("cudaErrorStubLibrary", 0, 13000, out, sizeof out);
    CHECK_MSG(HAS(out, "No NVIDIA driver is loaded") && HAS(out, "stubs"), "%s", out);
    cuda_explain("cudaErrorInsufficientDriver", 0, 13000, out, sizeof out);
    CHECK_MSG(HAS(out, "No NVIDIA driver is loaded") && !HAS(out, "older"), "%s", out);
    unsetenv("GPUBENCH_TEST_SYSFS_PCI");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    CHECK(system(cmd) == 0);
}

static void test_explain(void) {
    /* Every error a user can meet at start, and the rest of the table. */
    static const char *names[] = {
        "cudaErrorInsufficientDriver",
        "cudaErrorStubLibrary",
        "cudaErrorNoDevice",
        "cudaErrorInvalidDevice",
        "cudaErrorNoKernelImageForDevice",
        "cudaErrorInvalidDeviceFunction",
        "cudaErrorUnsupportedPtxVersion",
        "cudaErrorInvalidPtx",
        "cudaErrorJitCompilerNotFound",
        "cudaErrorJitCompilationDisabled",
        "cudaErrorMemoryAllocation",
        "cudaErrorLaunchTimeout",
        "cudaErrorLaunchOutOfResources",
        "cudaErrorIllegalAddress",
        "cudaErrorLaunchFailure",
        "cudaErrorECCUncorrectable",
        "cudaErrorDevicesUnavailable",
        "cudaErrorSystemDriverMismatch",
        "cudaErrorCompatNotSupportedOnDevice",
        "cudaErrorSystemNotReady",
        "cudaErrorInitializationError",
        "cudaErrorOperatingSystem",
        "cudaErrorNotPermitted",
        "CUBLAS_STATUS_NOT_INITIALIZED",
        "CUBLAS_STATUS_ARCH_MISMATCH",
        "CUBLAS_STATUS_ALLOC_FAILED",
        "CUDNN_STATUS_NOT_INITIALIZED",
        "CUDNN_STATUS_ARCH_MISMATCH",
        "CUDNN_STATUS_VERSION_MISMATCH",
        "CUDNN_STATUS_ALLOC_FAILED",
        "CUDNN_STATUS_NOT_SUPPORTED",
    };
    char out[1024], small[24];

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int known = cuda_explain(names[i], 12080, 13000, out, sizeof out);
        size_t len = strlen(out);
        int periods = 0;
        for (size_t k = 0; k + 1 < len; k++)
            periods += out[k] == '.' && out[k + 1] == ' ';
        CHECK_MSG(known == 1, "%s is not explained", names[i]);
        /* cause sentence, then fix sentence */
        CHECK_MSG(len > 40 && out[len - 1] == '.' && periods >= 1, "%s: '%s'", names[i], out);
    }
    /* The two faces of cudaErrorInsufficientDriver. */
    cuda_explain("cudaErrorInsufficientDriver", 11040, 13000, out, sizeof out);
    CHECK_MSG(HAS(out, "supports CUDA up to 11.4") && HAS(out, "CUDA 13.0 runtime") &&
                  HAS(out, "580.65.06"),
              "%s", out);
    /* doctor prints this sentence itself: it must not send the user back to doctor (issue 33) */
    CHECK_MSG(!HAS(out, "gpubench doctor") && HAS(out, "still compiles for the card"), "%s", out);
    cuda_explain("cudaErrorInsufficientDriver", 11040, 12060, out, sizeof out);
    CHECK_MSG(HAS(out, "560.28.03") && HAS(out, "525.60.13"), "%s", out);
    cuda_explain("cudaErrorLaunchTimeout", 12080, 13000, out, sizeof out);
    CHECK(HAS(out, "watchdog"));
    cuda_explain("cudaErrorNoKernelImageForDevice", 12080, 13000, out, sizeof out);
    CHECK(HAS(out, "gpubench doctor") && HAS(out, "CMAKE_CUDA_ARCHITECTURES"));
    /* Unknown names get a generic sentence and 0; NULL and tiny buffers are safe. */
    CHECK(cuda_explain("cudaErrorFrobnicated", 12080, 13000, out, sizeof out) == 0);
    CHECK(HAS(out, "cudaErrorFrobnicated"));
    CHECK(cuda_explain(NULL, 0, 0, out, sizeof out) == 0);
    CHECK(cuda_explain("cudaErrorNoDevice", 0, 0, small, sizeof small) == 1 &&
          strlen(small) == sizeof small - 1);
}

static void test_spec(void) {
    struct dv_device d;
    struct dv_build b;
    char err[256];
    size_t mem;

    CHECK(doctor_spec_device("cc=3.5,name=\"Tesla K40m\",mem=12GiB,driver=470.82", &d, err,
                             sizeof err) == 0);
    CHECK(d.cc_major == 3 && d.cc_minor == 5 && strcmp(d.name, "Tesla K40m") == 0 &&
          d.mem == (size_t)12 << 30 && strcmp(d.driver, "470.82") == 0);
    CHECK(doctor_spec_device("name=\"a, b\",cc=12.0", &d, err, sizeof err) == 0);
    CHECK(strcmp(d.name, "a, b") == 0 && d.cc_major == 12 && d.driver_cuda == -1);
    CHECK(doctor_spec_device("cc=2.1,driver=none", &d, err, sizeof err) == 0 && d.driver_cuda == 0);
    CHECK(doctor_spec_device("cc=3.5,foo=1", &d, err, sizeof err) == -1 && HAS(err, "'foo'"));
    CHECK(doctor_spec_device("cc=3", &d, err, sizeof err) == -1 && HAS(err, "cc"));
    CHECK(doctor_spec_device("name=x", &d, err, sizeof err) == -1 && HAS(err, "missing key cc"));
    CHECK(doctor_spec_device("cc=3.5,mem=lots", &d, err, sizeof err) == -1 && HAS(err, "mem"));
    CHECK(doctor_spec_device("cc=3.5,driver=new", &d, err, sizeof err) == -1 && HAS(err, "driver"));
    CHECK(doctor_spec_device("cc=3.5,name=\"open", &d, err, sizeof err) == -1 && HAS(err, "quote"));
    CHECK(doctor_spec_device("cc", &d, err, sizeof err) == -1 && HAS(err, "key=value"));
    CHECK(doctor_parse_mem("512MiB", &mem) == 0 && mem == (size_t)512 << 20);
    CHECK(doctor_parse_mem("4GB", &mem) == 0 && mem == 4000000000u);
    CHECK(doctor_parse_mem("1.5g", &mem) == 0 && mem == (size_t)3 << 29);
    CHECK(doctor_parse_mem("0", &mem) == -1 && doctor_parse_mem("-1G", &mem) == -1 &&
          doctor_parse_mem("12XB", &mem) == -1);
    /* mem needs a unit: "12" is neither 12 bytes nor 12 GiB until it says which */
    CHECK(doctor_parse_mem("12", &mem) == -1);
    CHECK(doctor_parse_mem("4000000000B", &mem) == 0 && mem == 4000000000u);
    CHECK(doctor_spec_device("cc=3.5,mem=12", &d, err, sizeof err) == -1 &&
          HAS(err, "'12' has no unit") && HAS(err, "12GiB"));
    /* there never was a compute capability 4.x */
    CHECK(doctor_spec_device("cc=4.0", &d, err, sizeof err) == -1 && HAS(err, "4.x"));

    memset(&b, 0, sizeof b);
    b.cuda = CUDA_VER(13, 0);
    CHECK(doctor_spec_build("cuda=11.8,archs=35-real;37,cublas=no,cudnn=8.9", &b, err,
                            sizeof err) == 0);
    CHECK(b.cuda == CUDA_VER(11, 8) && b.narch == 2 && b.arch[1].sm == 37 && b.arch[1].ptx &&
          !b.cublas && b.cudnn_major == 8 && b.cudnn_minor == 9);
    CHECK(doctor_spec_build("cudnn=9.19.0", &b, err, sizeof err) == 0 && b.cudnn_minor == 19);
    CHECK(doctor_spec_build("cuda=none", &b, err, sizeof err) == 0 && b.cuda == 0);
    CHECK(doctor_spec_build("archs=35-foo", &b, err, sizeof err) == -1 && HAS(err, "archs"));
    CHECK(doctor_spec_build("cuda=eleven", &b, err, sizeof err) == -1 && HAS(err, "cuda"));
    CHECK(doctor_spec_build("toolkit=11.8", &b, err, sizeof err) == -1 && HAS(err, "toolkit"));
    CHECK(dv_parse_archs("all-major", &b, err, sizeof err) == 0 && b.archs_unknown);
    CHECK(dv_parse_archs("75-real;;120-virtual", &b, err, sizeof err) == 0 && b.narch == 2 &&
          !b.arch[1].sass && b.arch[1].ptx);

    /* The driver version in /proc/driver/nvidia/version. */
    {
        char drv[32];
        CHECK(dv_parse_nvrm("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  Wed Jan "
                            " 8 2025\nGCC version:  gcc version 12.2.0",
                            drv, sizeof drv) == 0 &&
              strcmp(drv, "570.86.15") == 0);
        CHECK(dv_parse_nvrm("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                            "580.65.06  Release Build",
                            drv, sizeof drv) == 0 &&
              strcmp(drv, "580.65.06") == 0);
        CHECK(dv_parse_nvrm("nothing here 12", drv, sizeof drv) == -1);
    }
}

/* --agree VERSION LIST: the CMake default list for toolkit VERSION must name only architectures
 * that toolkit can compile for, and equal this file's manifest for VERSION when there is one. */
static int agree(const char *version, const char *list) {
    struct dv_build b;
    char err[256];
    int bad = 0;
    memset(&b, 0, sizeof b);
    if (dv_parse_cuda_version(version, &b.cuda) != 0 ||
        dv_parse_archs(list, &b, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL: cannot parse CUDA %s list \"%s\"\n", version, list);
        return 1;
    }
    for (int i = 0; i < b.narch; i++) {
        if (!cuda_facts_toolkit_supports(b.cuda, b.arch[i].sm)) {
            fprintf(stderr,
                    "FAIL: cmake/cuda_setup.cmake gives CUDA %s architecture %d, which "
                    "harness/gpuinfo/cuda_facts.c says that toolkit cannot compile for\n",
                    version, b.arch[i].sm);
            bad = 1;
        }
    }
    /* Advice only: architectures the toolkit supports whose major has no entry in the list
     * (SASS of X.y runs only on X.z). */
    {
        size_t n;
        const struct cuda_arch_fact *t = cuda_facts_arch_table(&n);
        for (size_t k = 0; k < n; k++) {
            int covered = 0;
            if (!cuda_facts_toolkit_supports(b.cuda, t[k].sm))
                continue;
            for (int i = 0; i < b.narch; i++) {
                const struct dv_arch *a = &b.arch[i];
                covered |= a->sass && a->sm / 10 == t[k].sm / 10 && a->sm <= t[k].sm;
                covered |= a->ptx && a->sm <= t[k].sm;
            }
            if (!covered)
                printf("note: CUDA %s supports sm_%d (%s, %s) but the default list has no code "
                       "it can run\n",
                       version, t[k].sm, t[k].family, t[k].examples);
        }
    }
    for (int m = 0; m < NMAN; m++) {
        if (strcmp(manifests[m].cuda, version) == 0 && strcmp(manifests[m].archs, list) != 0) {
            fprintf(stderr,
                    "FAIL: CUDA %s: cmake/cuda_setup.cmake gives \"%s\", tests/doctor/test_doctor.c "
                    "assumes \"%s\"\n",
                    version, list, manifests[m].archs);
            bad = 1;
        }
    }
    printf("CUDA %s: %s: %s\n", version, list, bad ? "DISAGREES" : "agrees");
    return bad;
}

/* Every compute capability NVIDIA has used, 1.0 to 12.x, is named by its architecture (1.x is
 * the Tesla architecture, not Fermi), in the verdict and in the cuDNN sentence. */
static void test_arch_names(void) {
    static const struct {
        int sm;
        const char *family;
    } want[] = {{10, "Tesla architecture"},
                {11, "Tesla architecture"},
                {12, "Tesla architecture"},
                {13, "Tesla architecture"},
                {20, "Fermi"},
                {21, "Fermi"},
                {30, "Kepler"},
                {32, "Kepler"},
                {35, "Kepler"},
                {37, "Kepler"},
                {50, "Maxwell"},
                {52, "Maxwell"},
                {53, "Maxwell"},
                {60, "Pascal"},
                {61, "Pascal"},
                {62, "Pascal"},
                {70, "Volta"},
                {72, "Volta"},
                {75, "Turing"},
                {80, "Ampere"},
                {86, "Ampere"},
                {87, "Ampere"},
                {89, "Ada Lovelace"},
                {90, "Hopper"},
                {100, "Blackwell"},
                {101, "Blackwell"},
                {103, "Blackwell"},
                {110, "Blackwell"},
                {120, "Blackwell"},
                {121, "Blackwell"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *f = cuda_facts_family(want[i].sm);
        CHECK_MSG(f && !strcmp(f, want[i].family), "sm_%d: %s, want %s", want[i].sm, f ? f : "NULL",
                  want[i].family);
        struct dv_device d = {
            .cc_major = want[i].sm / 10, .cc_minor = want[i].sm % 10, .driver_cuda = -1};
        struct dv_build b = {
            .cuda = CUDA_VER(13, 0), .cublas = 1, .cudnn_major = 9, .cudnn_minor = 19};
        struct dv_result r;
        dv_evaluate(&d, &b, &r);
        CHECK_MSG(!strcmp(r.family, want[i].family), "sm_%d: verdict family %s", want[i].sm,
                  r.family);
        CHECK_MSG(!strstr(r.cudnn.why, "Fermi") || want[i].sm / 10 == 2, "sm_%d: %s", want[i].sm,
                  r.cudnn.why);
    }
    CHECK(cuda_facts_family(40) == NULL && cuda_facts_family(130) == NULL);
    struct dv_device d13 = {.cc_major = 1, .cc_minor = 3, .driver_cuda = -1};
    struct dv_build b13 = {.cuda = CUDA_VER(13, 0)};
    struct dv_result r;
    dv_evaluate(&d13, &b13, &r);
    CHECK_MSG(HAS(r.support, "Tesla architecture") && HAS(r.support, "CUDA 6.5") &&
                  HAS(r.support, "R340"),
              "%s", r.support);
    CHECK_MSG(!HAS(r.fix, "CMAKE_CUDA_ARCHITECTURES=13"), "%s", r.fix);
}

/* --facts: what cmake/cuda_setup.cmake must read from cuda_facts.c, one fact a line:
 * "arch SM FIRST LAST" (LAST 0: current toolkits) and "gcc CUDA GCC" for CUDA 7.0 to 13.9. */
static int facts(void) {
    size_t n;
    char v[16], v2[16];
    const struct cuda_arch_fact *t = cuda_facts_arch_table(&n);
    for (size_t i = 0; i < n; i++)
        printf("arch %d %s %s\n", t[i].sm, cuda_facts_ver_str(t[i].first_cuda, v, sizeof v),
               t[i].last_cuda ? cuda_facts_ver_str(t[i].last_cuda, v2, sizeof v2) : "0");
    for (int major = 7; major <= 13; major++)
        for (int minor = 0; minor <= 9; minor++)
            printf("gcc %d.%d %d\n", major, minor, cuda_facts_host_gcc(CUDA_VER(major, minor)));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--agree") == 0)
        return agree(argv[2], argv[3]);
    if (argc == 2 && strcmp(argv[1], "--facts") == 0)
        return facts();
    test_verdict_table();
    test_verdict_texts();
    test_verdict_no_cuda();
    test_verdict_arch_specific();
    test_libraries();
    test_facts();
    test_explain();
    test_explain_no_driver();
    test_spec();
    test_arch_names();
    return TEST_END();
}
