/* The MPFR oracle (see reference.h for the contract).
 *
 * Each target and derivative is evaluated as one or two terms, each with relative error at most
 * 2^-(p-3) at working precision p (error analysis beside each evaluation), so that the sum has an
 * absolute error at most 2^(E-p+5), E the largest term's exponent. Terms are never subtracted
 * from one another except in f' near x_min, where the bound, relative to the terms, stays
 * rigorous. The argument is carried with extra bits to absorb the condition number of the
 * function at it (erfc: 2z² ≤ x² + 2; σ(t): |t|), so large |x| cost bits, not correctness. */
#include "reference.h"

#include "targets.h"

#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

enum { ZIV_START_PREC = 128, ZIV_MAX_PREC = 4096 };

/* eval_enclosure's answer when every term underflowed. */
#define ENCLOSURE_UNDERFLOW LONG_MIN

/* Precision for the argument and intermediate values: p plus `degree` bits per binade of |x|
 * (the condition number grows like |x|^degree) plus a margin. */
static mpfr_prec_t arg_prec(mpfr_prec_t p, const mpfr_t x, int degree)
{
    mpfr_exp_t e = mpfr_zero_p(x) ? 0 : mpfr_get_exp(x);
    if (e < 0) e = 0;
    return p + (mpfr_prec_t)degree * (mpfr_prec_t)e + 16;
}

/* σ(t) = 1/(1 + e^-t) into s; overflow of e^-t gives +0, as the limit. */
static void sigma(mpfr_t s, const mpfr_t t, mpfr_t tmp)
{
    mpfr_neg(tmp, t, MPFR_RNDN);
    mpfr_exp(tmp, tmp, MPFR_RNDN);
    mpfr_add_ui(tmp, tmp, 1, MPFR_RNDN);
    mpfr_ui_div(s, 1, tmp, MPFR_RNDN);
}

/* exact: f = x·erfc(−x/√2)/2; f' = erfc(−x/√2)/2 + x·e^(−x²/2)/√(2π).
 * z = −x/√2 has relative error ≤ 2·2^-pa; erfc amplifies it by ≤ x² + 2 < 2^(2e+1), so with
 * pa = p + 2e + 16 each term is within 2^-(p-1) after its final rounding. x² is exact (pa ≥ 48
 * for a binary32 x). */
int ref_exact_terms(const target_def *t, bool grad, const mpfr_t x, mpfr_prec_t p, mpfr_t term[2])
{
    (void)t;
    mpfr_prec_t pa = arg_prec(p, x, 2);
    mpfr_t z, s, e;
    mpfr_inits2(pa, z, s, e, (mpfr_ptr)0);
    mpfr_sqrt_ui(s, 2, MPFR_RNDN);
    mpfr_div(z, x, s, MPFR_RNDN);
    mpfr_neg(z, z, MPFR_RNDN);
    mpfr_erfc(e, z, MPFR_RNDN);
    int n = 1;
    if (!grad) {
        mpfr_mul(term[0], x, e, MPFR_RNDN);
        mpfr_div_2ui(term[0], term[0], 1, MPFR_RNDN);
    } else {
        mpfr_div_2ui(term[0], e, 1, MPFR_RNDN);
        mpfr_sqr(z, x, MPFR_RNDN);
        mpfr_div_2ui(z, z, 1, MPFR_RNDN);
        mpfr_neg(z, z, MPFR_RNDN);
        mpfr_exp(e, z, MPFR_RNDN);
        mpfr_const_pi(s, MPFR_RNDN);
        mpfr_mul_2ui(s, s, 1, MPFR_RNDN);
        mpfr_sqrt(s, s, MPFR_RNDN);
        mpfr_div(e, e, s, MPFR_RNDN);
        mpfr_mul(term[1], e, x, MPFR_RNDN);
        n = 2;
    }
    mpfr_clears(z, s, e, (mpfr_ptr)0);
    return n;
}

