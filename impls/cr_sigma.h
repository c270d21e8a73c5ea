/* cr_sigma: GELUs of the form f(x) = x·σ(t(x)), t(x) = x·(c1 + c3·x²), and their derivatives
 * f'(x) = σ(t) + x·t'(x)·σ(t)·σ(−t), correctly rounded to binary32 (round to nearest, ties to
 * even, gradual underflow, signed zeros) for every binary32 x. Two forms (cr_sigma_coeffs.h):
 *     tanh form    c1 = 2·√(2/π), c3 = 0.044715·c1: ½x(1 + tanh(√(2/π)(x + 0.044715x³)))
 *                  (σ(2w) = ½(1 + tanh w)), target `tanh`, row cr_tanh (cr_tanh.h);
 *     sigmoid form c1 = 1.702, c3 = 0: x·σ(1.702x), target `sigmoid`, row cr_sigmoid
 *                  (cr_sigmoid.h);
 * the decimals are the real numbers they name. The algorithm, written once on the vf_/vd_
 * operations; include after a vf_<isa>.h (through cr_tanh.h or cr_sigmoid.h).
 *
 * Proof by enumeration: `gelucheck accuracy --impl cr_tanh --grad --threads 2` (and the _avx2,
 * _avx512 builds, and cr_sigmoid's) over all 2^32 inputs: forward and derivative correctly
 * rounded at every input (docs/implementations.md, "Correctly rounded tanh and sigmoid forms",
 * has the runs).
 *
 * Method (cr.h's: a binary64 fast path with an error bound per lane, a rounding test, an x87
 * path for the lanes that fail it, hard cases of that path from an exhaustive search).
 *
 * Fast path, binary64, vectorized. u = min(|x|, u_max) (past u_max the results round as at
 * u_max: f to x or −0, f' to 1 or −0; cr_tanh.h, cr_sigmoid.h), T = t(u) = |t(x)| ≥ 0,
 * E = e^{−T} ∈ (2^-178, 1] (no overflow, no cancellation), q = σ(T) = 1/(1 + E), σ(−T) = E·q:
 *     f(x) = −u·σ(−T)            for x < 0 (−0 for −0),
 *     f(x) = x − u·σ(−T)         for x ≥ 0 (u·σ(−T) ≤ x/2: no cancellation);
 *     f'(x) = S ∓ g·P            S = σ(t(x)) (E·q for x < 0, q for x ≥ 0), P = σ(T)·σ(−T) = E·q²,
 *                                g = u·t'(u) = |x·t'(x)|, − for x < 0.
 * f' has a zero at x_min ≈ −0.75, where S and g·P cancel: its error is bounded by the sizes of
 * the terms, not of the result, and lanes near x_min fail the rounding test (rarely: the bound
 * is absolute, ~2^-46, so a lane fails only within ~2^-46·2^24 relative distance of a rounding
 * boundary or ~2^-20 of x_min).
 * T: u² is exact (u has 24 bits), fma(c3, u², c1) and u·(…) round once each, c1 and c3 are
 * binary64 roundings: |δT| ≤ 3·2^-53·T (the sigmoid form 2·2^-53·T).
 * E: −T = k·ln2 + r by Cody–Waite (ln2_hi of 29 bits: k·ln2_hi and the first reduction exact
 * for |k| ≤ 177), r rounded once (2^-54.5 of e^r), e^r = 1 + r·P(r), P of degree 9, fit
 * 2^-50.66 (cr_sigma_coeffs.h), Horner and the last fma ~2^-52: ε_exp < 2^-50.1, and E's
 * relative error e_E ≤ |δT| + ε_exp. The scaling by 2^k is exact (E ≥ 2^-178 is normal).
 * q: e_E·E·q + 2·2^-53. Forward: y = −(u·σ(−T)) has a relative error ≤ 1.5·e_E + 4·2^-53; for
 * x ≥ 0 its absolute error is at most that of u·σ(−T) ≤ y plus the subtraction's 2^-53·y:
 *     |y − f| ≤ |y|·(1.5·e_E + 5·2^-53) ≤ |y|·(2^-48.9 + 2^-50.8·T)   → ε_f(T) = 2^-47 + 2^-49·T.
 * Derivative: S carries ≤ e_E + 3·2^-53, P ≤ 2·e_E + 5·2^-53, g ≤ 3·2^-53, the fma 2^-53·|y|;
 * with |g·P| ≤ S + |y|:
 *     |y − f'| ≤ (S + |y|)·2·(2·e_E + 8.5·2^-53) ≤ (S + |y|)·(2^-47.4 + 2^-49.4·T)
 *                                                      → ε_d(T) = 2^-46 + 2^-48·T.
 * (A factor 2 to 4 of margin on each bound: the fit's maximum is Sollya's dirtyinfnorm.)
 * Rounding test: y − err and y + err, err = y·ε_f(T) (keeps the sign of a zero y) or
 * (S + |y|)·ε_d(T), round to the same binary32 number, which is then the correctly rounded
 * value. Tiny |x| < 2^-60: f(x) = x/2·(1 + 2·S'(0)·x + …), S'(0) > 0, so y = x·(½ ± 2^-41),
 * the sign toward the exact value, rounds like it (x/2 is a binary32 number or, for an odd
 * subnormal x, a tie the x² term breaks) and passes the test.
 *
 * Accurate path, scalar, x87 extended precision (64-bit significand), for the lanes that fail
 * the test: the same formulas with expl; t's roundings and the constants' 2^-64 give
 * |δT| ≤ 6·2^-64·T, expl a few 2^-64 ulps; the bound err = |y|·2^-58·(T + 1) (forward) or
 * (S + |y|)·2^-56·(T + 1) (derivative) has a factor 4 of margin on the same analysis. What fails
 * its own test is in cr_sigma_hard_cases.h, found by tools/cr_sigma_hard_cases.c over all 2^32
 * inputs with MPFR's correctly rounded value. On AArch64 long double is binary128: the bound
 * holds, the hard cases are x87's (docs/aarch64.md says what is checked there).
 *
 * Special values: ±0 → ±0, +inf → +inf, −inf → −0, NaN → NaN; f'(±0) = ½, f'(+inf) = 1,
 * f'(−inf) = −0. */
