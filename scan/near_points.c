/* The near-tie lists (near.h) fed from one block of a row: which of the row's and its x
 * bucket's lists a run's bound could change (near_wanted), and the points looked at one by one
 * (near_scan_run, near_scan_flat_cr), each point's error interval (near_tolerance.c) added to
 * each list it could enter, a full list resolved with MPFR (refine.c's resolver). */
#include "near_tolerance.h"

#include <float.h>
#include <math.h>

#include "hot_clones.h"

/* The lists of kind k a run of x bucket b feeds: the row's, and for ULP and absolute errors the
 * bucket's (NULL for relative errors). */
static inline near_bucket *near_bucket_of(error_metrics *m, int k, int b)
{
    return k < X_KINDS && b != X_BUCKET_NONE ? &m->x_near[k][b] : NULL;
}

/* Whether an error up to `upper` could enter the row's list l or the bucket's list xl. */
static inline bool near_open(const near_list *l, const near_bucket *xl, double upper)
{
    return !near_rejects(l, upper) || (xl && !near_bucket_rejects(xl, upper));
}

/* The lower of the two lists' floors: an error below it enters neither. */
static inline double near_floor(const near_list *l, const near_bucket *xl)
{
    return xl && xl->floor < l->floor ? xl->floor : l->floor;
}

/* Adds a point whose error lies in [lo, hi] to each of the two lists it could enter. */
static inline void near_add_both(near_list *l, near_bucket *xl, double lo, double hi, uint64_t seq,
                                 uint32_t bits, uint32_t out, const near_resolver *res)
{
    if (!near_rejects(l, hi)) near_add(l, lo, hi, seq, bits, out, res);
    if (xl && !near_bucket_rejects(xl, hi)) near_bucket_add(xl, lo, hi, seq, bits, out, res);
}

/* The interval of point j's error of kind k into *lo, *hi (near_bounds with the coarse
 * tolerance, then, where it is not ruled out at once from both lists, the tight one). */
static void near_point(const near_list *l, const near_bucket *xl, const refine_ctx *c,
                       const float *x, const float *y, const point_ref *r, size_t j, double v,
                       double *lo, double *hi)
{
    double E = near_coarse_tol(c->t, x[j], r, j);
    near_bounds(c->k, y[j], r, j, E, v, lo, hi);
    if (!near_open(l, xl, *hi)) return;
    if (near_upper(r, j) && r->plain[j]) {
        near_upper_bounds(c->k, c->t, c->d == DIR_DERIVATIVE, x[j], y[j], r, j, lo, hi);
        return;
    }
    if (c->k == ERR_REL && y[j] != 0 && near_stand_in(r, j)) {
        near_stand_in_bounds(c->t, c->d == DIR_DERIVATIVE, x[j], y[j], lo, hi);
        return;
    }
    if (near_stand_in(r, j) && !(c->k == ERR_REL && y[j] == 0)) { /* (that one is exactly 1) */
        near_upper_bounds(c->k, c->t, c->d == DIR_DERIVATIVE, x[j], y[j], r, j, lo, hi);
        return;
    }
    double tight = near_tight_tol(c->t, c->d == DIR_DERIVATIVE, x[j], r, j, E);
    if (tight < E) near_bounds(c->k, y[j], r, j, tight, v, lo, hi);
}

/* Whether each point j of [g, end) (at most 16) has an error of kind k (ULP or absolute) that
 * is exactly a double at the tight tolerance, into ex[j − g] (1: yes) and that double into
 * ve[j − g]: a point neither past the thresholds nor a stand-in, with a finite non-zero
 * reference and a finite output, where near_bounds' rule holds with the tight tolerance
 * (near_tight_tol, at most the coarse one). near_point's interval there is [v, v], or a coarse
 * one that both lists reject, and rejection only grows as an upper bound falls (below the
 * floor, or at most an entry's lower bound): where both lists reject v, near_point and
 * near_add_both change nothing. Computed without branches or calls, so that the loop
 * vectorizes: selections as masks on encodings (the scan library keeps trapping math, under
 * which GCC 12 does not if-convert a floating-point compare that selects values);
 * NEAR_TOL_ULP/inv_ulp as the product by the exact reciprocal (near_run_coarse);
 * near_distance's sign and near_next's neighbours from the encodings (dh ≥ 0). */
