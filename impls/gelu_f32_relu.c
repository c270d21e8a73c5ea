/* relu: max(x, 0), the benchmark baseline. Its target is itself (exact by construction):
 * relu(x) = x for x > 0 or NaN, +0 otherwise (so relu(−0) = +0); derivative 1 for x > 0, NaN for
 * NaN, 0 otherwise (PyTorch's choice at 0). Kept out of GELU accuracy tables. */
#include "gelu_impl.h"

#include <math.h>

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = (x[i] > 0.0f || isnan(x[i])) ? x[i] : 0.0f;
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = isnan(x[i]) ? x[i] : (x[i] > 0.0f ? 1.0f : 0.0f);
}

const gelu_impl gelu_impl_relu = {
    .name = "relu",
    .target = GELU_TARGET_RELU,
    .features = 0,
    .forward = forward,
    .derivative = derivative,
    .contract = {
        .max_ulp = 0.0,
        .max_abs = 0.0,
        .monotone = true,
        .specials = true,
        .grad_max_ulp = 0.0,
        .grad_max_abs = 0.0,
    },
    .origin = "max(x, 0): the baseline every GELU is costed against",
};
