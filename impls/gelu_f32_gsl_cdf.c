/* gsl_cdf (peer): GELU(x) = x·Φ(x) in binary64 with GSL's gsl_cdf_ugaussian_P, rounded once to
 * binary32. Derivative: Φ(x) + x·φ(x) with gsl_ran_ugaussian_pdf, in binary64, rounded once.
 *
 * Contract set from the exhaustive run over all 2^32 inputs (README, "Measured over all 2^32
 * inputs"); first estimated on the seeded sample of tests/test_impls.c (10^5 inputs on [−20, 20],
 * `build/tests/test_impls --verbose`): forward 0.5 ULP, 2.38e-7 abs; derivative 0.5 ULP,
 * 5.96e-8 abs; the bounds below sit a little above. Φ(NaN) is NaN and Φ(±inf) is 0 or 1, so −inf gives NaN (−inf·0): no claim on
 * specials. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "gelu_impl.h"

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(xd * gsl_cdf_ugaussian_P(xd));
    }
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(gsl_cdf_ugaussian_P(xd) + xd * gsl_ran_ugaussian_pdf(xd));
    }
}

const gelu_impl gelu_impl_gsl_cdf = {
    .name = "gsl_cdf",
    .method = "gsl_cdf",
    .isa = GELU_ISA_PORTABLE,
    .target = GELU_TARGET_EXACT,
    .features = 0,
    .forward = forward,
    .derivative = derivative,
    .contract = {
        .max_ulp = 0.502,
        .max_abs = 2.39e-07,
        .monotone = true,
        .specials = false,
        .grad_max_ulp = 0.501,
        .grad_max_abs = 5.98e-08,
    },
    .origin = "peer: x·Φ(x) with GSL's gsl_cdf_ugaussian_P in double, rounded once to float",
};
