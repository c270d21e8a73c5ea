/* erfc_accurate: GELU within 2 ULP of exact x·Φ(x) over every binary32 input, negative tail down
 * to underflow included, with a derivative to match. The algorithm, written once on the vf_*
 * operations; include after a vf_<isa>.h (gelu_f32_erfc_accurate*.c do).
 *
 * For u = |x| (clamped to 15: beyond, GELU(−u) rounds to −0 and GELU(u) to u):
 *     GELU(−u) = −u·Φ(−u) = −u·exp(−u²/2 + H(u)),   H(u) = log(Φ(−u)·e^{u²/2}),
 *     GELU(u)  = u + GELU(−u).
 * H is smooth and bounded (−0.69 at 0, −3.6 at 15) where Φ(−u) underflows; it is a degree-8
 * polynomial per binade of u (tools/erfc_accurate_coeffs.sol, impls/erfc_accurate_coeffs.h).
 * The exponent is reduced without losing u²'s low bits: u² = h + l exactly (FMA),
 * k = round((H − h/2)/ln2), and r = (c0_hi − k·ln2_hi − h/2) + (c0_lo − k·ln2_lo − l/2) + v·q
 * where the first bracket is exact (c0_hi has 12 bits, ln2_hi 13, and Sterbenz for − h/2).
 * Then −u·e^r·2^k = −(u + u·(e^r − 1))·2^k, scaled last so the subnormal tail rounds once.
 *
 * Derivative: f'(x) = Φ(x) + x·φ(x); f'(−u) = Φ(−u) − u·φ(u) with both terms from the same
 * reduction (φ with H replaced by −log√(2π)), and f'(u) = 1 − f'(−u).
 *
 * Special values are exact by construction: ±0 → ±0, +inf → +inf, −inf → −0, NaN → NaN, ±FLT_MAX
 * → ±FLT_MAX / −0 (no overflow: u is clamped before squaring); f'(±0) = ½, f'(+inf) = 1,
 * f'(−inf) = −0. */
#ifndef GELUCHECK_ERFC_ACCURATE_H
#define GELUCHECK_ERFC_ACCURATE_H

#include <math.h>

#include "erfc_accurate_coeffs.h"
#include "gelu_impl.h"
#include "vf_array.h"

static const float erfc_acc_u_max = 15.0f;           /* GELU(−15) ≈ −1e-49 rounds to −0 */
static const float erfc_acc_log2e = 0x1.715476p+0f;  /* 1/ln2 rounded */
static const float erfc_acc_ln2_hi = 0x1.62ep-1f;    /* ln2 to 13 bits: k·ln2_hi is exact */
static const float erfc_acc_ln2_lo = 0x1.0bfbe8p-15f; /* ln2 − ln2_hi rounded */
static const float erfc_acc_phi_c0_hi = -0x1.d68p-1f;  /* −log√(2π) to 12 bits */
static const float erfc_acc_phi_c0_lo = 0x1.c6f368p-18f; /* −log√(2π) − phi_c0_hi rounded */

/* e^r − 1 = r·P(r) for the reduced argument |r| ≤ 0.36. */
static inline vf erfc_acc_expm1(vf r)
{
    vf p = vf_set1(erfc_acc_exp[5]);
    for (int i = 4; i >= 0; i--)
        p = vf_fma(p, r, vf_set1(erfc_acc_exp[i]));
    return vf_mul(r, p);
}

/* e^(c0 + vq − h/2 − l/2) = (1 + *m)·2^*k, c0 = c0_hi + c0_lo, without rounding h/2 + l/2
 * (see the file comment); vq = v·q is passed as its factors so that it is added last. */
static inline vf erfc_acc_exp_reduced(vf h, vf l, vf c0_hi, vf c0_lo, vf v, vf q, vf *k)
{
    vf a = vf_fma(h, vf_set1(-0.5f), vf_fma(v, q, c0_hi)); /* ≈ the exponent, for k only */
    *k = vf_round(vf_mul(a, vf_set1(erfc_acc_log2e)));
    vf exact = vf_fma(h, vf_set1(-0.5f), vf_fma(*k, vf_set1(-erfc_acc_ln2_hi), c0_hi));
    vf tiny = vf_fma(l, vf_set1(-0.5f), vf_fma(*k, vf_set1(-erfc_acc_ln2_lo), c0_lo));
    vf r = vf_fma(v, q, vf_add(exact, tiny));
    return erfc_acc_expm1(r);
}

