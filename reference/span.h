/* The extent of a block of binary32 inputs, taken in one pass and read by every test of a whole
 * block that follows it (the fast reference's regions, fast_ref_block, in both directions; the
 * weights' regions, scan/weights.c): those tests were each a pass over the block of their own. */
#ifndef GELUCHECK_SPAN_H
#define GELUCHECK_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    /* The smallest and largest |x| as encodings (bits & 0x7fffffff) over every input, NaN and
     * ±inf included (a NaN's is above +inf's): 0 when a zero is among them. */
    uint32_t abs_lo, abs_hi;
    /* The smallest and largest order key (−|bits| for a negative x, |bits| otherwise: both
     * zeros 0), meaningful only where special is false. */
    int32_t key_lo, key_hi;
    bool special; /* NaN, ±inf or ±0 among the inputs */
} input_span;

/* The span of x[0 .. n) (n > 0). A loop of integer operations that vectorizes. */
static inline void input_span_of(const float *x, size_t n, input_span *s)
{
    int32_t key_lo = INT32_MAX, key_hi = INT32_MIN;
    uint32_t abs_lo = UINT32_MAX, abs_hi = 0, special = 0;
    for (size_t j = 0; j < n; j++) {
        uint32_t b;
        memcpy(&b, &x[j], sizeof b);
        uint32_t a = b & 0x7fffffffu;
        special |= (a >= 0x7f800000u) | (a == 0);
        int32_t k = (int32_t)b < 0 ? -(int32_t)a : (int32_t)a;
        key_lo = k < key_lo ? k : key_lo;
        key_hi = k > key_hi ? k : key_hi;
        abs_lo = a < abs_lo ? a : abs_lo;
        abs_hi = a > abs_hi ? a : abs_hi;
    }
    *s = (input_span){abs_lo, abs_hi, key_lo, key_hi, special != 0};
}

/* Whether every input has lo ≤ |x| < hi (encodings of non-negative values; NaN's above all). */
static inline bool input_span_inside(const input_span *s, uint32_t lo, uint32_t hi)
{
    return s->abs_lo >= lo && s->abs_hi < hi;
}

#endif
