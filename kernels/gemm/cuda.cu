/* cuda.cu — the launch table of the SGEMM, DGEMM, FP16, BF16 and TF32 GEMM kernels (kernels.cuh):
 * the SIMT ones of gemm/cuda and the tensor-core ones of gemm/cuda_tc. Each kernel is one entry of
 * gb_gemm_table; the kernel lists (gb_*_kernels, for gb_check_kernels) and the launchers read it.
 * Adding a kernel: one entry (under the toolkit guard its source has), and, for a new family, one
 * enum gb_gemm_family value, one GB_GEMM_LIST line and a launcher that picks the entry. */
#include <stdio.h>
#include <string.h>

#include "kernels/gemm/cuda.h"
#include "kernels/gemm/kernels.cuh"

/* The kernel lists: each public gb_*_kernels function is one family (cuda.h). */
enum gb_gemm_family {
    GB_GF_SGEMM,
    GB_GF_DGEMM,
    GB_GF_HGEMM,
    GB_GF_HGEMM_WMMA,
    GB_GF_BGEMM_WMMA,
    GB_GF_TGEMM_WMMA,
    GB_GF_DGEMM_DMMA,
    GB_GF_HGEMM_MMA,
    GB_GF_BGEMM_MMA,
    GB_GF_TGEMM_MMA,
    GB_GF_HGEMM_WGMMA,
    GB_GF_BGEMM_WGMMA,
    GB_GF_TGEMM_WGMMA,
    GB_GF_COUNT
};

/* Which kernel of a family a launcher asks for (the entry's key): the SGEMM and FP16 GEMM's
 * configuration × 3 + variant (nn, tn, nt: gb_sgemm_plan), the DGEMM's tile edge, the WMMA
 * kernel's operand order; 0 where a family has one kernel. */
enum { GB_KEY_NN = 0, GB_KEY_TN = 1, GB_KEY_NT = 2 };
#define GB_KEY_CFG(cfg, variant) ((int)(cfg)*3 + (variant))

struct gb_gemm_kernel;
/* A grid rule: 0 and *grid for an M×N C, or -1 where the grid is beyond the device's limits. */
typedef int (*gb_gemm_grid_fn)(const struct gb_gemm_kernel *k, const struct gb_arch *arch, int M,
                               int N, dim3 *grid);

/* One kernel: its list, its key there, and what its launch needs. */
struct gb_gemm_kernel {
    enum gb_gemm_family family;
    int key;
    struct gb_kernel_ref ref;                /* the kernel and its name */
    int (*runs)(const struct gb_arch *arch); /* real body on this device's code; NULL: always */
    gb_gemm_grid_fn grid;                    /* NULL: the family's plan sets the grid */
    int tile;                                /* C tile edge the grid rule uses (square tiles) */
    int esize; /* element bytes whose 16-byte cp.async needs aligned operands; 0: any */
    unsigned threads;
    unsigned smem; /* dynamic shared memory, bytes (set as the kernel's maximum when > 0) */
};

static int gb_grid_dgemm(const struct gb_gemm_kernel *k, const struct gb_arch *arch, int M, int N,
                         dim3 *grid) {
    return gb_dgemm_grid(k->tile, arch->sm, M, N, grid);
}

static int gb_grid_wmma(const struct gb_gemm_kernel *k, const struct gb_arch *arch, int M, int N,
                        dim3 *grid) {
    (void)k, (void)arch;
    return gb_wm_grid(M, N, &grid->x, &grid->y);
}

static int gb_grid_mma(const struct gb_gemm_kernel *k, const struct gb_arch *arch, int M, int N,
                       dim3 *grid) {
    (void)k, (void)arch;
    return gb_mm_grid(M, N, &grid->x, &grid->y);
}

#if GB_HAVE_WGMMA
static int gb_grid_wgmma(const struct gb_gemm_kernel *k, const struct gb_arch *arch, int M, int N,
                         dim3 *grid) {
    (void)k, (void)arch;
    return gb_wg_grid(M, N, &grid->x, &grid->y);
}

/* The persistent kernel: one block a multiprocessor, in whole clusters of 2 (its
 * __cluster_dims__), each walking pairs of 128×256 tiles (wgmma_persist.cuh). */
static int gb_grid_wgmma_persist(const struct gb_gemm_kernel *k, const struct gb_arch *arch,
                                 int M, int N, dim3 *grid) {
    int pm, pn;
    long pairs = gb_wp_pairs(M, N, &pm, &pn);
    (void)k;
    if (pairs < 0)
        return -1;
    *grid = dim3((unsigned)gb_wp_blocks(pairs, arch->sms), 1, 1);
    return 0;
}
#endif

