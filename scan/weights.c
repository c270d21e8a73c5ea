/* Input distributions' weights of binary32 inputs (see weights.h). */
#include "weights.h"

#include <math.h>
#include <string.h>

static const double INV_SQRT_2PI = 0x1.9884533d43651p-2; /* 1/√(2π) */

const char *input_dist_name(input_dist d) { return d == DIST_NORMAL ? "normal" : "uniform"; }

/* The rounding interval [*a, *b] of a finite x. */
static void rounding_interval(float x, double *a, double *b)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) == 0) {
        *a = u ? -0x1p-150 : 0;
        *b = u ? 0 : 0x1p-150;
        return;
    }
    float down = nextafterf(x, -INFINITY), up = nextafterf(x, INFINITY);
    /* past the largest finite value: the overflow threshold, 2^128 − 2^103 */
    *a = isinf(down) ? -0x1.ffffffp127 : 0.5 * ((double)x + (double)down);
    *b = isinf(up) ? 0x1.ffffffp127 : 0.5 * ((double)x + (double)up);
}

/* φ(t) for t with at most 26 significant bits (t² exact). Below 2^-8: e^-s by its series to
 * s³ (s < 2^-17, the next term below 2^-72). */
static double phi(double t)
{
    double s = 0.5 * (t * t);
    double e = s < 0x1p-17 ? 1 - s * (1 - s * (0.5 - s / 6)) : exp(-s);
    return INV_SQRT_2PI * e;
}

static double normal_mass(float x)
{
    if (!(fabsf(x) < 39.0f)) return 0;
    double a, b;
    rounding_interval(x, &a, &b);
    return (b - a) / 6 * (phi(a) + 4 * phi(0.5 * (a + b)) + phi(b));
}

static double uniform_mass(float x)
{
    if (!(fabsf(x) <= 10.0f)) return 0;
    double a, b;
    rounding_interval(x, &a, &b);
    double lo = a > -10 ? a : -10, hi = b < 10 ? b : 10;
    return hi > lo ? (hi - lo) / 20 : 0;
}

double dist_weight(input_dist d, float x)
{
    return d == DIST_NORMAL ? normal_mass(x) : uniform_mass(x);
}

void dist_weights(const float *x, size_t n, double *w_normal, double *w_uniform)
{
    for (size_t j = 0; j < n; j++) {
        w_normal[j] = normal_mass(x[j]);
        w_uniform[j] = uniform_mass(x[j]);
    }
}
