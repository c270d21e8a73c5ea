/* bfloat16 ↔ binary32 array conversions with AVX-512: narrowing by AVX-512 BF16's vcvtneps2bf16,
 * widening by a 16-bit shift, 16 lanes at a time (a masked last step for the tail), bit-identical
 * to the portable ones of format16_bits.h at every input — held to them by tests/test_format.c
 * (every bfloat16 value and every midpoint with its neighbours, all binary32 subnormals, NaNs of
 * every payload class, ±inf, ±0, the overflow threshold, 2^24 random encodings; all 2^32
 * narrowings compared once, 6.4 s of CPU: GELUCHECK_BF16_EXHAUSTIVE=1 build/tests/test_format
 * --filter 'format/avx512bf16_narrowing_exhaustive'). Built with the avx512 flags and
 * -mavx512bf16; the widened adapter (widened.c) calls it around AVX-512 builds only, where the CPU
 * has AVX-512 F, BW, VL and BF16.
 *
 * vcvtneps2bf16 rounds to nearest even by the same integer sum as bfloat16_narrow (u + 0x7fff +
 * bit 16 of u, upper half kept) for normals and ±inf, without consulting MXCSR. It differs in two
 * classes (Intel SDM vol. 2A, "VCVTNEPS2BF16—Convert Packed Single Data to Packed BF16 Data",
 * its convert_fp32_to_bfloat16: "input denormals are always treated as zero"; a NaN keeps its
 * upper half with the quiet bit set):
 *   - binary32 subnormals give ±0 there, where the portable narrowing rounds them to bfloat16's
 *     own subnormals (down to 2^-133) or up to its smallest normal 2^-126: GELU(x) ≈ x/2 is
 *     subnormal for |x| < 2^-125, so a scan of GELU meets them;
 *   - a NaN keeps the top 7 bits of its payload there, where the portable narrowing gives the
 *     quiet NaN 0x7fc0 of its sign.
 * A step of 16 lanes with either class in it (rare: a branch on the mask) redoes those lanes by
 * the portable integer sum. Widening needs no fix-up: a shift keeps every encoding, NaNs' too. */
#include <immintrin.h>

#include "format16_avx512_loops.h"
#include "format16_bits.h"

/* 16 bfloat16 encodings to binary32: exact, a shift. */
static inline __m512 widen16(__m256i b)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(b), 16));
}

/* 16 binary32 values (as bits) to bfloat16, to nearest even: the instruction, its subnormal and
 * NaN lanes rebuilt. */
static inline __m256i narrow16(__m512 y)
{
    __m256i r = (__m256i)_mm512_cvtneps_pbh(y);
    __m512i u = _mm512_castps_si512(y);
    __m512i a = _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff));
    /* a − 1 < 0x7fffff: a in [1, 0x7fffff], the subnormals (a − 1 wraps for ±0) */
    __mmask16 sub = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(a, _mm512_set1_epi32(1)),
                                           _mm512_set1_epi32(0x7fffff));
    __mmask16 nan = _mm512_cmpgt_epu32_mask(a, _mm512_set1_epi32(0x7f800000));
    if (sub | nan) {
        /* bfloat16_narrow's sum on every lane, its NaNs' quiet NaN, then kept where needed */
        __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
        __m512i rne = _mm512_srli_epi32(
            _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), odd), 16);
        __m512i qnan = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(u, 16),
                                                        _mm512_set1_epi32(0x8000)),
                                       _mm512_set1_epi32(0x7fc0));
        rne = _mm512_mask_mov_epi32(rne, nan, qnan);
        r = _mm256_mask_mov_epi16(r, sub | nan, _mm512_cvtepi32_epi16(rne));
    }
    return r;
}

FORMAT16_AVX512_LOOPS(bfloat16_widen_avx512bf16, bfloat16_narrow_avx512bf16)
