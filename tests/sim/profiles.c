/* profiles.c — the cards the simulated device can be (GPUBENCH_SIM=<key>), from real data.
 * Test-only code.
 *
 * Sources, per column:
 *   SMs, clocks (cudaDevAttrClockRate / MemoryClockRate in kHz, as deviceQuery prints "GPU Max
 *     Clock rate" and "Memory Clock rate"; Fermi reports its shader clock; GDDR memory clocks are
 *     half the per-pin data rate), bus width and memory size: the same figures as
 *     tests/gpuinfo/test_gpu_host.c, which checks them against the vendors' data sheets (NVS 310,
 *     K2100M product page, Tesla K40/K80 data sheets, GTX 980 specifications, P100, V100, T4,
 *     A100, H100 data sheets, RTX 5090 specifications; the GTX 1080, which that test lacks:
 *     NVIDIA's GTX 1080 specifications, 20 SMs at 1733 MHz boost, 256-bit GDDR5X at 10 Gbps,
 *     8 GB). Memory sizes with ECC on are deviceQuery's "Total amount of global memory"
 *     (K40m/K80 11996954624, P100-PCIE-16GB 17071734784, V100-SXM2-16GB 16945512448,
 *     T4 15843721216: e.g. the T4 print-out
 *     at chiemon.github.io/2024/12/25, A100-40GB 42505273344, H100 80GB 85029158912); the others
 *     are the marketing size.
 *   Threads, registers and shared memory per SM: the CUDA C++ Programming Guide, "Technical
 *     Specifications per Compute Capability" (2.x 1536 threads, 32 K registers, 48 KiB; 3.0/3.5
 *     2048, 64 K, 48 KiB; 3.7 2048, 128 K, 112 KiB; 5.2 2048, 64 K, 96 KiB; 6.0 2048, 64 K,
 *     64 KiB; 6.1 2048, 64 K, 96 KiB; 7.0 2048, 64 K, 96 KiB; 7.5 1024, 64 K,
 *     64 KiB; 8.0 2048, 64 K, 164 KiB; 9.0 2048, 64 K, 228 KiB; 12.0 1536, 64 K, 100 KiB).
 *     Every profile: 1024 threads and 48 KiB of shared memory per block (without opt-in), block
 *     dimensions 1024 × 1024 × 64, grid x up to 65535 below compute capability 3.0 and
 *     2^31 − 1 from 3.0, grid y and z up to 65535, warp 32.
 *   L2 size: deviceQuery "L2 Cache Size" where quoted above (T4 4 MiB), otherwise the
 *     architecture whitepapers (GK110B 1.5 MiB, GK210 1.5 MiB, GM204 2 MiB, GP100 4 MiB,
 *     GP104 2 MiB, GV100 6 MiB, GA100 40 MiB, GH100 50 MiB, GB202 96 MiB) and the TechPowerUp
 *     GPU database for GF119 (128 KiB) and GK106 as configured in the K2100M (256 KiB).
 *   PCI device ids: the PCI ID repository (pci-ids.ucw.cz), vendor 10de.
 *   ECC: on by default on the Tesla/data-centre boards, absent on the others. Watchdog (kernel
 *     run-time limit): set on the display cards (NVS 310, K2100M, GTX 980, GTX 1080, RTX 5090).
 *   Driver: the last driver branch that supports the card (NVIDIA's "CUDA and Architecture
 *     Matrix", as harness/gpuinfo/cuda_facts.c cites it: Fermi R390 = CUDA 9.1, Kepler R470 =
 *     CUDA 11.4, Maxwell to Volta R580 = CUDA 13.0), or for current cards the driver of this
 *     toolkit (580.65.06, the CUDA 13.0 GA row of the release notes' driver table). The CUDA
 *     version is what cudaDriverGetVersion reports with that driver.
 *   Toolkit (built-for-card): the newest toolkit that still compiles for the card (CUDA 8.0 for
 *     Fermi, 10.2 for sm_30, 11.8 for sm_35/37, 12.9 for Maxwell to Volta; cuda_facts.c's table).
 */
#include <string.h>

