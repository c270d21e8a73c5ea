/* poly_erf8x6: a fast GELU for an absolute-error budget, GELU(x) = x/2 + |x|·G(|x|) with
 *     G(u) = Φ(u) − ½ = erf(u/√2)/2,
 * G a degree-6 polynomial on each of 8 equal intervals of [0, 5.4] (minimax, binary32
 * coefficients, tools/poly_erf8x6_coeffs.sol), the sum formed by one FMA so that x/2 is not
 * rounded. Beyond 5.4, GELU(x) is x (x > 0; off by at most 1.8e-7) or −0 (x < 0; off by at most
 * 1.8e-7). The sign of x is ORed into the result so that x < 0 never gives +0 (−inf → −0);
 * x/2 is rounded toward +inf (vf_half_up: exact unless subnormal, where that is the exact
 * value's way of breaking the tie; one instruction on AVX-512).
 * Derivative: Φ(x) + x·φ(x) = ½ + sign(x)·(G(u) + u·G'(u)), G' = φ from the same polynomials'
 * derivative (Horner for P and P' together), 1 and 0 beyond the cut.
 * Measured over all 2^32 inputs against a binary64 erfc reference (each ISA build; bit-identical):
 * max abs 3.45e-7 (at x = 0x1.16407p+2), NaN for every NaN; derivative max abs 1.26e-6 (the
 * polynomials' derivative). Binary32 throughout, so not monotone: 1.5e7 violations, mostly in
 * the tail, where y = u·G − u/2 is quantized by G's ULP; no ULP bound (−0 below −5.4).
 * The algorithm once, on the vf_* operations; include after a vf_<isa>.h. */
#ifndef GELUCHECK_POLY_ERF_H
#define GELUCHECK_POLY_ERF_H

#include <math.h>

#include "gelu_impl.h"
#include "poly_erf8x6_coeffs.h"
#include "vf_array.h"

static const float poly_erf_cut = 5.4f;           /* 5.4·Φ(−5.4) = 1.8e-7: below the budget */
static const float poly_erf_scale = 8.0f / 5.4f;  /* intervals per unit of u */

static const float *const poly_erf_c[7] = {poly_erf_c0, poly_erf_c1, poly_erf_c2, poly_erf_c3,
                                           poly_erf_c4, poly_erf_c5, poly_erf_c6};

/* G(u) for 0 ≤ u ≤ 5.4, and G'(u) when dg is not NULL. */
static inline vf poly_erf_g(vf u, vf *dg)
{
    vi i = vf_interval_index(u, poly_erf_scale, 7);
    vf v = vf_sub(u, vf_lookup(poly_erf_mid, i));
    vf g = vf_lookup(poly_erf_c[6], i);
    vf d = vf_set1(0.0f);
    for (int k = 5; k >= 0; k--) {
        if (dg) d = vf_fma(d, v, g);
        g = vf_fma(g, v, vf_lookup(poly_erf_c[k], i));
    }
    if (dg) *dg = d;
    return g;
}

static inline vf poly_erf_forward(vf x)
{
    vf u = vf_abs(x);
    vf uc = vf_min_keep_nan(vf_set1(poly_erf_cut), u);
    vf g = vf_select_less(u, vf_set1(poly_erf_cut), poly_erf_g(uc, NULL), vf_set1(0.5f));
    /* x/2 rounded up: the exact x/2 + x²/√(2π) breaks the tie of a subnormal x/2 upward */
    vf half_x = vf_half_up(vf_max_keep_nan(vf_set1(-poly_erf_cut), x));
    vf y = vf_or_sign(vf_fma(uc, g, half_x), x);
    return vf_select_less(vf_set1(poly_erf_cut), x, x, y); /* x > cut: x itself (+inf too) */
}

static inline vf poly_erf_derivative(vf x)
{
    vf u = vf_abs(x);
    vf uc = vf_min_keep_nan(vf_set1(poly_erf_cut), u);
    vf dg;
    vf g = poly_erf_g(uc, &dg);
    vf t = vf_fma(uc, dg, g); /* G(u) + u·G'(u) */
    vf inside = vf_add(vf_set1(0.5f), vf_select_sign(x, vf_neg(t), t));
    vf outside = vf_select_sign(x, vf_set1(-0.0f), vf_set1(1.0f));
    return vf_select_less(vf_set1(poly_erf_cut), u, vf_or_sign(outside, x), inside); /* NaN: inside */
}

VF_ARRAY_KERNEL(poly_erf_forward_array, poly_erf_forward)
VF_ARRAY_KERNEL(poly_erf_derivative_array, poly_erf_derivative)

#define POLY_ERF_IMPL(impl_name)                                                                 \
    VF_GELU_IMPL(impl_name, GELU_TARGET_EXACT, poly_erf_forward_array, poly_erf_derivative_array, \
                 "x/2 + |x|·erf(|x|/√2)/2, erf by 8 Sollya minimax polynomials of degree 6",     \
                 .max_ulp = INFINITY,                                                            \
                 .max_abs = 3.46e-07,                                                              \
                 .monotone = false,                                                              \
                 .specials = true,                                                               \
                 .grad_max_ulp = INFINITY,                                                       \
                 .grad_max_abs = 1.26e-06)

#endif
