/* erf_naive: GELU(x) = 0.5f·x·(1 + erff(x·√½)) in binary32, the textbook formula that PyTorch's
 * exact GELU (approximate='none') and many other code bases write.
 * Derivative: Φ(x) + x·φ(x) with Φ = 0.5f·(1 + erff(x·√½)), φ = expf(−x²/2)/√(2π), in binary32.
 *
 * Measured (see the contract below): accurate in absolute terms, but 1 + erff(x·√½) cancels
 * catastrophically for x < −4: below x ≈ −5.9 erff returns −1 and the result is −0 while the exact
 * value is a normal float, about 2^23 ULP away. Hence an absolute bound and no ULP bound.
 * −inf gives NaN (−inf·0). */
#include "gelu_impl.h"

#include <math.h>

static const float sqrt1_2 = 0x1.6a09e6p-1f;      /* √½ rounded to binary32 */
static const float inv_sqrt_2pi = 0x1.988454p-2f; /* 1/√(2π) rounded to binary32 */

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * sqrt1_2));
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float cdf = 0.5f * (1.0f + erff(x[i] * sqrt1_2));
        float pdf = expf(-0.5f * x[i] * x[i]) * inv_sqrt_2pi;
        y[i] = cdf + x[i] * pdf;
    }
}

const gelu_impl gelu_impl_erf_naive = {
    .name = "erf_naive",
    .method = "erf_naive",
    .isa = GELU_ISA_PORTABLE,
    .target = GELU_TARGET_EXACT,
    .features = 0,
    .forward = forward,
    .derivative = derivative,
    .contract = {
        .max_ulp = INFINITY,
        .max_abs = 4.49e-07,
        .monotone = false,
        .specials = false,
        .grad_max_ulp = INFINITY,
        .grad_max_abs = 1.45e-07,
    },
    .origin = "0.5·x·(1+erf(x/√2)) in float: PyTorch gelu(approximate='none'), Hendrycks & Gimpel 2016",
    .family = GELU_FAMILY_LIBM_GSL,
    .known_as = "same formula as PyTorch approximate='none' (x·½·(1 + erf(x/√2))), HF hidden_act "
                "gelu (and gelu_python); oneDNN's algorithm for it: eltwise_gelu_erf",
};
