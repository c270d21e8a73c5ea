/* The vf_* operations (see vf_scalar.h for their meaning) on 4 binary32 lanes with AArch64's
 * Advanced SIMD (NEON), binary64 halves of 2 lanes. Compiled only by an AArch64 build (the
 * cross build of cross/meson.build); each operation rounds as the portable one does, so a vf
 * method built here gives the portable build's bits (docs/aarch64.md says how that is checked).
 * Where the vector instruction differs from the portable operation on NaN or on an edge (FCVTZS
 * turns NaN into 0, FMIN/FMAX pick a NaN from either side), the operation is written as compares
 * and selects that follow vf_scalar.h's definition. */
#ifndef GELUCHECK_VF_NEON_H
#define GELUCHECK_VF_NEON_H

#include <arm_neon.h>
#include <stdbool.h>
#include <stdint.h>

#define VF_WIDTH 4
#define VF_ISA GELU_ISA_NEON /* gelu_impl.h's ISA list: this build's ISA and features */
#define VF_FEATURES GELU_ISA_FEATURES_NEON

typedef float32x4_t vf;
typedef int32x4_t vi;

static inline vf vf_load(const float *p) { return vld1q_f32(p); }
static inline void vf_store(float *p, vf a) { vst1q_f32(p, a); }
static inline vf vf_set1(float c) { return vdupq_n_f32(c); }
static inline vf vf_add(vf a, vf b) { return vaddq_f32(a, b); }
static inline vf vf_sub(vf a, vf b) { return vsubq_f32(a, b); }
static inline vf vf_mul(vf a, vf b) { return vmulq_f32(a, b); }
static inline vf vf_neg(vf a) { return vnegq_f32(a); }
static inline vf vf_abs(vf a) { return vabsq_f32(a); }
static inline vf vf_fma(vf a, vf b, vf c) { return vfmaq_f32(c, a, b); } /* c + a·b, once rounded */
static inline vf vf_min_keep_nan(vf c, vf a) { return vbslq_f32(vcgtq_f32(a, c), c, a); }
static inline vf vf_div(vf a, vf b) { return vdivq_f32(a, b); }
static inline vf vf_max_keep_nan(vf c, vf a) { return vbslq_f32(vcltq_f32(a, c), c, a); }
static inline vf vf_select_less(vf a, vf c, vf then, vf otherwise)
{
    return vbslq_f32(vcltq_f32(a, c), then, otherwise);
}
static inline uint32x4_t vf_sign_bits(vf x) { return vandq_u32(vreinterpretq_u32_f32(x), vdupq_n_u32(0x80000000u)); }
static inline vf vf_or_sign(vf a, vf x)
{
    return vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(a), vf_sign_bits(x)));
}
/* All ones where x's sign bit is set. */
static inline uint32x4_t vf_sign_mask(vf x) { return vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_f32(x), 31)); }
/* x/2 rounded toward +inf: the encoding arithmetic of vf_avx2.h below 2^-125, x·0.5 elsewhere. */
static inline vf vf_half_up(vf x)
{
    uint32x4_t b = vreinterpretq_u32_f32(x);
    uint32x4_t mag = vandq_u32(b, vdupq_n_u32(0x7fffffffu));
    uint32x4_t up = vshrq_n_u32(vaddq_u32(mag, vdupq_n_u32(1)), 1);
    uint32x4_t down = vshrq_n_u32(mag, 1);
    uint32x4_t r = vorrq_u32(vbslq_u32(vf_sign_mask(x), down, up), vf_sign_bits(x));
    uint32x4_t small = vcltq_f32(vabsq_f32(x), vdupq_n_f32(0x1p-125f));
    return vbslq_f32(small, vreinterpretq_f32_u32(r), vmulq_f32(x, vdupq_n_f32(0.5f)));
}
static inline vf vf_round(vf a) { return vrndnq_f32(a); } /* to nearest, ties to even: rintf */
static inline vf vf_select_sign(vf x, vf neg, vf pos) { return vbslq_f32(vf_sign_mask(x), neg, pos); }
/* a·2^k, one rounding: in binary64 (exact there), rounded once to binary32, as vf_scalar.h. A
 * NaN k converts to 0 (FCVTNS), so a comes back unchanged, as there. */
