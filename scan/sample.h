/* Seeded samples of binary32 inputs (GSL's MT19937), reproducible from (seed, n, range). */
#ifndef GELUCHECK_SAMPLE_H
#define GELUCHECK_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* n inputs in [lo, hi] (finite, lo ≤ hi): even indices uniform in value, odd indices uniform in
 * encoding (so every binade of the range, tiny and subnormal values included, is visited). */
void sample_range(uint64_t seed, float lo, float hi, float *out, size_t n);

/* n inputs that visit every binade and the given points: even indices draw a sign, a biased
 * exponent in [0, 254] (0: subnormals) and a mantissa uniformly — so every binade of both signs
 * is equally likely; odd indices lie within ±2^16 encodings of a randomly chosen centre. */
void sample_stratified(uint64_t seed, const float *centers, size_t ncenters, float *out, size_t n);

/* n encodings drawn uniformly from all 2^32 (NaNs and infinities included). */
void sample_encodings(uint64_t seed, float *out, size_t n);

#endif
