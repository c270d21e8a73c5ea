/* cr_sigmoid: the sigmoid form of GELU, x·σ(1.702x) (HF quick_gelu, the decimal as a real
 * number), and its derivative, correctly rounded to binary32 at every input: target `sigmoid`,
 * the algorithm of cr_sigma.h with t(x) = 1.702x. Include after a vf_<isa>.h
 * (gelu_f32_cr_sigmoid*.c do). */
#ifndef GELUCHECK_CR_SIGMOID_H
#define GELUCHECK_CR_SIGMOID_H

#include "cr_sigma.h"

/* u_max = 72: f(x) rounds to x and f'(x) to 1 from x = 32 on, both to −0 from −72 down
 * (reference/targets.c), so clamping |x| at 72 changes no rounded result; t(72) = 122.5. */
static const cr_sigma_form cr_sigmoid_form = {
    .c1 = cr_sigmoid_c1, .c3 = 0.0, .c3x3 = 0.0, .cubic = false, .u_max = 72.0,
    .c1_l = cr_sigmoid_c1_l, .c3_l = 0.0L,
    .hard_x = {cr_sigmoid_hard_fwd_x, cr_sigmoid_hard_der_x},
    .hard_y = {cr_sigmoid_hard_fwd_y, cr_sigmoid_hard_der_y},
    .hard_n = {CR_SIGMOID_HARD_FWD_N, CR_SIGMOID_HARD_DER_N},
};

#define CR_SIGMOID_IMPL(impl_name)                                                             \
    CR_SIGMA_IMPL(impl_name, &cr_sigmoid_form, GELU_TARGET_SIGMOID, cr_sigmoid_forward_array,  \
                  cr_sigmoid_derivative_array,                                                 \
                  "x·σ(1.702x) correctly rounded: binary64 fast path, rounding test, x87 expl " \
                  "path, hard cases by exhaustive search")

#endif
