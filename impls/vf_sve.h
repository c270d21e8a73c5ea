/* The vf_* operations (see vf_scalar.h for their meaning) with AArch64's SVE at a fixed vector
 * length: compiled with -msve-vector-bits=N (N = 128, 256 or 512, __ARM_FEATURE_SVE_BITS), which
 * makes the vectors ordinary sized types of N/32 binary32 lanes, so the vf methods and
 * vf_array.h compile unchanged. A build assumes the CPU's vector length is exactly N (the exec
 * child checks it before serving one: cross/exec_vf.c). Each operation rounds as the portable
 * one does; where an SVE instruction differs on NaN or an edge (FCVTZS turns NaN into 0), the
 * operation is written as compares and selects following vf_scalar.h. Binary64 halves are the
 * even and the odd lanes (SVE's widening conversions read the even ones). */
#ifndef GELUCHECK_VF_SVE_H
#define GELUCHECK_VF_SVE_H

#include <arm_sve.h>
#include <stdbool.h>
#include <stdint.h>

#if !defined(__ARM_FEATURE_SVE_BITS) || __ARM_FEATURE_SVE_BITS == 0
#error "vf_sve.h needs -msve-vector-bits=128, 256 or 512"
#elif __ARM_FEATURE_SVE_BITS == 128
#define VF_ISA GELU_ISA_SVE128 /* gelu_impl.h's ISA list: this build's ISA and features */
#define VF_FEATURES GELU_ISA_FEATURES_SVE128
#elif __ARM_FEATURE_SVE_BITS == 256
#define VF_ISA GELU_ISA_SVE256
#define VF_FEATURES GELU_ISA_FEATURES_SVE256
#elif __ARM_FEATURE_SVE_BITS == 512
#define VF_ISA GELU_ISA_SVE512
#define VF_FEATURES GELU_ISA_FEATURES_SVE512
#else
#error "vf_sve.h is built for 128, 256 or 512 bits"
#endif
#define VF_WIDTH (__ARM_FEATURE_SVE_BITS / 32)
#define VF_SVE_FIXED __attribute__((arm_sve_vector_bits(__ARM_FEATURE_SVE_BITS)))

typedef svfloat32_t vf VF_SVE_FIXED;
typedef svint32_t vi VF_SVE_FIXED;
typedef svuint32_t vf_u VF_SVE_FIXED;
typedef svbool_t vm VF_SVE_FIXED; /* marked lanes */

#define VF_ALL svptrue_b32()
static inline vf_u vf_bits(vf a) { return svreinterpret_u32_f32(a); }
static inline vf vf_from_bits(vf_u b) { return svreinterpret_f32_u32(b); }
/* Lanes whose sign bit is set. */
static inline vm vf_signed(vf x) { return svcmplt_n_s32(VF_ALL, svreinterpret_s32_f32(x), 0); }

static inline vf vf_load(const float *p) { return svld1_f32(VF_ALL, p); }
static inline void vf_store(float *p, vf a) { svst1_f32(VF_ALL, p, a); }
static inline vf vf_set1(float c) { return svdup_n_f32(c); }
static inline vf vf_add(vf a, vf b) { return svadd_f32_x(VF_ALL, a, b); }
static inline vf vf_sub(vf a, vf b) { return svsub_f32_x(VF_ALL, a, b); }
static inline vf vf_mul(vf a, vf b) { return svmul_f32_x(VF_ALL, a, b); }
static inline vf vf_neg(vf a) { return svneg_f32_x(VF_ALL, a); }
static inline vf vf_abs(vf a) { return svabs_f32_x(VF_ALL, a); }
static inline vf vf_fma(vf a, vf b, vf c) { return svmla_f32_x(VF_ALL, c, a, b); } /* c + a·b, once rounded */
static inline vf vf_min_keep_nan(vf c, vf a) { return svsel_f32(svcmpgt_f32(VF_ALL, a, c), c, a); }
static inline vf vf_div(vf a, vf b) { return svdiv_f32_x(VF_ALL, a, b); }
static inline vf vf_max_keep_nan(vf c, vf a) { return svsel_f32(svcmplt_f32(VF_ALL, a, c), c, a); }
static inline vf vf_select_less(vf a, vf c, vf then, vf otherwise)
{
    return svsel_f32(svcmplt_f32(VF_ALL, a, c), then, otherwise);
}
static inline vf vf_or_sign(vf a, vf x)
{
    return vf_from_bits(svorr_u32_x(VF_ALL, vf_bits(a), svand_n_u32_x(VF_ALL, vf_bits(x), 0x80000000u)));
}
/* x/2 rounded toward +inf: the encoding arithmetic of vf_avx2.h below 2^-125, x·0.5 elsewhere. */
static inline vf vf_half_up(vf x)
{
    vf_u mag = svand_n_u32_x(VF_ALL, vf_bits(x), 0x7fffffffu);
    vf_u up = svlsr_n_u32_x(VF_ALL, svadd_n_u32_x(VF_ALL, mag, 1), 1);
    vf_u down = svlsr_n_u32_x(VF_ALL, mag, 1);
    vf_u r = svorr_u32_x(VF_ALL, svsel_u32(vf_signed(x), down, up),
                         svand_n_u32_x(VF_ALL, vf_bits(x), 0x80000000u));
    vm small = svcmplt_n_f32(VF_ALL, vf_abs(x), 0x1p-125f);
    return svsel_f32(small, vf_from_bits(r), vf_mul(x, vf_set1(0.5f)));
}
static inline vf vf_round(vf a) { return svrintn_f32_x(VF_ALL, a); } /* ties to even: rintf */
static inline vf vf_select_sign(vf x, vf neg, vf pos) { return svsel_f32(vf_signed(x), neg, pos); }
/* a·2^k as vf_avx2.h: 2^(k/2) and 2^(k − k/2), both normal, only the second product rounding.
 * A NaN k converts to 0 (FCVTZS): a unchanged, as in vf_scalar.h. */
