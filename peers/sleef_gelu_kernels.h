/* GELU array kernels on SLEEF's vectorized functions, written once for any vector width, and
 * their plugin descriptions (peers/sleef.c gathers them into the SLEEF peer). The includer (one
 * file per ISA and SLEEF function, compiled with that ISA's flags) defines
 *   SLEEF_LANES   floats per vector (8 for AVX2, 16 for AVX-512),
 *   SLEEF_PHI(v)  Φ(v) = ½·erfc(−v/√2) or ½·(1 + erf(v/√2)) with the SLEEF function under test,
 *   SLEEF_EXP(v)  SLEEF's exp of the same width (for φ in the derivative),
 * and gets sleef_gelu_forward, x·Φ(x), and sleef_gelu_derivative, Φ(x) + x·φ(x), all in binary32.
 * A partial last vector goes through a zero-padded copy, so any n works. */
#ifndef GELUCHECK_SLEEF_GELU_KERNELS_H
#define GELUCHECK_SLEEF_GELU_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include <sleef.h>

#include "gelucheck/plugin.h"

typedef float sleef_vec __attribute__((vector_size(SLEEF_LANES * sizeof(float))));

static const float sleef_sqrt1_2 = 0x1.6a09e6p-1f;      /* √½ rounded to binary32 */
static const float sleef_inv_sqrt_2pi = 0x1.988454p-2f; /* 1/√(2π) rounded to binary32 */

static sleef_vec sleef_gelu_vec(sleef_vec v) { return v * SLEEF_PHI(v); }

static sleef_vec sleef_gelu_derivative_vec(sleef_vec v)
{
    sleef_vec pdf = SLEEF_EXP(-0.5f * v * v) * sleef_inv_sqrt_2pi;
    return SLEEF_PHI(v) + v * pdf;
}

/* Applies f to x[0..n) into y, a whole vector at a time (unaligned loads and stores). */
static void sleef_apply(sleef_vec (*f)(sleef_vec), const float *x, float *y, size_t n)
{
    size_t i = 0;
    for (; i + SLEEF_LANES <= n; i += SLEEF_LANES) {
        sleef_vec v;
        memcpy(&v, x + i, sizeof v);
        v = f(v);
        memcpy(y + i, &v, sizeof v);
    }
    if (i < n) {
        sleef_vec v = {0};
        memcpy(&v, x + i, (n - i) * sizeof(float));
        v = f(v);
        memcpy(y + i, &v, (n - i) * sizeof(float));
    }
}

static void sleef_gelu_forward(const float *x, float *y, size_t n)
{
    sleef_apply(sleef_gelu_vec, x, y, n);
}

static void sleef_gelu_derivative(const float *x, float *y, size_t n)
{
    sleef_apply(sleef_gelu_derivative_vec, x, y, n);
}

/* The contracts, per SLEEF function (the same algorithm on both ISAs, measured on each: identical
 * figures) set from the exhaustive run over all 2^32 inputs; first from the seeded sample of
 * tests/test_impls.c (10^5 inputs on [−20, 20]), set a little above the sample's maxima:
 *   erfcf u15: forward 184.6 ULP (x ≈ −12.9: the rounding of x·√½ amplified by erfc's condition
 *     number, as in erfc_libm), 3.74e-7 abs; derivative 2747 ULP (near f's minimum, where f' is
 *     tiny), 1.14e-7 abs.
 *   erff u10: forward 4.46e-7 abs, derivative 1.22e-7 abs; no ULP claim: 1 + erf(x·√½) cancels
 *     for x < −4 (1.7e7 ULP at x ≈ −7.1, the output 0 where GELU is tiny), as erf_naive.
 * Neither claims specials: −inf gives NaN (−inf·0). */
#define SLEEF_ERFC_U15_CONTRACT                                                                  \
    {                                                                                            \
        .max_ulp = 206, .max_abs = 3.85e-07, .grad_max_ulp = GELUCHECK_NO_CLAIM,                 \
        .grad_max_abs = 1.44e-07,                                                                \
    }
#define SLEEF_ERF_U10_CONTRACT                                                                   \
    {                                                                                            \
        .max_ulp = GELUCHECK_NO_CLAIM, .max_abs = 4.49e-07, .grad_max_ulp = GELUCHECK_NO_CLAIM,  \
        .grad_max_abs = 1.48e-07,                                                                \
    }

/* The names users know these by (the report's known_as; the ABI's field) */
#ifndef SLEEF_ERF_KNOWN_AS
#define SLEEF_ERF_KNOWN_AS "same formula as PyTorch approximate='none', HF gelu, with SLEEF's erff"
#define SLEEF_ERFC_KNOWN_AS                                                                     \
    "the function of PyTorch approximate='none', HF hidden_act gelu, oneDNN eltwise_gelu_erf "  \
    "(computed through erfc: no cancellation for x < 0)"
#endif

/* The plugin description of one SLEEF peer: method `method_name` built for gelucheck's ISA
 * `isa_name` (whose CPU features are `features`), with the kernels above. */
#define SLEEF_GELU_IMPL(impl_name, method_name, isa_name, features, contract_init, what, known)         \
    {                                                                                            \
        .size = sizeof(gelucheck_impl_v1), .name = impl_name, .method = method_name,            \
        .isa = isa_name, .target = "exact", .format = "binary32", .cpu_features = features,      \
        .forward = sleef_gelu_forward, .derivative = sleef_gelu_derivative,                      \
        .contract = contract_init, .origin = "peer: x·Φ(x), " what, .family = "simd_library",     \
        .known_as = known,                                                                       \
    }

#endif
