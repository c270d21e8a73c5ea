/* erfc_accurate: GELU within 2 ULP of exact x·Φ(x) over every binary32 input, negative tail down
 * to underflow included, monotone, special values exact, with a derivative to match. The
 * algorithm, written once on the vf_/vd_ operations; include after a vf_<isa>.h
 * (gelu_f32_erfc_accurate*.c do).
 *
 * Measured over all 2^32 inputs against a binary64 erfc reference (a throwaway exhaustive loop,
 * see docs/accuracy.md), each ISA build separately, all three bit-identical: forward max 0.632 ULP
 * (at x = −0x1.5aace8p+3), max abs 2.38e-7 (half an ULP of 4), no monotonicity violation, NaN
 * for every NaN; derivative max abs 5.97e-8, max 1.41 ULP away from x_min (its zero).
 *
 * For u = |x| clamped to 15 (beyond, GELU(−u) rounds to −0 and GELU(u) to u):
 *     GELU(−u) = −u·Φ(−u) = −u·exp(−u²/2 + H(u)),   H(u) = log(Φ(−u)·e^{u²/2}),
 *     GELU(u)  = u + GELU(−u).
 * H is smooth and bounded (−0.69 at 0, −3.6 at 15) where Φ(−u) underflows binary32; it is a
 * degree-8 polynomial per binade of u (tools/erfc_accurate_coeffs.sol). The whole evaluation is
 * in binary64 (two half vectors per vector): u² is exact there (so exp(−u²/2) needs no
 * compensation), Φ(−15) is a normal number, and the only binary32 rounding is the last one. That
 * last point is what makes it monotone: binary32 arithmetic inside leaves ~1 ULP of noise, more
 * than GELU moves between consecutive inputs near its minimum, and breaks monotonicity there; a
 * binary64 value accurate to 2^-26 with 2^-50 noise, rounded once, does not.
 *
 * Derivative: f'(x) = Φ(x) + x·φ(x); f'(−u) = Φ(−u) − u·φ(u) with both terms from the same exp
 * (φ with H replaced by −log√(2π)), and f'(u) = 1 − f'(−u).
 *
 * Special values: ±0 → ±0, +inf → +inf, −inf → −0, NaN → NaN, ±FLT_MAX → FLT_MAX / −0 (u is clamped
 * before squaring); f'(±0) = ½, f'(+inf) = 1, f'(−inf) = −0. For 0 < |x| < 2^-60, GELU(x) rounds
 * like x·(½ + x/√(2π)): x/2 nudged by 2^-40 relative toward +inf, so that an odd subnormal x, for
 * which x/2 is a tie, rounds the way the exact value does. */
#ifndef GELUCHECK_ERFC_ACCURATE_H
#define GELUCHECK_ERFC_ACCURATE_H

#include <math.h>

#include "erfc_accurate_coeffs.h"
#include "gelu_impl.h"
#include "vf_array.h"

static const double erfc_acc_u_max = 15.0;              /* GELU(−15) ≈ −5e-50 rounds to −0 */
static const double erfc_acc_log2e = 0x1.71547652b82fep+0; /* 1/ln2 */
static const double erfc_acc_ln2_hi = 0x1.62e42feep-1;      /* ln2 to 32 bits: k·ln2_hi exact */
static const double erfc_acc_ln2_lo = 0x1.a39ef35793c76p-33; /* ln2 − ln2_hi */
static const double erfc_acc_log_inv_sqrt_2pi = -0x1.d67f1c864beb5p-1; /* log(1/√(2π)) */
static const double erfc_acc_tiny = 0x1p-60; /* below, GELU(x) = x/2 to 2^-60 relative */

/* e^a for a ≤ 0 (a ≥ −120 here): a = k·ln2 + r, |r| ≤ 0.36, e^r = 1 + r·P(r). */
static inline vd erfc_acc_exp_d(vd a)
{
    vd k = vd_round(vd_mul(a, vd_set1(erfc_acc_log2e)));
    vd r = vd_fma(k, vd_set1(-erfc_acc_ln2_hi), a);
    r = vd_fma(k, vd_set1(-erfc_acc_ln2_lo), r);
    vd p = vd_set1(erfc_acc_exp[6]);
    for (int i = 5; i >= 0; i--)
        p = vd_fma(p, r, vd_set1(erfc_acc_exp[i]));
    return vd_scale(vd_fma(r, p, vd_set1(1.0)), k);
}

