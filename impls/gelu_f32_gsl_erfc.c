/* gsl_erfc (peer): GELU(x) = ½·x·erfc(−x/√2) in binary64 with GSL's gsl_sf_erfc, rounded once to
 * binary32. Derivative: ½·erfc(−x/√2) + x·exp(−x²/2)/√(2π) in binary64, rounded once.
 *
 * Contract measured on the seeded sample of tests/test_impls.c (10^5 inputs on [−20, 20],
 * `build/tests/test_impls --verbose`): forward 0.5 ULP, 2.38e-7 abs; derivative 0.5 ULP, 5.96e-8
 * abs; the bounds below sit a little above (GSL's erfc is good to ~1e-15 relative, far below a
 * binary32 ULP). ±inf give NaN (gsl_sf_erfc(±inf) is NaN), so no claim on specials. */
#include <math.h>

#include <gsl/gsl_sf_erf.h>

#include "gelu_impl.h"

static const double sqrt1_2 = 0x1.6a09e667f3bcdp-1;      /* √½ rounded to binary64 */
static const double inv_sqrt_2pi = 0x1.9884533d43651p-2; /* 1/√(2π) rounded to binary64 */

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(0.5 * xd * gsl_sf_erfc(-xd * sqrt1_2));
    }
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(0.5 * gsl_sf_erfc(-xd * sqrt1_2) + xd * (exp(-0.5 * xd * xd) * inv_sqrt_2pi));
    }
}

const gelu_impl gelu_impl_gsl_erfc = {
    .name = "gsl_erfc",
    .target = GELU_TARGET_EXACT,
    .features = 0,
    .forward = forward,
    .derivative = derivative,
    .contract = {
        .max_ulp = 0.501,
        .max_abs = 2.5e-7,
        .monotone = false,
        .specials = false,
        .grad_max_ulp = 0.501,
        .grad_max_abs = 6e-8,
    },
    .origin = "peer: x·Φ(x) as ½·x·gsl_sf_erfc(−x/√2) in double (GSL), rounded once to float",
};
