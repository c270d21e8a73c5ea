/* poly_erf8x6_avx2: the fast piecewise-minimax GELU (poly_erf.h has the method and its measured
 * accuracy), 8 lanes, AVX2 + FMA. */
#include "vf_avx2.h"

#include "poly_erf.h"

POLY_ERF_IMPL(poly_erf8x6_avx2);
