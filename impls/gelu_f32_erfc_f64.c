/* erfc_f64: GELU(x) = 0.5·x·erfc(−x·√½) computed in binary64 with libm's erfc, rounded once to
 * binary32. Derivative: 0.5·erfc(−x·√½) + x·exp(−x²/2)/√(2π) in binary64, rounded once
 * (kernels: erfc_f64_kernels.h).
 *
 * The double evaluation carries ~29 bits more than binary32 needs, so the only binary32 error is
 * the final rounding (plus rare double-rounding cases next to a midpoint). −inf gives NaN
 * (−inf·0). */
#include "gelu_impl.h"

#define ERFC_F64(z) erfc(z)
#include "erfc_f64_kernels.h"

const gelu_impl gelu_impl_erfc_f64 = {
    .name = "erfc_f64",
    .method = "erfc_f64",
    .isa = GELU_ISA_PORTABLE,
    .target = GELU_TARGET_EXACT,
    .features = 0,
    .forward = erfc_f64_forward,
    .derivative = erfc_f64_derivative,
    .contract = {
        .max_ulp = 0.502,
        .max_abs = 2.39e-07,
        .monotone = true,
        .specials = false,
        .grad_max_ulp = 0.578,
        .grad_max_abs = 5.98e-08,
    },
    .origin = "x·Φ(x) as 0.5·x·erfc(−x/√2) in double with libm erfc, rounded once to float",
    .family = GELU_FAMILY_LIBM_GSL,
    .known_as = GELU_KNOWN_AS_THROUGH_ERFC,
};
