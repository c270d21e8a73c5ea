/* erfc_f64: GELU(x) = 0.5·x·erfc(−x·√½) computed in binary64 with libm's erfc, rounded once to
 * binary32. Derivative: 0.5·erfc(−x·√½) + x·exp(−x²/2)/√(2π) in binary64, rounded once.
 *
 * The double evaluation carries ~29 bits more than binary32 needs, so the only binary32 error is
 * the final rounding (plus rare double-rounding cases next to a midpoint). −inf gives NaN
 * (−inf·0). */
#include "gelu_impl.h"

#include <math.h>

static const double sqrt1_2 = 0x1.6a09e667f3bcdp-1;      /* √½ rounded to binary64 */
static const double inv_sqrt_2pi = 0x1.9884533d43651p-2; /* 1/√(2π) rounded to binary64 */

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(0.5 * xd * erfc(-xd * sqrt1_2));
    }
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(0.5 * erfc(-xd * sqrt1_2) + xd * (exp(-0.5 * xd * xd) * inv_sqrt_2pi));
    }
}

const gelu_impl gelu_impl_erfc_f64 = {
    .name = "erfc_f64",
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
    .origin = "x·Φ(x) as 0.5·x·erfc(−x/√2) in double with libm erfc, rounded once to float",
};
