/* relu_avx2: relu_kernels.h compiled with -mavx2 -mfma (8 binary32 lanes, 4 binary64),
 * both formats' rows. Exact by construction. */
#include "relu_kernels.h"

const gelu_impl gelu_impl_relu_avx2 =
    RELU_IMPL("relu_avx2", AVX2, "AVX2");
const gelu_impl gelu_impl64_relu_avx2 = RELU64_IMPL("relu_avx2", AVX2, "AVX2");
