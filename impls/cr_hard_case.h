/* The table of hard cases of a correctly rounded method (cr.h, cr_sigma.h): the inputs whose
 * results no fast or accurate path decides, found by exhaustive search (tools/cr_hard_cases.c,
 * tools/cr_sigma_hard_cases.c), with their correctly rounded results. */
#ifndef GELU_CR_HARD_CASE_H
#define GELU_CR_HARD_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The result of x in the sorted table xs (its results ys) of n entries into *r, or false. */
static inline bool cr_hard_case(const uint32_t *xs, const uint32_t *ys, size_t n, float x, float *r)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (xs[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == n || xs[lo] != b) return false;
    memcpy(r, &ys[lo], sizeof *r);
    return true;
}

#endif
