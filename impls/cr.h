/* cr: GELU(x) = x·Φ(x) and its derivative Φ(x) + x·φ(x), correctly rounded to binary32 (round
 * to nearest, ties to even, gradual underflow, signed zeros) for every binary32 x. The algorithm,
 * written once on the vf_/vd_ operations; include after a vf_<isa>.h (gelu_f32_cr*.c do).
 *
 * Proof by enumeration: `gelucheck accuracy --impl cr,cr_avx2,cr_avx512 --grad` over all 2^32
 * inputs, forward and derivative correctly rounded at every input (docs/implementations.md, "A correctly
 * rounded GELU", has the run); the three builds give the same bits.
 *
 * Method (after CORE-MATH's binary32 functions: a fast path in binary64 with an error bound, a
 * rounding test, an accurate path for the few that fail it, and the hard cases of the accurate
 * path found by exhaustive search), here with two fast paths: a cheap first one on the common
 * range, the second (the general one) only for the lanes the first does not decide.
 *
 * First fast path, binary64, vectorized, on x in [−3, 5): 16 pieces of width ½, piece
 * j = floor(t), t = 2x + 6, v = t − j − ½; one degree-9 polynomial per piece in v
 * (tools/cr_fast_coeffs.sol, cr_fast_coeffs.h), of P = Φ and of D = GELU'/(x + u_m):
 *     GELU(x) = x·P(x),      GELU'(x) = ((x + u_m_hi) + u_m_lo)·D(x).
 * No exp, no sign split: x·P has no cancellation, and the zero of GELU' is factored out as in
 * the second path (x + u_m_hi is exact by Sterbenz near x_min). Beyond the range: from
 * x = 5.5 on GELU(x) rounds to x (Φ(−5.5) < 2^-25), from x = 6 on GELU'(x) rounds to 1
 * (x·φ(x) − Φ(−x) < 2^-24); those lanes are decided by selection. Every other lane (x < −3,
 * [5, 5.5) or [5, 6), NaN, and forward |x| < 2^-60, where the result may be a subnormal that
 * the test's comparison would read as 0 under DAZ) counts as a failed test.
 * Error bound (relative, of the binary64 y): the fit ≤ 2^-38.2 (P) and ≤ 2^-38.5 (D), the
 * maxima over the pieces in cr_fast_coeffs.h (Sollya's dirtyinfnorm, sampled); the Horner
 * evaluation with FMA ≤ 2·9·2^-53·C, C = Σ|c_k|/2^k · max|1/f| ≤ 4.6 over the pieces (printed
 * there): < 2^-43.7; t = 2x + 6 is exact for |x| ≥ 2^-47, and below that its rounding (≤ 2^-50)
 * moves x by ≤ 2^-51, which changes P or D by a relative ≤ 2^-48 (|P'/P|, |D'/D| < 8 near 0);
 * x + u_m in two roundings 2^-52; the final product 2^-53. Sum < 2^-38.1. The test takes
 * y·(1 ∓ ε) rounded once each, ε = 2^-35: a factor 8 over the bound (the fits' maxima are
 * sampled). On normal(0, 1) inputs the second path takes ~0.2% of the lanes (~0.07% by the
 * test, 0.135% below −3); on uniform [−10, 10] ~38% (x < −3).
 *
 * Second fast path, binary64, vectorized. With u = min(|x|, 15) (beyond, GELU(−u) rounds to −0 and
 * GELU(u) to u, GELU'(−u) to −0 and GELU'(u) to 1), c = 1/√(2π), E = e^{−u²/2}:
 *     GELU(−u) = −u·E·M(u),              M(u) = Φ(−u)·e^{u²/2},       GELU(u) = u + GELU(−u);
 *     GELU'(−u) = E·(u − u_m)·K(u),      K(u) = (M(u) − c·u)/(u − u_m), GELU'(u) = 1 − GELU'(−u);
 * u_m = 0.7517915246935645… = −x_min, GELU''s zero, as u_m_hi + u_m_lo. M and K are smooth on
 * [0, 16] (K's singularity at u_m is removable): one degree-12 polynomial each per piece
 * [i, i+1] of u, in v = u − i − ½ (tools/cr_coeffs.sol). Writing GELU' with its zero factored
 * out is the local treatment of x_min: t = (u − u_m_hi) − u_m_lo is exact in its first step
 * (Sterbenz) and rounded once in the second, so t and GELU'(−u) keep their relative accuracy
 * however close u is to u_m; no cancellation anywhere else (GELU(u) ≥ u/2, GELU'(u) ≥ ½).
 * E: u² is exact in binary64 (u has 24 bits), a = −u²/2 too; a = k·ln2 + r by Cody–Waite with FMA,
 * e^r = 1 + r·P(r), P of degree 9.
 * Error bound (relative, of the binary64 result y before the rounding test): r's two roundings
 * 2^-53; P's fit 2^-50.7 (cr_coeffs.h) and its Horner evaluation ~2^-52; M's or K's fit
 * ≤ 2^-44.4 (M on [0, 1]; the other pieces ≤ 2^-47.2, cr_coeffs.h) and its evaluation ~2^-52;
 * t 2^-53; three products 3·2^-53; the subtraction of the positive side 2^-53 (its other errors
 * are not amplified: the subtracted part is at most half the result). Sum < 2^-44.1; the test
 * uses ε = 2^-43 (the fits' maxima are Sollya's dirtyinfnorm, sampled: a factor 2 of margin).
 * Rounding test: y·(1 − ε) and y·(1 + ε) (as y ∓ y·ε) round to the same binary32 number, which
 * is then the correctly rounded value. Over all 2^32 inputs it fails at 1,368 forward and 1,424
 * derivative inputs (3.2e-7 and 3.3e-7 of them; `build/cr_hard_cases`, which prints the
 * counts). Tiny |x| < 2^-60: GELU(x) = x/2·(1 + 2x/√(2π) + …), y is
 * x·(½ ± 2^-41), nudged toward the exact value (which lies above x/2), so that the tie of an odd
 * subnormal x rounds the right way; the test passes there.
 *
 * Accurate path, scalar, for the lanes that fail the test: the same formulas from glibc's
 * erfcl and expl in x87 extended precision (64-bit significand), GELU(−u) = −u·erfcl(u/√2)/2,
 * GELU'(−u) = erfcl(u/√2)/2 − u·c·expl(−u²/2), with a relative error bound of 2^-53 per term
 * (glibc's erfcl and expl are within a few ulps of 2^-64; the argument u/√2 is off by 2^-63
 * relative, which erfc amplifies by 2z² ≤ 225) and its own rounding test. What fails that test
 * (2 forward, 3 derivative inputs, all with |x| < 2^-13) is in cr_hard_cases.h, found by
 * tools/cr_hard_cases.c over all 2^32 inputs with the correctly rounded value from MPFR.
 *
 * Special values: ±0 → ±0, +inf → +inf, −inf → −0, NaN → NaN; GELU'(±0) = ½, GELU'(+inf) = 1,
 * GELU'(−inf) = −0. */
