/* relu_avx2: relu_kernels.h compiled with -mavx2 -mfma (8 lanes). Exact by construction. */
#include "relu_kernels.h"

const gelu_impl gelu_impl_relu_avx2 =
    RELU_IMPL("relu_avx2", AVX2, "AVX2");
