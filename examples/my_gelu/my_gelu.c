/* my_gelu: a GELU to verify, as a gelucheck plugin — the template to copy into your own
 * repository. x·Φ(x) = x·erfc(−x/√2)/2 in binary64 from libm, rounded once to binary32, and
 * its derivative Φ(x) + x·φ(x). Replace the two kernels (and the contract) with yours.
 *
 * The contract is what gelucheck's gate holds the kernels to. These are the operations of
 * gelucheck's built-in erfc_f64, and these bounds its contract, measured over all 2^32 inputs
 * (`gelucheck accuracy --impl erfc_f64 --grad`); measure yours the same way with --plugin. */
#include <math.h>

#include <gelucheck/plugin.h>

static void my_forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        y[i] = (float)(0.5 * v * erfc(-v * 0x1.6a09e667f3bcdp-1)); /* √½ */
    }
}

static void my_derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        y[i] = (float)(0.5 * erfc(-v * 0x1.6a09e667f3bcdp-1) +
                       v * (exp(-0.5 * v * v) * 0x1.9884533d43651p-2)); /* 1/√(2π) */
    }
}

static const gelucheck_impl_v1 impls[] = {{
    .size = sizeof(gelucheck_impl_v1),
    .name = "my_gelu",
    .target = "exact",
    .format = "binary32",
    .cpu_features = "",
    .forward = my_forward,
    .derivative = my_derivative,
    .contract = {.max_ulp = 0.502, .max_abs = 2.39e-07, .grad_max_ulp = 0.578,
                 .grad_max_abs = 5.98e-08, .monotone = 1},
    .origin = "examples/my_gelu: libm erfc in binary64, rounded once",
}};

GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void)
{
    static const gelucheck_plugin_info_v1 p = {GELUCHECK_PLUGIN_ABI, 1, impls};
    return &p;
}
