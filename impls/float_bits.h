/* The binary32 encoding of a float and back (and binary64's of a double) (memcpy: no aliasing, compiled to a move): how
 * results are compared (by encoding, so +0 and −0, and NaN payloads, differ) and how inputs are
 * enumerated, by every layer above impls/. */
#ifndef GELUCHECK_FLOAT_BITS_H
#define GELUCHECK_FLOAT_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t float_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static inline float float_from_bits(uint32_t bits)
{
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* The binary64 encoding of a double and back. */
static inline uint64_t double_bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static inline double double_from_bits(uint64_t bits)
{
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

#endif
