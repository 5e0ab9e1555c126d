/* gpu_peak.c — FP32 cores per SM by compute capability, and the peak FLOP/s and bytes/s of a
 * CUDA device computed from its properties. Pure C: built and tested in every build.
 *
 * Sources for the cores-per-SM table (FP32 add/multiply/FMA results per clock per SM):
 *  - CUDA C++ Programming Guide, "Arithmetic Instructions", table "Throughput of Native
 *    Arithmetic Instructions" (2.0: 32; 2.1: 48; 3.x: 192; 5.x: 128; 6.0: 64; 6.1/6.2: 128;
 *    7.x: 64; 8.0: 64; 8.6/8.7/8.9: 128; 9.0: 128; 10.x, 12.x: 128).
 *  - The architecture whitepapers agree: GF100 "Fermi" (32 cores/SM), GF104 (48), GK110
 *    "Kepler" SMX (192), GM204 "Maxwell" SMM (128), GP100 (64), GP104 (128), GV100 (64),
 *    TU102 (64), GA100 (64), GA102 (128), AD102 (128), GH100 (128), GB202 (128).
 *  - cuda-samples Common/helper_cuda.h, _ConvertSMVer2Cores, for the Jetson and Blackwell
 *    minor versions (3.2, 5.3, 6.2, 7.2, 8.7, 10.1/11.0 Thor, 10.3, 12.1).
 */
#include "harness/gpuinfo/gpu_props.h"
#include "harness/gpuinfo/gpu_tier.h"

#include <string.h>

struct sm_cores {
    int major, minor, cores;
};

static const struct sm_cores sm_cores_table[] = {
    {2, 0, 32},   /* Fermi GF100/GF110 (GTX 480/580, Tesla C2050) */
    {2, 1, 48},   /* Fermi GF104–GF119 (NVS 310, GTX 460) */
    {3, 0, 192},  /* Kepler GK104/GK106/GK107 (GTX 680, K2100M) */
    {3, 2, 192},  /* Kepler GK20A (Tegra K1) */
    {3, 5, 192},  /* Kepler GK110 (K20, K40, GTX 780) */
    {3, 7, 192},  /* Kepler GK210 (K80) */
    {5, 0, 128},  /* Maxwell GM107/GM108 */
    {5, 2, 128},  /* Maxwell GM200/GM204/GM206 (GTX 980, M40) */
    {5, 3, 128},  /* Maxwell GM20B (Tegra X1) */
    {6, 0, 64},   /* Pascal GP100 (P100) */
    {6, 1, 128},  /* Pascal GP102–GP108 (GTX 1080, P40) */
    {6, 2, 128},  /* Pascal GP10B (Tegra X2) */
    {7, 0, 64},   /* Volta GV100 (V100) */
    {7, 2, 64},   /* Volta GV10B (Xavier) */
    {7, 5, 64},   /* Turing TU10x (T4, RTX 2080) */
    {8, 0, 64},   /* Ampere GA100 (A100) */
    {8, 6, 128},  /* Ampere GA10x (RTX 3090, A40) */
    {8, 7, 128},  /* Ampere GA10B (Orin) */
    {8, 9, 128},  /* Ada AD10x (RTX 4090, L4, L40) */
    {9, 0, 128},  /* Hopper GH100 (H100, H200) */
    {10, 0, 128}, /* Blackwell GB100/GB200 (B200) */
    {10, 1, 128}, /* Blackwell Thor (called 11.0 from CUDA 13) */
    {10, 3, 128}, /* Blackwell Ultra GB300 */
    {11, 0, 128}, /* Blackwell Thor */
    {12, 0, 128}, /* Blackwell GB20x (RTX 5090, RTX PRO 6000) */
    {12, 1, 128}, /* Blackwell GB10 (DGX Spark) */
};

