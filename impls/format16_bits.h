/* The conversions between binary32 and the 16-bit formats on their bits, inline so that the
 * widened adapter's loops (impls/widened.c) and the benchmark keep them in registers:
 * widening is exact (NaNs keep sign, quiet bit and payload, shifted up); narrowing rounds to
 * nearest even with gradual underflow and overflow to ±inf, a NaN giving the format's quiet NaN
 * of its sign — the same encodings as gelu_format_round (tests/test_format.c holds them to it at
 * every 16-bit value, midpoint and neighbour, and on 2^20 random binary32 encodings). */
#ifndef GELUCHECK_FORMAT16_BITS_H
#define GELUCHECK_FORMAT16_BITS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline float format16_float(uint32_t w)
{
    float x;
    memcpy(&x, &w, sizeof x);
    return x;
}

/* bfloat16 is binary32's upper half. */
static inline float bfloat16_widen(uint16_t b) { return format16_float((uint32_t)b << 16); }

/* The lower half rounds the upper: + 0x7fff, + 1 more when the kept part is odd (a tie to
 * even); carries run into the exponent (to the next binade, to inf past the largest finite). */
static inline uint16_t bfloat16_narrow(float y)
{
    uint32_t u;
    memcpy(&u, &y, sizeof u);
    uint16_t r = (uint16_t)((u + 0x7fffu + (u >> 16 & 1u)) >> 16);
    uint16_t qnan = (uint16_t)(u >> 16 & 0x8000u) | 0x7fc0u;
    return (u & 0x7fffffffu) > 0x7f800000u ? qnan : r;
}

/* binary16: 5 exponent bits (bias 15), 10 fraction bits. */
static inline float binary16_widen(uint16_t b)
{
    uint32_t sign = (uint32_t)(b & 0x8000u) << 16, e = b & 0x7c00u, m = b & 0x3ffu;
    uint32_t normal = ((uint32_t)(b & 0x7fffu) << 13) + ((127u - 15u) << 23); /* rebiased */
    uint32_t special = 0x7f800000u | m << 13;                                 /* inf, NaN */
    float sub = (float)m * 0x1p-24f;                                          /* exact */
    uint32_t subbits;
    memcpy(&subbits, &sub, sizeof subbits);
    return format16_float(sign | (e == 0x7c00u ? special : e == 0 ? subbits : normal));
}

static inline uint16_t binary16_narrow(float y)
{
    uint32_t u;
    memcpy(&u, &y, sizeof u);
    uint16_t sign = (uint16_t)(u >> 16 & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    uint32_t r = a - ((127u - 15u) << 23); /* rebiased: binary16's fields from bit 13 up */
    uint16_t normal = (uint16_t)((r + 0xfffu + (r >> 13 & 1u)) >> 13);
    /* a multiple of 2^-24 (1024 is 2^-14), from |y| clamped so that every lane's conversion is
     * defined (a NaN clamps to 2^-14) */
    uint16_t sub = (uint16_t)rintf(fminf(fabsf(y), 0x1p-14f) * 0x1p24f);
    uint16_t v = a > 0x7f800000u   ? 0x7e00u  /* NaN */
                 : a >= 0x477ff000u ? 0x7c00u /* 65520, the tie of 65504 and 2^16: inf */
                 : a >= 0x38800000u ? normal  /* 2^-14: binary16's normals */
                                    : sub;
    return sign | v;
}

/* The same conversions over arrays of binary16 with F16C's instructions, bit-identical
 * (impls/format16_f16c.c): built when the compiler takes the AVX2 flags (GELUCHECK_HAVE_AVX2),
 * to be called only where the CPU has F16C (CPU_FEATURE_F16C). */
void binary16_widen_f16c(const uint16_t *x, float *y, size_t n);
void binary16_narrow_f16c(const float *y, uint16_t *x, size_t n);

/* bfloat16's, widening by shifts and narrowing with AVX-512 BF16's vcvtneps2bf16 (its binary32
 * subnormal and NaN lanes rebuilt), bit-identical (impls/format16_avx512bf16.c): built when the
 * compiler takes the avx512 flags and -mavx512bf16 (GELUCHECK_HAVE_AVX512BF16), to be called only
 * where the CPU has AVX-512 F, BW, VL and BF16 (CPU_FEATURE_AVX512BF16). */
void bfloat16_widen_avx512bf16(const uint16_t *x, float *y, size_t n);
void bfloat16_narrow_avx512bf16(const float *y, uint16_t *x, size_t n);

/* binary16's with AVX-512 FP16's vcvtph2psx and vcvtps2phx, their NaN lanes rebuilt, bit-identical
 * (impls/format16_avx512fp16.c; verified bit for bit on Intel Sapphire Rapids): built when the
 * compiler takes the avx512 flags and -mavx512fp16 (GELUCHECK_HAVE_AVX512FP16), to be called only
 * where the CPU has AVX-512 F, BW, VL and FP16 (CPU_FEATURE_AVX512FP16). */
void binary16_widen_avx512fp16(const uint16_t *x, float *y, size_t n);
void binary16_narrow_avx512fp16(const float *y, uint16_t *x, size_t n);

#endif