/* tanh: f = x·σ(2u), u = √(2/π)·(x + 0.044715·x³) (since ½(1 + tanh u) = σ(2u), which has no
 * cancellation for x < 0); f' = σ(2u) + x·σ(2u)·σ(−2u)·2√(2/π)(1 + 3·0.044715·x²).
 * t = 2u has relative error ≤ 8·2^-pa (x and 0.044715x³ have the same sign); σ amplifies it by
 * |t| < 2^(3e+1), absorbed by pa = p + 3e + 16. */
int ref_tanh_terms(const target_def *target, bool grad, const mpfr_t x, mpfr_prec_t p, mpfr_t term[2])
{
    (void)target;
    mpfr_prec_t pa = arg_prec(p, x, 3);
    mpfr_t c, k, t, s, tmp, sb, d;
    mpfr_inits2(pa, c, k, t, s, tmp, sb, d, (mpfr_ptr)0);
    mpfr_const_pi(c, MPFR_RNDN);
    mpfr_ui_div(c, 2, c, MPFR_RNDN);
    mpfr_sqrt(c, c, MPFR_RNDN);                       /* √(2/π) */
    mpfr_set_str(k, "0.044715", 10, MPFR_RNDN);       /* the published decimal constant */
    mpfr_sqr(t, x, MPFR_RNDN);
    mpfr_mul(t, t, x, MPFR_RNDN);
    mpfr_mul(t, t, k, MPFR_RNDN);
    mpfr_add(t, t, x, MPFR_RNDN);
    mpfr_mul(t, t, c, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);                 /* t = 2u */
    sigma(s, t, tmp);
    int n = 1;
    if (!grad) {
        mpfr_mul(term[0], x, s, MPFR_RNDN);
    } else {
        mpfr_neg(d, t, MPFR_RNDN);
        sigma(sb, d, tmp);                            /* σ(−t) = 1 − σ(t), without cancellation */
        mpfr_sqr(d, x, MPFR_RNDN);
        mpfr_mul(d, d, k, MPFR_RNDN);
        mpfr_mul_ui(d, d, 3, MPFR_RNDN);
        mpfr_add_ui(d, d, 1, MPFR_RNDN);
        mpfr_mul(d, d, c, MPFR_RNDN);
        mpfr_mul_2ui(d, d, 1, MPFR_RNDN);             /* dt/dx */
        mpfr_set(term[0], s, MPFR_RNDN);
        mpfr_mul(d, d, s, MPFR_RNDN);
        mpfr_mul(d, d, sb, MPFR_RNDN);
        mpfr_mul(term[1], d, x, MPFR_RNDN);
        n = 2;
    }
    mpfr_clears(c, k, t, s, tmp, sb, d, (mpfr_ptr)0);
    return n;
}

/* sigmoid (slope "1.702") and SiLU (slope "1"): f = x·σ(t), t = slope·x;
 * f' = σ(t) + t·σ(t)·σ(−t). σ amplifies t's relative error (≤ 2^-pa) by |t| < 2^(e+1), absorbed
 * by pa = p + e + 16. */
int ref_sigmoid_terms(const target_def *target, bool grad, const mpfr_t x, mpfr_prec_t p,
                       mpfr_t term[2])
{
    mpfr_prec_t pa = arg_prec(p, x, 1);
    mpfr_t k, t, s, tmp, sb;
    mpfr_inits2(pa, k, t, s, tmp, sb, (mpfr_ptr)0);
    mpfr_set_str(k, target->slope_decimal, 10, MPFR_RNDN); /* the published decimal constant */
    mpfr_mul(t, x, k, MPFR_RNDN);
    sigma(s, t, tmp);
    int n = 1;
    if (!grad) {
        mpfr_mul(term[0], x, s, MPFR_RNDN);
    } else {
        mpfr_neg(tmp, t, MPFR_RNDN);
        sigma(sb, tmp, k);
        mpfr_set(term[0], s, MPFR_RNDN);
        mpfr_mul(s, s, sb, MPFR_RNDN);
        mpfr_mul(term[1], s, t, MPFR_RNDN);
        n = 2;
    }
    mpfr_clears(k, t, s, tmp, sb, (mpfr_ptr)0);
    return n;
}

