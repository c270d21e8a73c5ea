/* silu: SiLU / Swish-1, x·σ(x) = x / (1 + expf(−x)) in binary32 (Elfwing et al. 2017; the
 * activation inside SwiGLU). Not a GELU: registered for the benchmark and the make_moons
 * comparison, with its own target. Derivative: s + x·s·(1 − s), s = σ(x). */
#include "gelu_impl.h"

#include <math.h>

static void forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] / (1.0f + expf(-x[i]));
}

static void derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float s = 1.0f / (1.0f + expf(-x[i]));
        y[i] = s + x[i] * s * (1.0f - s);
    }
}

const gelu_impl gelu_impl_silu = {
    .name = "silu",
    .method = "silu",
    .isa = GELU_ISA_PORTABLE,
    .target = GELU_TARGET_SILU,
    .features = 0,
    .forward = forward,
    .derivative = derivative,
    .contract = {
        .max_ulp = INFINITY,
        .max_abs = 1.28e-06,
        .monotone = false,
        .specials = false,
        .grad_max_ulp = INFINITY,
        .grad_max_abs = 9.78e-07,
    },
    .origin = "x·σ(x), SiLU/Swish (Elfwing et al. 2017), the activation of SwiGLU",
    .family = GELU_FAMILY_LIBM_GSL,
    .known_as = "not a GELU: PyTorch nn.SiLU, HF hidden_act silu / swish",
};
