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
 * path found by exhaustive search):
 *
 * Fast path, binary64, vectorized. With u = min(|x|, 15) (beyond, GELU(−u) rounds to −0 and
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
#define CR_BOUNDS(fn_bounds, fn_d)                                                            \
    static inline void fn_bounds(vf x, vf *lo, vf *hi)                                       \
    {                                                                                        \
        vd x0, x1, y0, y1, e0, e1;                                                           \
        vf_split(x, &x0, &x1);                                                               \
        y0 = fn_d(x0);                                                                       \
        e0 = vd_mul(y0, vd_set1(cr_eps));                                            \
        y1 = y0;                                                                             \
        e1 = e0;                                                                             \
        if (VF_HALVES == 2) {                                                                \
            y1 = fn_d(x1);                                                                   \
            e1 = vd_mul(y1, vd_set1(cr_eps));                                        \
        }                                                                                    \
        *lo = vf_join(vd_sub(y0, e0), vd_sub(y1, e1));                                       \
        *hi = vf_join(vd_add(y0, e0), vd_add(y1, e1));                                       \
    }
CR_BOUNDS(cr_forward_bounds, cr_forward_d)
CR_BOUNDS(cr_derivative_bounds, cr_derivative_d)

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

/* The array kernel: the fast path on whole vectors (the last one zero-padded), the accurate
 * path on the lanes whose rounding test failed. */
#define CR_ARRAY_KERNEL(name, fn_bounds, fn_accurate)                                         \
    static void name(const float *x, float *y, size_t n)                                     \
    {                                                                                        \
        for (size_t i = 0; i < n; i += VF_WIDTH) {                                           \
            size_t m = n - i < VF_WIDTH ? n - i : VF_WIDTH;                                  \
            float in[VF_WIDTH] = {0}, lo[VF_WIDTH], hi[VF_WIDTH];                            \
            const float *src = x + i;                                                        \
            if (m < VF_WIDTH) {                                                              \
                memcpy(in, x + i, m * sizeof *x);                                            \
                src = in;                                                                    \
            }                                                                                \
            vf vlo, vhi;                                                                     \
            fn_bounds(vf_load(src), &vlo, &vhi);                                             \
            if (m == VF_WIDTH && !vf_count_differ(vlo, vhi)) {                               \
                vf_store(y + i, vhi);                                                        \
                continue;                                                                    \
            }                                                                                \
            vf_store(lo, vlo);                                                               \
            vf_store(hi, vhi);                                                               \
            for (size_t j = 0; j < m; j++)                                                   \
                y[i + j] = lo[j] < hi[j] || lo[j] > hi[j] ? fn_accurate(src[j]) : hi[j];     \
        }                                                                                    \
    }
CR_ARRAY_KERNEL(cr_forward_array, cr_forward_bounds, cr_forward_accurate)
CR_ARRAY_KERNEL(cr_derivative_array, cr_derivative_bounds, cr_derivative_accurate)

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
