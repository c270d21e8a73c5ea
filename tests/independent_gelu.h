/* Exact GELU's error computed independently of the project's reference, for the tests: GELU and
 * its derivative from mpfr_erfc and mpfr_exp at 400 bits, the ULP of binary32 from the
 * exponent. */
#ifndef GELUCHECK_INDEPENDENT_GELU_H
#define GELUCHECK_INDEPENDENT_GELU_H

#include <math.h>
#include <mpfr.h>
#include <stdbool.h>

/* v = f(x), f = GELU (grad: GELU'), at v's precision (400 bits here). */
static inline void independent_gelu(mpfr_t v, float x, bool grad)
{
    mpfr_t xm, t, sq;
    mpfr_inits2(400, xm, t, sq, (mpfr_ptr)0);
    mpfr_set_flt(xm, x, MPFR_RNDN);
    mpfr_sqrt_ui(sq, 2, MPFR_RNDN);
    mpfr_div(t, xm, sq, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_erfc(v, t, MPFR_RNDN); /* erfc(−x/√2) = 2Φ(x) */
    mpfr_div_2ui(v, v, 1, MPFR_RNDN);
    if (grad) { /* Φ(x) + x·φ(x), φ(x) = exp(−x²/2)/√(2π) */
        mpfr_sqr(t, xm, MPFR_RNDN);
        mpfr_div_2ui(t, t, 1, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(t, t, xm, MPFR_RNDN);
        mpfr_const_pi(sq, MPFR_RNDN);
        mpfr_mul_2ui(sq, sq, 1, MPFR_RNDN);
        mpfr_sqrt(sq, sq, MPFR_RNDN);
        mpfr_div(t, t, sq, MPFR_RNDN);
        mpfr_add(v, v, t, MPFR_RNDN);
    } else {
        mpfr_mul(v, v, xm, MPFR_RNDN);
    }
    mpfr_clears(xm, t, sq, (mpfr_ptr)0);
}

/* |y − f(x)| in binary32 ULPs of f(x) (rel: divided by |f(x)| instead), at 400 bits. */
static inline double independent_error(float x, float y, bool grad, bool rel)
{
    mpfr_t v, t;
    mpfr_inits2(400, v, t, (mpfr_ptr)0);
    independent_gelu(v, x, grad);
    long e = mpfr_get_exp(v) - 24; /* |v| in [2^(E−1), 2^E): ULP 2^(E−24) */
    if (e < -149) e = -149;
    mpfr_sub_d(t, v, (double)y, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    if (rel) {
        mpfr_div(t, t, v, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
    } else {
        mpfr_mul_2si(t, t, -e, MPFR_RNDN);
    }
    double r = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clears(v, t, (mpfr_ptr)0);
    return r;
}

static inline double independent_ulp_error(float x, float y, bool grad)
{
    return independent_error(x, y, grad, false);
}

/* |y − f(x)|, at 400 bits. */
static inline double independent_abs_error(float x, float y, bool grad)
{
    mpfr_t v;
    mpfr_init2(v, 400);
    independent_gelu(v, x, grad);
    mpfr_sub_d(v, v, (double)y, MPFR_RNDN);
    double r = fabs(mpfr_get_d(v, MPFR_RNDN));
    mpfr_clear(v);
    return r;
}

#endif
