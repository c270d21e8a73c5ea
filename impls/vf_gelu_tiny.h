/* vf_gelu_tiny(x, y): y, except where x/2 is subnormal (|x| < 2^-125): there GELU(x) = x/2 +
 * x²/√(2π) + … (also the tanh target's) rounds like x/2 rounded toward +inf (vf_half_up): x/2
 * is exact or a tie, and the positive x² term breaks the tie upward. Include after a
 * vf_<isa>.h. */
#ifndef GELUCHECK_VF_GELU_TINY_H
#define GELUCHECK_VF_GELU_TINY_H

static inline vf vf_gelu_tiny(vf x, vf y)
{
    return vf_select_less(vf_abs(x), vf_set1(0x1p-125f), vf_half_up(x), y);
}

#endif
