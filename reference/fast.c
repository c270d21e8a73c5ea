/* The fast reference (see fast.h): double-precision enclosures with their error analysis.
 *
 * Notation: u = 2^-52, the spacing of doubles at 1; each correctly rounded double operation has
 * relative error ≤ u/2. Assumed libm accuracy (glibc on x86-64, validated against MPFR by
 * tests/test_fast_reference.c): erfc ≤ 8 ULP, erf, tanh ≤ 4 ULP, exp ≤ 2 ULP. The condition
 * number κ of a function turns a relative error δ of its argument into κ·δ of its value:
 * erfc(z): κ ≤ 2z² + 2 for z > 0 and ≤ 1/2 for z ≤ 0; σ(t) = 1/(1 + e^-t): κ ≤ |t|. */
#include "fast.h"

#include "targets.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static const double U = 0x1p-52;
static const double SQRT1_2 = 0x1.6a09e667f3bcdp-1;      /* √½ */
static const double INV_SQRT_2PI = 0x1.9884533d43651p-2; /* 1/√(2π) */
static const double SQRT_2_PI = 0x1.9884533d43651p-1;    /* √(2/π) */
static const double KAPPA = 0.044715;                    /* the tanh formula's cubic coefficient */
static const double TINY = 0x1p-8;                       /* below: the x/2 + lo forward form */
/* Stand-in for a negative exact value too small to matter: |f| < 2^-151 in the −0 regions, so
 * every output's ULP error (in units of 2^-149) is unaffected, and it rounds to −0. */
static const double NEG_TINY = -0x1p-1000;



static void set(enclosure *e, double hi, double lo, double err)
{
    e->hi = hi;
    e->lo = lo;
    e->err = err;
}

/* Below 2^-30: f(x) = x/2 + a·x² + O(x⁴) and f'(x) = 1/2 + 2a·x + O(x³), a = S'(0) for the
 * target's factor S (f = x·S, S − 1/2 odd): exact and tanh 1/√(2π), sigmoid 1.702/4, SiLU 1/4.
 * The neglected terms are below x² < 2^-60 of the kept ones. */
static const double MICRO = 0x1p-30;

static void micro(const target_def *t, bool grad, double x, enclosure *e)
{
    double a = t->s_prime_0; /* within u/2 */
    double lo = grad ? 2 * a * x : a * (x * x); /* x² exact; two roundings */
    set(e, grad ? 0.5 : 0.5 * x, lo, fabs(lo) * 0x1p-50); /* a, the product(s): ≤ 1.5u; + x² */
}

/* σ(t) in double: relative error ≤ (κ·δt + 3)·u with κ ≤ |t| (exp 2 ULP, 1 + e and 1/(...)). */
static double sigma(double t) { return 1.0 / (1.0 + exp(-t)); }

/* exact target, |x| ≥ 2^-8, inside the thresholds.
 * z = −x·√½: relative error ≤ u (√½ and the product). erfc(z): 8u + κ·u.
 * f = 0.5·x·erfc(z): one more u/2. For x > 0 (z < 0) κ ≤ 1/2, else κ ≤ x² + 2.
 * f' = A + B, A = erfc(z)/2 (as above), B = x·e^(−x²/2)/√(2π): x² exact, exp 2u, two products
 * and the constant 1.5u → 4u; the sum u/2·|A + B|. */
void fast_exact_enclose(const target_def *t, bool grad, double x, enclosure *e)
{
    (void)t;
    double kappa = x > 0 ? 0.5 : x * x + 2;
    double erfc_z = erfc(-x * SQRT1_2);
    if (!grad) {
        double f = 0.5 * x * erfc_z;
        set(e, f, 0, fabs(f) * (kappa + 10) * U);
        return;
    }
    double a = 0.5 * erfc_z, b = x * (INV_SQRT_2PI * exp(-0.5 * x * x));
    double s = a + b;
    set(e, s, 0, (fabs(a) * (kappa + 10) + fabs(b) * 5 + fabs(s)) * U);
}

/* tanh target: t = 2√(2/π)(x + 0.044715x³), relative error ≤ 3u (six roundings, no cancellation
 * as x and x³ share a sign). σ(t): (3|t| + 3)u. f = x·σ(t): + u/2.
 * f' = σ(t) + x·σ(t)·σ(−t)·t', t' = 2√(2/π)(1 + 3·0.044715x²) within 3u; B's relative error
 * ≤ (6|t| + 6 + 3 + 1.5)u. */
void fast_tanh_enclose(const target_def *target, bool grad, double x, enclosure *e)
{
    (void)target;
    double t = 2 * SQRT_2_PI * (x + KAPPA * (x * x * x));
    double s = sigma(t), at = fabs(t);
    if (!grad) {
        double f = x * s;
        set(e, f, 0, fabs(f) * (3 * at + 5) * U);
        return;
    }
    double dt = 2 * SQRT_2_PI * (1 + 3 * KAPPA * (x * x));
    double a = s, b = x * s * sigma(-t) * dt, sum = a + b;
    set(e, sum, 0, (fabs(a) * (3 * at + 5) + fabs(b) * (6 * at + 12) + fabs(sum)) * U);
}

