/* SLEEF's double erf (u10) and erfc (u15), AVX2, 4 lanes: the binary64 rows sleef_erf_u10_avx2 and
 * sleef_erfc_u15_avx2 (peers/sleef.c; kernels and contracts in sleef_f64_kernels.h). */
#define SLEEF_D_LANES 4
#define SLEEF_D_ERF(v) Sleef_erfd4_u10avx2(v)
#define SLEEF_D_ERFC(v) Sleef_erfcd4_u15avx2(v)
#define SLEEF_D_EXP(v) Sleef_expd4_u10avx2(v)
#include "sleef_f64_kernels.h"

const gelucheck_impl_v1 sleef_peer_f64_erfc_u15_avx2 =
    SLEEF_F64_IMPL("sleef_erfc_u15_avx2", "sleef_erfc_u15", "avx2", "avx2,fma", erfc_forward,
                   erfc_derivative, SLEEF_D_ERFC_U15_CONTRACT,
                   "Φ = ½·erfc(−x·√½) with SLEEF erfc (1.5 ULP), AVX2", SLEEF_ERFC_KNOWN_AS);
const gelucheck_impl_v1 sleef_peer_f64_erf_u10_avx2 =
    SLEEF_F64_IMPL("sleef_erf_u10_avx2", "sleef_erf_u10", "avx2", "avx2,fma", erf_forward,
                   erf_derivative, SLEEF_D_ERF_U10_CONTRACT,
                   "Φ = ½·(1 + erf(x·√½)) with SLEEF erf (1.0 ULP), AVX2", SLEEF_ERF_KNOWN_AS);
