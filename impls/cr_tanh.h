/* cr_tanh: the tanh form of GELU, ½x(1 + tanh(√(2/π)(x + 0.044715x³))) (PyTorch
 * approximate='tanh', the decimal as a real number), and its derivative, correctly rounded to
 * binary32 at every input: target `tanh`, the algorithm of cr_sigma.h with t(x) = 2√(2/π)·
 * (x + 0.044715x³). Include after a vf_<isa>.h (gelu_f32_cr_tanh*.c do). */
#ifndef GELUCHECK_CR_TANH_H
#define GELUCHECK_CR_TANH_H

#include "cr_sigma.h"

/* u_max = 11: f(x) rounds to x and f'(x) to 1 from x = 10 on, both to −0 from −11 down
 * (reference/targets.c), so clamping |x| at 11 changes no rounded result; t(11) = 112.6. */
static const cr_sigma_form cr_tanh_form = {
    .c1 = cr_tanh_c1, .c3 = cr_tanh_c3, .c3x3 = cr_tanh_3c3, .cubic = true, .u_max = 11.0,
    .c1_l = cr_tanh_c1_l, .c3_l = cr_tanh_c3_l,
    .hard_x = {cr_tanh_hard_fwd_x, cr_tanh_hard_der_x},
    .hard_y = {cr_tanh_hard_fwd_y, cr_tanh_hard_der_y},
    .hard_n = {CR_TANH_HARD_FWD_N, CR_TANH_HARD_DER_N},
};

#define CR_TANH_IMPL(impl_name)                                                                \
    CR_SIGMA_IMPL(impl_name, &cr_tanh_form, GELU_TARGET_TANH, cr_tanh_forward_array,           \
                  cr_tanh_derivative_array,                                                    \
                  "tanh form x·σ(t) correctly rounded: binary64 fast path, rounding test, x87 " \
                  "expl path, hard cases by exhaustive search")

#endif
