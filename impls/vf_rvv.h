/* The vf_* operations (see vf_scalar.h for their meaning) with RISC-V's V extension (RVV 1.0),
 * for a minimum vector length: compiled with -march=rv64gcv_zvlNb (N = 128 or 256, which clang
 * gives as __riscv_v_min_vlen), a vf is one vector register (LMUL 1) of which every operation
 * uses the first N/32 lanes (vl = VF_WIDTH, a constant, as vf_array.h and the methods' buffers
 * need). Such a build runs on any CPU whose VLEN is N or more (the exec child checks it before
 * serving one: cross/exec_vf.c); it is not vector-length agnostic. Each operation rounds as the
 * portable one does; where an RVV instruction differs on NaN or an edge (VFCVT turns NaN into
 * the largest integer; RVV 1.0 has no round-to-integral instruction), the operation is written
 * as compares and selects following vf_scalar.h. Binary64 lanes: one vd holds all VF_WIDTH
 * lanes widened (LMUL 2), so VF_HALVES is 1, as in the one-lane build. */
#ifndef GELUCHECK_VF_RVV_H
#define GELUCHECK_VF_RVV_H

#include <riscv_vector.h>
#include <stdbool.h>
#include <stdint.h>

#if !defined(__riscv_v_min_vlen)
#error "vf_rvv.h needs -march=rv64gcv_zvl128b or rv64gcv_zvl256b"
#elif __riscv_v_min_vlen == 128
#define VF_ISA GELU_ISA_RVV128 /* gelu_impl.h's ISA list: this build's ISA and features */
#define VF_FEATURES GELU_ISA_FEATURES_RVV128
#elif __riscv_v_min_vlen == 256
#define VF_ISA GELU_ISA_RVV256
#define VF_FEATURES GELU_ISA_FEATURES_RVV256
#else
#error "vf_rvv.h is built for a VLEN of 128 or 256 bits"
#endif
#define VF_WIDTH (__riscv_v_min_vlen / 32)
#define VF_VL ((size_t)VF_WIDTH) /* every operation's vl: the build's lanes, whatever the VLEN */

typedef vfloat32m1_t vf;
typedef vint32m1_t vi;
typedef vuint32m1_t vf_u;
typedef vbool32_t vm; /* marked lanes */

static inline vf_u vf_bits(vf a) { return __riscv_vreinterpret_v_f32m1_u32m1(a); }
static inline vf vf_from_bits(vf_u b) { return __riscv_vreinterpret_v_u32m1_f32m1(b); }
/* then where m, otherwise elsewhere. */
static inline vf vf_where(vm m, vf then, vf otherwise) { return __riscv_vmerge_vvm_f32m1(otherwise, then, m, VF_VL); }
static inline vi vi_where(vm m, vi then, vi otherwise) { return __riscv_vmerge_vvm_i32m1(otherwise, then, m, VF_VL); }
/* Lanes whose sign bit is set. */
static inline vm vf_signed(vf x)
{
    return __riscv_vmslt_vx_i32m1_b32(__riscv_vreinterpret_v_f32m1_i32m1(x), 0, VF_VL);
}

