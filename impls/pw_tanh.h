/* pw_tanh: the tanh form of GELU (PyTorch approximate='tanh', target tanh)
 *     f(x) = x/2·(1 + tanh(a·(x + b·x³))),  a = √(2/π), b = 0.044715 (the constants as reals),
 * within 1 ULP of f over every binary32 input (the negative tail down to underflow included),
 * monotone, special values exact, in binary32 throughout; its derivative likewise.
 * The contract below is what `gelucheck accuracy --impl pw_tanh_avx512 --grad` measures over
 * all 2^32 inputs: forward 0.935 ULP at −0x1.f3308p+1 (99.901 % correctly rounded), derivative
 * 0.939 ULP at −0x1.0e2158p+2 (both in the negative pieces; the tail alone, every float below
 * bottom: 0.831 and 0.803), max abs 2.392e-7 and 6.02e-8, no monotonicity violation, no wrong
 * sign, the specials right (the three ISA builds give the same bits, tests/test_impls.c).
 *
 * Regions:
 *   x < bottom ≈ −4.22   the exp tail below (pw_tanh_tail_*);
 *   [bottom, top]        impls/pw_precise_eval.h's 32 pieces of degree 7, fitted to f as
 *                        pw_precise's are to GELU (tools/pw_tanh_coeffs.sol), with its error
 *                        analysis (pw_precise.h): c0 + c0lo + c1·t exact, t²·B rounded;
 *   x > top ≈ 6.18       x itself (1 for f'): f(x) = x·(1 − E/(1 + E)) with E = e^{−2a(x+bx³)}
 *                        below 2^-38 there, f' = 1 − 2^-32 at most;
 *   |x| < 2^-125         x/2 rounded up (vf_gelu_tiny.h).
 *
 * The tail, u = −x > 4.22 (clamped to 12, where f and f' round to −0): with
 * w = 2a·(u + b·u³) = u·(A1 + A3·u²), E = e^{−w} ≤ 5.6e-6,
 *     f(x)  = −u·E/(1 + E)            = −u·E·(1 − E)            (E² ≤ 2^-35 left out),
 *     f'(x) = E/(1 + E) − c·E/(1 + E)² = −E·(c − 1 − E·(2c − 1)),  c = u·(A1 + 3A3·u²) ≥ 22.
 * w reaches 143 and E must be right to 2^-26, so w is formed to 2^-38: u² = sh + sl (FMA),
 * A3·sh = Ph + Pl (FMA), Ph + A1 by Fast2Sum, the small parts added, then u·g = wh + wl (FMA).
 * k = round(wh/ln2); rh = wh − k·ln2_hi is exact (k < 2^8, ln2_hi has 16 bits, both multiples
 * of 2^-20 below 0.35) and so is B = 1 − rh; rl = wl − k·ln2_lo; e^{−r} = B + z,
 * z = −rl + ρ²·Q(ρ), ρ = RN(rh + rl) (Q: tools/pw_tanh_coeffs.sol). Then
 *     f  = 2^-k·(x·B + x·(z − E·v)),   v = RN(B + z), E = RN(2^-k·v),
 *     f' = −2^-k·(B·Dh + (v·Dl + z·Dh)),  c = ch + cl (as w), Dh = ch − 1 (exact), Dl = cl − E·(2ch − 1),
 * each the last operation an FMA, then scaled by 2^-k (gelu_tail_scale_neg: exact unless the
 * result is subnormal). Error before the last rounding (relative): z's rounding (z ≤ 0.07)
 * 2^-28 against B ≥ 0.65, x·(z − E·v)'s two roundings 2^-27.8, ρ's through ρ²Q 2^-30, Q's fit
 * (the header says) and w's 2^-38 below that: ≲ 2^-26.5, a quarter ULP; f' the same with
 * z·Dh and v·Dl in place of x·z. */
#ifndef GELUCHECK_PW_TANH_H
#define GELUCHECK_PW_TANH_H

#include <math.h>
#include <stdbool.h>

#include "gelu_impl.h"
#include "gelu_tail.h"
#include "pw_tanh_coeffs.h"
#include "vf_array.h"
#include "vf_gelu_tiny.h"
#include "pw_precise_eval.h"

