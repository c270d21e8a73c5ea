/* Seeded samples (see sample.h). */
#include "sample.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "float_order.h"

void sample_range(uint64_t seed, float lo, float hi, float *out, size_t n)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, (unsigned long)seed);
    int64_t olo = ordinal(lo), span = ordinal(hi) - olo + 1;
    for (size_t i = 0; i < n; i++) {
        if (i % 2 == 0) {
            float v = (float)(lo + ((double)hi - lo) * gsl_rng_uniform(rng));
            out[i] = v < lo ? lo : v > hi ? hi : v;
        } else {
            /* two 32-bit draws: an offset uniform over up to 2^32 encodings */
            uint64_t r = ((uint64_t)gsl_rng_get(rng) << 32) | gsl_rng_get(rng);
            out[i] = from_ordinal(olo + (int64_t)(r % (uint64_t)span));
        }
    }
    gsl_rng_free(rng);
}

void sample_stratified(uint64_t seed, const float *centers, size_t ncenters, float *out, size_t n)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, (unsigned long)seed);
    for (size_t i = 0; i < n; i++) {
        if (i % 2 == 0 || ncenters == 0) {
            uint32_t sign = (uint32_t)gsl_rng_uniform_int(rng, 2) << 31;
            uint32_t biased = (uint32_t)gsl_rng_uniform_int(rng, 255);
            uint32_t mant = (uint32_t)gsl_rng_uniform_int(rng, 1u << 23);
            uint32_t b = sign | biased << 23 | mant;
            memcpy(&out[i], &b, sizeof b);
        } else {
            float c = centers[gsl_rng_uniform_int(rng, ncenters)];
            int64_t off = (int64_t)gsl_rng_uniform_int(rng, 1u << 17) - (1 << 16);
            out[i] = from_ordinal(ordinal(c) + off);
        }
    }
    gsl_rng_free(rng);
}

void sample_encodings(uint64_t seed, float *out, size_t n)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, (unsigned long)seed);
    for (size_t i = 0; i < n; i++) {
        uint32_t b = (uint32_t)gsl_rng_get(rng);
        memcpy(&out[i], &b, sizeof b);
    }
    gsl_rng_free(rng);
}
