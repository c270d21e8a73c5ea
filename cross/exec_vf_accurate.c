/* The accurate paths of cr_tanh and cr_sigmoid (impls/cr_sigma.h) on every input, as rows of the
 * cross build's exec child: cr_tanh_accurate_path, cr_sigmoid_accurate_path.
 *
 * Their builds send only the lanes whose binary64 fast path cannot decide the rounding to the
 * accurate path, a few hundred of the 2^32 inputs per form and direction (docs/DESIGN.md), so a
 * sample of the builds almost never reaches it. That path is written in long double: x87's
 * 64-bit significand on x86-64, where the hard cases of impls/cr_sigma_hard_cases.h were
 * searched, but binary128 (glibc's software expl) on AArch64. These rows run it on every input,
 * so that a sample judges the AArch64 path itself against MPFR: each is correctly rounded where
 * its rounding test passes (the bound of cr_sigma.h holds in binary128: its roundings are
 * smaller), and it fails at a random input with a probability of about 2^-34·(T + 1) ≤ 2^-27
 * (an interval of 2·2^-58·(T + 1) of the result around a rounding boundary 2^-23 of it apart),
 * where the x87 hard cases no longer apply and the result is the path's own rounding. */
#define VF_METHOD "cr_tanh" /* unused: the rows below name their own method */
#include "vf_scalar.h"

#include "cr_sigmoid.h"
#include "cr_tanh.h"

#define ACCURATE_ROW(form_name, method_name, target_id)                                        \
    static void form_name##_accurate_forward(const float *x, float *y, size_t n)             \
    {                                                                                        \
        for (size_t i = 0; i < n; i++) y[i] = cr_sigma_accurate(&form_name##_form, false, x[i]); \
    }                                                                                        \
    static void form_name##_accurate_derivative(const float *x, float *y, size_t n)          \
    {                                                                                        \
        for (size_t i = 0; i < n; i++) y[i] = cr_sigma_accurate(&form_name##_form, true, x[i]); \
    }                                                                                        \
    extern const gelu_impl gelu_impl_##form_name##_accurate_path;                            \
    const gelu_impl gelu_impl_##form_name##_accurate_path = {                                \
        .name = #form_name "_accurate_path",                                                 \
        .method = method_name,                                                               \
        .isa = GELU_ISA_PORTABLE,                                                            \
        .target = target_id,                                                                 \
        .features = GELU_ISA_FEATURES_PORTABLE,                                              \
        .forward = form_name##_accurate_forward,                                             \
        .derivative = form_name##_accurate_derivative,                                       \
        .contract = {.max_ulp = INFINITY, .max_abs = INFINITY, .monotone = true,             \
                     .specials = true, .grad_max_ulp = INFINITY, .grad_max_abs = INFINITY,   \
                     .correctly_rounded = true},                                             \
        .origin = "the accurate path of " method_name " alone, long double (check row)",     \
    }

ACCURATE_ROW(cr_tanh, "cr_tanh", GELU_TARGET_TANH);
ACCURATE_ROW(cr_sigmoid, "cr_sigmoid", GELU_TARGET_SIGMOID);
