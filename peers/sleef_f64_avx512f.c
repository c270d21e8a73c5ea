/* SLEEF's double erf (u10) and erfc (u15), AVX-512F, 8 lanes: the binary64 rows
 * sleef_erf_u10_avx512f and sleef_erfc_u15_avx512f (peers/sleef.c; kernels and contracts in
 * sleef_f64_kernels.h). */
#define SLEEF_D_LANES 8
#define SLEEF_D_ERF(v) Sleef_erfd8_u10avx512f(v)
#define SLEEF_D_ERFC(v) Sleef_erfcd8_u15avx512f(v)
#define SLEEF_D_EXP(v) Sleef_expd8_u10avx512f(v)
#include "sleef_f64_kernels.h"

const gelucheck_impl_v1 sleef_peer_f64_erfc_u15_avx512f =
    SLEEF_F64_IMPL("sleef_erfc_u15_avx512f", "sleef_erfc_u15", "avx512f", "avx512f,avx2,fma",
                   erfc_forward, erfc_derivative, SLEEF_D_ERFC_U15_CONTRACT,
                   "Φ = ½·erfc(−x·√½) with SLEEF erfc (1.5 ULP), AVX-512F", SLEEF_ERFC_KNOWN_AS);
const gelucheck_impl_v1 sleef_peer_f64_erf_u10_avx512f =
    SLEEF_F64_IMPL("sleef_erf_u10_avx512f", "sleef_erf_u10", "avx512f", "avx512f,avx2,fma",
                   erf_forward, erf_derivative, SLEEF_D_ERF_U10_CONTRACT,
                   "Φ = ½·(1 + erf(x·√½)) with SLEEF erf (1.0 ULP), AVX-512F", SLEEF_ERF_KNOWN_AS);