/* An entry: family, key, kernel, runs, grid rule, tile, esize, threads, shared memory. */
#define GB_K(fam, key, fn, runs, grid, tile, esize, threads, smem)                                 \
    { fam, key, {(const void *)fn, #fn}, runs, grid, tile, esize, threads, smem }
/* A SIMT configuration's three variants fn_nn, fn_tn, fn_nt (gb_sgemm_plan's), keys cfg × 3 + 0..2;
 * the plan sets their grid. */
#define GB_K_VARIANTS(fam, cfg, fn, tile)                                                          \
    GB_K(fam, GB_KEY_CFG(cfg, GB_KEY_NN), fn##_nn, NULL, NULL, tile, 0, GB_GEMM_THREADS, 0),       \
        GB_K(fam, GB_KEY_CFG(cfg, GB_KEY_TN), fn##_tn, NULL, NULL, tile, 0, GB_GEMM_THREADS, 0),   \
        GB_K(fam, GB_KEY_CFG(cfg, GB_KEY_NT), fn##_nt, NULL, NULL, tile, 0, GB_GEMM_THREADS, 0)

/* The table. A family's entries keep the order of its list; guards are the toolkit's. */
static const struct gb_gemm_kernel gb_gemm_table[] = {
    GB_K_VARIANTS(GB_GF_SGEMM, GB_GEMM_64, gb_sgemm_64x64, 64),
    GB_K_VARIANTS(GB_GF_SGEMM, GB_GEMM_128, gb_sgemm_128x128, 128),
    GB_K(GB_GF_DGEMM, 32, gb_dgemm_32x32, NULL, gb_grid_dgemm, 32, 0, GB_GEMM_THREADS, 0),
    GB_K(GB_GF_DGEMM, 64, gb_dgemm_64x64, NULL, gb_grid_dgemm, 64, 0, GB_GEMM_THREADS, 0),
    GB_K(GB_GF_DGEMM, 128, gb_dgemm_128x128, NULL, gb_grid_dgemm, 128, 0, GB_GEMM_THREADS, 0),
#if GB_HAVE_HALF
    GB_K(GB_GF_HGEMM, GB_KEY_CFG(GB_GEMM_64, GB_KEY_NN), gb_hgemm_64x64_nn, gb_hgemm_has_body, NULL,
         64, 0, GB_GEMM_THREADS, 0),
    GB_K(GB_GF_HGEMM, GB_KEY_CFG(GB_GEMM_128, GB_KEY_NN), gb_hgemm_128x128_nn, gb_hgemm_has_body,
         NULL, 128, 0, GB_GEMM_THREADS, 0),
#endif
#if GB_HAVE_WMMA
    GB_K(GB_GF_HGEMM_WMMA, GB_KEY_NN, gb_hgemm_wmma_64x64, gb_hgemm_wmma_runs, gb_grid_wmma, 64, 0,
         GB_WM_THREADS, 0),
    GB_K(GB_GF_HGEMM_WMMA, GB_KEY_NT, gb_hgemm_wmma_64x64_nt, gb_hgemm_wmma_runs, gb_grid_wmma, 64,
         0, GB_WM_THREADS, 0),
    GB_K(GB_GF_HGEMM_WMMA, GB_KEY_TN, gb_hgemm_wmma_64x64_tn, gb_hgemm_wmma_runs, gb_grid_wmma, 64,
         0, GB_WM_THREADS, 0),
#endif
#if GB_HAVE_WMMA_80
    GB_K(GB_GF_BGEMM_WMMA, 0, gb_bgemm_wmma_64x64, gb_wmma80_runs, gb_grid_wmma, 64, 0,
         GB_WM_THREADS, 0),
    GB_K(GB_GF_TGEMM_WMMA, 0, gb_tgemm_wmma_64x64, gb_wmma80_runs, gb_grid_wmma, 64, 0,
         GB_WM_THREADS, 0),
#endif
#if GB_HAVE_DMMA
    GB_K(GB_GF_DGEMM_DMMA, 0, gb_dgemm_dmma_64x64, gb_dgemm_dmma_runs, gb_grid_dgemm, GB_DM_BM, 0,
         GB_DM_THREADS, 0),
#endif
#if GB_HAVE_DMMA16
    GB_K(GB_GF_DGEMM_DMMA, 1, gb_dgemm_dmma16_128x128, gb_dgemm_dmma16_runs, gb_grid_dgemm,
         GB_MM_BM, 0, GB_MM_THREADS, GB_D16_SMEM),
#endif
#if GB_HAVE_MMA
    GB_K(GB_GF_HGEMM_MMA, 0, gb_hgemm_mma_128x128, gb_mma_runs, gb_grid_mma, 128, 2, GB_MM_THREADS,
         0),
    GB_K(GB_GF_BGEMM_MMA, 0, gb_bgemm_mma_128x128, gb_mma_runs, gb_grid_mma, 128, 2, GB_MM_THREADS,
         0),
    GB_K(GB_GF_TGEMM_MMA, 0, gb_tgemm_mma_128x128, gb_mma_runs, gb_grid_mma, 128, 4, GB_MM_THREADS,
         0),
    GB_K(GB_GF_HGEMM_MMA, 1, gb_hgemm_mma_128x128_w64, gb_mma_runs, gb_grid_mma, 128, 2,
         GB_MM_THREADS64, 0),
    GB_K(GB_GF_BGEMM_MMA, 1, gb_bgemm_mma_128x128_w64, gb_mma_runs, gb_grid_mma, 128, 2,
         GB_MM_THREADS64, 0),
#endif
#if GB_HAVE_WGMMA
    GB_K(GB_GF_HGEMM_WGMMA, 0, gb_hgemm_wgmma_128x128, gb_wgmma_runs, gb_grid_wgmma, 128, 0,
         GB_WG_THREADS, GB_WG_SMEM),
    GB_K(GB_GF_BGEMM_WGMMA, 0, gb_bgemm_wgmma_128x128, gb_wgmma_runs, gb_grid_wgmma, 128, 0,
         GB_WG_THREADS, GB_WG_SMEM),
    GB_K(GB_GF_HGEMM_WGMMA, 1, gb_hgemm_wgmma_persist_128x256, gb_wgmma_runs,
         gb_grid_wgmma_persist, 256, 0, GB_WG_THREADS, GB_WP_SMEM),
    GB_K(GB_GF_BGEMM_WGMMA, 1, gb_bgemm_wgmma_persist_128x256, gb_wgmma_runs,
         gb_grid_wgmma_persist, 256, 0, GB_WG_THREADS, GB_WP_SMEM),
    /* tf32: the 128×128 kernel (key 0), the pass that makes its K-major copies (key 1, launched
     * by gb_tgemm_wgmma_copy on its own grid) and the persistent 128×256 kernel (key 2) */
    GB_K(GB_GF_TGEMM_WGMMA, 0, gb_tgemm_wgmma_128x128, gb_wgmma_runs, gb_grid_wgmma, 128, 0,
         GB_WG_THREADS, GB_WG_SMEM),
    GB_K(GB_GF_TGEMM_WGMMA, 1, gb_tgemm_wgmma_prep, NULL, NULL, GB_WT_PREP_TILE, 0,
         GB_WT_PREP_TILE * GB_WT_PREP_ROWS, 0),
    GB_K(GB_GF_TGEMM_WGMMA, 2, gb_tgemm_wgmma_persist_128x256, gb_wgmma_runs,
         gb_grid_wgmma_persist, 256, 0, GB_WG_THREADS, GB_WP_SMEM),
#endif
};

#define GB_GEMM_N ((int)(sizeof gb_gemm_table / sizeof gb_gemm_table[0]))

/* The family's entry with that key, or NULL (not in this toolkit's build). */
static const struct gb_gemm_kernel *gb_gemm_find(enum gb_gemm_family family, int key) {
    for (int i = 0; i < GB_GEMM_N; i++)
        if (gb_gemm_table[i].family == family && gb_gemm_table[i].key == key)
            return &gb_gemm_table[i];
    return NULL;
}

/* The lists, gathered from the table once (a function-local static: thread-safe in C++11). */
struct gb_gemm_lists {
    struct gb_kernel_ref refs[GB_GF_COUNT][GB_GEMM_N];
    int n[GB_GF_COUNT];
};

static struct gb_gemm_lists gb_gemm_lists_make(void) {
    struct gb_gemm_lists l;
    memset(&l, 0, sizeof l);
    for (int i = 0; i < GB_GEMM_N; i++) {
        const struct gb_gemm_kernel *k = &gb_gemm_table[i];
        l.refs[k->family][l.n[k->family]++] = k->ref;
    }
    return l;
}

static int gb_gemm_list(enum gb_gemm_family family, const struct gb_kernel_ref **refs) {
    static const struct gb_gemm_lists lists = gb_gemm_lists_make();
    *refs = lists.n[family] > 0 ? lists.refs[family] : NULL;
    return lists.n[family];
}

#define GB_GEMM_LIST(fn, family)                                                                   \
    int fn(const struct gb_kernel_ref **refs) {                                                    \
        return gb_gemm_list(family, refs);                                                         \
    }
GB_GEMM_LIST(gb_sgemm_kernels, GB_GF_SGEMM)
GB_GEMM_LIST(gb_dgemm_kernels, GB_GF_DGEMM)
GB_GEMM_LIST(gb_hgemm_kernels, GB_GF_HGEMM)
GB_GEMM_LIST(gb_hgemm_wmma_kernels, GB_GF_HGEMM_WMMA)
GB_GEMM_LIST(gb_bgemm_wmma_kernels, GB_GF_BGEMM_WMMA)
GB_GEMM_LIST(gb_tgemm_wmma_kernels, GB_GF_TGEMM_WMMA)
GB_GEMM_LIST(gb_dgemm_dmma_kernels, GB_GF_DGEMM_DMMA)
GB_GEMM_LIST(gb_hgemm_mma_kernels, GB_GF_HGEMM_MMA)
GB_GEMM_LIST(gb_bgemm_mma_kernels, GB_GF_BGEMM_MMA)
GB_GEMM_LIST(gb_tgemm_mma_kernels, GB_GF_TGEMM_MMA)
GB_GEMM_LIST(gb_hgemm_wgmma_kernels, GB_GF_HGEMM_WGMMA)
GB_GEMM_LIST(gb_bgemm_wgmma_kernels, GB_GF_BGEMM_WGMMA)
GB_GEMM_LIST(gb_tgemm_wgmma_kernels, GB_GF_TGEMM_WGMMA)

/* The argument checks of the launchers (lda ≥ K, ldb ≥ N): cudaSuccess or cudaErrorInvalidValue. */
static inline cudaError_t gb_tc_args(int M, int N, int K, int lda, int ldb, int ldc) {
    return M < 0 || N < 0 || K < 0 || lda < K || ldb < N || ldc < N ? cudaErrorInvalidValue
                                                                    : cudaSuccess;
}

/* What a launcher decides before launching entry k (NULL: not in this build): 0 (launch on
 * *grid), 1 (empty C: launch nothing), or a cudaError_t as the negative of its value — bad sizes,
 * a grid beyond the limits, a trap body here (k->runs is 0), operands cp.async cannot take. */
static int gb_gemm_plan(const struct gb_gemm_kernel *k, const struct gb_arch *arch, int M, int N,
                        int K, const void *A, int lda, const void *B, int ldb, int ldc,
                        dim3 *grid) {
    *grid = dim3(1, 1, 1);
    if (!k || gb_tc_args(M, N, K, lda, ldb, ldc) != cudaSuccess)
        return -(int)cudaErrorInvalidValue; /* no k: the rows' tier gates refuse first */
    if (M == 0 || N == 0)
        return 1;
    if (k->grid(k, arch, M, N, grid) != 0)
        return -(int)cudaErrorInvalidConfiguration;
    if (k->runs && !k->runs(arch))
        return -(int)cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch */
    if (k->esize && !gb_mma_fits_ptrs(k->esize, A, lda, B, ldb))
        return -(int)cudaErrorMisalignedAddress;
    return 0;
}

static inline cudaError_t gb_plan_error(int plan) {
    return plan > 0 ? cudaGetLastError() : (cudaError_t)-plan;
}

/* Launch entry k, a kernel (M, N, K, A, lda, B, ldb, C, ldc) with T operands and an R result. */
template <typename T, typename R>
static cudaError_t gb_gemm_launch(const struct gb_gemm_kernel *k, dim3 grid, cudaStream_t stream,
                                  int M, int N, int K, const void *A, int lda, const void *B,
                                  int ldb, R *C, int ldc) {
    typedef void (*fn_t)(int, int, int, const T *, int, const T *, int, R *, int);
    fn_t fn = (fn_t)k->ref.fn;
    fn<<<grid, k->threads, k->smem, stream>>>(M, N, K, (const T *)A, lda, (const T *)B, ldb, C,
                                              ldc);
    return cudaGetLastError();
}

/* Plan and launch the one kernel of a family (or its kernel with that key). */
template <typename T, typename R>
static cudaError_t gb_gemm_run(enum gb_gemm_family family, int key, cudaStream_t stream,
                               const struct gb_arch *arch, int M, int N, int K, const void *A,
                               int lda, const void *B, int ldb, R *C, int ldc) {
    const struct gb_gemm_kernel *k = gb_gemm_find(family, key);
    dim3 grid;
    int plan = gb_gemm_plan(k, arch, M, N, K, A, lda, B, ldb, ldc, &grid);
    if (plan != 0)
        return gb_plan_error(plan);
    return gb_gemm_launch<T, R>(k, grid, stream, M, N, K, A, lda, B, ldb, C, ldc);
}

/* --- the SIMT kernels (gemm/cuda) --------------------------------------------------------------
 */
int gb_dgemm_tile_for(const struct gb_arch *arch, int M, int N) {
    return gb_dgemm_tile(arch->sm, arch->sms, M, N);
}

cudaError_t gb_dgemm(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                     const double *A, int lda, const double *B, int ldb, double *C, int ldc) {
    return gb_gemm_run<double, double>(GB_GF_DGEMM, gb_dgemm_tile_for(arch, M, N), stream, arch, M,
                                       N, K, A, lda, B, ldb, C, ldc);
}

int gb_sgemm_tile_for(const struct gb_arch *arch, int M, int N) {
    return gb_sgemm_tile(gb_sgemm_pick(arch->sm, arch->sms, M, N));
}

/* gb_sgemm_plan's choice: the entry of family (NULL: none in this build) and its grid, or the
 * launcher's answer as plan_error does (1: empty C, negative: an error). */
static int gb_sgemm_entry(enum gb_gemm_family family, const struct gb_arch *arch, int trans_a,
                          int trans_b, int M, int N, int K, int lda, int ldb, int ldc,
                          const struct gb_gemm_kernel **k, dim3 *grid) {
    enum gb_gemm_cfg cfg;
    int variant;
    switch (gb_sgemm_plan(arch->sm, arch->sms, trans_a, trans_b, M, N, K, lda, ldb, ldc, &cfg,
                          &variant, grid)) {
    case 0: break;
    case 1: return 1; /* empty C */
    case -1: return -(int)cudaErrorInvalidValue;
    default: return -(int)cudaErrorInvalidConfiguration;
    }
    *k = gb_gemm_find(family, GB_KEY_CFG(cfg, variant));
    if (!*k)
        return -(int)cudaErrorInvalidValue;
    if ((*k)->runs && !(*k)->runs(arch))
        return -(int)cudaErrorNoKernelImageForDevice; /* the body here is a trap: never launch */
    return 0;
}

cudaError_t gb_sgemm(cudaStream_t stream, const struct gb_arch *arch, int trans_a, int trans_b,
                     int M, int N, int K, const float *A, int lda, const float *B, int ldb,
                     float *C, int ldc) {
    const struct gb_gemm_kernel *k = NULL;
    dim3 grid;
    int plan =
        gb_sgemm_entry(GB_GF_SGEMM, arch, trans_a, trans_b, M, N, K, lda, ldb, ldc, &k, &grid);
    if (plan != 0)
        return gb_plan_error(plan);
    return gb_gemm_launch<float, float>(k, grid, stream, M, N, K, A, lda, B, ldb, C, ldc);
}

int gb_hgemm_has_body(const struct gb_arch *arch) {
    return GB_HAVE_HALF && gb_hgemm_body_at(arch->sm);
}

int gb_hgemm_tile_for(const struct gb_arch *arch, int M, int N) {
    return gb_sgemm_tile_for(arch, M, N); /* the SGEMM's choice (gb_sgemm_pick) */
}

cudaError_t gb_hgemm(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                     const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
    const struct gb_kernel_ref *refs;
    const struct gb_gemm_kernel *k = NULL;
    dim3 grid;
    int plan;
    if (gb_hgemm_kernels(&refs) == 0)
        return cudaErrorInvalidValue; /* no FP16 types in this toolkit: the tier gate refuses first
                                       */
    plan = gb_sgemm_entry(GB_GF_HGEMM, arch, 0, 0, M, N, K, lda, ldb, ldc, &k, &grid);
    if (plan != 0)
        return gb_plan_error(plan);
    return gb_gemm_launch<__half, float>(k, grid, stream, M, N, K, A, lda, B, ldb, C, ldc);
}

/* --- the tensor-core kernels (gemm/cuda_tc) ----------------------------------------------------
 */
int gb_hgemm_wmma_runs(const struct gb_arch *arch) {
    return gb_hgemm_wmma_body_at(arch->sm);
}
int gb_wmma80_runs(const struct gb_arch *arch) {
    return gb_wmma80_body_at(arch->sm);
}
int gb_dgemm_dmma_runs(const struct gb_arch *arch) {
    return gb_dgemm_dmma_body_at(arch->sm);
}
int gb_dgemm_dmma16_runs(const struct gb_arch *arch) {
    return gb_dgemm_dmma16_body_at(arch->sm);
}
int gb_mma_runs(const struct gb_arch *arch) {
    return gb_mm_body_at(arch->sm);
}

int gb_mma_fits_ptrs(int esize, const void *A, int lda, const void *B, int ldb) {
    return gb_mm_fits(esize, (size_t)A, lda, (size_t)B, ldb);
}

cudaError_t gb_hgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
    return gb_gemm_run<__half, float>(GB_GF_HGEMM_WMMA, GB_KEY_NN, stream, arch, M, N, K, A, lda, B,
                                      ldb, C, ldc);
}

/* gb_hgemm_wmma with A or B stored transposed: the _tn or _nt instantiation (wmma.cuh); the
 * leading dimensions are checked against the stored rows (lda ≥ M for a transposed A, ldb ≥ K
 * for a transposed B). */
cudaError_t gb_hgemm_wmma_op(cudaStream_t stream, const struct gb_arch *arch, int ta, int tb, int M,
                             int N, int K, const void *A, int lda, const void *B, int ldb, float *C,
                             int ldc) {
    const struct gb_gemm_kernel *k;
    dim3 grid;
    int plan;
    if (!ta && !tb)
        return gb_hgemm_wmma(stream, arch, M, N, K, A, lda, B, ldb, C, ldc);
    if (ta && tb)
        return cudaErrorInvalidValue; /* no kernel for both: the step never asks */
    k = gb_gemm_find(GB_GF_HGEMM_WMMA, ta ? GB_KEY_TN : GB_KEY_NT);
    /* the plan's checks on the stored shapes: lda ≥ M for Aᵀ (K×M), ldb ≥ K for Bᵀ (N×K) */
    plan = gb_gemm_plan(k, arch, M, N, K, A, ta ? K : lda, B, tb ? N : ldb, ldc, &grid);
    if (plan == 0 && ((ta && lda < M) || (tb && ldb < K)))
        plan = -(int)cudaErrorInvalidValue;
    if (plan != 0)
        return gb_plan_error(plan);
    return gb_gemm_launch<__half, float>(k, grid, stream, M, N, K, A, lda, B, ldb, C, ldc);
}

cudaError_t gb_bgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
    return gb_gemm_run<__nv_bfloat16, float>(GB_GF_BGEMM_WMMA, 0, stream, arch, M, N, K, A, lda, B,
                                             ldb, C, ldc);
}

cudaError_t gb_tgemm_wmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const float *A, int lda, const float *B, int ldb, float *C, int ldc) {
    return gb_gemm_run<float, float>(GB_GF_TGEMM_WMMA, 0, stream, arch, M, N, K, A, lda, B, ldb, C,
                                     ldc);
}

cudaError_t gb_dgemm_dmma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                          const double *A, int lda, const double *B, int ldb, double *C, int ldc) {
    return gb_gemm_run<double, double>(GB_GF_DGEMM_DMMA, 0, stream, arch, M, N, K, A, lda, B, ldb,
                                       C, ldc);
}

/* The m16n8k16 .f64 kernel: key 1 of gb_dgemm_dmma's family, 146 KiB of dynamic shared memory. */
cudaError_t gb_dgemm_dmma16_setup(void) {
    const struct gb_gemm_kernel *k = gb_gemm_find(GB_GF_DGEMM_DMMA, 1);
    if (!k)
        return cudaErrorInvalidValue; /* a toolkit before CUDA 11.8: gemm/cuda_tc never asks */
    return cudaFuncSetAttribute(k->ref.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)k->smem);
}

