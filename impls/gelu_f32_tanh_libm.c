/* tanh_libm: the tanh approximation ½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) in binary32 with
 * tanhf, as PyTorch's gelu(approximate='tanh') writes it (Hendrycks & Gimpel 2016, eq. for GELU's
 * tanh approximation). Derivative: the derivative of that formula, as PyTorch's backward computes
 * it: ½·(1 + t) + ½·x·(1 − t²)·√(2/π)·(1 + 3·0.044715·x²), t = tanh(inner).
 *
 * 1 + tanh(inner) cancels for x < −4 just as 1 + erf does. x³ overflows for |x| > 2^42.6 (the
 * forward survives it); x² overflows for |x| > 2^64 and the derivative becomes 0·inf = NaN. */
#include "gelu_impl.h"

#include <math.h>

static const float sqrt_2_pi = 0x1.988454p-1f; /* √(2/π) rounded to binary32 */
static const float kappa = 0.044715f;         /* the published cubic coefficient */

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float inner = sqrt_2_pi * (x[i] + kappa * x[i] * x[i] * x[i]);
        y[i] = 0.5f * x[i] * (1.0f + tanhf(inner));
    }
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float x_sq = x[i] * x[i];
        float inner = sqrt_2_pi * (x[i] + kappa * x_sq * x[i]);
        float t = tanhf(inner);
        float left_derivative = 0.5f * (1.0f + t);
        float inner_derivative = sqrt_2_pi * (1.0f + 3.0f * kappa * x_sq);
        float right_derivative = 0.5f * x[i] * (1.0f - t * t) * inner_derivative;
        y[i] = left_derivative + right_derivative;
    }
}

const gelu_impl gelu_impl_tanh_libm = {
    .name = "tanh_libm",
    .method = "tanh_libm",
    .isa = GELU_ISA_PORTABLE,
    .target = GELU_TARGET_TANH,
    .features = 0,
    .forward = forward,
    .derivative = derivative,
    .contract = {
        .max_ulp = INFINITY,
        .max_abs = 4.35e-07,
        .monotone = false,
        .specials = false,
        .grad_max_ulp = INFINITY,
        .grad_max_abs = INFINITY,
    },
    .origin = "tanh approximation of Hendrycks & Gimpel 2016 in float: PyTorch gelu(approximate='tanh')",
    .family = GELU_FAMILY_LIBM_GSL,
    .known_as = "same formula as PyTorch approximate='tanh' and HF gelu_pytorch_tanh, gelu_new, "
                "gelu_accurate; HF gelu_fast is the same tanh form written as "
                "tanh(0.7978845608·x·(1 + 0.044715·x²)), a rounded constant; oneDNN "
                "eltwise_gelu_tanh",
};
