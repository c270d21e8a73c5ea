/* Peers' published pass/fail rules (see criteria.h). */
#include "criteria.h"

#include <math.h>
#include <stdbool.h>

/* Sets *err = |y − (hi + lo)| and returns true when both are finite; otherwise *verdict holds
 * the non-finite rule's answer and it returns false. */
static bool finite_error(float y, double hi, double lo, double *err, criterion_result *verdict)
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

criterion_result criterion_benchdnn_gelu_erf(float x, float y, double hi, double lo)
{
    (void)x;
    double err;
    criterion_result verdict;
    if (!finite_error(y, hi, lo, &err, &verdict)) return verdict;
    double f = fabs(hi);
    double measured = f > BENCHDNN_GELU_ERF_REL_FLOOR ? err / f : err;
    return measured <= BENCHDNN_GELU_ERF_THRESHOLD ? CRITERION_PASS : CRITERION_FAIL;
}

criterion_result criterion_xnnpack_gelu(float x, float y, double hi, double lo)
{
    if (!(fabs((double)x) <= XNNPACK_GELU_DOMAIN)) return CRITERION_NOT_APPLICABLE;
    double err;
    criterion_result verdict;
    if (!finite_error(y, hi, lo, &err, &verdict)) return verdict;
    return err <= XNNPACK_GELU_ABS_TOL || err <= XNNPACK_GELU_REL_TOL * fabs(hi) ? CRITERION_PASS
                                                                                 : CRITERION_FAIL;
}