cudaError_t gb_dgemm_dmma16(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                            const double *A, int lda, const double *B, int ldb, double *C,
                            int ldc) {
    return gb_gemm_run<double, double>(GB_GF_DGEMM_DMMA, 1, stream, arch, M, N, K, A, lda, B, ldb,
                                       C, ldc);
}

int gb_mma_pick(int M, int N, int sms) {
    return gb_mm_pick(M, N, sms);
}

/* key 0: the 64×32-warp kernel, 1: the 64×64-warp one (the table's entries) */
cudaError_t gb_hgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int w64, int M, int N,
                         int K, const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
    return gb_gemm_run<__half, float>(GB_GF_HGEMM_MMA, w64 != 0, stream, arch, M, N, K, A, lda, B,
                                      ldb, C, ldc);
}

cudaError_t gb_bgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int w64, int M, int N,
                         int K, const void *A, int lda, const void *B, int ldb, float *C, int ldc) {
    return gb_gemm_run<__nv_bfloat16, float>(GB_GF_BGEMM_MMA, w64 != 0, stream, arch, M, N, K, A,
                                             lda, B, ldb, C, ldc);
}

cudaError_t gb_tgemm_mma(cudaStream_t stream, const struct gb_arch *arch, int M, int N, int K,
                         const float *A, int lda, const float *B, int ldb, float *C, int ldc) {
    return gb_gemm_run<float, float>(GB_GF_TGEMM_MMA, 0, stream, arch, M, N, K, A, lda, B, ldb, C,
                                     ldc);
}