#ifndef GELUCHECK_CR_H
#define GELUCHECK_CR_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cr_coeffs.h"
#include "cr_fast_coeffs.h"
#include "cr_hard_case.h"
#include "cr_hard_cases.h"
#include "gelu_impl.h"
#include "vf_array.h"

static const double cr_u_max = 15.0;                     /* GELU(−15) ≈ −5e-50 rounds to −0 */
static const double cr_log2e = 0x1.71547652b82fep+0;     /* 1/ln2 */
static const double cr_ln2_hi = 0x1.62e42feep-1;         /* ln2 to 32 bits: k·ln2_hi exact */
static const double cr_ln2_lo = 0x1.a39ef35793c76p-33;   /* ln2 − ln2_hi */
static const double cr_tiny = 0x1p-60;     /* below, GELU(x) = x/2 to 2^-60 relative */
static const double cr_eps = 0x1p-43;      /* the fast path's relative error bound (above) */

/* e^{−u²/2}, u ≥ 0 (at most 15): a = −u²/2 exact, a = k·ln2 + r, |r| ≤ 0.35. */
static inline vd cr_exp_neg_half_sq(vd u)
{
    vd a = vd_mul(vd_mul(u, u), vd_set1(-0.5));
    vd k = vd_round(vd_mul(a, vd_set1(cr_log2e)));
    vd r = vd_fma(k, vd_set1(-cr_ln2_hi), a);
    r = vd_fma(k, vd_set1(-cr_ln2_lo), r);
    vd p = vd_set1(cr_exp[9]);
#pragma GCC unroll 16 /* unrolled, 10% faster here; the same operations */
    for (int i = 8; i >= 0; i--)
        p = vd_fma(p, r, vd_set1(cr_exp[i]));
    return vd_scale(vd_fma(r, p, vd_set1(1.0)), k);
}

