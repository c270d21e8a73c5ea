/* poly_erf8x6: the fast piecewise-minimax GELU (poly_erf.h has the method and its measured
 * accuracy), the plain one-lane build (same results as the vector builds). */
#include "vf_scalar.h"

#include "poly_erf.h"

POLY_ERF_IMPL(poly_erf8x6);