static inline vf vf_load(const float *p) { return __riscv_vle32_v_f32m1(p, VF_VL); }
static inline void vf_store(float *p, vf a) { __riscv_vse32_v_f32m1(p, a, VF_VL); }
static inline vf vf_set1(float c) { return __riscv_vfmv_v_f_f32m1(c, VF_VL); }
static inline vf vf_add(vf a, vf b) { return __riscv_vfadd_vv_f32m1(a, b, VF_VL); }
static inline vf vf_sub(vf a, vf b) { return __riscv_vfsub_vv_f32m1(a, b, VF_VL); }
static inline vf vf_mul(vf a, vf b) { return __riscv_vfmul_vv_f32m1(a, b, VF_VL); }
static inline vf vf_neg(vf a) { return __riscv_vfneg_v_f32m1(a, VF_VL); }
static inline vf vf_abs(vf a) { return __riscv_vfabs_v_f32m1(a, VF_VL); }
static inline vf vf_fma(vf a, vf b, vf c) { return __riscv_vfmacc_vv_f32m1(c, a, b, VF_VL); } /* c + a·b, once rounded */
static inline vf vf_min_keep_nan(vf c, vf a) { return vf_where(__riscv_vmfgt_vv_f32m1_b32(a, c, VF_VL), c, a); }
static inline vf vf_div(vf a, vf b) { return __riscv_vfdiv_vv_f32m1(a, b, VF_VL); }
static inline vf vf_max_keep_nan(vf c, vf a) { return vf_where(__riscv_vmflt_vv_f32m1_b32(a, c, VF_VL), c, a); }
static inline vf vf_select_less(vf a, vf c, vf then, vf otherwise)
{
    return vf_where(__riscv_vmflt_vv_f32m1_b32(a, c, VF_VL), then, otherwise);
}
static inline vf vf_or_sign(vf a, vf x)
{
    vf_u sign = __riscv_vand_vx_u32m1(vf_bits(x), 0x80000000u, VF_VL);
    return vf_from_bits(__riscv_vor_vv_u32m1(vf_bits(a), sign, VF_VL));
}
/* x/2 rounded toward +inf: the encoding arithmetic of vf_avx2.h below 2^-125, x·0.5 elsewhere. */
static inline vf vf_half_up(vf x)
{
    vf_u mag = __riscv_vand_vx_u32m1(vf_bits(x), 0x7fffffffu, VF_VL);
    vf_u up = __riscv_vsrl_vx_u32m1(__riscv_vadd_vx_u32m1(mag, 1, VF_VL), 1, VF_VL);
    vf_u down = __riscv_vsrl_vx_u32m1(mag, 1, VF_VL);
    vf_u r = __riscv_vmerge_vvm_u32m1(up, down, vf_signed(x), VF_VL);
    r = __riscv_vor_vv_u32m1(r, __riscv_vand_vx_u32m1(vf_bits(x), 0x80000000u, VF_VL), VF_VL);
    vm small = __riscv_vmflt_vf_f32m1_b32(vf_abs(x), 0x1p-125f, VF_VL);
    return vf_where(small, vf_from_bits(r), vf_mul(x, vf_set1(0.5f)));
}
/* rintf: below 2^23 in magnitude, through an integer in the dynamic rounding mode (nearest,
 * ties to even, in the scan's environment) with a's sign put back (rintf(−0.3) = −0); a itself
 * above (integral already), for infinities and NaN. */
static inline vf vf_round(vf a)
{
    vf r = __riscv_vfcvt_f_x_v_f32m1(__riscv_vfcvt_x_f_v_i32m1(a, VF_VL), VF_VL);
    r = __riscv_vfsgnj_vv_f32m1(r, a, VF_VL);
    return vf_where(__riscv_vmflt_vf_f32m1_b32(vf_abs(a), 0x1p23f, VF_VL), r, a);
}
/* floorf: rintf(a), one less where that is above a. */
static inline vf vf_floor(vf a)
{
    vf r = vf_round(a);
    return vf_where(__riscv_vmfgt_vv_f32m1_b32(r, a, VF_VL), vf_sub(r, vf_set1(1.0f)), r);
}
static inline vf vf_select_sign(vf x, vf neg, vf pos) { return vf_where(vf_signed(x), neg, pos); }
/* a·2^k as vf_avx2.h: 2^(k/2) and 2^(k − k/2), both normal, only the second product rounding.
 * A NaN k converts to the largest integer (VFCVT), so NaN lanes keep a, as in vf_scalar.h. */
static inline vf vf_scale(vf a, vf k)
{
    vi ki = __riscv_vfcvt_rtz_x_f_v_i32m1(k, VF_VL); /* k is integral */
    vi k1 = __riscv_vsra_vx_i32m1(ki, 1, VF_VL);
    vi k2 = __riscv_vsub_vv_i32m1(ki, k1, VF_VL);
    vf s1 = __riscv_vreinterpret_v_i32m1_f32m1(
        __riscv_vsll_vx_i32m1(__riscv_vadd_vx_i32m1(k1, 127, VF_VL), 23, VF_VL));
    vf s2 = __riscv_vreinterpret_v_i32m1_f32m1(
        __riscv_vsll_vx_i32m1(__riscv_vadd_vx_i32m1(k2, 127, VF_VL), 23, VF_VL));
    return vf_where(__riscv_vmfeq_vv_f32m1_b32(k, k, VF_VL), vf_mul(vf_mul(a, s1), s2), a);
}