/* --- Hopper: wgmma with TMA (wgmma.cuh), gemm/cuda_tc's f16 and bf16 on sm_90a code ----------- */
int gb_wgmma_built(void) {
    return GB_HAVE_WGMMA;
}

int gb_wgmma_runs(const struct gb_arch *arch) {
    return gb_wg_body_at(GB_HAVE_WGMMA, arch->sm, arch->arch_specific);
}

int gb_wgmma_tma_ok(const void *A, int lda, const void *B, int ldb) {
    return gb_wg_tma_ok(A, lda) && gb_wg_tma_ok(B, ldb);
}

#if GB_HAVE_WGMMA
/* A driver function through the runtime (no link against libcuda): cudaGetDriverEntryPoint's
 * signature changed (CUDA 12.5 added ...ByVersion and CUDA 13 deprecates the other, which -Werror
 * would refuse), so the call follows CUDART_VERSION. Writes why on failure. */
static int gb_wg_entry(const char *sym, void **fn, char *why, size_t len) {
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSuccess;
#if CUDART_VERSION >= 12050
    const char *call = "cudaGetDriverEntryPointByVersion";
    cudaError_t e = cudaGetDriverEntryPointByVersion(sym, fn, 12000, cudaEnableDefault, &q);
#else
    const char *call = "cudaGetDriverEntryPoint";
    cudaError_t e = cudaGetDriverEntryPoint(sym, fn, cudaEnableDefault, &q);
#endif
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !*fn) {
        snprintf(why, len, "%s(%s): %s%s", call, sym,
                 e != cudaSuccess ? cudaGetErrorName(e) : "the driver has no such function",
                 q == cudaDriverEntryPointVersionNotSufficent ? " (driver too old)" : "");
        return -1;
    }
    return 0;
}

