/* The vf_* operations (see vf_scalar.h for their meaning) on 8 binary32 lanes with AVX2 and FMA.
 * Compiled only into the AVX2 library (-mavx2 -mfma). */
#ifndef GELUCHECK_VF_AVX2_H
#define GELUCHECK_VF_AVX2_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#define VF_WIDTH 8
#define VF_ISA GELU_ISA_AVX2 /* gelu_impl.h's ISA list: this build's ISA and features */
#define VF_FEATURES GELU_ISA_FEATURES_AVX2

typedef __m256 vf;
typedef __m256i vi;

static inline vf vf_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void vf_store(float *p, vf a) { _mm256_storeu_ps(p, a); }
static inline vf vf_set1(float c) { return _mm256_set1_ps(c); }
static inline vf vf_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf vf_neg(vf a) { return -a; } /* folded into FMAs, see vf_avx512.h */
static inline vf vf_abs(vf a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline vf vf_min_keep_nan(vf c, vf a) { return _mm256_min_ps(c, a); }
static inline vf vf_div(vf a, vf b) { return _mm256_div_ps(a, b); }
static inline vf vf_max_keep_nan(vf c, vf a) { return _mm256_max_ps(c, a); }
static inline vf vf_select_less(vf a, vf c, vf then, vf otherwise)
{
    return _mm256_blendv_ps(otherwise, then, _mm256_cmp_ps(a, c, _CMP_LT_OQ));
}
static inline vf vf_or_sign(vf a, vf x)
{
    return _mm256_or_ps(a, _mm256_and_ps(x, _mm256_set1_ps(-0.0f)));
}
/* x/2 rounded toward +inf (see vf_avx512.h). Below 2^-125 the halving is done on the encoding:
 * (|x| + 1) >> 1 for x > 0 and |x| >> 1 for x < 0, sign kept; elsewhere x/2 is exact. */
static inline vf vf_half_up(vf x)
{
    __m256i b = _mm256_castps_si256(x);
    __m256i mag = _mm256_and_si256(b, _mm256_set1_epi32(0x7fffffff));
    __m256i up = _mm256_srli_epi32(_mm256_add_epi32(mag, _mm256_set1_epi32(1)), 1);
    __m256i down = _mm256_srli_epi32(mag, 1);
    __m256i r = _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(up), _mm256_castsi256_ps(down), x)); /* by sign */
    r = _mm256_or_si256(r, _mm256_andnot_si256(_mm256_set1_epi32(0x7fffffff), b));
    __m256 small = _mm256_cmp_ps(vf_abs(x), _mm256_set1_ps(0x1p-125f), _CMP_LT_OQ);
    return _mm256_blendv_ps(_mm256_mul_ps(x, _mm256_set1_ps(0.5f)), _mm256_castsi256_ps(r), small);
}
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
static inline vi vf_interval_index(vf a, float scale, int last)
{
    __m256i i = _mm256_cvttps_epi32(_mm256_mul_ps(a, _mm256_set1_ps(scale)));
    return _mm256_min_epu32(i, _mm256_set1_epi32(last)); /* NaN converts to 0x80000000 */
}
static inline vf vf_lookup(const float table[16], vi i)
{
    return _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), i);
}
static inline vi vf_piece_index(vf a, float scale, float offset, int last)
{
    __m256 s = _mm256_fmadd_ps(a, _mm256_set1_ps(scale), _mm256_set1_ps(offset));
    /* rounded up onto an integer: the exact value is below it (the residual is exact there) */
    __m256 below = _mm256_and_ps(
        _mm256_cmp_ps(s, _mm256_floor_ps(s), _CMP_EQ_OQ),
        _mm256_cmp_ps(_mm256_fmadd_ps(a, _mm256_set1_ps(scale), _mm256_sub_ps(_mm256_set1_ps(offset), s)),
                      _mm256_setzero_ps(), _CMP_LT_OQ));
    __m256i i = _mm256_add_epi32(_mm256_cvttps_epi32(s), _mm256_castps_si256(below)); /* −1 */
    return _mm256_min_epu32(i, _mm256_set1_epi32(last)); /* negative, NaN: above last unsigned */
}
typedef unsigned vm; /* lane bits */
static inline vm vf_less_mask(vf a, vf c) { return (vm)_mm256_movemask_ps(_mm256_cmp_ps(a, c, _CMP_LT_OQ)); }
static inline unsigned vf_mask_count(vm m) { return (unsigned)__builtin_popcount(m); }
static inline vm vf_differ_mask(vf a, vf b) { return (vm)_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_NEQ_UQ)); }
/* vf_pack and vf_unpack (see vf_avx512.h) by one vpermps each, its 8 indices 4-bit fields of a
 * word looked up by the mask (AVX2 has no compress): vf_pack_index[m] puts the marked lanes
 * first (field j: the lane of m's j-th set bit), vf_unpack_index[m] sends them back (field b:
 * how many marked lanes lie below lane b). vpermps reads the low 3 bits of each field. */
