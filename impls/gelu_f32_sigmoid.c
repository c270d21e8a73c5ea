/* sigmoid: the "quick GELU" x·σ(1.702·x) = x / (1 + expf(−1.702·x)) in binary32 (Hendrycks &
 * Gimpel 2016; Hugging Face hidden_act 'quick_gelu').
 * Derivative: s + 1.702·x·s·(1 − s), s = σ(1.702·x), in binary32. */
#include "gelu_impl.h"

#include <math.h>

static const float k = 1.702f; /* the published slope */

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] / (1.0f + expf(-k * x[i]));
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float s = 1.0f / (1.0f + expf(-k * x[i]));
        y[i] = s + k * x[i] * s * (1.0f - s);
    }
}

const gelu_impl gelu_impl_sigmoid = {
    .name = "sigmoid",
    .method = "sigmoid",
    .isa = GELU_ISA_PORTABLE,
    .target = GELU_TARGET_SIGMOID,
    .features = 0,
    .forward = forward,
    .derivative = derivative,
    .contract = {
        .max_ulp = INFINITY,
        .max_abs = 7.42e-07,
        .monotone = false,
        .specials = false,
        .grad_max_ulp = INFINITY,
        .grad_max_abs = INFINITY,
    },
    .origin = "x·σ(1.702·x), Hendrycks & Gimpel 2016 ('quick GELU', Hugging Face quick_gelu)",
    .family = GELU_FAMILY_LIBM_GSL,
    .known_as = "same formula as HF hidden_act quick_gelu (x·σ(1.702·x))",
};
