/* The error functions against exact values built by hand: ±0, subnormal exact values, outputs
 * of the wrong sign, infinities and NaN. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "reference.h"

static double ulp_of(float y, const char *exact_decimal)
{
    mpfr_t e;
    mpfr_init2(e, REF_EXACT_PREC);
    mpfr_set_str(e, exact_decimal, 0, MPFR_RNDN);
    double u = ref_ulp_error(y, e);
    mpfr_clear(e);
    return u;
}

Test(ulp_error, normal_binade)
{
    cr_expect_eq(ulp_of(1.0f, "1"), 0.0);
    cr_expect_eq(ulp_of(nextafterf(1.0f, 2.0f), "1"), 1.0);
    /* Below 1 the spacing is halved, but the ULP is that of the exact value's binade. */
    cr_expect_eq(ulp_of(nextafterf(1.0f, 0.0f), "1"), 0.5);
    cr_expect_eq(ulp_of(1.0f, "0x1.000001p0"), 0.5); /* exact between 1 and next: half-way */
    cr_expect_eq(ulp_of(1.5f, "0x1.8000008p0"), 0.25);
}

Test(ulp_error, zeros)
{
    cr_expect_eq(ulp_of(0.0f, "0"), 0.0);
    cr_expect_eq(ulp_of(-0.0f, "0"), 0.0);
    cr_expect_eq(ulp_of(0x1p-149f, "0"), 1.0);
    cr_expect_eq(ulp_of(-0x1p-148f, "0"), 2.0);
    /* output 0, exact non-zero: finite */
    cr_expect_eq(ulp_of(0.0f, "0x1p-100"), 0x1p-100 / 0x1p-123);
}

Test(ulp_error, subnormal_exact_values)
{
    cr_expect_eq(ulp_of(0x1p-149f, "0x3p-150"), 0.5);
    cr_expect_eq(ulp_of(0x1p-148f, "0x3p-150"), 0.5);
    cr_expect_eq(ulp_of(0.0f, "0x1p-160"), 0x1p-11);
    /* At FLT_MIN the spacing is still 2^-149 on both sides. */
    cr_expect_eq(ulp_of(FLT_MIN, "0x1.000001p-126"), 0.5);
    cr_expect_eq(ulp_of(nextafterf(FLT_MIN, 0.0f), "0x1p-126"), 1.0);
}

Test(ulp_error, wrong_sign)
{
    cr_expect_eq(ulp_of(-1.0f, "1"), 0x1p24);
    cr_expect_eq(ulp_of(0x1p-149f, "-0x1p-149"), 2.0);
}

Test(ulp_error, infinities_and_nan)
{
    cr_expect_eq(ulp_of(INFINITY, "@Inf@"), 0.0);
    cr_expect_eq(ulp_of(-INFINITY, "-@Inf@"), 0.0);
    cr_expect(isinf(ulp_of(INFINITY, "-@Inf@")));
    cr_expect(isinf(ulp_of(FLT_MAX, "@Inf@")));
    cr_expect(isinf(ulp_of(INFINITY, "1")));
    cr_expect_eq(ulp_of(NAN, "@NaN@"), 0.0);
    cr_expect(isinf(ulp_of(1.0f, "@NaN@")));
    cr_expect(isinf(ulp_of(NAN, "1")));
    /* Overflow of the output with a finite exact value near FLT_MAX is infinitely wrong. */
    cr_expect(isinf(ulp_of(INFINITY, "0x1.fffffep127")));
}

Test(abs_and_rel_error, basics)
{
    mpfr_t e;
    mpfr_init2(e, REF_EXACT_PREC);
    mpfr_set_str(e, "0.1", 10, MPFR_RNDN);
    double a = ref_abs_error(0.1f, e), r = ref_rel_error(0.1f, e);
    /* 0.1f = 0.100000001490116119384765625 exactly */
    cr_expect(fabs(a - 1.490116119384765625e-9) < 1e-24, "abs %g", a);
    cr_expect(fabs(r - 1.490116119384765625e-8) < 1e-22, "rel %g", r);
    mpfr_set_zero(e, 1);
    cr_expect_eq(ref_rel_error(0.0f, e), 0.0);
    cr_expect(isinf(ref_rel_error(1.0f, e)));
    cr_expect_eq(ref_abs_error(-2.0f, e), 2.0);
    mpfr_clear(e);
}

Test(ulp_error, binade_of_hi_plus_lo)
{
    /* hi = 2^-9 − 2^-17 lies in the binade below 2^-9, but hi + lo = 2^-9 exactly: the ULP is
     * that of [2^-9, 2^-8), 2^-32. */
    double hi = 0x1.fep-10, lo = 0x1p-17;
    cr_expect_eq(ref_ulp_error_dd(0x1p-9f + 0x1p-32f, hi, lo), 1.0);
    cr_expect_eq(ref_inv_ulp(hi, lo), 0x1p32);
    /* and just below 2^-9 the binade below counts */
    cr_expect_eq(ref_inv_ulp(0x1p-9, -0x1p-80), 0x1p33);
}