/* H(u) on u's binade. */
static inline vd erfc_acc_h(vd u)
{
    const double *const c[9] = {erfc_acc_c0, erfc_acc_c1, erfc_acc_c2, erfc_acc_c3, erfc_acc_c4,
                                erfc_acc_c5, erfc_acc_c6, erfc_acc_c7, erfc_acc_c8};
    vdi i = vd_binade_index(u, 1022, 4); /* [0,1) [1,2) [2,4) [4,8) [8,15] */
    vd v = vd_sub(u, vd_lookup(erfc_acc_mid, i));
    vd h = vd_lookup(c[8], i);
    for (int d = 7; d >= 0; d--)
        h = vd_fma(h, v, vd_lookup(c[d], i));
    return h;
}

static inline vd erfc_acc_clamped_abs(vd x)
{
    return vd_min_keep_nan(vd_set1(erfc_acc_u_max), vd_abs(x)); /* NaN stays NaN */
}

static inline vd erfc_acc_forward_d(vd x)
{
    vd u = erfc_acc_clamped_abs(x);
    vd u2 = vd_mul(u, u);
    vd z = vd_mul(vd_neg(u), erfc_acc_exp_d(vd_fma(u2, vd_set1(-0.5), erfc_acc_h(u)))); /* GELU(−u) */
    vd y = vd_select_sign(x, z, vd_add(x, z));
    vd half_up = vd_select_sign(x, vd_set1(0.5 - 0x1p-41), vd_set1(0.5 + 0x1p-41));
    return vd_select_less(vd_abs(x), vd_set1(erfc_acc_tiny), vd_mul(x, half_up), y);
}

static inline vd erfc_acc_derivative_d(vd x)
{
    vd u = erfc_acc_clamped_abs(x);
    vd minus_half_u2 = vd_mul(vd_mul(u, u), vd_set1(-0.5));
    vd cdf = erfc_acc_exp_d(vd_add(minus_half_u2, erfc_acc_h(u)));                 /* Φ(−u) */
    vd pdf = erfc_acc_exp_d(vd_add(minus_half_u2, vd_set1(erfc_acc_log_inv_sqrt_2pi))); /* φ(u) */
    vd d_neg = vd_fma(vd_neg(u), pdf, cdf);  /* f'(−u) */
    return vd_select_sign(x, d_neg, vd_sub(vd_set1(1.0), d_neg));
}

/* The binary32 vector functions: both halves in binary64, rounded once. */
#define ERFC_ACC_ON_HALVES(fn_f, fn_d)                                                        \
    static inline vf fn_f(vf x)                                                              \
    {                                                                                        \
        vd lo, hi;                                                                           \
        vf_split(x, &lo, &hi);                                                               \
        lo = fn_d(lo);                                                                       \
        if (VF_HALVES == 2) hi = fn_d(hi);                                                   \
        return vf_join(lo, hi);                                                              \
    }
ERFC_ACC_ON_HALVES(erfc_acc_forward, erfc_acc_forward_d)
ERFC_ACC_ON_HALVES(erfc_acc_derivative, erfc_acc_derivative_d)

VF_ARRAY_KERNEL(erfc_acc_forward_array, erfc_acc_forward)
VF_ARRAY_KERNEL(erfc_acc_derivative_array, erfc_acc_derivative)

/* The descriptor of one ISA's build: all share one contract (the same operations in the same
 * order give the same results on every ISA; each is verified on its own anyway). */
#define ERFC_ACCURATE_IMPL(impl_name)                                                            \
    VF_GELU_IMPL(impl_name, GELU_TARGET_EXACT, erfc_acc_forward_array, erfc_acc_derivative_array, \
                 "x·Φ(x) as −u·exp(−u²/2 + H(u)) in binary64, H per binade by Sollya",           \
                 .max_ulp = 0.634,                                                                \
                 .max_abs = 2.39e-07,                                                              \
                 .monotone = true,                                                               \
                 .specials = true,                                                               \
                 .grad_max_ulp = 5.47e+04,                                                       \
                 .grad_max_abs = 5.99e-08)

#endif
