/* The array loops of a 16-bit format's AVX-512 conversions (format16_avx512bf16.c,
 * format16_avx512fp16.c): 16 lanes at a time, then one masked step for the tail, so that no lane
 * past n is read or written. The including file defines, before expanding the macro,
 *   static inline __m512 widen16(__m256i encodings);   16 encodings to binary32
 *   static inline __m256i narrow16(__m512 values);     16 binary32 values to encodings
 * with the instructions of its own CPU feature (the files are built with different flags). */
#ifndef GELUCHECK_FORMAT16_AVX512_LOOPS_H
#define GELUCHECK_FORMAT16_AVX512_LOOPS_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define FORMAT16_AVX512_LOOPS(widen_name, narrow_name)                                           \
    void widen_name(const uint16_t *x, float *y, size_t n)                                       \
    {                                                                                            \
        size_t i = 0;                                                                            \
        for (; i + 16 <= n; i += 16)                                                             \
            _mm512_storeu_ps(y + i, widen16(_mm256_loadu_si256((const __m256i *)(x + i))));     \
        if (i < n) {                                                                             \
            __mmask16 k = (__mmask16)((1u << (n - i)) - 1);                                      \
            _mm512_mask_storeu_ps(y + i, k, widen16(_mm256_maskz_loadu_epi16(k, x + i)));        \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    void narrow_name(const float *y, uint16_t *x, size_t n)                                      \
    {                                                                                            \
        size_t i = 0;                                                                            \
        for (; i + 16 <= n; i += 16)                                                             \
            _mm256_storeu_si256((__m256i *)(x + i), narrow16(_mm512_loadu_ps(y + i)));           \
        if (i < n) {                                                                             \
            __mmask16 k = (__mmask16)((1u << (n - i)) - 1);                                      \
            _mm256_mask_storeu_epi16(x + i, k, narrow16(_mm512_maskz_loadu_ps(k, y + i)));       \
        }                                                                                        \
    }

#endif
