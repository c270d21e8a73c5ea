/* relu: max(x, 0), the benchmark baseline, portable (x86-64: SSE2). Exact by construction: its
 * target is itself. Kept out of GELU accuracy tables. Kernels: relu_kernels.h. */
#include "relu_kernels.h"

const gelu_impl gelu_impl_relu = RELU_IMPL("relu", PORTABLE, "portable");