int gpu_cores_per_sm(int cc_major, int cc_minor) {
    int n = (int)(sizeof sm_cores_table / sizeof sm_cores_table[0]);
    for (int i = 0; i < n; i++)
        if (sm_cores_table[i].major == cc_major && sm_cores_table[i].minor == cc_minor)
            return sm_cores_table[i].cores;
    /* A minor version the table does not list yet: within one major the FP32 width has only
     * changed at x.0 → x.1+ (6.0 → 6.1, 8.0 → 8.6), so the newest listed minor below it is the
     * better guess; an unknown major stays unknown rather than guessed. */
    int best = 0, best_minor = -1;
    for (int i = 0; i < n; i++)
        if (sm_cores_table[i].major == cc_major && sm_cores_table[i].minor < cc_minor &&
            sm_cores_table[i].minor > best_minor) {
            best = sm_cores_table[i].cores;
            best_minor = sm_cores_table[i].minor;
        }
    return best;
}

/* SMs × cores per SM × clock × 2 (an FMA is two FLOPs). The clock is cudaDevAttrClockRate, the
 * maximum (boost) clock the driver reports; on Fermi it is the shader ("hot") clock, twice the
 * core clock, which is the one the FP32 units run at. kHz × 1e3 / 1e9 = GFLOP/s × 1e-6. */
double gpu_peak_gflops(const struct gpu_props *p) {
    int cores = gpu_cores_per_sm(p->cc_major, p->cc_minor);
    if (cores <= 0 || p->sm_count <= 0 || p->core_clock_khz <= 0)
        return 0.0;
    return 2.0 * (double)p->sm_count * cores * (double)p->core_clock_khz * 1e-6;
}

/* 2 transfers per clock × memory clock × bus width / 8 bits. CUDA reports the memory clock so
 * that this holds for every memory type: DDR3 its I/O clock, GDDR5/6/6X/7 half the per-pin data
 * rate (GTX 980: 3505 MHz for 7 Gbps), HBM its I/O clock (V100: 877 MHz × 4096 bits). */
double gpu_peak_gbps(const struct gpu_props *p) {
    if (p->mem_clock_khz <= 0 || p->mem_bus_bits <= 0)
        return 0.0;
    return 2.0 * (double)p->mem_clock_khz * 1e3 * (double)p->mem_bus_bits / 8.0 * 1e-9;
}

/* --- peaks per precision tier ---------------------------------------------------------------
 * Rates as multiples of the same card's FP32 rate (per SM per clock), from:
 *  - FP64: CUDA C++ Programming Guide, "Arithmetic Instructions" throughput table (64-bit
 *    FMA per SM per clock: 2.0 16, 2.1 4, 3.0 8, 3.5/3.7 64, 5.x 4, 6.0 32, 6.1 4, 7.0 32, 7.5 2,
 *    8.0 32, 8.6/8.9 2, 9.0 64, 12.0 2), and the data sheets: GF100/GF110 Tesla 1/2 (C2050:
 *    515 GFLOPS FP64), GeForce GF100/GF110 1/8 (driver-capped), GF10x 1/12, GK110/GK210 Tesla
 *    and TITAN 1/3 (K40: 1.43 TFLOPS), GeForce GK110 1/24, GK10x 1/24, GM20x 1/32, GP100 1/2,
 *    GP10x 1/32, GV100 1/2, TU10x 1/32, GA10x and AD10x 1/64, GB100 1/2, GB20x 1/64. GA100 and
 *    GH100 have FP64 tensor cores (DMMA), which cuBLAS's DGEMM uses: their FP64 ceiling is that
 *    of the tensor cores, equal to FP32 (A100 data sheet: FP64 9.7, FP64 Tensor Core 19.5
 *    TFLOPS; H100 SXM: 34 and 67; H100 PCIe: 26 and 51). An FMA-only FP64 kernel reaches half.
 *  - FP16: the tier's contract is FP32 accumulation (docs/precision.md), so without tensor cores
 *    its arithmetic runs on the FP32 units whatever the card's half2 rate (2× FP32 on 5.3, 6.0,
 *    6.2; 1/64 on 6.1): the FP32 peak. No FP16 tier below 5.3 (harness/gpuinfo/gpu_tier.c).
 *  - Tensor cores, dense, FP32 accumulation (what cublasGemmEx with CUBLAS_COMPUTE_32F runs): V100
 *    125 TFLOPS (8× its FP32), T4 65 (8×), A100 312 FP16/BF16 and 156 TF32 (16× and 8×), A40
 *    150 FP16 and 75 TF32 (4× and 2×), L40 181 FP16 and 90 TF32 (2× and 1×), H100 SXM 989 FP16
 *    and 495 TF32 (16× and 8× per SM-clock), B200 2250 FP16 and 1100 TF32 (per SM-clock 32× and
 *    16×), RTX PRO 6000 Blackwell 4× and 2× (architecture whitepapers and data sheets). GeForce
 *    cards of 7.5, 8.6, 8.9 and 12.0 run FP32-accumulated tensor math at half these rates: their
 *    peak_pct reads low by 2×, which the docs say. */
