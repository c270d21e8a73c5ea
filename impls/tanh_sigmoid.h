/* tanh (vectorized): the tanh approximation of GELU, ½·x·(1 + tanh(w)), w = √(2/π)·(x + 0.044715·x³)
 * (Hendrycks & Gimpel 2016; PyTorch gelu(approximate='tanh')), evaluated through the identity
 *     ½·(1 + tanh(w)) = σ(2w) = 1/(1 + e^{−2w}),   2w = x·(c1 + c3·x²),
 * which, unlike 1 + tanh(w) in binary32, does not cancel for x < −4: the result keeps its
 * relative accuracy down to underflow (what remains is the rounding of 2w, amplified by |2w|).
 * Derivative: σ·(1 + x·(1 − σ)·(c1 + 3·c3·x²)), the derivative of x·σ(2w), with 1 − σ as e^{−2w}·σ
 * where σ > ½ (no cancellation) and as 1 − σ elsewhere (e^{−2w} may be +inf).
 * x is clamped to [−20, 20] inside σ and its derivative (σ is 0 or 1 in binary32 beyond, and x³
 * cannot overflow), and the factor x to [−20, +inf) (so −inf gives −0, not −inf·0); subnormal
 * x go through vf_gelu_tiny (x/2 with its tie broken the exact value's way).
 * The algorithm once, on the vf_* operations; include after a vf_<isa>.h. */
#ifndef GELUCHECK_TANH_SIGMOID_H
#define GELUCHECK_TANH_SIGMOID_H

#include <math.h>

#include "gelu_impl.h"
#include "vf_array.h"
#include "vf_exp.h"
#include "vf_gelu_tiny.h"

static const float tanh_c1 = 0x1.988454p+0f; /* 2·√(2/π) rounded */
static const float tanh_c3 = 0x1.2444f2p-4f; /* 2·√(2/π)·0.044715 rounded */
static const float tanh_x_clamp = 20.0f;      /* σ(2w(−20)) ≈ e^-603: 0; σ(2w(20)) = 1 */

static inline vf tanh_clamp(vf x)
{
    return vf_min_keep_nan(vf_set1(tanh_x_clamp), vf_max_keep_nan(vf_set1(-tanh_x_clamp), x));
}

/* σ(2w(x)) for clamped x, and e^{−2w}. */
static inline vf tanh_sigma(vf xc, vf *e)
{
    vf two_w = vf_mul(xc, vf_fma(vf_set1(tanh_c3), vf_mul(xc, xc), vf_set1(tanh_c1)));
    *e = vf_exp(vf_neg(two_w));
    return vf_div(vf_set1(1.0f), vf_add(vf_set1(1.0f), *e));
}

static inline vf tanh_forward(vf x)
{
    vf e;
    vf y = vf_mul(vf_max_keep_nan(vf_set1(-tanh_x_clamp), x), tanh_sigma(tanh_clamp(x), &e));
    return vf_gelu_tiny(x, y);
}

static inline vf tanh_derivative(vf x)
{
    vf xc = tanh_clamp(x);
    vf e;
    vf s = tanh_sigma(xc, &e);
    vf dw = vf_fma(vf_set1(3.0f * tanh_c3), vf_mul(xc, xc), vf_set1(tanh_c1));
    vf one_minus_s = vf_select_less(e, vf_set1(1.0f), vf_mul(e, s), vf_sub(vf_set1(1.0f), s));
    vf inner = vf_mul(vf_mul(xc, one_minus_s), dw); /* x·(1 − σ)·(2w)' */
    return vf_mul(s, vf_add(vf_set1(1.0f), inner)); /* not fma(s, inner, s): −0 at −inf */
}

VF_ARRAY_KERNEL(tanh_forward_array, tanh_forward)
VF_ARRAY_KERNEL(tanh_derivative_array, tanh_derivative)

#define TANH_SIGMOID_IMPL(impl_name)                                                             \
    VF_GELU_IMPL(impl_name, GELU_TARGET_TANH, tanh_forward_array, tanh_derivative_array,         \
                 "tanh approximation (Hendrycks & Gimpel 2016) as x·σ(2w), no cancellation",     \
                 .max_ulp = INFINITY,                                                            \
                 .max_abs = 1e-6,                                                                \
                 .monotone = false,                                                              \
                 .specials = true,                                                               \
                 .grad_max_ulp = INFINITY,                                                       \
                 .grad_max_abs = 1e-6)

#endif
