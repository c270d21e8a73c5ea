/* The scan engine (see scan.h): domains, blocks, threads, per-block evaluation. */
#include "scan.h"

#include <gsl/gsl_deriv.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fast.h"
#include "sample.h"

/* ---- domains */

static int64_t ordinal(float x)
{
    uint32_t b = float_bits(x);
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) - 1 : (int64_t)b;
}

static float from_ordinal(int64_t o)
{
    return float_from_bits(o < 0 ? (uint32_t)(-(o + 1)) | 0x80000000u : (uint32_t)o);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A domain ready to be read by position. */
typedef struct {
    scan_domain d;
    uint64_t size;
    int64_t first_ordinal; /* DOMAIN_RANGE */
    uint32_t *sample;      /* DOMAIN_SAMPLE: distinct encodings, ascending */
} domain_view;

/* The format the engine scans: its inputs, outputs and reference values are binary32 (the
 * `float` of every buffer below); implementations of other formats are refused by scan_run. */
#define SCAN_FORMAT GELU_FORMAT_BINARY32

/* All: every encoding of the format. Sample: n encodings drawn uniformly (GSL MT19937), sorted
 * by encoding, duplicates removed. */
static int domain_open(const scan_domain *d, domain_view *v)
{
    memset(v, 0, sizeof *v);
    v->d = *d;
    switch (d->kind) {
    case DOMAIN_ALL: v->size = gelu_format_encodings(gelu_format_of(SCAN_FORMAT)); return 0;
    case DOMAIN_RANGE:
        v->first_ordinal = ordinal(d->lo);
        v->size = (uint64_t)(ordinal(d->hi) - v->first_ordinal + 1);
        return 0;
    case DOMAIN_SAMPLE: {
        if (d->n == 0) return -1;
        /* The last sample drawn is kept (one entry, copied out): a chunked run (checkpoints,
         * MPI) opens the same domain once per chunk, and drawing and sorting it each time cost
         * more than scanning a chunk. */
        static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
        static uint32_t *cached;
        static uint64_t cached_n, cached_seed, cached_size;
        pthread_mutex_lock(&cache_lock);
        if (cached && cached_n == d->n && cached_seed == d->seed) {
            v->sample = malloc(cached_size * sizeof *v->sample);
            if (v->sample) memcpy(v->sample, cached, cached_size * sizeof *v->sample);
            v->size = cached_size;
            pthread_mutex_unlock(&cache_lock);
            return v->sample ? 0 : -1;
        }
        pthread_mutex_unlock(&cache_lock);
        float *x = malloc(d->n * sizeof *x);
        v->sample = malloc(d->n * sizeof *v->sample);
        if (!x || !v->sample) {
            free(x);
            free(v->sample);
            return -1;
        }
        sample_encodings(d->seed, x, d->n);
        for (uint64_t i = 0; i < d->n; i++) v->sample[i] = float_bits(x[i]);
        free(x);
        qsort(v->sample, d->n, sizeof *v->sample, compare_u32);
        uint64_t k = 0;
        for (uint64_t i = 0; i < d->n; i++)
            if (k == 0 || v->sample[i] != v->sample[k - 1]) v->sample[k++] = v->sample[i];
        v->size = k;
        uint32_t *copy = malloc(k * sizeof *copy);
        if (copy) {
            memcpy(copy, v->sample, k * sizeof *copy);
            pthread_mutex_lock(&cache_lock);
            free(cached);
            cached = copy;
            cached_n = d->n;
            cached_seed = d->seed;
            cached_size = k;
            pthread_mutex_unlock(&cache_lock);
        }
        return 0;
    }
    }
    return -1;
}

static float domain_input(const domain_view *v, uint64_t i)
{
    switch (v->d.kind) {
    case DOMAIN_ALL: return float_from_bits((uint32_t)i);
    case DOMAIN_RANGE: return from_ordinal(v->first_ordinal + (int64_t)i);
    default: return float_from_bits(v->sample[i]);
    }
}

uint64_t scan_domain_size(const scan_domain *d)
{
    domain_view v;
    if (domain_open(d, &v) != 0) return 0;
    free(v.sample);
    return v.size;
}

int scan_shard_span(const scan_domain *d, unsigned k, unsigned n, uint64_t *first, uint64_t *end)
{
    uint64_t size = scan_domain_size(d);
    if (n == 0 || k >= n || size == 0) return -1;
    /* the same split as scan_run: shard k takes blocks [blocks·k/n, blocks·(k+1)/n) */
    uint64_t blocks = (size + SCAN_BLOCK - 1) / SCAN_BLOCK;
    uint64_t b0 = blocks * k / n, b1 = blocks * (k + 1) / n;
    *first = b0 * SCAN_BLOCK < size ? b0 * SCAN_BLOCK : size;
    *end = b1 * SCAN_BLOCK < size ? b1 * SCAN_BLOCK : size;
    return 0;
}

bool scan_has_exact_row(const gelu_impl *impl)
{
    return gelu_target_is_gelu(impl->target);
}

/* ---- one block */

/* The peers' criteria counts (criteria.h) of a set of forward points. */
typedef struct {
    uint64_t benchdnn, xnnpack, checked;
} criteria_counts;

/* A block's reference values prepared for the metric loop, as arrays (vectorizable), and the
 * metrics of the correctly rounded outputs themselves: an implementation's row is those,
 * corrected at the points where its output differs (by encoding) from the correctly rounded one
 * — in the regions where most implementations are right, a comparison of encodings. */
typedef struct {
    double hi[SCAN_BLOCK], lo[SCAN_BLOCK], inv_ulp[SCAN_BLOCK], inv_abs[SCAN_BLOCK];
    float cr[SCAN_BLOCK];
    uint32_t cr_bits[SCAN_BLOCK];
    uint32_t plain[SCAN_BLOCK]; /* 1: finite and non-zero, the metric loop's fast path applies
                                 * (32 bits wide like the floats, so the loops vectorize) */
    /* The correctly rounded outputs' errors, their sums per run of the block, their criteria
     * counts (forward), and whether they pass the monotonicity check between the block's own
     * consecutive inputs (forward) and the sign check (derivative). */
    double cr_ulp[SCAN_BLOCK], cr_abs[SCAN_BLOCK], cr_rel[SCAN_BLOCK];
    run_sums cr_sums[SCAN_BLOCK];
    criteria_counts cr_criteria;
    bool cr_monotone, cr_sign_ok;
} point_ref;

typedef struct {
    const scan_config *cfg;
    const domain_view *dom;
    unsigned targets_used; /* bit per target */
    double x_min[GELU_TARGET_COUNT];
    uint64_t first_block, end_block;
    atomic_uint_fast64_t next_block, blocks_done;
    /* The calling thread waits on `finished` for the workers (signalled as each one ends), in
     * 200 ms steps for progress: a short scan (a checkpoint's chunk) returns at once. */
    pthread_mutex_t lock;
    pthread_cond_t finished;
    unsigned running;
} scan_shared;

/* Per-thread buffers and partial result. */
typedef struct {
    scan_shared *sh;
    scan_result *part;
    float x[SCAN_BLOCK + 1], y[SCAN_BLOCK + 1];
    input_range range[SCAN_BLOCK];
    int16_t x_bucket[SCAN_BLOCK];
    point_ref *ref[GELU_TARGET_COUNT][DIR_COUNT]; /* for the targets used */
    double ulp[SCAN_BLOCK], abs[SCAN_BLOCK], rel[SCAN_BLOCK]; /* the metric loop's scratch */
    uint32_t cr[SCAN_BLOCK]; /* 1: the output has the correctly rounded value's encoding */
    /* A row's points whose output differs from the correctly rounded one, ascending, with
     * their errors */
    size_t nmis;
    uint16_t mis[SCAN_BLOCK];
    double mis_ulp[SCAN_BLOCK], mis_abs[SCAN_BLOCK], mis_rel[SCAN_BLOCK];
    ref_value ref_values[SCAN_BLOCK]; /* prepare_refs' scratch */
    /* The block's runs: points k with run_start[r] ≤ k < run_start[r + 1] share their input
     * range, x bucket and whether x is finite (the metric loop adds a run at a time). */
    size_t nruns;
    uint16_t run_start[SCAN_BLOCK + 1];
    bool profiling;
    scan_profile prof; /* this thread's times, when profiling */
} scan_worker;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* When profiling: the time since *t0 added to *sum, and *t0 moved to now. */
static void lap(scan_worker *w, double *t0, double *sum)
{
    if (!w->profiling) return;
    double t = now_s();
    *sum += t - *t0;
    *t0 = t;
}

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
static void count_criteria(criteria_counts *c, const float *x, const float *y, const point_ref *r,
                           const double *abs, size_t n, bool any_special)
{
    uint64_t benchdnn = 0, xnnpack = 0, checked = 0;
    for (size_t j = 0; j < n; j++) {
        bool plain = r->plain[j] & (fabsf(y[j]) <= 0x1.fffffep127f);
        double d = abs[j], f = fabs(r->hi[j]);
        bool in = fabsf(x[j]) <= (float)XNNPACK_GELU_DOMAIN;
        double measured = f > BENCHDNN_GELU_ERF_REL_FLOOR ? d / f : d;
        benchdnn += plain & (measured > BENCHDNN_GELU_ERF_THRESHOLD);
        checked += plain & in;
        xnnpack += plain & in & !((d <= XNNPACK_GELU_ABS_TOL) | (d <= XNNPACK_GELU_REL_TOL * f));
    }
    c->benchdnn += benchdnn;
    c->xnnpack += xnnpack;
    c->checked += checked;
    if (any_special)
        for (size_t j = 0; j < n; j++)
            if (!r->plain[j] || !isfinite(y[j])) criteria_point(c, x[j], y[j], r, j, abs[j]);
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
static bool block_errors(const float *y, const point_ref *r, size_t n, double *ulp, double *abs,
                         double *rel, uint32_t *cr)
{
    for (size_t j = 0; j < n; j++) {
        double d = fabs(((double)y[j] - r->hi[j]) - r->lo[j]);
        abs[j] = d;
        ulp[j] = d * r->inv_ulp[j];
        rel[j] = d * r->inv_abs[j];
    }
    unsigned specials = 0; /* references or outputs that are not finite non-zero numbers */
    for (size_t j = 0; j < n; j++)
        specials |= (r->plain[j] ^ 1u) | ((float_bits(y[j]) & 0x7fffffffu) >= 0x7f800000u);
    if (specials)
        for (size_t j = 0; j < n; j++)
            if (!r->plain[j] || !isfinite(y[j])) point_errors(y[j], r, j, &ulp[j], &abs[j], &rel[j]);
    for (size_t j = 0; j < n; j++) cr[j] = is_cr(float_bits(y[j]), r->cr_bits[j]);
    return specials != 0;
}

/* Distance between two floats in binary32 steps (−0 and +0 one step apart). */
static uint64_t float_distance(float a, float b)
{
    if (isnan(a) || isnan(b)) return UINT64_MAX;
    int64_t d = ordinal(a) - ordinal(b);
    return (uint64_t)(d < 0 ? -d : d);
}

/* The monotonicity check of the pair x[k-1], x[k] (x[k] at position seq_first + k). */
static inline void check_pair(mono_metrics *m, const float *x, const float *y, size_t k,
                              uint64_t seq_first, double x_min)
{
    float a = x[k - 1], b = x[k];
    if (!isfinite(a) || !isfinite(b) || a == b) return;
    float lo_x = a < b ? a : b, hi_x = a < b ? b : a;
    float y_lo = a < b ? y[k - 1] : y[k], y_hi = a < b ? y[k] : y[k - 1];
    bool ok;
    if (hi_x <= x_min) ok = y_lo >= y_hi;      /* left branch: non-increasing */
    else if (lo_x >= x_min) ok = y_hi >= y_lo; /* right branch: non-decreasing */
    else return;                                /* straddles x_min: exempt */
    if (!ok) mono_add(m, seq_first + k, b, float_distance(y_lo, y_hi));
}

/* Monotonicity over consecutive pairs x[k-1], x[k] (x[0] may be the previous block's last
 * input, so that seams are checked); x[k] is at position seq_first + k. */
static void check_monotone(mono_metrics *m, const float *x, const float *y, size_t count,
                           uint64_t seq_first, double x_min)
{
    for (size_t k = 1; k < count; k++) check_pair(m, x, y, k, seq_first, x_min);
}

/* The derivative's sign at point j: negative below x_min, positive above, unless the exact
 * value rounds to zero. */
static inline void check_sign_at(sign_metrics *m, const float *x, const float *y,
                                 const point_ref *r, size_t j, uint64_t seq0, double x_min)
{
    if (isnan(x[j]) || r->cr[j] == 0.0f) return;
    bool ok = x[j] < x_min ? y[j] < 0.0f : y[j] > 0.0f;
    if (!ok) sign_add(m, seq0 + j, x[j]);
}

static void check_sign(sign_metrics *m, const float *x, const float *y, const point_ref *r,
                       size_t n, uint64_t seq0, double x_min)
{
    for (size_t j = 0; j < n; j++) check_sign_at(m, x, y, r, j, seq0, x_min);
}

/* The references of target t, direction dir, at the block's inputs, and the metrics of their
 * correctly rounded values as outputs. */
static void prepare_refs(scan_worker *w, gelu_target t, int dir, const float *x, size_t n)
{
    point_ref *p = w->ref[t][dir];
    bool grad = dir == DIR_DERIVATIVE;
    double t0 = w->profiling ? now_s() : 0;
    ref_value *v = w->ref_values;
    if (!fast_ref_block(t, grad, x, n, v, p->inv_ulp))
        for (size_t j = 0; j < n; j++)
            if (!fast_ref_decide(t, grad, x[j], &v[j], &p->inv_ulp[j])) {
                double f0 = w->profiling ? now_s() : 0;
                fast_ref_fallback(t, grad, x[j], &v[j], &p->inv_ulp[j]);
                w->part->fallbacks[t][dir]++;
                lap(w, &f0, &w->prof.fallback[t][dir]);
            }
    for (size_t j = 0; j < n; j++) {
        p->hi[j] = v[j].hi;
        p->lo[j] = v[j].lo;
        p->cr[j] = v[j].cr;
        p->cr_bits[j] = float_bits(v[j].cr);
        p->plain[j] = isfinite(v[j].hi) && v[j].hi != 0 ? 1 : 0;
        p->inv_abs[j] = p->plain[j] ? 1.0 / fabs(v[j].hi) : 0;
    }
    w->part->refs[t][dir] += n;
    bool any_special = block_errors(p->cr, p, n, p->cr_ulp, p->cr_abs, p->cr_rel, w->cr);
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        run_sums_of(&p->cr_sums[k], a, b, isfinite(x[a]), p->cr_ulp, p->cr_abs, p->cr_rel, w->cr);
    }
    double x_min = w->sh->x_min[t];
    if (!grad) {
        p->cr_criteria = (criteria_counts){0};
        count_criteria(&p->cr_criteria, x, p->cr, p, p->cr_abs, n, any_special);
        mono_metrics mono = {0};
        check_monotone(&mono, x, p->cr, n, 0, x_min);
        p->cr_monotone = mono.violations == 0;
    } else {
        sign_metrics sign = {0};
        check_sign(&sign, x, p->cr, p, n, 0, x_min);
        p->cr_sign_ok = sign.violations == 0;
    }
    lap(w, &t0, &w->prof.reference[t][dir]);
}

/* The points where y differs from the correctly rounded values by encoding, into w->mis
 * (ascending): 16 points at a time compared with integer operations that vectorize, the few
 * groups that differ looked at one by one. */
static void find_mismatches(scan_worker *w, const float *y, const point_ref *r, size_t n)
{
    size_t nmis = 0;
    for (size_t g = 0; g < n; g += 16) {
        size_t e = g + 16 < n ? g + 16 : n;
        uint32_t diff = 0;
        for (size_t j = g; j < e; j++) diff |= float_bits(y[j]) ^ r->cr_bits[j];
        if (diff)
            for (size_t j = g; j < e; j++)
                if (float_bits(y[j]) != r->cr_bits[j]) w->mis[nmis++] = (uint16_t)j;
    }
    w->nmis = nmis;
}

/* One row of metrics (an implementation's outputs y against reference r, one direction) over
 * the block: the correctly rounded outputs' run sums, corrected at the points where y differs
 * (or, where more than an eighth of the points differ, every point's errors as before).
 * A run whose maxima could change m's has its errors written out in full (the correctly
 * rounded ones with y's where they differ) to find the first point reaching them. */
static void row_metrics(scan_worker *w, error_metrics *m, const float *x, const float *y,
                        const point_ref *r, size_t n, uint64_t seq0, int dir)
{
    find_mismatches(w, y, r, n);
    if (w->nmis * 8 > n) { /* many differences: the whole block's errors, vectorized */
        bool any_special = block_errors(y, r, n, w->ulp, w->abs, w->rel, w->cr);
        for (size_t k = 0; k < w->nruns; k++) {
            size_t a = w->run_start[k], b = w->run_start[k + 1];
            error_metrics_add_run(m, seq0, x, a, b, w->range[a], w->x_bucket[a], isfinite(x[a]),
                                  w->ulp, w->abs, w->rel, w->cr);
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
            error_metrics_fold(m, seq0, x, a, b, w->range[a], w->x_bucket[a], x_finite, cs,
                               r->cr_ulp, r->cr_abs, r->cr_rel);
            continue;
        }
        run_sums s = *cs;
        size_t i0 = i;
        for (; i < w->nmis && mis[i] < b; i++) {
            size_t j = mis[i];
            run_sums_point(&s, r->cr_ulp[j], 1, -1);
            run_sums_point(&s, w->mis_ulp[i], is_cr(float_bits(y[j]), r->cr_bits[j]), +1);
            if (x_finite) {
                s.max_ulp = w->mis_ulp[i] > s.max_ulp ? w->mis_ulp[i] : s.max_ulp;
                s.max_abs = w->mis_abs[i] > s.max_abs ? w->mis_abs[i] : s.max_abs;
                s.max_rel = w->mis_rel[i] > s.max_rel ? w->mis_rel[i] : s.max_rel;
            }
        }
        /* s's maxima bound the run's from above (a correctly rounded point's error may be gone);
         * where they could beat m's, the run's errors in full give the exact maxima. */
        if (x_finite && run_beats_maxima(m, &s, w->x_bucket[a])) {
            memcpy(w->ulp + a, r->cr_ulp + a, (b - a) * sizeof *w->ulp);
            memcpy(w->abs + a, r->cr_abs + a, (b - a) * sizeof *w->abs);
            memcpy(w->rel + a, r->cr_rel + a, (b - a) * sizeof *w->rel);
            for (size_t q = i0; q < i; q++) {
                w->ulp[mis[q]] = w->mis_ulp[q];
                w->abs[mis[q]] = w->mis_abs[q];
                w->rel[mis[q]] = w->mis_rel[q];
            }
            double mu = -INFINITY, ma = -INFINITY, mr = -INFINITY;
            for (size_t j = a; j < b; j++) {
                mu = w->ulp[j] > mu ? w->ulp[j] : mu;
                ma = w->abs[j] > ma ? w->abs[j] : ma;
                mr = w->rel[j] > mr ? w->rel[j] : mr;
            }
            s.max_ulp = mu;
            s.max_abs = ma;
            s.max_rel = mr;
            error_metrics_fold(m, seq0, x, a, b, w->range[a], w->x_bucket[a], x_finite, &s,
                               w->ulp, w->abs, w->rel);
        } else {
            error_metrics_fold(m, seq0, x, a, b, w->range[a], w->x_bucket[a], x_finite, &s,
                               NULL, NULL, NULL);
        }
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

static void run_impl(scan_worker *w, size_t i, size_t n, bool has_prev, uint64_t seq0)
{
    const gelu_impl *impl = w->sh->cfg->impls[i];
    impl_metrics *m = &w->part->metrics[i];
    const float *x = w->x + has_prev;
    float *y = w->y + has_prev;
    double x_min = w->sh->x_min[impl->target];
    bool exact_row = scan_has_exact_row(impl) && impl->target != GELU_TARGET_EXACT;
    for (int d = 0; d < (w->sh->cfg->grad ? DIR_COUNT : 1); d++) {
        double t0 = w->profiling ? now_s() : 0;
        (d == DIR_FORWARD ? impl->forward : impl->derivative)(w->x, w->y, n + has_prev);
        lap(w, &t0, &w->prof.kernel[i][d]);
        const point_ref *own = w->ref[impl->target][d];
        if (exact_row)
            row_metrics(w, &m->err[REF_EXACT][d], x, y, w->ref[GELU_TARGET_EXACT][d], n, seq0, d);
        row_metrics(w, &m->err[REF_OWN][d], x, y, own, n, seq0, d); /* leaves own's w->mis */
        /* Where y is correctly rounded and the correctly rounded values pass a check, y passes
         * it: only the points (and pairs) touching a mismatch, and the seam, are checked. */
        if (d == DIR_FORWARD) {
            uint64_t seq_first = seq0 - has_prev;
            if (!own->cr_monotone) {
                check_monotone(&m->mono, w->x, w->y, n + has_prev, seq_first, x_min);
            } else {
                size_t last = 0; /* pairs k (in w->x) checked so far: 1..last */
                if (has_prev) check_pair(&m->mono, w->x, w->y, last = 1, seq_first, x_min);
                for (size_t q = 0; q < w->nmis; q++) {
                    size_t k = w->mis[q] + has_prev; /* the pairs k and k + 1 touch it */
                    for (size_t p = k > last + 1 ? k : last + 1; p <= k + 1 && p < n + has_prev; p++)
                        check_pair(&m->mono, w->x, w->y, last = p, seq_first, x_min);
                }
            }
        } else if (!own->cr_sign_ok) {
            check_sign(&m->sign, x, y, own, n, seq0, x_min);
        } else {
            for (size_t q = 0; q < w->nmis; q++)
                check_sign_at(&m->sign, x, y, own, w->mis[q], seq0, x_min);
        }
        lap(w, &t0, &w->prof.metrics[i][d]);
    }
}

static void run_block(scan_worker *w, uint64_t block)
{
    const domain_view *dom = w->sh->dom;
    uint64_t seq0 = block * SCAN_BLOCK;
    size_t n = (size_t)(dom->size - seq0 < SCAN_BLOCK ? dom->size - seq0 : SCAN_BLOCK);
    bool has_prev = seq0 > 0;
    double t0 = w->profiling ? now_s() : 0;
    if (has_prev) w->x[0] = domain_input(dom, seq0 - 1);
    float *x = w->x + has_prev;
    w->nruns = 0;
    for (size_t j = 0; j < n; j++) {
        x[j] = domain_input(dom, seq0 + j);
        w->range[j] = input_range_of(x[j]);
        w->x_bucket[j] = (int16_t)x_bucket_of(x[j]);
        if (j == 0 || w->range[j] != w->range[j - 1] || w->x_bucket[j] != w->x_bucket[j - 1] ||
            isfinite(x[j]) != isfinite(x[j - 1]))
            w->run_start[w->nruns++] = (uint16_t)j;
    }
    w->run_start[w->nruns] = (uint16_t)n;
    lap(w, &t0, &w->prof.inputs);
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (w->sh->targets_used & (1u << t))
            for (int d = 0; d < (w->sh->cfg->grad ? DIR_COUNT : 1); d++)
                prepare_refs(w, (gelu_target)t, d, x, n);
    for (size_t i = 0; i < w->sh->cfg->nimpls; i++)
        run_impl(w, i, n, has_prev, seq0);
    w->part->inputs += n;
}

/* ---- threads */

/* The profile's per-implementation rows for n implementations, zeroed. */
static int scan_profile_alloc(scan_profile *p, size_t n)
{
    scan_profile_release(p);
    p->kernel = calloc(n, sizeof *p->kernel);
    p->metrics = calloc(n, sizeof *p->metrics);
    if (!p->kernel || !p->metrics) {
        scan_profile_release(p);
        return -1;
    }
    p->nimpls = n;
    return 0;
}

void scan_profile_release(scan_profile *p)
{
    free(p->kernel);
    free(p->metrics);
    p->kernel = p->metrics = NULL;
    p->nimpls = 0;
}

static void scan_profile_add(scan_profile *dst, const scan_profile *src)
{
    for (size_t i = 0; i < src->nimpls; i++)
        for (int d = 0; d < DIR_COUNT; d++) {
            dst->kernel[i][d] += src->kernel[i][d];
            dst->metrics[i][d] += src->metrics[i][d];
        }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) {
            dst->reference[t][d] += src->reference[t][d];
            dst->fallback[t][d] += src->fallback[t][d];
        }
    dst->inputs += src->inputs;
}

static void *worker_main(void *arg)
{
    scan_worker *w = arg;
    for (;;) {
        uint64_t b = atomic_fetch_add(&w->sh->next_block, 1);
        if (b >= w->sh->end_block) break;
        run_block(w, b);
        atomic_fetch_add(&w->sh->blocks_done, 1);
    }
    ref_thread_done();
    pthread_mutex_lock(&w->sh->lock);
    w->sh->running--;
    pthread_cond_signal(&w->sh->finished);
    pthread_mutex_unlock(&w->sh->lock);
    return NULL;
}

static scan_worker *worker_new(scan_shared *sh, const scan_result *proto)
{
    scan_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->sh = sh;
    w->profiling = sh->cfg->profile != NULL;
    w->part = calloc(1, sizeof *w->part);
    /* the profile's rows even when not profiling: lap() is handed their addresses */
    bool ok = w->part != NULL && scan_result_copy(w->part, proto) == 0 &&
              scan_profile_alloc(&w->prof, proto->nimpls) == 0;
    for (int t = 0; ok && t < GELU_TARGET_COUNT; t++)
        for (int d = 0; ok && d < DIR_COUNT; d++)
            if (sh->targets_used & (1u << t))
                ok = (w->ref[t][d] = malloc(sizeof(point_ref))) != NULL;
    if (!ok) {
        for (int t = 0; t < GELU_TARGET_COUNT; t++)
            for (int d = 0; d < DIR_COUNT; d++) free(w->ref[t][d]);
        scan_result_free(w->part);
        scan_profile_release(&w->prof);
        free(w);
        return NULL;
    }
    return w;
}

static void worker_free(scan_worker *w)
{
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) free(w->ref[t][d]);
    scan_result_free(w->part);
    scan_profile_release(&w->prof);
    free(w);
}

/* ---- once per run: special values and forward/derivative consistency */

static void check_specials(const gelu_impl *impl, bool grad, impl_extras *e)
{
    float x[CONTRACT_SPECIAL_COUNT], y[CONTRACT_SPECIAL_COUNT];
    contract_special_inputs(x);
    for (int d = 0; d < (grad ? DIR_COUNT : 1); d++) {
        (d == DIR_FORWARD ? impl->forward : impl->derivative)(x, y, CONTRACT_SPECIAL_COUNT);
        for (size_t i = 0; i < CONTRACT_SPECIAL_COUNT; i++) {
            float want = ref_round(impl->target, d == DIR_DERIVATIVE, x[i]);
            if (!contract_same_value(want, y[i]))
                e->special_failed[d][e->nspecial_failed[d]++] = (special_failure){x[i], want, y[i]};
        }
    }
}

typedef struct {
    const gelu_impl *impl;
} forward_ctx;

static double forward_at(double x, void *p)
{
    const forward_ctx *c = p;
    float xf = (float)x, y;
    c->impl->forward(&xf, &y, 1);
    return y;
}

/* The derivative against GSL's central difference of the implementation's own forward, on a
 * fixed sample of [−8, 8]; step 2^-10·max(1, |x|) (forward rounding noise ≈ 2^-24·|f|/h stays
 * below 1e-4 relative). */
static void check_consistency(const gelu_impl *impl, impl_extras *e)
{
    float xs[CONSISTENCY_POINTS];
    sample_range(0x5eed, -8.0f, 8.0f, xs, CONSISTENCY_POINTS);
    forward_ctx c = {impl};
    gsl_function f = {forward_at, &c};
    e->consistency_max_rel = 0;
    e->consistency_x = 0;
    for (size_t i = 0; i < CONSISTENCY_POINTS; i++) {
        double num, abserr;
        gsl_deriv_central(&f, xs[i], 0x1p-10 * fmax(1.0, fabs(xs[i])), &num, &abserr);
        float yd;
        impl->derivative(&xs[i], &yd, 1);
        double rel = fabs(num - yd) / fmax(fabs((double)yd), 1e-2);
        if (!(rel <= e->consistency_max_rel)) {
            e->consistency_max_rel = rel;
            e->consistency_x = xs[i];
        }
    }
}

/* ---- the run */

int scan_result_alloc(scan_result *r, size_t nimpls)
{
    scan_result_release(r);
    r->impls = calloc(nimpls, sizeof *r->impls);
    r->metrics = calloc(nimpls, sizeof *r->metrics);
    r->extras = calloc(nimpls, sizeof *r->extras);
    if (!r->impls || !r->metrics || !r->extras) {
        scan_result_release(r);
        return -1;
    }
    r->nimpls = nimpls;
    return 0;
}

void scan_result_release(scan_result *r)
{
    free(r->impls);
    free(r->metrics);
    free(r->extras);
    r->impls = NULL;
    r->metrics = NULL;
    r->extras = NULL;
    r->nimpls = 0;
}

int scan_result_copy(scan_result *dst, const scan_result *src)
{
    if (scan_result_alloc(dst, src->nimpls) != 0) return -1;
    scan_result copy = *src;
    copy.impls = dst->impls;
    copy.metrics = dst->metrics;
    copy.extras = dst->extras;
    memcpy(copy.impls, src->impls, src->nimpls * sizeof *copy.impls);
    memcpy(copy.metrics, src->metrics, src->nimpls * sizeof *copy.metrics);
    memcpy(copy.extras, src->extras, src->nimpls * sizeof *copy.extras);
    *dst = copy;
    return 0;
}

void scan_result_free(scan_result *r)
{
    if (!r) return;
    scan_result_release(r);
    free(r);
}

static int result_init(scan_result *r, const scan_config *cfg)
{
    scan_result_release(r);
    memset(r, 0, sizeof *r);
    if (scan_result_alloc(r, cfg->nimpls) != 0) return -1;
    for (size_t i = 0; i < cfg->nimpls; i++) {
        r->impls[i] = cfg->impls[i];
        impl_metrics_init(&r->metrics[i]);
    }
    r->grad = cfg->grad;
    r->domain = cfg->domain;
    r->shard_k = cfg->shard_k;
    r->shard_n = cfg->shard_n;
    return 0;
}

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

int scan_run(const scan_config *cfg, scan_result *result, const char **error)
{
    if (cfg->nimpls == 0) {
        *error = "no implementation to scan";
        return -1;
    }
    for (size_t i = 0; i < cfg->nimpls; i++)
        if (cfg->impls[i]->format != SCAN_FORMAT) {
            *error = "an implementation of a format other than binary32: the scan runs binary32 "
                     "kernels only";
            return -1;
        }
    if (cfg->shard_n == 0 || cfg->shard_k >= cfg->shard_n) {
        *error = "shard K/N needs 0 <= K < N";
        return -1;
    }
    domain_view dom;
    if (domain_open(&cfg->domain, &dom) != 0) {
        *error = "empty domain or out of memory";
        return -1;
    }
    if (dom.size == 0) { /* a range whose LO is above HI in binary32 order (0:-0) */
        *error = "empty domain: no input to scan";
        return -1;
    }
    scan_shared sh = {.cfg = cfg, .dom = &dom, .lock = PTHREAD_MUTEX_INITIALIZER};
    pthread_cond_init(&sh.finished, NULL);
    for (size_t i = 0; i < cfg->nimpls; i++) {
        sh.targets_used |= 1u << cfg->impls[i]->target;
        if (scan_has_exact_row(cfg->impls[i])) sh.targets_used |= 1u << GELU_TARGET_EXACT;
    }
    for (int t = 0; t < GELU_TARGET_COUNT; t++) sh.x_min[t] = ref_x_min_d((gelu_target)t);
    uint64_t blocks = (dom.size + SCAN_BLOCK - 1) / SCAN_BLOCK;
    sh.first_block = blocks * cfg->shard_k / cfg->shard_n;
    sh.end_block = blocks * (cfg->shard_k + 1) / cfg->shard_n;
    atomic_init(&sh.next_block, sh.first_block);
    atomic_init(&sh.blocks_done, 0);

    if (result_init(result, cfg) != 0 ||
        (cfg->profile && cfg->profile->nimpls != cfg->nimpls &&
         scan_profile_alloc(cfg->profile, cfg->nimpls) != 0)) {
        free(dom.sample);
        *error = "out of memory";
        return -1;
    }
    unsigned nthreads = cfg->threads ? cfg->threads : online_cpus();
    /* no more workers than blocks: each holds a whole partial result (~1.4 MB), so 1024
     * threads on a 100-input sample took 1.4 GiB */
    if (nthreads > sh.end_block - sh.first_block)
        nthreads = (unsigned)(sh.end_block - sh.first_block > 0 ? sh.end_block - sh.first_block : 1);
    scan_worker **w = calloc(nthreads, sizeof *w);
    pthread_t *th = calloc(nthreads, sizeof *th);
    unsigned started = 0;
    bool ok = w && th;
    for (unsigned k = 0; ok && k < nthreads; k++) {
        ok = (w[k] = worker_new(&sh, result)) != NULL;
        pthread_mutex_lock(&sh.lock);
        if (ok && (ok = pthread_create(&th[k], NULL, worker_main, w[k]) == 0)) sh.running++;
        pthread_mutex_unlock(&sh.lock);
        if (ok) started++;
    }
    uint64_t total = sh.end_block - sh.first_block;
    while (started > 0 && ok) {
        if (cfg->progress) cfg->progress(atomic_load(&sh.blocks_done), total, cfg->progress_ctx);
        pthread_mutex_lock(&sh.lock);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        if (sh.running > 0) pthread_cond_timedwait(&sh.finished, &sh.lock, &until);
        bool done = sh.running == 0;
        pthread_mutex_unlock(&sh.lock);
        if (done) break;
    }
    if (!ok) atomic_store(&sh.next_block, sh.end_block); /* stop the started ones */
    for (unsigned k = 0; k < started; k++) {
        pthread_join(th[k], NULL);
        for (size_t i = 0; i < cfg->nimpls; i++)
            impl_metrics_merge(&result->metrics[i], &w[k]->part->metrics[i]);
        result->inputs += w[k]->part->inputs;
        if (cfg->profile) scan_profile_add(cfg->profile, &w[k]->prof);
        for (int t = 0; t < GELU_TARGET_COUNT; t++)
            for (int d = 0; d < DIR_COUNT; d++) {
                result->refs[t][d] += w[k]->part->refs[t][d];
                result->fallbacks[t][d] += w[k]->part->fallbacks[t][d];
            }
    }
    if (cfg->progress && ok) cfg->progress(total, total, cfg->progress_ctx);
    for (unsigned k = 0; k < nthreads && w; k++)
        if (w[k]) worker_free(w[k]);
    free(w);
    free(th);
    free(dom.sample);
    pthread_cond_destroy(&sh.finished);
    if (!ok) {
        *error = "could not start the scan threads (out of memory?)";
        return -1;
    }
    /* Against exact GELU, an implementation whose target is exact has its own row. */
    for (size_t i = 0; i < cfg->nimpls; i++)
        if (cfg->impls[i]->target == GELU_TARGET_EXACT)
            for (int d = 0; d < DIR_COUNT; d++)
                result->metrics[i].err[REF_EXACT][d] = result->metrics[i].err[REF_OWN][d];
    if (cfg->shard_k == 0) {
        result->has_extras = true;
        for (size_t i = 0; i < cfg->nimpls; i++) {
            check_specials(cfg->impls[i], cfg->grad, &result->extras[i]);
            if (cfg->grad) check_consistency(cfg->impls[i], &result->extras[i]);
        }
    }
    return 0;
}

/* ---- merging shards, the gate, partial files */

static bool same_domain(const scan_domain *a, const scan_domain *b)
{
    return a->kind == b->kind &&
           (a->kind != DOMAIN_RANGE ||
            (float_bits(a->lo) == float_bits(b->lo) && float_bits(a->hi) == float_bits(b->hi))) &&
           (a->kind != DOMAIN_SAMPLE || (a->n == b->n && a->seed == b->seed));
}

int scan_result_merge(scan_result *dst, const scan_result *src, const char **error)
{
    bool same = dst->nimpls == src->nimpls && dst->grad == src->grad &&
                dst->shard_n == src->shard_n && same_domain(&dst->domain, &src->domain);
    for (size_t i = 0; same && i < dst->nimpls; i++) same = dst->impls[i] == src->impls[i];
    if (!same) {
        *error = "not parts of the same run (implementations, domain, --grad or shard count differ)";
        return -1;
    }
    for (size_t i = 0; i < dst->nimpls; i++)
        impl_metrics_merge(&dst->metrics[i], &src->metrics[i]);
    dst->inputs += src->inputs;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) {
            dst->refs[t][d] += src->refs[t][d];
            dst->fallbacks[t][d] += src->fallbacks[t][d];
        }
    if (src->has_extras) {
        dst->has_extras = true;
        memcpy(dst->extras, src->extras, dst->nimpls * sizeof *dst->extras);
    }
    if (src->shard_k < dst->shard_k) dst->shard_k = src->shard_k;
    return 0;
}

