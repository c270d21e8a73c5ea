/* The fast reference's arithmetic (internal to reference/): each target's enclosure hi + lo ± err
 * from its libm values, and the rounding decision of an enclosure, written once as inline code
 * without calls so that fast.c (a point at a time, calling libm) and fast_vec_lanes.c (arrays of
 * points, libm values computed beforehand, loops the compiler vectorizes) perform the same
 * operations and get the same bits. Branches are selections, so that the loops vectorize.
 *
 * Notation: u = 2^-52, the spacing of doubles at 1; each correctly rounded double operation has
 * relative error ≤ u/2. Assumed libm accuracy (glibc on x86-64, validated against MPFR by
 * tests/test_fast_reference.c; erf and erfc of |z| < 0.84375 from erf_small.h, the same values):
 * erfc ≤ 8 ULP, erf, tanh ≤ 4 ULP, exp ≤ 2 ULP. The condition
 * number κ of a function turns a relative error δ of its argument into κ·δ of its value:
 * erfc(z): κ ≤ 2z² + 2 for z > 0 and ≤ 1/2 for z ≤ 0; σ(t) = 1/(1 + e^-t): κ ≤ |t|. */
#ifndef GELUCHECK_FAST_EVAL_H
#define GELUCHECK_FAST_EVAL_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "float_bits.h"

#include "gelu_impl.h"
#include "targets.h"

static const double U = 0x1p-52;
static const double SQRT1_2 = 0x1.6a09e667f3bcdp-1;      /* √½ */
static const double INV_SQRT_2PI = 0x1.9884533d43651p-2; /* 1/√(2π) */
static const double SQRT_2_PI = 0x1.9884533d43651p-1;    /* √(2/π) */
static const double KAPPA = 0.044715;                    /* the tanh formula's cubic coefficient */
static const double TINY = 0x1p-8;                       /* below: the x/2 + lo forward form */
/* Below 2^-30: f(x) = x/2 + a·x² + O(x⁴) and f'(x) = 1/2 + 2a·x + O(x³), a = S'(0) for the
 * target's factor S (f = x·S, S − 1/2 odd): exact and tanh 1/√(2π), sigmoid 1.702/4, SiLU 1/4.
 * The neglected terms are below x² < 2^-60 of the kept ones. */
static const double MICRO = 0x1p-30;
/* Stand-in for a negative exact value too small to matter: |f| < 2^-151 in the −0 regions, so
 * every output's ULP error (in units of 2^-149) is unaffected, and it rounds to −0. */
static const double NEG_TINY = -0x1p-1000;

/* Each target's thresholds (past them f rounds to x or −0), S'(0) and sigmoid slope are its row
 * of targets.c (target_def_of), read once per call by the callers. */

/* The arguments of the libm calls (the same expressions for every caller). */
static inline double exact_erfc_arg(double x) { return -x * SQRT1_2; }
static inline double exact_exp_arg(double x) { return -0.5 * x * x; }
static inline double exact_erf_arg(double x) { return x * SQRT1_2; }
static inline double tanh_t(double x) { return 2 * SQRT_2_PI * (x + KAPPA * (x * x * x)); }
static inline double tanh_tiny_arg(double x) { return SQRT_2_PI * (x + KAPPA * (x * x * x)); }
static inline double sigmoid_tiny_arg(double k, double x) { return 0.5 * k * x; }

/* |x| < 2^-30: hi + lo as above; a within u/2, the product(s) ≤ 1.5u, x² exact. */
static inline void micro_enclose(double a, bool grad, double x, double *hi, double *lo, double *err)
{
    double l_f = a * (x * x), l_d = 2 * a * x, half_x = 0.5 * x; /* two roundings */
    double l = grad ? l_d : l_f;
    *hi = grad ? 0.5 : half_x;
    *lo = l;
    *err = fabs(l) * 0x1p-50;
}

/* Forward for |x| < 2^-8: f = x/2 + x·g/2 with g = 2S − 1 odd and small (S the target's
 * sigmoid-like factor): exact g = erf(x√½), tanh g = tanh(t/2), sigmoid g = tanh(kx/2).
 * x/2 is exact in double; lo = x·g/2 within (libm 4u + argument ≤ 3u + u/2) ≤ 8u relative. */
static inline void tiny_enclose(double x, double g, double *hi, double *lo, double *err)
{
    double l = 0.5 * (x * g);
    *hi = 0.5 * x;
    *lo = l;
    *err = fabs(l) * 10 * U;
}

/* exact target, |x| ≥ 2^-8 (derivative 2^-30), inside the thresholds; erfc_z = erfc(−x·√½),
 * e = exp(−x²/2) (derivative only).
 * z = −x·√½: relative error ≤ u (√½ and the product). erfc(z): 8u + κ·u.
 * f = 0.5·x·erfc(z): one more u/2. For x > 0 (z < 0) κ ≤ 1/2, else κ ≤ x² + 2.
 * f' = A + B, A = erfc(z)/2 (as above), B = x·e^(−x²/2)/√(2π): x² exact, exp 2u, two products
 * and the constant 1.5u → 4u; the sum u/2·|A + B|. */
