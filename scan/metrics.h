/* Mergeable accuracy metrics: everything the scan measures is a count, an exact (integer) sum, a
 * histogram or a maximum with the first input reaching it, so that merging per-thread and
 * per-shard partial results in any order gives the same bits (results independent of the
 * thread count and of sharding).
 *
 * Input ranges (documented in docs/accuracy.md): tiny |x| < 2^-8 (zeros and subnormals included);
 * negative tail x < −3; core −3 ≤ x ≤ 3 outside tiny; positive side x > 3; NaN inputs.
 * ULP histogram buckets: = 0, ≤ 0.5, ≤ 1, ≤ 2, ≤ 4, …, ≤ 2^20, > 2^20 (finite), non-finite.
 *
 * Error by x (the report's plots): the largest ULP and absolute error in each x bucket: width
 * 1/8 over [−16, 16) (256 buckets, where GELU's shape and the usual failures lie), plus one
 * bucket for x < −16 and one for x ≥ 16 (±inf included); NaN inputs in none.
 *
 * Peers' criteria (criteria.h), forward only: the number of points failing oneDNN benchdnn's
 * gelu_erf rule and XNNPACK's GELU tolerance (and how many points XNNPACK's rule covers). */
#ifndef GELUCHECK_METRICS_H
#define GELUCHECK_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "criteria.h"
#include "float_bits.h"
#include "near.h"
#include "weights.h"

enum { HIST_BUCKETS = 25, MONO_LISTED = 10 };

/* Error by x: 256 buckets of width 1/8 over [−16, 16), then x < −16, then x ≥ 16. */
enum { X_BUCKETS_INNER = 256, X_BUCKET_BELOW = X_BUCKETS_INNER, X_BUCKET_ABOVE, X_BUCKETS, X_BUCKET_NONE = -1 };
#define X_BUCKET_LO (-16.0f)
#define X_BUCKET_WIDTH 0.125f

typedef enum { RANGE_NEG_TAIL, RANGE_CORE, RANGE_POSITIVE, RANGE_TINY, RANGE_NAN, RANGE_COUNT } input_range;

enum { REF_OWN, REF_EXACT, REF_KINDS };
/* The three errors of a point, in the order of near[] below. */
typedef enum { ERR_ULP, ERR_ABS, ERR_REL, ERR_KINDS } error_kind;
/* The kinds of error kept per x bucket: ERR_ULP and ERR_ABS. */
enum { X_KINDS = 2 };
enum { DIR_FORWARD, DIR_DERIVATIVE, DIR_COUNT };

/* Inline: the scan classifies every input. */
static inline input_range input_range_of(float x)
{
    if (isnan(x)) return RANGE_NAN;
    if (fabsf(x) < 0x1p-8f) return RANGE_TINY;
    if (x < -3.0f) return RANGE_NEG_TAIL;
    if (x > 3.0f) return RANGE_POSITIVE;
    return RANGE_CORE;
}

/* The x bucket of an input (X_BUCKET_NONE for NaN); x_bucket_bounds gives [lo, hi). */
static inline int x_bucket_of(float x)
{
    if (isnan(x)) return X_BUCKET_NONE;
    if (x < X_BUCKET_LO) return X_BUCKET_BELOW;
    if (x >= -X_BUCKET_LO) return X_BUCKET_ABOVE;
    /* x − lo in double may round up onto the next boundary (tiny negative x gives 16): then
     * the bucket below is x's. It never rounds down across one (rounding is monotone). */
    int b = (int)(((double)x - X_BUCKET_LO) / X_BUCKET_WIDTH);
    if (X_BUCKET_LO + b * (double)X_BUCKET_WIDTH > x) b--;
    return b;
}
void x_bucket_bounds(int bucket, double *lo, double *hi);
/* The same for a binary64 input (not rounded to binary32 first: that could cross a boundary). */
input_range input_range_of_d(double x);
int x_bucket_of_d(double x);
const char *input_range_name(input_range r);
/* "0", "<=0.5", "<=1", "<=2", …, "<=2^20", ">2^20", "nonfinite" */
const char *hist_bucket_name(int bucket);
/* The bucket of a ULP error (non-finite errors, NaN included, in the last). */
static inline int hist_bucket(double u)
{
    if (u == 0) return 0;
    if (!(u <= 0x1p20)) return isinf(u) || isnan(u) ? HIST_BUCKETS - 1 : HIST_BUCKETS - 2;
    if (u <= 0.5) return 1;
    /* ceil(log2 u) from the double's fields: u in (0.5, 2^20] is normal. */
    uint64_t b;
    memcpy(&b, &u, sizeof b);
    int e = (int)((b >> 52) & 0x7ff) - 1023;
    return ((b & 0xfffffffffffffull) ? e + 1 : e) + 2;
}

