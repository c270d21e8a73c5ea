/* GELU in the erfc form evaluated in binary64, written once for any double-precision erfc: the
 * includer defines ERFC_F64(z) (libm's erfc, GSL's gsl_sf_erfc, ...) and gets
 *   gelu_f64_erfc_forward:    y = ½·x·erfc(−x·√½)                      (binary64 arrays)
 *   gelu_f64_erfc_derivative: y = ½·erfc(−x·√½) + x·exp(−x²/2)/√(2π)   (binary64 arrays)
 * and the same rounded once to binary32, on binary32 arrays: erfc_f64_forward,
 * erfc_f64_derivative. Included by exactly one .c file per erfc. */
#ifndef GELUCHECK_ERFC_F64_KERNELS_H
#define GELUCHECK_ERFC_F64_KERNELS_H

#include <math.h>
#include <stddef.h>

static const double erfc_f64_sqrt1_2 = 0x1.6a09e667f3bcdp-1;      /* √½ rounded to binary64 */
static const double erfc_f64_inv_sqrt_2pi = 0x1.9884533d43651p-2; /* 1/√(2π) rounded to binary64 */

/* The double kernel both formats share: binary32's rounds its result once. */
static inline double erfc_f64_forward_at(double x) { return 0.5 * x * ERFC_F64(-x * erfc_f64_sqrt1_2); }
static inline double erfc_f64_derivative_at(double x)
{
    return 0.5 * ERFC_F64(-x * erfc_f64_sqrt1_2) + x * (exp(-0.5 * x * x) * erfc_f64_inv_sqrt_2pi);
}

static inline void gelu_f64_erfc_forward(const double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = erfc_f64_forward_at(x[i]);
}

static inline void gelu_f64_erfc_derivative(const double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = erfc_f64_derivative_at(x[i]);
}

static inline void erfc_f64_forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = (float)erfc_f64_forward_at(x[i]);
}

static inline void erfc_f64_derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = (float)erfc_f64_derivative_at(x[i]);
}

#endif