static inline void exact_enclose(bool grad, double x, double erfc_z, double e, double *hi,
                                 double *lo, double *err)
{
    double x2_2 = x * x + 2, kappa = x > 0 ? 0.5 : x2_2;
    double f = 0.5 * x * erfc_z;
    double a = 0.5 * erfc_z, b = x * (INV_SQRT_2PI * e);
    double s = a + b;
    *hi = grad ? s : f;
    *lo = 0;
    double err_d = (fabs(a) * (kappa + 10) + fabs(b) * 5 + fabs(s)) * U;
    double err_f = fabs(f) * (kappa + 10) * U;
    *err = grad ? err_d : err_f;
}

/* σ(t) = 1/(1 + e^-t) from em = e^-t: relative error ≤ (κ·δt + 3)·u with κ ≤ |t| (exp 2 ULP,
 * 1 + e and 1/(...)). */
static inline double sigma_of_exp(double em) { return 1.0 / (1.0 + em); }

/* tanh target: t = 2√(2/π)(x + 0.044715x³), relative error ≤ 3u (six roundings, no cancellation
 * as x and x³ share a sign); em = e^-t, ep = e^t (derivative only). σ(t): (3|t| + 3)u.
 * f = x·σ(t): + u/2. f' = σ(t) + x·σ(t)·σ(−t)·t', t' = 2√(2/π)(1 + 3·0.044715x²) within 3u;
 * B's relative error ≤ (6|t| + 6 + 3 + 1.5)u. */
static inline void tanh_enclose(bool grad, double x, double t, double em, double ep, double *hi,
                                double *lo, double *err)
{
    double s = sigma_of_exp(em), at = fabs(t);
    double f = x * s;
    double dt = 2 * SQRT_2_PI * (1 + 3 * KAPPA * (x * x));
    double a = s, b = x * s * sigma_of_exp(ep) * dt, sum = a + b;
    *hi = grad ? sum : f;
    *lo = 0;
    double err_d = (fabs(a) * (3 * at + 5) + fabs(b) * (6 * at + 12) + fabs(sum)) * U;
    double err_f = fabs(f) * (3 * at + 5) * U;
    *err = grad ? err_d : err_f;
}

/* sigmoid and SiLU: t = k·x within u (k's rounding and the product); em = e^-t, ep = e^t.
 * σ(t): (|t| + 3)u; f = x·σ(t): + u/2. f' = σ(t) + t·σ(t)·σ(−t): B within (2|t| + 6 + 1.5)u. */
static inline void sigmoid_enclose(double k, bool grad, double x, double em, double ep,
                                   double *hi, double *lo, double *err)
{
    double t = k * x, at = fabs(t), s = sigma_of_exp(em);
    double f = x * s;
    double a = s, b = t * s * sigma_of_exp(ep), sum = a + b;
    *hi = grad ? sum : f;
    *lo = 0;
    double err_d = (fabs(a) * (at + 5) + fabs(b) * (2 * at + 9) + fabs(sum)) * U;
    double err_f = fabs(f) * (at + 5) * U;
    *err = grad ? err_d : err_f;
}

/* The binary32 neighbour towards +inf (up) or −inf of a finite binary32 value r carried as a
 * double, computed in double and 64-bit integers (its encoding ± 1, as a double; the neighbour
 * of ±0 is ±2^-149 on the side asked for; past FLT_MAX, +inf): away from zero the step is
 * binary32's ULP at |r|, max(2^(e−23), 2^-149) for |r| in [2^e, 2^(e+1)); towards zero it is half
 * that from a power of two above 2^-126, whose lower neighbour lies in the binade below.
 * Doubles only, so that loops over it vectorize without mixing float and double masks. */
static inline double fe_neighbour(double r, bool up)
{
    double a = fabs(r);
    uint64_t b = double_bits(a);
    int64_t ulp_biased = (int64_t)(b >> 52) - 23;
    ulp_biased = ulp_biased < 1023 - 149 ? 1023 - 149 : ulp_biased;
    double ulp = double_from_bits((uint64_t)ulp_biased << 52);
    int64_t power_of_2 = (b & 0xfffffffffffffull) == 0;
    double down_step = power_of_2 & (a > 0x1p-126) ? 0.5 * ulp : ulp;
    double away = a + ulp, toward = a - down_step;
    away = away > FLT_MAX ? INFINITY : away;
    /* r's sign and zeroness from its encoding: compared as a double converted from a float, r
     * would be compared as that float, with masks of another width. */
    uint64_t rb = double_bits(r);
    int64_t positive = (int64_t)rb > 0, zero = (rb << 1) == 0;
    int64_t moves_away = positive == (int64_t)up;
    double n = copysign(moves_away ? away : toward, r);
    uint64_t zero_mask = -(uint64_t)zero; /* a blend of encodings: GCC 12 does not vectorize
                                             * this selection when it is written as one */
    return double_from_bits((double_bits(up ? 0x1p-149 : -0x1p-149) & zero_mask) |
                     (double_bits(n) & ~zero_mask));
}

