/* Input distributions: the probability that a real drawn from a distribution rounds to each
 * binary32 input (the mass of its rounding interval), for the accuracy weighted as activations
 * are drawn: normal(0,1), and uniform over [−10, 10), the benchmark's inputs (bench/).
 *
 * The rounding interval of a finite x is [a, b], a and b the midpoints with its neighbours in
 * binary32 (exact in double; [0, 2^-150] for +0, [−2^-150, 0] for −0); ±inf and NaN weigh 0.
 * Normal: Simpson's rule on [a, b], (b − a)/6·(φ(a) + 4φ((a + b)/2) + φ(b)): its error is below
 * (b − a)^4/2880·|x^4 − 6x^2 + 3| of the mass, under 2^-60 of it for |x| < 39 (b − a ≤ 2^-18);
 * φ(t) = e^(−t²/2)/√(2π) with t² exact in double (t has at most 26 significant bits), exp within
 * an ULP: each weight within 2^-50 of itself (tests/test_weights.c compares 10^4 of them with
 * MPFR's erf at the interval's ends). Past |x| = 39 the mass is below 2^-1074: 0.
 * Uniform: |[a, b] ∩ [−10, 10)|/20, within 2^-52 of itself.
 *
 * Weighted sums are exact integer sums (metrics.h: each weight to 2^-70, each error to 2^-27
 * ULP), so they add in any order (threads, shards, merge). */
#ifndef GELUCHECK_WEIGHTS_H
#define GELUCHECK_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "span.h"

typedef enum { DIST_NORMAL, DIST_UNIFORM, DIST_COUNT } input_dist;

/* The interval [lo, hi) of x holding every input the distribution's maximum is taken over
 * (metrics.h): uniform, its support, [−10, 10] (the x buckets of [−10, 10.125)); normal,
 * [−8, 8) (P(|X| ≥ 8) = 1.2e-15: about one activation in 10^15). */
#define DIST_NORMAL_MAX_LO (-8.0f)
#define DIST_NORMAL_MAX_HI 8.0f
#define DIST_UNIFORM_MAX_LO (-10.0f)
#define DIST_UNIFORM_MAX_HI 10.125f

const char *input_dist_name(input_dist d); /* "normal", "uniform" */

/* exp(−x²/2) at the n inputs x[] into e_half (exp_of, exp_inline.h, of the exact −x²/2: φ's) where
 * every input has 2^-8 ≤ |x| < 39; false, and nothing written, otherwise. Computed once per block
 * for two readers: the normal weights at the midpoints of rounding intervals that are the input
 * itself (all but the powers of two), and the fast reference's derivative of exact GELU
 * (fast_ref_fill), which need the same value. span: input_span_of(x, n), or NULL (then taken
 * here); so in dist_weights. */
bool dist_exp_half(const float *x, size_t n, double *e_half, const input_span *span);

/* The weights of the n inputs x[] under each distribution into w[DIST_*][]; false, and nothing
 * written, when every input has |x| ≥ 39 or is NaN (no mass under either distribution: every
 * weight +0). e_half: dist_exp_half's values at x[], or NULL. */
bool dist_weights(const float *x, size_t n, double *w_normal, double *w_uniform,
                  const double *e_half, const input_span *span);

/* The mass of the rounding interval of x (one input; dist_weights' definition). */
double dist_weight(input_dist d, float x);

#endif
