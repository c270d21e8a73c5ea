/* The built-in binary64 implementations (gelu_f64.h): each a GELU form evaluated in double with
 * libm, no final rounding, forward and derivative; and ReLU in binary64 (relu, relu_avx2,
 * relu_avx512f: impls/relu_kernels.h), exact, the baseline of `bench --format binary64`.
 *
 *   erfc_libm: ½·x·erfc(−x·√½); derivative ½·erfc(−x·√½) + x·exp(−x²/2)/√(2π)
 *              (impls/erfc_f64_kernels.h: the double kernel binary32's erfc_f64 rounds once)
 *   tanh_libm: ½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), PyTorch's tanh form in double;
 *              derivative ½(1 + t) + ½·x·(1 − t²)·√(2/π)·(1 + 3·0.044715·x²), t = tanh(inner)
 *   sigmoid:   x / (1 + exp(−1.702·x)); derivative s + 1.702·x·s·(1 − s), s = σ(1.702·x)
 *
 * Contracts: set a little above the maxima of the default sample (`gelucheck accuracy --format
 * binary64 --grad`: 400,000 draws, seed 1, and the hard inputs; glibc 2.36), which
 * tests/test_scan_f64.c's gate holds them to:
 *   erfc_libm forward 1146 ULP at x ≈ −31.1 (the rounding of x·√½ amplified by erfc's condition
 *     number ~x², as for binary32's erfc_libm), 1.319e-15 abs at x ≈ 8.03; derivative 2.62e-16
 *     abs, no ULP claim (f' vanishes at x_min: 6.4e16 ULP there);
 *   tanh_libm forward 9.94e-16 abs (against its own target); derivative inf at x ≈ 2^512 (x²·x
 *     overflows, then 0·inf): no claim;
 *   sigmoid forward 2.66e-15 abs; derivative inf at x ≈ 2^1023 (1.702·x overflows): no claim.
 * The ULP claims stop at the erfc form: 1 + tanh cancels below −4 (9.0e15 ULP), as in binary32. */
#include "gelu_f64.h"
#include "gelucheck_config.h" /* GELUCHECK_HAVE_<ISA>: which ReLU builds exist */

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ERFC_F64(z) erfc(z)
#include "erfc_f64_kernels.h"

static const double sqrt_2_pi = 0x1.9884533d43651p-1; /* √(2/π) rounded to binary64 */
static const double kappa = 0.044715;                 /* the published cubic coefficient */
static const double slope = 1.702;                    /* the published sigmoid slope */

static void tanh_forward(const double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double inner = sqrt_2_pi * (x[i] + kappa * x[i] * x[i] * x[i]);
        y[i] = 0.5 * x[i] * (1.0 + tanh(inner));
    }
}

static void tanh_derivative(const double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x_sq = x[i] * x[i];
        double inner = sqrt_2_pi * (x[i] + kappa * x_sq * x[i]);
        double t = tanh(inner);
        double inner_derivative = sqrt_2_pi * (1.0 + 3.0 * kappa * x_sq);
        y[i] = 0.5 * (1.0 + t) + 0.5 * x[i] * (1.0 - t * t) * inner_derivative;
    }
}

static void sigmoid_forward(const double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] / (1.0 + exp(-slope * x[i]));
}

static void sigmoid_derivative(const double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double s = 1.0 / (1.0 + exp(-slope * x[i]));
        y[i] = s + slope * x[i] * s * (1.0 - s);
    }
}

/* Bounds over the sample's finite inputs, sampled claims (not proofs): set from the default
 * 1,600,000-draw sample (`gelucheck accuracy --format binary64 --grad`, seed 1), ~1.3x above its
 * maxima for the tail's ULP (erfc_libm forward 1535 ULP at x = -0x1.20bd5c1554d44p+5; the
 * 400,000-draw sample had found 1146, so a bigger sample finds more in the tail, where x·√½'s
 * rounding is amplified ~2z² times) and a little above for the absolute errors (erfc_libm
 * derivative 2.723e-16, sigmoid forward 3.586e-15). None claims monotonicity (1-step breaks beside x_min,
 * where f is flat to 2^-53; the tanh form's 1 + tanh cancels below −4) nor specials (−inf·0). */
#define F64_CLAIMS(ulp, abs, grad_ulp, grad_abs)                                                \
    {.max_ulp = ulp, .max_abs = abs, .grad_max_ulp = grad_ulp, .grad_max_abs = grad_abs}
#define F64_ROW(row, tgt, fwd, grad, claims, why)                                              \
    {.name = row, .method = row, .isa = GELU_ISA_PORTABLE, .target = tgt,                     \
     .format = GELU_FORMAT_BINARY64, .forward_f64 = fwd, .derivative_f64 = grad,              \
     .contract = claims, .origin = why}

static const gelu_impl forms[] = {
    F64_ROW("erfc_libm", GELU_TARGET_EXACT, gelu_f64_erfc_forward, gelu_f64_erfc_derivative,
            F64_CLAIMS(2000, 1.33e-15, INFINITY, 2.8e-16),
            "x·Φ(x) as 0.5·x·erfc(−x/√2) in double with libm erfc (erfc_f64 without its rounding)"),
    F64_ROW("tanh_libm", GELU_TARGET_TANH, tanh_forward, tanh_derivative,
            F64_CLAIMS(INFINITY, 1.01e-15, INFINITY, INFINITY),
            "tanh approximation of Hendrycks & Gimpel 2016 in double with libm tanh"),
    F64_ROW("sigmoid", GELU_TARGET_SIGMOID, sigmoid_forward, sigmoid_derivative,
            F64_CLAIMS(INFINITY, 3.7e-15, INFINITY, INFINITY),
            "x·σ(1.702·x) in double with libm exp ('quick GELU')"),
};

/* ReLU in binary64, the binary64 benchmark's baseline, one build per ISA (impls/relu_kernels.h,
 * defined beside binary32's). */
extern const gelu_impl gelu_impl64_relu, gelu_impl64_relu_avx2, gelu_impl64_relu_avx512f;

/* The built-in rows, in the order of tables and reports: the forms, then the ReLUs (as in the
 * registry); a ReLU build exists only when this build compiles its ISA. */
static const gelu_impl *const builtin[] = {
    &forms[0], &forms[1], &forms[2], &gelu_impl64_relu,
#if GELUCHECK_HAVE_AVX2
    &gelu_impl64_relu_avx2,
#endif
#if GELUCHECK_HAVE_AVX512F
    &gelu_impl64_relu_avx512f,
#endif
};
_Static_assert(sizeof forms / sizeof forms[0] == 3, "every form is listed in builtin[]");

const gelu_impl *const *const gelu_f64_builtins = builtin;
const size_t gelu_f64_builtin_count = sizeof builtin / sizeof builtin[0];
