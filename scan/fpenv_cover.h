/* The binary32 inputs where x86's FTZ and DAZ can change a GELU kernel's result, as one scan
 * domain (DOMAIN_LIST): the report's ftz,daz section scans these instead of all 2^32 inputs.
 *
 * The environment changes nothing unless an input, an intermediate or a result is subnormal.
 * Over the targets (exact GELU, its tanh form, x·σ(1.702x), SiLU) and both directions that
 * happens only at |x| < 2^-125 (subnormal inputs; GELU(x) ≈ x/2 subnormal) and in the negative
 * tail, where the value, the derivative or a factor kernels form (erfc(−x/√2), 1 + tanh(·),
 * exp(x)) goes subnormal: from x ≈ −10 (the tanh form's factor) down to where SiLU's value and
 * derivative, the last to do so, round to 0 (x ≈ −108.7). Measured, not assumed: docs/DESIGN.md,
 * "Floating-point environments", has the per-input comparison of every default implementation
 * the spans were set from. A seeded sample of all encodings is added, so that a kernel
 * differing elsewhere still has a chance to show. */
#ifndef GELUCHECK_FPENV_COVER_H
#define GELUCHECK_FPENV_COVER_H

#include <stddef.h>
#include <stdint.h>

/* A span of inputs [lo, hi] (binary32 order, −0 before +0) and why it is covered. */
typedef struct {
    float lo, hi;
    const char *why;
} fpenv_cover_span;

size_t fpenv_cover_span_count(void);
const fpenv_cover_span *fpenv_cover_span_at(size_t i);

/* What to scan: every `stride`-th encoding of each span (1: every one; a span's first and last
 * inputs always), plus `sample` encodings drawn uniformly from all 2^32 (sample_encodings, seed). */
typedef struct {
    uint32_t stride;
    uint64_t sample, seed;
} fpenv_cover_config;

/* The report's: every input of the spans and 1,000,000 draws; --quick: every 61st (a prime: the
 * inputs are not all of one mantissa pattern) and 100,000 draws. */
fpenv_cover_config fpenv_cover_default(int quick);

/* The inputs of c, distinct encodings ascending as encodings (a DOMAIN_LIST's order), into *list
 * (malloc'ed, *n of them). 0, or −1 out of memory (or stride 0). */
int fpenv_cover_build(const fpenv_cover_config *c, uint32_t **list, uint64_t *n);

/* The inputs of span i that c takes. */
uint64_t fpenv_cover_span_inputs(const fpenv_cover_config *c, size_t i);

/* One line saying what c covers, with the counts ("every input of [...] (why): N inputs; ...;
 * and S draws over all encodings (seed 1): T distinct inputs"), total the distinct inputs
 * fpenv_cover_build made. */
const char *fpenv_cover_describe(const fpenv_cover_config *c, uint64_t total, char *buf, size_t size);

#endif
