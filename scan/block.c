/* One block of one row's metrics (the metric loop; docs/DESIGN.md, "The scan's metric rows"):
 * each point's errors against the block's reference values (point_errors, the one definition),
 * the peers' criteria counts, the monotonicity and sign checks, the reference values filled
 * (fast enclosure, MPFR where it cannot decide) and flushed under FTZ, and row_metrics: a row's
 * metrics as the correctly rounded values' own, corrected at the points where its output's
 * encoding differs. */
#include "scan_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "near_tolerance.h"
#include "hot_clones.h"
#include "mono_filter.h"
#include "fast.h"
#include "weights.h"

/* The errors of output y at point j against the reference r: |y − (hi + lo)| in ULPs, absolute
 * and relative; the general rules (ref_*_error_dd) where the reference or the output is not a
 * finite non-zero number. The one definition of a point's errors: every path of the metric loop
 * computes them this way, so that they agree to the last bit. */
static inline void point_errors(float y, const point_ref *r, size_t j, double *ulp, double *abs,
                                double *rel)
{
    if (r->plain[j] && isfinite(y)) {
        double d = fabs(((double)y - r->hi[j]) - r->lo[j]);
        *abs = d;
        *ulp = d * r->inv_ulp[j];
        *rel = d * r->inv_abs[j];
    } else {
        *ulp = ref_ulp_error_dd(y, r->hi[j], r->lo[j]);
        *abs = ref_abs_error_dd(y, r->hi[j], r->lo[j]);
        *rel = ref_rel_error_dd(y, r->hi[j], r->lo[j]);
    }
}

/* Same encoding as the correctly rounded value, or both NaN. */
static inline uint32_t is_cr(uint32_t b, uint32_t c)
{
    return (b == c) | (((b & 0x7fffffffu) > 0x7f800000u) & ((c & 0x7fffffffu) > 0x7f800000u));
}

/* The peers' criteria at one forward point with absolute error d (point_errors). */
static inline void criteria_point(criteria_counts *c, float x, float y, const point_ref *r,
                                  size_t j, double d)
{
    if (r->plain[j] && fabsf(y) <= 0x1.fffffep127f) { /* the rules' finite branch */
        double f = fabs(r->hi[j]);
        bool in = fabsf(x) <= (float)XNNPACK_GELU_DOMAIN;
        double measured = f > BENCHDNN_GELU_ERF_REL_FLOOR ? d / f : d;
        c->benchdnn += measured > BENCHDNN_GELU_ERF_THRESHOLD;
        c->checked += in;
        c->xnnpack += in & !((d <= XNNPACK_GELU_ABS_TOL) | (d <= XNNPACK_GELU_REL_TOL * f));
        return;
    }
    c->benchdnn += criterion_benchdnn_gelu_erf(x, y, r->hi[j], r->lo[j]) == CRITERION_FAIL;
    criterion_result v = criterion_xnnpack_gelu(x, y, r->hi[j], r->lo[j]);
    c->checked += v != CRITERION_NOT_APPLICABLE;
    c->xnnpack += v == CRITERION_FAIL;
}

/* criteria_point over a block of outputs y with absolute errors abs[]: the finite branch as a
 * loop the compiler vectorizes, then the points whose reference or output is not a finite
 * non-zero number. */