static const pw_precise_tables pw_tanh_forward_tables = {
    pw_tanh_scale, pw_tanh_offset, pw_tanh_m, pw_tanh_c0, pw_tanh_c0lo,
    {NULL, pw_tanh_c1, pw_tanh_c2, pw_tanh_c3, pw_tanh_c4, pw_tanh_c5, pw_tanh_c6, pw_tanh_c7},
    NULL,
};
static const pw_precise_tables pw_tanh_derivative_tables = {
    pw_tanh_scale, pw_tanh_offset, pw_tanh_m, pw_tanh_d0, pw_tanh_d0lo,
    {NULL, pw_tanh_d1, pw_tanh_d2, pw_tanh_d3, pw_tanh_d4, pw_tanh_d5, pw_tanh_d6, pw_tanh_d7},
    pw_tanh_d1lo,
};

static const float pw_tanh_x_min = -12.0f;      /* f(−12) ≈ −e^-136 and f'(−12) round to −0 */
static const float pw_tanh_log2e = 0x1.715476p+0f; /* 1/ln2 (only k depends on it) */
static const float pw_tanh_ln2_hi = 0x1.62e4p-1f;  /* ln2 to 16 bits: k·ln2_hi exact */
static const float pw_tanh_ln2_lo = 0x1.7f7d1cp-20f; /* ln2 − ln2_hi */

/* u·(c1 + c3·u²) as hi + lo to ~2^-38 relative, c1, c3 given as hi + lo, 4.22 ≤ u ≤ 12 (then
 * ph = RN(c3·u²) ≥ 1.27 has an exponent no smaller than c1's, 2a = 1.6: Fast2Sum(ph, c1) is
 * exact). */
static inline void pw_tanh_cubic(vf u, vf sh, vf sl, const float c1[2], const float c3[2], vf *hi,
                                 vf *lo)
{
    vf ph = vf_mul(vf_set1(c3[0]), sh);
    vf pl = vf_fma(vf_set1(c3[0]), sh, vf_neg(ph)); /* c3·sh − ph, exact */
    vf gh = vf_add(ph, vf_set1(c1[0]));
    vf gl = vf_sub(vf_set1(c1[0]), vf_sub(gh, ph)); /* ph + c1 − gh, exact */
    gl = vf_fma(vf_set1(c3[0]), sl, vf_add(gl, pl));
    gl = vf_fma(vf_set1(c3[1]), sh, gl);
    gl = vf_add(gl, vf_set1(c1[1]));
    *hi = vf_mul(u, gh);
    *lo = vf_fma(u, gl, vf_fma(u, gh, vf_neg(*hi))); /* u·gh − hi exact, plus u·gl */
}

/* The common part of the tail: u, u² = sh + sl, k, B (exact), z, v = RN(B + z) and
 * E = RN(2^-k·v); out parameters, not a struct: RVV's vectors are sizeless types, which no
 * struct may hold. */
static inline void pw_tanh_tail_core(vf x, vf *u, vf *sh, vf *sl, vf *k, vf *b, vf *z, vf *v, vf *e)
{
    vf xc = vf_max_keep_nan(vf_set1(pw_tanh_x_min), x);
    *u = vf_neg(xc);
    *sh = vf_mul(*u, *u);
    *sl = vf_fma(*u, *u, vf_neg(*sh)); /* u² − sh, exact */
    vf wh, wl;
    pw_tanh_cubic(*u, *sh, *sl, pw_tanh_a1, pw_tanh_a3, &wh, &wl);
    *k = vf_round(vf_mul(wh, vf_set1(pw_tanh_log2e)));
    vf rh = vf_fma(*k, vf_set1(-pw_tanh_ln2_hi), wh); /* exact */
    vf rl = vf_fma(*k, vf_set1(-pw_tanh_ln2_lo), wl);
    vf rho = vf_add(rh, rl);
    *b = vf_sub(vf_set1(1.0f), rh); /* exact */
    vf q = vf_set1(pw_tanh_exp_q[5]);
    for (int i = 4; i >= 0; i--)
        q = vf_fma(q, rho, vf_set1(pw_tanh_exp_q[i]));
    *z = vf_fma(vf_mul(rho, rho), q, vf_neg(rl)); /* e^-r − B */
    *v = vf_add(*b, *z);
    /* E = e^-w, for the 1/(1 + E) terms only: 2^-60 for 2^-k below it (the same to 2^-35 of the
     * result, and no subnormal E, which costs vscalefps an assist, vf_avx512.h) */
    *e = vf_scale(*v, vf_neg(vf_min_keep_nan(vf_set1(60.0f), *k)));
}