/* A maximum and the first input (lowest position in the domain) reaching it. */
typedef struct {
    double value;
    uint64_t seq;  /* position in the scanned domain; UINT64_MAX when empty */
    uint32_t bits; /* the input's encoding */
} arg_max;

void arg_max_init(arg_max *m);
void arg_max_merge(arg_max *dst, const arg_max *src);

/* Mean ULP is kept as an exact sum of per-input errors in units of 2^-20 ULP, each error capped
 * at 2^30 ULP (non-finite errors are counted in the histogram, not the mean). */
#define ULP_SUM_SCALE 0x1p20
#define ULP_SUM_CAP 0x1p30

/* Weighted sums over an input distribution (weights.h), exact integers: each input's weight as
 * W = ⌊w·2^70⌋ (below 2^64: every weight is below 2^-23; weights below 2^-70 count as 0: under
 * the normal, the inputs with |x| > 8.3 or |x| < 2^-46, under 10^-13 of the mass), its ULP error
 * as q = ⌊min(u, 2^30)·2^27⌋, its term W·q (units of 2^-97 of weight × ULP: a sum below
 * 2^127) and, for the absolute error, W·q·ulp = W·q >> log2(1/ulp) (the ULP is at most 2^-18
 * wherever an input has weight; past the ULP cap, W·⌊min(a, 2^30)·2^27⌋); over the inputs
 * whose ULP error is finite. Sums add exactly,
 * in any order. */
#define DIST_W_SCALE 0x1p70
#define DIST_Q_SCALE 0x1p27
__extension__ typedef unsigned __int128 u128;
typedef struct {
    u128 ulp, abs, weight; /* Σ W·q, Σ W·q·ulp (2^-97), Σ W (2^-70) */
} dist_sums;

typedef struct {
    uint64_t count;
    uint64_t finite;           /* inputs whose ULP error is finite (the mean's denominator) */
    uint64_t ulp_sum_hi, ulp_sum_lo; /* 128-bit fixed-point sum */
    arg_max max_ulp, max_abs, max_rel;
    uint64_t correctly_rounded; /* same encoding as the correctly rounded value (any NaN for NaN) */
    uint64_t hist[RANGE_COUNT][HIST_BUCKETS];
    double x_max_ulp[X_BUCKETS], x_max_abs[X_BUCKETS]; /* −inf: no input in the bucket */
    uint64_t benchdnn_failed, xnnpack_failed, xnnpack_checked; /* forward only */
    /* The inputs that could be the true maximum of each error (near.h): merged by the scan,
     * which can resolve them with MPFR (near_points.c), and resolved by refine.h */
    near_list near[ERR_KINDS];
    dist_sums dist[DIST_COUNT]; /* weighted as activations are drawn (weights.h) */
    /* Per x bucket, the inputs that could be its largest ULP and absolute error (x_near[ERR_ULP],
     * x_near[ERR_ABS]): resolved by refine.h into x_max_ulp and x_max_abs. Last, and kept
     * apart in partial files (only the entries in use are written: partial.c). */
    near_bucket x_near[X_KINDS][X_BUCKETS];
} error_metrics;

typedef struct {
    uint64_t violations;
    arg_max largest; /* distance between the two outputs in binary32 steps; at the pair's 2nd input */
    size_t nlisted;
    uint64_t listed_seq[MONO_LISTED]; /* the first violations, in domain order */
    uint32_t listed_bits[MONO_LISTED];
} mono_metrics;

typedef struct {
    uint64_t violations;
    uint64_t first_seq; /* UINT64_MAX when none */
    uint32_t first_bits;
} sign_metrics;

typedef struct {
    error_metrics err[REF_KINDS][DIR_COUNT];
    mono_metrics mono;
    sign_metrics sign;
} impl_metrics;

void error_metrics_init(error_metrics *m);
void impl_metrics_init(impl_metrics *m);

void mono_add(mono_metrics *m, uint64_t seq, float x, uint64_t distance);
void sign_add(sign_metrics *m, uint64_t seq, float x);

void error_metrics_merge(error_metrics *dst, const error_metrics *src);
void impl_metrics_merge(impl_metrics *dst, const impl_metrics *src);

double error_metrics_mean_ulp(const error_metrics *m);
/* The weighted mean ULP and absolute errors over distribution d (0 when no weight). */
double error_metrics_dist_mean(const error_metrics *m, input_dist d, error_kind k);
/* The largest ULP or absolute error (k) over the x buckets of d's maximum interval (weights.h);
 * −inf when none. */