HOT_CLONES void count_criteria(criteria_counts *c, const float *x, const float *y,
                                const point_ref *r, const double *abs, size_t n,
                                bool any_special)
{
    /* Compares as integer compares of encodings (the values compared are +0, positive, or NaN
     * only at points that are not plain, which count nothing): a loop of them vectorizes, one
     * of trapping floating-point compares selecting values does not (GCC 12). */
    const uint64_t floor_bits = double_bits(BENCHDNN_GELU_ERF_REL_FLOOR),
                   thr_bits = double_bits(BENCHDNN_GELU_ERF_THRESHOLD),
                   abs_tol_bits = double_bits(XNNPACK_GELU_ABS_TOL),
                   tiny_bits = double_bits(0x1p-900);
    const uint32_t domain_bits = float_bits((float)XNNPACK_GELU_DOMAIN);
    uint64_t benchdnn = 0, xnnpack = 0, checked = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t plain = (r->plain[j] | r->zero[j]) & ((float_bits(y[j]) & 0x7fffffffu) < 0x7f800000u);
        double d = abs[j], f = fabs(r->hi[j]);
        uint64_t db = double_bits(d), fb = double_bits(f);
        uint64_t in = (float_bits(x[j]) & 0x7fffffffu) <= domain_bits;
        /* d below 2^-900 fails no rule (d/f < 2^-900/1e-5); dividing a subnormal d (the
         * correctly rounded values' errors past x = 16) would cost a microcode assist */
        double d_q = double_from_bits(db < tiny_bits ? 0 : db);
        uint64_t measured = fb > floor_bits ? double_bits(d_q / f) : db;
        benchdnn += plain & (measured > thr_bits);
        checked += plain & in;
        uint64_t pass = (db <= abs_tol_bits) | (db <= double_bits(XNNPACK_GELU_REL_TOL * f));
        xnnpack += plain & in & (pass ^ 1);
    }
    c->benchdnn += benchdnn;
    c->xnnpack += xnnpack;
    c->checked += checked;
    if (any_special)
        for (size_t j = 0; j < n; j++)
            if (!(r->plain[j] | r->zero[j]) || !isfinite(y[j]))
                criteria_point(c, x[j], y[j], r, j, abs[j]);
}

static void add_criteria(error_metrics *m, const criteria_counts *c)
{
    m->benchdnn_failed += c->benchdnn;
    m->xnnpack_failed += c->xnnpack;
    m->xnnpack_checked += c->checked;
}

/* The errors of a whole block of outputs into ulp[], abs[], rel[] (a loop the compiler
 * vectorizes; outputs or references that are not finite non-zero numbers redone by
 * point_errors) and the correctly-rounded flags into cr[]; returns whether any point took the
 * general rules. */
HOT_CLONES static bool block_errors(const float *y, const point_ref *r, size_t n, double *ulp,
                                     double *abs, double *rel, uint32_t *cr)
{
    for (size_t j = 0; j < n; j++) {
        double d = fabs(((double)y[j] - r->hi[j]) - r->lo[j]);
        abs[j] = d;
        ulp[j] = d * r->inv_ulp[j];
        /* an exact zero reference: inv_abs = 0, so the product is +0 (y finite), and y ≠ 0
         * (d ≠ 0) makes it ∞, as ref_rel_error_dd says */
        uint64_t inf = -(uint64_t)(r->zero[j] & (double_bits(d) != 0)) & double_bits(INFINITY);
        rel[j] = double_from_bits(double_bits(d * r->inv_abs[j]) | inf);
    }
    unsigned specials = 0; /* references that are not finite (zero or not) or outputs not finite */
    for (size_t j = 0; j < n; j++)
        specials |= ((r->plain[j] | r->zero[j]) ^ 1u) |
                    ((float_bits(y[j]) & 0x7fffffffu) >= 0x7f800000u);
    if (specials)
        for (size_t j = 0; j < n; j++)
            if (!(r->plain[j] | r->zero[j]) || !isfinite(y[j]))
                point_errors(y[j], r, j, &ulp[j], &abs[j], &rel[j]);
    for (size_t j = 0; j < n; j++) cr[j] = is_cr(float_bits(y[j]), float_bits(r->cr[j]));
    return specials != 0;
}

/* block_errors of the correctly rounded values themselves (y = r->cr). Where r->cr equals hi
 * (past the upper thresholds: hi = x or 1, lo = ∓2^-1074 marking the side) the error is |lo|
 * exactly, and its ULP and relative errors are the products |lo|·inv_ulp and |lo|·inv_abs as
 * block_errors computes them; when lo is subnormal those operations would each cost a microcode
 * assist on Intel cores, so a block with a subnormal lo takes them without one: |lo| = 2^-1074
 * by times_true_min, |lo| = 0 or normal by multiplication (the other lanes' operands replaced by
 * 1), in a loop that vectorizes; other points (another subnormal |lo|, a reference that is not a
 * finite non-zero number, r->cr ≠ hi) afterwards as block_errors takes them. Same values. */
