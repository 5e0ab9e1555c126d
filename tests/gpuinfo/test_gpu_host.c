/* test_gpu_host.c — the CUDA host logic as plain functions, on data from real cards: cores per SM,
 * peak GFLOP/s and GB/s against the vendors' published figures, the provenance strings, cuDNN
 * support decisions, cuDNN algorithm choice, and error name → row status. No GPU, no CUDA. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/gpuinfo/gpu_policy.h"
#include "kernels/common/cuda_errors.h"
#include "harness/gpuinfo/gpu_props.h"
#include "tests/testhelp.h"

#define CHECK_STR(got, want)                                                                       \
    CHECK_MSG(strcmp((got), (want)) == 0, "got \"%s\" want \"%s\"", got, want)
#define CHECK_HAS(got, part)                                                                       \
    CHECK_MSG(strstr((got), (part)) != NULL, "\"%s\" lacks \"%s\"", got, part)

/* One card as its CUDA device attributes describe it, and what its vendor publishes.
 * Clocks are cudaDevAttrClockRate / cudaDevAttrMemoryClockRate (kHz) as deviceQuery prints them
 * ("GPU Max Clock rate", "Memory Clock rate", "Memory Bus Width"). Fermi reports the shader clock.
 * GDDR5/6/6X/7 memory clocks are half the per-pin data rate (GTX 980: 3505 MHz for 7 Gbps; RTX
 * 4090: 10501 MHz for 21 Gbps). For the RTX 5090 the memory clock is derived from its 28 Gbps by
 * that rule, not copied from a deviceQuery print-out. */
struct card {
    const char *name;
    int major, minor, sms, clk_khz, memclk_khz, bus_bits;
    size_t mem;
    int cores_per_sm;     /* from the architecture whitepaper */
    double vendor_gflops; /* published FP32 peak (per GPU) */
    double vendor_gbps;   /* published memory bandwidth (per GPU) */
    double tol;           /* allowed relative difference, see the card's comment */
};

static const struct card cards[] = {
    /* NVS 310 (GF119): 48 CUDA cores, 1046 MHz shader clock, 64-bit DDR3 at 875 MHz, 14 GB/s
     * (NVIDIA NVS 310 data sheet). NVIDIA publishes no FLOP figure: 48 × 1.046 GHz × 2. */
    {"NVS 310", 2, 1, 1, 1046000, 875000, 64, 536870912, 48, 100.4, 14.0, 0.03},
    /* Quadro K2100M (GK106): 576 cores at 667 MHz, 128-bit GDDR5 at 3 Gbps: 48 GB/s (NVIDIA
     * product page); 768.4 GFLOPS (TechPowerUp GPU database). */
    {"Quadro K2100M", 3, 0, 3, 667000, 1502000, 128, 2147483648u, 192, 768.4, 48.0, 0.03},
    /* Tesla K40m: 2880 cores at 745 MHz base = 4.29 TFLOPS, 288 GB/s (Tesla K40 data sheet). */
    {"Tesla K40m", 3, 5, 15, 745000, 3004000, 384, 11996954624u, 192, 4290.0, 288.0, 0.03},
    /* Tesla K80, one of its two GK210s: NVIDIA's 8.73 TFLOPS per board is at the 875 MHz
     * boost clock, but CUDA reports 824 MHz, so ours is 5.8% lower (documented, hence 7%);
     * 480 GB/s per board = 240 per GPU (Tesla K80 data sheet). */
    {"Tesla K80", 3, 7, 13, 823500, 2505000, 384, 11996954624u, 192, 4365.0, 240.0, 0.07},
    /* GeForce GTX 980: 2048 cores, 1216 MHz boost: 4981 GFLOPS (4612 at the 1126 MHz base);
     * 224 GB/s (NVIDIA GTX 980 specifications). */
    {"GeForce GTX 980", 5, 2, 16, 1216000, 3505000, 256, 4294967296u, 128, 4981.0, 224.0, 0.03},
    /* Tesla P100-PCIE-16GB: 9.3 TFLOPS, 732 GB/s (Tesla P100 data sheet); CUDA reports
     * 1329 MHz, NVIDIA's figure uses 1303 MHz: 2.4% apart. */
    {"Tesla P100-PCIE-16GB", 6, 0, 56, 1328500, 715000, 4096, 17071734784u, 64, 9300.0, 732.0,
     0.03},
    /* Tesla V100-SXM2-16GB: 15.7 TFLOPS, 900 GB/s (Tesla V100 data sheet). */
    {"Tesla V100-SXM2-16GB", 7, 0, 80, 1530000, 877000, 4096, 16945512448u, 64, 15700.0, 900.0,
     0.03},
    /* Tesla T4: 8.1 TFLOPS, 320 GB/s (T4 data sheet). */
    {"Tesla T4", 7, 5, 40, 1590000, 5001000, 256, 15843721216u, 64, 8100.0, 320.0, 0.03},
    /* A100-SXM4-40GB: 19.5 TFLOPS, 1555 GB/s (A100 data sheet). */
    {"A100-SXM4-40GB", 8, 0, 108, 1410000, 1215000, 5120, 42505273344u, 64, 19500.0, 1555.0, 0.03},
    /* GeForce RTX 4090: 82.6 TFLOPS, 1008 GB/s (Ada architecture whitepaper, appendix). */
    {"NVIDIA GeForce RTX 4090", 8, 9, 128, 2520000, 10501000, 384, 25386352640u, 128, 82600.0,
     1008.0, 0.03},
    /* H100 80GB HBM3 (SXM5): 67 TFLOPS, 3.35 TB/s (H100 data sheet). */
    {"NVIDIA H100 80GB HBM3", 9, 0, 132, 1980000, 2619000, 5120, 85029158912u, 128, 67000.0, 3350.0,
     0.03},
    /* GeForce RTX 5090: 104.8 TFLOPS, 1792 GB/s (NVIDIA RTX 5090 specifications). */
    {"NVIDIA GeForce RTX 5090", 12, 0, 170, 2407000, 14001000, 512, 34190917632u, 128, 104800.0,
     1792.0, 0.03},
};
enum { NCARDS = sizeof cards / sizeof cards[0] };

