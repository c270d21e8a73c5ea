/* erfc_libm: GELU(x) = 0.5f·x·erfcf(−x·√½) in binary32 with the C library's erfcf.
 * Derivative: 0.5f·erfcf(−x·√½) + x·expf(−x²/2)/√(2π) in binary32.
 *
 * The erfc form avoids erf_naive's cancellation: erfcf(z) keeps its relative accuracy in the
 * negative tail. What remains is the rounding of x·√½ to binary32, amplified by erfc's condition
 * number 2z² = x² (about 200 near x = −14). −inf gives NaN (−inf·0). */
#include "gelu_impl.h"

#include <math.h>

static const float sqrt1_2 = 0x1.6a09e6p-1f;      /* √½ rounded to binary32 */
static const float inv_sqrt_2pi = 0x1.988454p-2f; /* 1/√(2π) rounded to binary32 */

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = 0.5f * x[i] * erfcf(-x[i] * sqrt1_2);
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = 0.5f * erfcf(-x[i] * sqrt1_2) + x[i] * (expf(-0.5f * x[i] * x[i]) * inv_sqrt_2pi);
}

const gelu_impl gelu_impl_erfc_libm = {
    .name = "erfc_libm",
    .method = "erfc_libm",
    .isa = GELU_ISA_PORTABLE,
    .target = GELU_TARGET_EXACT,
    .features = 0,
    .forward = forward,
    .derivative = derivative,
    .contract = {
        .max_ulp = 200,
        .max_abs = 3.85e-07,
        .monotone = false,
        .specials = false,
        .grad_max_ulp = INFINITY,
        .grad_max_abs = 1.45e-07,
    },
    .origin = "x·Φ(x) written as 0.5·x·erfc(−x/√2) in float with libm erfcf",
    .family = GELU_FAMILY_LIBM_GSL,
    .known_as = GELU_KNOWN_AS_THROUGH_ERFC,
};