/* The piece's polynomial c[0] + v·(c[1] + … + v·c[12]) at v, piece i. */
static inline vd cr_piece_poly(const double (*const c[13])[16], vdi i, vd v)
{
    vd p = vd_lookup16(*c[12], i);
#pragma GCC unroll 16
    for (int d = 11; d >= 0; d--)
        p = vd_fma(p, v, vd_lookup16(*c[d], i));
    return p;
}

static const double (*const cr_m[13])[16] = {&cr_m0, &cr_m1, &cr_m2, &cr_m3, &cr_m4, &cr_m5,
                                             &cr_m6, &cr_m7, &cr_m8, &cr_m9, &cr_m10, &cr_m11,
                                             &cr_m12};
static const double (*const cr_k[13])[16] = {&cr_k0, &cr_k1, &cr_k2, &cr_k3, &cr_k4, &cr_k5,
                                             &cr_k6, &cr_k7, &cr_k8, &cr_k9, &cr_k10, &cr_k11,
                                             &cr_k12};

/* u = min(|x|, 15) (NaN stays NaN), its piece i and v = u − i − ½ (exact); out parameters, not
 * a struct: RVV's vectors are sizeless types, which no struct may hold. */
static inline void cr_reduce(vd x, vd *u, vdi *i, vd *v)
{
    *u = vd_min_keep_nan(vd_set1(cr_u_max), vd_abs(x));
    vd f = vd_floor(*u);
    *i = vd_index16(f);
    *v = vd_sub(vd_sub(*u, f), vd_set1(0.5));
}

static inline vd cr_forward_d(vd x)
{
    vd u, v;
    vdi i;
    cr_reduce(x, &u, &i, &v);
    /* w = −GELU(−u) = u·E·M */
    vd w = vd_mul(vd_mul(u, cr_exp_neg_half_sq(u)), cr_piece_poly(cr_m, i, v));
    vd y = vd_select_sign(x, vd_neg(w), vd_sub(x, w));
    vd half_up = vd_select_sign(x, vd_set1(0.5 - 0x1p-41), vd_set1(0.5 + 0x1p-41));
    return vd_select_less(vd_abs(x), vd_set1(cr_tiny), vd_mul(x, half_up), y);
}

static inline vd cr_derivative_d(vd x)
{
    vd u, v;
    vdi i;
    cr_reduce(x, &u, &i, &v);
    vd t = vd_sub(vd_sub(u, vd_set1(cr_um_hi)), vd_set1(cr_um_lo)); /* u − u_m */
    /* GELU'(−u) = E·t·K */
    vd d_neg = vd_mul(vd_mul(cr_exp_neg_half_sq(u), t), cr_piece_poly(cr_k, i, v));
    return vd_select_sign(x, d_neg, vd_sub(vd_set1(1.0), d_neg));
}

/* The binary32 roundings of y − y·ε and y + y·ε on both halves: lo and hi agree where the test
 * passes. hi, y + y·ε, keeps the sign of a zero y (−0 + −0 = −0); the kernels store it. */
