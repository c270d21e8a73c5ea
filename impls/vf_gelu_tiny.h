/* vf_gelu_tiny(x, y): y, except for subnormal x, where GELU(x) = x/2 + x²/√(2π) + … (also
 * the tanh target's) is returned as x·(½ + 2^-24) for x > 0 and x·(½ − 2^-25) for x < 0: x/2
 * of an odd subnormal is a tie, and this breaks it the way the exact value does (x² > 0 pushes
 * it toward +inf), while for even subnormals the nudge is below half an ULP. Include after a
 * vf_<isa>.h. */
#ifndef GELUCHECK_VF_GELU_TINY_H
#define GELUCHECK_VF_GELU_TINY_H

static inline vf vf_gelu_tiny(vf x, vf y)
{
    vf half_toward_exact = vf_select_sign(x, vf_set1(0.5f - 0x1p-25f), vf_set1(0.5f + 0x1p-24f));
    return vf_select_less(vf_abs(x), vf_set1(0x1p-126f), vf_mul(x, half_toward_exact), y);
}

#endif