struct tier_rate {
    int major, minor;
    int fp64_den;     /* FP64 = FP32 / fp64_den (tensor cores included where there are any) */
    double tensor16;  /* tensor FP16/BF16 = tensor16 × FP32 (0: no tensor cores) */
    double tf32;      /* tensor TF32 = tf32 × FP32 (0: none) */
};

static const struct tier_rate tier_rates[] = {
    {2, 0, 2, 0, 0},   {2, 1, 12, 0, 0}, {3, 0, 24, 0, 0}, {3, 2, 24, 0, 0},  {3, 5, 3, 0, 0},
    {3, 7, 3, 0, 0},   {5, 0, 32, 0, 0}, {5, 2, 32, 0, 0}, {5, 3, 32, 0, 0},  {6, 0, 2, 0, 0},
    {6, 1, 32, 0, 0},  {6, 2, 32, 0, 0}, {7, 0, 2, 8, 0},  {7, 2, 32, 8, 0},  {7, 5, 32, 8, 0},
    {8, 0, 1, 16, 8},  {8, 6, 64, 4, 2}, {8, 7, 64, 4, 2}, {8, 9, 64, 2, 1},  {9, 0, 1, 16, 8},
    {10, 0, 2, 32, 16}, {10, 3, 2, 32, 16}, {12, 0, 64, 4, 2}, {12, 1, 64, 4, 2},
};

static const struct tier_rate *tier_rate_of(int major, int minor) {
    const struct tier_rate *best = 0;
    for (size_t i = 0; i < sizeof tier_rates / sizeof tier_rates[0]; i++) {
        const struct tier_rate *r = &tier_rates[i];
        if (r->major == major && r->minor <= minor && (!best || r->minor > best->minor))
            best = r; /* an unlisted minor takes the newest listed one below it */
    }
    return best;
}

/* GeForce boards of the Tesla chips GF100/GF110 (2.0) and GK110 (3.5) have FP64 capped by the
 * driver: 1/8 and 1/24 of FP32 (the GTX TITAN models are the exception, at 1/3). */
static int fp64_den_of(const struct gpu_props *p, const struct tier_rate *r) {
    int geforce = strstr(p->name, "GeForce") != NULL && strstr(p->name, "TITAN") == NULL;
    if (geforce && p->cc_major == 2 && p->cc_minor == 0)
        return 8;
    if (geforce && p->cc_major == 3 && p->cc_minor == 5)
        return 24;
    return r->fp64_den;
}

double gpu_peak_tier_gflops(const struct gpu_props *p, enum dtype t) {
    double fp32 = gpu_peak_gflops(p);
    const struct tier_rate *r = tier_rate_of(p->cc_major, p->cc_minor);
    if (t == DT_F32 || fp32 <= 0 || !r)
        return t == DT_F32 ? fp32 : 0.0;
    int cc = p->cc_major * 10 + p->cc_minor;
    switch (t) {
    case DT_F64: return fp32 / fp64_den_of(p, r);
    case DT_TF32: return fp32 * r->tf32;
    case DT_BF16: return p->cc_major >= 8 ? fp32 * r->tensor16 : 0.0;
    case DT_F16:
        return cc < gpu_tier_min_cc(DT_F16) ? 0.0 : fp32 * (r->tensor16 > 1 ? r->tensor16 : 1);
    default: return 0.0;
    }
}
