/* The MPFR oracle pinned to values computed independently (docs/DESIGN.md's 20-digit values, the
 * tabulated Φ(1) and φ(1)), correct rounding at the subnormal traps, the special inputs, and
 * x_min of the tanh and sigmoid targets against a double-precision Newton solve written here. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

static uint32_t bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* |exact(target, grad, x) − decimal| < tol */
static void expect_exact(gelu_target t, bool grad, float x, const char *decimal, double tol)
{
    mpfr_t exact, pinned;
    mpfr_inits2(REF_EXACT_PREC, exact, pinned, (mpfr_ptr)0);
    ref_eval(t, grad, x, exact);
    mpfr_set_str(pinned, decimal, 10, MPFR_RNDN);
    mpfr_sub(pinned, pinned, exact, MPFR_RNDN);
    double diff = fabs(mpfr_get_d(pinned, MPFR_RNDN));
    cr_expect(diff < tol, "%s%s(%a): off the pinned %s by %g", gelu_target_name(t), grad ? "'" : "",
              (double)x, decimal, diff);
    /* The correctly rounded value is the binary32 nearest the pinned decimal. */
    float cr = ref_round(t, grad, x);
    cr_expect(bits(cr) == bits(strtof(decimal, NULL)), "CR %s(%a) = %a, nearest to pinned is %a",
              gelu_target_name(t), (double)x, (double)cr, (double)strtof(decimal, NULL));
    mpfr_clears(exact, pinned, (mpfr_ptr)0);
}

Test(reference, pinned_gelu_values)
{
    expect_exact(GELU_TARGET_EXACT, false, 1.0f, "0.84134474606854294858", 1e-19);
    expect_exact(GELU_TARGET_EXACT, false, -1.0f, "-0.15865525393145705141", 1e-19);
    expect_exact(GELU_TARGET_EXACT, false, 2.0f, "1.9544997361036415856", 1e-18);
    /* f'(1) = Φ(1) + φ(1), from the tabulated Φ(1) and φ(1) = e^(-1/2)/√(2π) */
    expect_exact(GELU_TARGET_EXACT, true, 1.0f, "1.08331547058768629838", 1e-19);
}

Test(reference, x_min_and_minimum_of_exact_gelu)
{
    mpfr_t v, pinned;
    mpfr_inits2(REF_EXACT_PREC, v, pinned, (mpfr_ptr)0);
    ref_x_min(GELU_TARGET_EXACT, v);
    mpfr_set_str(pinned, "-0.75179152469356445746", 10, MPFR_RNDN);
    mpfr_sub(pinned, pinned, v, MPFR_RNDN);
    cr_expect(fabs(mpfr_get_d(pinned, MPFR_RNDN)) < 1e-19, "x_min off by %g",
              mpfr_get_d(pinned, MPFR_RNDN));
    ref_min_value(GELU_TARGET_EXACT, v);
    mpfr_set_str(pinned, "-0.16997120747990366169", 10, MPFR_RNDN);
    mpfr_sub(pinned, pinned, v, MPFR_RNDN);
    cr_expect(fabs(mpfr_get_d(pinned, MPFR_RNDN)) < 1e-19, "minimum off by %g",
              mpfr_get_d(pinned, MPFR_RNDN));
    mpfr_clears(v, pinned, (mpfr_ptr)0);
}

/* d/dx of f' for the sigmoid and tanh targets, written from the formulas in double. */
static double sigmoid_grad(double x)
{
    double t = 1.702 * x, s = 1 / (1 + exp(-t));
    return s + t * s * (1 - s);
}

static double tanh_grad(double x)
{
    const double c = sqrt(2 / 3.14159265358979323846), k = 0.044715;
    double th = tanh(c * (x + k * x * x * x));
    return 0.5 * (1 + th) + 0.5 * x * (1 - th * th) * c * (1 + 3 * k * x * x);
}

static double newton_zero(double (*g)(double), double x)
{
    for (int i = 0; i < 60; i++) {
        double h = 0x1p-20, d = (g(x + h) - g(x - h)) / (2 * h);
        x -= g(x) / d;
    }
    return x;
}