int scan_contract_violations(const scan_result *r, size_t i, char *buf, size_t size)
{
    const gelu_impl *impl = r->impls[i];
    const gelu_contract *c = &impl->contract;
    const impl_metrics *m = &r->metrics[i];
    int broken = 0;
    buf[0] = '\0';
#define BREAK(...)                                                                                 \
    do {                                                                                           \
        if (broken++ == 0) snprintf(buf, size, __VA_ARGS__);                                       \
    } while (0)
    for (int d = 0; d < (r->grad ? DIR_COUNT : 1); d++) {
        const error_metrics *e = &m->err[REF_OWN][d];
        const char *dir = d == DIR_FORWARD ? "forward" : "derivative";
        double max_ulp = d == DIR_FORWARD ? c->max_ulp : c->grad_max_ulp;
        double max_abs = d == DIR_FORWARD ? c->max_abs : c->grad_max_abs;
        /* One wrong encoding has an error above ½ ULP, the largest of a correctly rounded
         * result (exact ties do not occur), so the max ULP's input is a wrong one. */
        if (c->correctly_rounded && e->correctly_rounded != e->count)
            BREAK("%s %s: %llu of %llu outputs not correctly rounded, the worst %.6g ULP at x = %a "
                  "(0x%08x)",
                  impl->name, dir, (unsigned long long)(e->count - e->correctly_rounded),
                  (unsigned long long)e->count, e->max_ulp.value,
                  (double)float_from_bits(e->max_ulp.bits), e->max_ulp.bits);
        if (e->count && !(e->max_ulp.value <= max_ulp))
            BREAK("%s %s: max ULP error %.6g > claimed %g at x = %a (0x%08x)", impl->name, dir,
                  e->max_ulp.value, max_ulp, (double)float_from_bits(e->max_ulp.bits),
                  e->max_ulp.bits);
        if (e->count && !(e->max_abs.value <= max_abs))
            BREAK("%s %s: max abs error %.6g > claimed %g at x = %a (0x%08x)", impl->name, dir,
                  e->max_abs.value, max_abs, (double)float_from_bits(e->max_abs.bits),
                  e->max_abs.bits);
    }
    if (c->monotone && m->mono.violations)
        BREAK("%s: %llu monotonicity violations, the first at x = %a (0x%08x)", impl->name,
              (unsigned long long)m->mono.violations,
              (double)float_from_bits(m->mono.listed_bits[0]), m->mono.listed_bits[0]);
    for (int d = 0; r->has_extras && c->specials && d < (r->grad ? DIR_COUNT : 1); d++) {
        const impl_extras *e = &r->extras[i];
        if (e->nspecial_failed[d])
            BREAK("%s %s: special value wrong at x = %a (0x%08x): expected 0x%08x, got 0x%08x",
                  impl->name, d == DIR_FORWARD ? "forward" : "derivative",
                  (double)e->special_failed[d][0].x, float_bits(e->special_failed[d][0].x),
                  float_bits(e->special_failed[d][0].expected),
                  float_bits(e->special_failed[d][0].actual));
    }
#undef BREAK
    return broken;
}