static inline vf vf_scale(vf a, vf k)
{
    int64x2_t klo = vmovl_s32(vget_low_s32(vcvtnq_s32_f32(k)));
    int64x2_t khi = vmovl_high_s32(vcvtnq_s32_f32(k));
    float64x2_t plo = vreinterpretq_f64_s64(vshlq_n_s64(vaddq_s64(klo, vdupq_n_s64(1023)), 52));
    float64x2_t phi = vreinterpretq_f64_s64(vshlq_n_s64(vaddq_s64(khi, vdupq_n_s64(1023)), 52));
    float64x2_t lo = vmulq_f64(vcvt_f64_f32(vget_low_f32(a)), plo);
    float64x2_t hi = vmulq_f64(vcvt_high_f64_f32(a), phi);
    return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
}

static inline vi vf_binade_index(vf a, int bias, int last)
{
    int32x4_t e = vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_f32(a), 23));
    e = vsubq_s32(e, vdupq_n_s32(bias));
    return vminq_s32(vmaxq_s32(e, vdupq_n_s32(0)), vdupq_n_s32(last));
}
static inline vi vf_interval_index(vf a, float scale, int last)
{
    vf s = vmulq_f32(a, vdupq_n_f32(scale));
    return vbslq_s32(vcltq_f32(s, vdupq_n_f32((float)last)), vcvtq_s32_f32(s), vdupq_n_s32(last));
}
/* The byte indices of 32-bit entries i: 4i, 4i + 1, 4i + 2, 4i + 3 in each lane. */
static inline uint8x16_t vf_entry_bytes(vi i)
{
    uint32x4_t b = vmlaq_n_u32(vdupq_n_u32(0x03020100u), vreinterpretq_u32_s32(i), 0x04040404u);
    return vreinterpretq_u8_u32(b);
}
static inline vf vf_lookup(const float table[16], vi i)
{
    uint8x16x4_t t = vld1q_u8_x4((const uint8_t *)table);
    return vreinterpretq_f32_u8(vqtbl4q_u8(t, vf_entry_bytes(i)));
}
/* The piece: floor of the exact a·scale + offset as vf_scalar.h computes it — the FMA stepped
 * down one encoding when it rounded up onto an integer — min(·, last), last outside (−1, last). */
static inline vi vf_piece_index(vf a, float scale, float offset, int last)
{
    vf s = vfmaq_f32(vdupq_n_f32(offset), a, vdupq_n_f32(scale));
    vf residual = vfmaq_f32(vsubq_f32(vdupq_n_f32(offset), s), a, vdupq_n_f32(scale));
    uint32x4_t below = vandq_u32(vceqq_f32(s, vrndmq_f32(s)), vcltq_f32(residual, vdupq_n_f32(0.0f)));
    /* nextafterf(s, -inf) of an integral s: one encoding down for s > 0, up in magnitude for
     * s < 0, the least negative subnormal for s = ±0 */
    uint32x4_t sb = vreinterpretq_u32_f32(s);
    uint32x4_t stepped = vbslq_u32(vcgtq_f32(s, vdupq_n_f32(0.0f)), vsubq_u32(sb, vdupq_n_u32(1)),
                                   vaddq_u32(sb, vdupq_n_u32(1)));
    stepped = vbslq_u32(vceqq_f32(s, vdupq_n_f32(0.0f)), vdupq_n_u32(0x80000001u), stepped);
    s = vreinterpretq_f32_u32(vbslq_u32(below, stepped, sb));
    uint32x4_t inside = vandq_u32(vcgtq_f32(s, vdupq_n_f32(-1.0f)), vcltq_f32(s, vdupq_n_f32((float)last)));
    return vbslq_s32(inside, vcvtq_s32_f32(s), vdupq_n_s32(last));
}
typedef unsigned vm; /* lane bits */
static inline vm vf_less_mask(vf a, vf c)
{
    static const uint32_t bit[4] = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(vcltq_f32(a, c), vld1q_u32(bit)));
}
static inline unsigned vf_mask_count(vm m) { return (unsigned)__builtin_popcount(m); }
static inline vm vf_differ_mask(vf a, vf b)
{
    static const uint32_t bit[4] = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(vmvnq_u32(vceqq_f32(a, b)), vld1q_u32(bit)));
}
/* 32 entries: the first 16 by one table lookup (0 beyond), the rest by a lookup that keeps the
 * first's bytes where its index (i − 16, as bytes) is out of its table's range. */