double error_metrics_dist_max(const error_metrics *m, input_dist d, error_kind k);

/* ---- the per-point updates, inline: the scan's hot path */

static inline void arg_max_add(arg_max *m, double value, uint64_t seq, float x)
{
    /* Larger value wins; on a tie the earlier input. Within one caller seq only grows, so a
     * tie never displaces. */
    if (value > m->value || (value == m->value && seq < m->seq)) {
        m->value = value;
        m->seq = seq;
        memcpy(&m->bits, &x, sizeof m->bits);
    }
}

/* The first index in [a, b) whose value is v (v is among them): groups of 32 compared by a loop
 * without an exit (which vectorizes; maxima often sit at a run's end), then one by one. */
static inline size_t run_first(const double *v, size_t a, size_t b, double value)
{
    for (; a + 32 <= b; a += 32) {
        int64_t any = 0;
        for (size_t i = 0; i < 32; i++) any |= v[a + i] == value;
        if (any) break;
    }
    while (v[a] != value) a++;
    return a;
}

/* What a run of points adds to error_metrics before it is folded in: the points [a, b) of a
 * block, which share their input range, their x bucket and whether x is finite (the scan splits
 * each block into runs once, for every implementation). Sums and counts are exact integers, so
 * a run's sums can be formed in any way (the scan forms those of the correctly rounded outputs
 * once per reference and corrects them at the points where an implementation differs) and give
 * the same bits. */
typedef struct {
    uint64_t finite, q_sum, crs;
    uint32_t hist[HIST_BUCKETS];
    uint32_t hist_used; /* bit per bucket that may be non-zero */
    double max_ulp, max_abs, max_rel; /* −inf when the run's x are not finite (not taken) */
    /* the first index reaching each maximum, where run_sums_of or max_at set it (the end of the
     * run when none does); error_metrics_fold reads it only where the maximum beats m's */
    size_t at_ulp, at_abs, at_rel;
} run_sums;

/* A finite ULP error u's term of the exact sum, (uint64_t)(u·2^20) for 0 ≤ u ≤ the cap. Below
 * 2^-20 the term is 0, taken without the multiplication: the errors of correctly rounded values
 * in the regions x ≥ 16 are subnormal doubles (lo = ±2^-1074 marks the side), and every
 * arithmetic operation on one costs a microcode assist on Intel cores (with cr_errors in
 * block.c, `accuracy --impl pw_accurate_avx512 --grad --shard 1240/4096 --threads 1`, x in
 * [2^26, 2^27): 0.26 s of CPU with the multiplication, 0.05 without, on Sapphire Rapids). Same
 * value. */
static inline uint64_t ulp_sum_term(double u)
{
    return (uint64_t)((u < 0x1p-20 ? 0.0 : u) * ULP_SUM_SCALE);
}

/* One point's share of a run's sums: its ULP error u and correctly-rounded flag cr, with the
 * sign +1 (add) or −1 (take back). */
static inline void run_sums_point(run_sums *s, double u, uint32_t cr, int sign)
{
    bool in_sum = u <= ULP_SUM_CAP; /* finite (NaN and inf fail the test) */
    bool capped = !in_sum && isfinite(u);
    uint64_t q = in_sum ? ulp_sum_term(u) : capped ? (uint64_t)(ULP_SUM_CAP * ULP_SUM_SCALE) : 0;
    int b = hist_bucket(u);
    if (sign > 0) {
        s->finite += in_sum | capped;
        s->q_sum += q;
        s->crs += cr;
        s->hist[b]++;
    } else {
        s->finite -= in_sum | capped;
        s->q_sum -= q;
        s->crs -= cr;
        s->hist[b]--;
    }
    s->hist_used |= 1u << b;
}

/* A maximum's operand as an integer with the order of the values: the errors whose maxima the
 * scan takes are +0, positive, +inf or NaN (never negative, never −0), and such doubles order as
 * their encodings; a NaN is taken as −inf's encoding, which every other value beats (as in
 * `v > m ? v : m`, where a NaN never wins). GCC vectorizes a maximum of integers (in the scan's
 * AVX2 and AVX-512 clones, HOT_CLONES: hot_clones.h), not one of doubles without -ffast-math. */
static inline int64_t max_key(double v)
{
    const double ninf = -INFINITY;
    int64_t k, kn;
    memcpy(&k, &v, sizeof k);
    memcpy(&kn, &ninf, sizeof kn);
    return v == v ? k : kn;
}