/* The clamped |x|, its square as h + l, and H's polynomial at u: c0 (split) and v·q. */
typedef struct {
    vf u, h, l, v, q, c0_hi, c0_lo;
} erfc_acc_args;

static inline erfc_acc_args erfc_acc_prepare(vf x)
{
    erfc_acc_args a;
    a.u = vf_min_keep_nan(vf_set1(erfc_acc_u_max), vf_abs(x));
    a.h = vf_mul(a.u, a.u);
    a.l = vf_fma(a.u, a.u, vf_neg(a.h));
    vi i = vf_binade_index(a.u, 126, 4); /* [0,1) [1,2) [2,4) [4,8) [8,15] */
    a.v = vf_sub(a.u, vf_lookup(erfc_acc_mid, i));
    const float *const c[8] = {erfc_acc_c1, erfc_acc_c2, erfc_acc_c3, erfc_acc_c4,
                               erfc_acc_c5, erfc_acc_c6, erfc_acc_c7, erfc_acc_c8};
    vf q = vf_lookup(c[7], i);
    for (int d = 6; d >= 0; d--)
        q = vf_fma(q, a.v, vf_lookup(c[d], i));
    a.q = q;
    a.c0_hi = vf_lookup(erfc_acc_c0_hi, i);
    a.c0_lo = vf_lookup(erfc_acc_c0_lo, i);
    return a;
}

/* −u·Φ(−u) = GELU(−u). */
static inline vf erfc_acc_gelu_neg(const erfc_acc_args *a)
{
    vf k;
    vf m = erfc_acc_exp_reduced(a->h, a->l, a->c0_hi, a->c0_lo, a->v, a->q, &k);
    return vf_scale(vf_neg(vf_fma(a->u, m, a->u)), k);
}

static inline vf erfc_acc_forward(vf x)
{
    erfc_acc_args a = erfc_acc_prepare(x);
    vf z = erfc_acc_gelu_neg(&a);
    return vf_select_sign(x, z, vf_add(x, z));
}

static inline vf erfc_acc_derivative(vf x)
{
    erfc_acc_args a = erfc_acc_prepare(x);
    vf k, k_phi;
    vf m = erfc_acc_exp_reduced(a.h, a.l, a.c0_hi, a.c0_lo, a.v, a.q, &k);
    vf zero = vf_set1(0.0f);
    vf m_phi = erfc_acc_exp_reduced(a.h, a.l, vf_set1(erfc_acc_phi_c0_hi),
                                    vf_set1(erfc_acc_phi_c0_lo), zero, zero, &k_phi);
    vf cdf = vf_scale(vf_add(vf_set1(1.0f), m), k);         /* Φ(−u) */
    vf u_pdf = vf_scale(vf_fma(a.u, m_phi, a.u), k_phi);      /* u·φ(u) */
    vf d_neg = vf_neg(vf_sub(u_pdf, cdf));                     /* f'(−u), −0 when both vanish */
    return vf_select_sign(x, d_neg, vf_sub(vf_set1(1.0f), d_neg));
}

VF_ARRAY_KERNEL(erfc_acc_forward_array, erfc_acc_forward)
VF_ARRAY_KERNEL(erfc_acc_derivative_array, erfc_acc_derivative)

/* The descriptor of one ISA's build of the algorithm: all share one contract (the same
 * operations in the same order give the same results on every ISA; each is verified anyway). */
#define ERFC_ACCURATE_IMPL(impl_name)                                                        \
    const gelu_impl gelu_impl_##impl_name = {                                                \
        .name = #impl_name,                                                                  \
        .target = GELU_TARGET_EXACT,                                                         \
        .features = VF_FEATURES,                                                             \
        .forward = erfc_acc_forward_array,                                                   \
        .derivative = erfc_acc_derivative_array,                                             \
        .contract = {                                                                        \
            .max_ulp = 2.0,                                                                  \
            .max_abs = 1e-6,                                                                 \
            .monotone = true,                                                                \
            .specials = true,                                                                \
            .grad_max_ulp = INFINITY,                                                        \
            .grad_max_abs = 1e-6,                                                            \
        },                                                                                   \
        .origin = "x·Φ(x) as −u·exp(−u²/2 + H(u)), H fitted by Sollya, u² split with FMA",       \
    }

#endif
