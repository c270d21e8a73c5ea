/* The peers' criteria (scan/criteria.h) can fail: a planted point just outside each rule is
 * caught, the point just inside passes, and each branch of each rule (relative, absolute, the
 * domain, non-finite values) is exercised. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "criteria.h"
#include "reference.h"

static const double eps = FLT_EPSILON;

Test(criteria, benchdnn_relative_branch)
{
    ref_value v;
    ref_eval_value(GELU_TARGET_EXACT, false, 1.0f, &v); /* GELU(1) ≈ 0.84: relative branch */
    cr_expect_eq(criterion_benchdnn_gelu_erf(1.0f, v.cr, v.hi, v.lo), CRITERION_PASS);
    float off = (float)(v.hi * (1.0 + 5e-6)); /* 5e-6 relative > 4e-6 */
    cr_expect_eq(criterion_benchdnn_gelu_erf(1.0f, off, v.hi, v.lo), CRITERION_FAIL,
                 "planted relative error 5e-6 at x = 1 not caught");
    float near = (float)(v.hi * (1.0 + 3e-6));
    cr_expect_eq(criterion_benchdnn_gelu_erf(1.0f, near, v.hi, v.lo), CRITERION_PASS);
}

Test(criteria, benchdnn_absolute_branch)
{
    /* |f| = 1e-6 ≤ 1e-5: absolute. 3e-6 passes though it is 300% relative; 5e-6 fails. */
    cr_expect_eq(criterion_benchdnn_gelu_erf(0.0f, (float)(1e-6 + 3e-6), 1e-6, 0.0), CRITERION_PASS);
    cr_expect_eq(criterion_benchdnn_gelu_erf(0.0f, (float)(1e-6 + 5e-6), 1e-6, 0.0), CRITERION_FAIL,
                 "planted absolute error 5e-6 below the floor not caught");
}

Test(criteria, xnnpack_either_tolerance)
{
    /* f = 4: 16·ε absolute is > 10·ε but 4·ε relative ≤ 5·ε: passes; 24·ε is 6·ε relative: fails. */
    cr_expect_eq(criterion_xnnpack_gelu(4.0f, (float)(4.0 + 16 * eps), 4.0, 0.0), CRITERION_PASS);
    cr_expect_eq(criterion_xnnpack_gelu(4.0f, (float)(4.0 + 24 * eps), 4.0, 0.0), CRITERION_FAIL,
                 "planted error 24·ε at f = 4 not caught");
    /* f = 0.01: relative 5·ε is tiny, 10·ε absolute decides. */
    cr_expect_eq(criterion_xnnpack_gelu(0.02f, (float)(0.01 + 9 * eps), 0.01, 0.0), CRITERION_PASS);
    cr_expect_eq(criterion_xnnpack_gelu(0.02f, (float)(0.01 + 11 * eps), 0.01, 0.0), CRITERION_FAIL,
                 "planted absolute error 11·ε at f = 0.01 not caught");
}

Test(criteria, xnnpack_domain)
{
    cr_expect_eq(criterion_xnnpack_gelu(10.5f, 0.0f, 10.5, 0.0), CRITERION_NOT_APPLICABLE);
    cr_expect_eq(criterion_xnnpack_gelu(-10.0f, 1.0f, -7.6e-23, 0.0), CRITERION_FAIL);
    cr_expect_eq(criterion_xnnpack_gelu(NAN, 0.0f, NAN, 0.0), CRITERION_NOT_APPLICABLE);
}

Test(criteria, non_finite_values)
{
    cr_expect_eq(criterion_benchdnn_gelu_erf(NAN, NAN, NAN, 0.0), CRITERION_PASS);
    cr_expect_eq(criterion_benchdnn_gelu_erf(NAN, 0.0f, NAN, 0.0), CRITERION_FAIL);
    cr_expect_eq(criterion_benchdnn_gelu_erf(INFINITY, INFINITY, INFINITY, 0.0), CRITERION_PASS);
    cr_expect_eq(criterion_benchdnn_gelu_erf(INFINITY, NAN, INFINITY, 0.0), CRITERION_FAIL);
    cr_expect_eq(criterion_benchdnn_gelu_erf(1.0f, NAN, 0.84, 0.0), CRITERION_FAIL);
    cr_expect_eq(criterion_xnnpack_gelu(1.0f, INFINITY, 0.84, 0.0), CRITERION_FAIL);
}
