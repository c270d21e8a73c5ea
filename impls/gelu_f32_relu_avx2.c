/* relu_avx2: relu_kernels.h compiled with -mavx2 -mfma (8 lanes). Exact by construction. */
#include "relu_kernels.h"

const gelu_impl gelu_impl_relu_avx2 =
    RELU_IMPL("relu_avx2", CPU_FEATURE_AVX2 | CPU_FEATURE_FMA, "AVX2");