#ifndef GELUCHECK_CR_SIGMA_H
#define GELUCHECK_CR_SIGMA_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cr_hard_case.h"
#include "cr_sigma_coeffs.h"
#include "cr_sigma_hard_cases.h"
#include "gelu_impl.h"
#include "vf_array.h"

/* One form: its t and the tables of its hard cases; a static const row, so that the inlined
 * code folds its fields to constants. */
typedef struct {
    double c1, c3, c3x3;     /* t(u) = u·(c1 + c3·u²), t'(u) = c1 + 3c3·u² */
    bool cubic;              /* c3 ≠ 0 */
    double u_max;            /* the clamp of |x| (cr_tanh.h, cr_sigmoid.h say why) */
    long double c1_l, c3_l;  /* c1, c3 in x87 extended */
    const uint32_t *hard_x[2], *hard_y[2]; /* [grad]: the accurate path's hard cases, sorted */
    size_t hard_n[2];
} cr_sigma_form;

static const double cr_sigma_log2e = 0x1.71547652b82fep+0;     /* 1/ln2 */
static const double cr_sigma_ln2_hi = 0x1.62e42feep-1;         /* ln2 to 29 bits */
static const double cr_sigma_ln2_lo = 0x1.a39ef35793c76p-33;   /* ln2 − ln2_hi */
static const double cr_sigma_tiny = 0x1p-60;  /* below, f(x) = x/2 to 2^-60 relative */