HOT_CLONES bool cr_errors(const point_ref *r, size_t n, double *ulp, double *abs,
                           double *rel, uint32_t *cr)
{
    /* Either path gives the same values at every point; a block past the thresholds has a
     * subnormal lo throughout, so its ends tell which path is faster. */
    bool subnormal_lo = false;
    for (size_t j = 0; j < n; j += n - 1 > 0 ? n - 1 : 1)
        subnormal_lo |= fabs(r->lo[j]) < DBL_MIN && r->lo[j] != 0;
    if (!subnormal_lo) return block_errors(r->cr, r, n, ulp, abs, rel, cr);
    /* cr[] first holds whether the products below are the point's values */
    uint32_t others = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t db = double_bits(r->lo[j]) & 0x7fffffffffffffffull; /* |lo| */
        uint32_t usual = (r->plain[j] != 0) & ((double)r->cr[j] == r->hi[j]) &
                         ((db <= 1) | (db >= double_bits(DBL_MIN)));
        cr[j] = usual;
        others += usual ^ 1;
    }
    for (size_t j = 0; j < n; j++) {
        /* selections as masks on the encodings: written as ?: on doubles, GCC turns
         * d·(m ? 1 : p) into a conditional product, which its vectorizer does not take */
        uint64_t db = double_bits(r->lo[j]) & 0x7fffffffffffffffull;
        uint64_t m = -(uint64_t)(db == 1); /* |lo| = 2^-1074 */
        uint64_t iu = double_bits(r->inv_ulp[j]), ia = double_bits(r->inv_abs[j]), one = double_bits(1.0);
        double d = double_from_bits((one & m) | (db & ~m));
        double u_mul = d * double_from_bits((one & m) | (iu & ~m));
        double r_mul = d * double_from_bits((one & m) | (ia & ~m));
        uint64_t u_min = double_bits(times_true_min(double_from_bits(iu & m)));
        uint64_t r_min = double_bits(times_true_min(double_from_bits(ia & m)));
        abs[j] = double_from_bits(db);
        ulp[j] = double_from_bits((u_min & m) | (double_bits(u_mul) & ~m));
        rel[j] = double_from_bits((r_min & m) | (double_bits(r_mul) & ~m));
    }
    bool any_special = false;
    for (size_t j = 0; others && j < n; j++) {
        if (cr[j]) continue;
        others--;
        any_special |= !r->plain[j] || !isfinite(r->cr[j]);
        point_errors(r->cr[j], r, j, &ulp[j], &abs[j], &rel[j]);
    }
    for (size_t j = 0; j < n; j++) cr[j] = 1;
    return any_special;
}

/* Monotonicity over consecutive pairs x[k-1], x[k] (x[0] may be the previous block's last
 * input, so that seams are checked); x[k] is at position seq_first + k. pair_suspect over the
 * whole block first (one vectorized loop, one reduction: most blocks have no suspect pair),
 * then 16 pairs at a time, check_pair only in the groups it flags. */
HOT_CLONES void check_monotone(mono_metrics *m, const float *x, const float *y, size_t count,
                    uint64_t seq_first, double x_min)
{
    int32_t le, ge;
    x_min_keys(x_min, &le, &ge);
    uint32_t any_pair = 0;
    for (size_t k = 1; k < count; k++) any_pair |= pair_suspect(x, y, k, le, ge);
    if (!any_pair) return;
    for (size_t g = 1; g < count; g += 16) {
        size_t e = g + 16 < count ? g + 16 : count;
        uint32_t any = 0;
        for (size_t k = g; k < e; k++) any |= pair_suspect(x, y, k, le, ge);
        if (any)
            for (size_t k = g; k < e; k++) check_pair(m, x, y, k, seq_first, x_min);
    }
}