/* True when every real in the enclosure hi + lo ± err rounds to r, a binary32 value carried as a
 * double (ignoring the sign of a zero r). The rounding midpoints on both sides of r are exact in
 * double (25 significant bits). Distances from the value to both midpoints: hi − m is exact in
 * most cases (Sterbenz, or both within 2^-149 in the subnormal range) and otherwise within 2^-53
 * of itself; adding lo rounds by ≤ 2^-53 of the result: a slack of 2^-51 of both covers them.
 * When hi is itself a midpoint (x/2 for an odd subnormal x), the distance is lo, decided by its
 * sign. Flags are 64-bit integers, as wide as the doubles they are selected with (bool flags
 * make the vectorizer mix mask widths). */
static inline int64_t fe_rounds_to(double hi, double lo, double err, double r)
{
    double m_lo = 0.5 * (r + fe_neighbour(r, false));
    double m_hi = 0.5 * (r + fe_neighbour(r, true));
    double d_lo = hi - m_lo, d_hi = m_hi - hi;
    double below = d_lo + lo, above = d_hi - lo;
    return (int64_t)(fabs(r) <= FLT_MAX) & (below > err + (fabs(d_lo) + fabs(below)) * 0x1p-51) &
           (above > err + (fabs(d_hi) + fabs(above)) * 0x1p-51);
}

/* The rounding decision of an enclosure with a finite hi (enclosure_round, fast.h): the
 * binary32 value every real in it rounds to, as a double, into *cr. Comparisons and selections
 * are on doubles (binary32 values carried exactly as doubles). */
static inline int64_t fe_round_finite(double hi, double lo, double err, double *cr)
{
    /* err = 0: the defined and trivial regions, where hi is a binary32 value (lo at most marks
     * the side of the exact value, far below half an ULP), or a stand-in below 2^-151 that
     * rounds to 0. */
    double rh = (float)hi;
    int64_t exact = (int64_t)(err == 0) & ((rh == hi) | (fabs(hi) < 0x1p-151));
    /* Candidates: the rounding of hi + lo, and its neighbour on lo's side (hi + lo rounded to
     * double can land on a midpoint, which then rounds to even, possibly the wrong side). */
    double v = hi + lo;
    double r0 = (float)v;
    double r1 = fe_neighbour(r0, lo > 0);
    int64_t ok0 = fe_rounds_to(hi, lo, err, r0), ok1 = fe_rounds_to(hi, lo, err, r1);
    double r = ok0 ? r0 : r1;
    /* ±0: the sign of the exact value must be known (a defined signed zero keeps hi's). */
    int64_t zero = r == 0, defined_zero = (int64_t)(err == 0) & (v == 0);
    int64_t sign_unknown = zero & !defined_zero & (fabs(v) <= err);
    double signed_zero = defined_zero ? rh : v < 0 ? -0.0 : 0.0;
    *cr = exact ? rh : zero ? signed_zero : r;
    return exact | ((ok0 | ok1) & !sign_unknown);
}

/* fe_round_finite without its second candidate: its value and *cr wherever the enclosure is
 * exact or the rounding of hi + lo passes (there r = r0 and ok0 | ok1 = 1, whatever ok1), the
 * same operations; elsewhere *second = 1 (else 0), and fe_round_finite decides (the rare
 * enclosures whose hi + lo landed on a midpoint, and those undecided). For the lane kernels,
 * where the second candidate's test was half of the decision's cost. */
static inline int64_t fe_round_first(double hi, double lo, double err, double *cr, int64_t *second)
{
    double rh = (float)hi;
    int64_t exact = (int64_t)(err == 0) & ((rh == hi) | (fabs(hi) < 0x1p-151));
    double v = hi + lo;
    double r0 = (float)v;
    int64_t ok0 = fe_rounds_to(hi, lo, err, r0);
    int64_t zero = r0 == 0, defined_zero = (int64_t)(err == 0) & (v == 0);
    int64_t sign_unknown = zero & !defined_zero & (fabs(v) <= err);
    double signed_zero = defined_zero ? rh : v < 0 ? -0.0 : 0.0;
    *cr = exact ? rh : zero ? signed_zero : r0;
    *second = !exact & !ok0;
    return exact | (ok0 & !sign_unknown);
}

#endif