#define CR_BOUNDS(fn_bounds, fn_d, eps)                                                       \
    static inline void fn_bounds(vf x, vf *lo, vf *hi)                                       \
    {                                                                                        \
        vd x0, x1, y0, y1, e0, e1;                                                           \
        vf_split(x, &x0, &x1);                                                               \
        y0 = fn_d(x0);                                                                       \
        e0 = vd_mul(y0, vd_set1(eps));                                                       \
        y1 = y0;                                                                             \
        e1 = e0;                                                                             \
        if (VF_HALVES == 2) {                                                                \
            y1 = fn_d(x1);                                                                   \
            e1 = vd_mul(y1, vd_set1(eps));                                                   \
        }                                                                                    \
        *lo = vf_join(vd_sub(y0, e0), vd_sub(y1, e1));                                       \
        *hi = vf_join(vd_add(y0, e0), vd_add(y1, e1));                                       \
    }
CR_BOUNDS(cr_forward_bounds, cr_forward_d, cr_eps)
CR_BOUNDS(cr_derivative_bounds, cr_derivative_d, cr_eps)

/* The first fast path (see the top): x·P(x) and (x + u_m)·D(x), one polynomial per piece. */
static const double cr_fast_eps = 0x1p-35;   /* its relative error bound (above) */
static const float cr_fast_lo = -3.0f;       /* its domain [−3, 5) */
static const float cr_fast_hi = 5.0f;
static const float cr_fwd_is_x = 5.5f;       /* from here on GELU(x) rounds to x */
static const float cr_der_is_one = 0x1.7ffffep+2f; /* and GELU'(x) to 1 above this, the float below 6 */

#define CR_FAST_DEG 9 /* the degree of cr_fast_coeffs.h */
static const double (*const cr_fp[CR_FAST_DEG + 1])[16] = {
    &cr_fp0, &cr_fp1, &cr_fp2, &cr_fp3, &cr_fp4, &cr_fp5, &cr_fp6, &cr_fp7, &cr_fp8, &cr_fp9};
static const double (*const cr_fd[CR_FAST_DEG + 1])[16] = {
    &cr_fd0, &cr_fd1, &cr_fd2, &cr_fd3, &cr_fd4, &cr_fd5, &cr_fd6, &cr_fd7, &cr_fd8, &cr_fd9};

/* Piece j = floor(t), t = 2x + 6 (exact for |x| ≥ 2^-47; within 2^-50 else), v = t − j − ½. */
static inline vd cr_fast_poly(const double (*const c[CR_FAST_DEG + 1])[16], vd x)
{
    vd t = vd_fma(x, vd_set1(2.0), vd_set1(6.0));
    vd f = vd_floor(t);
    vdi i = vd_index16(f);
    vd v = vd_sub(vd_sub(t, f), vd_set1(0.5));
    vd p = vd_lookup16(*c[CR_FAST_DEG], i);
#pragma GCC unroll 16
    for (int d = CR_FAST_DEG - 1; d >= 0; d--)
        p = vd_fma(p, v, vd_lookup16(*c[d], i));
    return p;
}

static inline vd cr_fast_forward_d(vd x) { return vd_mul(x, cr_fast_poly(cr_fp, x)); }

static inline vd cr_fast_derivative_d(vd x)
{
    vd t = vd_add(vd_add(x, vd_set1(cr_um_hi)), vd_set1(cr_um_lo)); /* x − x_min */
    return vd_mul(t, cr_fast_poly(cr_fd, x));
}

/* The same with y·(1 ∓ ε) rounded once (one product each): the interval loses 2^-53 of y at each
 * end, far inside the first path's margin (its error bound is < ε/4). */
