/* Mean, sample sd and the paired t test (p from GSL's Student t tail). */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

/* The i-th value: a_i, or a_i − b_i when b is given. */
static double value(const double *a, const double *b, size_t i, size_t stride)
{
    return b ? a[i * stride] - b[i * stride] : a[i * stride];
}

/* Two passes, so no cancellation between Σv² and n·mean². */
static mean_sd mean_sd_of(const double *a, const double *b, size_t n, size_t stride)
{
    mean_sd r = {0.0, 0.0};
    if (n == 0) return r;
    for (size_t i = 0; i < n; i++)
        r.mean += value(a, b, i, stride);
    r.mean /= (double)n;
    if (n < 2) return r;
    double ss = 0.0;
    for (size_t i = 0; i < n; i++) {
        double e = value(a, b, i, stride) - r.mean;
        ss += e * e;
    }
    r.sd = sqrt(ss / (double)(n - 1));
    return r;
}

mean_sd stats_mean_sd(const double *v, size_t n, size_t stride)
{
    return mean_sd_of(v, NULL, n, stride);
}

paired_diff stats_paired(const double *a, const double *b, size_t n, size_t stride)
{
    mean_sd m = mean_sd_of(a, b, n, stride);
    paired_diff r = {.n = n, .mean = m.mean, .sd = m.sd, .t = 0.0, .p = 1.0};
    if (n < 2) return r;
    if (m.sd == 0.0) {
        if (m.mean != 0.0) {
            r.t = copysign(INFINITY, m.mean);
            r.p = 0.0;
        }
        return r;
    }
    r.t = m.mean / (m.sd / sqrt((double)n));
    r.p = 2.0 * gsl_cdf_tdist_Q(fabs(r.t), (double)(n - 1));
    return r;
}