HOT_CLONES void check_sign(sign_metrics *m, const float *x, const float *y, const point_ref *r,
                size_t n, uint64_t seq0, double x_min)
{
    int32_t le, ge;
    x_min_keys(x_min, &le, &ge);
    if (isnan(x_min)) { /* every x on the right (x < NaN is false): no keys for that */
        for (size_t j = 0; j < n; j++) check_sign_at(m, x, y, r, j, seq0, x_min);
        return;
    }
    uint32_t any_point = 0; /* the whole block first, as check_monotone */
    for (size_t j = 0; j < n; j++) any_point |= sign_suspect(x, y, r->cr, j, ge);
    if (!any_point) return;
    for (size_t g = 0; g < n; g += 16) {
        size_t e = g + 16 < n ? g + 16 : n;
        uint32_t any = 0;
        for (size_t j = g; j < e; j++) any |= sign_suspect(x, y, r->cr, j, ge);
        if (any)
            for (size_t j = g; j < e; j++) check_sign_at(m, x, y, r, j, seq0, x_min);
    }
}

/* The reference values of target t at the block's inputs in the ndir directions scanned, into
 * w->ref[t][d]'s hi, lo, cr, inv_ulp and err: the block fill (fast_ref_fill: SIMD lanes, both
 * directions sharing their libm values), MPFR at the points it cannot decide (err then NaN,
 * unless MPFR's value is the enclosure's). When profiling, the fill's time is split evenly
 * between the directions. */
void fill_refs(scan_worker *w, gelu_target t, int ndir, const float *x, size_t n,
               const double *e_half, const input_span *span)
{
    double t0 = w->profiling ? now_s() : 0;
    ref_arrays out[DIR_COUNT];
    for (int d = 0; d < DIR_COUNT; d++) {
        point_ref *p = w->ref[t][d];
        out[d] = (ref_arrays){p->hi, p->lo, p->inv_ulp, p->err, p->cr};
    }
    uint16_t *undecided[DIR_COUNT] = {w->undecided[0], w->undecided[1]};
    size_t nundecided[DIR_COUNT];
    fast_ref_fill(t, ndir, x, n, out, undecided, nundecided, e_half, span);
    double share = w->profiling ? (now_s() - t0) / ndir : 0;
    for (int d = 0; d < ndir; d++) {
        w->prof.reference[t][d] += share;
        for (size_t k = 0; k < nundecided[d]; k++) {
            size_t j = undecided[d][k];
            double f0 = w->profiling ? now_s() : 0;
            double enc_hi = out[d].hi[j], enc_lo = out[d].lo[j]; /* the enclosure's */
            ref_value v;
            fast_ref_fallback(t, d == DIR_DERIVATIVE, x[j], &v, &out[d].inv_ulp[j]);
            ref_arrays_set(&out[d], j, v);
            if (v.hi != enc_hi || v.lo != enc_lo) out[d].err[j] = NAN;
            w->part->fallbacks[t][d]++;
            double spent = w->profiling ? now_s() - f0 : 0; /* MPFR's time, part of the reference's */
            w->prof.fallback[t][d] += spent;
            w->prof.reference[t][d] += spent;
        }
    }
}

/* Under FTZ: the reference values of target t (at the inputs x_ref, as the kernels read them)
 * that FTZ turns to zero (ref_ftz_zero: a subnormal correctly rounded value, or ±2^-126 from an
 * exact value below 2^-126 − 2^-151, decided with MPFR at those few points) become the zero of
 * their sign, exact (hi = ±0, lo = 0; its ULP the subnormal one, 2^-149, as for any zero):
 * docs/DESIGN.md, "Floating-point environments". Applied to fill_refs' values before
 * prepare_refs reads them, so that the correctly rounded outputs' own metrics are FTZ's. */
