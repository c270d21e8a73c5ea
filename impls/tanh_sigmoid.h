/* tanh (vectorized): the tanh approximation of GELU, ½·x·(1 + tanh(w)), w = √(2/π)·(x + 0.044715·x³)
 * (Hendrycks & Gimpel 2016; PyTorch gelu(approximate='tanh')), evaluated through the identity
 *     ½·(1 + tanh(w)) = σ(2w) = 1/(1 + e^{−2w}),   2w = x·(c1 + c3·x²),
 * which, unlike 1 + tanh(w) in binary32, does not cancel for x < −4: the result keeps its
 * relative accuracy down to underflow (what remains is the rounding of 2w, amplified by |2w|).
 * Derivative: σ·(1 + x·(1 − σ)·(c1 + 3·c3·x²)), the derivative of x·σ(2w). σ and 1 − σ both
 * come from e^{−|2w|}, which cannot overflow (e^{+2w} would for x < −10).
 * The result is x·σ for x < 0 and x − x·(1 − σ) for x ≥ 0 (one rounding of an accurate
 * correction). x is clamped to [−20, 20] inside (σ is 0 or 1 in binary32 beyond, x³ cannot
 * overflow, and −inf gives −0, not −inf·0); where x/2 is subnormal the result is vf_gelu_tiny's
 * (x/2 with its tie broken the exact value's way).
 * Measured over all 2^32 inputs against a binary64 x/(1 + e^{−2w}) (AVX-512 and AVX2 builds, and
 * the plain build bit-identical to them on 2^28 inputs): max 213.9 ULP against the tanh target
 * (at x = −0x1.4150cp+3, from the rounding of 2w ≈ −90), max abs 2.39e-7, 3.8e6 monotonicity
 * violations (binary32 noise, first at x ≈ −10.6); derivative max abs 2.64e-7.
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

/* σ(2w) and 1 − σ(2w) for clamped x, from E = e^{−|2w|} ≤ 1 (no overflow, no cancellation):
 * for x ≥ 0, σ = 1/(1 + E) and 1 − σ = E/(1 + E); for x < 0 the other way round. */
static inline vf tanh_sigma(vf xc, vf *one_minus)
{
    vf two_w = vf_mul(xc, vf_fma(vf_set1(tanh_c3), vf_mul(xc, xc), vf_set1(tanh_c1)));
    vf e = vf_exp(vf_neg(vf_abs(two_w)));
    vf r = vf_div(vf_set1(1.0f), vf_add(vf_set1(1.0f), e));
    vf er = vf_mul(e, r);
    *one_minus = vf_select_sign(xc, r, er);
    return vf_select_sign(xc, er, r);
}

static inline vf tanh_forward(vf x)
{
    vf one_minus;
    vf xc = tanh_clamp(x);
    vf s = tanh_sigma(xc, &one_minus);
    /* x < 0: x·σ (with x ≥ −20, so −inf gives −0); x ≥ 0: x − x·(1 − σ), one rounding. */
    vf y = vf_select_sign(x, vf_mul(xc, s), vf_fma(vf_neg(xc), one_minus, x));
    return vf_gelu_tiny(x, y);
}

static inline vf tanh_derivative(vf x)
{
    vf xc = tanh_clamp(x);
    vf one_minus_s;
    vf s = tanh_sigma(xc, &one_minus_s);
    vf dw = vf_fma(vf_set1(3.0f * tanh_c3), vf_mul(xc, xc), vf_set1(tanh_c1));
    vf inner = vf_mul(vf_mul(xc, one_minus_s), dw); /* x·(1 − σ)·(2w)' */
    return vf_mul(s, vf_add(vf_set1(1.0f), inner)); /* not fma(s, inner, s): −0 at −inf */
}

VF_ARRAY_KERNEL(tanh_forward_array, tanh_forward)
VF_ARRAY_KERNEL(tanh_derivative_array, tanh_derivative)

#define TANH_SIGMOID_IMPL(impl_name)                                                             \
    VF_GELU_IMPL(impl_name, GELU_TARGET_TANH, tanh_forward_array, tanh_derivative_array,         \
                 "tanh approximation (Hendrycks & Gimpel 2016) as x·σ(2w), no cancellation",     \
                 NULL,    \
                 .max_ulp = 215,                                                                 \
                 .max_abs = 2.39e-07,                                                              \
                 .monotone = false,                                                              \
                 .specials = true,                                                               \
                 .grad_max_ulp = INFINITY,                                                       \
                 .grad_max_abs = 2.65e-07)

#endif
