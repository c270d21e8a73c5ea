/* sleef_erf_u10_avx512f (peers/sleef.c): GELU(x) = x·Φ(x), Φ(x) = ½·(1 + erf(x·√½)), with SLEEF's
 * Sleef_erff16_u10avx512f (AVX-512F, 16 lanes) in binary32; derivative Φ(x) + x·φ(x) with SLEEF's
 * expf. Kernels and contract (set from the exhaustive run, the same as the other ISA's):
 * sleef_gelu_kernels.h. */
#define SLEEF_LANES 16
#define SLEEF_PHI(v) (0.5f * (1.0f + Sleef_erff16_u10avx512f((v) * sleef_sqrt1_2)))
#define SLEEF_EXP(v) Sleef_expf16_u10avx512f(v)
#include "sleef_gelu_kernels.h"

const gelucheck_impl_v1 sleef_peer_erf_u10_avx512f =
    SLEEF_GELU_IMPL("sleef_erf_u10_avx512f", "sleef_erf_u10", "avx512f", "avx2,fma,avx512f",
                    SLEEF_ERF_U10_CONTRACT,
                    "Φ = ½·(1 + erf(x·√½)) with SLEEF erff (1.0 ULP), AVX-512F", SLEEF_ERF_KNOWN_AS);