/* The largest of v[a .. b) (−inf when empty or all NaN; a NaN never wins), as max_key's
 * integer maximum: the value one chain of `v > m ? v : m` gives. */
static inline double max_of(const double *v, size_t a, size_t b)
{
    int64_t m = max_key(-INFINITY);
    for (size_t j = a; j < b; j++) {
        int64_t k = max_key(v[j]);
        m = k > m ? k : m;
    }
    double r;
    memcpy(&r, &m, sizeof r);
    return r;
}

/* max_of and the first index reaching the maximum into *at (b when empty or all NaN): the
 * maximum first (a loop that vectorizes), then the first index holding it (run_first). */
static inline double max_at(const double *v, size_t a, size_t b, size_t *at)
{
    double m = max_of(v, a, b);
    *at = m == -INFINITY ? b : run_first(v, a, b, m);
    return m;
}

/* d·p for d = 2^-1074 and p ≥ 0 finite, as IEEE multiplication rounds it (to nearest even),
 * from integers: no subnormal operand (each would cost a microcode assist on Intel cores). The
 * exact product is p·2^-1074: below 2^-1022 (p < 2^52) the subnormal whose encoding is p
 * rounded to an integer (nearest even), else p's own significand with the exponent 1074
 * lower. */
static inline double times_true_min(double p)
{
    uint64_t pb = double_bits(p);
    int64_t small = pb < double_bits(0x1p52); /* p < 2^52 (p ≥ 0: integer compares, which
                                                 * select without branches) */
    double q = double_from_bits(small ? pb : 0);
    /* q + 2^52 in [2^52, 2^53] has spacing 1: its significand is q rounded to an integer
     * (nearest even), and its encoding less 2^52's that integer (2^52 itself included) */
    uint64_t sub = double_bits(q + 0x1p52) - double_bits(0x1p52);
    uint64_t normal = pb - ((uint64_t)1074 << 52);
    return double_from_bits(small ? sub : normal);
}

/* hist_bucket without branches, for the hot loop (the same bucket for every u ≥ 0 or NaN: the
 * errors are absolute values): selections on the double's fields, so that a loop of errors that
 * fall in several buckets costs no mispredicted branches. */
static inline int hist_bucket_sel(double u)
{
    uint64_t b;
    memcpy(&b, &u, sizeof b);
    int e = (int)((b >> 52) & 0x7ff) - 1023;
    int k = e + ((b & 0xfffffffffffffull) != 0) + 2; /* ceil(log2 u) + 2 for u in (0.5, 2^20] */
    k = u <= 0.5 ? 1 : k;
    k = u == 0 ? 0 : k;
    k = u > 0x1p20 ? HIST_BUCKETS - 2 : k;
    k = !(u <= DBL_MAX) ? HIST_BUCKETS - 1 : k; /* +inf and NaN */
    return k;
}

/* at_ulp of a run_sums whose first indices are not known yet (run_sums_of without them). */
#define RUN_AT_UNKNOWN SIZE_MAX

/* The first index in [a, b) reaching each of s's maxima (run_first), as run_sums_of sets them. */
static inline void run_sums_firsts(run_sums *s, size_t a, size_t b, const double *ulp,
                                   const double *abs, const double *rel)
{
    s->at_ulp = s->at_abs = s->at_rel = b;
    if (s->max_ulp != -INFINITY) s->at_ulp = run_first(ulp, a, b, s->max_ulp);
    if (s->max_abs != -INFINITY) s->at_abs = run_first(abs, a, b, s->max_abs);
    if (s->max_rel != -INFINITY) s->at_rel = run_first(rel, a, b, s->max_rel);
}

/* The sums of the points [a, b) with errors ulp[], abs[], rel[] and correctly-rounded flags
 * cr[] (the scan's hot loop: counters in locals, maxima as plain values; the histogram by a
 * counting pass per bucket where the run's errors span at most four, else by increments). The
 * first indices reaching the maxima too, unless firsts is false: then at_ulp is RUN_AT_UNKNOWN,
 * for run_sums_firsts to set where a fold needs them (it reads one only where that maximum
 * beats the row's: rarely, so the correctly rounded values' sums leave them to it). */