__attribute__((always_inline)) /* into near_scan_run's clones (alone it is compiled for the
                                 * baseline ISA: a fifth of a shard of [1, 16)) */
static inline void near_exact_group(error_kind k, const refine_ctx *c, const float *x,
                                    const float *y, const point_ref *r, size_t g, size_t end,
                                    int64_t ex[16], double ve[16])
{
    const uint64_t relu = -(uint64_t)(c->t == GELU_TARGET_RELU), ulp_kind = -(uint64_t)(k == ERR_ULP);
    const int64_t rel = k == ERR_REL;
    for (size_t j = g; j < end; j++) {
        double hi = r->hi[j], lo = r->lo[j], iu = r->inv_ulp[j], err = r->err[j], yd = y[j];
        uint32_t yb = float_bits(y[j]);
        int64_t upper = (int64_t)(lo == -DBL_TRUE_MIN) | ((int64_t)(hi == 1) & (int64_t)(lo == DBL_TRUE_MIN));
        int64_t stand = (int64_t)(hi == NEAR_STAND_IN) & (int64_t)(lo == 0);
        int64_t ok = (int64_t)(r->plain[j] != 0) & (int64_t)((yb & 0x7fffffffu) < 0x7f800000u) &
                     (upper ^ 1) & (stand ^ 1) & (rel ^ 1);
        /* near_coarse_tol, then near_tight_tol (E ≥ 0, tight ≥ 0: minima of encodings) */
        uint64_t zero = relu | -(uint64_t)ref_at_zero(r, x[j]);
        uint64_t Eb = double_bits(NEAR_TOL_ULP * near_recip_pow2(iu)) & ~zero;
        uint64_t errb = double_bits(err);
        uint64_t mpfr = -(uint64_t)((errb & 0x7fffffffffffffffull) > 0x7ff0000000000000ull);
        uint64_t tb = (double_bits(0x1p-90 * fabs(hi)) & mpfr) |
                      (double_bits(err * (1 + 0x1p-20)) & ~mpfr);
        double T = double_from_bits(tb < Eb ? tb : Eb);
        /* near_distance */
        double s1 = yd - hi, b1 = s1 - yd, e1 = (yd - (s1 - b1)) + (-hi - b1);
        double s2 = s1 - lo, b2 = s2 - s1, e2 = (s1 - (s2 - b2)) + (-lo - b2);
        double rr = e1 + e2;
        uint64_t s2b = double_bits(s2);
        uint64_t neg = -(uint64_t)((s2b >> 63) & ((s2b << 1) != 0)); /* s2 < 0 */
        double dh = double_from_bits(s2b & 0x7fffffffffffffffull); /* −0 as +0: compared only */
        double dl = double_from_bits((double_bits(-rr) & neg) | (double_bits(rr) & ~neg));
        /* near_rounds_to(dh, dl, T + 2^-100·dh) */
        uint64_t db = double_bits(dh);
        uint64_t dzero = -(uint64_t)((db << 1) == 0);
        double up = double_from_bits(db + 1) - dh;
        double down = double_from_bits((double_bits(DBL_TRUE_MIN) & dzero) |
                                       (double_bits(dh - double_from_bits(db - 1)) & ~dzero));
        double e = T + 0x1p-100 * dh;
        ex[j - g] = ok & (int64_t)(dl + e < 0.5 * up) & (int64_t)(e - dl < 0.5 * down);
        ve[j - g] = dh * double_from_bits((double_bits(iu) & ulp_kind) | (double_bits(1.0) & ~ulp_kind));
    }
}

