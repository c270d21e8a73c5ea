/* gelu_tail: GELU and its derivative on the negative tail x ≤ −3, in binary32 on the vf_*
 * operations (include after a vf_<isa>.h; the scalar, AVX2 and AVX-512 builds run the same
 * operations in the same order and give the same bits). For pw_accurate, which
 * covers x > −3 with its own polynomial and blends.
 *
 *   gelu_tail_forward(x)    = GELU(x)  = x·Φ(x)          for x ≤ −3 (down to −inf), NaN → NaN
 *   gelu_tail_derivative(x) = GELU'(x) = Φ(x) + x·φ(x)   for x ≤ −3
 * Both take x itself (not |x|). Results round to −0 from x ≈ −14.36 on; −FLT_MAX and −inf give
 * −0 (x is clamped to −15 first, so nothing overflows).
 *
 * Measured over every float in [−inf, −3] (1,061,158,913 inputs) against the correctly rounded
 * MPFR reference, each ISA's build, all three identical:
 *     forward     max 0.909 ULP at x = −0x1.821d62p+1, max abs 3.22e-10 (at −0x1.805fe2p+1),
 *                 99.93% correctly rounded, no monotonicity violation (−0 from x ≈ −14.36 on);
 *     derivative  max 0.955 ULP at x = −0x1.990514p+1, max abs 8.62e-10 (at −0x1.804abp+1),
 *                 no wrong sign;
 *     −inf, −FLT_MAX → −0 (both), NaN → NaN.
 * The worst errors sit near x = −3, where |ℓ| (below) is largest and so is the rounding of its
 * quotient. Command (with the temporary tail_probe implementations, which route x ≤ −3 here):
 *     gelucheck accuracy --impl tail_probe,tail_probe_avx2,tail_probe_avx512 --range -inf:-3 \
 *         --grad --threads 1
 * The three builds agree bit for bit on every input in [−inf, −3] (NaN payloads aside).
 *
 * Method. With u = −x ≥ 3 and t = u²,
 *     GELU(−u) = −exp(−t/2 + C + ℓ(t)),       ℓ = log(u·Φ(−u)·e^{t/2}) − C,
 *     f'(−u)   = −u·exp(−t/2 + C + ℓ_d(t)),   ℓ_d = log(1/√(2π) − Φ(−u)·e^{t/2}/u) − C,
 * C = log(1/√(2π)) to a multiple of 2^-17. u·Φ(−u)·e^{u²/2} → 1/√(2π) slowly (Mills' ratio:
 * 1 − 1/u² + 3/u⁴ …), so ℓ ∈ [−0.11, 0]; each ℓ is a degree-3/3 rational in t
 * (tools/gelu_tail_coeffs.sol: error 2^-28.4 and 2^-30.0), one division.
 *
 * The exponent a = −t/2 + C + ℓ reaches −113; binary32 cannot hold it to 2^-26 (what a result
 * accurate to ~1 ULP needs), so it is never formed. Instead:
 *   - t = hi + lo exactly (hi = fl(u²), lo by FMA);
 *   - k = round((C − hi/2)/ln2) (ℓ left out: r then lies in [−0.46, 0.37]);
 *   - r1 = C − hi/2 − k·ln2_hi exactly: 2·ln2_hi has 21 bits, so −hi − k·(2·ln2_hi) is a
 *     multiple of 2^-20 below 4 (exact FMA), and half of it plus C (a multiple of 2^-17) is a
 *     multiple of 2^-21 below 0.35 (exact FMA);
 *   - B = 1 + r1 is exact too (a multiple of 2^-21 in [0.65, 1.35]);
 *   - the small rest τ = ℓ − lo/2 − k·ln2_lo (|τ| ≤ 0.11) is rounded with an absolute error
 *     ~2^-29 and never added to B before the last operation;
 *   - e^{r1+τ} = B + (τ + r²·E(r)), r = r1 + τ, E of degree 5 (error 2^-31), so the result
 *     is y = 2^k·(B + z), z = τ + r²·E(r): one rounding of a value in [0.63, 1.42] (B exact,
 *     z's errors absolute and small, budget below); then vf_scale by 2^k, exact unless the
 *     result is subnormal (a second rounding there, of a value already accurate to 2^-24).
 * The derivative's last step is fma(u, B, u·z), which keeps u·B unrounded.
 * Signs: every constant is negated where needed so that the result comes out negative without
 * a final negation (−0 where it underflows).
 *
 * Error budget (relative, before the last rounding): ℓ's fit 2^-28.4; its evaluation (N, D,
 * quotient, each ~1 ulp relative of |ℓ| ≤ 0.11) ≲ 2^-26.5 near u = 3, falling like 1/u²;
 * ignoring lo inside ℓ ≤ 2^-28; τ's two roundings 2^-29 each; r's rounding through r²E ≤ 2^-27.5;
 * exp's fit 2^-31. Sum ≲ 2^-25.3, i.e. ≤ 0.4 ULP, plus the final 0.5.
 *
 * Op count (AVX-512, from the disassembly, constants hoisted): forward 28 vector operations
 * (17 FMA, 2 mul, 4 add/sub, div, max, xor, roundscale, scalef); the derivative 29
 * (one mul more, its last add an FMA). The division costs little here (replacing it by a
 * multiply changed the time by a few percent); the count is what sets the time (measure it with
 * `gelucheck bench`, against oneDNN's gelu_erf in the same run). */
#ifndef GELUCHECK_GELU_TAIL_H
#define GELUCHECK_GELU_TAIL_H