__attribute__((always_inline)) /* into the scan's clones (HOT_CLONES: hot_clones.h) */
static inline void run_sums_of(run_sums *s, size_t a, size_t b, bool x_finite, bool firsts,
                               const double *ulp, const double *abs, const double *rel,
                               const uint32_t *cr)
{
    uint64_t finite = 0, q_sum = 0, crs = 0;
    int32_t kmin = HIST_BUCKETS, kmax = -1; /* the buckets the run's errors fall in */
    int64_t mu = max_key(-INFINITY), ma = mu, mr = mu; /* the maxima (max_of) in the same pass */
    for (size_t j = a; j < b; j++) {
        int64_t ku = max_key(ulp[j]), ka = max_key(abs[j]), kr = max_key(rel[j]);
        mu = ku > mu ? ku : mu;
        ma = ka > ma ? ka : ma;
        mr = kr > mr ? kr : mr;
        double u = ulp[j];
        uint64_t in_sum = u <= ULP_SUM_CAP; /* finite (NaN and inf fail the test) */
        uint64_t capped = (in_sum ^ 1) & (u <= DBL_MAX); /* (no && : no branch) */
        finite += in_sum | capped;
        /* at most 4096 terms below 2^50 each: no overflow within a block */
        uint64_t term = ulp_sum_term(in_sum ? u : 0);
        q_sum += capped ? (uint64_t)(ULP_SUM_CAP * ULP_SUM_SCALE) : term;
        crs += cr[j];
        int32_t k = hist_bucket_sel(u);
        kmin = k < kmin ? k : kmin;
        kmax = k > kmax ? k : kmax;
    }
    s->finite = finite;
    s->q_sum = q_sum;
    s->crs = crs;
    s->hist_used = 0;
    memset(s->hist, 0, sizeof s->hist);
    if (kmin == kmax) { /* one bucket (the correctly rounded values' own errors, mostly) */
        s->hist[kmin] = (uint32_t)(b - a);
    } else if (kmax - kmin < 4) { /* few buckets: a counting pass each, vectorized */
        for (int32_t k = kmin; k <= kmax; k++) {
            uint32_t c = 0;
            for (size_t j = a; j < b; j++) c += hist_bucket_sel(ulp[j]) == k;
            s->hist[k] = c;
        }
    } else { /* four interleaved copies: consecutive points in one bucket do not wait on each
              * other's increments */
        uint32_t h[4][HIST_BUCKETS];
        memset(h, 0, sizeof h);
        for (size_t j = a; j < b; j++) h[j & 3][hist_bucket_sel(ulp[j])]++;
        for (int k = 0; k < HIST_BUCKETS; k++) s->hist[k] = h[0][k] + h[1][k] + h[2][k] + h[3][k];
    }
    for (int k = 0; k < HIST_BUCKETS; k++) s->hist_used |= (uint32_t)(s->hist[k] != 0) << k;
    /* Maxima are over finite inputs: ±inf and NaN are judged by encoding (special values). */
    s->at_ulp = s->at_abs = s->at_rel = b;
    s->max_ulp = s->max_abs = s->max_rel = -INFINITY;
    if (x_finite) { /* max_at's values and first indices */
        s->max_ulp = double_from_bits((uint64_t)mu);
        s->max_abs = double_from_bits((uint64_t)ma);
        s->max_rel = double_from_bits((uint64_t)mr);
        if (firsts) run_sums_firsts(s, a, b, ulp, abs, rel);
        else s->at_ulp = RUN_AT_UNKNOWN;
    }
}

/* An input's ULP error as dist_sums' q (the caller has checked it is finite). */
static inline uint64_t dist_q(double u)
{
    return (uint64_t)(int64_t)((u <= ULP_SUM_CAP ? u : ULP_SUM_CAP) * DIST_Q_SCALE);
}

/* log2 of a power of two that is a normal double (1/ulp, reference.h), from its exponent bits. */
static inline int dist_log2(double p)
{
    uint64_t b;
    memcpy(&b, &p, sizeof b);
    return (int)((b >> 52) & 0x7ff) - 1023;
}

/* The absolute error's term: W·q·ulp from t = W·q, for 1/ulp = inv_ulp (a power of two); past
 * the cap of the ULP error (u > 2^30), W·⌊min(a, 2^30)·2^27⌋ from the absolute error a. */
static inline u128 dist_abs_term(u128 t, uint64_t W, double u, double a, double inv_ulp)
{
    if (!(u <= ULP_SUM_CAP)) return (u128)W * dist_q(a);
    int e = dist_log2(inv_ulp);
    return e >= 128 ? 0 : e >= 0 ? t >> e : t << -e;
}

/* One input's share of the weighted sums (fixed weight W, ULP error u, absolute error abs, 1/ULP
 * inv_ulp), with
 * the sign +1 (add) or −1 (take back): inputs whose ULP error is not finite are left out. */