static inline vf vf_scale(vf a, vf k)
{
    vi ki = svcvt_s32_f32_x(VF_ALL, k); /* k is integral */
    vi k1 = svasr_n_s32_x(VF_ALL, ki, 1);
    vi k2 = svsub_s32_x(VF_ALL, ki, k1);
    vf s1 = svreinterpret_f32_s32(svlsl_n_s32_x(VF_ALL, svadd_n_s32_x(VF_ALL, k1, 127), 23));
    vf s2 = svreinterpret_f32_s32(svlsl_n_s32_x(VF_ALL, svadd_n_s32_x(VF_ALL, k2, 127), 23));
    return vf_mul(vf_mul(a, s1), s2);
}

static inline vi vf_binade_index(vf a, int bias, int last)
{
    vi e = svreinterpret_s32_u32(svlsr_n_u32_x(VF_ALL, vf_bits(a), 23));
    e = svsub_n_s32_x(VF_ALL, e, bias);
    return svmin_n_s32_x(VF_ALL, svmax_n_s32_x(VF_ALL, e, 0), last);
}
static inline vi vf_interval_index(vf a, float scale, int last)
{
    vf s = vf_mul(a, vf_set1(scale));
    return svsel_s32(svcmplt_n_f32(VF_ALL, s, (float)last), svcvt_s32_f32_x(VF_ALL, s), svdup_n_s32(last));
}
static inline vf vf_lookup(const float table[16], vi i) { return svld1_gather_s32index_f32(VF_ALL, table, i); }
/* The piece: floor of the exact a·scale + offset as vf_scalar.h computes it — the FMA stepped
 * down one encoding when it rounded up onto an integer — min(·, last), last outside (−1, last). */
static inline vi vf_piece_index(vf a, float scale, float offset, int last)
{
    vf s = vf_fma(a, vf_set1(scale), vf_set1(offset));
    vf residual = vf_fma(a, vf_set1(scale), vf_sub(vf_set1(offset), s));
    vm below = svand_b_z(VF_ALL, svcmpeq_f32(VF_ALL, s, svrintm_f32_x(VF_ALL, s)),
                         svcmplt_n_f32(VF_ALL, residual, 0.0f));
    /* nextafterf(s, -inf) of an integral s: one encoding down for s > 0, up in magnitude for
     * s < 0, the least negative subnormal for s = ±0 */
    vf_u sb = vf_bits(s);
    vf_u stepped = svsel_u32(svcmpgt_n_f32(VF_ALL, s, 0.0f), svsub_n_u32_x(VF_ALL, sb, 1),
                             svadd_n_u32_x(VF_ALL, sb, 1));
    stepped = svsel_u32(svcmpeq_n_f32(VF_ALL, s, 0.0f), svdup_n_u32(0x80000001u), stepped);
    s = vf_from_bits(svsel_u32(below, stepped, sb));
    vm inside = svand_b_z(VF_ALL, svcmpgt_n_f32(VF_ALL, s, -1.0f), svcmplt_n_f32(VF_ALL, s, (float)last));
    return svsel_s32(inside, svcvt_s32_f32_x(VF_ALL, s), svdup_n_s32(last));
}
static inline vm vf_less_mask(vf a, vf c) { return svcmplt_f32(VF_ALL, a, c); }
static inline unsigned vf_mask_count(vm m) { return (unsigned)svcntp_b32(VF_ALL, m); }
static inline vm vf_differ_mask(vf a, vf b) { return svnot_b_z(VF_ALL, svcmpeq_f32(VF_ALL, a, b)); }
static inline vf vf_lookup32(const float table[32], vi i) { return svld1_gather_s32index_f32(VF_ALL, table, i); }