#define CR_FAST_BOUNDS(fn_bounds, fn_d)                                                       \
    static inline void fn_bounds(vf x, vf *lo, vf *hi)                                       \
    {                                                                                        \
        vd x0, x1, y0, y1;                                                                   \
        vf_split(x, &x0, &x1);                                                               \
        y0 = fn_d(x0);                                                                       \
        y1 = VF_HALVES == 2 ? fn_d(x1) : y0;                                                 \
        vd down = vd_set1(1.0 - cr_fast_eps), up = vd_set1(1.0 + cr_fast_eps);               \
        *lo = vf_join(vd_mul(y0, down), vd_mul(y1, down));                                   \
        *hi = vf_join(vd_mul(y0, up), vd_mul(y1, up));                                       \
    }
CR_FAST_BOUNDS(cr_fast_forward_raw, cr_fast_forward_d)
CR_FAST_BOUNDS(cr_fast_derivative_raw, cr_fast_derivative_d)

/* The first path's bounds with its domain applied: lo is NaN (the test fails) outside [−3, 5)
 * and below the threshold, where lo = hi = the rounded constant value; NaN fails as well. */
static inline void cr_fast_forward_bounds(vf x, vf *lo, vf *hi)
{
    cr_fast_forward_raw(x, lo, hi);
    vf nan = vf_set1(NAN);
    /* |x| < 2^-60 (subnormal results, ties of x/2) to the second path's nudged x/2: the test's
     * comparison reads subnormal bounds as 0 under DAZ, so it must not decide those here */
    *lo = vf_select_less(vf_abs(x), vf_set1((float)cr_tiny), nan, *lo);
    *lo = vf_select_less(x, vf_set1(cr_fast_lo), nan, *lo);
    *lo = vf_select_less(x, vf_set1(cr_fast_hi), *lo, vf_select_less(x, vf_set1(cr_fwd_is_x), nan, x));
    *hi = vf_select_less(x, vf_set1(cr_fast_hi), *hi, x);
}

static inline void cr_fast_derivative_bounds(vf x, vf *lo, vf *hi)
{
    cr_fast_derivative_raw(x, lo, hi);
    vf nan = vf_set1(NAN), one = vf_set1(1.0f);
    *lo = vf_select_less(x, vf_set1(cr_fast_lo), nan, *lo);
    vf big = vf_select_less(vf_set1(cr_der_is_one), x, one, nan); /* x ≥ 6: 1; NaN: NaN */
    *lo = vf_select_less(x, vf_set1(cr_fast_hi), *lo, big);
    *hi = vf_select_less(x, vf_set1(cr_fast_hi), *hi, one);
}

/* The accurate path (scalar, x87 extended precision where long double is that). */
static const long double cr_inv_sqrt2_l = 0x1.6a09e667f3bcc908p-1L;   /* 1/√2 to 64 bits */
static const long double cr_inv_sqrt2pi_l = 0x1.9884533d43650d0p-2L;  /* 1/√(2π) to 64 bits */
static const long double cr_eps_l = 0x1p-53L; /* relative error bound per term (above) */

/* y ± err rounded to binary32: *r and true when both ends give the same number. */
static inline bool cr_round_test_l(long double y, long double err, float *r)
{
    float lo = (float)(y - err), hi = (float)(y + err);
    *r = hi;
    return lo == hi;
}

static inline bool cr_forward_accurate_try(float x, float *r)
{
    if (isnan(x) || x > (float)cr_u_max) {
        *r = x;
        return true;
    }
    if (fabsf(x) < (float)cr_tiny) { /* as in cr_forward_d */
        *r = (float)((double)x * (x < 0 ? 0.5 - 0x1p-41 : 0.5 + 0x1p-41));
        return true;
    }
    if (x < -(float)cr_u_max) {
        *r = -0.0f;
        return true;
    }
    long double u = fabsl((long double)x);
    long double w = u * (erfcl(u * cr_inv_sqrt2_l) * 0.5L); /* −GELU(−u) */
    long double y = x < 0 ? -w : (long double)x - w;
    return cr_round_test_l(y, fabsl(w) * cr_eps_l + fabsl(y) * 0x1p-63L, r);
}

