/* The GSL peer (plugin gelucheck_peer_gsl.so): GELU(x) = x·Φ(x) in binary64 with two of GSL's
 * functions, rounded once to binary32, through the public plugin ABI (include/gelucheck/plugin.h).
 *
 *   gsl_erfc: ½·x·gsl_sf_erfc(−x/√2); derivative ½·erfc(−x/√2) + x·exp(−x²/2)/√(2π) in binary64,
 *             rounded once (kernels: impls/erfc_f64_kernels.h, shared with erfc_f64).
 *   gsl_cdf:  x·gsl_cdf_ugaussian_P(x); derivative Φ(x) + x·φ(x) with gsl_ran_ugaussian_pdf.
 * And gsl_erfc in binary64 (format "binary64", the ABI's binary64 kernels): the same double
 * kernel without the final rounding, scanned by `accuracy --format binary64`.
 *
 * Contracts set from the exhaustive run over all 2^32 inputs (docs/accuracy.md, "Measured over all 2^32
 * inputs"); first estimated on the seeded sample of tests/test_impls.c (10^5 inputs on [−20, 20]):
 * forward 0.5 ULP, 2.38e-7 abs; derivative 0.5 ULP, 5.96e-8 abs; the bounds sit a little above
 * (GSL's erfc is good to ~1e-15 relative, far below a binary32 ULP). Neither claims specials:
 * gsl_sf_erfc(±inf) is NaN, and Φ(−inf) = 0 makes −inf·0 = NaN. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_erf.h>

#include "gelucheck/plugin.h"

#define ERFC_F64(z) gsl_sf_erfc(z)
#include "erfc_f64_kernels.h"

static void cdf_forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(xd * gsl_cdf_ugaussian_P(xd));
    }
}

static void cdf_derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(gsl_cdf_ugaussian_P(xd) + xd * gsl_ran_ugaussian_pdf(xd));
    }
}

static const gelucheck_impl_v1 impls[] = {
    {
        .size = sizeof(gelucheck_impl_v1),
        .name = "gsl_erfc",
        .method = "gsl_erfc",
        .target = "exact",
        .format = "binary32",
        .cpu_features = "",
        .forward = erfc_f64_forward,
        .derivative = erfc_f64_derivative,
        .contract = {.max_ulp = 0.502, .max_abs = 2.39e-07, .grad_max_ulp = 0.578,
                     .grad_max_abs = 5.98e-08, .monotone = 1},
        .origin = "peer: x·Φ(x) as ½·x·gsl_sf_erfc(−x/√2) in double (GSL), rounded once to float",
    },
    {
        .size = sizeof(gelucheck_impl_v1),
        .name = "gsl_cdf",
        .method = "gsl_cdf",
        .target = "exact",
        .format = "binary32",
        .cpu_features = "",
        .forward = cdf_forward,
        .derivative = cdf_derivative,
        .contract = {.max_ulp = 0.502, .max_abs = 2.39e-07, .grad_max_ulp = 0.501,
                     .grad_max_abs = 5.98e-08, .monotone = 1},
        .origin = "peer: x·Φ(x) with GSL's gsl_cdf_ugaussian_P in double, rounded once to float",
    },
    {   /* binary64: the same double kernel, not rounded (a row of the binary64 list). No claim:
         * gsl_sf_erfc(z) is NaN for z < −5.02e61 (GSL 2.7, bisected here), so the forward and
         * derivative are NaN for x > 7.1e61 (2^205.5) */
        .size = sizeof(gelucheck_impl_v1),
        .name = "gsl_erfc",
        .method = "gsl_erfc",
        .target = "exact",
        .format = "binary64",
        .cpu_features = "",
        .forward_binary64 = gelu_f64_erfc_forward,
        .derivative_binary64 = gelu_f64_erfc_derivative,
        .contract = {.max_ulp = GELUCHECK_NO_CLAIM, .max_abs = GELUCHECK_NO_CLAIM,
                     .grad_max_ulp = GELUCHECK_NO_CLAIM, .grad_max_abs = GELUCHECK_NO_CLAIM},
        .origin = "peer: x·Φ(x) as ½·x·gsl_sf_erfc(−x/√2) in double (GSL)",
    },
};

GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void)
{
    static const gelucheck_plugin_info_v1 info = {GELUCHECK_PLUGIN_ABI,
                                                  sizeof impls / sizeof impls[0], impls};
    return &info;
}
