/* The maxima printed and gated are MPFR's (scan/refine.h): at two inputs where the scan's
 * enclosure gives a maximum's last digits wrong (found with `gelucheck accuracy --impl
 * erfc_accurate --grad --sample 2000000`: forward 0.59775603 printed, derivative 12.8639221),
 * the refined maximum equals the error computed here independently — GELU and its derivative
 * from mpfr_erfc and mpfr_exp at 400 bits, the ULP of binary32 from the exponent — to 1e-15,
 * while the scan's own value is off by more than 1e-9. */
#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>

#include "refine.h"
#include "scan.h"

extern const gelu_impl gelu_impl_erfc_accurate;

/* |y − f(x)| in binary32 ULPs of f(x), f = GELU (grad: GELU'), at 400 bits. */
static double independent_ulp_error(float x, float y, bool grad)
{
    mpfr_t xm, t, v, sq;
    mpfr_inits2(400, xm, t, v, sq, (mpfr_ptr)0);
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
    long e = mpfr_get_exp(v) - 24; /* |v| in [2^(E−1), 2^E): ULP 2^(E−24) */
    if (e < -149) e = -149;
    mpfr_sub_d(t, v, (double)y, MPFR_RNDN);
    mpfr_abs(t, t, MPFR_RNDN);
    mpfr_mul_2si(t, t, -e, MPFR_RNDN);
    double r = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clears(xm, t, v, sq, (mpfr_ptr)0);
    return r;
}

static void check(float x, bool grad)
{
    const gelu_impl *impls[] = {&gelu_impl_erfc_accurate};
    scan_config cfg = {.impls = impls, .nimpls = 1, .grad = grad, .threads = 1, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = x, .hi = x}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    int d = grad ? DIR_DERIVATIVE : DIR_FORWARD;
    double scanned = r->metrics[0].err[REF_OWN][d].max_ulp.value;
    scan_refine_maxima(r);
    double refined = r->metrics[0].err[REF_OWN][d].max_ulp.value;
    float y;
    (grad ? gelu_impl_erfc_accurate.derivative : gelu_impl_erfc_accurate.forward)(&x, &y, 1);
    double want = independent_ulp_error(x, y, grad);
    cr_expect(fabs(refined - want) <= 1e-15 * want, "x = %a: refined %.17g, MPFR at 400 bits %.17g",
              (double)x, refined, want);
    cr_expect(fabs(scanned - want) > 1e-9 * want,
              "x = %a: the scan's value %.17g is already right: the test does not bite", (double)x,
              scanned);
    cr_expect_eq(r->metrics[0].err[REF_EXACT][d].max_ulp.value, refined, "the exact row too");
    scan_result_free(r);
}

Test(refine, forward_maximum_is_mpfrs) { check(-0x1.50763p+3f, false); }
Test(refine, derivative_maximum_is_mpfrs) { check(-0x1.80f284p-1f, true); }