static struct gpu_props props_of(const struct card *c) {
    struct gpu_props p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", c->name);
    p.cc_major = c->major;
    p.cc_minor = c->minor;
    p.sm_count = c->sms;
    p.core_clock_khz = c->clk_khz;
    p.mem_clock_khz = c->memclk_khz;
    p.mem_bus_bits = c->bus_bits;
    p.global_mem = c->mem;
    return p;
}

static const struct card *card(const char *name) {
    for (int i = 0; i < NCARDS; i++)
        if (strstr(cards[i].name, name))
            return &cards[i];
    return NULL;
}

static void test_peaks(void) {
    for (int i = 0; i < NCARDS; i++) {
        const struct card *c = &cards[i];
        struct gpu_props p = props_of(c);
        int cores = gpu_cores_per_sm(c->major, c->minor);
        CHECK_MSG(cores == c->cores_per_sm, "%s: cores/SM %d want %d", c->name, cores,
                  c->cores_per_sm);
        double gf = gpu_peak_gflops(&p), gb = gpu_peak_gbps(&p);
        /* The formula itself, exactly. */
        double want_gf = 2.0 * c->sms * c->cores_per_sm * (c->clk_khz / 1e6);
        double want_gb = 2.0 * (c->memclk_khz * 1e3) * c->bus_bits / 8.0 / 1e9;
        CHECK_MSG(fabs(gf - want_gf) < 1e-6 * want_gf, "%s: %.3f GFLOP/s want %.3f", c->name, gf,
                  want_gf);
        CHECK_MSG(fabs(gb - want_gb) < 1e-6 * want_gb, "%s: %.3f GB/s want %.3f", c->name, gb,
                  want_gb);
        /* Against what the vendor publishes. */
        CHECK_MSG(fabs(gf / c->vendor_gflops - 1.0) <= c->tol, "%s: %.1f GFLOP/s vs vendor %.1f",
                  c->name, gf, c->vendor_gflops);
        CHECK_MSG(fabs(gb / c->vendor_gbps - 1.0) <= c->tol, "%s: %.1f GB/s vs vendor %.1f",
                  c->name, gb, c->vendor_gbps);
    }
    /* Unknown architectures give 0 (no made-up peak); an unlisted minor takes the newest listed
     * one below it in the same major. */
    CHECK_MSG(gpu_cores_per_sm(1, 3) == 0, "Tesla 1.x is not in the table");
    CHECK_MSG(gpu_cores_per_sm(13, 0) == 0, "a future major is unknown");
    CHECK_MSG(gpu_cores_per_sm(8, 8) == 128, "8.8 falls back to 8.7");
    CHECK_MSG(gpu_cores_per_sm(2, 0) == 32, "Fermi GF100");
    struct gpu_props none;
    memset(&none, 0, sizeof none);
    none.cc_major = 13;
    none.sm_count = 10;
    none.core_clock_khz = 1000000;
    CHECK_MSG(gpu_peak_gflops(&none) == 0.0, "unknown arch: peak 0");
    CHECK_MSG(gpu_peak_gbps(&none) == 0.0, "no memory clock: peak 0");
}

