/* The target table (see targets.h): one row per target function, in GELU_TARGETS' order.
 *
 * Thresholds: past them f(x) rounds to x (and f'(x) to 1) above, to −0 below, for every
 * binary32 x (Q = 1 − Φ, φ the normal density, t = 2√(2/π)(x + 0.044715x³); checked against
 * MPFR by tests/test_fast_reference.c):
 *   exact:   x·Q(x) < 2^-190·x at 16; |f|, |f'| < 20·φ(20) ≈ 2^-290 at −20;
 *   tanh:    σ(−t) < 2^-125 at 10 (t = 87); |f|, |f'| < 2^-154 at −11 (t = −112.5);
 *   sigmoid: σ(−1.702x)·1.702x < 2^-73 at 32; |f|, |f'| < 2^-165 at −72;
 *   silu:    σ(−x)·x < 2^-63 at 48; |f|, |f'| < 2^-155 at −112.
 * x_min brackets: f' < 0 at −2 and > 0 at −1/4 for all four (SiLU's minimum is near −1.28).
 * S'(0): exact and tanh 1/√(2π) (the density at 0; tanh's √(2/π)/2 is the same number), the
 * sigmoid family k/4. */
#include "targets.h"

static const double INV_SQRT_2PI = 0x1.9884533d43651p-2; /* 1/√(2π) */

/* ReLU: max(x, 0), derivative 1 for x > 0 and 0 otherwise (the benchmark baseline). */
static inline double relu_defined(bool grad, double x)
{
    return grad ? (x > 0.0 ? 1.0 : 0.0) : (x > 0.0 ? x : 0.0);
}

static void relu_defined_block(bool grad, const float *x, size_t n, float *r)
{
    if (grad)
        for (size_t j = 0; j < n; j++) r[j] = (float)relu_defined(true, x[j]);
    else
        for (size_t j = 0; j < n; j++) r[j] = (float)relu_defined(false, x[j]);
}

static const target_def targets[GELU_TARGET_COUNT] = {
    [GELU_TARGET_EXACT] = {.id = GELU_TARGET_EXACT, .family = TARGET_FAMILY_ERF, .mpfr_terms = ref_exact_terms,
                           .enclose = fast_exact_enclose, .tiny_g = fast_exact_tiny_g,
                           .s_prime_0 = INV_SQRT_2PI, .upper = 16, .lower = -20,
                           .xmin_lo = -2, .xmin_hi = -0.25},
    [GELU_TARGET_TANH] = {.id = GELU_TARGET_TANH, .family = TARGET_FAMILY_TANH, .mpfr_terms = ref_tanh_terms,
                          .enclose = fast_tanh_enclose, .tiny_g = fast_tanh_tiny_g,
                          .s_prime_0 = INV_SQRT_2PI, .upper = 10, .lower = -11,
                          .xmin_lo = -2, .xmin_hi = -0.25},
    [GELU_TARGET_SIGMOID] = {.id = GELU_TARGET_SIGMOID, .family = TARGET_FAMILY_SIGMOID, .mpfr_terms = ref_sigmoid_terms,
                             .enclose = fast_sigmoid_enclose, .tiny_g = fast_sigmoid_tiny_g,
                             .s_prime_0 = 1.702 / 4, .upper = 32, .lower = -72,
                             .xmin_lo = -2, .xmin_hi = -0.25,
                             .slope_decimal = "1.702", .slope = 1.702},
    [GELU_TARGET_SILU] = {.id = GELU_TARGET_SILU, .family = TARGET_FAMILY_SIGMOID, .mpfr_terms = ref_sigmoid_terms,
                          .enclose = fast_sigmoid_enclose, .tiny_g = fast_sigmoid_tiny_g,
                          .s_prime_0 = 1.0 / 4, .upper = 48, .lower = -112,
                          .xmin_lo = -2, .xmin_hi = -0.25,
                          .slope_decimal = "1", .slope = 1.0},
    [GELU_TARGET_RELU] = {.id = GELU_TARGET_RELU, .family = TARGET_FAMILY_DEFINED, .defined = relu_defined,
                          .defined_block = relu_defined_block},
};

const target_def *target_def_of(gelu_target t) { return &targets[t]; }