#define VF_PACKS 1
#define VF_BIT(m, b) (((m) >> (b)) & 1u)
#define VF_BELOW(m, b) /* set bits of m below bit b */                                           \
    (VF_BIT(m, 0) * ((b) > 0) + VF_BIT(m, 1) * ((b) > 1) + VF_BIT(m, 2) * ((b) > 2) +             \
     VF_BIT(m, 3) * ((b) > 3) + VF_BIT(m, 4) * ((b) > 4) + VF_BIT(m, 5) * ((b) > 5) +             \
     VF_BIT(m, 6) * ((b) > 6))
#define VF_PACK_FIELD(m, b) (VF_BIT(m, b) * ((uint32_t)(b) << (4 * VF_BELOW(m, b))))
#define VF_UNPACK_FIELD(m, b) ((uint32_t)VF_BELOW(m, b) << (4 * (b)))
#define VF_FIELDS(F, m)                                                                          \
    (F(m, 0) | F(m, 1) | F(m, 2) | F(m, 3) | F(m, 4) | F(m, 5) | F(m, 6) | F(m, 7))
#define VF_ROW4(F, m) VF_FIELDS(F, m), VF_FIELDS(F, (m) + 1), VF_FIELDS(F, (m) + 2), VF_FIELDS(F, (m) + 3)
#define VF_ROW16(F, m) VF_ROW4(F, m), VF_ROW4(F, (m) + 4), VF_ROW4(F, (m) + 8), VF_ROW4(F, (m) + 12)
#define VF_ROW64(F, m) VF_ROW16(F, m), VF_ROW16(F, (m) + 16), VF_ROW16(F, (m) + 32), VF_ROW16(F, (m) + 48)
static const uint32_t vf_pack_index[256] = {VF_ROW64(VF_PACK_FIELD, 0), VF_ROW64(VF_PACK_FIELD, 64),
                                            VF_ROW64(VF_PACK_FIELD, 128), VF_ROW64(VF_PACK_FIELD, 192)};
static const uint32_t vf_unpack_index[256] = {
    VF_ROW64(VF_UNPACK_FIELD, 0), VF_ROW64(VF_UNPACK_FIELD, 64), VF_ROW64(VF_UNPACK_FIELD, 128),
    VF_ROW64(VF_UNPACK_FIELD, 192)};
static inline __m256i vf_fields(uint32_t w)
{
    return _mm256_srlv_epi32(_mm256_set1_epi32((int)w), _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
}
static inline unsigned vf_pack(vf a, vm m, float *xs)
{
    _mm256_storeu_ps(xs, _mm256_permutevar8x32_ps(a, vf_fields(vf_pack_index[m])));
    return vf_mask_count(m);
}
static inline vf vf_unpack(vf y, vm m, const float *rs)
{
    __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i marked = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)m), bits), bits);
    vf r = _mm256_permutevar8x32_ps(_mm256_loadu_ps(rs), vf_fields(vf_unpack_index[m]));
    return _mm256_blendv_ps(y, r, _mm256_castsi256_ps(marked));
}
/* 32 entries: four 8-entry permutes, chosen by bits 3 and 4 of i (shifted into the sign bit,
 * which blendv reads). VF_LOOKUP32_COSTLY: 4 vpermps (one port) and 3 blends a table, so a
 * method with many tables may rather run them only on the elements that need them
 * (pw_precise.h). */
#define VF_LOOKUP32_COSTLY 1
static inline vf vf_lookup32(const float table[32], vi i)
{
    __m256 bit3 = _mm256_castsi256_ps(_mm256_slli_epi32(i, 28));
    __m256 bit4 = _mm256_castsi256_ps(_mm256_slli_epi32(i, 27));
    __m256 lo = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(table), i),
                                 _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + 8), i), bit3);
    __m256 hi = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(table + 16), i),
                                 _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + 24), i), bit3);
    return _mm256_blendv_ps(lo, hi, bit4);
}

