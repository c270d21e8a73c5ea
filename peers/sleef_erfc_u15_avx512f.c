/* sleef_erfc_u15_avx512f (peers/sleef.c): GELU(x) = x·Φ(x), Φ(x) = ½·erfc(−x·√½), with SLEEF's
 * Sleef_erfcf16_u15avx512f (AVX-512F, 16 lanes) in binary32; derivative Φ(x) + x·φ(x) with SLEEF's
 * expf. Kernels and contract (set from the exhaustive run, the same as the other ISA's):
 * sleef_gelu_kernels.h. */
#define SLEEF_LANES 16
#define SLEEF_PHI(v) (0.5f * Sleef_erfcf16_u15avx512f(-(v) * sleef_sqrt1_2))
#define SLEEF_EXP(v) Sleef_expf16_u10avx512f(v)
#include "sleef_gelu_kernels.h"

const gelucheck_impl_v1 sleef_peer_erfc_u15_avx512f =
    SLEEF_GELU_IMPL("sleef_erfc_u15_avx512f", "sleef_erfc_u15", "avx512f", "avx2,fma,avx512f",
                    SLEEF_ERFC_U15_CONTRACT,
                    "Φ = ½·erfc(−x·√½) with SLEEF erfcf (1.5 ULP), AVX-512F", SLEEF_ERFC_KNOWN_AS);
