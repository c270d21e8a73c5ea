/* The vf_* operations (see vf_scalar.h for their meaning) on 16 binary32 lanes with AVX-512F.
 * Compiled only into the AVX-512 library. */
#ifndef GELUCHECK_VF_AVX512_H
#define GELUCHECK_VF_AVX512_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#define VF_WIDTH 16
/* The AVX-512 library is compiled with F, DQ, BW, VL and FMA: the compiler may use any. */
#define VF_ISA GELU_ISA_AVX512 /* gelu_impl.h's ISA list: this build's ISA and features */
#define VF_FEATURES GELU_ISA_FEATURES_AVX512

typedef __m512 vf;
typedef __m512i vi;

static inline vf vf_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void vf_store(float *p, vf a) { _mm512_storeu_ps(p, a); }
static inline vf vf_set1(float c) { return _mm512_set1_ps(c); }
static inline vf vf_add(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
/* −a as the compiler's float negation (GCC and Clang vector types), which it folds into
 * vfmsub/vfnmadd where an FMA takes it: an xor of the sign bit otherwise, as before. */
static inline vf vf_neg(vf a) { return -a; }
static inline vf vf_abs(vf a) { return _mm512_abs_ps(a); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline vf vf_min_keep_nan(vf c, vf a) { return _mm512_min_ps(c, a); }
static inline vf vf_div(vf a, vf b) { return _mm512_div_ps(a, b); }
static inline vf vf_max_keep_nan(vf c, vf a) { return _mm512_max_ps(c, a); }
static inline vf vf_select_less(vf a, vf c, vf then, vf otherwise)
{
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, c, _CMP_LT_OQ), otherwise, then);
}
static inline vf vf_or_sign(vf a, vf x)
{
    __m512i s = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32((int)0x80000000u));
    return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(a), s));
}
/* x/2 rounded toward +inf: exact for normal results; for subnormal ones (|x| < 2^-125) it breaks
 * the tie of an odd x upward, the way GELU's x/2 + x²/√(2π) does. Embedded rounding here. */
