/* SLEEF's AArch64 builds as rows of the cross build's exec child (cross/exec_vf.c): GELU as
 * x·Φ(x) in binary32 on SLEEF's erfcf (1.5 ULP) or erff (1.0 ULP), the kernels and contracts of
 * the x86 SLEEF peer (peers/sleef_gelu_kernels.h), here on Debian's libsleef for arm64
 * (libsleef-dev:arm64): its AdvSIMD functions (Sleef_erfcf4_u15advsimd, 4 lanes) and its
 * vector-length-agnostic SVE ones (Sleef_erfcfx_u15sve), the latter called on vectors of one
 * fixed length per build (-msve-vector-bits, as impls/vf_sve.h). The contracts are the x86 rows'
 * (set from their exhaustive runs): the gate says whether AArch64's SLEEF keeps them.
 *
 * Compiled once per function and ISA (cross/meson.build): PEER_SLEEF_ERFC (else erf), and the
 * ISA from the compiler's flags (SVE when __ARM_FEATURE_SVE_BITS is set, else AdvSIMD). */
#include <math.h>

#include "gelu_impl.h"

#if defined(__ARM_FEATURE_SVE_BITS) && __ARM_FEATURE_SVE_BITS > 0
#include <arm_sve.h>
#define SLEEF_LANES (__ARM_FEATURE_SVE_BITS / 32)
typedef svfloat32_t peer_sve __attribute__((arm_sve_vector_bits(__ARM_FEATURE_SVE_BITS)));
/* SLEEF's SVE function f on a GNU vector of this build's length */
#define PEER_CALL(f, v) ((sleef_vec)f((peer_sve)(v)))
#define PEER_ERFC(v) PEER_CALL(Sleef_erfcfx_u15sve, v)
#define PEER_ERF(v) PEER_CALL(Sleef_erffx_u10sve, v)
#define SLEEF_EXP(v) PEER_CALL(Sleef_expfx_u10sve, v)
#if __ARM_FEATURE_SVE_BITS == 128
#define PEER_ISA GELU_ISA_SVE128
#define PEER_ISA_NAME "sve128"
#elif __ARM_FEATURE_SVE_BITS == 256
#define PEER_ISA GELU_ISA_SVE256
#define PEER_ISA_NAME "sve256"
#else
#define PEER_ISA GELU_ISA_SVE512
#define PEER_ISA_NAME "sve512"
#endif
#else
#define SLEEF_LANES 4
#define PEER_ERFC(v) ((sleef_vec)Sleef_erfcf4_u15advsimd(v))
#define PEER_ERF(v) ((sleef_vec)Sleef_erff4_u10advsimd(v))
#define SLEEF_EXP(v) ((sleef_vec)Sleef_expf4_u10advsimd(v))
#define PEER_ISA GELU_ISA_NEON
#define PEER_ISA_NAME "advsimd"
#endif

#ifdef PEER_SLEEF_ERFC
#define SLEEF_PHI(v) (0.5f * PEER_ERFC(-(v) * sleef_sqrt1_2))
#define PEER_METHOD "sleef_erfc_u15"
#define PEER_CONTRACT SLEEF_ERFC_U15_CONTRACT
#define PEER_WHAT "Φ = ½·erfc(−x·√½) with SLEEF erfcf (1.5 ULP), AArch64 " PEER_ISA_NAME
#define PEER_KNOWN_AS SLEEF_ERFC_KNOWN_AS
#else
#define SLEEF_PHI(v) (0.5f * (1.0f + PEER_ERF((v) * sleef_sqrt1_2)))
#define PEER_METHOD "sleef_erf_u10"
#define PEER_CONTRACT SLEEF_ERF_U10_CONTRACT
#define PEER_WHAT "Φ = ½·(1 + erf(x·√½)) with SLEEF erff (1.0 ULP), AArch64 " PEER_ISA_NAME
#define PEER_KNOWN_AS SLEEF_ERF_KNOWN_AS
#endif
#include "sleef_gelu_kernels.h"

#define PEER_ROW_(method, isa) gelu_impl_##method##_##isa
#define PEER_ROW(method, isa) PEER_ROW_(method, isa)
const gelu_impl PEER_ROW(PEER_ROW_METHOD, PEER_ROW_ISA) = {
    .name = PEER_METHOD "_" PEER_ISA_NAME,
    .method = PEER_METHOD,
    .isa = PEER_ISA,
    .target = GELU_TARGET_EXACT,
    .forward = sleef_gelu_forward,
    .derivative = sleef_gelu_derivative,
    .contract = PEER_CONTRACT,
    .origin = "peer: x·Φ(x), " PEER_WHAT,
    .family = GELU_FAMILY_SIMD_LIBRARY,
    .known_as = PEER_KNOWN_AS,
};
