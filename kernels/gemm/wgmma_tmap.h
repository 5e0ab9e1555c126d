/* wgmma_tmap.h — a 2D tensor map as the emulation's twin of TMA reads it (kernels/gemm/wgmma.cuh:
 * gb_wg_tma_box), in plain C for the twin, the CPU tests (kernels/gemm/test_emu.c) and the
 * simulated device's cuTensorMapEncodeTiled (tests/sim/cudart.c), which writes this layout into
 * the CUtensorMap the host passes to the kernel. Test-side meaning only: a real CUtensorMap is
 * opaque. */
#ifndef GPUBENCH_GEMM_WGMMA_TMAP_H
#define GPUBENCH_GEMM_WGMMA_TMAP_H

/* What cuTensorMapEncodeTiled was given: base, sizes, row stride, box, element size and swizzle
 * (128: CU_TENSOR_MAP_SWIZZLE_128B, 0: none); outside the tensor the box reads zeros. As large as
 * a CUtensorMap (128 bytes; 8-byte aligned, which a CUtensorMap's 64 satisfies). */
struct gb_wg_tmap {
    unsigned long long base;      /* global address */
    unsigned long long dim[2];    /* elements: [0] inner (contiguous), [1] rows */
    unsigned long long stride;    /* bytes between rows */
    unsigned box[2];              /* elements, [0] inner */
    unsigned elem_bytes, swizzle; /* bytes */
    unsigned long long pad[10];
};

#endif
