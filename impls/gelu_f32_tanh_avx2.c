/* tanh_avx2: the tanh approximation of GELU as x·σ(2w) (tanh_sigmoid.h has the method and its
 * measured accuracy), 8 lanes, AVX2 + FMA. */
#include "vf_avx2.h"

#include "tanh_sigmoid.h"

TANH_SIGMOID_IMPL(tanh_avx2);