static inline vi vf_binade_index(vf a, int bias, int last)
{
    vi e = __riscv_vreinterpret_v_u32m1_i32m1(__riscv_vsrl_vx_u32m1(vf_bits(a), 23, VF_VL));
    e = __riscv_vsub_vx_i32m1(e, bias, VF_VL);
    return __riscv_vmin_vx_i32m1(__riscv_vmax_vx_i32m1(e, 0, VF_VL), last, VF_VL);
}
static inline vi vf_interval_index(vf a, float scale, int last)
{
    vf s = vf_mul(a, vf_set1(scale));
    return vi_where(__riscv_vmflt_vf_f32m1_b32(s, (float)last, VF_VL), __riscv_vfcvt_rtz_x_f_v_i32m1(s, VF_VL),
                    __riscv_vmv_v_x_i32m1(last, VF_VL));
}
/* table[i]: an indexed load, the offsets in bytes. */
static inline vf vf_gather(const float *table, vi i)
{
    vf_u offset = __riscv_vsll_vx_u32m1(__riscv_vreinterpret_v_i32m1_u32m1(i), 2, VF_VL);
    return __riscv_vluxei32_v_f32m1(table, offset, VF_VL);
}
static inline vf vf_lookup(const float table[16], vi i) { return vf_gather(table, i); }
/* The piece: floor of the exact a·scale + offset as vf_scalar.h computes it — the FMA stepped
 * down one encoding when it rounded up onto an integer — min(·, last), last outside (−1, last). */
static inline vi vf_piece_index(vf a, float scale, float offset, int last)
{
    vf s = vf_fma(a, vf_set1(scale), vf_set1(offset));
    vf residual = vf_fma(a, vf_set1(scale), vf_sub(vf_set1(offset), s));
    vm below = __riscv_vmand_mm_b32(__riscv_vmfeq_vv_f32m1_b32(s, vf_floor(s), VF_VL),
                                    __riscv_vmflt_vf_f32m1_b32(residual, 0.0f, VF_VL), VF_VL);
    /* nextafterf(s, -inf) of an integral s: one encoding down for s > 0, up in magnitude for
     * s < 0, the least negative subnormal for s = ±0 */
    vf_u sb = vf_bits(s);
    vf_u stepped = __riscv_vmerge_vvm_u32m1(__riscv_vadd_vx_u32m1(sb, 1, VF_VL), __riscv_vsub_vx_u32m1(sb, 1, VF_VL),
                                            __riscv_vmfgt_vf_f32m1_b32(s, 0.0f, VF_VL), VF_VL);
    stepped = __riscv_vmerge_vvm_u32m1(stepped, __riscv_vmv_v_x_u32m1(0x80000001u, VF_VL),
                                       __riscv_vmfeq_vf_f32m1_b32(s, 0.0f, VF_VL), VF_VL);
    s = vf_from_bits(__riscv_vmerge_vvm_u32m1(sb, stepped, below, VF_VL));
    vm inside = __riscv_vmand_mm_b32(__riscv_vmfgt_vf_f32m1_b32(s, -1.0f, VF_VL),
                                     __riscv_vmflt_vf_f32m1_b32(s, (float)last, VF_VL), VF_VL);
    return vi_where(inside, __riscv_vfcvt_rtz_x_f_v_i32m1(s, VF_VL), __riscv_vmv_v_x_i32m1(last, VF_VL));
}
static inline vm vf_less_mask(vf a, vf c) { return __riscv_vmflt_vv_f32m1_b32(a, c, VF_VL); }
static inline unsigned vf_mask_count(vm m) { return (unsigned)__riscv_vcpop_m_b32(m, VF_VL); }
/* the lanes not equal, NaN in either included (not vmfeq, which is false for NaN) */
static inline vm vf_differ_mask(vf a, vf b) { return __riscv_vmnot_m_b32(__riscv_vmfeq_vv_f32m1_b32(a, b, VF_VL), VF_VL); }
static inline vf vf_lookup32(const float table[32], vi i) { return vf_gather(table, i); }