/* Past x = 4 every target's tail falls strictly. With f(x) = x·S(x) (S = Φ, σ(1.702x), σ(x),
 * or the tanh form's σ(2u(x))), an output x has the true error x − f(x) = x·S(−x), whose slope
 * S(−x) − x·S'(−x) is negative where x·S'(−x) > S(−x): for Φ past x = 1 (the Mills ratio
 * Φ(−x)/φ(x) < 1/x), for σ(kx) past kx·σ(kx) = 1 (kx ≈ 1.28), for the tanh form past x ≈ 1.
 * An output 1 of the derivative has the error f'(x) − 1 > 0: exact GELU's x·φ(x) − Φ(−x), of
 * slope φ(x)·(2 − x²), negative past √2; σ(−kx)·(kx·σ(kx) − 1) ≈ e^{−kx}(kx − 1), falling past
 * kx = 2; the tanh form's ≈ e^{−2u}(2x·u' − 1), falling past x ≈ 1. The relative errors divide
 * those by f (growing) or f' (falling to 1), and fall too; ReLU's are all 0. Within one x bucket
 * (one binade past x = 1/8, so one ULP of f or f') each error of such a point then falls with x:
 * only a run's first such point can be a maximum of its bucket or row, or the first input
 * reaching one. */
#define NEAR_TAIL_X 4.0f
static inline bool near_tail_point(int d, float x, float y)
{
    return x >= NEAR_TAIL_X && float_bits(y) == float_bits(d == DIR_FORWARD ? x : 1.0f);
}

/* Whether list l's first entry is certainly infinite and so is its floor: an input already seen
 * (earlier in the domain: within a phase, a worker's blocks come in order) certainly has an
 * infinite error, and a later one can only tie it and lose (first input). */
#define NEAR_SETTLED(l) ((l)->floor == INFINITY && (l)->n > 0 && (l)->e[0].lower == INFINITY)

/* The row's near-tie lists, and those of the run's x bucket `bucket` (ULP and absolute), given
 * the points [a, b) of a run with tolerances nr: outputs y, computed errors ulp[], abs[], rel[];
 * only the kinds whose lists the run's bound does not rule out (want[]). The run's largest
 * computed error goes first (it raises the floors); then a point is looked at only where a
 * quick upper bound of its error (its computed error and the run's tolerances) reaches the
 * lower of the two floors (the bucket's, but where the probes raised the row's less). */
