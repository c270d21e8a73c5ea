/* The MPFR oracle: exact values of each target function and its derivative, their correctly
 * rounded binary32 values, and the real-valued error of any binary32 output against them.
 *
 * Correct rounding is round-to-nearest-even to binary32 with gradual underflow (precision 24,
 * exponent range of binary32, mpfr_subnormalize), reached with a Ziv loop: the value is computed
 * with a rigorous error bound at 128 bits, and the precision doubles until both ends of the
 * enclosure round to the same binary32 number.
 *
 * Special inputs, by definition (the limits, signed zeros kept):
 *   f(±0) = ±0, f(+inf) = +inf, f(−inf) = −0, f(NaN) = NaN;
 *   f'(±0) = ½, f'(+inf) = 1, f'(−inf) = −0 (the limit is approached from below), f'(NaN) = NaN.
 * ReLU, the baseline target, is max(x, 0) with relu(NaN) = NaN, relu(x ≤ 0) = +0, and derivative
 * 1 for x > 0, 0 otherwise.
 *
 * All functions are thread-safe (MPFR's exponent range is per thread and restored on return). */
#ifndef GELUCHECK_REFERENCE_H
#define GELUCHECK_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <mpfr.h>

#include "gelu_fpenv.h"
#include "gelu_impl.h"

/* Working precision of exact values handed to the error functions. */
#define REF_EXACT_PREC 128

/* The exact value f(x) (grad: f'(x)) into `exact` (precision ≥ 100 bits, set by the caller;
 * relative accuracy about 2^-(prec-4), absolute near a zero of f'), and the correctly rounded
 * binary32 value as the return value. */
float ref_eval(gelu_target t, bool grad, float x, mpfr_t exact);

/* ref_eval for an input x of format f (as a double, exactly), rounded to f: the correctly
 * rounded value of f(x) (grad: f'(x)) in f, as a double. */
double ref_eval_format(const gelu_format *f, gelu_target t, bool grad, double x, mpfr_t exact);

/* Whether MXCSR's FTZ turns the correct rounding of `exact` (cr, its binary32 value) into a zero:
 * x86 detects tininess after rounding to 24 bits with an unbounded exponent (Intel SDM vol. 1,
 * 4.9.1.5), so FTZ gives the zero of exact's sign when cr is subnormal, and also when cr is
 * ±2^-126 but |exact| < 2^-126 − 2^-151 (it rounds to 24 bits below 2^-126). */
bool ref_ftz_zero(float cr, const mpfr_t exact);

/* ref_eval in floating-point environment e (gelu_fpenv.h; docs/DESIGN.md, "Floating-point
 * environments"): under DAZ at x's value as the kernel reads it (a subnormal as the zero of its
 * sign); under FTZ, where ref_ftz_zero, the zero of exact's sign is both the returned value and
 * the exact one (into `exact`). ref_eval for GELU_FPENV_IEEE. */
float ref_eval_fpenv(gelu_target t, bool grad, float x, gelu_fpenv e, mpfr_t exact);

/* The values fixed by definition (ReLU everywhere; ±0, ±inf and NaN for the others) into *r;
 * false for the other inputs. No MPFR involved. */
bool ref_defined_value(gelu_target t, bool grad, float x, float *r);

/* The correctly rounded binary32 value of f(x) (grad: f'(x)). */
float ref_round(gelu_target t, bool grad, float x);

/* |y − exact| in units of the last place of binary32 in exact's binade (2^-149 below 2^-126);
 * real-valued. 0 when both are the same infinity or both NaN; INFINITY when y is non-finite and
 * exact is not, or the other way round. Zeros of either sign count as the real 0. */
double ref_ulp_error(float y, const mpfr_t exact);

/* |y − exact| as a double, with the same rules for non-finite values. */
double ref_abs_error(float y, const mpfr_t exact);

/* |y − exact| / |exact|; 0 when both are 0, INFINITY when exact is 0 and y is not. */
double ref_rel_error(float y, const mpfr_t exact);
/* ref_abs_error and ref_rel_error for an output y of any format, as a double (binary64's). */
double ref_abs_error_d(double y, const mpfr_t exact);
double ref_rel_error_d(double y, const mpfr_t exact);

