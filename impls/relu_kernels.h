/* ReLU's array kernels, binary32 and binary64, written once and compiled once per ISA
 * (gelu_f32_relu.c portable, gelu_f32_relu_avx2.c, gelu_f32_relu_avx512f.c: the same loops under
 * -mavx2 / -mavx512f), so the baseline of each format's benchmark is as wide as the widest GELU
 * it is compared with. Each of those files defines both formats' descriptors: binary32's in the
 * registry, binary64's in impls/gelu_f64.c's list.
 *
 * relu(x) = x for x > 0 or NaN, +0 otherwise: written as !(x <= 0) so that NaN (unordered) keeps
 * x, and as a select without a call to isnan so that GCC vectorizes it (checked with
 * -fopt-info-vec: both loops vectorize at -O2 on every ISA). Derivative 1 for x > 0, NaN for
 * NaN, 0 otherwise (PyTorch's choice at 0). Included by exactly one .c file per ISA. */
#ifndef GELUCHECK_RELU_KERNELS_H
#define GELUCHECK_RELU_KERNELS_H

#include <stddef.h>

#include "gelu_impl.h"

/* The vectorizer needs to know that x and y do not overlap (or are the same array: each
 * element is read before it is written, so in-place calls stay correct). */
static void relu_forward(const float *restrict x, float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] <= 0.0f ? 0.0f : x[i];
}

static void relu_derivative(const float *restrict x, float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] != x[i] ? x[i] : (x[i] > 0.0f ? 1.0f : 0.0f);
}

/* The same in binary64 (the benchmark's baseline in `bench --format binary64`). */
static void relu_forward_f64(const double *restrict x, double *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] <= 0.0 ? 0.0 : x[i];
}

static void relu_derivative_f64(const double *restrict x, double *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] != x[i] ? x[i] : (x[i] > 0.0 ? 1.0 : 0.0);
}

/* The descriptor of a ReLU compiled for ISA GELU_ISA_<isa_id> (gelu_impl.h). */
#define RELU_IMPL(impl_name, isa_id, what)                                                    \
    {                                                                                         \
        .name = impl_name, .method = "relu", .isa = GELU_ISA_##isa_id,                        \
        .target = GELU_TARGET_RELU, .features = GELU_ISA_FEATURES_##isa_id,                   \
        .forward = relu_forward, .derivative = relu_derivative,                               \
        .contract = {.max_ulp = 0.0, .max_abs = 0.0, .monotone = true, .specials = true,     \
                     .grad_max_ulp = 0.0, .grad_max_abs = 0.0},                               \
        .origin = "max(x, 0), " what ": the baseline every GELU is costed against",          \
    }

/* Its binary64 twin, a row of the binary64 list (impls/gelu_f64.c), the same name and claims. */
#define RELU64_IMPL(impl_name, isa_id, what)                                                  \
    {                                                                                         \
        .name = impl_name, .method = "relu", .isa = GELU_ISA_##isa_id,                        \
        .target = GELU_TARGET_RELU, .features = GELU_ISA_FEATURES_##isa_id,                   \
        .format = GELU_FORMAT_BINARY64, .forward_f64 = relu_forward_f64,                      \
        .derivative_f64 = relu_derivative_f64,                                                \
        .contract = {.max_ulp = 0.0, .max_abs = 0.0, .monotone = true, .specials = true,     \
                     .grad_max_ulp = 0.0, .grad_max_abs = 0.0},                               \
        .origin = "max(x, 0) in binary64, " what ": the baseline of the binary64 benchmark", \
    }

#endif
