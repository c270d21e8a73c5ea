/* The fast reference a block at a time (internal to reference/): the enclosures of fast.c and
 * their rounding decisions, computed over arrays of points ("lanes") by loops the compiler
 * vectorizes — 8 doubles at a time with AVX-512, 4 with AVX2, 2 with the portable SSE2 build —
 * giving the very bits fast_ref_decide gives point by point.
 *
 * Same bits by construction: every lane performs fast.c's operations on the same operands in the
 * same order (IEEE binary64, round to nearest, no contraction into FMA: -ffp-contract=off), and
 * the libm values (erfc, erf, exp, tanh) are the same calls with the same arguments, made once per
 * point by the driver (fast_vec.c) and shared by the forward and the derivative where both use
 * them. tests/test_fast_reference.c compares the block fill with fast_ref_decide bit for bit, for
 * every ISA build this CPU runs. */
#ifndef GELUCHECK_FAST_VEC_H
#define GELUCHECK_FAST_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gelu_impl.h"
#include "fast.h"
#include "reference.h"

/* Points per call of the lane kernels (the driver cuts a block into chunks of this size). */
enum { FAST_LANES_CHUNK = 256 };

/* A chunk's inputs: x as a double and the libm values of fast.c's evaluation at it (0 where the
 * point's region does not use them):
 *   exact:            l0 = erfc(−x·√½), l1 = exp(−x²/2) (derivative), l2 = erf(x·√½) (tiny);
 *   tanh:             l0 = exp(−t), l1 = exp(t) (derivative), l2 = tanh(t/2) (tiny),
 *                     t = 2√(2/π)(x + 0.044715x³);
 *   sigmoid, SiLU:    the same with t = k·x (k = 1.702, 1). */
typedef struct {
    double x[FAST_LANES_CHUNK];
    double l0[FAST_LANES_CHUNK], l1[FAST_LANES_CHUNK], l2[FAST_LANES_CHUNK];
} fast_lanes_in;

/* A chunk's reference values in one direction: hi + lo ± err, the correctly rounded value, the ULP
 * scale ref_inv_ulp(hi, lo), and decided = 1 where fast_ref_decide would return true (hi, lo,
 * cr are then its values; elsewhere they are meaningless). */
typedef struct {
    double hi[FAST_LANES_CHUNK], lo[FAST_LANES_CHUNK], err[FAST_LANES_CHUNK], inv_ulp[FAST_LANES_CHUNK];
    double cr[FAST_LANES_CHUNK];    /* a binary32 value */
    int64_t decided[FAST_LANES_CHUNK]; /* as wide as a double: no mask conversion in the loop */
} fast_lanes_out;

/* The lane kernels of each ISA build (fast_vec_lanes.c compiled once per ISA): the enclosure of
 * target t (not ReLU) in direction grad at m ≤ FAST_LANES_CHUNK finite non-zero inputs, and its
 * decision. */
typedef void fast_lanes_fn(gelu_target t, bool grad, const fast_lanes_in *in, fast_lanes_out *out,
                           size_t m);
fast_lanes_fn fast_lanes_portable, fast_lanes_avx2, fast_lanes_avx512;

typedef enum { FAST_ISA_AUTO, FAST_ISA_PORTABLE, FAST_ISA_AVX2, FAST_ISA_AVX512 } fast_isa;

/* False when this build or CPU lacks the ISA. */
bool fast_isa_available(fast_isa isa);

/* fast_ref_fill (fast.h) with the lane kernels of the given ISA build, and (block_path false)
 * every block of a target other than ReLU through the lanes, even those fast_ref_block fills
 * (the tests compare them; an ISA this CPU lacks must not be asked for). */
size_t fast_ref_fill_isa(fast_isa isa, bool block_path, gelu_target t, int ndir, const float *x,
                         size_t n, const ref_arrays out[], uint16_t *const undecided[],
                         size_t nundecided[], const double *e_half, const input_span *span);

#endif
