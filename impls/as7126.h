/* as7126: GELU(x) = ½·x·(1 + erf(x/√2)) with erf by Abramowitz & Stegun 7.1.26,
 *     erf(z) ≈ 1 − (a1·t + a2·t² + a3·t³ + a4·t⁴ + a5·t⁵)·e^{−z²},  t = 1/(1 + p·z),  z ≥ 0,
 * |error| ≤ 1.5e-7 (Handbook of Mathematical Functions, 1964, eq. 7.1.26), odd extension for
 * z < 0. This is the erf behind PyTorch's vectorized erf and oneDNN's AVX2 gelu_erf, written the
 * way they evaluate it (division for t, Horner in t, e^{−z²} by a polynomial exp, then the erf
 * form), so that users see its behaviour: absolute error a few 1e-7, but 1 + erf cancels for
 * x < −4 and the result is −0 below x ≈ −5.9, some 2^24 ULP from exact GELU. −inf gives NaN
 * (−inf·0), as in those libraries. Derivative as PyTorch's backward: Φ(x) + x·φ(x) with Φ from
 * the same erf and φ = e^{−x²/2}/√(2π).
 * Measured over all 2^32 inputs against a binary64 erfc reference (AVX-512 and AVX2 builds, and
 * the plain build bit-identical to them on 2^28 inputs): max abs 4.70e-7 (at x = 0x1.905a62p+1),
 * ULP error unbounded (1.5e8 inputs above 2 ULP, −0 in the tail), 1.8e7 monotonicity
 * violations; derivative max abs 2.93e-7.
 * The algorithm once, on the vf_* operations; include after a vf_<isa>.h. */
#ifndef GELUCHECK_AS7126_H
#define GELUCHECK_AS7126_H

#include <math.h>

#include "gelu_impl.h"
#include "vf_array.h"
#include "vf_exp.h"

/* The published coefficients (A&S 7.1.26), rounded to binary32. */
static const float as7126_p = 0.3275911f;
static const float as7126_a[5] = {0.254829592f, -0.284496736f, 1.421413741f, -1.453152027f,
                                  1.061405429f};
static const float as7126_sqrt1_2 = 0x1.6a09e6p-1f;      /* √½ rounded */
static const float as7126_inv_sqrt_2pi = 0x1.988454p-2f; /* 1/√(2π) rounded */

/* 1 + erf(x/√2) = 2·Φ(x). */
static inline vf as7126_one_plus_erf(vf x)
{
    vf z = vf_abs(vf_mul(x, vf_set1(as7126_sqrt1_2)));
    vf t = vf_div(vf_set1(1.0f), vf_fma(vf_set1(as7126_p), z, vf_set1(1.0f)));
    vf poly = vf_set1(as7126_a[4]);
    for (int i = 3; i >= 0; i--)
        poly = vf_fma(poly, t, vf_set1(as7126_a[i]));
    vf erfc_abs = vf_mul(vf_mul(poly, t), vf_exp(vf_neg(vf_mul(z, z))));
    vf erf_abs = vf_sub(vf_set1(1.0f), erfc_abs);
    return vf_add(vf_set1(1.0f), vf_select_sign(x, vf_neg(erf_abs), erf_abs));
}

static inline vf as7126_forward(vf x)
{
    return vf_mul(vf_mul(vf_set1(0.5f), x), as7126_one_plus_erf(x));
}

static inline vf as7126_derivative(vf x)
{
    vf cdf = vf_mul(vf_set1(0.5f), as7126_one_plus_erf(x));
    vf pdf = vf_mul(vf_exp(vf_mul(vf_set1(-0.5f), vf_mul(x, x))), vf_set1(as7126_inv_sqrt_2pi));
    return vf_fma(x, pdf, cdf);
}

VF_ARRAY_KERNEL(as7126_forward_array, as7126_forward)
VF_ARRAY_KERNEL(as7126_derivative_array, as7126_derivative)

/* One contract for every ISA's build (same operations, same order; each verified anyway). */
#define AS7126_IMPL(impl_name)                                                                   \
    VF_GELU_IMPL(impl_name, GELU_TARGET_EXACT, as7126_forward_array, as7126_derivative_array,    \
                 "erf by Abramowitz & Stegun 7.1.26: PyTorch's vectorized erf, oneDNN AVX2",     \
                 "same formula as PyTorch approximate='none' with erf by Abramowitz & Stegun 7.1.26, "       \
                 "as PyTorch's vectorized erf and oneDNN's AVX2 eltwise_gelu_erf evaluate it",    \
                 .max_ulp = INFINITY,                                                            \
                 .max_abs = 4.72e-07,                                                                \
                 .monotone = false,                                                              \
                 .specials = false,                                                              \
                 .grad_max_ulp = INFINITY,                                                       \
                 .grad_max_abs = 3.39e-07)

#endif