/* sigmoid and SiLU: t = k·x within u (k's rounding and the product). σ(t): (|t| + 3)u;
 * f = x·σ(t): + u/2. f' = σ(t) + t·σ(t)·σ(−t): B within (2|t| + 6 + 1.5)u. */
void fast_sigmoid_enclose(const target_def *target, bool grad, double x, enclosure *e)
{
    double t = target->slope * x, at = fabs(t), s = sigma(t);
    if (!grad) {
        double f = x * s;
        set(e, f, 0, fabs(f) * (at + 5) * U);
        return;
    }
    double a = s, b = t * s * sigma(-t), sum = a + b;
    set(e, sum, 0, (fabs(a) * (at + 5) + fabs(b) * (2 * at + 9) + fabs(sum)) * U);
}

/* Forward for |x| < 2^-8: f = x/2 + x·g/2 with g = 2S − 1 odd and small (S the target's
 * sigmoid-like factor): exact g = erf(x√½), tanh g = tanh(t/2), sigmoid g = tanh(kx/2).
 * x/2 is exact in double; lo = x·g/2 within (libm 4u + argument ≤ 3u + u/2) ≤ 8u relative. */
double fast_exact_tiny_g(const target_def *t, double x)
{
    (void)t;
    return erf(x * SQRT1_2);
}

double fast_tanh_tiny_g(const target_def *t, double x)
{
    (void)t;
    return tanh(SQRT_2_PI * (x + KAPPA * (x * x * x)));
}

double fast_sigmoid_tiny_g(const target_def *t, double x) { return tanh(0.5 * t->slope * x); }

static void forward_tiny(const target_def *t, double x, enclosure *e)
{
    double g = t->tiny_g(t, x);
    double lo = 0.5 * (x * g);
    set(e, 0.5 * x, lo, fabs(lo) * 10 * U);
}

/* The definitions at NaN, ±inf, ±0 and ReLU everywhere; false for other inputs. */
static bool defined_value(gelu_target t, bool grad, float x, enclosure *e)
{
    float r;
    if (!ref_defined_value(t, grad, x, &r)) return false;
    set(e, r, 0, 0);
    return true;
}

void fast_enclose(gelu_target target, bool grad, float xf, enclosure *e)
{
    if (defined_value(target, grad, xf, e)) return;
    const target_def *t = target_def_of(target);
    double x = xf;
    if (x >= t->upper) {
        /* f just below x; f' just above 1: lo carries the side for the binade of the ULP. */
        if (grad) set(e, 1.0, DBL_TRUE_MIN, 0);
        else set(e, x, -DBL_TRUE_MIN, 0);
        return;
    }
    if (x <= t->lower) {
        set(e, NEG_TINY, 0, 0);
        return;
    }
    if (fabs(x) < MICRO) {
        micro(t, grad, x, e);
        return;
    }
    if (!grad && fabs(x) < TINY) {
        forward_tiny(t, x, e);
        return;
    }
    t->enclose(t, grad, x, e);
}

/* The binary32 neighbour of a finite r towards +inf (up) or −inf, by its encoding. */
static float neighbour(float r, bool up)
{
    uint32_t b;
    memcpy(&b, &r, sizeof b);
    if ((b & 0x7fffffffu) == 0) b = up ? 0x00000001u : 0x80000001u;
    else if ((b >> 31) == (up ? 0u : 1u)) b++; /* away from zero */
    else b--;
    memcpy(&r, &b, sizeof r);
    return r;
}

/* True when every real in the enclosure rounds to r (ignoring the sign of a zero r). */
static bool rounds_to(const enclosure *e, float r)
{
    if (isinf(r)) return false;
    /* The rounding midpoints on both sides of r are exact in double (25 significant bits). */
    double m_lo = 0.5 * ((double)r + (double)neighbour(r, false));
    double m_hi = 0.5 * ((double)r + (double)neighbour(r, true));
    /* Distances from the value to both midpoints. hi − m is exact in most cases (Sterbenz, or
     * both within 2^-149 in the subnormal range) and otherwise within 2^-53 of itself; adding lo
     * rounds by ≤ 2^-53 of the result: a slack of 2^-51 of both covers them. When hi is itself
     * a midpoint (x/2 for an odd subnormal x), the distance is lo, decided by its sign. */
    double d_lo = e->hi - m_lo, d_hi = m_hi - e->hi;
    double below = d_lo + e->lo, above = d_hi - e->lo;
    return below > e->err + (fabs(d_lo) + fabs(below)) * 0x1p-51 &&
           above > e->err + (fabs(d_hi) + fabs(above)) * 0x1p-51;
}