typedef CUresult (*gb_wg_encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                    const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                    const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                    CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
typedef CUresult (*gb_wg_errname_fn)(CUresult, const char **);

/* One operand's map (t: gb_wg_tmap_a/_b's or gb_wt_tmap's shape of it) into out (CUtensorMap
 * bytes); bf16 picks BF16 over FP16 for 2-byte elements, 4-byte ones are FP32 (tf32). */
static int gb_wg_encode_one(gb_wg_encode_fn enc, const char *what, int bf16,
                            const struct gb_wg_tmap *t, unsigned char *out, char *why, size_t len) {
    CUtensorMap map;
    cuuint64_t dim[2] = {t->dim[0], t->dim[1]}, stride[1] = {t->stride};
    cuuint32_t box[2] = {t->box[0], t->box[1]}, estride[2] = {1, 1};
    CUtensorMapDataType dt = t->elem_bytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                             : bf16             ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    CUresult r = enc(&map, dt, 2, (void *)(size_t)t->base, dim, stride, box, estride,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                     CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        void *fn = NULL;
        const char *name = NULL;
        char ignored[8];
        if (gb_wg_entry("cuGetErrorName", &fn, ignored, sizeof ignored) != 0 ||
            ((gb_wg_errname_fn)fn)(r, &name) != CUDA_SUCCESS)
            name = NULL;
        if (name)
            snprintf(why, len, "cuTensorMapEncodeTiled(%s): %s", what, name);
        else
            snprintf(why, len, "cuTensorMapEncodeTiled(%s): CUresult %d", what, (int)r);
        return -1;
    }
    memcpy(out, &map, sizeof map);
    return 0;
}
#endif

int gb_wgmma_encode(int bf16, int M, int N, int K, const void *A, int lda, const void *B, int ldb,
                    struct gb_wgmma_maps *maps, char *why, size_t len) {
#if GB_HAVE_WGMMA
    void *fn = NULL;
    struct gb_wg_tmap ta, tb;
    if (!gb_wgmma_tma_ok(A, lda, B, ldb)) {
        snprintf(why, len, "TMA needs 16-byte aligned A and B and lda, ldb multiples of 8");
        return -1;
    }
    if (gb_wg_entry("cuTensorMapEncodeTiled", &fn, why, len) != 0)
        return -1;
    gb_wg_tmap_a(&ta, A, M, K, lda);
    gb_wg_tmap_b(&tb, B, K, N, ldb);
    if (gb_wg_encode_one((gb_wg_encode_fn)fn, "A", bf16, &ta, maps->a, why, len) != 0 ||
        gb_wg_encode_one((gb_wg_encode_fn)fn, "B", bf16, &tb, maps->b, why, len) != 0)
        return -1;
    return 0;
#else
    (void)bf16, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)maps;
    snprintf(why, len, "this gpubench was built with a CUDA older than 12.0 (no wgmma, no TMA)");
    return -1;
#endif
}

