/* Other projects' published pass/fail rules for a GELU output, applied to one point so that the
 * scan and the report can show, for every implementation, whether a peer's own criterion holds.
 * Each takes the input x, the output y and the exact value as hi + lo (ref_value).
 *
 *   benchdnn: oneDNN's benchdnn eltwise check for gelu_erf in f32: relative error
 *     |y − f|/|f| ≤ 4e-6 where |f| > 1e-5, else absolute error |y − f| ≤ 4e-6.
 *   XNNPACK: the tolerance of XNNPACK's f32 GELU tests: |y − f| ≤ 10·ε or |y − f| ≤ 5·ε·|f|
 *     (ε = FLT_EPSILON = 2^-23), on inputs in [−10, 10] only.
 *
 * Non-finite values: a NaN exact value passes only a NaN output; an infinite one only the same
 * infinity; a non-finite output for a finite exact value fails. */
#ifndef GELUCHECK_CRITERIA_H
#define GELUCHECK_CRITERIA_H

#include <float.h>
#include <math.h>
#include <stdbool.h>

typedef enum {
    CRITERION_PASS,
    CRITERION_FAIL,
    CRITERION_NOT_APPLICABLE, /* the input lies outside the domain the rule is stated on */
} criterion_result;

#define BENCHDNN_GELU_ERF_THRESHOLD 4e-6 /* relative, or absolute below the floor */
#define BENCHDNN_GELU_ERF_REL_FLOOR 1e-5 /* |f| above which the error is relative */
#define XNNPACK_GELU_ABS_TOL (10.0 * FLT_EPSILON)
#define XNNPACK_GELU_REL_TOL (5.0 * FLT_EPSILON)
#define XNNPACK_GELU_DOMAIN 10.0 /* the rule covers x in [−10, 10] */

/* Inline, as the scan applies both rules to every forward point.
 * Sets *err = |y − (hi + lo)| and returns true when both are finite; otherwise *verdict holds
 * the non-finite rule's answer and it returns false. */
static inline bool criterion_finite_error(float y, double hi, double lo, double *err,
                                          criterion_result *verdict)
{
    if (isnan(hi)) {
        *verdict = isnan(y) ? CRITERION_PASS : CRITERION_FAIL;
        return false;
    }
    if (isinf(hi)) {
        *verdict = (double)y == hi ? CRITERION_PASS : CRITERION_FAIL;
        return false;
    }
    if (!isfinite(y)) {
        *verdict = CRITERION_FAIL;
        return false;
    }
    *err = fabs(((double)y - hi) - lo); /* y − hi is exact when they are close; lo refines */
    return true;
}

static inline criterion_result criterion_benchdnn_gelu_erf(float x, float y, double hi, double lo)
{
    (void)x;
    double err;
    criterion_result verdict;
    if (!criterion_finite_error(y, hi, lo, &err, &verdict)) return verdict;
    double f = fabs(hi);
    double measured = f > BENCHDNN_GELU_ERF_REL_FLOOR ? err / f : err;
    return measured <= BENCHDNN_GELU_ERF_THRESHOLD ? CRITERION_PASS : CRITERION_FAIL;
}

static inline criterion_result criterion_xnnpack_gelu(float x, float y, double hi, double lo)
{
    if (!(fabs((double)x) <= XNNPACK_GELU_DOMAIN)) return CRITERION_NOT_APPLICABLE;
    double err;
    criterion_result verdict;
    if (!criterion_finite_error(y, hi, lo, &err, &verdict)) return verdict;
    return err <= XNNPACK_GELU_ABS_TOL || err <= XNNPACK_GELU_REL_TOL * fabs(hi) ? CRITERION_PASS
                                                                                 : CRITERION_FAIL;
}

#endif