static inline bool cr_derivative_accurate_try(float x, float *r)
{
    if (isnan(x) || fabsf(x) > (float)cr_u_max) {
        *r = isnan(x) ? x : x > 0 ? 1.0f : -0.0f;
        return true;
    }
    long double u = fabsl((long double)x);
    long double cdf = erfcl(u * cr_inv_sqrt2_l) * 0.5L;                   /* Φ(−u) */
    long double upfd = u * cr_inv_sqrt2pi_l * expl(u * u * -0.5L);        /* u·φ(u) */
    long double d_neg = cdf - upfd;
    long double y = x < 0 ? d_neg : 1.0L - d_neg;
    return cr_round_test_l(y, (cdf + upfd) * cr_eps_l + fabsl(y) * 0x1p-63L, r);
}

static float cr_forward_accurate(float x)
{
    float r;
    if (!cr_forward_accurate_try(x, &r))
        (void)cr_hard_case(cr_hard_fwd_x, cr_hard_fwd_y, CR_HARD_FWD_N, x, &r);
    return r;
}

static float cr_derivative_accurate(float x)
{
    float r;
    if (!cr_derivative_accurate_try(x, &r))
        (void)cr_hard_case(cr_hard_der_x, cr_hard_der_y, CR_HARD_DER_N, x, &r);
    return r;
}

/* The second path and the accurate one on k inputs xs[0..k), padded with zeros to whole vectors,
 * the results in place. */
#define CR_SLOW(name, fn_bounds, fn_accurate)                                                 \
    static void name(float *xs, size_t k)                                                    \
    {                                                                                        \
        for (size_t j = 0; j < k; j += VF_WIDTH) {                                           \
            float lo[VF_WIDTH], hi[VF_WIDTH];                                                \
            vf vlo, vhi, v = vf_load(xs + j);                                                \
            fn_bounds(v, &vlo, &vhi);                                                        \
            if (vf_count_differ(vlo, vhi)) {                                                 \
                vf_store(lo, vlo);                                                           \
                vf_store(hi, vhi);                                                           \
                for (size_t l = 0; l < VF_WIDTH; l++)                                        \
                    if (lo[l] < hi[l] || lo[l] > hi[l])                                      \
                        hi[l] = fn_accurate(xs[j + l]);                                      \
                vhi = vf_load(hi);                                                           \
            }                                                                                \
            vf_store(xs + j, vhi);                                                           \
        }                                                                                    \
    }
CR_SLOW(cr_forward_slow, cr_forward_bounds, cr_forward_accurate)
CR_SLOW(cr_derivative_slow, cr_derivative_bounds, cr_derivative_accurate)

/* The array kernel on whole vectors (n a multiple of VF_WIDTH): the first path on every vector;
 * the lanes whose test failed, packed into whole vectors per chunk where the ISA packs lanes
 * cheaply (VF_PACKS), else the failing vector as it is, take the second path (and the accurate
 * one where that fails too), and their results are put back. */
#define CR_CHUNK 1024 /* elements */
#define CR_AHEAD 1024 /* elements: prefetched this far ahead */
#ifdef VF_PACKS
#define CR_WHOLE_KERNEL(name, fast_bounds, slow)                                              \
    static void name(const float *x, float *y, size_t n)                                     \
    {                                                                                        \
        float xs[CR_CHUNK + VF_WIDTH];                                                       \
        vm mask[CR_CHUNK / VF_WIDTH];                                                        \
        for (size_t i = 0; i < n;) {                                                         \
            size_t start = i, nv = 0, k = 0;                                                 \
            for (; nv < CR_CHUNK / VF_WIDTH && i < n; nv++, i += VF_WIDTH) {                 \
                __builtin_prefetch(x + i + CR_AHEAD);                                        \
                __builtin_prefetch(y + i + CR_AHEAD, 1);                                     \
                vf v = vf_load(x + i), lo, hi;                                               \
                fast_bounds(v, &lo, &hi);                                                    \
                vf_store(y + i, hi);                                                         \
                mask[nv] = vf_differ_mask(lo, hi);                                           \
                if (vf_mask_count(mask[nv]))                                                 \
                    k += vf_pack(v, mask[nv], xs + k);                                       \
            }                                                                                \
            if (!k)                                                                          \
                continue;                                                                    \
            for (size_t j = k; j < k + VF_WIDTH; j++)                                        \
                xs[j] = 0.0f;                                                                \
            slow(xs, k);                                                                     \
            for (size_t v = 0, r = 0; r < k; v++) {                                          \
                if (!vf_mask_count(mask[v]))                                                 \
                    continue;                                                                \
                float *at = y + start + v * VF_WIDTH;                                        \
                vf_store(at, vf_unpack(vf_load(at), mask[v], xs + r));                       \
                r += vf_mask_count(mask[v]);                                                 \
            }                                                                                \
        }                                                                                    \
    }