static inline vf vf_lookup32(const float table[32], vi i)
{
    uint8x16_t bytes = vf_entry_bytes(i);
    uint8x16x4_t lo = vld1q_u8_x4((const uint8_t *)table);
    uint8x16x4_t hi = vld1q_u8_x4((const uint8_t *)(table + 16));
    uint8x16_t r = vqtbl4q_u8(lo, bytes);
    return vreinterpretq_f32_u8(vqtbx4q_u8(r, hi, vsubq_u8(bytes, vdupq_n_u8(64))));
}

/* Binary64 halves (see vf_scalar.h): 2 doubles each. */
typedef float64x2_t vd;
typedef int64x2_t vdi;
#define VF_HALVES 2
static inline void vf_split(vf a, vd *lo, vd *hi)
{
    *lo = vcvt_f64_f32(vget_low_f32(a));
    *hi = vcvt_high_f64_f32(a);
}
static inline vf vf_join(vd lo, vd hi) { return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi); }
static inline vd vd_set1(double c) { return vdupq_n_f64(c); }
static inline vd vd_add(vd a, vd b) { return vaddq_f64(a, b); }
static inline vd vd_sub(vd a, vd b) { return vsubq_f64(a, b); }
static inline vd vd_mul(vd a, vd b) { return vmulq_f64(a, b); }
static inline vd vd_div(vd a, vd b) { return vdivq_f64(a, b); }
static inline vd vd_fma(vd a, vd b, vd c) { return vfmaq_f64(c, a, b); }
static inline vd vd_neg(vd a) { return vnegq_f64(a); }
static inline vd vd_abs(vd a) { return vabsq_f64(a); }
static inline vd vd_min_keep_nan(vd c, vd a) { return vbslq_f64(vcgtq_f64(a, c), c, a); }
static inline vd vd_round(vd a) { return vrndnq_f64(a); }
static inline vd vd_select_sign(vd x, vd neg, vd pos)
{
    uint64x2_t m = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_f64(x), 63));
    return vbslq_f64(m, neg, pos);
}
static inline vd vd_select_less(vd a, vd c, vd then, vd otherwise)
{
    return vbslq_f64(vcltq_f64(a, c), then, otherwise);
}
/* 2^k built in the exponent field (2^k normal); a NaN k converts to 0 (FCVTZS): a unchanged. */
static inline vd vd_scale(vd a, vd k)
{
    int64x2_t e = vshlq_n_s64(vaddq_s64(vcvtq_s64_f64(k), vdupq_n_s64(1023)), 52);
    return vmulq_f64(a, vreinterpretq_f64_s64(e));
}
static inline vdi vd_binade_index(vd a, int bias, int last)
{
    int64x2_t e = vreinterpretq_s64_u64(vshrq_n_u64(vreinterpretq_u64_f64(a), 52));
    e = vsubq_s64(e, vdupq_n_s64(bias));
    e = vbslq_s64(vcltq_s64(e, vdupq_n_s64(0)), vdupq_n_s64(0), e);
    return vbslq_s64(vcgtq_s64(e, vdupq_n_s64(last)), vdupq_n_s64(last), e);
}
static inline vd vd_lookup(const double table[8], vdi i)
{
    return (vd){table[vgetq_lane_s64(i, 0)], table[vgetq_lane_s64(i, 1)]};
}

/* 16-piece tables (see vf_scalar.h). */
static inline vd vd_floor(vd a) { return vrndmq_f64(a); }
static inline vdi vd_index16(vd f)
{
    uint64x2_t inside = vandq_u64(vcgeq_f64(f, vdupq_n_f64(0.0)), vcltq_f64(f, vdupq_n_f64(16.0)));
    return vbslq_s64(inside, vcvtq_s64_f64(f), vdupq_n_s64(0));
}
static inline vd vd_lookup16(const double table[16], vdi i)
{
    return (vd){table[vgetq_lane_s64(i, 0)], table[vgetq_lane_s64(i, 1)]};
}
static inline unsigned vf_count_differ(vf a, vf b)
{
    uint32x4_t differ = vorrq_u32(vcltq_f32(a, b), vcgtq_f32(a, b));
    return vaddvq_u32(vshrq_n_u32(differ, 31));
}

#endif