static inline void dist_point(dist_sums *s, uint64_t W, double u, double abs, double inv_ulp,
                              int sign)
{
    if (W == 0 || !(u <= ULP_SUM_CAP || isfinite(u))) return;
    u128 t = (u128)W * dist_q(u), a = dist_abs_term(t, W, u, abs, inv_ulp);
    if (sign > 0) {
        s->ulp += t;
        s->abs += a;
        s->weight += W;
    } else {
        s->ulp -= t;
        s->abs -= a;
        s->weight -= W;
    }
}

static inline void dist_add(dist_sums *dst, const dist_sums *src)
{
    dst->ulp += src->ulp;
    dst->abs += src->abs;
    dst->weight += src->weight;
}

/* t = w·q exactly as 128 bits (*hi, *lo) from 32-bit products (which vectorize, where a 128-bit
 * product does not): w < 2^52 (a fixed weight), q < 2^58 (dist_q). */
static inline void dist_mul(uint64_t w, uint64_t q, uint64_t *hi, uint64_t *lo)
{
    uint64_t wl = (uint32_t)w, wh = w >> 32, ql = (uint32_t)q, qh = q >> 32;
    uint64_t ll = wl * ql, mid = wl * qh + wh * ql; /* < 2^64, < 2^58 */
    uint64_t l = ll + (mid << 32);
    *lo = l;
    *hi = wh * qh + (mid >> 32) + (l < ll);
}

/* (hi, lo) >> e for 0 ≤ e < 128, as 128 bits; without shifts by 64 or more (undefined in C). */
static inline void dist_shift(uint64_t hi, uint64_t lo, int64_t e, uint64_t *r_hi, uint64_t *r_lo)
{
    int64_t small = e < 64;
    uint64_t s = (uint64_t)(small ? e : 0), s_big = (uint64_t)(small ? 0 : e - 64);
    uint64_t lo_small = (lo >> s) | ((hi << 1) << (63 - s)); /* s = 0: hi << 64 is 0 */
    *r_lo = small ? lo_small : hi >> s_big;
    *r_hi = small ? hi >> s : 0;
}

/* ULP_SUM_CAP's encoding (2^30; tests/test_scan.c checks it). */
#define DIST_CAP_BITS ((uint64_t)(1023 + 30) << 52)

/* A 128-bit sum (hi, lo) of the points' terms kept as three 64-bit sums that vectorize — the
 * high halves, and the low halves' upper and lower 32 bits: each below 2^64 for the 4,096
 * points of a block (high halves < 2^46) — and its value. */
static inline u128 dist_acc_value(uint64_t hi, uint64_t mid, uint64_t low)
{
    return ((u128)hi << 64) + ((u128)mid << 32) + low;
}

/* A point's dist_q(u) where it is usual — u (+0, positive, +inf or NaN: an error's magnitude)
 * within the cap, which holds exactly when its encoding is at most the cap's (integer compares:
 * no trapping compare to select on), and log2(1/ulp) = *e ≥ 0 — with *keep all ones; else 0,
 * with *keep 0. Without branches, for dist_run's loops. */
__attribute__((always_inline)) static inline uint64_t dist_usual_q(double ulp, double inv_ulp,
                                                                   int64_t *e, uint64_t *keep)
{
    uint64_t ub, bits;
    memcpy(&ub, &ulp, sizeof ub);
    memcpy(&bits, &inv_ulp, sizeof bits);
    *e = (int64_t)((bits >> 52) & 0x7ff) - 1023; /* dist_log2 */
    *keep = -((uint64_t)(ub <= DIST_CAP_BITS) & (uint64_t)(*e >= 0));
    ub &= *keep; /* +0 where not usual */
    double u;
    memcpy(&u, &ub, sizeof u);
    return (uint64_t)(int64_t)(u * DIST_Q_SCALE); /* dist_q */
}

/* The weighted sums of the points [a, b) (fixed weights W[DIST_*][j], ULP errors ulp[],
 * absolute errors abs[], 1/ULP inv_ulp[]), given total[d], the sum of the run's weights: the
 * weight is that less the weights of the points whose ULP error is not finite (few). The same
 * bits as dist_point: the usual case — a finite error within the cap and log2(1/ulp) ≥ 0 — in
 * one loop without branches (dist_mul, dist_shift; the sums as dist_acc_value's parts), the
 * others point by point as dist_point takes them; integer sums, so the split changes no bit.
 * w_max (at least every W[d][j]) and u_max (at least every ULP error within the cap: the run's
 * maximum) choose the loop: where every product W·q is below 2^64 (w_max·(u_max·2^27 + 1) <
 * 2^63 — small weights, |x| ≲ 2^-8, and small errors, the correctly rounded values' ≤ 0.5)
 * products and shifts of 64 bits give the same parts (the high halves 0) at a third of the
 * cost (the 128-bit weighted sums are a sixth of a one-implementation scan there). Inlined into the
 * scan's clones. */
