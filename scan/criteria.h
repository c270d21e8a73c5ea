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

criterion_result criterion_benchdnn_gelu_erf(float x, float y, double hi, double lo);
criterion_result criterion_xnnpack_gelu(float x, float y, double hi, double lo);

#endif
