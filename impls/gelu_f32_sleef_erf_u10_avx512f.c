/* sleef_erf_u10_avx512f (peer): GELU(x) = x·Φ(x) with Sleef_erff16_u10avx512f (SLEEF erff, 1.0
 * ULP), avx512f (16 lanes), in binary32: Φ(x) = ½·(1 + erf(x·√½)). Derivative Φ(x) + x·φ(x), φ
 * with SLEEF's expf (1.0 ULP). Kernels: sleef_gelu_kernels.h.
 *
 * Contract measured on the seeded sample of tests/test_impls.c (10^5 inputs on [−20, 20],
 * `build/tests/test_impls --verbose`), bounds set a little above. Sample maxima: forward 4.46e-7
 * abs, derivative 1.22e-7 abs. No ULP claim: 1 + erf(x·√½) cancels for x < −4 (1.7e7 ULP at x ≈
 * −7.1, the output 0 where GELU is tiny), as erf_naive. −inf gives NaN: no claim on specials. */
#define SLEEF_LANES 16
#define SLEEF_PHI(v) (0.5f * (1.0f + Sleef_erff16_u10avx512f((v) * sleef_sqrt1_2)))
#define SLEEF_EXP(v) Sleef_expf16_u10avx512f(v)
#include "sleef_gelu_kernels.h"

const gelu_impl gelu_impl_sleef_erf_u10_avx512f = {
    .name = "sleef_erf_u10_avx512f",
    .target = GELU_TARGET_EXACT,
    .features = CPU_FEATURE_AVX512F | CPU_FEATURE_AVX2 | CPU_FEATURE_FMA,
    .forward = sleef_gelu_forward,
    .derivative = sleef_gelu_derivative,
    .contract = {
        .max_ulp = INFINITY,
        .max_abs = 5e-7,
        .monotone = false,
        .specials = false,
        .grad_max_ulp = INFINITY,
        .grad_max_abs = 1.3e-7,
    },
    .origin = "peer: x·Φ(x), Φ(x) = ½·(1 + erf(x·√½)), SLEEF Sleef_erff16_u10avx512f on avx512f",
};
