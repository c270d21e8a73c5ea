/* dnnl_erf, dnnl_erf_omp (peers): oneDNN's eltwise dnnl_eltwise_gelu_erf (C API, the Debian libdnnl
 * build), forward and backward (the derivative is backward with diff_dst = 1, exact since 1·g =
 * g). dnnl_erf runs single-threaded; dnnl_erf_omp is the same primitive on oneDNN's own OpenMP
 * threads (all cores), a separate, labelled row for the benchmark. Execution: dnnl_eltwise.c.
 *
 * Contract set from the exhaustive run over all 2^32 inputs (README, "Measured over all 2^32
 * inputs"); first estimated on the seeded sample of tests/test_impls.c (10^5 inputs on [−20, 20],
 * `build/tests/test_impls --verbose`), bounds set a little above. Sample maxima: forward 3.71e-7
 * abs, derivative 2.56e-7 abs. No ULP claim: the forward gives 0 where GELU is tiny and negative
 * (1.7e7 ULP at x ≈ −7.1), and +0 at −0. −inf gives NaN. */
#include <math.h>

#include "dnnl_eltwise.h"

#define CONTRACT                                                                                 \
    {                                                                                            \
        .max_ulp = INFINITY, .max_abs = 3.8e-07, .monotone = false, .specials = false,              \
        .grad_max_ulp = INFINITY, .grad_max_abs = 3.21e-07,                                        \
    }

DNNL_GELU_IMPLS(erf, dnnl_eltwise_gelu_erf, GELU_TARGET_EXACT, CONTRACT);