/* f(x) (grad: f'(x)) at precision p into v, for finite non-zero x of a GELU target; returns the
 * exponent E such that |v − exact| ≤ 2^E, or ENCLOSURE_UNDERFLOW when every term underflowed to 0
 * (the exact value is then a tiny negative number: below x_min both f and f' are negative). */
static mpfr_exp_t eval_enclosure(gelu_target t, bool grad, const mpfr_t x, mpfr_prec_t p, mpfr_t v)
{
    mpfr_t term[2];
    mpfr_inits2(p, term[0], term[1], (mpfr_ptr)0);
    const target_def *def = target_def_of(t);
    int n = def->mpfr_terms(def, grad, x, p, term);
    mpfr_exp_t emax = ENCLOSURE_UNDERFLOW;
    mpfr_set_ui(v, 0, MPFR_RNDN);
    for (int i = 0; i < n; i++) {
        if (mpfr_zero_p(term[i])) continue;
        if (mpfr_get_exp(term[i]) > emax) emax = mpfr_get_exp(term[i]);
        mpfr_add(v, v, term[i], MPFR_RNDN);
    }
    mpfr_clears(term[0], term[1], (mpfr_ptr)0);
    return emax == ENCLOSURE_UNDERFLOW ? ENCLOSURE_UNDERFLOW : emax - p + 5;
}

double ref_round_format(const gelu_format *f, const mpfr_t v)
{
    if (mpfr_nan_p(v)) return NAN;
    if (mpfr_inf_p(v)) return mpfr_signbit(v) ? -INFINITY : INFINITY;
    if (mpfr_zero_p(v)) return mpfr_signbit(v) ? -0.0 : 0.0;
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t r;
    mpfr_init2(r, f->precision);
    int inex = mpfr_set(r, v, MPFR_RNDN);
    /* MPFR's exponent e means [2^(e-1), 2^e): the smallest subnormal 2^(emin-precision+1) has
     * e = emin − precision + 2 (binary32: −148), the largest finite e = emax + 1 (128). */
    mpfr_set_emin(f->emin - f->precision + 2);
    mpfr_set_emax(f->emax + 1);
    inex = mpfr_check_range(r, inex, MPFR_RNDN);
    mpfr_subnormalize(r, inex, MPFR_RNDN);
    double d = mpfr_get_d(r, MPFR_RNDN); /* exact: a value of the format */
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(r);
    return d;
}

float ref_round_binary32(const mpfr_t v)
{
    return (float)ref_round_format(gelu_format_of(GELU_FORMAT_BINARY32), v);
}