HOT_CLONES void near_scan_run(error_metrics *m, int bucket, const bool want[ERR_KINDS],
                               const refine_ctx *ctx, const float *x, const float *y,
                               const point_ref *r, const near_run *nr, size_t a, size_t b,
                               uint64_t seq0, const double *ulp, const double *abs,
                               const double *rel)
{
    const double *v[ERR_KINDS] = {ulp, abs, rel};
    const double up = 1 + 0x1p-46;
    /* Below the lower threshold a row's outputs are mostly one value over whole runs (−0, or
     * +0 for −0): whether the run is such, all stand-in points (whose correctly rounded value is
     * −0, and x < 0: no tail point) with one output, equal to the correctly rounded one or not.
     * Then the groups' points need not be looked at one by one (below): that walk, for each
     * kind of error, cost a third of the scan there (`accuracy --grad --shard 3776/4096`). */
    uint32_t y0 = float_bits(y[a]);
    bool flat = true;
    for (size_t j = a; j < b && flat; j += 16) { /* 16 at a time, without branches within */
        size_t end = j + 16 < b ? j + 16 : b;
        unsigned ok = 1;
        for (size_t i = j; i < end; i++)
            ok &= (r->hi[i] == NEAR_STAND_IN) & (r->lo[i] == 0) & (float_bits(y[i]) == y0);
        flat = ok;
    }
    bool flat_stand_in = flat, flat_cr = flat && y0 == float_bits(r->cr[a]);
    for (int k = 0; k < ERR_KINDS; k++) {
        if (!want[k]) continue;
        near_list *l = &m->near[k];
        near_bucket *xl = near_bucket_of(m, k, bucket);
        /* An entry certainly infinite (NEAR_SETTLED) in both lists. Below GELU's lower threshold
         * the relative error of any output that is not ±0 is such (|f(x)| under the smallest
         * double past x ≈ −39), which would otherwise be looked at one by one. (A floor of +inf alone is
         * not enough: one raised by the probes, seed_floors, comes from an input anywhere in
         * the part, or the bucket.) */
        if (NEAR_SETTLED(l) && (!xl || NEAR_SETTLED(xl))) continue;
        near_resolver res = refine_resolver(&ctx[k]);
        const double *e = v[k];
        /* the maxima of groups of 16 points: a group whose maximum cannot reach the floor is
         * skipped at once; the run's maximum is theirs */
        double gmax[SCAN_BLOCK / 16 + 1], top = -INFINITY;
        size_t ng = 0;
        for (size_t g = a; g < b; g += 16, ng++) {
            size_t end = g + 16 < b ? g + 16 : b;
            double m = max_of(e, g, end);
            gmax[ng] = m;
            top = m > top ? m : top;
        }
        double lo, hi;
        if (top == top) { /* not all NaN: the first point reaching the run's maximum first */
            size_t q = 0;
            while (gmax[q] != top) q++;
            size_t j = run_first(e, a + 16 * q, b, top);
            near_point(l, xl, &ctx[k], x, y, r, j, e[j], &lo, &hi);
            near_add_both(l, xl, lo, hi, seq0 + j, float_bits(x[j]), float_bits(y[j]), &res);
        }
        /* the quick bound: v·scale + add (near_run_upper's per point), a group at a time */
        double scale = k == ERR_REL ? nr->rel_scale * up : up;
        double add = (k == ERR_ULP ? nr->ulp : k == ERR_ABS ? nr->abs : nr->rel_add) * up;
        bool stand_in_rel = k == ERR_REL && nr->stand_in;
        /* Past the thresholds an output equal to the correctly rounded value (−0 below, x or 1
         * above) has the true error |f(x)| (below) or |f(−x)| (above), in ULPs, absolute and
         * relative, which falls strictly as |x| grows (f's tails; ULPs only grow with |x|): in a
         * run (one sign, inputs in encoding order, so |x| growing) only the first such point can
         * be the maximum, or a tie the first input wins. The others are not looked at — every
         * one of them took near_point before, which made the regions past the thresholds (half
         * of all encodings for exact GELU) 10 to 25 times dearer to scan. */
        /* Below the lower threshold (stand-in points) f is monotone in x and the ULP is the
         * subnormal one, so for one output y each error — |y − f| in ULPs or absolute, |y − f|/|f|
         * — falls and then rises along a stretch of inputs giving y (strictly, but for the
         * relative error 1 of y = ±0, where the first input wins the tie): only a stretch's ends
         * can be the maximum's first input. Such stretches are what the regions past the
         * thresholds hold for a row whose outputs are not the correctly rounded ones (+0 for −0:
         * ten of the default derivatives below x ≈ −14); looked at point by point they make those
         * regions about five times dearer to scan. */
        /* The same holds short of the upper threshold for an output x (forward) or 1
         * (derivative) at x ≥ NEAR_TAIL_X (near_tail_point): past the x bucket holding the
         * row's maximum such runs are near ties at the fast reference's resolution (their
         * errors, ~1e-7 ULP at x ≈ 7.4 for exact GELU, change by less than the enclosure's
         * bound over thousands of inputs), each of which would be resolved with MPFR. */
        bool past_taken = false;
        double rejected = NAN; /* an exact error both lists reject, while they are unchanged */
        for (size_t q = 0; q < ng; q++) {
            double bound = gmax[q] * scale + add;
            if (!(bound >= near_floor(l, xl)) && !stand_in_rel) continue;
            if (!stand_in_rel && !near_open(l, xl, bound)) continue; /* ties an earlier entry */
            size_t g = a + 16 * q, end = g + 16 < b ? g + 16 : b;
            /* a run of stand-in points with one output: every point is taken by the first rule
             * below (once) or skipped by the interior one (all but the run's ends) */
            if (flat_stand_in && (flat_cr ? past_taken : g > a && end < b)) continue;
            int64_t ex[16] = {0};
            double ve[16];
            if (k != ERR_REL) near_exact_group((error_kind)k, &ctx[k], x, y, r, g, end, ex, ve);
            for (size_t j = g; j < end; j++) {
                bool stand_in_point = stand_in_rel && near_stand_in(r, j);
                if (((near_stand_in(r, j) || near_upper(r, j)) && float_bits(y[j]) == float_bits(r->cr[j])) ||
                    near_tail_point(ctx[k].d, x[j], y[j])) {
                    if (past_taken) continue;
                    past_taken = true;
                } else if (j > a && j + 1 < b && near_stand_in(r, j) && near_stand_in(r, j - 1) &&
                           near_stand_in(r, j + 1) && float_bits(y[j]) == float_bits(y[j - 1]) &&
                           float_bits(y[j]) == float_bits(y[j + 1]))
                    continue;
                if (!(e[j] * scale + add >= near_floor(l, xl)) && !stand_in_point)
                    continue;
                /* an exact error both lists reject changes nothing (near_exact_group): rows off
                 * by a constant make every point such a tie (pw_fast's 2 ULP below 2^-30) */
                if (ex[j - g]) {
                    double v = ve[j - g];
                    if (v == rejected) continue;
                    if (near_rejects(l, v) && (!xl || near_bucket_rejects(xl, v))) {
                        rejected = v; /* until the lists change */
                        continue;
                    }
                }
                near_point(l, xl, &ctx[k], x, y, r, j, e[j], &lo, &hi);
                near_add_both(l, xl, lo, hi, seq0 + j, float_bits(x[j]), float_bits(y[j]), &res);
                rejected = NAN;
            }
        }
    }
}