void flush_refs(scan_worker *w, gelu_target t, int ndir, const float *x_ref, size_t n)
{
    mpfr_t exact;
    bool have_exact = false;
    for (int d = 0; d < ndir; d++) {
        point_ref *p = w->ref[t][d];
        for (size_t j = 0; j < n; j++) {
            bool zero = gelu_fpenv_subnormal(p->cr[j]);
            if (!zero && fabsf(p->cr[j]) == 0x1p-126f) {
                if (!have_exact) mpfr_init2(exact, REF_EXACT_PREC);
                have_exact = true;
                ref_eval(t, d == DIR_DERIVATIVE, x_ref[j], exact);
                zero = ref_ftz_zero(p->cr[j], exact);
            }
            if (zero) {
                float z = p->cr[j] < 0 ? -0.0f : 0.0f;
                p->hi[j] = z;
                p->lo[j] = 0.0;
                p->cr[j] = z;
                p->err[j] = NAN; /* not the enclosure's value */
                p->inv_ulp[j] = ref_inv_ulp(p->hi[j], 0.0);
            }
        }
    }
    if (have_exact) mpfr_clear(exact);
}

/* The points where y differs from the correctly rounded values by encoding, into w->mis
 * (ascending): 16 points at a time compared with integer operations that vectorize, the
 * groups that differ looked at one by one. */
HOT_CLONES static void find_mismatches(scan_worker *w, const float *y, const point_ref *r, size_t n)
{
    size_t nmis = 0;
    for (size_t g = 0; g < n; g += 16) {
        size_t e = g + 16 < n ? g + 16 : n;
        uint32_t diff = 0;
        for (size_t j = g; j < e; j++) diff |= float_bits(y[j]) ^ float_bits(r->cr[j]);
        if (diff) /* written at every point, kept where it differs: no branch to mispredict
                   * where most points differ (the approximations in the core) */
            for (size_t j = g; j < e; j++) {
                w->mis[nmis] = (uint16_t)j;
                nmis += float_bits(y[j]) != float_bits(r->cr[j]);
            }
    }
    w->nmis = nmis;
}

/* 1/|hi| at the plain points (0 elsewhere) into inv_abs; the division unconditional. */
HOT_CLONES void fill_inv_abs(point_ref *p, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        double inv = 1.0 / fabs(p->hi[j]);
        p->inv_abs[j] = p->plain[j] ? inv : 0;
    }
}

/* What prepare_refs left unfilled in a block past a threshold (upper_block, stand_in_block):
 * inv_abs and the correctly rounded outputs' errors, as it fills them elsewhere (below the
 * lower threshold the constants they all equal), before a row reads them (in the worker's own
 * buffer: a cache, as near_tight_run's). Their time is the row's. */
HOT_CLONES void refs_fill_errors(scan_worker *w, const point_ref *r, size_t n)
{
    point_ref *p = (point_ref *)r;
    if (!p->lazy) return;
    if (p->lazy_const) {
        const double inv = p->lazy_c[0], u = p->lazy_c[1], d = p->lazy_c[2], rel = p->lazy_c[3];
        for (size_t j = 0; j < n; j++) {
            p->inv_abs[j] = inv;
            p->cr_ulp[j] = u;
            p->cr_abs[j] = d;
            p->cr_rel[j] = rel;
        }
    } else {
        fill_inv_abs(p, n);
        cr_errors(p, n, p->cr_ulp, p->cr_abs, p->cr_rel, w->cr);
    }
    p->lazy = p->lazy_const = false;
}

/* One row of metrics (an implementation's outputs y against reference r, one direction) over
 * the block: the correctly rounded outputs' run sums, corrected at the points where y differs
 * (or, where more than an eighth of the points differ, every point's errors as before).
 * A run whose maxima could change m's, or whose errors could reach m's near-tie lists, has its
 * errors written out in full (the correctly rounded ones with y's where they differ) to find the
 * first point reaching them and the near ties. ctx: the row's implementation, target and
 * direction, for the lists' resolver (one per kind of error). */