bool enclosure_round(const enclosure *e, float *cr)
{
    if (isnan(e->hi) || isinf(e->hi)) {
        *cr = (float)e->hi;
        return e->err == 0;
    }
    /* Candidates: the rounding of hi + lo, and its neighbour on lo's side (hi + lo rounded to
     * double can land on a midpoint, which then rounds to even, possibly the wrong side). */
    if (e->err == 0) {
        /* The defined and trivial regions: hi is a binary32 value (lo at most marks the side of
         * the exact value, far below half an ULP), or a stand-in below 2^-151 that rounds to 0. */
        float rh = (float)e->hi;
        if ((double)rh == e->hi || fabs(e->hi) < 0x1p-151) {
            *cr = rh;
            return true;
        }
    }
    double v = e->hi + e->lo;
    float r = (float)v;
    if (!rounds_to(e, r)) {
        r = neighbour(r, e->lo > 0);
        if (!rounds_to(e, r)) return false;
    }
    if (r == 0.0f) {
        /* ±0: the sign of the exact value must be known. */
        if (e->err == 0 && v == 0) r = (float)e->hi; /* a defined signed zero */
        else if (fabs(v) <= e->err) return false;
        else r = v < 0 ? -0.0f : 0.0f;
    }
    *cr = r;
    return true;
}

bool fast_ref_decide(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp)
{
    enclosure e;
    fast_enclose(t, grad, x, &e);
    float cr;
    *inv_ulp = ref_inv_ulp(e.hi, e.lo);
    /* Decided, and the ULP error of any output known to 1e-3 ULP. */
    if (!enclosure_round(&e, &cr) || e.err * *inv_ulp > 1e-3) return false;
    out->hi = e.hi;
    out->lo = e.lo;
    out->cr = cr;
    return true;
}

void fast_ref_fallback(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp)
{
    ref_eval_value(t, grad, x, out);
    *inv_ulp = ref_inv_ulp(out->hi, out->lo);
}

bool fast_ref_value(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp)
{
    if (fast_ref_decide(t, grad, x, out, inv_ulp)) return false;
    fast_ref_fallback(t, grad, x, out, inv_ulp);
    return true;
}

/* Whole blocks inside one region where fast_ref_decide needs no evaluation, filled by loops
 * without calls (the scan's blocks of consecutive encodings mostly lie in one): the values are
 * those fast_ref_decide gives point by point (tests/test_fast_reference.c compares them), none
 * of them a fallback:
 *   ReLU: the definitions, hi = r, lo = 0, decided as r;
 *   x ≥ the upper threshold: f as x − ε (f' as 1 + ε), decided as x (1);
 *   x ≤ the lower threshold: the stand-in NEG_TINY, decided as −0;
 *   2^-125 ≤ |x| < 2^-30 (micro): hi = x/2 (1/2) is a normal binary32 value and |lo| + err is
 *     below 2^-29 of it, far inside half an ULP (2^-25 of it): decided as hi, with err·2^e
 *     below 2^-26. */
bool fast_ref_block(gelu_target target, bool grad, const float *x, size_t n, ref_value *out,
                    double *inv_ulp)
{
    const target_def *t = target_def_of(target);
    if (t->defined) {
        for (size_t j = 0; j < n; j++) {
            float r = 0;
            if (isnan(x[j])) { /* NaN encodings as the point path makes them (quiet) */
                fast_ref_decide(target, grad, x[j], &out[j], &inv_ulp[j]);
                continue;
            }
            ref_defined_value(target, grad, x[j], &r);
            out[j] = (ref_value){r, 0, r};
            inv_ulp[j] = ref_inv_ulp(r, 0);
        }
        return true;
    }
    float lo_x = INFINITY, hi_x = -INFINITY, lo_abs = INFINITY, hi_abs = 0;
    uint32_t special = 0; /* NaN, ±inf or ±0 among the inputs */
    for (size_t j = 0; j < n; j++) {
        uint32_t b;
        memcpy(&b, &x[j], sizeof b);
        special |= ((b & 0x7f800000u) == 0x7f800000u) | ((b & 0x7fffffffu) == 0);
        float a = fabsf(x[j]);
        lo_x = x[j] < lo_x ? x[j] : lo_x;
        hi_x = x[j] > hi_x ? x[j] : hi_x;
        lo_abs = a < lo_abs ? a : lo_abs;
        hi_abs = a > hi_abs ? a : hi_abs;
    }
    if (special || n == 0) return false;
    if (lo_x >= t->upper) {
        for (size_t j = 0; j < n; j++) {
            out[j] = grad ? (ref_value){1.0, DBL_TRUE_MIN, 1.0f} : (ref_value){x[j], -DBL_TRUE_MIN, x[j]};
            inv_ulp[j] = ref_inv_ulp(out[j].hi, out[j].lo);
        }
        return true;
    }
    if (hi_x <= t->lower) {
        for (size_t j = 0; j < n; j++) {
            out[j] = (ref_value){NEG_TINY, 0, -0.0f};
            inv_ulp[j] = ref_inv_ulp(NEG_TINY, 0);
        }
        return true;
    }
    if (lo_abs >= 0x1p-125f && hi_abs < MICRO) {
        for (size_t j = 0; j < n; j++) {
            enclosure e;
            micro(t, grad, x[j], &e);
            out[j] = (ref_value){e.hi, e.lo, (float)e.hi};
            inv_ulp[j] = ref_inv_ulp(e.hi, e.lo);
        }
        return true;
    }
    return false;
}