/* near_scan_run for the correctly rounded outputs over a run of a stand_in_block, without its
 * arrays: there every point is a stand-in with one output, the correctly rounded one (flat_cr),
 * and every error of kind k is e[k] (ULP, absolute, relative). near_scan_run's run maximum is
 * then at the run's first point a, which takes near_point and near_add_both; its group walk
 * reaches a again (the first point equal to the correctly rounded value: past_taken) and skips
 * every other point, and at a it either skips or repeats the same near_point and near_add_both —
 * which change nothing: near_point's interval is the same one, or a coarser one that both lists
 * reject (it returns early only where they do), and inserting an entry a list holds (its
 * position), rejected, or dropped at once by the full list's cut is a no-op (near.c's insert).
 * So a's near_point and near_add_both, per kind wanted, are near_scan_run's effect. */
void near_scan_flat_cr(error_metrics *m, int bucket, const bool want[ERR_KINDS],
                       const refine_ctx *ctx, const float *x, const point_ref *r, size_t a,
                       uint64_t seq0, const double e[ERR_KINDS])
{
    for (int k = 0; k < ERR_KINDS; k++) {
        if (!want[k] || !(e[k] == e[k])) continue; /* (a NaN maximum: no point taken) */
        near_list *l = &m->near[k];
        near_bucket *xl = near_bucket_of(m, k, bucket);
        if (NEAR_SETTLED(l) && (!xl || NEAR_SETTLED(xl))) continue;
        near_resolver res = refine_resolver(&ctx[k]);
        double lo, hi;
        near_point(l, xl, &ctx[k], x, r->cr, r, a, e[k], &lo, &hi);
        near_add_both(l, xl, lo, hi, seq0 + a, float_bits(x[a]), float_bits(r->cr[a]), &res);
    }
}

/* Which lists of m (the row's, and those of the run's x bucket) a run k, [a, b), with computed
 * maxima s (upper bounds) could change: by the run's coarse tolerances, then by its tight ones
 * (into *nr). */
bool near_wanted(error_metrics *m, const run_sums *s, const point_ref *r, const float *x,
                 size_t k, size_t a, size_t b, int bucket, bool stand_in_nonzero,
                 bool cr_outputs, bool want[ERR_KINDS], const near_run **nr)
{
    bool any = false;
    *nr = &r->near[k];
    for (int e = 0; e < ERR_KINDS; e++)
        any |= want[e] = near_open(&m->near[e], near_bucket_of(m, e, bucket),
                                   near_run_upper(s, *nr, (error_kind)e, stand_in_nonzero, cr_outputs));
    if (!any) return false;
    *nr = near_tight_run(r, x, k, a, b);
    any = false;
    for (int e = 0; e < ERR_KINDS; e++)
        any |= want[e] = want[e] && near_open(&m->near[e], near_bucket_of(m, e, bucket),
                                              near_run_upper(s, *nr, (error_kind)e,
                                                             stand_in_nonzero, cr_outputs));
    return any;
}