HOT_CLONES void row_metrics(scan_worker *w, error_metrics *m, const float *x, const float *y,
                             const point_ref *r, size_t n, uint64_t seq0,
                             const refine_ctx *ctx)
{
    int dir = ctx[0].d;
    bool want[ERR_KINDS];
    find_mismatches(w, y, r, n);
    if (w->nmis) refs_fill_errors(w, r, n);
    if (w->nmis * 8 > n) { /* many differences: the whole block's errors, vectorized */
        bool any_special = block_errors(y, r, n, w->ulp, w->abs, w->rel, w->cr);
        size_t q = 0; /* the first mismatch of the current run */
        for (size_t k = 0; k < w->nruns; k++) {
            size_t a = w->run_start[k], b = w->run_start[k + 1];
            bool x_finite = isfinite(x[a]), stand_in_nonzero = false;
            run_sums s;
            run_sums_of(&s, a, b, x_finite, true, w->ulp, w->abs, w->rel, w->cr);
            error_metrics_fold(m, seq0, x, a, b, w->range[a], w->x_bucket[a], x_finite, &s);
            if (w->run_weighted[k]) {
                dist_sums ds[DIST_COUNT];
                dist_run(ds, w->wfixes, a, b, w->ulp, w->abs, r->inv_ulp, w->run_weight[k],
                         w->run_wmax[k], s.max_ulp);
                for (int d = 0; d < DIST_COUNT; d++) dist_add(&m->dist[d], &ds[d]);
            }
            size_t q0 = q;
            for (; q < w->nmis && w->mis[q] < b; q++)
                stand_in_nonzero |= near_stand_in(r, w->mis[q]) && y[w->mis[q]] != 0;
            const near_run *nr;
            int xb = w->x_bucket[a];
            if (x_finite && near_wanted(m, &s, r, x, k, a, b, xb, stand_in_nonzero, q == q0, want, &nr))
                near_scan_run(m, xb, want, ctx, x, y, r, nr, a, b, seq0, w->ulp, w->abs, w->rel);
        }
        if (dir == DIR_FORWARD) {
            criteria_counts c = {0};
            count_criteria(&c, x, y, r, w->abs, n, any_special);
            add_criteria(m, &c);
        }
        return;
    }
    const uint16_t *mis = w->mis;
    for (size_t i = 0; i < w->nmis; i++) {
        size_t j = mis[i];
        point_errors(y[j], r, j, &w->mis_ulp[i], &w->mis_abs[i], &w->mis_rel[i]);
    }
    size_t i = 0; /* the first mismatch of the current run */
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        bool x_finite = isfinite(x[a]);
        const run_sums *cs = &r->cr_sums[k];
        if (i == w->nmis || mis[i] >= b) { /* y is correctly rounded on the whole run */
            if (x_finite && cs->at_ulp == RUN_AT_UNKNOWN &&
                (cs->max_ulp > m->max_ulp.value || cs->max_abs > m->max_abs.value ||
                 cs->max_rel > m->max_rel.value)) { /* the fold reads a first index: set
                                                      * them (the worker's own buffer: a cache) */
                refs_fill_errors(w, r, n);
                run_sums_firsts((run_sums *)cs, a, b, r->cr_ulp, r->cr_abs, r->cr_rel);
            }
            error_metrics_fold(m, seq0, x, a, b, w->range[a], w->x_bucket[a], x_finite, cs);
            if (w->run_weighted[k])
                for (int d = 0; d < DIST_COUNT; d++) dist_add(&m->dist[d], &r->cr_dist[k][d]);
            const near_run *nr;
            int xb = w->x_bucket[a];
            if (!x_finite || !near_wanted(m, cs, r, x, k, a, b, xb, false, true, want, &nr))
                continue;
            if (r->past == PAST_STAND_IN) { /* its errors known without the arrays */
                near_scan_flat_cr(m, xb, want, ctx, x, r, a, seq0, r->lazy_c + 1);
            } else {
                refs_fill_errors(w, r, n);
                near_scan_run(m, xb, want, ctx, x, r->cr, r, nr, a, b, seq0, r->cr_ulp, r->cr_abs,
                              r->cr_rel);
            }
            continue;
        }
        run_sums s = *cs;
        size_t i0 = i;
        bool stand_in_nonzero = false;
        if (w->run_weighted[k]) /* the weighted sums, corrected at the mismatches */
            for (int d = 0; d < DIST_COUNT; d++) {
                dist_sums ds = r->cr_dist[k][d];
                for (size_t q = i; q < w->nmis && mis[q] < b; q++) {
                    uint64_t wj = w->wfix[d][mis[q]];
                    dist_point(&ds, wj, r->cr_ulp[mis[q]], r->cr_abs[mis[q]], r->inv_ulp[mis[q]], -1);
                    dist_point(&ds, wj, w->mis_ulp[q], w->mis_abs[q], r->inv_ulp[mis[q]], +1);
                }
                dist_add(&m->dist[d], &ds);
            }
        for (; i < w->nmis && mis[i] < b; i++) {
            size_t j = mis[i];
            run_sums_point(&s, r->cr_ulp[j], 1, -1);
            run_sums_point(&s, w->mis_ulp[i], is_cr(float_bits(y[j]), float_bits(r->cr[j])), +1);
            stand_in_nonzero |= near_stand_in(r, j) && y[j] != 0;
            if (x_finite) {
                s.max_ulp = w->mis_ulp[i] > s.max_ulp ? w->mis_ulp[i] : s.max_ulp;
                s.max_abs = w->mis_abs[i] > s.max_abs ? w->mis_abs[i] : s.max_abs;
                s.max_rel = w->mis_rel[i] > s.max_rel ? w->mis_rel[i] : s.max_rel;
            }
        }
        /* s's maxima bound the run's from above (a correctly rounded point's error may be gone);
         * where they could beat m's, the run's errors in full give the exact maxima. */
        bool beats = x_finite && run_beats_maxima(m, &s, w->x_bucket[a]);
        const near_run *nr = NULL;
        bool near = x_finite && near_wanted(m, &s, r, x, k, a, b, w->x_bucket[a], stand_in_nonzero,
                                            false, want, &nr);
        if (beats || near) {
            memcpy(w->ulp + a, r->cr_ulp + a, (b - a) * sizeof *w->ulp);
            memcpy(w->abs + a, r->cr_abs + a, (b - a) * sizeof *w->abs);
            memcpy(w->rel + a, r->cr_rel + a, (b - a) * sizeof *w->rel);
            for (size_t q = i0; q < i; q++) {
                w->ulp[mis[q]] = w->mis_ulp[q];
                w->abs[mis[q]] = w->mis_abs[q];
                w->rel[mis[q]] = w->mis_rel[q];
            }
        }
        if (beats) {
            s.max_ulp = max_at(w->ulp, a, b, &s.at_ulp);
            s.max_abs = max_at(w->abs, a, b, &s.at_abs);
            s.max_rel = max_at(w->rel, a, b, &s.at_rel);
            error_metrics_fold(m, seq0, x, a, b, w->range[a], w->x_bucket[a], x_finite, &s);
        } else {
            error_metrics_fold(m, seq0, x, a, b, w->range[a], w->x_bucket[a], x_finite, &s);
        }
        if (near)
            near_scan_run(m, w->x_bucket[a], want, ctx, x, y, r, nr, a, b, seq0, w->ulp, w->abs,
                          w->rel);
    }
    if (dir == DIR_FORWARD) {
        criteria_counts c = r->cr_criteria;
        criteria_counts cr_at = {0}, y_at = {0};
        for (size_t q = 0; q < w->nmis; q++) {
            size_t j = mis[q];
            criteria_point(&cr_at, x[j], r->cr[j], r, j, r->cr_abs[j]);
            criteria_point(&y_at, x[j], y[j], r, j, w->mis_abs[q]);
        }
        c.benchdnn += y_at.benchdnn - cr_at.benchdnn;
        c.xnnpack += y_at.xnnpack - cr_at.xnnpack;
        c.checked += y_at.checked - cr_at.checked;
        add_criteria(m, &c);
    }
}
