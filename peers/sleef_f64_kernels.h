/* binary64 GELU array kernels on SLEEF's double erf (1.0 ULP, u10) and erfc (1.5 ULP, u15), written
 * once for any vector width, and their plugin descriptions (format "binary64": the plugin ABI's
 * forward_binary64/derivative_binary64). The includer (one file per ISA, compiled with its flags)
 * defines
 *   SLEEF_D_LANES   doubles per vector (4 for AVX2, 8 for AVX-512F),
 *   SLEEF_D_ERF(v), SLEEF_D_ERFC(v), SLEEF_D_EXP(v)   SLEEF's functions of that width,
 * and gets, for each of erf and erfc, x·Φ(x) and Φ(x) + x·φ(x) in binary64 with
 *   Φ(x) = ½·erfc(−x·√½)  (erfc)    or    ½·(1 + erf(x·√½))  (erf: cancels for x < 0).
 * A partial last vector goes through a zero-padded copy, so any n works. */
#ifndef GELUCHECK_SLEEF_F64_KERNELS_H
#define GELUCHECK_SLEEF_F64_KERNELS_H

#include <stddef.h>
#include <string.h>

#include <sleef.h>

#include "gelucheck/plugin.h"

typedef double sleef_dvec __attribute__((vector_size(SLEEF_D_LANES * sizeof(double))));

static const double sleef_d_sqrt1_2 = 0x1.6a09e667f3bcdp-1;      /* √½ rounded to binary64 */
static const double sleef_d_inv_sqrt_2pi = 0x1.9884533d43651p-2; /* 1/√(2π) rounded to binary64 */

static sleef_dvec phi_erfc(sleef_dvec v) { return 0.5 * SLEEF_D_ERFC(-v * sleef_d_sqrt1_2); }
static sleef_dvec phi_erf(sleef_dvec v) { return 0.5 * (1.0 + SLEEF_D_ERF(v * sleef_d_sqrt1_2)); }
static sleef_dvec pdf(sleef_dvec v) { return SLEEF_D_EXP(-0.5 * v * v) * sleef_d_inv_sqrt_2pi; }

static sleef_dvec gelu_erfc(sleef_dvec v) { return v * phi_erfc(v); }
static sleef_dvec gelu_erf(sleef_dvec v) { return v * phi_erf(v); }
static sleef_dvec gelu_erfc_derivative(sleef_dvec v) { return phi_erfc(v) + v * pdf(v); }
static sleef_dvec gelu_erf_derivative(sleef_dvec v) { return phi_erf(v) + v * pdf(v); }

/* Applies f to x[0..n) into y, a whole vector at a time (unaligned loads and stores). */
static void sleef_d_apply(sleef_dvec (*f)(sleef_dvec), const double *x, double *y, size_t n)
{
    size_t i = 0;
    for (; i + SLEEF_D_LANES <= n; i += SLEEF_D_LANES) {
        sleef_dvec v;
        memcpy(&v, x + i, sizeof v);
        v = f(v);
        memcpy(y + i, &v, sizeof v);
    }
    if (i < n) {
        sleef_dvec v = {0};
        memcpy(&v, x + i, (n - i) * sizeof(double));
        v = f(v);
        memcpy(y + i, &v, (n - i) * sizeof(double));
    }
}

static void erfc_forward(const double *x, double *y, size_t n) { sleef_d_apply(gelu_erfc, x, y, n); }
static void erf_forward(const double *x, double *y, size_t n) { sleef_d_apply(gelu_erf, x, y, n); }
static void erfc_derivative(const double *x, double *y, size_t n)
{
    sleef_d_apply(gelu_erfc_derivative, x, y, n);
}
static void erf_derivative(const double *x, double *y, size_t n)
{
    sleef_d_apply(gelu_erf_derivative, x, y, n);
}

/* The contracts, the same for both ISAs (the same algorithm; measured on each: identical
 * figures), set a little above the maxima of the default sample (`gelucheck accuracy --format
 * binary64 --grad`: 1,600,000 draws, seed 1, and the hard inputs; SLEEF 3.5.1), the tail's ULP
 * ~1.3x above (a bigger sample finds more there: 400,000 draws had found 1148):
 *   erfc u15: forward 1533 ULP at x = -0x1.20bd5c1554d44p+5 (x·√½'s rounding amplified, as
 *     libm's), 1.319e-15 abs; derivative 2.584e-16 abs (its ULPs unbounded at x_min, where f'
 *     vanishes);
 *   erf u10: forward 1.099e-15 abs, derivative 2.736e-16 abs; no ULP claim: 1 + erf cancels
 *     below x ≈ −4 (9.0e15 ULP).
 * Neither claims specials (−inf·0 = NaN) nor monotonicity (1-step breaks beside x_min). */
#define SLEEF_D_ERFC_U15_CONTRACT                                                                \
    {                                                                                            \
        .max_ulp = 2000, .max_abs = 1.33e-15, .grad_max_ulp = GELUCHECK_NO_CLAIM,                \
        .grad_max_abs = 2.7e-16,                                                                 \
    }
#define SLEEF_D_ERF_U10_CONTRACT                                                                 \
    {                                                                                            \
        .max_ulp = GELUCHECK_NO_CLAIM, .max_abs = 1.11e-15, .grad_max_ulp = GELUCHECK_NO_CLAIM,  \
        .grad_max_abs = 2.8e-16,                                                                 \
    }

/* The names users know these by (the report's known_as; the ABI's field) */
#ifndef SLEEF_ERF_KNOWN_AS
#define SLEEF_ERF_KNOWN_AS "same formula as PyTorch approximate='none', HF gelu, with SLEEF's erff"
#define SLEEF_ERFC_KNOWN_AS                                                                     \
    "the function of PyTorch approximate='none', HF hidden_act gelu, oneDNN eltwise_gelu_erf "  \
    "(computed through erfc: no cancellation for x < 0)"
#endif

/* One binary64 description: method `method_name` built for gelucheck's ISA `isa_name`. */
#define SLEEF_F64_IMPL(impl_name, method_name, isa_name, features, fwd, grad, contract_init, what, known) \
    {                                                                                            \
        .size = sizeof(gelucheck_impl_v1), .name = impl_name, .method = method_name,            \
        .isa = isa_name, .target = "exact", .format = "binary64", .cpu_features = features,      \
        .forward_binary64 = fwd, .derivative_binary64 = grad, .contract = contract_init,         \
        .origin = "peer: x·Φ(x) in double, " what, .family = "simd_library",                  \
        .known_as = known,                                                                       \
    }

#endif