static bool same_encoding(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The definitions (reference.h) at a value of any format, as a double. */
static bool defined_value(gelu_target t, bool grad, double x, double *r)
{
    if (isnan(x)) *r = x;
    else if (target_def_of(t)->defined) *r = target_def_of(t)->defined(grad, x);
    else if (x == 0.0) *r = grad ? 0.5 : x;
    else if (isinf(x)) *r = x > 0 ? (grad ? 1.0 : x) : -0.0;
    else return false;
    return true;
}

bool ref_defined_value(gelu_target t, bool grad, float x, float *r)
{
    double d;
    if (isnan(x)) *r = x; /* the input itself, not a NaN through a double */
    else if (defined_value(t, grad, x, &d)) *r = (float)d; /* a binary32 value */
    else return false;
    return true;
}

double ref_eval_format(const gelu_format *f, gelu_target t, bool grad, double x, mpfr_t exact)
{
    double r;
    if (defined_value(t, grad, x, &r)) {
        mpfr_set_d(exact, r, MPFR_RNDN);
        return r;
    }
    mpfr_t xm, v, lo, hi, e;
    mpfr_init2(xm, f->precision);
    mpfr_set_d(xm, x, MPFR_RNDN); /* exact: x is a value of the format */
    mpfr_prec_t p = mpfr_get_prec(exact) > ZIV_START_PREC ? mpfr_get_prec(exact) : ZIV_START_PREC;
    mpfr_inits2(p, v, lo, hi, e, (mpfr_ptr)0);
    for (bool first = true;; first = false) {
        mpfr_exp_t err = eval_enclosure(t, grad, xm, p, v);
        if (first) mpfr_set(exact, v, MPFR_RNDN);
        if (err == ENCLOSURE_UNDERFLOW) {
            /* Underflowed below MPFR's range: a tiny negative value, which rounds to −0. */
            mpfr_set_zero(exact, -1);
            r = -0.0;
            break;
        }
        mpfr_set_ui_2exp(e, 1, err, MPFR_RNDN);
        mpfr_sub(lo, v, e, MPFR_RNDD);
        mpfr_add(hi, v, e, MPFR_RNDU);
        double rl = ref_round_format(f, lo), rh = ref_round_format(f, hi);
        if (same_encoding(rl, rh) || p >= ZIV_MAX_PREC) {
            /* At ZIV_MAX_PREC (never reached in practice: binary32 hard cases need < 100
             * extra bits) the nearest rounding of the approximation is returned. */
            r = same_encoding(rl, rh) ? rl : ref_round_format(f, v);
            break;
        }
        p *= 2;
        mpfr_set_prec(v, p);
        mpfr_set_prec(lo, p);
        mpfr_set_prec(hi, p);
    }
    mpfr_clears(xm, v, lo, hi, e, (mpfr_ptr)0);
    return r;
}

float ref_eval(gelu_target t, bool grad, float x, mpfr_t exact)
{
    if (isnan(x)) { /* its own encoding back, as ref_defined_value */
        mpfr_set_flt(exact, x, MPFR_RNDN);
        return x;
    }
    return (float)ref_eval_format(gelu_format_of(GELU_FORMAT_BINARY32), t, grad, x, exact);
}

bool ref_ftz_zero(float cr, const mpfr_t exact)
{
    if (gelu_fpenv_subnormal(cr)) return true;
    if (fabsf(cr) != 0x1p-126f) return false;
    return mpfr_cmp_d(exact, 0x1p-126 - 0x1p-151) < 0 && mpfr_cmp_d(exact, -(0x1p-126 - 0x1p-151)) > 0;
}

float ref_eval_fpenv(gelu_target t, bool grad, float x, gelu_fpenv e, mpfr_t exact)
{
    float cr = ref_eval(t, grad, gelu_fpenv_input(e, x), exact);
    if (!(e & GELU_FPENV_FTZ) || !ref_ftz_zero(cr, exact)) return cr;
    float zero = cr < 0 ? -0.0f : 0.0f;
    mpfr_set_flt(exact, zero, MPFR_RNDN);
    return zero;
}

float ref_round(gelu_target t, bool grad, float x)
{
    mpfr_t exact;
    mpfr_init2(exact, REF_EXACT_PREC);
    float r = ref_eval(t, grad, x, exact);
    mpfr_clear(exact);
    return r;
}

/* Shared rules for non-finite values; true when they decide the error (into *err). */
static bool nonfinite_error(double y, const mpfr_t exact, double *err)
{
    if (mpfr_nan_p(exact) || isnan(y)) {
        *err = (mpfr_nan_p(exact) && isnan(y)) ? 0.0 : INFINITY;
        return true;
    }
    if (mpfr_inf_p(exact) || isinf(y)) {
        bool same = mpfr_inf_p(exact) && isinf(y) && (mpfr_signbit(exact) != 0) == (signbit(y) != 0);
        *err = same ? 0.0 : INFINITY;
        return true;
    }
    return false;
}

/* |y − exact|·2^-scale_exp as a double, computed exactly enough (≥ 100 bits). */
static double scaled_difference(double y, const mpfr_t exact, mpfr_exp_t scale_exp)
{
    mpfr_t d;
    mpfr_prec_t p = mpfr_get_prec(exact) + 160;
    mpfr_init2(d, p);
    mpfr_set_d(d, y, MPFR_RNDN);
    mpfr_sub(d, d, exact, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_mul_2si(d, d, -scale_exp, MPFR_RNDN);
    double r = mpfr_get_d(d, MPFR_RNDN);
    mpfr_clear(d);
    return r;
}

double ref_ulp_error_format(const gelu_format *f, double y, const mpfr_t exact)
{
    double err;
    if (nonfinite_error(y, exact, &err)) return err;
    /* |exact| in [2^(e-1), 2^e): the format's spacing 2^(e-precision), never below the
     * smallest subnormal (binary32: 2^(e-24), 2^-149). */
    mpfr_exp_t min_ulp_exp = f->emin - f->precision + 1;
    mpfr_exp_t ulp_exp = mpfr_zero_p(exact) ? min_ulp_exp : mpfr_get_exp(exact) - f->precision;
    if (ulp_exp < min_ulp_exp) ulp_exp = min_ulp_exp;
    return scaled_difference(y, exact, ulp_exp);
}

double ref_ulp_error(float y, const mpfr_t exact)
{
    return ref_ulp_error_format(gelu_format_of(GELU_FORMAT_BINARY32), y, exact);
}

double ref_abs_error(float y, const mpfr_t exact) { return ref_abs_error_d(y, exact); }
double ref_rel_error(float y, const mpfr_t exact) { return ref_rel_error_d(y, exact); }

double ref_abs_error_d(double y, const mpfr_t exact)
{
    double err;
    if (nonfinite_error(y, exact, &err)) return err;
    return scaled_difference(y, exact, 0);
}

double ref_rel_error_d(double y, const mpfr_t exact)
{
    double err;
    if (nonfinite_error(y, exact, &err)) return err;
    if (mpfr_zero_p(exact)) return y == 0.0 ? 0.0 : INFINITY;
    mpfr_t d;
    mpfr_init2(d, mpfr_get_prec(exact) + 160);
    mpfr_set_d(d, y, MPFR_RNDN);
    mpfr_sub(d, d, exact, MPFR_RNDN);
    mpfr_div(d, d, exact, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    double r = mpfr_get_d(d, MPFR_RNDN);
    mpfr_clear(d);
    return r;
}

/* ---- x_min: bisection on the sign of f' over the target's bracket [xmin_lo, xmin_hi]
 * (targets.c), where it has its single minimum. */

enum { XMIN_PREC = 128, XMIN_EVAL_PREC = 320 };

static pthread_once_t xmin_once = PTHREAD_ONCE_INIT;
static mpfr_t xmin_value[GELU_TARGET_COUNT];
static mpfr_t xmin_fvalue[GELU_TARGET_COUNT];

static int derivative_sign(gelu_target t, const mpfr_t x)
{
    mpfr_t v;
    mpfr_init2(v, XMIN_EVAL_PREC);
    eval_enclosure(t, true, x, XMIN_EVAL_PREC, v);
    int s = mpfr_sgn(v);
    mpfr_clear(v);
    return s;
}

static void compute_x_min(gelu_target t)
{
    mpfr_t a, b, m;
    mpfr_inits2(XMIN_PREC, a, b, m, (mpfr_ptr)0);
    mpfr_set_d(a, target_def_of(t)->xmin_lo, MPFR_RNDN);
    mpfr_set_d(b, target_def_of(t)->xmin_hi, MPFR_RNDN);
    /* 120 halvings of a width-1.75 interval: below 2^-119, beyond 110 bits of x_min ≈ 0.75
     * (a bracket of width up to 2 keeps 118 bits). */
    for (int i = 0; i < 120; i++) {
        mpfr_add(m, a, b, MPFR_RNDN);
        mpfr_div_2ui(m, m, 1, MPFR_RNDN);
        if (derivative_sign(t, m) < 0) mpfr_set(a, m, MPFR_RNDN);
        else mpfr_set(b, m, MPFR_RNDN);
    }
    mpfr_init2(xmin_value[t], XMIN_PREC);
    mpfr_set(xmin_value[t], a, MPFR_RNDN);
    mpfr_init2(xmin_fvalue[t], XMIN_PREC);
    eval_enclosure(t, false, a, XMIN_PREC, xmin_fvalue[t]);
    mpfr_clears(a, b, m, (mpfr_ptr)0);
}

static void compute_all_x_min(void)
{
    for (int t = 0; t < GELU_TARGET_COUNT; t++) {
        if (target_def_of((gelu_target)t)->xmin_lo == 0) { /* no minimum (ReLU) */
            mpfr_init2(xmin_value[t], XMIN_PREC);
            mpfr_set_zero(xmin_value[t], 1);
            mpfr_init2(xmin_fvalue[t], XMIN_PREC);
            mpfr_set_zero(xmin_fvalue[t], 1);
        } else {
            compute_x_min((gelu_target)t);
        }
    }
}

void ref_x_min(gelu_target t, mpfr_t out)
{
    pthread_once(&xmin_once, compute_all_x_min);
    mpfr_set(out, xmin_value[t], MPFR_RNDN);
}

void ref_min_value(gelu_target t, mpfr_t out)
{
    pthread_once(&xmin_once, compute_all_x_min);
    mpfr_set(out, xmin_fvalue[t], MPFR_RNDN);
}

double ref_x_min_d(gelu_target t)
{
    pthread_once(&xmin_once, compute_all_x_min);
    return mpfr_get_d(xmin_value[t], MPFR_RNDN);
}

/* ---- hi + lo form */

void ref_eval_value(gelu_target t, bool grad, float x, ref_value *out)
{
    mpfr_t exact, rest;
    mpfr_inits2(REF_EXACT_PREC, exact, rest, (mpfr_ptr)0);
    out->cr = ref_eval(t, grad, x, exact);
    out->hi = mpfr_get_d(exact, MPFR_RNDN);
    out->lo = 0.0;
    if (mpfr_number_p(exact) && isfinite(out->hi)) {
        mpfr_sub_d(rest, exact, out->hi, MPFR_RNDN);
        out->lo = mpfr_get_d(rest, MPFR_RNDN);
    }
    mpfr_clears(exact, rest, (mpfr_ptr)0);
}

void ref_eval_values(gelu_target t, bool grad, const float *x, size_t n, ref_value *out)
{
    for (size_t i = 0; i < n; i++)
        ref_eval_value(t, grad, x[i], &out[i]);
}

/* Shared rules for non-finite values, hi + lo form. */
static bool nonfinite_error_dd(float y, double hi, double *err)
{
    if (isnan(hi) || isnan(y)) {
        *err = (isnan(hi) && isnan(y)) ? 0.0 : INFINITY;
        return true;
    }
    if (isinf(hi) || isinf(y)) {
        *err = (isinf(hi) && isinf(y) && (hi > 0) == (y > 0)) ? 0.0 : INFINITY;
        return true;
    }
    return false;
}

/* |y − (hi + lo)|: y − hi is exact when y and hi are within a factor of 2 (Sterbenz), and is
 * otherwise large enough that its rounding does not matter at 2^-53 relative. */
static double difference_dd(float y, double hi, double lo) { return fabs(((double)y - hi) - lo); }

double ref_ulp_error_dd(float y, double hi, double lo)
{
    double err;
    if (nonfinite_error_dd(y, hi, &err)) return err;
    return difference_dd(y, hi, lo) * ref_inv_ulp(hi, lo);
}

double ref_abs_error_dd(float y, double hi, double lo)
{
    double err;
    if (nonfinite_error_dd(y, hi, &err)) return err;
    return difference_dd(y, hi, lo);
}

double ref_rel_error_dd(float y, double hi, double lo)
{
    double err;
    if (nonfinite_error_dd(y, hi, &err)) return err;
    if (hi == 0.0) return y == 0.0f ? 0.0 : INFINITY;
    return difference_dd(y, hi, lo) / fabs(hi);
}

void ref_thread_done(void) { mpfr_free_cache(); }
