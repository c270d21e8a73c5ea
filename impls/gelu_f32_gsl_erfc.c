/* gsl_erfc (peer): GELU(x) = ½·x·erfc(−x/√2) in binary64 with GSL's gsl_sf_erfc, rounded once to
 * binary32. Derivative: ½·erfc(−x/√2) + x·exp(−x²/2)/√(2π) in binary64, rounded once (kernels:
 * erfc_f64_kernels.h, shared with erfc_f64).
 *
 * Contract set from the exhaustive run over all 2^32 inputs (README, "Measured over all 2^32
 * inputs"); first estimated on the seeded sample of tests/test_impls.c (10^5 inputs on [−20, 20],
 * `build/tests/test_impls --verbose`): forward 0.5 ULP, 2.38e-7 abs; derivative 0.5 ULP, 5.96e-8
 * abs; the bounds below sit a little above (GSL's erfc is good to ~1e-15 relative, far below a
 * binary32 ULP). ±inf give NaN (gsl_sf_erfc(±inf) is NaN), so no claim on specials. */
#include <gsl/gsl_sf_erf.h>

#include "gelu_impl.h"

#define ERFC_F64(z) gsl_sf_erfc(z)
#include "erfc_f64_kernels.h"

const gelu_impl gelu_impl_gsl_erfc = {
    .name = "gsl_erfc",
    .method = "gsl_erfc",
    .isa = GELU_ISA_PORTABLE,
    .target = GELU_TARGET_EXACT,
    .features = 0,
    .forward = erfc_f64_forward,
    .derivative = erfc_f64_derivative,
    .contract = {
        .max_ulp = 0.502,
        .max_abs = 2.39e-07,
        .monotone = true,
        .specials = false,
        .grad_max_ulp = 0.578,
        .grad_max_abs = 5.98e-08,
    },
    .origin = "peer: x·Φ(x) as ½·x·gsl_sf_erfc(−x/√2) in double (GSL), rounded once to float",
};