/* e^{−T}, 0 ≤ T ≤ 123: −T = k·ln2 + r, |r| ≤ 0.35, e^r = 1 + r·P(r). */
static inline vd cr_sigma_exp_neg(vd t)
{
    vd a = vd_neg(t);
    vd k = vd_round(vd_mul(a, vd_set1(cr_sigma_log2e)));
    vd r = vd_fma(k, vd_set1(-cr_sigma_ln2_hi), a);
    r = vd_fma(k, vd_set1(-cr_sigma_ln2_lo), r);
    vd p = vd_set1(cr_sigma_exp[9]);
#pragma GCC unroll 16
    for (int i = 8; i >= 0; i--)
        p = vd_fma(p, r, vd_set1(cr_sigma_exp[i]));
    return vd_scale(vd_fma(r, p, vd_set1(1.0)), k);
}

/* The fast path on one binary64 half: f (grad: f') at x into *y, its error bound into *err. */
static inline void cr_sigma_fast(const cr_sigma_form *f, bool grad, vd x, vd *y, vd *err)
{
    vd u = vd_min_keep_nan(vd_set1(f->u_max), vd_abs(x));
    vd u2 = vd_mul(u, u);
    vd t = f->cubic ? vd_mul(u, vd_fma(vd_set1(f->c3), u2, vd_set1(f->c1)))
                    : vd_mul(u, vd_set1(f->c1));
    vd e = cr_sigma_exp_neg(t);
    vd q = vd_div(vd_set1(1.0), vd_add(vd_set1(1.0), e)); /* σ(T) */
    vd sn = vd_mul(e, q);                                  /* σ(−T) */
    if (!grad) {
        vd w = vd_mul(u, sn);
        vd yv = vd_select_sign(x, vd_neg(w), vd_sub(x, w));
        vd half = vd_select_sign(x, vd_set1(0.5 - 0x1p-41), vd_set1(0.5 + 0x1p-41));
        yv = vd_select_less(vd_abs(x), vd_set1(cr_sigma_tiny), vd_mul(x, half), yv);
        *y = yv;
        *err = vd_mul(yv, vd_fma(t, vd_set1(0x1p-49), vd_set1(0x1p-47)));
        return;
    }
    vd p = vd_mul(sn, q);
    vd g = f->cubic ? vd_mul(u, vd_fma(vd_set1(f->c3x3), u2, vd_set1(f->c1))) : t;
    vd s = vd_select_sign(x, sn, q);
    vd yv = vd_fma(vd_select_sign(x, vd_neg(g), g), p, s);
    *y = yv;
    *err = vd_mul(vd_add(s, vd_abs(yv)), vd_fma(t, vd_set1(0x1p-48), vd_set1(0x1p-46)));
}

/* The binary32 roundings of y − err (lo) and y + err (hi) on both halves: they agree where the
 * test passes, and hi is then the result (for y = −0, err = −0 and hi = −0). */
static inline void cr_sigma_bounds(const cr_sigma_form *f, bool grad, vf x, vf *lo, vf *hi)
{
    vd x0, x1, y0, y1, e0, e1;
    vf_split(x, &x0, &x1);
    cr_sigma_fast(f, grad, x0, &y0, &e0);
    y1 = y0;
    e1 = e0;
    if (VF_HALVES == 2) cr_sigma_fast(f, grad, x1, &y1, &e1);
    *lo = vf_join(vd_sub(y0, e0), vd_sub(y1, e1));
    *hi = vf_join(vd_add(y0, e0), vd_add(y1, e1));
}

/* The accurate path (scalar, x87 extended precision where long double is that): true and the
 * result in *r when its rounding test passes; else false, *r its best guess. */
