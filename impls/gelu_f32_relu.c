/* relu: max(x, 0), the benchmark baseline, portable (x86-64: SSE2), in binary32 (the registry's
 * row) and binary64 (the binary64 list's). Exact by construction: its target is itself. Kept out
 * of GELU accuracy tables. Kernels: relu_kernels.h. */
#include "relu_kernels.h"

const gelu_impl gelu_impl_relu = RELU_IMPL("relu", PORTABLE, "portable");
const gelu_impl gelu_impl64_relu = RELU64_IMPL("relu", PORTABLE, "portable");