/* Binary64 halves (see vf_scalar.h): the even lanes and the odd lanes, N/64 doubles each. */
typedef svfloat64_t vd VF_SVE_FIXED;
typedef svint64_t vdi VF_SVE_FIXED;
#define VD_ALL svptrue_b64()
#define VF_HALVES 2
static inline void vf_split(vf a, vd *lo, vd *hi)
{
    *lo = svcvt_f64_f32_x(VD_ALL, a);                  /* lanes 0, 2, 4, … */
    *hi = svcvt_f64_f32_x(VD_ALL, svtrn2_f32(a, a));   /* lanes 1, 3, 5, … */
}
static inline vf vf_join(vd lo, vd hi)
{
    return svtrn1_f32(svcvt_f32_f64_x(VD_ALL, lo), svcvt_f32_f64_x(VD_ALL, hi));
}
static inline vd vd_set1(double c) { return svdup_n_f64(c); }
static inline vd vd_add(vd a, vd b) { return svadd_f64_x(VD_ALL, a, b); }
static inline vd vd_sub(vd a, vd b) { return svsub_f64_x(VD_ALL, a, b); }
static inline vd vd_mul(vd a, vd b) { return svmul_f64_x(VD_ALL, a, b); }
static inline vd vd_div(vd a, vd b) { return svdiv_f64_x(VD_ALL, a, b); }
static inline vd vd_fma(vd a, vd b, vd c) { return svmla_f64_x(VD_ALL, c, a, b); }
static inline vd vd_neg(vd a) { return svneg_f64_x(VD_ALL, a); }
static inline vd vd_abs(vd a) { return svabs_f64_x(VD_ALL, a); }
static inline vd vd_min_keep_nan(vd c, vd a) { return svsel_f64(svcmpgt_f64(VD_ALL, a, c), c, a); }
static inline vd vd_round(vd a) { return svrintn_f64_x(VD_ALL, a); }
static inline vd vd_select_sign(vd x, vd neg, vd pos)
{
    return svsel_f64(svcmplt_n_s64(VD_ALL, svreinterpret_s64_f64(x), 0), neg, pos);
}
static inline vd vd_select_less(vd a, vd c, vd then, vd otherwise)
{
    return svsel_f64(svcmplt_f64(VD_ALL, a, c), then, otherwise);
}
/* 2^k built in the exponent field (2^k normal); a NaN k converts to 0: a unchanged. */
static inline vd vd_scale(vd a, vd k)
{
    vdi e = svlsl_n_s64_x(VD_ALL, svadd_n_s64_x(VD_ALL, svcvt_s64_f64_x(VD_ALL, k), 1023), 52);
    return vd_mul(a, svreinterpret_f64_s64(e));
}
static inline vdi vd_binade_index(vd a, int bias, int last)
{
    vdi e = svreinterpret_s64_u64(svlsr_n_u64_x(VD_ALL, svreinterpret_u64_f64(a), 52));
    e = svsub_n_s64_x(VD_ALL, e, bias);
    return svmin_n_s64_x(VD_ALL, svmax_n_s64_x(VD_ALL, e, 0), last);
}
static inline vd vd_lookup(const double table[8], vdi i) { return svld1_gather_s64index_f64(VD_ALL, table, i); }

/* 16-piece tables (see vf_scalar.h). */
static inline vd vd_floor(vd a) { return svrintm_f64_x(VD_ALL, a); }
static inline vdi vd_index16(vd f)
{
    svbool_t inside = svand_b_z(VD_ALL, svcmpge_n_f64(VD_ALL, f, 0.0), svcmplt_n_f64(VD_ALL, f, 16.0));
    return svsel_s64(inside, svcvt_s64_f64_x(VD_ALL, f), svdup_n_s64(0));
}
static inline vd vd_lookup16(const double table[16], vdi i) { return svld1_gather_s64index_f64(VD_ALL, table, i); }
static inline unsigned vf_count_differ(vf a, vf b)
{
    return (unsigned)svcntp_b32(VF_ALL, svorr_b_z(VF_ALL, svcmplt_f32(VF_ALL, a, b), svcmpgt_f32(VF_ALL, a, b)));
}

#endif
