/* The one-lane "vector" for the plain versions of the SIMD algorithms: each vf_* operation on a
 * single float, with the same rounding as the vector instructions (fmaf is one rounding; the
 * lookups index the same tables). An algorithm header included after this one compiles to the
 * plain scalar version of the kernel, with results identical to the vector ones. */
#ifndef GELUCHECK_VF_SCALAR_H
#define GELUCHECK_VF_SCALAR_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define VF_WIDTH 1
#define VF_ISA GELU_ISA_PORTABLE /* gelu_impl.h's ISA list: this build's ISA and features */
#define VF_FEATURES GELU_ISA_FEATURES_PORTABLE

typedef float vf;
typedef int32_t vi;

static inline vf vf_load(const float *p) { return *p; }
static inline void vf_store(float *p, vf a) { *p = a; }
static inline vf vf_set1(float c) { return c; }
static inline vf vf_add(vf a, vf b) { return a + b; }
static inline vf vf_sub(vf a, vf b) { return a - b; }
static inline vf vf_mul(vf a, vf b) { return a * b; }
static inline vf vf_neg(vf a) { return -a; }
static inline vf vf_abs(vf a) { return fabsf(a); }
static inline vf vf_fma(vf a, vf b, vf c) { return fmaf(a, b, c); }
/* c when a > c, else a; NaN in a propagates (as minps with a second). */
static inline vf vf_min_keep_nan(vf c, vf a) { return a > c ? c : a; }
static inline vf vf_div(vf a, vf b) { return a / b; }
/* c when a < c, else a; NaN in a propagates. */
static inline vf vf_max_keep_nan(vf c, vf a) { return a < c ? c : a; }
/* then where a < c (false for NaN), otherwise. */
static inline vf vf_select_less(vf a, vf c, vf then, vf otherwise) { return a < c ? then : otherwise; }
/* a with x's sign bit ORed in. */
static inline vf vf_or_sign(vf a, vf x) { return signbit(x) ? -fabsf(a) : a; }
/* x/2 rounded toward +inf (see vf_avx2.h for the encoding arithmetic below 2^-125). */
static inline vf vf_half_up(vf x)
{
    if (!(fabsf(x) < 0x1p-125f)) return 0.5f * x;
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    uint32_t mag = b & 0x7fffffffu;
    uint32_t r = (b >> 31) ? (mag >> 1) | 0x80000000u : (mag + 1) >> 1;
    memcpy(&x, &r, sizeof x);
    return x;
}
static inline vf vf_round(vf a) { return rintf(a); }
/* neg where x's sign bit is set, pos elsewhere. */
static inline vf vf_select_sign(vf x, vf neg, vf pos) { return signbit(x) ? neg : pos; }
/* a·2^k, one rounding (k integral, |k| < 2^8): exact in double (a's 24 bits scaled, within
 * 2^±405), then rounded once to float — ldexpf's value, without a libm call per element
 * (glibc's scalbnf was 9% of a scan's CPU where the plain builds reach it). */
static inline vf vf_scale(vf a, vf k)
{
    if (isnan(k)) return a;
    uint64_t e = (uint64_t)(int64_t)((int)k + 1023) << 52;
    double p;
    memcpy(&p, &e, sizeof p);
    return (float)((double)a * p);
}

/* min(max(biased exponent of a − bias, 0), last): a table index from a's binade, a ≥ 0. */
static inline vi vf_binade_index(vf a, int bias, int last)
{
    uint32_t b;
    memcpy(&b, &a, sizeof b);
    int32_t i = (int32_t)(b >> 23) - bias;
    return i < 0 ? 0 : i > last ? last : i;
}
/* min(floor(a·scale), last) for 0 ≤ a (NaN gives last): an index into equal intervals. */
static inline vi vf_interval_index(vf a, float scale, int last)
{
    float s = a * scale;
    return s < (float)last ? (vi)s : last;
}
static inline vf vf_lookup(const float table[16], vi i) { return table[i]; }
/* The piece of a among equal pieces starting at −offset/scale: floor(a·scale + offset) of the
 * exact value (so a tiny negative a lands below offset, not on it), min(·, last); a value below
 * 0 (−1 < v < 0 gives 0), NaN or too large gives last. AVX-512 rounds the FMA down; here and on
 * AVX2 the nearest FMA is corrected when it rounded up onto an integer. */