__attribute__((always_inline)) /* into the scan's clones (HOT_CLONES: hot_clones.h) */
static inline void dist_run(dist_sums out[DIST_COUNT], const uint64_t *const W[DIST_COUNT], size_t a,
                            size_t b, const double *ulp, const double *abs, const double *inv_ulp,
                            const u128 total[DIST_COUNT], uint64_t w_max, double u_max)
{
    _Static_assert(DIST_COUNT == 2, "dist_run adds two distributions");
    const uint64_t *W0 = W[0], *W1 = W[1];
    /* the sums as dist_acc_value's three parts: U* the ULP sums, A* the absolute ones */
    uint64_t U0h = 0, U0m = 0, U0l = 0, U1h = 0, U1m = 0, U1l = 0;
    uint64_t A0h = 0, A0m = 0, A0l = 0, A1h = 0, A1m = 0, A1l = 0;
    uint64_t others = 0;
    bool narrow = u_max >= 0 && u_max <= ULP_SUM_CAP &&
                  (double)w_max * (u_max * DIST_Q_SCALE + 1) < 0x1p63;
    if (u_max >= 0 && u_max * DIST_Q_SCALE < 1) {
        /* every usual point's q is ⌊u·2^27⌋ = 0 (u ≤ u_max < 2^-27: the correctly rounded
         * values' errors for |x| below about 2^-52): its terms are 0, only the others count */
        for (size_t j = a; j < b; j++) {
            int64_t e;
            uint64_t keep;
            (void)dist_usual_q(ulp[j], inv_ulp[j], &e, &keep);
            others += keep + 1;
        }
    } else if (narrow) {
        for (size_t j = a; j < b; j++) { /* the loop below with 64-bit products */
            int64_t e;
            uint64_t keep, q = dist_usual_q(ulp[j], inv_ulp[j], &e, &keep);
            others += keep + 1; /* 1 where not usual (keep 0), else 0 (keep all ones) */
            uint64_t small = -(uint64_t)((e >= 0) & (e < 64)); /* past 2^64 the shift gives 0 */
            uint64_t ec = (uint64_t)e & small & 63;
            uint64_t keep_abs = keep & small;
            uint64_t t0 = W0[j] * q, t1 = W1[j] * q; /* < 2^64: exact */
            uint64_t r0 = t0 >> ec, r1 = t1 >> ec;
            U0m += (t0 >> 32) & keep;
            U0l += (t0 & 0xffffffffu) & keep;
            U1m += (t1 >> 32) & keep;
            U1l += (t1 & 0xffffffffu) & keep;
            A0m += (r0 >> 32) & keep_abs;
            A0l += (r0 & 0xffffffffu) & keep_abs;
            A1m += (r1 >> 32) & keep_abs;
            A1l += (r1 & 0xffffffffu) & keep_abs;
        }
    } else {
        for (size_t j = a; j < b; j++) {
            int64_t e;
            uint64_t keep, q = dist_usual_q(ulp[j], inv_ulp[j], &e, &keep);
            others += keep + 1;
            int64_t ec = ((e >= 0) & (e < 128)) ? e : 0; /* a shift by it is defined at every point */
            uint64_t keep_abs = keep & -(uint64_t)(e < 128); /* past 2^128 the absolute term is 0 */
            uint64_t h0, l0, h1, l1, rh0, rl0, rh1, rl1;
            dist_mul(W0[j], q, &h0, &l0);
            dist_mul(W1[j], q, &h1, &l1);
            dist_shift(h0, l0, ec, &rh0, &rl0);
            dist_shift(h1, l1, ec, &rh1, &rl1);
            U0h += h0 & keep;
            U0m += (l0 >> 32) & keep;
            U0l += (l0 & 0xffffffffu) & keep;
            U1h += h1 & keep;
            U1m += (l1 >> 32) & keep;
            U1l += (l1 & 0xffffffffu) & keep;
            A0h += rh0 & keep_abs;
            A0m += (rl0 >> 32) & keep_abs;
            A0l += (rl0 & 0xffffffffu) & keep_abs;
            A1h += rh1 & keep_abs;
            A1m += (rl1 >> 32) & keep_abs;
            A1l += (rl1 & 0xffffffffu) & keep_abs;
        }
    }
    u128 su0 = dist_acc_value(U0h, U0m, U0l), su1 = dist_acc_value(U1h, U1m, U1l);
    u128 sa0 = dist_acc_value(A0h, A0m, A0l), sa1 = dist_acc_value(A1h, A1m, A1l);
    u128 sw0 = 0, sw1 = 0;
    for (size_t j = a; others && j < b; j++) { /* the rest, as dist_point */
        double u = ulp[j];
        if (u <= ULP_SUM_CAP && dist_log2(inv_ulp[j]) >= 0) continue; /* taken above */
        others--;
        uint64_t w0 = W0[j], w1 = W1[j];
        if (!(u <= ULP_SUM_CAP || isfinite(u))) { /* left out: its weight taken back */
            sw0 += w0;
            sw1 += w1;
            continue;
        }
        uint64_t q = dist_q(u);
        u128 t0 = (u128)w0 * q, t1 = (u128)w1 * q;
        su0 += t0;
        su1 += t1;
        sa0 += dist_abs_term(t0, w0, u, abs[j], inv_ulp[j]);
        sa1 += dist_abs_term(t1, w1, u, abs[j], inv_ulp[j]);
    }
    out[0] = (dist_sums){su0, sa0, total[0] - sw0};
    out[1] = (dist_sums){su1, sa1, total[1] - sw1};
}

