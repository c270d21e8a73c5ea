/* The filters of the scan's monotonicity and sign checks (block.c's check_monotone, check_sign):
 * conditions on the encodings that every violation those checks find satisfies, computed
 * without branches so that a loop over a block vectorizes; the exact checks then run only in the
 * groups of points they flag. tests/test_scan.c compares them with the checks' definitions. */
#ifndef GELUCHECK_MONO_FILTER_H
#define GELUCHECK_MONO_FILTER_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "float_bits.h"

/* A binary32 encoding as a signed integer in the order of the values it encodes, both zeros 0
 * (so that keys compare as the floats do, for every non-NaN encoding). */
static inline int32_t order_key(uint32_t b)
{
    int32_t m = (int32_t)(b & 0x7fffffffu);
    return (int32_t)b < 0 ? -m : m;
}

static inline int32_t is_nan_bits(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }

/* x_min's position among the binary32 values, as keys: a float f has f <= x_min exactly when
 * order_key(f) <= *le, and f >= x_min exactly when order_key(f) >= *ge (NaN x_min: neither,
 * ever). */
static inline void x_min_keys(double x_min, int32_t *le, int32_t *ge)
{
    if (isnan(x_min)) {
        *le = INT32_MIN;
        *ge = INT32_MAX;
        return;
    }
    float f = (float)x_min; /* a neighbour of x_min (±FLT_MAX or ±inf beyond the range) */
    float below = (double)f <= x_min ? f : nextafterf(f, -INFINITY);
    float above = (double)f >= x_min ? f : nextafterf(f, INFINITY);
    *le = (double)below <= x_min ? order_key(float_bits(below)) : INT32_MIN;
    *ge = (double)above >= x_min ? order_key(float_bits(above)) : INT32_MAX;
}

/* Whether check_pair could find a violation at pair k: the same conditions on the encodings'
 * order keys, without branches (so that it vectorizes), and NaN outputs always suspect. */
static inline uint32_t pair_suspect(const float *x, const float *y, size_t k, int32_t le,
                                    int32_t ge)
{
    uint32_t ba = float_bits(x[k - 1]), bb = float_bits(x[k]);
    uint32_t ya = float_bits(y[k - 1]), yb = float_bits(y[k]);
    int32_t ka = order_key(ba), kb = order_key(bb), kya = order_key(ya), kyb = order_key(yb);
    int32_t finite = ((ba & 0x7f800000u) != 0x7f800000u) & ((bb & 0x7f800000u) != 0x7f800000u);
    int32_t up = ka < kb;
    int32_t lo = up ? ka : kb, hi = up ? kb : ka, y_lo = up ? kya : kyb, y_hi = up ? kyb : kya;
    int32_t nan_y = is_nan_bits(ya) | is_nan_bits(yb);
    int32_t bad = ((hi <= le) & (nan_y | (y_lo < y_hi))) | ((lo >= ge) & (nan_y | (y_hi < y_lo)));
    return (uint32_t)(finite & (ka != kb) & bad);
}

/* Whether check_sign_at could find a wrong sign at j (as pair_suspect), for a non-NaN x_min;
 * cr: the correctly rounded values, whose zeros check_sign_at exempts (the negative tail, where
 * they are −0: its points are not flagged). */
static inline uint32_t sign_suspect(const float *x, const float *y, const float *cr, size_t j,
                                    int32_t ge)
{
    uint32_t bx = float_bits(x[j]), by = float_bits(y[j]);
    int32_t kx = order_key(bx), ky = order_key(by);
    int32_t left = kx < ge; /* x < x_min */
    int32_t ok = left ? ky < 0 : ky > 0;
    int32_t cr_nonzero = (float_bits(cr[j]) & 0x7fffffffu) != 0;
    return (uint32_t)((is_nan_bits(bx) ^ 1) & cr_nonzero & (is_nan_bits(by) | (ok ^ 1)));
}

#endif
