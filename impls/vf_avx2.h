/* The vf_* operations (see vf_scalar.h for their meaning) on 8 binary32 lanes with AVX2 and FMA.
 * Compiled only into the AVX2 library (-mavx2 -mfma). */
#ifndef GELUCHECK_VF_AVX2_H
#define GELUCHECK_VF_AVX2_H

#include <immintrin.h>

#define VF_WIDTH 8
#define VF_FEATURES (CPU_FEATURE_AVX2 | CPU_FEATURE_FMA)

typedef __m256 vf;
typedef __m256i vi;

static inline vf vf_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void vf_store(float *p, vf a) { _mm256_storeu_ps(p, a); }
static inline vf vf_set1(float c) { return _mm256_set1_ps(c); }
static inline vf vf_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf vf_neg(vf a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
static inline vf vf_abs(vf a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline vf vf_min_keep_nan(vf c, vf a) { return _mm256_min_ps(c, a); }
static inline vf vf_round(vf a)
{
    return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline vf vf_select_sign(vf x, vf neg, vf pos) { return _mm256_blendv_ps(pos, neg, x); }

/* a·2^k in two exact-or-once-rounded steps: 2^(k/2) and 2^(k − k/2) are both normal for
 * k ≥ −252, and the first product stays normal, so only the second can round. */
static inline vf vf_scale(vf a, vf k)
{
    __m256i ki = _mm256_cvtps_epi32(k);
    __m256i k1 = _mm256_srai_epi32(ki, 1);
    __m256i k2 = _mm256_sub_epi32(ki, k1);
    __m256i bias = _mm256_set1_epi32(127);
    vf s1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k1, bias), 23));
    vf s2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k2, bias), 23));
    return _mm256_mul_ps(_mm256_mul_ps(a, s1), s2);
}

static inline vi vf_binade_index(vf a, int bias, int last)
{
    __m256i e = _mm256_srli_epi32(_mm256_castps_si256(a), 23);
    e = _mm256_sub_epi32(e, _mm256_set1_epi32(bias));
    e = _mm256_max_epi32(e, _mm256_setzero_si256());
    return _mm256_min_epi32(e, _mm256_set1_epi32(last));
}
/* Tables have 16 entries; AVX2 looks up the first 8 (indices must be below 8). */
static inline vf vf_lookup(const float table[16], vi i)
{
    return _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), i);
}

#endif