/* Binary64 lanes (see vf_scalar.h): all VF_WIDTH lanes widened into one register group. */
typedef vfloat64m2_t vd;
typedef vint64m2_t vdi;
#define VF_HALVES 1
static inline vd vd_where(vm m, vd then, vd otherwise) { return __riscv_vmerge_vvm_f64m2(otherwise, then, m, VF_VL); }
static inline void vf_split(vf a, vd *lo, vd *hi)
{
    *lo = __riscv_vfwcvt_f_f_v_f64m2(a, VF_VL);
    *hi = *lo; /* unused: VF_HALVES is 1 */
}
/* Rounded once to binary32, in the dynamic rounding mode (nearest, as the portable cast). */
static inline vf vf_join(vd lo, vd hi)
{
    (void)hi;
    return __riscv_vfncvt_f_f_w_f32m1(lo, VF_VL);
}
static inline vd vd_set1(double c) { return __riscv_vfmv_v_f_f64m2(c, VF_VL); }
static inline vd vd_add(vd a, vd b) { return __riscv_vfadd_vv_f64m2(a, b, VF_VL); }
static inline vd vd_sub(vd a, vd b) { return __riscv_vfsub_vv_f64m2(a, b, VF_VL); }
static inline vd vd_mul(vd a, vd b) { return __riscv_vfmul_vv_f64m2(a, b, VF_VL); }
static inline vd vd_div(vd a, vd b) { return __riscv_vfdiv_vv_f64m2(a, b, VF_VL); }
static inline vd vd_fma(vd a, vd b, vd c) { return __riscv_vfmacc_vv_f64m2(c, a, b, VF_VL); }
static inline vd vd_neg(vd a) { return __riscv_vfneg_v_f64m2(a, VF_VL); }
static inline vd vd_abs(vd a) { return __riscv_vfabs_v_f64m2(a, VF_VL); }
static inline vd vd_min_keep_nan(vd c, vd a) { return vd_where(__riscv_vmfgt_vv_f64m2_b32(a, c, VF_VL), c, a); }
/* rint as vf_round, below 2^52. */
static inline vd vd_round(vd a)
{
    vd r = __riscv_vfcvt_f_x_v_f64m2(__riscv_vfcvt_x_f_v_i64m2(a, VF_VL), VF_VL);
    r = __riscv_vfsgnj_vv_f64m2(r, a, VF_VL);
    return vd_where(__riscv_vmflt_vf_f64m2_b32(vd_abs(a), 0x1p52, VF_VL), r, a);
}
static inline vd vd_select_sign(vd x, vd neg, vd pos)
{
    return vd_where(__riscv_vmslt_vx_i64m2_b32(__riscv_vreinterpret_v_f64m2_i64m2(x), 0, VF_VL), neg, pos);
}
static inline vd vd_select_less(vd a, vd c, vd then, vd otherwise)
{
    return vd_where(__riscv_vmflt_vv_f64m2_b32(a, c, VF_VL), then, otherwise);
}
/* 2^k built in the exponent field (2^k normal); NaN lanes of k keep a, as in vf_scalar.h. */
static inline vd vd_scale(vd a, vd k)
{
    vdi e = __riscv_vadd_vx_i64m2(__riscv_vfcvt_rtz_x_f_v_i64m2(k, VF_VL), 1023, VF_VL);
    vd p = __riscv_vreinterpret_v_i64m2_f64m2(__riscv_vsll_vx_i64m2(e, 52, VF_VL));
    return vd_where(__riscv_vmfeq_vv_f64m2_b32(k, k, VF_VL), vd_mul(a, p), a);
}
static inline vdi vd_binade_index(vd a, int bias, int last)
{
    vuint64m2_t b = __riscv_vreinterpret_v_f64m2_u64m2(a);
    vdi e = __riscv_vreinterpret_v_u64m2_i64m2(__riscv_vsrl_vx_u64m2(b, 52, VF_VL));
    e = __riscv_vsub_vx_i64m2(e, bias, VF_VL);
    return __riscv_vmin_vx_i64m2(__riscv_vmax_vx_i64m2(e, 0, VF_VL), last, VF_VL);
}
/* table[i]: an indexed load, the offsets in bytes. */
static inline vd vd_gather(const double *table, vdi i)
{
    vuint64m2_t offset = __riscv_vsll_vx_u64m2(__riscv_vreinterpret_v_i64m2_u64m2(i), 3, VF_VL);
    return __riscv_vluxei64_v_f64m2(table, offset, VF_VL);
}
static inline vd vd_lookup(const double table[8], vdi i) { return vd_gather(table, i); }

/* 16-piece tables (see vf_scalar.h). floor: rint(a), one less where that is above a. */
static inline vd vd_floor(vd a)
{
    vd r = vd_round(a);
    return vd_where(__riscv_vmfgt_vv_f64m2_b32(r, a, VF_VL), vd_sub(r, vd_set1(1.0)), r);
}
static inline vdi vd_index16(vd f)
{
    vm inside = __riscv_vmand_mm_b32(__riscv_vmfge_vf_f64m2_b32(f, 0.0, VF_VL),
                                     __riscv_vmflt_vf_f64m2_b32(f, 16.0, VF_VL), VF_VL);
    return __riscv_vmerge_vvm_i64m2(__riscv_vmv_v_x_i64m2(0, VF_VL), __riscv_vfcvt_rtz_x_f_v_i64m2(f, VF_VL),
                                    inside, VF_VL);
}
static inline vd vd_lookup16(const double table[16], vdi i) { return vd_gather(table, i); }
static inline unsigned vf_count_differ(vf a, vf b)
{
    vm differ = __riscv_vmor_mm_b32(__riscv_vmflt_vv_f32m1_b32(a, b, VF_VL), __riscv_vmfgt_vv_f32m1_b32(a, b, VF_VL),
                                    VF_VL);
    return vf_mask_count(differ);
}

#endif