#include "tests/sim/sim.h"

#define MIB(x) ((size_t)(x) << 20)
#define KIB(x) ((x) << 10)

/* One card per two lines. */
/* clang-format off */
static const struct gbsim_profile profiles[] = {
    /* key, name, cc, SMs, clock, memclock, bus, memory, L2, threads/SM, regs/SM, regs/block,
     * shared/SM, ECC, watchdog, PCI id, driver, its CUDA, toolkit for built-for-card */
    {"nvs310", "NVS 310", 2, 1, 1, 1046000, 875000, 64, MIB(512), KIB(128),
     1536, 32768, 32768, KIB(48), 0, 1, 0x107d, "390.157", 9010, 8000},
    {"k2100m", "Quadro K2100M", 3, 0, 3, 667000, 1502000, 128, MIB(2048), KIB(256),
     2048, 65536, 65536, KIB(48), 0, 1, 0x11fc, "470.256.02", 11040, 10020},
    {"k40m", "Tesla K40m", 3, 5, 15, 745000, 3004000, 384, 11996954624u, KIB(1536),
     2048, 65536, 65536, KIB(48), 1, 0, 0x1023, "470.256.02", 11040, 11080},
    {"k80", "Tesla K80", 3, 7, 13, 823500, 2505000, 384, 11996954624u, KIB(1536),
     2048, 131072, 65536, KIB(112), 1, 0, 0x102d, "470.256.02", 11040, 11080},
    {"gtx980", "GeForce GTX 980", 5, 2, 16, 1216000, 3505000, 256, MIB(4096), KIB(2048),
     2048, 65536, 65536, KIB(96), 0, 1, 0x13c0, "580.65.06", 13000, 12090},
    /* the 16 GB PCIe board */
    {"p100", "Tesla P100-PCIE-16GB", 6, 0, 56, 1328500, 715000, 4096, 17071734784u, KIB(4096),
     2048, 65536, 65536, KIB(64), 1, 0, 0x15f8, "580.65.06", 13000, 12090},
    {"gtx1080", "GeForce GTX 1080", 6, 1, 20, 1733500, 5005000, 256, MIB(8192), KIB(2048),
     2048, 65536, 65536, KIB(96), 0, 1, 0x1b80, "580.65.06", 13000, 12090},
    /* the 16 GB SXM2 board */
    {"v100", "Tesla V100-SXM2-16GB", 7, 0, 80, 1530000, 877000, 4096, 16945512448u, KIB(6144),
     2048, 65536, 65536, KIB(96), 1, 0, 0x1db1, "580.65.06", 13000, 12090},
    {"t4", "Tesla T4", 7, 5, 40, 1590000, 5001000, 256, 15843721216u, KIB(4096),
     1024, 65536, 65536, KIB(64), 1, 0, 0x1eb8, "580.65.06", 13000, 0},
    /* the 40 GB SXM4 board */
    {"a100", "A100-SXM4-40GB", 8, 0, 108, 1410000, 1215000, 5120, 42505273344u, KIB(40960),
     2048, 65536, 65536, KIB(164), 1, 0, 0x20b0, "580.65.06", 13000, 0},
    /* the 80 GB SXM5 board (HBM3) */
    {"h100", "NVIDIA H100 80GB HBM3", 9, 0, 132, 1980000, 2619000, 5120, 85029158912u, KIB(51200),
     2048, 65536, 65536, KIB(228), 1, 0, 0x2330, "580.65.06", 13000, 0},
    {"rtx5090", "NVIDIA GeForce RTX 5090", 12, 0, 170, 2407000, 14001000, 512, 34190917632u,
     KIB(98304), 1536, 65536, 65536, KIB(100), 0, 1, 0x2b85, "580.65.06", 13000, 0},
};
/* clang-format on */

const struct gbsim_profile *gbsim_profile_find(const char *key) {
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        if (strcmp(profiles[i].key, key) == 0)
            return &profiles[i];
    return NULL;
}

const struct gbsim_profile *gbsim_profiles(size_t *n) {
    *n = sizeof profiles / sizeof profiles[0];
    return profiles;
}