#include "gelu_tail_coeffs.h"

/* ln2, 1/ln2 and C/ln2 below were computed with mpmath (50 digits) and rounded as stated. */
static const float gelu_tail_x_min = -15.0f;            /* GELU(−15) ≈ −5e-50 rounds to −0 */
static const float gelu_tail_half_log2e = 0x1.715476p-1f; /* 1/(2·ln2) */
static const float gelu_tail_c_log2e = -0x1.536426p+0f;  /* C/ln2 (only k depends on it) */
static const float gelu_tail_2ln2_hi = 0x1.62e43p0f;     /* 2·ln2 to 21 bits: k·2ln2_hi exact */
static const float gelu_tail_ln2_lo = -0x1.05c61p-29f;   /* ln2 − ln2_hi */

/* The common core: k and the two parts nb = −B (exact) and nz = −z of −e^{a}/2^k (out
 * parameters, not a struct: RVV's vectors are sizeless types, which no struct may hold). */
static inline void gelu_tail_core(vf xc, vf u, const float num[4], const float den[3], vf *k, vf *nb,
                                  vf *nz)
{
    vf s = vf_mul(xc, u);           /* −hi = −fl(u²) */
    vf lo = vf_fma(u, u, s);        /* u² − hi, exact */
    /* −ℓ = −N(t)/D(t) in s = −t: −N = ((p0·s − p1)·s + p2)·s − p3, D = ((q1 − s)·s − q2)·s + q3 */
    vf n = vf_fma(vf_set1(num[0]), s, vf_set1(-num[1]));
    n = vf_fma(n, s, vf_set1(num[2]));
    n = vf_fma(n, s, vf_set1(-num[3]));
    vf d = vf_sub(vf_set1(den[0]), s);
    d = vf_fma(d, s, vf_set1(-den[1]));
    d = vf_fma(d, s, vf_set1(den[2]));
    vf nl = vf_div(n, d);           /* −ℓ */
    *k = vf_round(vf_fma(s, vf_set1(gelu_tail_half_log2e), vf_set1(gelu_tail_c_log2e)));
    vf r2 = vf_fma(*k, vf_set1(-gelu_tail_2ln2_hi), s);      /* 2·(−hi/2 − k·ln2_hi), exact */
    vf r1 = vf_fma(r2, vf_set1(0.5f), vf_set1(gelu_tail_c[0])); /* exact */
    *nb = vf_sub(vf_set1(-1.0f), r1);                          /* −B, exact */
    vf nt = vf_fma(lo, vf_set1(0.5f), nl);                      /* −(ℓ − lo/2) */
    nt = vf_fma(*k, vf_set1(gelu_tail_ln2_lo), nt);            /* −τ */
    vf r = vf_sub(r1, nt);
    vf e = vf_fma(vf_set1(-gelu_tail_exp_e[5]), r, vf_set1(-gelu_tail_exp_e[4]));
    for (int i = 3; i >= 0; i--)
        e = vf_fma(e, r, vf_set1(-gelu_tail_exp_e[i]));          /* −E(r) */
    *nz = vf_fma(vf_mul(r, r), e, nt);                          /* −z */
}

/* 2^k·v rounded, v < 0 of magnitude below 2^e. Where the ISA's scaling is slow on underflow
 * (vf_avx512.h: VF_SCALE_UNDERFLOW_SLOW), the lanes with k < −150.5 − e, whose result rounds to
 * −0 (|2^k·v| < 2^-150, half the least subnormal), scale by 2^0 and take −0 by selection: the
 * same bits (a NaN k selects the scaling, which keeps it). Every lane x ≤ −14.4 (a quarter of
 * all binary32 inputs, clamped to −15) underflowed: the AVX-512 tail cost 6 ns per input on
 * Sapphire Rapids (`gelucheck accuracy --impl pw_accurate_avx512 --grad --threads 1 --shard
 * 15/16 --profile`: kernels 3.1 of 4.3 thread s). Elsewhere the two selections would only add
 * time (the AVX2 tail over [−inf, −3]: 1.05 s before, 1.38 s with them), so they are left out. */
static inline vf gelu_tail_scale_neg(vf v, vf k, float e)
{
#ifdef VF_SCALE_UNDERFLOW_SLOW
    vf gone = vf_set1(-150.5f - e);
    vf ks = vf_select_less(k, gone, vf_set1(0.0f), k);
    return vf_select_less(k, gone, vf_set1(-0.0f), vf_scale(v, ks));
#else
    (void)e;
    return vf_scale(v, k);
#endif
}

static inline vf gelu_tail_forward(vf x)
{
    vf xc = vf_max_keep_nan(vf_set1(gelu_tail_x_min), x);
    vf k, nb, nz;
    gelu_tail_core(xc, vf_neg(xc), gelu_tail_fwd_num, gelu_tail_fwd_den, &k, &nb, &nz);
    return gelu_tail_scale_neg(vf_add(nb, nz), k, 1.0f); /* |B + z| ≤ 1.42 < 2 */
}

static inline vf gelu_tail_derivative(vf x)
{
    vf xc = vf_max_keep_nan(vf_set1(gelu_tail_x_min), x);
    vf u = vf_neg(xc);
    vf k, nb, nz;
    gelu_tail_core(xc, u, gelu_tail_der_num, gelu_tail_der_den, &k, &nb, &nz);
    return gelu_tail_scale_neg(vf_fma(u, nb, vf_mul(u, nz)), k, 5.0f); /* 15·1.42 < 2^5 */
}

#endif
