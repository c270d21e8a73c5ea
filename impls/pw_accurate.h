/* pw_accurate: the accurate tier, GELU within 2 ULP of exact x·Φ(x) over every binary32 input
 * (the negative tail down to underflow included), monotone, special values exact, in binary32
 * throughout. Three regions:
 *   x < −3       gelu_tail.h (−exp(−x²/2 + C + ℓ) with x² split and the exponent never formed);
 *   [−3, 5.5]    32 equal pieces of [−3.3, 5.5], one degree-6 polynomial each in t = x − m,
 *                built like pw_fast's (tools/pw_pieces.sol; impls/pw_fast.h says why the Horner
 *                evaluation is monotone), fitted relative to GELU (tools/pw_accurate_coeffs.sol);
 *   x > 5.5      x itself (off by 5.5·Φ(−5.5) = 1.0e-7, 0.22 ULP);
 * and for |x| < 2^-125 x/2 rounded up (vf_gelu_tiny.h: the tie of an odd subnormal).
 * The tail costs about as much as the pieces, so it runs only on the elements below −3, packed
 * into whole vectors (vf_array.h's VF_SPLIT_ARRAY_KERNEL): what an element gets depends on its
 * own value only, never on its neighbours.
 * Derivative: a separate degree-6 fit per piece, gelu_tail_derivative below −3, 1 above 5.5.
 * Measured over all 2^32 inputs against MPFR, each ISA's build (`gelucheck accuracy --impl
 * pw_accurate_avx512,pw_accurate_avx2,pw_accurate --grad`): forward
 * max 1.040 ULP (at x = −0x1.9e62bap-1, in the piece of x_min, whose c0 = RN(GELU(RN(x_min)))
 * is not chosen for its rounding), mean 0.032, 99.87% correctly rounded, max abs 3.70e-7 (at
 * 0x1.5fb8ccp+2), no monotonicity violation, specials exact; derivative max abs 5.73e-7 (just
 * above 5.5, where it is 1), 4.4e4 ULP at x_min (its zero), no wrong sign. The three builds
 * give the same bits (tests/test_impls.c). Contract just above. Include after a vf_<isa>.h. */
#ifndef GELUCHECK_PW_ACCURATE_H
#define GELUCHECK_PW_ACCURATE_H

#include <math.h>

#include "gelu_impl.h"
#include "gelu_tail.h"
#include "pw_accurate_coeffs.h"
#include "vf_array.h"
#include "vf_gelu_tiny.h"
#include "vf_pieces.h"

static const vf_pieces pw_accurate_pieces = {
    pw_accurate_scale, pw_accurate_offset, 6, pw_accurate_m, pw_accurate_h,
    {pw_accurate_c0, pw_accurate_c1, pw_accurate_c2, pw_accurate_c3, pw_accurate_c4, pw_accurate_c5,
     pw_accurate_c6},
    {pw_accurate_d0, pw_accurate_d1, pw_accurate_d2, pw_accurate_d3, pw_accurate_d4, pw_accurate_d5,
     pw_accurate_d6},
};

/* x ≥ −3: the pieces, x itself above 5.5 (+inf too; NaN stays NaN), x/2 rounded up for tiny x. */
static inline vf pw_accurate_forward(vf x)
{
    vf y = vf_pieces_eval(&pw_accurate_pieces, x, false);
    y = vf_select_less(vf_set1(pw_accurate_top), x, x, y);
    return vf_gelu_tiny(x, y);
}

static inline vf pw_accurate_derivative(vf x)
{
    vf d = vf_pieces_eval(&pw_accurate_pieces, x, true);
    return vf_select_less(vf_set1(pw_accurate_top), x, vf_set1(1.0f), d);
}

/* The pieces on every element, then the tail on the elements below −3 only. */
VF_SPLIT_ARRAY_KERNEL(pw_accurate_forward_array, pw_accurate_forward, -3.0f, gelu_tail_forward)
VF_SPLIT_ARRAY_KERNEL(pw_accurate_derivative_array, pw_accurate_derivative, -3.0f,
                      gelu_tail_derivative)

#define PW_ACCURATE_IMPL(impl_name)                                                             \
    VF_GELU_IMPL(impl_name, GELU_TARGET_EXACT, pw_accurate_forward_array,                     \
                 pw_accurate_derivative_array,                                                \
                 "x·Φ(x): 32 pinned Sollya pieces of degree 6 and an exp tail, binary32 (accurate tier)", \
                 GELU_KNOWN_AS_EXACT " (computed directly: piecewise polynomials of GELU itself, "     \
                 "an exp form in the negative tail)",    \
                 .max_ulp = 1.05,                                                              \
                 .max_abs = 3.70e-07,                                                          \
                 .monotone = true,                                                             \
                 .specials = true,                                                             \
                 .grad_max_ulp = 4.39e+04,                                                     \
                 .grad_max_abs = 5.74e-07)

#endif
