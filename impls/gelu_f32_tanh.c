/* tanh: the tanh approximation of GELU as x·σ(2w) (tanh_sigmoid.h has the method and its
 * measured accuracy), the plain one-lane build (same results as the vector builds). */
#include "vf_scalar.h"

#include "tanh_sigmoid.h"

TANH_SIGMOID_IMPL(tanh);
