/* tanh_avx512: the tanh approximation of GELU as x·σ(2w) (tanh_sigmoid.h has the method and its
 * measured accuracy), 16 lanes, AVX-512. */
#include "vf_avx512.h"

#include "tanh_sigmoid.h"

TANH_SIGMOID_IMPL(tanh_avx512);
