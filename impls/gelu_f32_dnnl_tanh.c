/* dnnl_tanh, dnnl_tanh_omp (peers): oneDNN's eltwise dnnl_eltwise_gelu_tanh (C API, the Debian
 * libdnnl build), forward and backward (the derivative is backward with diff_dst = 1, exact
 * since 1·g = g). dnnl_tanh runs single-threaded; dnnl_tanh_omp is the same primitive on
 * oneDNN's own OpenMP threads (all cores), a separate, labelled row for the benchmark.
 * Execution: dnnl_eltwise.c.
 *
 * Contract set from the exhaustive run over all 2^32 inputs (README, "Measured over all 2^32
 * inputs"); first estimated on the seeded sample of tests/test_impls.c (10^5 inputs on [−20, 20],
 * `build/tests/test_impls --verbose`), bounds set a little above. Sample maxima: forward 4.77e-7
 * abs, derivative 7.30e-7 abs. No ULP claim: the negative tail flushes to 0 (1.7e7 ULP at x ≈
 * −8.2). −inf gives NaN: no claim on specials. */
#include <math.h>

#include "dnnl_eltwise.h"

#define CONTRACT                                                                                 \
    {                                                                                            \
        .max_ulp = INFINITY, .max_abs = 5.03e-07, .monotone = false, .specials = false,              \
        .grad_max_ulp = INFINITY, .grad_max_abs = INFINITY,                                        \
    }

DNNL_GELU_IMPLS(tanh, dnnl_eltwise_gelu_tanh, GELU_TARGET_TANH, CONTRACT);
