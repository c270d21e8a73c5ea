/* relu_avx512f: relu_kernels.h compiled with -mavx512f (16 lanes). Exact by construction. */
#include "relu_kernels.h"

const gelu_impl gelu_impl_relu_avx512f =
    RELU_IMPL("relu_avx512f", AVX512F, "AVX-512F");
