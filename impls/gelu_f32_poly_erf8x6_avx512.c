/* poly_erf8x6_avx512: the fast piecewise-minimax GELU (poly_erf.h has the method and its measured
 * accuracy), 16 lanes, AVX-512. */
#include "vf_avx512.h"

#include "poly_erf.h"

POLY_ERF_IMPL(poly_erf8x6_avx512);