static void test_tags(void) {
    char s[256];
    gpu_cc_string(2, 1, s, sizeof s);
    CHECK_STR(s, "2.1");
    gpu_cc_string(12, 0, s, sizeof s);
    CHECK_STR(s, "12.0");
    gpu_cuda_version_string(12080, s, sizeof s);
    CHECK_STR(s, "12.8");
    gpu_cuda_version_string(8000, s, sizeof s);
    CHECK_STR(s, "8.0");
    gpu_cuda_version_string(0, s, sizeof s);
    CHECK_STR(s, "none");

    /* /proc/driver/nvidia/version of a proprietary and of an open kernel module. */
    CHECK_MSG(gpu_parse_nvrm_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.256.02  "
                                     "Thu May  2 14:37:44 UTC 2024\nGCC version:  gcc version 9\n",
                                     s, sizeof s) == 0,
              "470");
    CHECK_STR(s, "470.256.02");
    CHECK_MSG(gpu_parse_nvrm_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                     "570.86.15  Release Build  (dvs-builder@U16)\n",
                                     s, sizeof s) == 0,
              "570 open");
    CHECK_STR(s, "570.86.15");
    CHECK_MSG(gpu_parse_nvrm_version("garbage\n", s, sizeof s) == -1 && s[0] == '\0', "garbage");
    CHECK_MSG(gpu_parse_nvrm_version(NULL, s, sizeof s) == -1, "NULL");
    gpu_driver_string("470.256.02", 11040, s, sizeof s);
    CHECK_STR(s, "470.256.02 (CUDA 11.4)");
    gpu_driver_string(NULL, 13000, s, sizeof s);
    CHECK_STR(s, "CUDA 13.0");

    int maj, min, pat;
    gpu_cudnn_version_split(7605, &maj, &min, &pat);
    CHECK_MSG(maj == 7 && min == 6 && pat == 5, "7605 → %d.%d.%d", maj, min, pat);
    gpu_cudnn_version_split(8907, &maj, &min, &pat);
    CHECK_MSG(maj == 8 && min == 9 && pat == 7, "8907 → %d.%d.%d", maj, min, pat);
    gpu_cudnn_version_split(91900, &maj, &min, &pat);
    CHECK_MSG(maj == 9 && min == 19 && pat == 0, "91900 → %d.%d.%d", maj, min, pat);
    gpu_cudnn_lib_string(91900, 91300, s, sizeof s);
    CHECK_STR(s, "cuDNN 9.19.0 (built 9.13.0)");
    gpu_cudnn_lib_string(7605, 7605, s, sizeof s);
    CHECK_STR(s, "cuDNN 7.6.5 (built 7.6.5)");
    gpu_cudnn_lib_string(0, 0, s, sizeof s);
    CHECK_STR(s, "none (built without cuDNN)");
    gpu_cudnn_lib_string(0, 8907, s, sizeof s);
    CHECK_STR(s, "cuDNN not loadable (built 8.9.7)");
    gpu_cublas_lib_string(13, 1, 0, 1, s, sizeof s);
    CHECK_STR(s, "cuBLAS 13.1.0 (emulation variables set: math per row)");
    gpu_cublas_lib_string(10, 2, 2, 0, s, sizeof s);
    CHECK_STR(s, "cuBLAS 10.2.2 (default math)");

    struct gpu_props p = props_of(card("K40m"));
    p.ecc = 1;
    snprintf(p.pci_bus_id, sizeof p.pci_bus_id, "0000:82:00.0");
    gpu_extra_string(&p, "10-19", s, sizeof s);
    CHECK_STR(s, "sm=15 clk=745MHz memclk=3004MHz bus=384b mem=11.2GiB ecc=on pci=0000:82:00.0 "
                 "watchdog=no bind=10-19");
    p = props_of(card("NVS 310"));
    p.kernel_timeout = 1;
    gpu_extra_string(&p, NULL, s, sizeof s);
    CHECK_STR(s, "sm=1 clk=1046MHz memclk=875MHz bus=64b mem=0.5GiB ecc=off pci=? watchdog=yes "
                 "bind=none");
    /* 160 bytes (DEV_STR) hold the longest realistic line. */
    p = props_of(card("H100"));
    snprintf(p.pci_bus_id, sizeof p.pci_bus_id, "00000000:1B:00.0");
    gpu_extra_string(&p, "0-27,56-83", s, sizeof s);
    CHECK_MSG(strlen(s) < 160, "extra is %zu chars: %s", strlen(s), s);
    /* a simulated device (tests/sim) says so on every row it measures */
    snprintf(p.name, sizeof p.name, "simulated NVIDIA H100 80GB HBM3");
    gpu_extra_string(&p, "0-27,56-83", s, sizeof s);
    CHECK_HAS(s, "bind=0-27,56-83; simulated device: times are CPU-emulation times");
    CHECK_MSG(strlen(s) < 320, "extra is %zu chars, more than struct device holds: %s", strlen(s),
              s);
    CHECK(strstr(s, "MIG") == NULL);
    /* a MIG instance: its peaks and telemetry are partly the whole GPU's, and every row says so */
    snprintf(p.name, sizeof p.name, "NVIDIA H100 80GB HBM3 MIG 1g.10gb");
    p.sm_count = 16;
    gpu_extra_string(&p, "0-27,56-83", s, sizeof s);
    CHECK_HAS(s, "sm=16 ");
    CHECK_HAS(s, "; a MIG slice: the memory peak and the telemetry are the whole GPU's");
    CHECK_MSG(strlen(s) < 320, "extra is %zu chars: %s", strlen(s), s);
}

