/* The fast reference: a double-precision enclosure of each target and derivative, and the
 * correctly rounded binary32 value when the enclosure decides it; MPFR (reference.h) otherwise.
 *
 * The exact value lies in [hi + lo − err, hi + lo + err]. err comes from an error analysis
 * written beside each evaluation (libm's error in ULPs of double, the rounding of the argument
 * times the function's condition number, the final roundings); tests/test_fast_reference.c
 * validates it against MPFR on stratified inputs and reports the largest observed error as a
 * fraction of the bound.
 *
 * Regions where the answer is known without evaluation (x past the point where f rounds to x, 1
 * or −0 for every binary32 input) return err = 0 and a hi + lo that carries the side the exact
 * value lies on. For |x| < 2^-8 the forward value is hi = x/2 (exact) plus a small lo, so that the
 * midpoint x/2 of an odd subnormal x is decided by lo's sign. */
#ifndef GELUCHECK_FAST_H
#define GELUCHECK_FAST_H

#include <stdbool.h>
#include <stddef.h>

#include "enclosure.h"
#include "reference.h"
#include "span.h"

/* The enclosure of f(x) (grad: f'(x)); non-finite and zero x get the definitions of reference.h
 * with err = 0. */
void fast_enclose(gelu_target t, bool grad, float x, enclosure *e);

/* True when every real in the enclosure rounds to the same binary32 value (into *cr); false when
 * it straddles a rounding midpoint (or, for results that round to zero, the sign is unknown). */
bool enclosure_round(const enclosure *e, float *cr);

/* The reference value of f(x) from the enclosure, or from MPFR when the enclosure cannot decide
 * the rounding or does not give the ULP error of any output to 1e-3 ULP. Returns true when MPFR
 * was asked (a fallback). *inv_ulp: ref_inv_ulp(out->hi, out->lo). */
bool fast_ref_value(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp);
/* fast_ref_value's two halves: the enclosure alone (false when it cannot decide: *out is then
 * unset), and MPFR. */
bool fast_ref_decide(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp);
/* A block's reference values in one direction as arrays (the scan's layout, which its loops
 * read and which the fills write without gathering structures): at each point j, hi[j] + lo[j],
 * the correctly rounded value cr[j], its ULP scale inv_ulp[j] = ref_inv_ulp(hi, lo), and the
 * enclosure's bound err[j] (fast_enclose's e.err). */
typedef struct {
    double *hi, *lo, *inv_ulp, *err;
    float *cr;
} ref_arrays;

static inline void ref_arrays_set(const ref_arrays *a, size_t j, ref_value v)
{
    a->hi[j] = v.hi;
    a->lo[j] = v.lo;
    a->cr[j] = v.cr;
}

/* fast_ref_decide at the n inputs x[] into out (with the enclosures' bounds) when every one of
 * them lies in a region decided without evaluation (see fast.c); false otherwise (nothing
 * written then). span: input_span_of(x, n), or NULL (then taken here). */
bool fast_ref_block(gelu_target t, bool grad, const float *x, size_t n, const ref_arrays *out,
                    const input_span *span);
void fast_ref_fallback(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp);

/* fast_ref_decide at a block of n ≤ 65,536 inputs, forward into out[0] and, when ndir = 2, the
 * derivative into out[1], a chunk at a time in SIMD lanes, the libm values shared by both
 * directions (fast_vec.c): the same bits as point by point. err: the enclosure's bound at every
 * point (fast_enclose's e.err, so that a caller needing it — the scan's near-tie tolerances —
 * does not evaluate the enclosure again). The points it cannot decide are listed (ascending) in
 * undecided[d][0 .. nundecided[d]), for fast_ref_fallback, with out[d]'s hi and lo there the
 * enclosure's (cr and inv_ulp unset); returns their total. e_half: NULL, or exp(−x²/2) at every
 * input as exp_of (exp_inline.h) gives it for the exact −x²/2 (the caller's, computed for other uses:
 * exact GELU's derivative takes it instead of calling exp again — the same value). span:
 * input_span_of(x, n) (the caller's, taken for other uses), or NULL (then taken here, once for
 * both directions). */
size_t fast_ref_fill(gelu_target t, int ndir, const float *x, size_t n, const ref_arrays out[],
                     uint16_t *const undecided[], size_t nundecided[], const double *e_half,
                     const input_span *span);

#endif