/* The wgmma kernels of a family (128×128 and the persistent 128×256) take more than 48 KiB; tf32's
 * pass (no dynamic shared memory) is left as it is. */
static cudaError_t gb_wg_setup(enum gb_gemm_family family) {
    int found = 0;
    for (int i = 0; i < GB_GEMM_N; i++) {
        const struct gb_gemm_kernel *k = &gb_gemm_table[i];
        if (k->family != family || k->smem == 0)
            continue;
        cudaError_t e = cudaFuncSetAttribute(k->ref.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)k->smem);
        if (e != cudaSuccess)
            return e;
        found = 1;
    }
    return found ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t gb_wgmma_setup(int bf16) {
    return gb_wg_setup(bf16 ? GB_GF_BGEMM_WGMMA : GB_GF_HGEMM_WGMMA);
}

/* Launch a wgmma family's kernel `key` (f16, bf16: 0 128×128, 1 persistent 128×256; tf32: 0
 * 128×128, 2 persistent 128×256) on the maps. */
static cudaError_t gb_wgmma_launch(enum gb_gemm_family family, int key, cudaStream_t stream,
                                   const struct gb_arch *arch, const struct gb_wgmma_maps *maps,
                                   int M, int N, int K, float *C, int ldc) {
#if GB_HAVE_WGMMA
    typedef void (*fn_t)(const CUtensorMap, const CUtensorMap, int, int, int, float *, int);
    const struct gb_gemm_kernel *k = gb_gemm_find(family, key);
    dim3 grid;
    CUtensorMap ma, mb;
    fn_t fn;
    /* no lda, ldb here: the maps hold them (K and N pass the plan's checks on them) */
    int plan = gb_gemm_plan(k, arch, M, N, K, NULL, K, NULL, N, ldc, &grid);
    if (plan != 0)
        return gb_plan_error(plan);
    memcpy(&ma, maps->a, sizeof ma); /* CUtensorMap is 64-byte aligned: maps need not be */
    memcpy(&mb, maps->b, sizeof mb);
    fn = (fn_t)k->ref.fn;
    fn<<<grid, k->threads, k->smem, stream>>>(ma, mb, M, N, K, C, ldc);
    return cudaGetLastError();
#else
    (void)family, (void)key, (void)stream, (void)arch, (void)maps, (void)M, (void)N, (void)K;
    (void)C, (void)ldc;
    return cudaErrorInvalidValue; /* no wgmma in this toolkit: gemm/cuda_tc refuses first */
#endif
}

