/* erf and erfc of small arguments, |z| < 0.84375, as inline code without calls, so that the
 * fast reference's block path (fast_vec.c: a chunk of points at a time) computes them in loops
 * the compiler vectorizes where it called libm per point.
 *
 * The method is fdlibm's (Sun Microsystems, 1993, as glibc 2.36 carries it in
 * sysdeps/ieee754/dbl-64/s_erf.c, Debian 12's libm): erf(z) = z + z·R(z²) with R = P/Q, P of
 * degree 4 and Q of degree 5 in z², their published coefficients below, evaluated as glibc 2.36
 * evaluates them (P's and Q's terms paired by powers z², z⁴, then summed left to right);
 * erfc(z) = 1 − (z + z·R) for z < 1/4 and ½ − (z·R + (z − ½)) above; for |z| < 2^-28
 * erf(z) = z + efx·z. Every operation rounded once, in this order, with no contraction into FMA
 * (the reference library's flags: -ffp-contract=off): the same bits as glibc 2.36's erf and erfc
 * on those arguments, compared at every argument the scan passes them (docs/DESIGN.md, "The fast
 * reference a block at a time"). The fast reference's accuracy assumptions (fast_eval.h: erfc
 * ≤ 8 ULP, erf ≤ 4 ULP) are checked against MPFR by tests/test_fast_reference.c as before.
 *
 * Both the point path (fast.c) and the block path use these where their domain holds and libm
 * elsewhere, so that the two give the same bits with any libm. */
#ifndef GELUCHECK_ERF_SMALL_H
#define GELUCHECK_ERF_SMALL_H

#include <stdbool.h>
#include <stdint.h>

#include "float_bits.h"

/* The coefficients (fdlibm's s_erf.c: efx, pp[0..4], qq[1..5]) */
static const double ERF_EFX = 0x1.06eba8214db69p-3;
static const double ERF_PP0 = 0x1.06eba8214db68p-3, ERF_PP1 = -0x1.4cd7d691cb913p-2,
                    ERF_PP2 = -0x1.d2a51dbd7194fp-6, ERF_PP3 = -0x1.7a291236668e4p-8,
                    ERF_PP4 = -0x1.8ead6120016acp-16;
static const double ERF_QQ1 = 0x1.97779cddadc09p-2, ERF_QQ2 = 0x1.0a54c5536cebap-4,
                    ERF_QQ3 = 0x1.4d022c4d36b0fp-8, ERF_QQ4 = 0x1.15dc9221c1a10p-13,
                    ERF_QQ5 = -0x1.09c4342a26120p-18;

/* The high 32 bits of |z|'s encoding, which fdlibm's branches compare. */
static inline uint32_t erf_small_word(double z)
{
    return (uint32_t)(double_bits(z) >> 32) & 0x7fffffffu;
}

/* The domains where the functions below hold: erf 2^-1015 ≤ |z| < 0.84375 (below, fdlibm
 * scales against a spurious underflow), erfc 2^-56 ≤ |z| < 0.84375; NaN and ±inf outside. */
static inline bool erf_small_in(double z)
{
    uint32_t w = erf_small_word(z);
    return (w >= 0x00800000u) & (w < 0x3feb0000u);
}

static inline bool erfc_small_in(double z)
{
    uint32_t w = erf_small_word(z);
    return (w >= 0x3c700000u) & (w < 0x3feb0000u);
}

/* R(z²) = P/Q. */
static inline double erf_small_r(double z)
{
    double zz = z * z;
    double r1 = ERF_PP0 + zz * ERF_PP1, z2 = zz * zz;
    double r2 = ERF_PP2 + zz * ERF_PP3, z4 = z2 * z2;
    double s1 = 1.0 + zz * ERF_QQ1;
    double s2 = ERF_QQ2 + zz * ERF_QQ3;
    double s3 = ERF_QQ4 + zz * ERF_QQ5;
    double r = r1 + z2 * r2 + z4 * ERF_PP4;
    double s = s1 + z2 * s2 + z4 * s3;
    return r / s;
}

/* erf(z) for z in erf_small_in's domain (selections, not branches: both forms are computed). */
static inline double erf_small(double z)
{
    double y = erf_small_r(z);
    double tiny = z + ERF_EFX * z, small = z + z * y;
    return erf_small_word(z) < 0x3e300000u ? tiny : small; /* |z| < 2^-28 */
}

/* erfc(z) for z in erfc_small_in's domain. */
static inline double erfc_small(double z)
{
    double y = erf_small_r(z);
    double below = 1.0 - (z + z * y);     /* z < 1/4 (negative z too) */
    double above = 0.5 - (z * y + (z - 0.5));
    return z < 0.25 ? below : above;
}

#endif
