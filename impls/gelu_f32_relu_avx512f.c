/* relu_avx512f: relu_kernels.h compiled with -mavx512f (16 binary32 lanes, 8 binary64),
 * both formats' rows. Exact by construction. */
#include "relu_kernels.h"

const gelu_impl gelu_impl_relu_avx512f =
    RELU_IMPL("relu_avx512f", AVX512F, "AVX-512F");
const gelu_impl gelu_impl64_relu_avx512f = RELU64_IMPL("relu_avx512f", AVX512F, "AVX-512F");