cudaError_t gb_xgemm_wgmma(cudaStream_t stream, const struct gb_arch *arch, int bf16,
                           const struct gb_wgmma_maps *maps, int M, int N, int K, float *C,
                           int ldc) {
    return gb_wgmma_launch(bf16 ? GB_GF_BGEMM_WGMMA : GB_GF_HGEMM_WGMMA, 0, stream, arch, maps, M,
                           N, K, C, ldc);
}

/* --- Hopper: the persistent 128×256 wgmma kernel (wgmma_persist.cuh), the same maps --------- */
int gb_wgmma_persist_pick(int M, int N, int sms, long *r128, long *r256, int *cost_x10) {
    gb_wp_rounds(M, N, sms, r128, r256);
    *cost_x10 = GB_WP_TILE_COST_X10;
    return gb_wp_pick(M, N, sms);
}

cudaError_t gb_wgmma_persist_regs(enum gb_wgmma_tier tier, int *regs, int *need, int *ok) {
#if GB_HAVE_WGMMA
    struct cudaFuncAttributes attr;
    const struct gb_gemm_kernel *k = gb_gemm_find(tier == GB_WGMMA_TF32   ? GB_GF_TGEMM_WGMMA
                                                  : tier == GB_WGMMA_BF16 ? GB_GF_BGEMM_WGMMA
                                                                          : GB_GF_HGEMM_WGMMA,
                                                  tier == GB_WGMMA_TF32 ? 2 : 1);
    cudaError_t e = cudaFuncGetAttributes(&attr, k->ref.fn);
    if (e != cudaSuccess)
        return e;
    *regs = attr.numRegs;
    *need = GB_WP_REGS_ENTRY;
    *ok = gb_wp_regs_ok(attr.numRegs);
    return cudaSuccess;
#else
    (void)tier, (void)regs, (void)need, (void)ok;
    return cudaErrorInvalidValue; /* no wgmma in this toolkit: gemm/cuda_tc refuses first */
#endif
}