/* cudnnGetVersion numbers and cudnnGetCudartVersion of real releases. */
enum {
    CUDNN_765 = 7605,  /* 7.6.5 for CUDA 10.2 */
    CUDNN_850 = 8500,  /* 8.5.0 for CUDA 11.x */
    CUDNN_870 = 8700,  /* 8.7.0 for CUDA 11.x: the last with sm_35 code */
    CUDNN_881 = 8801,  /* 8.8.1 for CUDA 11.x: none */
    CUDNN_897 = 8907,  /* 8.9.7 for CUDA 11.x/12.x */
    CUDNN_910 = 91000, /* 9.10.x for CUDA 12.x: the last with Maxwell/Pascal/Volta */
    CUDNN_919 = 91900, /* 9.19.0 for CUDA 13.x (the one installed here) */
};

static void test_cudnn_support(void) {
    char note[512];
    struct {
        const char *card;
        long cudnn;
        int cudart;
        enum status want;
        const char *note_has;
    } cases[] = {
        {"NVS 310", CUDNN_765, 10020, ST_UNSUPPORTED, "Fermi"},
        {"NVS 310", CUDNN_919, 13000, ST_UNSUPPORTED, "never"},
        {"K2100M", CUDNN_765, 10020, ST_OK, NULL},
        {"K2100M", CUDNN_850, 11070, ST_UNSUPPORTED, "sm_30"},
        {"K40m", CUDNN_850, 11070, ST_OK, NULL},
        {"K40m", CUDNN_919, 13000, ST_UNSUPPORTED, "sm_35"},
        {"K80", CUDNN_850, 11070, ST_OK, NULL},
        {"K40m", CUDNN_870, 11080, ST_OK, NULL},
        {"K80", CUDNN_870, 11080, ST_OK, NULL},
        {"K40m", CUDNN_881, 11080, ST_UNSUPPORTED, "sm_35"},
        {"K80", CUDNN_897, 11080, ST_UNSUPPORTED, "sm_37"},
        {"GTX 980", CUDNN_910, 12090, ST_OK, NULL},
        {"GTX 980", CUDNN_919, 13000, ST_UNSUPPORTED, "sm_52"},
        {"P100", CUDNN_897, 12020, ST_OK, NULL},
        {"P100", CUDNN_919, 13000, ST_UNSUPPORTED, "sm_60"},
        {"V100", CUDNN_910, 12090, ST_OK, NULL},
        {"V100", CUDNN_919, 13000, ST_UNSUPPORTED, "sm_70"},
        {"T4", CUDNN_919, 13000, ST_OK, NULL},
        {"A100", CUDNN_919, 13000, ST_OK, NULL},
        {"4090", CUDNN_919, 13000, ST_OK, NULL},
        {"H100", CUDNN_919, 13000, ST_OK, NULL},
        {"5090", CUDNN_919, 13000, ST_OK, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct card *c = card(cases[i].card);
        note[0] = '\0';
        enum status st = gpu_cudnn_check(c->major, c->minor, c->name, cases[i].cudnn,
                                         cases[i].cudart, note, sizeof note);
        CHECK_MSG(st == cases[i].want, "%s with cuDNN %ld: %s (%s)", c->name, cases[i].cudnn,
                  status_name(st), note);
        if (cases[i].note_has) {
            CHECK_HAS(note, cases[i].note_has);
            CHECK_HAS(note, c->name);
        }
    }
}

/* The three answers: known yes, known no, unknown. The MLP's cuDNN path is taken only on "yes"
 * (the cuBLAS MLP row); a cuDNN row tries on "unknown" and says so. Once, -1 ("unknown")
 * was taken for "yes". */
static void test_cudnn_unknown(void) {
    char note[512] = "";
    /* cuDNN 9.12 for CUDA 12 has not been verified on Maxwell to Volta (cuda_facts.c). */
    CHECK(gpu_cudnn_support(7, 0, "V100", 91200, 12090, note, sizeof note) == -1);
    CHECK_HAS(note, "not known");
    CHECK_HAS(note, "V100");
    note[0] = '\0';
    CHECK(gpu_cudnn_check(7, 0, "V100", 91200, 12090, note, sizeof note) == ST_OK);
    CHECK_HAS(note, "not known");
    CHECK(gpu_cudnn_support(7, 5, "T4", 91200, 12090, note, sizeof note) == 1);
    CHECK(gpu_cudnn_support(3, 5, "K40m", 91200, 12090, note, sizeof note) == 0);
    CHECK(gpu_cudnn_check(3, 5, "K40m", 91200, 12090, note, sizeof note) == ST_UNSUPPORTED);
}

static void test_algo_pick(void) {
    const size_t MiB = 1 << 20;
    /* cudnnFind results for a 3×3 convolution as a Kepler card might list them (time order). */
    struct gpu_algo_result found[] = {
        {6, 1, 0.80f, 300 * MiB}, /* WINOGRAD: fastest, but big workspace */
        {1, 1, 1.10f, 2 * MiB},   /* IMPLICIT_PRECOMP_GEMM */
        {5, 1, 1.10f, 1 * MiB},   /* FFT_TILING: same time, smaller workspace */
        {0, 1, 2.50f, 0},         /* IMPLICIT_GEMM */
        {4, 0, -1.0f, 0},         /* FFT: failed (status not success) */
    };
    CHECK_MSG(gpu_pick_algo(found, 5, 1024 * MiB) == 0, "plenty of memory: fastest");
    CHECK_MSG(gpu_pick_algo(found, 5, 100 * MiB) == 2, "bounded: fastest that fits, ties smaller");
    CHECK_MSG(gpu_pick_algo(found, 5, 0) == 3, "no workspace: the zero-workspace one");
    struct gpu_algo_result failed[] = {{4, 0, 1.0f, 0}, {6, 1, 0.5f, 64 * MiB}};
    CHECK_MSG(gpu_pick_algo(failed, 2, 32 * MiB) == -1, "nothing fits: -1");
    CHECK_MSG(gpu_pick_algo(failed, 0, 32 * MiB) == -1, "no results: -1");
    /* Heuristic results (cudnnGetConvolutionForwardAlgorithm_v7) carry no time: keep cuDNN's
     * order, skipping what does not fit. */
    struct gpu_algo_result heur[] = {
        {7, 1, -1.0f, 900 * MiB}, {1, 1, -1.0f, 8 * MiB}, {0, 1, -1.0f, 0}};
    CHECK_MSG(gpu_pick_algo(heur, 3, 448 * MiB) == 1, "heuristic order");

    /* Workspace bound: a 512 MiB card with 500 MiB free keeps 64 MiB back; a 40 GiB card keeps
     * 10%; below the reserve nothing is left. */
    CHECK_MSG(gpu_workspace_limit(500 * MiB) == 436 * MiB, "512 MiB card");
    CHECK_MSG(gpu_workspace_limit(40960 * MiB) == 40960 * MiB - 4096 * MiB, "A100");
    CHECK_MSG(gpu_workspace_limit(32 * MiB) == 0, "below reserve");

    CHECK_STR(gpu_cudnn_fwd_algo_name(0), "IMPLICIT_GEMM");
    CHECK_STR(gpu_cudnn_fwd_algo_name(1), "IMPLICIT_PRECOMP_GEMM");
    CHECK_STR(gpu_cudnn_fwd_algo_name(7), "WINOGRAD_NONFUSED");
    CHECK_STR(gpu_cudnn_fwd_algo_name(8), "UNKNOWN");
    CHECK_STR(gpu_cudnn_fwd_algo_name(-1), "UNKNOWN");
}

static void test_errors(void) {
    struct {
        const char *name;
        enum status st;
        int sticky;
    } cases[] = {
        {"cudaErrorMemoryAllocation", ST_OOM, 0},
        {"CUBLAS_STATUS_ALLOC_FAILED", ST_OOM, 0},
        {"CUDNN_STATUS_ALLOC_FAILED", ST_OOM, 0},
        {"CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED", ST_OOM, 0},   /* cuDNN 9 */
        {"CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", ST_OOM, 0}, /* cuDNN 9 */
        {"CUDNN_STATUS_INTERNAL_ERROR", ST_ERROR, 0},
        {"cudaErrorNoKernelImageForDevice", ST_UNSUPPORTED, 0},
        {"cudaErrorInvalidDeviceFunction", ST_UNSUPPORTED, 0}, /* CUDA < 10.1 wording */
        {"cudaErrorUnsupportedPtxVersion", ST_UNSUPPORTED, 0},
        {"CUBLAS_STATUS_ARCH_MISMATCH", ST_UNSUPPORTED, 0},
        {"CUDNN_STATUS_ARCH_MISMATCH", ST_UNSUPPORTED, 0},
        {"CUDNN_STATUS_NOT_SUPPORTED", ST_UNSUPPORTED, 0},
        {"CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", ST_UNSUPPORTED, 0}, /* cuDNN 9 */
        {"cudaErrorLaunchTimeout", ST_TIMEOUT, 1},
        {"cudaErrorIllegalAddress", ST_ERROR, 1},
        {"cudaErrorLaunchFailure", ST_ERROR, 1},
        {"cudaErrorMisalignedAddress", ST_ERROR, 1},
        {"cudaErrorAssert", ST_ERROR, 1},
        {"cudaErrorECCUncorrectable", ST_ERROR, 1},
        {"cudaErrorLaunchOutOfResources", ST_ERROR, 0},
        {"cudaErrorInvalidValue", ST_ERROR, 0},
        {"CUBLAS_STATUS_EXECUTION_FAILED", ST_ERROR, 0},
        {"CUDNN_STATUS_BAD_PARAM", ST_ERROR, 0},
        {"", ST_ERROR, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_MSG(gpu_error_status(cases[i].name) == cases[i].st, "%s → %s", cases[i].name,
                  status_name(gpu_error_status(cases[i].name)));
        CHECK_MSG(gpu_error_is_sticky(cases[i].name) == cases[i].sticky, "%s sticky",
                  cases[i].name);
    }
    CHECK_MSG(gpu_error_status(NULL) == ST_ERROR && !gpu_error_is_sticky(NULL), "NULL");
}

static void test_no_image_notes(void) {
    char s[320];
    const char *cuda13 = "75-real;80-real;86-real;89-real;90-real;100-real;120";
    gpu_archs_plain(cuda13, s, sizeof s);
    CHECK_STR(s, "75 80 86 89 90 100 120");
    gpu_archs_plain("", s, sizeof s);
    CHECK_STR(s, "");
    gpu_archs_plain("35-virtual;52", s, sizeof s);
    CHECK_STR(s, "35 52");
    gpu_archs_plain("89-real;90a-real;90-virtual;100f", s, sizeof s); /* suffixes kept */
    CHECK_STR(s, "89 90a 90 100f");

    const struct card *k40 = card("K40m");
    gpu_no_image_note(k40->major, k40->minor, cuda13, "13.0", s, sizeof s);
    CHECK_STR(s, "no kernel image for sm_35 in this build (built for 75 80 86 89 90 100 120); "
                 "rebuild with CUDA 11.8 and -DCMAKE_CUDA_ARCHITECTURES=35");
    gpu_no_image_note(2, 1, cuda13, "13.0", s, sizeof s);
    CHECK_HAS(s, "sm_21");
    CHECK_HAS(s, "rebuild with CUDA 8.0 and -DCMAKE_CUDA_ARCHITECTURES=20");
    gpu_no_image_note(3, 0, cuda13, "13.0", s, sizeof s);
    CHECK_HAS(s, "rebuild with CUDA 10.2 and -DCMAKE_CUDA_ARCHITECTURES=30");
    gpu_no_image_note(3, 7, cuda13, "13.0", s, sizeof s);
    CHECK_HAS(s, "rebuild with CUDA 11.8 and -DCMAKE_CUDA_ARCHITECTURES=37");
    gpu_no_image_note(5, 2, cuda13, "13.0", s, sizeof s);
    CHECK_HAS(s, "rebuild with CUDA 12.9 and -DCMAKE_CUDA_ARCHITECTURES=52");
    /* A T4 on a build that left sm_75 out: the build's own toolkit can do it. */
    gpu_no_image_note(7, 5, "80-real;90", "13.0", s, sizeof s);
    CHECK_STR(s, "no kernel image for sm_75 in this build (built for 80 90); rebuild with "
                 "-DCMAKE_CUDA_ARCHITECTURES=75");
    /* A K40m on a CUDA 11.8 build that left it out: no toolkit change needed. */
    gpu_no_image_note(3, 5, "80", "11.8", s, sizeof s);
    CHECK_HAS(s, "rebuild with -DCMAKE_CUDA_ARCHITECTURES=35");

    /* The PTX a device can JIT (CUDA_FORCE_PTX_JIT=1, the startup rows): CUDA 13's default list
     * carries PTX of 120 only, which an H100 (90) cannot JIT; a "-real" entry is no PTX; 90a is
     * PTX only a 9.0 card runs, never counted. */
    CHECK(gpu_archs_ptx_for(cuda13, 90) == 0);
    CHECK(gpu_archs_ptx_for(cuda13, 120) == 120);
    CHECK(gpu_archs_ptx_for("90", 90) == 90);
    CHECK(gpu_archs_ptx_for("90-real", 90) == 0);
    CHECK(gpu_archs_ptx_for("75-real;90-real;120;75-virtual", 90) == 75);
    CHECK(gpu_archs_ptx_for("35-real;37-real;50-real;60-real;70-real;75-real;80-real;86-real;"
                            "89-real;90",
                            37) == 0);
    CHECK(gpu_archs_ptx_for("90a-real;90a", 90) == 0);
    CHECK(gpu_archs_ptx_for("", 90) == 0 && gpu_archs_ptx_for(NULL, 90) == 0);
}

static void test_no_device(void) {
    char s[600];
    /* GPUBENCH_TEST_SYSFS_PCI (tests/gpuinfo/CMakeLists.txt): a card whose driver is not loaded */
    gpu_no_device_reason("cudaErrorStubLibrary", 0, 13000, s, sizeof s);
    CHECK_HAS(s, "An NVIDIA GPU at PCI 0000:3b:00.0 with no driver loaded");
    CHECK_HAS(s, "cudaErrorStubLibrary");
    gpu_no_device_reason("cudaErrorInsufficientDriver", 0, 13000, s, sizeof s);
    CHECK_HAS(s, "An NVIDIA GPU at PCI 0000:3b:00.0 with no driver loaded");
    /* A real driver that is too old is not "no driver". */
    gpu_no_device_reason("cudaErrorInsufficientDriver", 11040, 13000, s, sizeof s);
    CHECK_MSG(strstr(s, "No NVIDIA driver") == NULL, "old driver worded as none: %s", s);
    CHECK_HAS(s, "11.4");
    /* the run's line sends the user to doctor, which names each card through the driver's NVML
     * and the command for it; the whole sentence fits */
    CHECK_HAS(s, "gpubench doctor names each card and the command to rebuild with. "
                 "[cudaGetDeviceCount: cudaErrorInsufficientDriver]");
    gpu_no_device_reason("cudaErrorInsufficientDriver", 0, 13000, s, sizeof s);
    CHECK_MSG(strstr(s, "gpubench doctor") == NULL, "no driver sent to doctor: %s", s);
    gpu_no_device_reason(NULL, 12080, 13000, s, sizeof s);
    CHECK_HAS(s, "cudaErrorNoDevice");
}

/* Peaks per tier against the data sheets: FP64 of the Teslas and the GeForce caps, tensor
 * FP16/TF32 with FP32 accumulation. Within 3% where the card list's FP32 is. */
static void test_tier_peaks(void) {
    static const struct {
        const char *card;
        enum dtype t;
        double want, tol;
    } want[] = {
        {"K40m", DT_F64, 1430.0, 0.03},   /* Tesla K40: 1.43 TFLOPS FP64 at base clock */
        {"K80", DT_F64, 1455.0, 0.07},    /* 2.91 TFLOPS per board at boost: see the card */
        {"K2100M", DT_F64, 32.0, 0.03},   /* GK106: 1/24 */
        {"NVS 310", DT_F64, 8.4, 0.03},   /* GF119: 1/12 */
        {"GTX 980", DT_F64, 155.6, 0.03}, /* GM204: 1/32 */
        {"P100", DT_F64, 4650.0, 0.03},   /* P100 PCIe: 4.7 TFLOPS */
        {"V100", DT_F64, 7850.0, 0.03},   /* V100 SXM2: 7.8 TFLOPS */
        {"V100", DT_F16, 125600.0, 0.03}, /* 125 TFLOPS tensor */
        {"A100", DT_F64, 19500.0, 0.03},  /* 19.5 TFLOPS FP64 tensor core (9.7 without) */
        {"H100", DT_F64, 67000.0, 0.03},  /* H100 SXM: 67 TFLOPS FP64 tensor core (34 without) */
        {"P100", DT_F16, 9300.0, 0.03},   /* FP32 accumulation: the FP32 units, not half2's 2× */
        {"A100", DT_TF32, 156000.0, 0.03}, {"A100", DT_BF16, 312000.0, 0.03},
        {"RTX 4090", DT_F64, 1290.0, 0.03}, /* 1/64 */
        {"T4", DT_F16, 64800.0, 0.03},      /* 65 TFLOPS */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct gpu_props p = props_of(card(want[i].card));
        double got = gpu_peak_tier_gflops(&p, want[i].t);
        CHECK_MSG(fabs(got - want[i].want) <= want[i].tol * want[i].want, "%s %s: %.1f, want %.1f",
                  want[i].card, dtype_flag(want[i].t), got, want[i].want);
    }
    struct gpu_props p = props_of(card("K40m"));
    CHECK(gpu_peak_tier_gflops(&p, DT_BF16) == 0 && gpu_peak_tier_gflops(&p, DT_F16) == 0);
    snprintf(p.name, sizeof p.name, "GeForce GTX 780"); /* GK110 GeForce: FP64 capped at 1/24 */
    CHECK(fabs(gpu_peak_tier_gflops(&p, DT_F64) - 4290.0 / 24) < 5);
    CHECK(gpu_peak_tier_gflops(&p, DT_F32) == gpu_peak_gflops(&p));
    /* 6.1 (GP10x) does half2 at 1/64 of FP32, but the FP16 tier accumulates in FP32: divided by
     * the half2 rate, its rows read thousands of percent. */
    p = props_of(card("GTX 980"));
    p.cc_major = 6, p.cc_minor = 1;
    CHECK(gpu_peak_tier_gflops(&p, DT_F16) == gpu_peak_gflops(&p));
    p.cc_minor = 2; /* 6.2's half2 runs at 2× FP32: the tier still cannot use it */
    CHECK(gpu_peak_tier_gflops(&p, DT_F16) == gpu_peak_gflops(&p));
    p.cc_major = 5, p.cc_minor = 2; /* no FP16 tier below 5.3 */
    CHECK(gpu_peak_tier_gflops(&p, DT_F16) == 0);
}

/* gb_malloc's decision (kernels/common/cuda_impl.c): a row that can never fit what the card
 * gives a process is unsupported with both sizes — the sweep on a 512 MiB card of the issue —
 * one that does not fit now is oom. */
static void test_memory_fit(void) {
    const size_t MiB = 1 << 20, U = 486 * MiB; /* a 512 MiB card whose context takes 26 MiB */
    char note[512];
    CHECK(gpu_memory_fit(0, 256 * MiB, 500 * MiB, 0, 512 * MiB, "a", note, sizeof note) == ST_OK);
    CHECK(gpu_memory_fit(256 * MiB, 256 * MiB, 256 * MiB, 0, 512 * MiB, "b", note, sizeof note) ==
          ST_OK);
    CHECK(gpu_memory_fit(512 * MiB, 256 * MiB, 0, 0, 512 * MiB, "c", note, sizeof note) ==
          ST_UNSUPPORTED);
    CHECK_MSG(!strcmp(note, "does not fit this card: needs at least 768.0 MiB of device memory "
                            "(c: 256.0 MiB); the card has 512.0 MiB, 512.0 MiB of it for a "
                            "process"),
              "%s", note);
    /* the "b needs 256.0 MiB, 230.4 MiB free of 512.0 MiB": a + b exceed what the card
     * gives a process, so b can never fit: unsupported, not oom */
    CHECK(gpu_memory_fit(256 * MiB, 256 * MiB, 230 * MiB, U, 512 * MiB, "b", note, sizeof note) ==
          ST_UNSUPPORTED);
    CHECK_MSG(strstr(note, "the card has 512.0 MiB, 486.0 MiB of it for a process"), "%s", note);
    CHECK(gpu_memory_fit(0, 300 * MiB, 200 * MiB, U, 512 * MiB, "x", note, sizeof note) == ST_OOM);
    CHECK_MSG(strstr(note, "out of device memory: x needs 300.0 MiB, 200.0 MiB free of 512.0 MiB"),
              "%s", note);
    /* the whole footprint, before anything is allocated */
    CHECK(gpu_footprint_fit(U, U, 512 * MiB, "a, b, c", note, sizeof note) == ST_OK);
    CHECK(gpu_footprint_fit(768 * MiB, U, 512 * MiB, "a, b, c", note, sizeof note) ==
          ST_UNSUPPORTED);
    CHECK_MSG(!strcmp(note, "does not fit this card: the row needs at least 768.0 MiB of device "
                            "memory (a, b, c); the card has 512.0 MiB, 486.0 MiB of it for a "
                            "process (the rest: the CUDA context)"),
              "%s", note);
    CHECK(gpu_footprint_fit(500 * MiB, 0, 512 * MiB, "x", note, sizeof note) == ST_OK);
}

int main(void) {
    test_memory_fit();
    test_peaks();
    test_tier_peaks();
    test_tags();
    test_cudnn_support();
    test_cudnn_unknown();
    test_algo_pick();
    test_errors();
    test_no_image_notes();
    test_no_device();
    return TEST_END();
}
