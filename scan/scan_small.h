/* The scan of a 16-bit format (bfloat16, binary16): every one of its 65,536 encodings, each
 * judged against the MPFR oracle rounded straight to the format (ref_eval_format: one rounding,
 * no enclosure, no near-tie lists: the exact value is carried to 106 bits, hi + lo), into a
 * scan_result with the binary32 scan's metrics (metrics.h), so that the same table, CSV and
 * gate come out. Separate from the binary32 scan's engine (scan_internal.h).
 *
 * Implementations: descriptors of the format, native (16-bit kernels) or widened binary32 ones
 * (gelu_impl_widened). Inputs and outputs are held as binary32 values (every value of both
 * formats is one): the metrics' x and argmax encodings are those binary32 values; ULPs are the
 * format's. Domain order is the encodings' (+0 … +NaN, −0 … −NaN), as binary32's.
 *
 * Per implementation, own target and exact GELU, forward and (grad) derivative: error metrics;
 * monotonicity over consecutive encodings, the distance in the format's steps; the derivative's
 * sign; the format's special encodings by encoding (expected the correctly rounded value); the
 * peers' f32 rules (criteria.h) applied to the 16-bit outputs as they are. The
 * derivative's consistency with the forward (central differences) is not measured: a difference
 * quotient of 16-bit outputs measures their rounding; it is NaN in the result. */
#ifndef GELUCHECK_SCAN_SMALL_H
#define GELUCHECK_SCAN_SMALL_H

#include "scan.h"

typedef struct {
    gelu_format_id format;    /* a 16-bit format */
    const gelu_impl *const *impls; /* each of `format` (native or widened) */
    size_t nimpls;
    bool grad;
    unsigned threads;         /* for the references (MPFR); 0: all online CPUs */
    /* As scan_config's (scan.h), with same_as[i] < i: a row is compared with an earlier one. */
    const int *same_as;
    uint64_t (*differ)[DIR_COUNT];
} scan_small_config;

/* Runs the scan into *result (zeroed or allocated before). 0, or −1 with *error set to a static
 * message (an implementation of another format, out of memory). */
int scan_small_run(const scan_small_config *cfg, scan_result *result, const char **error);

/* The weight of the 16-bit value x (as a double) under distribution d: the mass of its
 * rounding interval in the format (weights.h's definition with the format's neighbours). */
double scan_small_weight(const gelu_format *f, input_dist d, uint16_t bits);

#endif