static inline bool cr_sigma_accurate_try(const cr_sigma_form *f, bool grad, float x, float *r)
{
    if (isnan(x)) {
        *r = x;
        return true;
    }
    if (isinf(x)) {
        *r = x > 0 ? (grad ? 1.0f : x) : -0.0f;
        return true;
    }
    if (!grad && fabsf(x) < (float)cr_sigma_tiny) { /* as in cr_sigma_fast */
        *r = (float)((double)x * (signbit(x) ? 0.5 - 0x1p-41 : 0.5 + 0x1p-41));
        return true;
    }
    long double u = fminl(fabsl((long double)x), (long double)f->u_max);
    long double t = u * (f->c1_l + f->c3_l * (u * u));
    long double e = expl(-t);
    long double q = 1.0L / (1.0L + e), sn = e * q, y, size;
    if (!grad) {
        long double w = u * sn;
        y = signbit(x) ? -w : (long double)x - w;
        size = fabsl(y) * 0x1p-58L;
    } else {
        long double s = signbit(x) ? sn : q;
        long double g = u * (f->c1_l + 3.0L * f->c3_l * (u * u));
        y = s + (signbit(x) ? -g : g) * (sn * q);
        size = (s + fabsl(y)) * 0x1p-56L;
    }
    long double err = size * (t + 1.0L);
    *r = (float)y;
    return (float)(y - err) == (float)(y + err);
}

static inline float cr_sigma_accurate(const cr_sigma_form *f, bool grad, float x)
{
    float r;
    if (!cr_sigma_accurate_try(f, grad, x, &r))
        (void)cr_hard_case(f->hard_x[grad], f->hard_y[grad], f->hard_n[grad], x, &r);
    return r;
}

/* The m lanes of one vector whose test failed somewhere: the accurate path where lo ≠ hi. */
static inline void cr_sigma_fix(const cr_sigma_form *f, bool grad, const float *x, vf vlo,
                                vf vhi, float *y, size_t m)
{
    float lo[VF_WIDTH], hi[VF_WIDTH];
    vf_store(lo, vlo);
    vf_store(hi, vhi);
    for (size_t j = 0; j < m; j++)
        y[j] = lo[j] < hi[j] || lo[j] > hi[j] ? cr_sigma_accurate(f, grad, x[j]) : hi[j];
}

/* The array kernel `name` of a form and direction: the fast path on whole vectors (the last
 * one through a zero-padded copy), the accurate path on the lanes whose test failed. */
#define CR_SIGMA_ARRAY_KERNEL(name, form, grad)                                               \
    static void name(const float *x, float *y, size_t n)                                     \
    {                                                                                        \
        size_t i = 0;                                                                        \
        vf lo, hi;                                                                           \
        for (; i + VF_WIDTH <= n; i += VF_WIDTH) {                                           \
            cr_sigma_bounds(form, grad, vf_load(x + i), &lo, &hi);                           \
            if (vf_count_differ(lo, hi))                                                     \
                cr_sigma_fix(form, grad, x + i, lo, hi, y + i, VF_WIDTH);                    \
            else                                                                             \
                vf_store(y + i, hi);                                                         \
        }                                                                                    \
        if (i < n) {                                                                         \
            float in[VF_WIDTH] = {0};                                                        \
            memcpy(in, x + i, (n - i) * sizeof *x);                                          \
            cr_sigma_bounds(form, grad, vf_load(in), &lo, &hi);                              \
            cr_sigma_fix(form, grad, in, lo, hi, y + i, n - i);                              \
        }                                                                                    \
    }

/* The descriptor of one ISA's build of a form: its kernels, and the claim of correct rounding
 * judged by encodings, no ULP or absolute bound beside it (as cr.h says why). */
#define CR_SIGMA_IMPL(impl_name, form, target, fwd, der, origin_line)                         \
    CR_SIGMA_ARRAY_KERNEL(fwd, form, false)                                                  \
    CR_SIGMA_ARRAY_KERNEL(der, form, true)                                                   \
    VF_GELU_IMPL(impl_name, target, fwd, der, origin_line, NULL,                             \
                 .max_ulp = INFINITY,                                                         \
                 .max_abs = INFINITY,                                                         \
                 .monotone = true,                                                            \
                 .specials = true,                                                            \
                 .grad_max_ulp = INFINITY,                                                    \
                 .grad_max_abs = INFINITY,                                                    \
                 .correctly_rounded = true)

#endif