static inline vi vf_piece_index(vf a, float scale, float offset, int last)
{
    float s = fmaf(a, scale, offset);
    if (s == floorf(s) && fmaf(a, scale, offset - s) < 0.0f) s = nextafterf(s, -INFINITY);
    return s > -1.0f && s < (float)last ? (vi)s : last;
}
/* Lane masks, for running a costly path only on the elements that need it (vf_array.h):
 * vf_less_mask(a, c) marks the lanes with a < c, vf_mask_count counts them. (vf_avx512.h also
 * packs and unpacks marked lanes.) */
typedef bool vm;
static inline vm vf_less_mask(vf a, vf c) { return a < c; }
static inline unsigned vf_mask_count(vm m) { return m; }
static inline vf vf_lookup32(const float table[32], vi i) { return table[i]; }
/* The lanes where a and b are not equal, NaN in either included (a rounding test's failures). */
static inline vm vf_differ_mask(vf a, vf b) { return !(a == b); }

/* Binary64 lanes for algorithms that need more than binary32 inside: a vf is processed as two
 * vd halves (one lane each here) and rounded back once. */
typedef double vd;
typedef int64_t vdi;
static inline void vf_split(vf a, vd *lo, vd *hi) { *lo = a; *hi = 0.0; }
static inline vf vf_join(vd lo, vd hi) { (void)hi; return (float)lo; }
#define VF_HALVES 1 /* how many vd halves a vf holds */
static inline vd vd_set1(double c) { return c; }
static inline vd vd_add(vd a, vd b) { return a + b; }
static inline vd vd_sub(vd a, vd b) { return a - b; }
static inline vd vd_mul(vd a, vd b) { return a * b; }
static inline vd vd_div(vd a, vd b) { return a / b; }
static inline vd vd_fma(vd a, vd b, vd c) { return fma(a, b, c); }
static inline vd vd_neg(vd a) { return -a; }
static inline vd vd_abs(vd a) { return fabs(a); }
static inline vd vd_min_keep_nan(vd c, vd a) { return a > c ? c : a; }
static inline vd vd_round(vd a) { return rint(a); }
static inline vd vd_select_sign(vd x, vd neg, vd pos) { return signbit(x) ? neg : pos; }
/* then where a < c (false for NaN), otherwise. */
static inline vd vd_select_less(vd a, vd c, vd then, vd otherwise) { return a < c ? then : otherwise; }
/* a·2^k for integral k with 2^k normal: exact unless a·2^k leaves the normal range. */
static inline vd vd_scale(vd a, vd k) { return isnan(k) ? a : ldexp(a, (int)k); }
static inline vdi vd_binade_index(vd a, int bias, int last)
{
    uint64_t b;
    memcpy(&b, &a, sizeof b);
    int64_t i = (int64_t)(b >> 52) - bias;
    return i < 0 ? 0 : i > last ? last : i;
}
static inline vd vd_lookup(const double table[8], vdi i) { return table[i]; }

/* For 16-piece binary64 tables (cr.h): floor, the piece index of an integral f in [0, 15] (NaN
 * gives some index in range), table[i], and how many lanes of a and b differ (NaN equals all). */
static inline vd vd_floor(vd a) { return floor(a); }
static inline vdi vd_index16(vd f) { return f >= 0.0 && f < 16.0 ? (vdi)f : 0; }
static inline vd vd_lookup16(const double table[16], vdi i) { return table[i]; }
static inline unsigned vf_count_differ(vf a, vf b) { return a < b || a > b; }

#endif