/* An exact value carried as an unevaluated sum hi + lo of doubles (106 bits: enough for errors
 * of binary32 outputs to about 2^-80 relative), with its correctly rounded binary32 value. */
typedef struct {
    double hi, lo;
    float cr;
} ref_value;

/* ref_eval into a ref_value. */
void ref_eval_value(gelu_target t, bool grad, float x, ref_value *out);
/* ref_eval_value at n inputs. */
void ref_eval_values(gelu_target t, bool grad, const float *x, size_t n, ref_value *out);

/* 2^-e where 2^e is the ULP, in a format of `precision` bits whose smallest subnormal is
 * 2^min_ulp_exp, of the exact value hi + lo (2^-min_ulp_exp below the smallest normal): the ULP
 * error of a finite y is |y − (hi + lo)| times this. For min_ulp_exp ≥ −1022 (every format but
 * binary64, whose errors come from MPFR: ref_ulp_error_format). The scan calls this for every
 * reference value: it is inline so that a format's constants fold (ref_inv_ulp for binary32
 * compiles to the code it had before there were formats). */
static inline double ref_inv_ulp_p(double hi, double lo, int precision, int min_ulp_exp)
{
    /* The binade of hi + lo, read off the fields of its double sum v; r = (hi − v) + lo is the
     * rounding residual (Fast2Sum, |lo| ≤ |hi|). On a binade's lower edge with the exact value
     * below it, the binade below counts. */
    double v = hi + lo, r = (hi - v) + lo;
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    /* Without branches, so that loops over it vectorize: zero or double-subnormal v (biased
     * exponent 0) is far below the smallest normal and gets 2^-min_ulp_exp from the clamp. */
    int64_t e = (int64_t)((b >> 52) & 0x7ff) - 1022; /* |v| in [2^(e-1), 2^e) */
    int64_t below_edge = v > 0 ? r < 0 : r > 0;
    e -= (int64_t)((b & 0xfffffffffffffull) == 0) & below_edge;
    int64_t ulp_exp = e - precision < min_ulp_exp ? min_ulp_exp : e - precision;
    uint64_t inv = (uint64_t)(1023 - ulp_exp) << 52; /* 2^-ulp_exp */
    double out;
    memcpy(&out, &inv, sizeof out);
    return out;
}

/* binary32: precision 24, smallest subnormal 2^-149. */
static inline double ref_inv_ulp(double hi, double lo) { return ref_inv_ulp_p(hi, lo, 24, -149); }

/* ref_inv_ulp_p for format f. */
static inline double ref_inv_ulp_format(const gelu_format *f, double hi, double lo)
{
    return ref_inv_ulp_p(hi, lo, f->precision, f->emin - f->precision + 1);
}

/* The error functions above, against hi + lo (same rules). */
double ref_ulp_error_dd(float y, double hi, double lo);
double ref_abs_error_dd(float y, double hi, double lo);
double ref_rel_error_dd(float y, double hi, double lo);

/* Frees MPFR's per-thread caches (constants such as π); call at the end of each thread that
 * used the oracle. */
void ref_thread_done(void);

/* Round a real to format f: nearest-even, gradual underflow, overflow to ±inf; the result as a
 * double (exact: every format's values are doubles). */
double ref_round_format(const gelu_format *f, const mpfr_t v);
/* ref_round_format for binary32. */
float ref_round_binary32(const mpfr_t v);
/* ref_ulp_error for an output y (a value of format f, as a double) in ULPs of f. */
double ref_ulp_error_format(const gelu_format *f, double y, const mpfr_t exact);

/* x_min, the point where f' = 0 (f's minimum), to at least 110 bits, computed once by bisection
 * on the sign of f' with MPFR. Not defined for the ReLU target (returns 0). */
void ref_x_min(gelu_target t, mpfr_t out);
/* f(x_min), the minimum value. */
void ref_min_value(gelu_target t, mpfr_t out);
/* x_min rounded to double. */
double ref_x_min_d(gelu_target t);

#endif
