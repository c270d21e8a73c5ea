/* binary16 ↔ binary32 array conversions with F16C's vcvtph2ps and vcvtps2ph (round to nearest
 * even from the instruction's immediate, whatever MXCSR's rounding mode), bit-identical to the
 * portable ones of format16_bits.h at every input: widening all 65,536 encodings, narrowing
 * every binary32 value a kernel can give — held to them by tests/test_format.c (every encoding,
 * every value, midpoint and neighbour of a midpoint, NaNs of every payload class, binary32
 * subnormals, the overflow threshold, 2^20 random encodings). Built with the AVX2 flags and
 * -mf16c; the widened adapter (widened.c) calls it only where the CPU has F16C.
 *
 * Where the instructions differ from the portable conversions, NaNs, their lanes are rebuilt:
 * vcvtph2ps quiets a signalling NaN, where the portable widening keeps the encoding's quiet bit
 * and payload (shifted up 13 bits); vcvtps2ph keeps a NaN's payload's top bits, where the
 * portable narrowing gives the quiet NaN 0x7e00 of the NaN's sign. Everything else — subnormals
 * both ways, ties to even, overflow to ±inf from 65520 up, binary32 subnormals to ±0 — is the
 * instructions' own rounding, the same as the portable one. */
#include <immintrin.h>

#include "format16_bits.h"

/* 8 encodings to binary32. */
static inline __m256 widen8(__m128i h)
{
    __m256i w = _mm256_cvtepu16_epi32(h);
    __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(w, _mm256_set1_epi32(0x7fff)),
                                     _mm256_set1_epi32(0x7c00));
    __m256i sign = _mm256_slli_epi32(_mm256_and_si256(w, _mm256_set1_epi32(0x8000)), 16);
    __m256i payload = _mm256_slli_epi32(_mm256_and_si256(w, _mm256_set1_epi32(0x3ff)), 13);
    __m256i nan_bits = _mm256_or_si256(_mm256_or_si256(sign, payload), _mm256_set1_epi32(0x7f800000));
    return _mm256_blendv_ps(_mm256_cvtph_ps(h), _mm256_castsi256_ps(nan_bits),
                            _mm256_castsi256_ps(nan));
}

/* 8 binary32 values to encodings, rounded to nearest even (immediate 0). A NaN in gives a NaN
 * out of the same sign, and only a NaN does: the NaN lanes are those of the result. */
static inline __m128i narrow8(__m256 y)
{
    __m128i h = _mm256_cvtps_ph(y, _MM_FROUND_TO_NEAREST_INT);
    __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, _mm_set1_epi16(0x7fff)), _mm_set1_epi16(0x7c00));
    __m128i quiet = _mm_or_si128(_mm_and_si128(h, _mm_set1_epi16((short)0x8000)), _mm_set1_epi16(0x7e00));
    return _mm_blendv_epi8(h, quiet, nan);
}

void binary16_widen_f16c(const uint16_t *x, float *y, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, widen8(_mm_loadu_si128((const __m128i *)(x + i))));
    for (; i < n; i++) y[i] = binary16_widen(x[i]);
}

void binary16_narrow_f16c(const float *y, uint16_t *x, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(x + i), narrow8(_mm256_loadu_ps(y + i)));
    for (; i < n; i++) x[i] = binary16_narrow(y[i]);
}
