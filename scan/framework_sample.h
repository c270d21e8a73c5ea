/* The inputs the frameworks' paths are scanned on (docs/frameworks.md, "Paths"): where every one
 * of the 2^32 binary32 inputs costs too much — a size-1 path makes one framework call per
 * input —, a path is scanned on at least 2^20 inputs spread over every binade, plus a fixed list
 * of 319 inputs where frameworks were seen to differ. One scan domain (DOMAIN_LIST), the same
 * for every path and its row, so that a path's figures and its row's are of the same inputs.
 *
 * The binades: each of the 510 finite ones (both signs, biased exponents 0 to 254; exponent 0
 * is the subnormals) gets FRAMEWORK_SAMPLE_PER_BINADE mantissas: its first and last encodings
 * and one seeded draw in each of the equal cells between, so that each binade is covered evenly
 * and its ends are in. The fixed inputs are framework_sample_fixed's (framework_sample.c says how
 * they were chosen). */
#ifndef GELUCHECK_FRAMEWORK_SAMPLE_H
#define GELUCHECK_FRAMEWORK_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* 510 × 2,057 = 1,049,070 ≥ 2^20; the seed of the draws inside the cells. */
enum { FRAMEWORK_SAMPLE_BINADES = 510, FRAMEWORK_SAMPLE_PER_BINADE = 2057,
       FRAMEWORK_SAMPLE_FIXED = 319, FRAMEWORK_SAMPLE_SEED = 1 };

/* The fixed inputs' encodings (FRAMEWORK_SAMPLE_FIXED of them, distinct, in no order). */
const uint32_t *framework_sample_fixed(void);

/* The sample's distinct encodings, ascending as encodings (a DOMAIN_LIST's order), into *list
 * (malloc'ed, *n of them). 0, or −1 out of memory. */
int framework_sample_build(uint32_t **list, uint64_t *n);

/* One line naming the sample and its count n ("N inputs: 2,057 in each of the 510 finite
 * binades ... plus the 319 fixed inputs ..."). */
const char *framework_sample_describe(uint64_t n, char *buf, size_t size);

#endif
