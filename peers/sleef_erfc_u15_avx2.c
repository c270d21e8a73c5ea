/* sleef_erfc_u15_avx2 (peers/sleef.c): GELU(x) = x·Φ(x), Φ(x) = ½·erfc(−x·√½), with SLEEF's
 * Sleef_erfcf8_u15avx2 (AVX2, 8 lanes) in binary32; derivative Φ(x) + x·φ(x) with SLEEF's expf.
 * Kernels and contract (set from the exhaustive run, the same as the other ISA's):
 * sleef_gelu_kernels.h. */
#define SLEEF_LANES 8
#define SLEEF_PHI(v) (0.5f * Sleef_erfcf8_u15avx2(-(v) * sleef_sqrt1_2))
#define SLEEF_EXP(v) Sleef_expf8_u10avx2(v)
#include "sleef_gelu_kernels.h"

const gelucheck_impl_v1 sleef_peer_erfc_u15_avx2 =
    SLEEF_GELU_IMPL("sleef_erfc_u15_avx2", "sleef_erfc_u15", "avx2", "avx2,fma",
                    SLEEF_ERFC_U15_CONTRACT,
                    "Φ = ½·erfc(−x·√½) with SLEEF erfcf (1.5 ULP), AVX2", SLEEF_ERFC_KNOWN_AS);