/* Binary64 halves (see vf_scalar.h): 4 doubles each. */
typedef __m256d vd;
typedef __m256i vdi;
#define VF_HALVES 2
static inline void vf_split(vf a, vd *lo, vd *hi)
{
    *lo = _mm256_cvtps_pd(_mm256_castps256_ps128(a));
    *hi = _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1));
}
static inline vf vf_join(vd lo, vd hi)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1);
}
static inline vd vd_set1(double c) { return _mm256_set1_pd(c); }
static inline vd vd_add(vd a, vd b) { return _mm256_add_pd(a, b); }
static inline vd vd_sub(vd a, vd b) { return _mm256_sub_pd(a, b); }
static inline vd vd_mul(vd a, vd b) { return _mm256_mul_pd(a, b); }
static inline vd vd_div(vd a, vd b) { return _mm256_div_pd(a, b); }
static inline vd vd_fma(vd a, vd b, vd c) { return _mm256_fmadd_pd(a, b, c); }
static inline vd vd_neg(vd a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }
static inline vd vd_abs(vd a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
static inline vd vd_min_keep_nan(vd c, vd a) { return _mm256_min_pd(c, a); }
static inline vd vd_round(vd a)
{
    return _mm256_round_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline vd vd_select_sign(vd x, vd neg, vd pos) { return _mm256_blendv_pd(pos, neg, x); }
static inline vd vd_select_less(vd a, vd c, vd then, vd otherwise)
{
    return _mm256_blendv_pd(otherwise, then, _mm256_cmp_pd(a, c, _CMP_LT_OQ));
}
/* 2^k built in the exponent field: k + 1023 + 2^52 holds k + 1023 in its low mantissa bits. */
static inline vd vd_scale(vd a, vd k)
{
    vd biased = _mm256_add_pd(k, _mm256_set1_pd(0x1p52 + 1023.0));
    __m256i e = _mm256_slli_epi64(_mm256_castpd_si256(biased), 52);
    return _mm256_mul_pd(a, _mm256_castsi256_pd(e));
}
/* Small integers in 64-bit lanes clamp correctly with the 32-bit max/min (the high half is 0
 * or −1 and goes to 0 with the low half). */
static inline vdi vd_binade_index(vd a, int bias, int last)
{
    __m256i e = _mm256_srli_epi64(_mm256_castpd_si256(a), 52);
    e = _mm256_sub_epi64(e, _mm256_set1_epi64x(bias));
    e = _mm256_max_epi32(e, _mm256_setzero_si256());
    return _mm256_min_epi32(e, _mm256_set1_epi64x(last));
}
/* table[i] for i in 0..4, without a gather (slow): entries 0..3 by a float permute of the four
 * doubles (lanes 2i and 2i+1), entry 4 by a blend. The index arithmetic is shared between
 * lookups with the same i once inlined. */
static inline vd vd_lookup(const double table[8], vdi i)
{
    __m256i even = _mm256_slli_epi64(i, 1);
    __m256i odd = _mm256_slli_epi64(_mm256_add_epi64(even, _mm256_set1_epi64x(1)), 32);
    __m256 t = _mm256_permutevar8x32_ps(_mm256_castpd_ps(_mm256_loadu_pd(table)),
                                        _mm256_or_si256(even, odd));
    __m256i is4 = _mm256_cmpeq_epi64(i, _mm256_set1_epi64x(4));
    return _mm256_blendv_pd(_mm256_castps_pd(t), _mm256_set1_pd(table[4]), _mm256_castsi256_pd(is4));
}

/* 16-piece tables (see vf_scalar.h): f + 2^52 holds f in its low mantissa bits (masked to 4
 * bits), then a gather. */
static inline vd vd_floor(vd a) { return _mm256_round_pd(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
static inline vdi vd_index16(vd f)
{
    return _mm256_and_si256(_mm256_castpd_si256(_mm256_add_pd(f, _mm256_set1_pd(0x1p52))),
                            _mm256_set1_epi64x(15));
}
static inline vd vd_lookup16(const double table[16], vdi i) { return _mm256_i64gather_pd(table, i, 8); }
static inline unsigned vf_count_differ(vf a, vf b)
{
    return (unsigned)__builtin_popcount(_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_NEQ_OQ)));
}

#endif
