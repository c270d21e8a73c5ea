/* binary16 ↔ binary32 array conversions with AVX-512 FP16's vcvtph2psx and vcvtps2phx, 16 lanes at
 * a time (a masked last step for the tail), meant to be bit-identical to the portable ones of
 * format16_bits.h at every input. NOT YET RUN on any CPU: this project's machine (AMD Zen 4) has
 * no avx512_fp16. tests/test_format.c ('format/avx512fp16_conversions_are_the_portable_ones')
 * holds them to the portable ones wherever the CPU has it — every binary16 encoding widened,
 * every value, midpoint and midpoint's neighbour narrowed, binary32 subnormals, NaNs of every
 * payload class, the overflow threshold, 2^20 random encodings, under MXCSR's defaults and under
 * FTZ+DAZ — and is skipped with a message elsewhere. Built with the avx512 flags and
 * -mavx512fp16; the widened adapter (widened.c) calls it around AVX-512 builds only, where the CPU
 * has AVX-512 F, BW, VL and FP16, unless GELUCHECK_NO_FP16=1.
 *
 * The conversions are those of F16C's vcvtph2ps / vcvtps2ph (Intel SDM vol. 2C, "VCVTPH2PS/
 * VCVTPH2PSX" and "VCVTPS2PHX"): widening is exact, narrowing rounds to nearest even, here by
 * embedded rounding ({rn-sae}) rather than MXCSR.RC, so the caller's rounding mode does not
 * matter. As with F16C, the instructions are taken to differ from the portable conversions at
 * NaNs only, and those lanes are rebuilt: a signalling NaN widened keeps its quiet bit and
 * payload here (the instruction would quiet it), a narrowed NaN becomes the quiet NaN 0x7e00 of
 * its sign (the instruction keeps the payload's top bits). */
#include <immintrin.h>

#include "format16_avx512_loops.h"
#include "format16_bits.h"

/* 16 encodings to binary32. */
static inline __m512 widen16(__m256i h)
{
    __m512 w = _mm512_cvtxph_ps(_mm256_castsi256_ph(h));
    __m512i u = _mm512_cvtepu16_epi32(h);
    __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fff)),
                                            _mm512_set1_epi32(0x7c00));
    if (nan) {
        __m512i sign = _mm512_slli_epi32(_mm512_and_si512(u, _mm512_set1_epi32(0x8000)), 16);
        __m512i payload = _mm512_slli_epi32(_mm512_and_si512(u, _mm512_set1_epi32(0x3ff)), 13);
        __m512i bits =
            _mm512_or_si512(_mm512_or_si512(sign, payload), _mm512_set1_epi32(0x7f800000));
        w = _mm512_mask_mov_ps(w, nan, _mm512_castsi512_ps(bits));
    }
    return w;
}

/* 16 binary32 values to encodings, rounded to nearest even. A NaN in gives a NaN out of the same
 * sign, and only a NaN does: the NaN lanes are those of the result. */
static inline __m256i narrow16(__m512 y)
{
    __m256i h = _mm256_castph_si256(
        _mm512_cvtx_roundps_ph(y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    __mmask16 nan = _mm256_cmpgt_epu16_mask(_mm256_and_si256(h, _mm256_set1_epi16(0x7fff)),
                                            _mm256_set1_epi16(0x7c00));
    __m256i quiet = _mm256_or_si256(_mm256_and_si256(h, _mm256_set1_epi16((short)0x8000)),
                                    _mm256_set1_epi16(0x7e00));
    return _mm256_mask_mov_epi16(h, nan, quiet);
}

FORMAT16_AVX512_LOOPS(binary16_widen_avx512fp16, binary16_narrow_avx512fp16)
