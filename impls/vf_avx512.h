/* The vf_* operations (see vf_scalar.h for their meaning) on 16 binary32 lanes with AVX-512F.
 * Compiled only into the AVX-512 library. */
#ifndef GELUCHECK_VF_AVX512_H
#define GELUCHECK_VF_AVX512_H

#include <immintrin.h>

#define VF_WIDTH 16
/* The AVX-512 library is compiled with F, DQ, BW, VL and FMA: the compiler may use any. */
#define VF_FEATURES                                                                            \
    (CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512DQ | CPU_FEATURE_AVX512BW | CPU_FEATURE_AVX512VL | \
     CPU_FEATURE_FMA)

typedef __m512 vf;
typedef __m512i vi;

static inline vf vf_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void vf_store(float *p, vf a) { _mm512_storeu_ps(p, a); }
static inline vf vf_set1(float c) { return _mm512_set1_ps(c); }
static inline vf vf_add(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
static inline vf vf_neg(vf a)
{
    return _mm512_castsi512_ps(
        _mm512_xor_si512(_mm512_castps_si512(a), _mm512_set1_epi32((int)0x80000000u)));
}
static inline vf vf_abs(vf a) { return _mm512_abs_ps(a); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline vf vf_min_keep_nan(vf c, vf a) { return _mm512_min_ps(c, a); }
static inline vf vf_round(vf a)
{
    return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline vf vf_select_sign(vf x, vf neg, vf pos)
{
    __mmask16 m = _mm512_cmplt_epi32_mask(_mm512_castps_si512(x), _mm512_setzero_si512());
    return _mm512_mask_blend_ps(m, pos, neg);
}
/* vscalefps: a·2^k rounded once, gradual underflow included. */
static inline vf vf_scale(vf a, vf k) { return _mm512_scalef_ps(a, k); }

static inline vi vf_binade_index(vf a, int bias, int last)
{
    __m512i e = _mm512_srli_epi32(_mm512_castps_si512(a), 23);
    e = _mm512_sub_epi32(e, _mm512_set1_epi32(bias));
    e = _mm512_max_epi32(e, _mm512_setzero_si512());
    return _mm512_min_epi32(e, _mm512_set1_epi32(last));
}
static inline vf vf_lookup(const float table[16], vi i)
{
    return _mm512_permutexvar_ps(i, _mm512_loadu_ps(table));
}

#endif
