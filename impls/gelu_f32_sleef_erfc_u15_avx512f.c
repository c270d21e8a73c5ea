/* sleef_erfc_u15_avx512f (peer): GELU(x) = x·Φ(x) with Sleef_erfcf16_u15avx512f (SLEEF erfcf, 1.5
 * ULP), avx512f (16 lanes), in binary32: Φ(x) = ½·erfc(−x·√½). Derivative Φ(x) + x·φ(x), φ with
 * SLEEF's expf (1.0 ULP). Kernels: sleef_gelu_kernels.h.
 *
 * Contract measured on the seeded sample of tests/test_impls.c (10^5 inputs on [−20, 20],
 * `build/tests/test_impls --verbose`), bounds set a little above. Sample maxima: forward 184.6
 * ULP (at x ≈ −12.9: the rounding of x·√½ amplified by erfc's condition number, as in
 * erfc_libm), 3.74e-7 abs; derivative 2747 ULP (near the zero of f' at x_min, where ULPs are
 * tiny), 1.14e-7 abs. −inf gives NaN (−inf·0): no claim on specials. */
#define SLEEF_LANES 16
#define SLEEF_PHI(v) (0.5f * Sleef_erfcf16_u15avx512f(-(v) * sleef_sqrt1_2))
#define SLEEF_EXP(v) Sleef_expf16_u10avx512f(v)
#include "sleef_gelu_kernels.h"

const gelu_impl gelu_impl_sleef_erfc_u15_avx512f = {
    .name = "sleef_erfc_u15_avx512f",
    .target = GELU_TARGET_EXACT,
    .features = CPU_FEATURE_AVX512F | CPU_FEATURE_AVX2 | CPU_FEATURE_FMA,
    .forward = sleef_gelu_forward,
    .derivative = sleef_gelu_derivative,
    .contract = {
        .max_ulp = 190,
        .max_abs = 4e-7,
        .monotone = false,
        .specials = false,
        .grad_max_ulp = 3000,
        .grad_max_abs = 1.2e-7,
    },
    .origin = "peer: x·Φ(x), Φ(x) = ½·erfc(−x·√½), SLEEF Sleef_erfcf16_u15avx512f on avx512f",
};