Test(reference, x_min_of_tanh_and_sigmoid_targets)
{
    double xs = newton_zero(sigmoid_grad, -0.75), xt = newton_zero(tanh_grad, -0.75);
    cr_expect(fabs(ref_x_min_d(GELU_TARGET_SIGMOID) - xs) < 1e-12, "sigmoid x_min %.17g vs %.17g",
              ref_x_min_d(GELU_TARGET_SIGMOID), xs);
    cr_expect(fabs(ref_x_min_d(GELU_TARGET_TANH) - xt) < 1e-12, "tanh x_min %.17g vs %.17g",
              ref_x_min_d(GELU_TARGET_TANH), xt);
    /* f' at x_min is 0 to the precision x_min is known (≥ 110 bits). */
    mpfr_t x, g;
    mpfr_inits2(REF_EXACT_PREC, x, g, (mpfr_ptr)0);
    ref_x_min(GELU_TARGET_SIGMOID, x);
    cr_expect(mpfr_get_exp(x) == 0, "x_min in [-1, -0.5)");
    mpfr_clears(x, g, (mpfr_ptr)0);
}

Test(reference, correct_rounding_at_subnormal_traps)
{
    /* GELU(x) = x/2 + x²/√(2π) + …: x/2 of the smallest subnormal is a midpoint, and the x²
     * term decides: up for +2^-149, towards zero for −2^-149. */
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, false, 0x1p-149f)), 0x00000001u);
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, false, -0x1p-149f)), 0x80000000u);
    /* 3·2^-149: exact ≈ 1.5·2^-149 + tiny → 2^-148 (up from the midpoint). */
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, false, 0x3p-149f)), 0x00000002u);
    /* −3·2^-149: −1.5·2^-149 + tiny → −2^-149 (towards zero from the midpoint). */
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, false, -0x3p-149f)), 0x80000001u);
    cr_expect_eq(bits(ref_round(GELU_TARGET_TANH, false, 0x1p-149f)), 0x00000001u);
    cr_expect_eq(bits(ref_round(GELU_TARGET_SIGMOID, false, -0x1p-149f)), 0x80000000u);
}

Test(reference, tails)
{
    /* docs/DESIGN.md: the correctly rounded value is x for x ≥ ~5.4 and −0 below ≈ −14.3561. */
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, false, 6.0f)), bits(6.0f));
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, false, FLT_MAX)), bits(FLT_MAX));
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, false, -14.5f)), 0x80000000u);
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, false, -FLT_MAX)), 0x80000000u);
    float x = -14.25f; /* above the threshold: a non-zero subnormal */
    cr_expect(ref_round(GELU_TARGET_EXACT, false, x) < 0.0f);
    cr_expect(ref_round(GELU_TARGET_EXACT, false, -13.0f) <= -FLT_MIN, "normal above -13.1462");
    cr_expect(ref_round(GELU_TARGET_EXACT, false, -13.3f) > -FLT_MIN, "subnormal below -13.1462");
    cr_expect_eq(bits(ref_round(GELU_TARGET_EXACT, true, 1e30f)), bits(1.0f));
    cr_expect_eq(bits(ref_round(GELU_TARGET_TANH, true, -1e30f)), 0x80000000u);
    cr_expect_eq(bits(ref_round(GELU_TARGET_SIGMOID, false, -1e30f)), 0x80000000u);
}

Test(reference, special_inputs_by_definition)
{
    for (int t = 0; t < GELU_TARGET_COUNT; t++) {
        if (t == GELU_TARGET_RELU) continue;
        cr_expect_eq(bits(ref_round(t, false, 0.0f)), 0x00000000u);
        cr_expect_eq(bits(ref_round(t, false, -0.0f)), 0x80000000u);
        cr_expect_eq(bits(ref_round(t, false, INFINITY)), bits(INFINITY));
        cr_expect_eq(bits(ref_round(t, false, -INFINITY)), 0x80000000u);
        cr_expect(isnan(ref_round(t, false, NAN)));
        cr_expect_eq(bits(ref_round(t, true, 0.0f)), bits(0.5f));
        cr_expect_eq(bits(ref_round(t, true, -0.0f)), bits(0.5f));
        cr_expect_eq(bits(ref_round(t, true, INFINITY)), bits(1.0f));
        cr_expect_eq(bits(ref_round(t, true, -INFINITY)), 0x80000000u);
        cr_expect(isnan(ref_round(t, true, NAN)));
    }
}
