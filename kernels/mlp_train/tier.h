/* tier.h — the tier of mlp_train's typed files, each written once and included once per tier
 * with GB_MLP_F64 0 or 1 (the C subset's templates, as kernels/gemm/tile.cuh); no include guard.
 * GB_MLP_T: float or double; GB_MLP_N(gb_sgd): gb_sgd, gb_sgd64; GB_MLP_K: the kernel's name;
 * GB_MLP_M(exp): the tier's expf or exp; GB_MLP_MAX: its largest value. */
#undef GB_MLP_T
#undef GB_MLP_SFX
#undef GB_MLP_MSFX
#undef GB_MLP_MAX
#if GB_MLP_F64
#define GB_MLP_T double
#define GB_MLP_SFX 64
#define GB_MLP_MSFX
#define GB_MLP_MAX DBL_MAX
#else
#define GB_MLP_T float
#define GB_MLP_SFX
#define GB_MLP_MSFX f
#define GB_MLP_MAX FLT_MAX /* no INFINITY macro needed in device code */
#endif
#ifndef GB_MLP_N
#define GB_MLP_CAT_(a, b, c) a##b##c
#define GB_MLP_CAT(a, b, c) GB_MLP_CAT_(a, b, c)
#define GB_MLP_N(name) GB_MLP_CAT(name, GB_MLP_SFX, )
#define GB_MLP_K(name) GB_MLP_CAT(name, GB_MLP_SFX, _kernel)
#define GB_MLP_M(fn) GB_MLP_CAT(fn, GB_MLP_MSFX, )
#define GB_MLP_STR_(x) #x
#define GB_MLP_STR(x) GB_MLP_STR_(x)
#endif
