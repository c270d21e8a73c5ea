/* GELU in the erfc form evaluated in binary64 and rounded once to binary32, written once for any
 * double-precision erfc: the includer defines ERFC_F64(z) (libm's erfc, GSL's gsl_sf_erfc, ...)
 * and gets
 *   erfc_f64_forward:    y = ½·x·erfc(−x·√½)
 *   erfc_f64_derivative: y = ½·erfc(−x·√½) + x·exp(−x²/2)/√(2π)
 * Included by exactly one .c file per erfc. */
#ifndef GELUCHECK_ERFC_F64_KERNELS_H
#define GELUCHECK_ERFC_F64_KERNELS_H

#include <math.h>
#include <stddef.h>

static const double erfc_f64_sqrt1_2 = 0x1.6a09e667f3bcdp-1;      /* √½ rounded to binary64 */
static const double erfc_f64_inv_sqrt_2pi = 0x1.9884533d43651p-2; /* 1/√(2π) rounded to binary64 */

static void erfc_f64_forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(0.5 * xd * ERFC_F64(-xd * erfc_f64_sqrt1_2));
    }
}

static void erfc_f64_derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double xd = x[i];
        y[i] = (float)(0.5 * ERFC_F64(-xd * erfc_f64_sqrt1_2) +
                       xd * (exp(-0.5 * xd * xd) * erfc_f64_inv_sqrt_2pi));
    }
}

#endif
