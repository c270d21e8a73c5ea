/* binary32 encodings in the order of their values: an integer per encoding whose order is the
 * floats' (−0 and +0 adjacent), its inverse, and the distance of two floats in binary32 steps. */
#ifndef GELUCHECK_FLOAT_ORDER_H
#define GELUCHECK_FLOAT_ORDER_H

#include <math.h>
#include <stdint.h>

#include "float_bits.h"

static inline int64_t ordinal(float x)
{
    uint32_t b = float_bits(x);
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) - 1 : (int64_t)b;
}

static inline float from_ordinal(int64_t o)
{
    return float_from_bits(o < 0 ? (uint32_t)(-(o + 1)) | 0x80000000u : (uint32_t)o);
}

/* Distance between two floats in binary32 steps (−0 and +0 one step apart). */
static inline uint64_t float_distance(float a, float b)
{
    if (isnan(a) || isnan(b)) return UINT64_MAX;
    int64_t d = ordinal(a) - ordinal(b);
    return (uint64_t)(d < 0 ? -d : d);
}

#endif