static inline vf vf_half_up(vf x)
{
    return _mm512_mul_round_ps(x, _mm512_set1_ps(0.5f), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
}
static inline vf vf_round(vf a)
{
    return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline vf vf_select_sign(vf x, vf neg, vf pos)
{
    __mmask16 m = _mm512_cmplt_epi32_mask(_mm512_castps_si512(x), _mm512_setzero_si512());
    return _mm512_mask_blend_ps(m, pos, neg);
}
/* vscalefps: a·2^k rounded once, gradual underflow included. A lane whose result underflows
 * (to a subnormal or to 0) costs a microcode assist on Intel cores where FTZ is off: 16 lanes
 * of the tail below −14.4 took 14× the time of the same lanes without it on Sapphire Rapids
 * (gelu_tail.h). VF_SCALE_UNDERFLOW_SLOW tells a caller that can avoid such lanes to. (The
 * AVX2 build's two multiplications and the scalar build's double product showed no such cost.) */
#define VF_SCALE_UNDERFLOW_SLOW 1
static inline vf vf_scale(vf a, vf k) { return _mm512_scalef_ps(a, k); }

static inline vi vf_binade_index(vf a, int bias, int last)
{
    __m512i e = _mm512_srli_epi32(_mm512_castps_si512(a), 23);
    e = _mm512_sub_epi32(e, _mm512_set1_epi32(bias));
    e = _mm512_max_epi32(e, _mm512_setzero_si512());
    return _mm512_min_epi32(e, _mm512_set1_epi32(last));
}
static inline vi vf_interval_index(vf a, float scale, int last)
{
    __m512i i = _mm512_cvttps_epi32(_mm512_mul_ps(a, _mm512_set1_ps(scale)));
    return _mm512_min_epu32(i, _mm512_set1_epi32(last)); /* NaN converts to 0x80000000 */
}
static inline vf vf_lookup(const float table[16], vi i)
{
    return _mm512_permutexvar_ps(i, _mm512_loadu_ps(table));
}
static inline vi vf_piece_index(vf a, float scale, float offset, int last)
{
    __m512i i = _mm512_cvttps_epi32(_mm512_fmadd_round_ps(a, _mm512_set1_ps(scale), _mm512_set1_ps(offset),
                                                          _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
    return _mm512_min_epu32(i, _mm512_set1_epi32(last)); /* negative, NaN: above last unsigned */
}
/* 32 entries: one two-table permute (vpermt2ps). */
typedef __mmask16 vm;
static inline vm vf_less_mask(vf a, vf c) { return _mm512_cmp_ps_mask(a, c, _CMP_LT_OQ); }
static inline unsigned vf_mask_count(vm m) { return (unsigned)__builtin_popcount(m); }
static inline vm vf_differ_mask(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ); }
/* vf_pack writes the marked lanes of a to xs, packed (a whole vector is written), and returns
 * their count; vf_unpack gives y with the marked lanes replaced, in order, by rs[0], rs[1], ….
 * Compress and expand in registers (to and from memory they are slow on some AMD cores). */
#define VF_PACKS 1
static inline unsigned vf_pack(vf a, vm m, float *xs)
{
    _mm512_storeu_ps(xs, _mm512_maskz_compress_ps(m, a));
    return vf_mask_count(m);
}
static inline vf vf_unpack(vf y, vm m, const float *rs)
{
    return _mm512_mask_expand_ps(y, m, _mm512_loadu_ps(rs));
}
static inline vf vf_lookup32(const float table[32], vi i)
{
    return _mm512_permutex2var_ps(_mm512_loadu_ps(table), i, _mm512_loadu_ps(table + 16));
}

/* Binary64 halves (see vf_scalar.h): 8 doubles each. */
typedef __m512d vd;
typedef __m512i vdi;
#define VF_HALVES 2
static inline void vf_split(vf a, vd *lo, vd *hi)
{
    *lo = _mm512_cvtps_pd(_mm512_castps512_ps256(a));
    *hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(a, 1));
}
static inline vf vf_join(vd lo, vd hi)
{
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
}
static inline vd vd_set1(double c) { return _mm512_set1_pd(c); }
static inline vd vd_add(vd a, vd b) { return _mm512_add_pd(a, b); }
static inline vd vd_sub(vd a, vd b) { return _mm512_sub_pd(a, b); }
static inline vd vd_mul(vd a, vd b) { return _mm512_mul_pd(a, b); }
static inline vd vd_div(vd a, vd b) { return _mm512_div_pd(a, b); }
static inline vd vd_fma(vd a, vd b, vd c) { return _mm512_fmadd_pd(a, b, c); }
static inline vd vd_neg(vd a)
{
    return _mm512_castsi512_pd(
        _mm512_xor_si512(_mm512_castpd_si512(a), _mm512_set1_epi64((long long)0x8000000000000000ull)));
}
static inline vd vd_abs(vd a) { return _mm512_abs_pd(a); }
static inline vd vd_min_keep_nan(vd c, vd a) { return _mm512_min_pd(c, a); }
static inline vd vd_round(vd a)
{
    return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline vd vd_select_sign(vd x, vd neg, vd pos)
{
    __mmask8 m = _mm512_cmplt_epi64_mask(_mm512_castpd_si512(x), _mm512_setzero_si512());
    return _mm512_mask_blend_pd(m, pos, neg);
}
static inline vd vd_select_less(vd a, vd c, vd then, vd otherwise)
{
    return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, c, _CMP_LT_OQ), otherwise, then);
}
static inline vd vd_scale(vd a, vd k) { return _mm512_scalef_pd(a, k); }
static inline vdi vd_binade_index(vd a, int bias, int last)
{
    __m512i e = _mm512_srli_epi64(_mm512_castpd_si512(a), 52);
    e = _mm512_sub_epi64(e, _mm512_set1_epi64(bias));
    e = _mm512_max_epi64(e, _mm512_setzero_si512());
    return _mm512_min_epi64(e, _mm512_set1_epi64(last));
}
static inline vd vd_lookup(const double table[8], vdi i)
{
    return _mm512_permutexvar_pd(i, _mm512_loadu_pd(table));
}

/* 16-piece tables (see vf_scalar.h): f + 2^52 holds f in its low mantissa bits, and the
 * two-table permute reads only the low 4 bits of each index. */
static inline vd vd_floor(vd a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
static inline vdi vd_index16(vd f) { return _mm512_castpd_si512(_mm512_add_pd(f, _mm512_set1_pd(0x1p52))); }
static inline vd vd_lookup16(const double table[16], vdi i)
{
    return _mm512_permutex2var_pd(_mm512_loadu_pd(table), i, _mm512_loadu_pd(table + 8));
}
static inline unsigned vf_count_differ(vf a, vf b)
{
    return (unsigned)__builtin_popcount(_mm512_cmp_ps_mask(a, b, _CMP_NEQ_OQ));
}

#endif