#else
#define CR_WHOLE_KERNEL(name, fast_bounds, slow)                                              \
    static void name(const float *x, float *y, size_t n)                                     \
    {                                                                                        \
        for (size_t i = 0; i < n; i += VF_WIDTH) {                                           \
            vf v = vf_load(x + i), lo, hi;                                                   \
            fast_bounds(v, &lo, &hi);                                                        \
            if (!vf_mask_count(vf_differ_mask(lo, hi))) {                                    \
                vf_store(y + i, hi);                                                         \
                continue;                                                                    \
            }                                                                                \
            float l1[VF_WIDTH], h1[VF_WIDTH], xs[VF_WIDTH];                                  \
            vf_store(l1, lo);                                                                \
            vf_store(h1, hi);                                                                \
            vf_store(xs, v);                                                                 \
            slow(xs, VF_WIDTH);                                                              \
            for (size_t l = 0; l < VF_WIDTH; l++)                                            \
                y[i + l] = l1[l] == h1[l] ? h1[l] : xs[l];                                   \
        }                                                                                    \
    }
#endif
CR_WHOLE_KERNEL(cr_forward_whole, cr_fast_forward_bounds, cr_forward_slow)
CR_WHOLE_KERNEL(cr_derivative_whole, cr_fast_derivative_bounds, cr_derivative_slow)

/* The array kernels: whole vectors, then the last, partial one through a zero-padded copy. */
#define CR_ARRAY_KERNEL(name, whole)                                                          \
    static void name(const float *x, float *y, size_t n)                                     \
    {                                                                                        \
        size_t m = n % VF_WIDTH;                                                             \
        whole(x, y, n - m);                                                                  \
        if (m) {                                                                             \
            float in[VF_WIDTH] = {0}, out[VF_WIDTH];                                         \
            memcpy(in, x + (n - m), m * sizeof *x);                                          \
            whole(in, out, VF_WIDTH);                                                        \
            memcpy(y + (n - m), out, m * sizeof *y);                                         \
        }                                                                                    \
    }
CR_ARRAY_KERNEL(cr_forward_array, cr_forward_whole)
CR_ARRAY_KERNEL(cr_derivative_array, cr_derivative_whole)

/* The descriptor of one ISA's build. The claim is correct rounding, judged by encodings; no
 * ULP or absolute bound beside it (a bound of 0.5 ULP would fail spuriously on the hardest
 * cases, whose error the scan knows to ~10^-3 ULP only). */
#define CR_IMPL(impl_name)                                                                     \
    VF_GELU_IMPL(impl_name, GELU_TARGET_EXACT, cr_forward_array, cr_derivative_array,          \
                 "x·Φ(x) correctly rounded: binary64 fast path, rounding test, x87 erfcl path, " \
                 "hard cases by exhaustive search",                                            \
                 NULL,    \
                 .max_ulp = INFINITY,                                                           \
                 .max_abs = INFINITY,                                                           \
                 .monotone = true,                                                              \
                 .specials = true,                                                              \
                 .grad_max_ulp = INFINITY,                                                      \
                 .grad_max_abs = INFINITY,                                                      \
                 .correctly_rounded = true)

#endif