/* f(x) for x < bottom (down to −inf: −0 from about −10.8 on). */
static inline vf pw_tanh_tail_forward(vf x)
{
    vf u, sh, sl, k, b, z, v, e;
    pw_tanh_tail_core(x, &u, &sh, &sl, &k, &b, &z, &v, &e);
    vf xc = vf_neg(u);
    vf z2 = vf_fma(vf_neg(e), v, z); /* (B + z)(1 − E) − B */
    vf y = vf_fma(xc, b, vf_mul(xc, z2));
    return gelu_tail_scale_neg(y, vf_neg(k), 5.0f); /* 12·1.42 < 2^5 */
}

/* f'(x) for x < bottom. */
static inline vf pw_tanh_tail_derivative(vf x)
{
    vf u, sh, sl, k, b, z, v, e;
    pw_tanh_tail_core(x, &u, &sh, &sl, &k, &b, &z, &v, &e);
    vf ch, cl;
    pw_tanh_cubic(u, sh, sl, pw_tanh_a1, pw_tanh_a33, &ch, &cl);
    vf dh = vf_sub(ch, vf_set1(1.0f)); /* exact: ch ≥ 22 */
    vf dl = vf_fma(vf_neg(e), vf_sub(vf_add(ch, ch), vf_set1(1.0f)), cl);
    vf y = vf_fma(b, dh, vf_fma(v, dl, vf_mul(z, dh)));
    return gelu_tail_scale_neg(vf_neg(y), vf_neg(k), 9.0f); /* c < 389: 1.42·389 < 2^10 */
}

/* x ≥ bottom (pw_precise_eval.h) */
static inline vf pw_tanh_forward(vf x)
{
    return pw_precise_pieces_forward(&pw_tanh_forward_tables, pw_tanh_top, x);
}

static inline vf pw_tanh_derivative(vf x)
{
    return pw_precise_pieces_derivative(&pw_tanh_derivative_tables, pw_tanh_top, x);
}

/* Split as pw_precise.h splits. */
#ifdef VF_LOOKUP32_COSTLY
VF_SPLIT3_ARRAY_KERNEL(pw_tanh_forward_array, pw_tanh_forward, pw_tanh_bottom,
                       pw_tanh_tail_forward, pw_tanh_top, pw_precise_self)
VF_SPLIT3_ARRAY_KERNEL(pw_tanh_derivative_array, pw_tanh_derivative, pw_tanh_bottom,
                       pw_tanh_tail_derivative, pw_tanh_top, pw_precise_one)
#else
VF_SPLIT_ARRAY_KERNEL(pw_tanh_forward_array, pw_tanh_forward, pw_tanh_bottom, pw_tanh_tail_forward)
VF_SPLIT_ARRAY_KERNEL(pw_tanh_derivative_array, pw_tanh_derivative, pw_tanh_bottom,
                      pw_tanh_tail_derivative)
#endif

#define PW_TANH_IMPL(impl_name)                                                                 \
    VF_GELU_IMPL(impl_name, GELU_TARGET_TANH, pw_tanh_forward_array, pw_tanh_derivative_array,  \
                 "tanh form: 32 Sollya pieces of degree 7, c0 + c1·t exact, and an exp tail, binary32", \
                 NULL,                                                                          \
                 .max_ulp = 1.0,                                                                \
                 .max_abs = 2.4e-7,                                                             \
                 .monotone = true,                                                              \
                 .specials = true,                                                              \
                 .grad_max_ulp = 1.0,                                                           \
                 .grad_max_abs = 6.1e-8)

#endif
