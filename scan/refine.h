/* The maxima of a scan result made MPFR's: the scan finds each maximum (ULP, absolute and
 * relative error, per implementation, reference and direction) with the fast reference, which
 * gives an error only within a tolerance (1e-3 ULP where the enclosure decides), so both the
 * last digits of a maximum and which input reaches it first could be wrong. The scan keeps, per
 * maximum, the inputs whose true error could be the maximum with the outputs it saw there
 * (near.h); this post-pass takes each of those outputs' error against the MPFR value
 * (reference.h): the printed maximum is the largest of those, at the first input reaching it,
 * so that every digit printed, the input shown and every verdict of the gate come from MPFR.
 * A few MPFR evaluations per maximum; never in the scan's loop (except where a list overflows,
 * near.h).
 *
 * Error by x (ulp_by_x): each x bucket keeps its own lists of the inputs that could be its
 * largest ULP and absolute error (metrics.h's x_near, near.h's near_bucket), resolved here the
 * same way: every bucket's maximum printed is MPFR's. Where a bucket's list went past its MPFR
 * budget (near.h), its maximum is the best entry kept and its `dropped` a bound of the true one
 * (accuracy's output says so, as for a row). */
#ifndef GELUCHECK_REFINE_H
#define GELUCHECK_REFINE_H

#include "scan.h"

/* Replaces every maximum of r by its MPFR value (idempotent). */
void scan_refine_maxima(scan_result *r);

/* The error (kind k) of output y at the input with encoding bits, against target t in direction
 * d, with MPFR. y is the output the scan saw (near.h's entries keep it): the implementation is
 * not called again, as a kernel whose output depends on its batch (PyTorch's, TensorFlow's and
 * JAX's GELUs take other code paths for a lone input) would give another one. The exact value
 * is environment env's (ref_eval_fpenv). */
double refine_mpfr_error(gelu_target t, int d, uint32_t bits, float y, error_kind k, gelu_fpenv env);

/* The exact values already evaluated by one refinement, per target, direction and input: the
 * rows of every implementation and the x buckets' lists share most of their inputs (refine.c). */
typedef struct refine_cache refine_cache;

/* The resolver of row (m, t, d)'s near-tie list of kind k (near.h); ctx must outlive it. cache:
 * NULL, or the values evaluated before (the scan's resolutions of full lists take none). */
typedef struct {
    const gelu_impl *impl;
    gelu_target t;
    int d;
    error_kind k;
    refine_cache *cache;
    gelu_fpenv fpenv; /* the run's environment (0, IEEE, when not given) */
} refine_ctx;
near_resolver refine_resolver(const refine_ctx *ctx);

#endif
