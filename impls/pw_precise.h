/* pw_precise: GELU within 1 ULP of exact x·Φ(x) over every binary32 input (the negative tail
 * down to underflow included), monotone, special values exact, in binary32 throughout.
 * The contract below is what `gelucheck accuracy --impl pw_precise_avx512 --grad` measures over
 * all 2^32 inputs: forward 0.835 ULP at −0x1.0e1e82p+2 (99.895 % correctly rounded), derivative
 * 0.798 ULP at −0x1.ac1d52p+3 (in the tail; 0.755 at most in the pieces), max abs 2.397e-7 and
 * 6.014e-8, no monotonicity violation, the specials right.
 *
 *   GELU(x) ≈ RN(hi + RN(lo + t·RN(t·B(t)))),  hi + lo = c0 + c0lo + c1·t exactly (Fast2Sum)
 *
 * Regions:
 *   x < bottom ≈ −4.22   gelu_tail.h (−exp(−x²/2 + C + ℓ), the exponent never formed);
 *   [bottom, top]        32 equal pieces of [−4.22, 6.18], t = x − m exact (m in the piece),
 *                        degree 7 (tools/pw_precise_coeffs.sol: fits relative to GELU);
 *   x > top ≈ 6.18       x itself (off by x·Φ(−x) < 2e-9, 0.004 ULP);
 *   |x| < 2^-125         x/2 rounded up (vf_gelu_tiny.h: the tie of an odd subnormal).
 * Why it is within 1 ULP where pw_accurate (the same pieces, y = RN(c0 + t·A), A = c1 + t·B
 * rounded) is not: there, the value at m is one float c0 (off by up to half an ULP in the
 * piece of x_min, where m must be RN(x_min)), and A's rounding is multiplied by t, as large as
 * the result in the negative pieces (GELU changes by a factor 4 across a piece near −4). Here
 * c0 + c0lo holds GELU(m) to 2^-48, c1·t enters exactly (ph = RN(c1·t) and its error pl by FMA;
 * Fast2Sum of c0 and ph, exact as |ph| ≤ |c0|, which the generator checks for every piece),
 * and only t²·B, below 1/8 of the result, is rounded before the last addition: its roundings
 * (relative 2^-23) weigh ≤ 2^-26 of the result, the fits ≤ 2^-28.5.
 * Monotone: in the piece of x_min, c1 = 0 and m = RN(x_min), so the value is c0 +
 * RN(c0lo + t·RN(t·B)), monotone on each side of m; in the pieces at 0, c0 = c0lo = 0 and
 * c1 = 1/2, so RN(x/2 + RN(x²·B)), where x/2 moves by more than x²·B's rounding; each piece
 * equals GELU at its ends (the fit is pinned there); the scan checks all 2^32 inputs.
 * Derivative: the same form on its own tables (d0 + d0lo = GELU'(m), relative fits), c0 + c1·t
 * by TwoSum (|d1·t| may exceed |d0|); in the piece of x_min, where GELU' has its zero and
 * d0 ≈ 0, the result is ≈ d1·t, so d1's rounding (2^-25 relative) would be an ULP of it: there
 * d1 + d1lo = GELU''(m), d1lo·t added to the low part, the rest fitted relative to GELU' away
 * from its zero (tools/pw_precise_coeffs.sol); gelu_tail_derivative below bottom, 1 above top.
 * The three ISA builds give the same bits (tests/test_impls.c). Include after a vf_<isa>.h. */
#ifndef GELUCHECK_PW_PRECISE_H
#define GELUCHECK_PW_PRECISE_H

#include <math.h>
#include <stdbool.h>

#include "gelu_impl.h"
#include "gelu_tail.h"
#include "pw_precise_coeffs.h"
#include "vf_array.h"
#include "vf_gelu_tiny.h"
#include "pw_precise_eval.h"

static const pw_precise_tables pw_precise_forward_tables = {
    pw_precise_scale, pw_precise_offset, pw_precise_m, pw_precise_c0, pw_precise_c0lo,
    {NULL, pw_precise_c1, pw_precise_c2, pw_precise_c3, pw_precise_c4, pw_precise_c5, pw_precise_c6,
     pw_precise_c7},
    NULL,
};
static const pw_precise_tables pw_precise_derivative_tables = {
    pw_precise_scale, pw_precise_offset, pw_precise_m, pw_precise_d0, pw_precise_d0lo,
    {NULL, pw_precise_d1, pw_precise_d2, pw_precise_d3, pw_precise_d4, pw_precise_d5, pw_precise_d6,
     pw_precise_d7},
    pw_precise_d1lo,
};

/* x ≥ bottom (pw_precise_eval.h) */
static inline vf pw_precise_forward(vf x)
{
    return pw_precise_pieces_forward(&pw_precise_forward_tables, pw_precise_top, x);
}

static inline vf pw_precise_derivative(vf x)
{
    return pw_precise_pieces_derivative(&pw_precise_derivative_tables, pw_precise_top, x);
}

/* The pieces on every element, then the tail on the elements below bottom only; where a
 * 32-entry lookup costs several instructions (vf_avx2.h), the pieces too only on the elements
 * that need them, x (or 1) on those above top (vf_array.h): on uniform inputs over [−10, 10],
 * where a third of the elements need the pieces, the AVX2 build then took 2.5 ns/element at L2
 * instead of 3.4, while the AVX-512 build took 0.75 instead of 0.70 (`gelucheck bench --size l2
 * --dist normal,uniform`, the two builds alternated three times, a loaded 2-core VM). */
#ifdef VF_LOOKUP32_COSTLY
VF_SPLIT3_ARRAY_KERNEL(pw_precise_forward_array, pw_precise_forward, pw_precise_bottom,
                       gelu_tail_forward, pw_precise_top, pw_precise_self)
VF_SPLIT3_ARRAY_KERNEL(pw_precise_derivative_array, pw_precise_derivative, pw_precise_bottom,
                       gelu_tail_derivative, pw_precise_top, pw_precise_one)
#else
VF_SPLIT_ARRAY_KERNEL(pw_precise_forward_array, pw_precise_forward, pw_precise_bottom,
                      gelu_tail_forward)
VF_SPLIT_ARRAY_KERNEL(pw_precise_derivative_array, pw_precise_derivative, pw_precise_bottom,
                      gelu_tail_derivative)
#endif

#define PW_PRECISE_IMPL(impl_name)                                                              \
    VF_GELU_IMPL(impl_name, GELU_TARGET_EXACT, pw_precise_forward_array,                      \
                 pw_precise_derivative_array,                                                 \
                 "x·Φ(x): 32 Sollya pieces of degree 7, c0 + c1·t exact, and an exp tail, binary32", \
                 GELU_KNOWN_AS_EXACT " (computed directly: piecewise polynomials of GELU itself, "     \
                 "an exp form in the negative tail)",                                          \
                 .max_ulp = 1.0,                                                               \
                 .max_abs = 2.4e-7,                                                            \
                 .monotone = true,                                                             \
                 .specials = true,                                                             \
                 .grad_max_ulp = 1.0,                                                          \
                 .grad_max_abs = 6.1e-8)

#endif