cudaError_t gb_xgemm_wgmma_persist(cudaStream_t stream, const struct gb_arch *arch, int bf16,
                                   const struct gb_wgmma_maps *maps, int M, int N, int K,
                                   float *C, int ldc) {
    return gb_wgmma_launch(bf16 ? GB_GF_BGEMM_WGMMA : GB_GF_HGEMM_WGMMA, 1, stream, arch, maps, M,
                           N, K, C, ldc);
}

/* --- Hopper: tf32 on wgmma (wgmma_tf32.cuh): the pass, the maps of its copies, the kernel ---- */
int gb_tgemm_wgmma_a_in_place(const float *A, int lda) {
    return gb_wt_a_in_place(A, lda);
}

size_t gb_tgemm_wgmma_copies(int M, int N, int K, int a_in_place, int *ldk) {
    return gb_wt_copies(M, N, K, a_in_place, ldk);
}

cudaError_t gb_tgemm_wgmma_copy(cudaStream_t stream, int M, int N, int K, const float *A, int lda,
                                const float *B, int ldb, float *ar, float *bt, int ldk) {
#if GB_HAVE_WGMMA
    const struct gb_gemm_kernel *k = gb_gemm_find(GB_GF_TGEMM_WGMMA, 1);
    typedef void (*fn_t)(int, int, int, const float *, int, const float *, int, float *, float *,
                         int);
    dim3 grid(1, 1, ar ? 2 : 1); /* A then B, or B alone (A read in place) */
    if (!k || gb_tc_args(M, N, K, lda, ldb, N) != cudaSuccess || ldk < K || ldk % 4 != 0 || !bt)
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0 || K == 0)
        return cudaSuccess; /* nothing the kernel reads */
    if (gb_wt_prep_grid(ar ? M : 0, N, K, &grid.x, &grid.y) != 0)
        return cudaErrorInvalidConfiguration;
    ((fn_t)k->ref.fn)<<<grid, dim3(GB_WT_PREP_TILE, GB_WT_PREP_ROWS, 1), 0, stream>>>(
        M, N, K, A, lda, B, ldb, ar, bt, ldk);
    return cudaGetLastError();
#else
    (void)stream, (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)ar;
    (void)bt, (void)ldk;
    return cudaErrorInvalidValue; /* no wgmma in this toolkit: gemm/cuda_tc refuses first */
#endif
}

int gb_tgemm_wgmma_encode(int persist, int M, int N, int K, const float *a, int lda,
                          const float *bt, int ldk, struct gb_wgmma_maps *maps, char *why,
                          size_t len) {
#if GB_HAVE_WGMMA
    void *fn = NULL;
    struct gb_wg_tmap ta, tb;
    if (gb_wg_entry("cuTensorMapEncodeTiled", &fn, why, len) != 0)
        return -1;
    gb_wt_tmap(&ta, a, M, K, lda);
    (persist ? gb_wt_tmap_bt4 : gb_wt_tmap)(&tb, bt, N, K, ldk);
    if (gb_wg_encode_one((gb_wg_encode_fn)fn, "A, or its TF32 copy", 0, &ta, maps->a, why,
                         len) != 0 ||
        gb_wg_encode_one((gb_wg_encode_fn)fn, "B's transposed TF32 copy", 0, &tb, maps->b, why,
                         len) != 0)
        return -1;
    return 0;
#else
    (void)persist, (void)M, (void)N, (void)K, (void)a, (void)lda, (void)bt, (void)ldk, (void)maps;
    snprintf(why, len, "this gpubench was built with a CUDA older than 12.0 (no wgmma, no TMA)");
    return -1;
#endif
}

cudaError_t gb_tgemm_wgmma_setup(void) {
    return gb_wg_setup(GB_GF_TGEMM_WGMMA);
}

cudaError_t gb_tgemm_wgmma(cudaStream_t stream, const struct gb_arch *arch, int persist,
                           const struct gb_wgmma_maps *maps, int M, int N, int K, float *C,
                           int ldc) {
    return gb_wgmma_launch(GB_GF_TGEMM_WGMMA, persist ? 2 : 0, stream, arch, maps, M, N, K, C,
                           ldc);
}
