/* Statistics over seeds: mean and sample standard deviation, and the paired comparison of two
 * activations trained on the same seeds (same data, same initial weights, same batch order). */
#ifndef GELUCHECK_STATS_H
#define GELUCHECK_STATS_H

#include <stddef.h>

typedef struct {
    double mean, sd; /* sd with n − 1 in the denominator; 0 when n < 2 */
} mean_sd;

/* Paired differences d_i = a_i − b_i: their mean and sd, Student's t = mean/(sd/√n) with n − 1
 * degrees of freedom and its two-sided p-value. When every d_i is equal, sd is 0: t is 0 and p
 * is 1 if they are all 0 (identical results), t is ±inf and p is 0 otherwise. With n < 2 there is
 * no test: t = 0, p = 1. */
typedef struct {
    size_t n;
    double mean, sd, t, p;
} paired_diff;

/* Over v[0], v[stride], …, v[(n−1)·stride]. */
mean_sd stats_mean_sd(const double *v, size_t n, size_t stride);
paired_diff stats_paired(const double *a, const double *b, size_t n, size_t stride);

#endif
