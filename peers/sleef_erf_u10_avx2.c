/* sleef_erf_u10_avx2 (peers/sleef.c): GELU(x) = x·Φ(x), Φ(x) = ½·(1 + erf(x·√½)), with SLEEF's
 * Sleef_erff8_u10avx2 (AVX2, 8 lanes) in binary32; derivative Φ(x) + x·φ(x) with SLEEF's expf.
 * Kernels and contract (set from the exhaustive run, the same as the other ISA's):
 * sleef_gelu_kernels.h. */
#define SLEEF_LANES 8
#define SLEEF_PHI(v) (0.5f * (1.0f + Sleef_erff8_u10avx2((v) * sleef_sqrt1_2)))
#define SLEEF_EXP(v) Sleef_expf8_u10avx2(v)
#include "sleef_gelu_kernels.h"

const gelucheck_impl_v1 sleef_peer_erf_u10_avx2 =
    SLEEF_GELU_IMPL("sleef_erf_u10_avx2", "sleef_erf_u10", "avx2", "avx2,fma",
                    SLEEF_ERF_U10_CONTRACT,
                    "Φ = ½·(1 + erf(x·√½)) with SLEEF erff (1.0 ULP), AVX2", SLEEF_ERF_KNOWN_AS);
