/* vf_exp(a): e^a in binary32 on the vf_* operations, for the fast kernels. a is clamped to
 * [−104, 89] (e^a rounds to 0 below and to +inf above; NaN stays NaN); a = k·ln2 + r with
 * |r| ≤ ln2/2 by Cody–Waite with FMA, e^r = 1 + r·P(r) with P of degree 5 fitted by Sollya
 * (vf_exp_coeffs.h, relative error 2^-27.1), then scaled by 2^k in one rounding: about 1 ULP
 * (the binary32 roundings of r, of the polynomial and of the result). Include after a
 * vf_<isa>.h. */
#ifndef GELUCHECK_VF_EXP_H
#define GELUCHECK_VF_EXP_H

#include "vf_exp_coeffs.h"

static inline vf vf_exp(vf a)
{
    a = vf_min_keep_nan(vf_set1(89.0f), vf_max_keep_nan(vf_set1(-104.0f), a));
    vf k = vf_round(vf_mul(a, vf_set1(0x1.715476p+0f)));   /* a/ln2 */
    vf r = vf_fma(k, vf_set1(-0x1.62e4p-1f), a);            /* ln2 to 16 bits: exact */
    r = vf_fma(k, vf_set1(-0x1.7f7d1cp-20f), r);            /* ln2 − that */
    vf q = vf_set1(vf_exp_p[5]);
    for (int i = 4; i >= 0; i--)
        q = vf_fma(q, r, vf_set1(vf_exp_p[i]));
    return vf_scale(vf_fma(r, q, vf_set1(1.0f)), k);
}

#endif
