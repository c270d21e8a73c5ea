/* pw_precise_eval: the pieces of impls/pw_precise.h and impls/pw_tanh.h, 32 equal pieces of
 * degree 7 in t = x − m, the value at m carried as two floats and c1·t added exactly, on the
 * vf_* operations (include after a vf_<isa>.h). pw_precise.h says why this form keeps the
 * result within 1 ULP and monotone; tools/pw_precise_fit.sol builds the tables. */
#ifndef GELUCHECK_PW_PRECISE_EVAL_H
#define GELUCHECK_PW_PRECISE_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#define PW_PRECISE_DEG 7 /* the degree in t of every piece */

typedef struct {
    float scale, offset; /* piece of x: floor(x·scale + offset) */
    const float *m; /* each piece's point, t = x − m */
    const float *k0, *k0lo; /* the value at m: k0 + k0lo */
    const float *k[PW_PRECISE_DEG + 1]; /* k[1..deg]: the coefficients of t, t², … */
    const float *k1lo; /* NULL, or a second part of k1, added as k1lo·t */
} pw_precise_tables;

/* k0 + k0lo + (k1 + k1lo)·t + k2·t² + t³·C(t), rounded once at the end but for the sum s of
 * the terms from t² on and k1lo·t (a correction of k1's rounding); two_sum: the exact sum
 * k0 + RN(k1·t) by TwoSum (any magnitudes) instead of Fast2Sum (|k0| ≥ |k1·t|). */
static inline vf pw_precise_eval(const pw_precise_tables *p, vf x, bool two_sum)
{
    vi i = vf_piece_index(x, p->scale, p->offset, 31);
    vf t = vf_sub(x, vf_lookup32(p->m, i));
    vf c = vf_lookup32(p->k[PW_PRECISE_DEG], i);
#pragma GCC unroll 8
    for (int k = PW_PRECISE_DEG - 1; k >= 3; k--)
        c = vf_fma(c, t, vf_lookup32(p->k[k], i));
    vf tc = vf_mul(t, c);
    vf t2h = vf_mul(t, t);
    vf t2l = vf_fma(t, t, vf_neg(t2h)); /* t² − t2h, exact */
    vf k0 = vf_lookup32(p->k0, i), k1 = vf_lookup32(p->k[1], i), k2 = vf_lookup32(p->k[2], i);
    vf ph = vf_mul(k1, t);
    vf pl = vf_fma(k1, t, vf_neg(ph)); /* k1·t − ph, exact */
    vf hi = vf_add(k0, ph);
    vf e; /* k0 + ph − hi, exact */
    if (two_sum) {
        vf bp = vf_sub(hi, k0);
        vf ap = vf_sub(hi, bp);
        e = vf_add(vf_sub(k0, ap), vf_sub(ph, bp));
    } else {
        e = vf_sub(ph, vf_sub(hi, k0));
    }
    vf lo = vf_add(vf_add(e, pl), vf_lookup32(p->k0lo, i));
    if (p->k1lo) lo = vf_fma(vf_lookup32(p->k1lo, i), t, lo);
    lo = vf_fma(k2, t2l, lo);
    vf s = vf_fma(k2, t2h, vf_fma(tc, t2h, lo)); /* k2·t2h unrounded */
    return vf_add(hi, s);
}

/* x ≥ bottom, the forward of tables t: the pieces, x itself above top (+inf too; NaN stays
 * NaN), x/2 rounded up for tiny x (vf_gelu_tiny.h, included before). */
static inline vf pw_precise_pieces_forward(const pw_precise_tables *t, float top, vf x)
{
    vf y = pw_precise_eval(t, x, false);
    y = vf_select_less(vf_set1(top), x, x, y);
    return vf_gelu_tiny(x, y);
}

/* x ≥ bottom, the derivative of tables t: the pieces, 1 above top. */
static inline vf pw_precise_pieces_derivative(const pw_precise_tables *t, float top, vf x)
{
    vf d = pw_precise_eval(t, x, true);
    return vf_select_less(vf_set1(top), x, vf_set1(1.0f), d);
}

#ifdef VF_LOOKUP32_COSTLY
/* The values above top of the three-way split's kernels (VF_SPLIT3_ARRAY_KERNEL) */
static inline vf pw_precise_one(vf x) { (void)x; return vf_set1(1.0f); }
static inline vf pw_precise_self(vf x) { return x; }
#endif

#endif
