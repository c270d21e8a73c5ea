/* Seeded samples of binary32 inputs (GSL's MT19937), reproducible from (seed, n, range). */
#ifndef GELUCHECK_SAMPLE_H
#define GELUCHECK_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* n inputs in [lo, hi] (finite, lo ≤ hi): even indices uniform in value, odd indices uniform in
 * encoding (so every binade of the range, tiny and subnormal values included, is visited). */
void sample_range(uint64_t seed, float lo, float hi, float *out, size_t n);

#endif