/* Whether folding a run whose maxima are at most those of s would change any maximum of m
 * (within one thread positions only grow, so an equal value never displaces). */
static inline bool run_beats_maxima(const error_metrics *m, const run_sums *s, int bucket)
{
    if (s->max_ulp > m->max_ulp.value || s->max_abs > m->max_abs.value || s->max_rel > m->max_rel.value)
        return true;
    return bucket != X_BUCKET_NONE && (s->max_ulp > m->x_max_ulp[bucket] || s->max_abs > m->x_max_abs[bucket]);
}

/* Folds a run's sums into m: the points [a, b) of a block, the point at index j at position
 * seq0 + j of the domain; where a maximum of s beats m's, s's first index reaching it (at_*,
 * which run_sums_of and max_at set) stands for the run. The same results as adding the points
 * one by one. */
static inline void error_metrics_fold(error_metrics *m, uint64_t seq0, const float *x, size_t a,
                                      size_t b, input_range range, int bucket, bool x_finite,
                                      const run_sums *s)
{
    uint64_t *hist = m->hist[range];
    m->count += b - a;
    m->finite += s->finite;
    uint64_t lo = m->ulp_sum_lo + s->q_sum;
    m->ulp_sum_hi += lo < m->ulp_sum_lo;
    m->ulp_sum_lo = lo;
    m->correctly_rounded += s->crs;
    for (uint32_t used = s->hist_used; used; used &= used - 1) {
        int k = __builtin_ctz(used);
        hist[k] += s->hist[k];
    }
    if (!x_finite) return;
    /* where a run beats the maximum so far (rarely, once the scan is under way), its first
     * point reaching the run's maximum stands for it */
    if (s->max_ulp > m->max_ulp.value) {
        size_t j = s->at_ulp;
        arg_max_add(&m->max_ulp, s->max_ulp, seq0 + j, x[j]);
    }
    if (s->max_abs > m->max_abs.value) {
        size_t j = s->at_abs;
        arg_max_add(&m->max_abs, s->max_abs, seq0 + j, x[j]);
    }
    if (s->max_rel > m->max_rel.value) {
        size_t j = s->at_rel;
        arg_max_add(&m->max_rel, s->max_rel, seq0 + j, x[j]);
    }
    if (bucket != X_BUCKET_NONE) {
        if (s->max_ulp > m->x_max_ulp[bucket]) m->x_max_ulp[bucket] = s->max_ulp;
        if (s->max_abs > m->x_max_abs[bucket]) m->x_max_abs[bucket] = s->max_abs;
    }
}

/* Adds the points [a, b) of a run with errors ulp[], abs[], rel[] and correctly-rounded flags
 * cr[]: run_sums_of, then error_metrics_fold. */
static inline void error_metrics_add_run(error_metrics *m, uint64_t seq0, const float *x, size_t a,
                                         size_t b, input_range range, int bucket, bool x_finite,
                                         const double *ulp, const double *abs, const double *rel,
                                         const uint32_t *cr)
{
    run_sums s;
    run_sums_of(&s, a, b, x_finite, true, ulp, abs, rel, cr);
    error_metrics_fold(m, seq0, x, a, b, range, bucket, x_finite, &s);
}

#endif
