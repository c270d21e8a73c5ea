/* pw_fast: the fast tier, GELU to an absolute error of 4e-7 over all binary32 inputs, monotone,
 * special values right, in ~20 vector operations. One polynomial of degree 5 per piece of 32
 * equal pieces of [−5.3, 5.3], evaluated by Horner in t = x − m (tools/pw_fast_coeffs.sol has
 * the fit); x itself beyond 5.3 (off by at most 5.3·Φ(−5.3) = 3.1e-7) and −0 below −5.3 (same).
 *
 * Why it is monotone in binary32, where GELU moves by less than an ULP between consecutive
 * inputs on most of [−1.3, 0] (its minimum is at x_min = −0.7518): the last Horner step is
 * y = RN(c0 + t·A) in one FMA, with t = x − m exact (m is in the piece, Sterbenz) and c0 a float
 * within a few thousandths of an ULP of GELU(m) (the generator picks such an m), so y is the
 * rounding of a value that is off by the polynomial's error plus |t|·(A's rounding), both far
 * below GELU's change between neighbours; rounding is monotone. In the piece holding x_min,
 * m = RN(x_min) and c1 = 0, so t·A = t·(t·B) keeps its sign structure on both sides of m; in
 * the two pieces at 0, y = RN(RN(h·t) + t·RN(2^-100 + t·B)) instead, where h·t moves by more
 * than the rounding of t·B can undo; h = 1/2 + 2^-24 for x > 0 and 1/2 − 2^-25 for x < 0 (the
 * floats next to 1/2) rounds an odd subnormal's tie the way exact GELU = t/2 + t²/√(2π) does,
 * and 2^-100 keeps −2^-149 at −0 (tools/pw_pieces.sol, pw_write). The
 * pieces meet GELU exactly at their ends (the fit is pinned there), so crossing from one piece to
 * the next does not jump. Measured, not assumed: over all 2^32 inputs against MPFR, each ISA's
 * build (`gelucheck accuracy --impl pw_fast_avx512,pw_fast_avx2,pw_fast --grad`), forward max
 * abs 3.069e-7 (at x = −0x1.533336p+2, just below the cut), no monotonicity violation, specials exact; derivative max abs 1.623e-6 (same input).
 * The contract sits just above. No ULP bound: −0 below −5.3 where GELU is ~1e-7 and smaller.
 * Derivative: Φ(x) + x·φ(x) by a separate degree-5 fit on the same pieces; 1 and −0 outside.
 * The algorithm once, on the vf_* operations; include after a vf_<isa>.h. */
#ifndef GELUCHECK_PW_FAST_H
#define GELUCHECK_PW_FAST_H

#include <math.h>

#include "gelu_impl.h"
#include "pw_fast_coeffs.h"
#include "vf_array.h"
#include "vf_pieces.h"

static const float pw_fast_cut = 5.3f; /* the pieces cover [−cut, cut] */

/* x for x > cut (+inf too), −0 for x < −cut (−inf too): max(−0, x) there. */
static inline vf pw_fast_outside(vf x, vf inside, vf outside)
{
    return vf_select_less(vf_set1(pw_fast_cut), vf_abs(x), outside, inside); /* NaN: inside */
}

static const vf_pieces pw_fast_pieces = {
    pw_fast_scale, pw_fast_offset, 5, pw_fast_m, pw_fast_h,
    {pw_fast_c0, pw_fast_c1, pw_fast_c2, pw_fast_c3, pw_fast_c4, pw_fast_c5},
    {pw_fast_d0, pw_fast_d1, pw_fast_d2, pw_fast_d3, pw_fast_d4, pw_fast_d5},
};

static inline vf pw_fast_forward(vf x)
{
    vf y = vf_pieces_eval(&pw_fast_pieces, x, false);
    return pw_fast_outside(x, y, vf_max_keep_nan(vf_set1(-0.0f), x));
}

static inline vf pw_fast_derivative(vf x)
{
    vf d = vf_pieces_eval(&pw_fast_pieces, x, true);
    return pw_fast_outside(x, d, vf_select_sign(x, vf_set1(-0.0f), vf_set1(1.0f)));
}

VF_ARRAY_KERNEL(pw_fast_forward_array, pw_fast_forward)
VF_ARRAY_KERNEL(pw_fast_derivative_array, pw_fast_derivative)

#define PW_FAST_IMPL(impl_name)                                                                 \
    VF_GELU_IMPL(impl_name, GELU_TARGET_EXACT, pw_fast_forward_array, pw_fast_derivative_array, \
                 "x·Φ(x) by 32 pinned Sollya minimax pieces of degree 5 (fast tier)",          \
                 GELU_KNOWN_AS_EXACT " (computed directly: piecewise polynomials of GELU itself, to "   \
                 "an absolute error)",    \
                 .max_ulp = INFINITY,                                                          \
                 .max_abs = 3.08e-07,                                                          \
                 .monotone = true,                                                             \
                 .specials = true,                                                             \
                 .grad_max_ulp = INFINITY,                                                     \
                 .grad_max_abs = 1.63e-06)

#endif
