/* The SLEEF peer (plugin gelucheck_peer_sleef.so): GELU as x·Φ(x) in binary32 on SLEEF's
 * vectorized erfcf (1.5 ULP) and erff (1.0 ULP), and in binary64 on its erfc and erf (the
 * binary64 rows, sleef_f64_kernels.h), each built for AVX2 and AVX-512F, through the public
 * plugin ABI (include/gelucheck/plugin.h). The kernels and contracts are in
 * sleef_gelu_kernels.h, one file per function and ISA (compiled with that ISA's flags); this
 * file describes them, in the order the report lists them. gelucheck runs a build only on a CPU
 * with its features. */
#include "gelucheck/plugin.h"

extern const gelucheck_impl_v1 sleef_peer_erfc_u15_avx2, sleef_peer_erf_u10_avx2,
    sleef_peer_erfc_u15_avx512f, sleef_peer_erf_u10_avx512f, sleef_peer_f64_erfc_u15_avx2,
    sleef_peer_f64_erf_u10_avx2, sleef_peer_f64_erfc_u15_avx512f, sleef_peer_f64_erf_u10_avx512f;

GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void)
{
    static gelucheck_impl_v1 impls[8];
    static gelucheck_plugin_info_v1 info = {GELUCHECK_PLUGIN_ABI, 8, impls};
    impls[0] = sleef_peer_erfc_u15_avx2;
    impls[1] = sleef_peer_erf_u10_avx2;
    impls[2] = sleef_peer_erfc_u15_avx512f;
    impls[3] = sleef_peer_erf_u10_avx512f;
    impls[4] = sleef_peer_f64_erfc_u15_avx2; /* binary64 */
    impls[5] = sleef_peer_f64_erf_u10_avx2;
    impls[6] = sleef_peer_f64_erfc_u15_avx512f;
    impls[7] = sleef_peer_f64_erf_u10_avx512f;
    return &info;
}
