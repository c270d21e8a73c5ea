/* The scan engine (see scan.h): domains, blocks, threads, per-block evaluation. */
#include "scan.h"
#include "kernel_call.h"

#include <assert.h>
#include <float.h>
#include <gsl/gsl_deriv.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hot_clones.h"
#include "mono_filter.h"
#include "fast.h"
#include "refine.h"
#include "sample.h"
#include "weights.h"

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
    const uint32_t *list;  /* DOMAIN_SAMPLE: sample; DOMAIN_LIST: the caller's */
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
    case DOMAIN_LIST:
        if (d->n == 0 || !d->list) return -1;
        v->list = d->list; /* borrowed: v->sample stays NULL, so nothing is freed */
        v->size = d->n;
        return 0;
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
            v->list = v->sample;
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
        v->list = v->sample;
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
    default: return float_from_bits(v->list[i]);
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

/* ---- the kernels' floating-point environment */

/* Every kernel call goes through kernel_call.h: run in the run's environment, judged. */


/* ---- one block */

/* The peers' criteria counts (criteria.h) of a set of forward points. */
typedef struct {
    uint64_t benchdnn, xnnpack, checked;
} criteria_counts;

/* A run's tolerances for the near-tie lists (near.h): over the run's points outside the stand-in
 * region, the largest tolerance of a ULP and of an absolute error, and the two terms bounding a
 * relative error's upper bound from its computed value (near_run_upper); and whether some point
 * lies in the stand-in region. */
typedef struct {
    double ulp, abs, rel_scale, rel_add;
    bool stand_in;
    bool cr_zero; /* every correctly rounded output of the run is ±0 and f ≠ 0: relative error 1 */
    bool cr_exact; /* tight: every correctly rounded output's errors are exactly 0 (past the upper
                    * threshold, f within less than the smallest double of x or 1) */
} near_run;

/* A block's reference values prepared for the metric loop, as arrays (vectorizable), and the
 * metrics of the correctly rounded outputs themselves: an implementation's row is those,
 * corrected at the points where its output differs (by encoding) from the correctly rounded one
 * — in the regions where most implementations are right, a comparison of encodings. */
typedef struct {
    double hi[SCAN_BLOCK], lo[SCAN_BLOCK], inv_ulp[SCAN_BLOCK], inv_abs[SCAN_BLOCK];
    double err[SCAN_BLOCK]; /* the enclosure's bound, NaN where the value is not its (fill_refs) */
    float cr[SCAN_BLOCK]; /* (its encodings compared as float_bits(cr[j]): no copy) */
    uint32_t plain[SCAN_BLOCK]; /* 1: finite and non-zero, the metric loop's fast path applies
                                 * (32 bits wide like the floats, so the loops vectorize) */
    uint32_t zero[SCAN_BLOCK]; /* 1: an exact zero (hi = ±0, lo = 0, inv_ulp = 2^149): the
                                * general rules' values there are the vector formulas' with the
                                * relative error ∞ for y ≠ 0 (block_errors, count_criteria) —
                                * half of ReLU's references */
    /* The correctly rounded outputs' errors, their sums per run of the block, their criteria
     * counts (forward), and whether they pass the monotonicity check between the block's own
     * consecutive inputs (forward) and the sign check (derivative). */
    double cr_ulp[SCAN_BLOCK], cr_abs[SCAN_BLOCK], cr_rel[SCAN_BLOCK];
    run_sums cr_sums[SCAN_BLOCK];
    criteria_counts cr_criteria;
    bool cr_monotone, cr_sign_ok;
    /* per run: its tolerances (near_prepare), coarse, and tight once a row needed them (a
     * cache filled by near_tight_run from the enclosures' bounds, err) */
    near_run near[SCAN_BLOCK], near_tight[SCAN_BLOCK];
    dist_sums cr_dist[SCAN_BLOCK][DIST_COUNT]; /* per weighted run: the weighted sums */
    bool tight_ready[SCAN_BLOCK];
    gelu_target target;
    bool grad;
    /* inv_abs, cr_ulp, cr_abs and cr_rel not filled yet (a block past a threshold: upper_block,
     * stand_in_block): refs_fill_errors fills them where a row reads them — with the constants
     * lazy_c (1/|hi| and the three errors, the same at every point: stand_in_block's, kept
     * for the block) where lazy_const */
    bool lazy, lazy_const;
    double lazy_c[4];
    /* the block wholly past a threshold (upper_block, stand_in_block): its runs' coarse
     * tolerances set there, its tight ones from their ends alone (near_run_of) */
    enum { PAST_NONE, PAST_UPPER, PAST_STAND_IN } past;
    /* every point of the fast reference's form below 2^-30 (micro_block) */
    bool micro;
    /* ReLU's references with the correctly rounded values' errors all 0 (exact_block): the
     * runs' coarse tolerances set there (any_plain: whether some point of the run is plain) */
    bool exact;
    bool any_plain[SCAN_BLOCK];
    /* the run's environment has DAZ: a subnormal input's reference is f(±0) (run_block's
     * x_daz), as exact as at ±0 itself (ref_at_zero) */
    bool daz;
} point_ref;

/* Whether x's reference was computed at ±0, so is exact (the near-tie tolerances' zero case):
 * x = ±0, or under DAZ a subnormal x, which the kernels and the reference read as ±0. Without
 * the second case every input of a subnormal stretch under DAZ was a near tie within 10^-3 ULP
 * of an exact error of 0 (the derivatives' 1/2): each one looked at, and the maxima left
 * "not decided among near ties past the MPFR budget" (`accuracy --fpenv ftz,daz --grad` over
 * subnormal inputs), three quarters of the report's ftz,daz section's time. */
static inline int64_t ref_at_zero(const point_ref *p, float x)
{
    uint32_t a = float_bits(x) & 0x7fffffffu;
    return (int64_t)(a == 0) | ((int64_t)p->daz & (int64_t)(a < 0x00800000u));
}

typedef struct {
    const scan_config *cfg;
    const domain_view *dom;
    unsigned targets_used; /* bit per target */
    double x_min[GELU_TARGET_COUNT];
    uint64_t first_block, end_block;
    /* Blocks a worker claims at once: 1, or as many as the largest batch_inputs of the run's
     * implementations asks for (their kernels then run once per group, run_group_kernels) */
    uint64_t group_blocks;
    /* Groups are handed out in claim order (group_of_claim): first the probe groups, every
     * PROBE_STRIDE-th, spread over the part; then the others, ascending. next_block counts
     * claims; blocks_done, blocks. */
    uint64_t ngroups, nprobe;
    atomic_uint_fast64_t next_block, blocks_done;
    /* The probe phase's end: probes_done counts finished probe groups under `lock`; each
     * worker, before its first other group, waits for all of them (`probed`) and raises its
     * near-tie floors to the largest any worker's probes found (seed_floors). */
    uint64_t probes_done;
    pthread_cond_t probed;
    struct scan_worker **workers;
    unsigned nworkers;
    /* The calling thread waits on `finished` for the workers (signalled as each one ends), in
     * 200 ms steps for progress: a short scan (a checkpoint's chunk) returns at once. */
    pthread_mutex_t lock;
    pthread_cond_t finished;
    unsigned running;
} scan_shared;

/* Per-thread buffers and partial results: part, the current one, is probe_part during the
 * probe phase, then main_part. */
typedef struct scan_worker {
    scan_shared *sh;
    scan_result *part, *probe_part, *main_part;
    float x[SCAN_BLOCK + 1], y[SCAN_BLOCK + 1];
    float x_daz[SCAN_BLOCK]; /* under DAZ: the block's inputs as the kernels read them */
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
    uint16_t undecided[DIR_COUNT][SCAN_BLOCK];   /* the points fast_ref_fill leaves to MPFR */
    /* The block's runs: points k with run_start[r] ≤ k < run_start[r + 1] share their input
     * range, x bucket and whether x is finite (the metric loop adds a run at a time). */
    size_t nruns;
    uint16_t run_start[SCAN_BLOCK + 1];
    /* The inputs' weights under each distribution (weights.h), and whether a run has any */
    double weight[DIST_COUNT][SCAN_BLOCK];
    double e_half[SCAN_BLOCK]; /* exp(−x²/2) at the block's inputs where e_half_set
                                * (dist_exp_half): for the weights and exact GELU's derivative */
    bool e_half_set;
    input_span span; /* the block's inputs' (input_span_of: block_inputs) */
    uint64_t wfix[DIST_COUNT][SCAN_BLOCK]; /* ⌊w·2^70⌋ (metrics.h) */
    const uint64_t *wfixes[DIST_COUNT];     /* wfix[d], for dist_run */
    bool run_weighted[SCAN_BLOCK];
    u128 run_weight[SCAN_BLOCK][DIST_COUNT]; /* per run: Σ wfix over its points */
    uint64_t run_wmax[SCAN_BLOCK];           /* per run: the largest wfix of both (dist_run) */
    bool profiling;
    scan_profile prof; /* this thread's times, when profiling */
    /* With groups (group_blocks > 1): the group's inputs from position gseq of the domain (the
     * input before its first block, when there is one, then its blocks'), and per
     * implementation that takes batches and direction scanned, its outputs over them
     * (gy[i * DIR_COUNT + d]; NULL for the others) */
    float *gx;
    float **gy;
    uint64_t gseq;
    /* Rows sharing their metrics: in part p (0 the probe part, 1 the main part), row i's
     * metrics are held by row share[p][i] ≤ i, whose metrics were equal to row i's when the
     * part's first block came (same bytes) and whose outputs have been identical to row i's at
     * every block of the part since (every direction, the previous input's too): the metrics
     * are a function of those, so they are still equal, and only the rows with share[p][i] = i
     * compute theirs (share_block; the others are copied at the end, share_settle). A SIMD
     * build of a method gives its portable build's bits on all or nearly all inputs (NaN
     * payloads may differ): its metrics are not computed twice while they agree. sy: per row and direction, the block's outputs of the rows in a group of
     * two or more (SCAN_BLOCK + 1 each); grouped[i]: row i is in one for this block. */
    uint32_t *share[2];
    bool share_formed[2];
    uint32_t *share_was; /* share_block's copy of the holders before the block */
    uint8_t *grouped;
    float *sy;
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
HOT_CLONES static void count_criteria(criteria_counts *c, const float *x, const float *y,
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
HOT_CLONES static bool cr_errors(const point_ref *r, size_t n, double *ulp, double *abs,
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
 * input, so that seams are checked); x[k] is at position seq_first + k. pair_suspect over the
 * whole block first (one vectorized loop, one reduction: most blocks have no suspect pair),
 * then 16 pairs at a time, check_pair only in the groups it flags. */
HOT_CLONES static void check_monotone(mono_metrics *m, const float *x, const float *y, size_t count,
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

/* The derivative's sign at point j: negative below x_min, positive above, unless the exact
 * value rounds to zero. */
static inline void check_sign_at(sign_metrics *m, const float *x, const float *y,
                                 const point_ref *r, size_t j, uint64_t seq0, double x_min)
{
    if (isnan(x[j]) || r->cr[j] == 0.0f) return;
    bool ok = x[j] < x_min ? y[j] < 0.0f : y[j] > 0.0f;
    if (!ok) sign_add(m, seq0 + j, x[j]);
}

HOT_CLONES static void check_sign(sign_metrics *m, const float *x, const float *y, const point_ref *r,
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
static void fill_refs(scan_worker *w, gelu_target t, int ndir, const float *x, size_t n,
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
static void flush_refs(scan_worker *w, gelu_target t, int ndir, const float *x_ref, size_t n)
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

/* ---- near ties of the maxima (near.h): the interval holding each point's true error
 *
 * The reference value hi + lo of a point lies within E of the exact one; a point's true errors
 * then lie within [d − E, d + E] of its computed distance d (and the relative one within that
 * over [|hi| − |lo| − E, |hi| + |lo| + E]), widened by 2^-50 of themselves for the roundings
 * of their computation. E, coarse (near_coarse_tol, from the stored values alone):
 *   0 where the reference is exact (the ReLU target, x = ±0);
 *   2^-151 at fast.c's stand-in for the regions that round to −0 (hi = −2^-1000): the exact
 *     value is below 2^-151 there (fast.c), a quarter ULP;
 *   2^-57 past the upper threshold (fast.c's stand-in hi = x, lo = −2^-1074, or for f' hi = 1,
 *     lo = 2^-1074): |f − x| and |f' − 1| fall with x there, from below 2^-63 at the largest
 *     threshold (fast.c's table: SiLU's, 48);
 *   1e-3 ULP elsewhere (NEAR_TOL_ULP): fast_ref_decide takes the enclosure only when its bound
 *     is below that, MPFR's values are far closer.
 * and tight (near_tight_tol, for the runs and points the coarse one leaves near a maximum):
 * the enclosure's own bound err (fast.h) where the stored value is the enclosure's; 2^-90 of
 * it where it is MPFR's (ref_eval_value: 106 bits of a 128-bit evaluation); past the
 * thresholds, the error itself from each target's asymptotic form (near_upper_bounds).
 * Exactly known: an error of 0 where the reference is exact, a relative error of 1 for an
 * output ±0 (f ≠ 0), and any error whose every possible value rounds to one double. The ULP is
 * that of hi + lo's binade, as everywhere in the scan (where the exact value lies within the
 * tolerance of a power of two, its binade may be the other one: not covered). */
#define NEAR_TOL_ULP 0x1.0625p-10     /* 1.00002e-3 ULP, just above fast_ref_decide's 1e-3 */
#define NEAR_STAND_IN (-0x1p-1000)    /* fast.c's NEG_TINY (tests/test_near.c pins it) */
#define NEAR_STAND_IN_TOL 0x1p-151    /* |f| below it in the regions that round to −0 (fast.c) */
#define NEAR_UPPER_TOL 0x1p-57       /* |f − hi| past the upper threshold (above) */
#define NEAR_UP (1 + 0x1p-50)
#define NEAR_DOWN (1 - 0x1p-50)

static inline bool near_stand_in(const point_ref *r, size_t j)
{
    return r->hi[j] == NEAR_STAND_IN && r->lo[j] == 0;
}

static inline bool near_upper(const point_ref *r, size_t j)
{
    return r->lo[j] == -DBL_TRUE_MIN || (r->hi[j] == 1 && r->lo[j] == DBL_TRUE_MIN);
}

static inline double near_coarse_tol(gelu_target t, float x, const point_ref *r, size_t j)
{
    if (t == GELU_TARGET_RELU || ref_at_zero(r, x)) return 0;
    if (near_stand_in(r, j)) return NEAR_STAND_IN_TOL;
    if (near_upper(r, j)) return NEAR_UPPER_TOL;
    return NEAR_TOL_ULP / r->inv_ulp[j];
}

/* ln|f(x)| (grad: ln|f'(x)|) in the regions fast.c replaces by its stand-in (x at or below the
 * lower threshold, where |f| < 2^-151 and f < 0), within *err, from each target's asymptotic
 * form (t the argument of σ; the terms dropped are below e^t ≤ e^-112, or, for exact GELU, the
 * Mills ratio's series cut after x^-6, below 105/x^8 < 1e-8 at |x| ≥ 20):
 *   exact:  f = x·Φ(x) = −φ(x)·S, S = 1 − 1/x² + 3/x⁴ − 15/x⁶;  f' = −φ(x)|x|·(1 − S/x²);
 *   others: f = x·σ(t) ≈ x·e^t;  f' = σ(t)(1 + x·σ(−t)·t') ≈ e^t·(1 + x·t').
 * The roundings: 2^-48 of every term's magnitude (x² is exact in double; t within 3u, fast.c). */
static double near_stand_in_log(gelu_target t, bool grad, double x, double *err)
{
    static const double LN_SQRT_2PI = 0x1.d67f1c864beb5p-1; /* ln √(2π) */
    static const double SQRT_2_PI = 0x1.9884533d43651p-1;   /* √(2/π), as fast.c */
    double ax = fabs(x), lx = log(ax), v, mag;
    if (t == GELU_TARGET_EXACT) {
        double q = 1 / (x * x), S = 1 - q * (1 - q * (3 - 15 * q));
        double h = -0.5 * (x * x) - LN_SQRT_2PI;
        v = grad ? h + lx + log1p(-S * q) : h + log(S);
        mag = 0.5 * (x * x) + LN_SQRT_2PI + fabs(lx) + 2 * fabs(log(q));
        *err = mag * 0x1p-48 + 1e-7;
        return v;
    }
    double arg, slope;
    if (t == GELU_TARGET_TANH) {
        arg = 2 * SQRT_2_PI * (x + 0.044715 * (x * x * x));
        slope = 2 * SQRT_2_PI * (1 + 3 * 0.044715 * (x * x));
    } else {
        slope = t == GELU_TARGET_SIGMOID ? 1.702 : 1;
        arg = slope * x;
    }
    v = grad ? arg + log(fabs(1 + x * slope)) : lx + arg;
    mag = fabs(arg) + fabs(lx) + fabs(log(fabs(1 + x * slope)));
    *err = mag * 0x1p-48 + 1e-12;
    return v;
}

/* At a stand-in point: the bound E of |f − hi| (|f| + 2^-1000: both negative) and, for an
 * output y ≠ 0, the interval of its relative error |y − f|/|f| in [*rel_lo, *rel_hi]: from
 * ln(|y|/|f|) ± err, e^L ∓ 1 (|f| < |y|/4); above 2^1024 it is +inf, as MPFR's double. */
static double near_stand_in_bounds(gelu_target t, bool grad, float x, float y, double *rel_lo,
                                   double *rel_hi)
{
    double err, lf = near_stand_in_log(t, grad, x, &err);
    double f_hi = exp(lf + err), E = (f_hi > 0x1p-1073 ? f_hi : 0x1p-1073) * NEAR_UP + 0x1p-1000;
    if (y != 0) {
        double L = log(fabs((double)y)) - lf, w = err + 0x1p-50 * fabs(L);
        static const double LN_2_1024 = 0x1.62e42fefa39efp+9; /* ln 2^1024 */
        *rel_lo = L - w > LN_2_1024 ? INFINITY : (exp(L - w) - 1) * NEAR_DOWN;
        *rel_hi = L + w > LN_2_1024 - 1e-9 ? INFINITY : (exp(L + w) + 1) * NEAR_UP;
    }
    return E;
}

static double near_tight_tol(gelu_target t, bool grad, float x, const point_ref *r, size_t j,
                             double coarse)
{
    if (near_stand_in(r, j)) {
        double lo, hi;
        return near_stand_in_bounds(t, grad, x, 0.0f, &lo, &hi);
    }
    if (coarse == 0) return 0;
    if (near_upper(r, j)) { /* |f − x| (|f' − 1|) is |f(−x)| (|f'(−x)|): the stand-in's form */
        double err, d = exp(near_stand_in_log(t, grad, -(double)x, &err) + err) * NEAR_UP;
        return d < coarse ? d : coarse;
    }
    double err = r->err[j]; /* NaN where the value is MPFR's */
    double tight = err != err ? 0x1p-90 * fabs(r->hi[j]) : err * (1 + 0x1p-20);
    return tight < coarse ? tight : coarse;
}

/* Where the stored value is a marker — past the upper threshold x (f) or 1 (f') with a marker
 * lo, below the lower one fast.c's stand-in −2^-1000: the interval [*lo, *hi] of the error of
 * kind k of output y, from f = x − δ (f' = 1 + δ; below, f = −δ) and ln δ = ln|f(−x)| ± err
 * (near_stand_in_log, f(x) − x = f(−x) and f'(x) − 1 = −f'(−x) by the targets' symmetry
 * S(−x) = 1 − S(x); below, ln|f(x)|). Where δ is below the doubles (|x| ≳ 39 for exact GELU),
 * the error is |y − x| (|y − 1|, |y|), exactly when that difference is. */
static void near_upper_bounds(error_kind k, gelu_target t, bool grad, float x, float y,
                              const point_ref *r, size_t j, double *lo, double *hi)
{
    bool stand_in = near_stand_in(r, j); /* below the lower threshold: f = −δ, base 0 */
    double err, L = near_stand_in_log(t, grad, stand_in ? (double)x : -(double)x, &err);
    double d_lo = exp(L - err) * NEAR_DOWN, d_hi = exp(L + err) * NEAR_UP;
    double cap = stand_in ? NEAR_STAND_IN_TOL : NEAR_UPPER_TOL;
    if (!(d_hi <= cap)) { /* the form does not apply: the threshold's bound */
        d_lo = 0;
        d_hi = cap;
    }
    double base = stand_in ? 0 : r->hi[j], D = (double)y - base, bb = D - (double)y;
    bool exact = ((double)y - (D - bb)) + (-base - bb) == 0 && d_hi == 0;
    double sigma = grad && !stand_in ? -1 : 1; /* y − f = D + σδ */
    double s1 = D + sigma * d_lo, s2 = D + sigma * d_hi;
    double a = s1 < s2 ? s1 : s2, b = s1 < s2 ? s2 : s1;
    double m_lo = a > 0 ? a : b < 0 ? -b : 0, m_hi = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    if (!exact) {
        m_lo *= NEAR_DOWN;
        m_hi = m_hi * NEAR_UP + 0x1p-1074;
    }
    double f_lo = stand_in ? d_lo : grad ? 1 + d_lo : base - d_hi;
    double f_hi = stand_in ? d_hi : grad ? 1 + d_hi : base - d_lo;
    if (k == ERR_ULP) {
        *lo = m_lo * r->inv_ulp[j];
        *hi = m_hi * r->inv_ulp[j];
    } else if (k == ERR_ABS) {
        *lo = m_lo;
        *hi = m_hi;
    } else {
        *lo = exact && !stand_in ? m_lo / base : m_lo / f_hi * NEAR_DOWN;
        *hi = exact && !stand_in ? *lo : f_lo > 0 ? m_hi / f_lo * NEAR_UP : INFINITY;
    }
    if (!isfinite(y)) *lo = *hi = INFINITY;
}

/* |y − (hi + lo)| as an unevaluated sum *dh + *dl, to within 2^-100 of itself (two exact
 * two-sums, their errors added once). */
static void near_distance(float y, double hi, double lo, double *dh, double *dl)
{
    double s1 = (double)y - hi, b1 = s1 - (double)y, e1 = ((double)y - (s1 - b1)) + (-hi - b1);
    double s2 = s1 - lo, b2 = s2 - s1, e2 = (s1 - (s2 - b2)) + (-lo - b2);
    double r = e1 + e2;
    *dh = s2 < 0 ? -s2 : s2;
    *dl = s2 < 0 ? -r : r;
}

/* nextafter(h, up ? +inf : −inf) from the encoding, inline (near_point's share of the scan was
 * a tenth in the tiny regions, where rows off by a constant give every point a near tie): the
 * same value for every finite h; for ±inf and NaN the differences below are NaN either way. */
static inline double near_next(double h, bool up)
{
    if (h == 0) return up ? DBL_TRUE_MIN : -DBL_TRUE_MIN;
    uint64_t b;
    memcpy(&b, &h, sizeof b);
    b = up != (bool)(b >> 63) ? b + 1 : b - 1;
    double r;
    memcpy(&r, &b, sizeof r);
    return r;
}

/* Whether every real in [h + l − e, h + l + e] rounds to nearest to the double h (e ≥ 0). */
static bool near_rounds_to(double h, double l, double e)
{
    double up = near_next(h, true) - h, down = h - near_next(h, false);
    return l + e < 0.5 * up && e - l < 0.5 * down;
}

/* The interval [*lo, *hi] of the double MPFR's error of kind k would be (refine_mpfr_error,
 * the true error rounded to nearest) for output y at point j, whose computed error of kind k
 * is v, for a reference within E of the exact value: ULP and absolute errors from the distance
 * as a double-double (near_distance), the relative error as |1 − y/f| from the bounds of
 * |y|/|f|. Where every real the error could be rounds to one double, that double is the error,
 * exactly: MPFR's would be the same (ties at that resolution are ties). */
static void near_bounds(error_kind k, float y, const point_ref *r, size_t j, double E, double v,
                        double *lo, double *hi)
{
    if (!r->plain[j] || !isfinite(y) || (k == ERR_REL && y == 0)) {
        /* the general rules (exact references, infinite errors), a relative error of 1 */
        *lo = *hi = k == ERR_REL && y == 0 && r->plain[j] ? 1 : v;
        return;
    }
    double dh, dl;
    near_distance(y, r->hi[j], r->lo[j], &dh, &dl);
    double slack = fabs(dl) + E + 0x1p-100 * dh;
    if (k != ERR_REL) {
        double scale = k == ERR_ULP ? r->inv_ulp[j] : 1;
        if (near_rounds_to(dh, dl, E + 0x1p-100 * dh) || dh + slack == 0) {
            *lo = *hi = dh * scale; /* a power of two: exact */
            return;
        }
        double down = (dh - slack) * NEAR_DOWN;
        *lo = (down > 0 ? down : 0) * scale;
        *hi = (dh + slack) * NEAR_UP * scale;
        return;
    }
    /* rel = |1 − y/f|: g = |y|/|f| within [|y|/(m + E), |y|/(m − E)], m = |hi + lo| */
    double m = fabs(r->hi[j] + r->lo[j]), ay = fabs((double)y);
    double den_lo = m * (1 - 0x1p-52) - E, den_hi = m * (1 + 0x1p-52) + E;
    if (!(den_lo > 0)) { /* the reference does not bound |f| away from 0 */
        *lo = 0;
        *hi = INFINITY;
        return;
    }
    double g_lo = ay / den_hi * NEAR_DOWN, g_hi = ay / den_lo * NEAR_UP;
    double a, b;
    bool same_sign = (y < 0) == (r->hi[j] < 0);
    if (same_sign && g_hi > 0.5 && g_lo < 2) {
        /* y near f: rel = d/|f| from the exact distance, q0 + c with q0 = dh/m and c from the
         * division's exact residual (FMA); |f| ≥ den_lo */
        double q0 = dh / m, c = (fma(-q0, m, dh) + dl) / m;
        double err = fabs(c) * 0x1p-50 + E * (1 + q0) / den_lo * NEAR_UP + 0x1p-100 * q0 +
                     q0 * 0x1p-51; /* m's own rounding */
        if (E == 0 && dh == 0) { /* y = f exactly */
            *lo = *hi = 0;
            return;
        }
        if (near_rounds_to(q0, c, err)) {
            *lo = *hi = q0;
            return;
        }
        a = q0 + c - err;
        b = q0 + c + err;
        *lo = a > 0 ? a * NEAR_DOWN : 0;
        *hi = b * NEAR_UP;
        return;
    }
    if (!same_sign) {
        a = 1 + g_lo;
        b = 1 + g_hi;
    } else if (g_hi <= 1) {
        a = 1 - g_hi;
        b = 1 - g_lo;
    } else if (g_lo >= 1) {
        a = g_lo - 1;
        b = g_hi - 1;
    } else {
        a = 0;
        b = 1 - g_lo > g_hi - 1 ? 1 - g_lo : g_hi - 1;
    }
    /* one rounded operation on the bounds of g each: a and b are the roundings of the ends,
     * so MPFR's double (the rounding of the true value) lies in [a, b] */
    *lo = a;
    *hi = b;
}

/* 1/v for a power of two v whose reciprocal is a normal double (inv_ulp: 2^-1001 to 2^149), from
 * its exponent: exact, as the division is, and without a division's latency. */
static inline double near_recip_pow2(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    b = (uint64_t)(2046 - (int64_t)(b >> 52)) << 52;
    double r;
    memcpy(&r, &b, sizeof r);
    return r;
}

/* A double that is +0, positive or +inf (not NaN, not −0) as an integer with the same order:
 * such doubles order as their encodings. A maximum of them is then an integer maximum, which
 * GCC vectorizes (a maximum of doubles it does not, without -ffast-math). */
static inline int64_t pos_bits(double v) { return (int64_t)double_bits(v); }

/* One point's relative terms (near_run_upper's scale |hi|/den and add E/den, den = (|hi| −
 * |lo|)·(1 − 2^-50) − E; +inf both where den ≤ 0) folded into the maxima *rel_scale, *rel_add
 * (pos_bits) when in_rel. |lo| is dropped where it cannot change |hi| − |lo| (a subnormal lo
 * under a large |hi|: no subnormal arithmetic, which costs microcode assists on Intel cores).
 * Without branches: the loops calling it vectorize. */
static inline void near_rel_fold(double hi, double lo, double E, int64_t in_rel,
                                 int64_t *rel_scale, int64_t *rel_add)
{
    double mag = fabs(hi), alo = fabs(lo);
    alo = ((alo < DBL_MIN) & (mag >= 0x1p-900)) ? 0 : alo;
    double den = (mag - alo) * NEAR_DOWN - E;
    double q_scale = mag / den, q_add = E / den; /* unconditional: no branch */
    int64_t pos = den > 0;
    int64_t scale = pos ? pos_bits(q_scale) : pos_bits(INFINITY);
    int64_t add = pos ? pos_bits(q_add) : pos_bits(INFINITY);
    scale = in_rel ? scale : 0;
    add = in_rel ? add : 0;
    *rel_scale = scale > *rel_scale ? scale : *rel_scale;
    *rel_add = add > *rel_add ? add : *rel_add;
}

/* near_run_coarse's loop where every point of the run lies past one threshold: all near_upper
 * points (plain, |hi| ≥ 2^-900: the loop's |lo| is dropped) or all stand-ins (x ≠ 0 and a
 * target other than ReLU in both: x is finite and past a threshold). There E is one constant,
 * so each value whose maximum the loop takes — E·inv_ulp, E·inv_abs, and g = (1 − 0)·(1 −
 * 2^-50) − E·inv_abs (its minimum) — is a rounded monotone function of inv_ulp or inv_abs
 * alone: the loop's extremes are those functions at the largest inv_ulp and inv_abs, the same
 * operations on the same operands, so the same bits; the largest inv_abs as 1/min |hi| (the
 * same rounded division), so that a block whose inv_abs is not filled (upper_block) needs none.
 * A check at the run's ends first (the regions are intervals of x), then one pass that confirms
 * every point and takes the two extremes. False, and nr untouched, where the run is not of that kind. */
/* near_run_coarse_past's tolerances of a run of stand-ins (si) or of points past the upper
 * threshold, from the pos_bits of its largest inv_ulp and (not si) of its smallest |hi|. */
static inline void near_past_tolerances(bool si, int64_t iu_max, int64_t mag_min, near_run *nr)
{
    double E = si ? NEAR_STAND_IN_TOL : NEAR_UPPER_TOL;
    nr->ulp = E * double_from_bits((uint64_t)iu_max);
    nr->abs = E;
    nr->stand_in = si;
    if (!si) { /* every point in the relative terms: near_run_coarse's g_min and t_max */
        /* the largest inv_abs, 1/|hi| rounded once, is the reciprocal of the smallest |hi|
         * (a plain point's, as every point is in the up case) */
        double inv_max = 1.0 / double_from_bits((uint64_t)mag_min);
        double t = E * inv_max, g = (1 - 0.0) * NEAR_DOWN - t;
        int64_t g_min = g > 0 ? pos_bits(g) : 0;
        double gl = double_from_bits((uint64_t)g_min) - 0x1p-47, raise = 1 + 0x1p-44;
        double scale = gl > 0 ? raise / gl : INFINITY;
        nr->rel_scale = scale > 1 ? scale : 1;
        nr->rel_add = gl > 0 ? t / gl * raise : INFINITY;
    }
}

__attribute__((always_inline)) /* into near_run_coarse's clones */
static inline bool near_run_coarse_past(const point_ref *p, const float *x, size_t a, size_t b,
                                        near_run *nr)
{
    if (p->target == GELU_TARGET_RELU || x[a] == 0 || x[b - 1] == 0) return false;
    bool si_ends = near_stand_in(p, a) && near_stand_in(p, b - 1);
    bool up_ends = near_upper(p, a) && near_upper(p, b - 1);
    if (!si_ends && !up_ends) return false;
    /* the tests as integer compares of the encodings (lo == 0 for either zero; fabs(hi) ≥ 2^-900
     * with hi plain, not NaN), so that GCC vectorizes the loop */
    const uint64_t sign = 0x8000000000000000ull, one = double_bits(1.0);
    const uint64_t stand_in = double_bits(NEAR_STAND_IN), tiny = double_bits(0x1p-900);
    int64_t all_si = 1, all_up = 1, iu_max = 0, mag_min = (int64_t)double_bits(INFINITY);
    for (size_t j = a; j < b; j++) {
        uint64_t hb = double_bits(p->hi[j]), lb = double_bits(p->lo[j]);
        int64_t nonzero = (float_bits(x[j]) & 0x7fffffffu) != 0;
        int64_t si = (int64_t)(hb == stand_in) & (int64_t)((lb << 1) == 0);
        int64_t up = ((int64_t)(lb == (sign | 1)) | ((int64_t)(hb == one) & (int64_t)(lb == 1))) &
                     (int64_t)(p->plain[j] != 0) & (int64_t)((hb & ~sign) >= tiny);
        all_si &= si & nonzero;
        all_up &= up & nonzero;
        int64_t iu = pos_bits(p->inv_ulp[j]), mag = (int64_t)(hb & ~sign);
        iu_max = iu > iu_max ? iu : iu_max;
        mag_min = mag < mag_min ? mag : mag_min;
    }
    int64_t all = si_ends ? all_si : all_up;
    if (!all) return false;
    near_past_tolerances(si_ends, iu_max, mag_min, nr);
    return true;
}

/* near_run_of's coarse tolerances (tight false) as selections over arrays of doubles, without
 * branches: the same ULP and absolute tolerances as near_coarse_tol's per point (its cases in its
 * order; E·inv_ulp and the maxima are the same operations; NEAR_TOL_ULP/inv_ulp as a product by
 * the exact reciprocal). Every value whose maximum is taken is +0, positive or +inf — E ≥ +0 and
 * inv_ulp a positive power of two — so the maxima are those of their pos_bits. A run's inputs
 * are all finite or all not (run_block).
 * The relative terms are bounds of near_rel_fold's maxima rather than those maxima, without its
 * two divisions per point (a tenth of a one-implementation scan): near_rel_fold's |hi|/den and
 * E/den are 1/g and t/g with g = den/|hi| = (1 − |lo|/|hi|)·(1 − 2^-50) − E/|hi| and
 * t = E/|hi|, so the run's largest are at most 1/min g and max t/min g. Per point, g and t
 * come from products by inv_abs (1/|hi| rounded once): t ≤ 2^-8 (|hi| ≥ 2^-150 outside the
 * stand-ins), |lo|/|hi| ≤ 2^-52, g ≤ 1, so a few roundings of numbers below 1 leave g within
 * 2^-49 of its exact value, as they leave near_rel_fold's den/|hi|; with min g lowered by 2^-47
 * and the quotients raised by 2^-44 the bounds are at least near_rel_fold's values (+inf where
 * some g is not above 2^-47). Coarse tolerances only decide whether a run's tight ones are
 * looked at (near_wanted), and the tight relative terms are at most the coarse ones point by
 * point (near_tight_tol takes the lesser away from the stand-ins, which the relative terms
 * leave out; near_rel_fold grows with E), so a larger coarse bound changes no result, only how
 * often the tight ones are formed: hardly more often, g being 1 − 2^-50 − t within 2^-49. */
HOT_CLONES static near_run near_run_coarse(const point_ref *p, const float *x, size_t a, size_t b)
{
    near_run nr = {0, 0, 1, 0, false, true, false};
    if (a == b || !isfinite(x[a])) return nr;
    uint32_t cr_zero = 1;
    for (size_t j = a; j < b; j++) cr_zero &= p->plain[j] & ((float_bits(p->cr[j]) & 0x7fffffffu) == 0);
    nr.cr_zero = cr_zero;
    if (near_run_coarse_past(p, x, a, b, &nr)) return nr;
    assert(!p->lazy); /* inv_abs is read below (the lazy blocks' runs all take the line above) */
    int64_t relu = p->target == GELU_TARGET_RELU;
    const int64_t none = pos_bits(INFINITY);
    int64_t ulp = 0, abs = 0, g_min = none, t_max = 0, stand_in = 0;
    for (size_t j = a; j < b; j++) {
        double hi = p->hi[j], lo = p->lo[j], iu = p->inv_ulp[j];
        int64_t si = (int64_t)(hi == NEAR_STAND_IN) & (int64_t)(lo == 0);
        int64_t up = (int64_t)(lo == -DBL_TRUE_MIN) | ((int64_t)(hi == 1) & (int64_t)(lo == DBL_TRUE_MIN));
        int64_t zero = relu | ref_at_zero(p, x[j]);
        double E = NEAR_TOL_ULP * near_recip_pow2(iu);
        E = up ? NEAR_UPPER_TOL : E;
        E = si ? NEAR_STAND_IN_TOL : E;
        E = zero ? 0 : E;
        int64_t u = pos_bits(E * iu), e = pos_bits(E);
        ulp = u > ulp ? u : ulp;
        abs = e > abs ? e : abs;
        stand_in |= si;
        /* the relative terms where the point is plain and not a stand-in (near_rel_fold's |lo|,
         * dropped as there: no subnormal operand) */
        double mag = fabs(hi), alo = fabs(lo), inv = p->inv_abs[j];
        alo = ((alo < DBL_MIN) & (mag >= 0x1p-900)) ? 0 : alo;
        double t = E * inv, g = (1 - alo * inv) * NEAR_DOWN - t;
        int64_t in_rel = (int64_t)(p->plain[j] != 0) & (si ^ 1);
        int64_t gb = g > 0 ? pos_bits(g) : 0; /* ≤ 0 (or NaN): as 0, which gives +inf */
        gb = in_rel ? gb : none;
        int64_t tb = in_rel ? pos_bits(t) : 0;
        g_min = gb < g_min ? gb : g_min;
        t_max = tb > t_max ? tb : t_max;
    }
    nr.ulp = double_from_bits((uint64_t)ulp);
    nr.abs = double_from_bits((uint64_t)abs);
    if (g_min != none) { /* some point of the run is in the relative terms */
        double gl = double_from_bits((uint64_t)g_min) - 0x1p-47, raise = 1 + 0x1p-44;
        double scale = gl > 0 ? raise / gl : INFINITY;
        nr.rel_scale = scale > 1 ? scale : 1; /* near_rel_fold's maximum starts at 1 */
        nr.rel_add = gl > 0 ? double_from_bits((uint64_t)t_max) / gl * raise : INFINITY;
    }
    nr.stand_in = stand_in != 0;
    return nr;
}

/* The tight tolerances of a finite run without points past the thresholds (neither near_upper
 * nor near_stand_in), without branches: near_run_of's loop on such points, where
 * near_coarse_tol is 0 or NEAR_TOL_ULP/inv_ulp (as near_run_coarse forms it) and near_tight_tol
 * the lesser of it and the enclosure's bound (2^-90 of |hi| where the value is MPFR's); the
 * maxima as in near_run_coarse (every value +0, positive or +inf). */
HOT_CLONES static near_run near_run_tight_plain(const point_ref *p, const float *x, size_t a,
                                                 size_t b)
{
    near_run nr = {0, 0, 1, 0, false, true, true};
    uint32_t cr_zero = 1;
    for (size_t j = a; j < b; j++) cr_zero &= p->plain[j] & ((float_bits(p->cr[j]) & 0x7fffffffu) == 0);
    nr.cr_zero = cr_zero;
    nr.cr_exact = false; /* no point past the upper threshold (and the run is not empty) */
    int64_t relu = p->target == GELU_TARGET_RELU;
    int64_t ulp = 0, abs = 0, rel_scale = pos_bits(1), rel_add = 0;
    for (size_t j = a; j < b; j++) {
        double hi = p->hi[j], lo = p->lo[j], iu = p->inv_ulp[j], err = p->err[j];
        int64_t zero = relu | ref_at_zero(p, x[j]);
        double E = NEAR_TOL_ULP * near_recip_pow2(iu);
        E = zero ? 0 : E;
        double t = err != err ? 0x1p-90 * fabs(hi) : err * (1 + 0x1p-20);
        E = t < E ? t : E; /* 0 where the coarse one is 0 (t ≥ 0) */
        int64_t u = pos_bits(E * iu), e = pos_bits(E);
        ulp = u > ulp ? u : ulp;
        abs = e > abs ? e : abs;
        near_rel_fold(hi, lo, E, p->plain[j] != 0, &rel_scale, &rel_add);
    }
    nr.ulp = double_from_bits((uint64_t)ulp);
    nr.abs = double_from_bits((uint64_t)abs);
    nr.rel_scale = double_from_bits((uint64_t)rel_scale);
    nr.rel_add = double_from_bits((uint64_t)rel_add);
    return nr;
}

/* One point's share of a run's tolerances (near_run_of's loop; coarse or tight). */
static inline void near_tight_point(const point_ref *p, const float *x, size_t j, bool tight,
                                    near_run *nr)
{
    double E = near_coarse_tol(p->target, x[j], p, j);
    if (tight) E = near_tight_tol(p->target, p->grad, x[j], p, j, E);
    nr->cr_exact &= near_upper(p, j) && E == 0;
    double u = E * p->inv_ulp[j];
    nr->ulp = u > nr->ulp ? u : nr->ulp;
    nr->abs = E > nr->abs ? E : nr->abs;
    if (near_stand_in(p, j)) {
        nr->stand_in = true;
    } else if (p->plain[j]) {
        double mag = fabs(p->hi[j]), den = (mag - fabs(p->lo[j])) * NEAR_DOWN - E;
        double scale = den > 0 ? mag / den : INFINITY, add = den > 0 ? E / den : INFINITY;
        nr->rel_scale = scale > nr->rel_scale ? scale : nr->rel_scale;
        nr->rel_add = add > nr->rel_add ? add : nr->rel_add;
    }
}

/* The tight tolerances of the points first and last (first ≤ last) of a run all past the
 * thresholds, which bound the others' (near_run_of). */
static inline void near_run_points(const point_ref *p, const float *x, size_t first, size_t last,
                                   near_run *nr)
{
    near_tight_point(p, x, first, true, nr);
    if (last != first) near_tight_point(p, x, last, true, nr);
}

/* The tolerances of the points [a, b) of a block (coarse, or tight). */
HOT_CLONES static near_run near_run_of(const point_ref *p, const float *x, size_t a, size_t b,
                                        bool tight)
{
    if (!tight) return near_run_coarse(p, x, a, b);
    if (p->past) { /* the all_tail case below, its loops' outcome known (upper_block,
                    * stand_in_block: every point marked, hi plain, the correctly rounded value
                    * ±0 exactly at the stand-ins) */
        near_run nr = {0, 0, 1, 0, false, p->past == PAST_STAND_IN, true};
        near_run_points(p, x, a, b - 1, &nr);
        return nr;
    }
    bool all_tail = false;
    if (a < b && isfinite(x[a])) { /* a run without points past the thresholds: branch-free */
        uint32_t tail = 0, ntail = 0;
        for (size_t j = a; j < b; j++) {
            double hi = p->hi[j], lo = p->lo[j];
            uint32_t t = (uint32_t)((hi == NEAR_STAND_IN) & (lo == 0)) |
                         (uint32_t)(lo == -DBL_TRUE_MIN) | (uint32_t)((hi == 1) & (lo == DBL_TRUE_MIN));
            tail |= t;
            ntail += t;
        }
        if (!tail) return near_run_tight_plain(p, x, a, b);
        all_tail = ntail == b - a; /* (a run's x are all finite or none) */
    }
    near_run nr = {0, 0, 1, 0, false, true, tight};
    if (all_tail) { /* every point past the thresholds: the loop below on the first and the last,
                     * the others only in cr_zero (a loop that vectorizes) */
        uint32_t cr_zero = 1;
        for (size_t j = a; j < b; j++)
            cr_zero &= p->plain[j] & ((float_bits(p->cr[j]) & 0x7fffffffu) == 0);
        nr.cr_zero = cr_zero;
        near_run_points(p, x, a, b - 1, &nr);
        return nr;
    }
    /* Past the thresholds (the markers of near_upper and near_stand_in) a point's tight
     * tolerance is |f(−x)| or |f(x)| (a log and an exp each), which falls as |x| grows, and
     * its ULP with it: over the run's points there, in either order, the largest tolerance,
     * its ULP multiple and its relative terms are at the first or the last one, which bound
     * the others. Only those two are evaluated. */
    size_t tail_first = b, tail_last = b;
    if (tight)
        for (size_t j = a; j < b; j++)
            if (isfinite(x[j]) && (near_upper(p, j) || near_stand_in(p, j))) {
                tail_first = tail_first == b ? j : tail_first;
                tail_last = j;
            }
    for (size_t j = a; j < b; j++) {
        if (!isfinite(x[j])) continue;
        nr.cr_zero &= p->plain[j] && p->cr[j] == 0;
        if (j > tail_first && j < tail_last && (near_upper(p, j) || near_stand_in(p, j))) continue;
        near_tight_point(p, x, j, tight, &nr);
    }
    return nr;
}

/* Whether every point of the block has the fast reference's form below 2^-30
 * (fast_ref_block's micro region, fast_eval.h: micro_enclose): hi plain and the correctly
 * rounded value itself (x/2 or 1/2), 2^-900 ≤ |lo| ≤ 2^-28·|hi| and err = |lo|·2^-50; t not
 * ReLU. (x is not among them: near_run_tight_plain's tolerance at x = 0 is 0.) Compares of
 * encodings — products of a normal |lo| by powers of two as sums of exponents — in one loop
 * that vectorizes. */
HOT_CLONES static bool micro_block(const point_ref *p, gelu_target t, size_t n)
{
    if (t == GELU_TARGET_RELU || n == 0) return false;
    const uint64_t mag = 0x7fffffffffffffffull, lo_min = double_bits(0x1p-900);
    const uint64_t e28 = (uint64_t)28 << 52, e50 = (uint64_t)50 << 52;
    int64_t all = 1;
    for (size_t e = 0; e < 2; e++) { /* the ends first (the region is an interval of x) */
        size_t j = e ? n - 1 : 0;
        uint64_t lb = double_bits(p->lo[j]) & mag, hb = double_bits(p->hi[j]);
        if (!(lb >= lo_min && lb + e28 <= (hb & mag))) return false;
    }
    for (size_t j = 0; j < n; j++) {
        uint64_t lb = double_bits(p->lo[j]) & mag, hb = double_bits(p->hi[j]);
        all &= (int64_t)(p->plain[j] != 0) & (int64_t)(double_bits((double)p->cr[j]) == hb) &
               (int64_t)(lb >= lo_min) & (int64_t)(lb + e28 <= (hb & mag)) &
               (int64_t)(double_bits(p->err[j]) == lb - e50);
    }
    return all != 0;
}

/* The coarse tolerances of every run of the block (point_ref's near[]), target t.
 * In a micro_block they are bounds from the correctly rounded values' own errors, which serve as
 * the tight ones too. There at each point the correctly rounded value is hi, so its errors are
 * d = |lo| exactly, u = |lo|·inv_ulp and rel = |lo|·inv_abs rounded (block_errors); the tight
 * tolerance E is at most err·(1 + 2^-20) rounded, ≤ |lo|·2^-50·(1 + 2^-19): so E·inv_ulp ≤
 * u·2^-49 and E ≤ d·2^-49; near_rel_fold's den = (|hi| − |lo|)·(1 − 2^-50) − E ≥ |hi|·(1 − 2^-27)
 * (|lo| ≤ 2^-28·|hi|, E ≤ 2^-77·|hi|, three roundings), so its scale ≤ 1 + 2^-26 and its add
 * ≤ (|lo|/|hi|)·2^-49·(1 + 2^-25) ≤ rel·2^-48 (inv_abs ≥ (1 − 2^-53)/|hi|). A run's tolerances
 * are then at most {max_ulp·2^-48, max_abs·2^-48, 1 + 2^-26, max_rel·2^-48}, its correctly
 * rounded values' maxima (cr_sums, formed before). Tolerances only filter — near_wanted: whether
 * a run's lists are looked at; near_scan_run: which points take near_point, whose intervals are
 * each point's own — so larger ones change no list, only how many points are looked at. There
 * every run's coarse tolerances (NEAR_TOL_ULP, far above its errors) let its tight ones be
 * formed, which then closed nearly every list: the two passes were a fifth of a shard of
 * |x| < 2^-30 (`accuracy --impl pw_accurate_avx512 --grad --shard 13/128`). */
/* near_run_coarse's tolerances of a run of an exact_block, where E = 0 at every point and the
 * relative terms are g = (1 − 0·inv_abs)·NEAR_DOWN − 0 = NEAR_DOWN and t = 0 at the plain ones
 * (any_plain: the run has some), the same operations on the same values after the loop; no
 * stand-in, and not every correctly rounded output ±0 (a plain point's is hi ≠ 0, a zero's
 * reference is not plain). */
static near_run near_run_exact(bool any_plain)
{
    near_run nr = {0, 0, 1, 0, false, false, false};
    if (any_plain) {
        double gl = NEAR_DOWN - 0x1p-47, raise = 1 + 0x1p-44;
        double scale = gl > 0 ? raise / gl : INFINITY;
        nr.rel_scale = scale > 1 ? scale : 1;
        nr.rel_add = gl > 0 ? 0.0 / gl * raise : INFINITY;
    }
    return nr;
}

static void near_prepare(point_ref *p, gelu_target t, bool grad, const float *x,
                         const scan_worker *w)
{
    p->target = t;
    p->grad = grad;
    for (size_t k = 0; k < w->nruns; k++) {
        p->tight_ready[k] = false;
        if (p->exact) {
            p->near[k] = near_run_exact(p->any_plain[k]);
        } else if (p->micro) {
            const run_sums *s = &p->cr_sums[k];
            near_run nr = {s->max_ulp * 0x1p-48, s->max_abs * 0x1p-48, 1 + 0x1p-26,
                           s->max_rel * 0x1p-48, false, false, false};
            p->near[k] = p->near_tight[k] = nr;
            p->tight_ready[k] = true;
        } else if (!p->past) {
            p->near[k] = near_run_of(p, x, w->run_start[k], w->run_start[k + 1], false);
        }
    }
}

/* The tight tolerances of run k, [a, b) (computed once per block and reference). */
static const near_run *near_tight_run(const point_ref *r, const float *x, size_t k, size_t a,
                                      size_t b)
{
    point_ref *p = (point_ref *)r; /* the worker's own buffer: a cache */
    if (!p->tight_ready[k]) {
        p->near_tight[k] = near_run_of(p, x, a, b, true);
        p->tight_ready[k] = true;
    }
    return &p->near_tight[k];
}

/* An upper bound of the true errors of kind k over a run whose computed maxima are at most s's,
 * with tolerances nr; stand_in_nonzero: an output other than ±0 at a stand-in point (its
 * relative error is unbounded: the exact value is only known to be below 2^-151); cr_outputs:
 * the outputs are the correctly rounded ones on the whole run. */
static double near_run_upper(const run_sums *s, const near_run *nr, error_kind k,
                             bool stand_in_nonzero, bool cr_outputs)
{
    if (k == ERR_REL && cr_outputs && nr->cr_zero) return 1; /* exactly, at every point */
    if (cr_outputs && nr->cr_exact) return 0;
    const double up = 1 + 0x1p-46; /* the per-point roundings (near_bounds), with room */
    if (k == ERR_ULP) return (s->max_ulp + nr->ulp) * up;
    if (k == ERR_ABS) return (s->max_abs + nr->abs) * up;
    if (stand_in_nonzero) return INFINITY;
    double b = (s->max_rel * nr->rel_scale + nr->rel_add) * up;
    return nr->stand_in && !(b >= 1) ? 1 : b;
}

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
__attribute__((always_inline)) /* into near_scan_run's clones (alone it was compiled for the
                                 * baseline ISA, a fifth of a shard of [1, 16)) */
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
HOT_CLONES static void near_scan_run(error_metrics *m, int bucket, const bool want[ERR_KINDS],
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
         * double past x ≈ −39), and these were looked at one by one. (A floor of +inf alone is
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
         * ten of the default derivatives below x ≈ −14), and they made those regions about five
         * times dearer to scan. */
        /* The same holds short of the upper threshold for an output x (forward) or 1
         * (derivative) at x ≥ NEAR_TAIL_X (near_tail_point): past the x bucket holding the
         * row's maximum such runs are near ties at the fast reference's resolution (their
         * errors, ~1e-7 ULP at x ≈ 7.4 for exact GELU, change by less than the enclosure's
         * bound over thousands of inputs), and every one of them was resolved with MPFR. */
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
static void near_scan_flat_cr(error_metrics *m, int bucket, const bool want[ERR_KINDS],
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
static bool near_wanted(error_metrics *m, const run_sums *s, const point_ref *r, const float *x,
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

/* 1/|hi| at the plain points (0 elsewhere) into inv_abs; the division unconditional. */
HOT_CLONES static void fill_inv_abs(point_ref *p, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        double inv = 1.0 / fabs(p->hi[j]);
        p->inv_abs[j] = p->plain[j] ? inv : 0;
    }
}

/* What upper_block and stand_in_block ask of a block first: a target other than ReLU (whose
 * references are exact: none of them), points, and no weighted run (dist_run reads the errors'
 * arrays). */
static inline bool past_block_may(gelu_target t, const scan_worker *w, size_t n)
{
    if (t == GELU_TARGET_RELU || n == 0) return false;
    for (size_t k = 0; k < w->nruns; k++)
        if (w->run_weighted[k]) return false;
    return true;
}

/* count_criteria's `checked` (|x| ≤ 10) over a block whose correctly rounded values' errors are
 * below 2^-900 (past_block_may's blocks), where that is its only count: such an error fails no
 * rule (d/|f| < 2^-900/1e-5 for benchdnn, d ≤ XNNPACK's absolute tolerance). */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline uint64_t points_checked(const float *x, size_t n)
{
    const uint32_t domain_bits = float_bits((float)XNNPACK_GELU_DOMAIN);
    uint64_t checked = 0;
    for (size_t j = 0; j < n; j++) checked += (float_bits(x[j]) & 0x7fffffffu) <= domain_bits;
    return checked;
}

/* A block of target t wholly past the upper threshold: at every point hi is the correctly
 * rounded value (x, or 1 for a derivative) as a double with 2^-900 ≤ |hi| < ∞ (plain), lo is
 * near_upper's mark (−2^-1074, or 2^-1074 where hi = 1), x finite and not 0; t not ReLU; no run
 * weighted. There cr_errors gives every point the errors 2^-1074·inv_ulp (times_true_min),
 * 2^-1074 and 2^-1074·inv_abs, ULP errors below 2^-20 (inv_ulp ≤ 2^149), so each run's sums are
 * run_sums_of's without its arrays: every point finite and correctly rounded, a sum of 0, the
 * histogram's bucket 0 (the products that round to 0: inv_ulp ≤ 1/2) and 1 (the others), the
 * maxima the products at the largest inv_ulp and the largest inv_abs (1/min |hi|, the same
 * rounded division: each product is a rounded monotone function of its operand), first indices
 * left unknown as run_sums_of leaves them; and count_criteria's counts are the points checked
 * (|x| ≤ 10): an error of 2^-1074 fails no rule. Then prepare_refs leaves inv_abs and the
 * errors' arrays to refs_fill_errors (p->lazy), for the rows that read them: a row differing
 * from the correctly rounded values in the block, or a run whose maxima or near ties are looked
 * at point by point. In the one-implementation scan, a fifth of the time past the threshold
 * (`accuracy --impl pw_accurate_avx512 --grad --threads 1 --shard 104/256`). The points' test is
 * refs_flags_upper's, which prepare_refs calls first where past_block_may allows; given it
 * passed, the runs' sums here. False, the sums then unset, where a run's ULP errors are not
 * below 2^-20 (never: inv_ulp ≤ 2^149). */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool upper_block(point_ref *p, const float *x, const scan_worker *w, size_t n)
{
    const uint64_t sign = 0x8000000000000000ull, inf = double_bits(INFINITY);
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        uint64_t u_max = 0, zeros = 0, mag_min = inf;
        int64_t iu_max = 0;
        for (size_t j = a; j < b; j++) {
            uint64_t u = double_bits(times_true_min(p->inv_ulp[j]));
            uint64_t mag = double_bits(p->hi[j]) & ~sign;
            int64_t iu = pos_bits(p->inv_ulp[j]);
            iu_max = iu > iu_max ? iu : iu_max;
            u_max = u > u_max ? u : u_max;
            zeros += u == 0;
            mag_min = mag < mag_min ? mag : mag_min;
        }
        if (!(double_from_bits(u_max) < 0x1p-20)) return false; /* (inv_ulp ≤ 2^149: never) */
        run_sums *s = &p->cr_sums[k];
        memset(s, 0, sizeof *s);
        s->finite = s->crs = b - a;
        s->hist[0] = (uint32_t)zeros;
        s->hist[1] = (uint32_t)(b - a - zeros);
        s->hist_used = (uint32_t)(s->hist[0] != 0) | (uint32_t)(s->hist[1] != 0) << 1;
        s->max_ulp = double_from_bits(u_max);
        s->max_abs = DBL_TRUE_MIN;
        s->max_rel = times_true_min(1.0 / double_from_bits(mag_min));
        s->at_ulp = RUN_AT_UNKNOWN;
        s->at_abs = s->at_rel = b;
        /* near_run_coarse's (its past case; no correctly rounded value is 0: |hi| ≥ 2^-900) */
        p->near[k] = (near_run){0, 0, 1, 0, false, false, false};
        near_past_tolerances(false, iu_max, (int64_t)mag_min, &p->near[k]);
    }
    p->cr_criteria = (criteria_counts){0, 0, points_checked(x, n)};
    p->past = PAST_UPPER;
    return true;
}

/* A block of target t wholly below the lower threshold: at every point the stand-in reference
 * (hi = NEAR_STAND_IN, lo = ±0: near_stand_in), one correctly rounded value ±0, one inv_ulp, x
 * finite and not 0; t not ReLU; no run weighted. There block_errors (cr_errors' path where lo is
 * not subnormal) gives every point the same errors, d = |(±0 − hi) − lo| = 2^-1000, d·inv_ulp
 * and d·(1/|hi|) (= 1), formed here at the first point by the same operations; so each run's sums
 * are counts (d·inv_ulp below 2^-20 ULP: a sum of 0, one histogram bucket), its maxima those
 * errors, and count_criteria's counts the points checked (an error below 2^-900 fails no rule).
 * prepare_refs then leaves the arrays to refs_fill_errors, which writes the constants: the rows
 * equal to the correctly rounded values there (−0 throughout) feed the near-tie lists from them.
 * False, the sums then unset, where the block is not of that kind. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool stand_in_block(point_ref *p, gelu_target t, const float *x, const scan_worker *w,
                                  size_t n)
{
    if (!past_block_may(t, w, n) || !near_stand_in(p, 0) || !near_stand_in(p, n - 1))
        return false; /* (the ends first: the regions are intervals of x) */
    const uint64_t stand_in = double_bits(NEAR_STAND_IN), iu0 = double_bits(p->inv_ulp[0]);
    int64_t all = 1; /* integer compares of encodings (lo = ±0): the loop vectorizes */
    for (size_t j = 0; j < n; j++) {
        uint32_t xb = float_bits(x[j]) & 0x7fffffffu;
        all &= (int64_t)(double_bits(p->hi[j]) == stand_in) &
               (int64_t)((double_bits(p->lo[j]) << 1) == 0) &
               (int64_t)(float_bits(p->cr[j]) == float_bits(p->cr[0])) & (int64_t)((float_bits(p->cr[j]) & 0x7fffffffu) == 0) &
               (int64_t)(double_bits(p->inv_ulp[j]) == iu0) & (int64_t)(xb != 0) &
               (int64_t)(xb < 0x7f800000u);
    }
    if (!all) return false;
    double d = fabs(((double)p->cr[0] - p->hi[0]) - p->lo[0]); /* block_errors' operations */
    double inv = 1.0 / fabs(p->hi[0]), u = d * p->inv_ulp[0], rel = d * inv;
    if (!(u < 0x1p-20) || !(d < 0x1p-900)) return false; /* (2^-851 and 2^-1000: never) */
    int bucket = hist_bucket_sel(u);
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        run_sums *s = &p->cr_sums[k];
        memset(s, 0, sizeof *s);
        s->finite = s->crs = b - a;
        s->hist[bucket] = (uint32_t)(b - a);
        s->hist_used = 1u << bucket;
        s->max_ulp = u;
        s->max_abs = d;
        s->max_rel = rel;
        s->at_ulp = RUN_AT_UNKNOWN;
        s->at_abs = s->at_rel = b;
        /* near_run_coarse's (its past case; every correctly rounded value ±0, hi plain) */
        p->near[k] = (near_run){0, 0, 1, 0, false, true, false};
        near_past_tolerances(true, (int64_t)iu0, 0, &p->near[k]);
    }
    p->past = PAST_STAND_IN;
    p->cr_criteria = (criteria_counts){0, 0, points_checked(x, n)};
    p->lazy_c[0] = inv;
    p->lazy_c[1] = u;
    p->lazy_c[2] = d;
    p->lazy_c[3] = rel;
    return true;
}

/* The correctly rounded value's errors at point j of a micro_block as block_errors forms them:
 * there y = cr = hi, so (y − hi) − lo = −lo exactly and d = |lo|; inv_abs = 1/|hi| (plain),
 * zero[j] = 0. */
static inline void micro_errors(const point_ref *p, size_t j, double *u, double *d, double *rel)
{
    *d = fabs(p->lo[j]);
    *u = *d * p->inv_ulp[j];
    *rel = *d * (1.0 / fabs(p->hi[j]));
}

/* The first index in [a, b) whose error of kind k (micro_errors) is m, given the maxima gmax[]
 * of the groups of 32 points from a (as run_first: the first group holding m, then its points). */
static size_t micro_first(const point_ref *p, const int64_t *gmax, size_t a, size_t b, int k,
                          int64_t m)
{
    size_t g = 0;
    while (gmax[g] != m) g++;
    for (size_t j = a + 32 * g;; j++) {
        double v[ERR_KINDS];
        micro_errors(p, j, &v[0], &v[1], &v[2]);
        if (pos_bits(v[k]) == m || j + 1 == b) return j;
    }
}

/* The sums of the correctly rounded values' runs over a micro_block without the errors' arrays,
 * where every run's largest ULP error is below 2^-27 (|x| below about 2^-52): one pass takes the
 * maxima of each group of 32 points (micro_errors: block_errors' values), whose maxima are the
 * run's, and the first point reaching each (run_sums_firsts' indices: the first group holding
 * it, then its points); the ULP errors, positive and below 2^-20, sum to 0 (ulp_sum_term) and
 * fall in one histogram bucket (hist_bucket_sel: 0 < u ≤ 1/2); every point is finite and
 * correctly rounded; a weighted run's sums are 0 with its whole weight (dist_run: every ULP
 * error usual — finite, 1/ULP ≥ 1 — and its ⌊u·2^27⌋ 0; the fixed-point weights are 0 there
 * too); and no point fails a peer's criterion (count_criteria: d ≤ 2^-28·|hi|, so d/|hi| < 4e-6
 * above benchdnn's floor and d < 4e-6·1e-5 below it, and d ≤ xnnpack's 5ε·|hi|), the points
 * checked counted. The errors' arrays are left to refs_fill_errors. False where some run's
 * largest ULP error is 2^-27 or more (the runs' sums are then prepare_refs' general path's, which
 * writes them all again). Most blocks below 2^-30 are such, and the passes over the arrays were
 * a third of their cost. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool micro_sums(point_ref *p, const float *x, const scan_worker *w, size_t n,
                              bool grad)
{
    /* (as doubles: the criteria's constants are not integer constant expressions) */
    assert(BENCHDNN_GELU_ERF_THRESHOLD >= 0x1p-27 &&
           BENCHDNN_GELU_ERF_REL_FLOOR * 0x1p-28 < BENCHDNN_GELU_ERF_THRESHOLD &&
           XNNPACK_GELU_REL_TOL >= 0x1p-27);
    static _Thread_local int64_t gmax[ERR_KINDS][SCAN_BLOCK / 32 + 1];
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1], ng = 0;
        int64_t mu = 0, ma = 0, mr = 0; /* pos_bits: every error here is positive */
        for (size_t g = a; g < b; g += 32, ng++) {
            size_t end = g + 32 < b ? g + 32 : b;
            int64_t gu = 0, ga = 0, gr = 0;
            for (size_t j = g; j < end; j++) {
                double u, d, rel;
                micro_errors(p, j, &u, &d, &rel);
                int64_t ku = pos_bits(u), ka = pos_bits(d), kr = pos_bits(rel);
                gu = ku > gu ? ku : gu;
                ga = ka > ga ? ka : ga;
                gr = kr > gr ? kr : gr;
            }
            gmax[0][ng] = gu;
            gmax[1][ng] = ga;
            gmax[2][ng] = gr;
            mu = gu > mu ? gu : mu;
            ma = ga > ma ? ga : ma;
            mr = gr > mr ? gr : mr;
        }
        if (!(double_from_bits((uint64_t)mu) < 0x1p-27)) return false;
        run_sums *s = &p->cr_sums[k];
        memset(s, 0, sizeof *s);
        s->finite = s->crs = b - a;
        s->hist[1] = (uint32_t)(b - a);
        s->hist_used = 1u << 1;
        s->max_ulp = double_from_bits((uint64_t)mu);
        s->max_abs = double_from_bits((uint64_t)ma);
        s->max_rel = double_from_bits((uint64_t)mr);
        s->at_ulp = micro_first(p, gmax[0], a, b, 0, mu);
        s->at_abs = micro_first(p, gmax[1], a, b, 1, ma);
        s->at_rel = micro_first(p, gmax[2], a, b, 2, mr);
        if (w->run_weighted[k])
            for (int d = 0; d < DIST_COUNT; d++)
                p->cr_dist[k][d] = (dist_sums){0, 0, w->run_weight[k][d]};
    }
    if (!grad) p->cr_criteria = (criteria_counts){0, 0, points_checked(x, n)};
    return true;
}

/* A block of target t whose correctly rounded values' errors are all exactly 0: ReLU's (exact
 * references: hi the correctly rounded value, x, 1 or ±0, lo = ±0), every x finite, every point
 * plain or an exact zero, 1 ≤ inv_ulp < ∞ (|x| < 2^24 or a zero: each ULP error "usual" for
 * dist_run). There block_errors gives every point d = |((double)cr − hi) − lo| = +0, ULP error
 * d·inv_ulp = +0, relative error d·inv_abs = +0 (inv_abs finite: 1/|hi| or 0), no special
 * point, every output correctly rounded; so each run's sums are run_sums_of's without the arrays
 * (finite and correctly rounded b − a, a sum of 0, histogram bucket 0, maxima +0, first indices
 * left unknown as there), a weighted run's dist_run's (its first loop: every point usual with a
 * term of 0: sums of 0, the run's whole weight), count_criteria's counts the points checked (an
 * error of 0 fails no rule), and near_run_coarse's tolerances E = 0 (ReLU's exact references:
 * ULP and absolute 0; relative terms g = NEAR_DOWN at the plain points, t = 0; no stand-in, no
 * run of ±0 outputs): near_prepare sets them from any_plain. prepare_refs then leaves inv_abs and
 * the errors' arrays to refs_fill_errors, as for upper_block. ReLU's references were 4× the
 * others' in the default set's scan (9 against 2–4 ns per input and direction: `accuracy --grad
 * --shard 241/256 --profile` on Sapphire Rapids), the general path's passes over the arrays
 * (block_errors, fill_inv_abs, near_run_coarse, the weighted sums) on errors that are all 0.
 * False, the sums then unset, where the block is not of that kind. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool exact_block(point_ref *p, gelu_target t, const float *x, const scan_worker *w,
                               size_t n, bool grad)
{
    if (t != GELU_TARGET_RELU || n == 0) return false;
    const uint64_t one = double_bits(1.0), inf = double_bits(INFINITY);
    int64_t all = 1; /* integer compares of encodings: the loop vectorizes */
    for (size_t j = 0; j < n; j++) {
        uint32_t xb = float_bits(x[j]) & 0x7fffffffu;
        uint64_t iu = double_bits(p->inv_ulp[j]), hb = double_bits(p->hi[j]);
        uint64_t cb = double_bits((double)p->cr[j]);
        all &= (int64_t)(xb < 0x7f800000u) & (int64_t)((double_bits(p->lo[j]) << 1) == 0) &
               (int64_t)((p->plain[j] | p->zero[j]) != 0) &
               (int64_t)((cb == hb) | (((cb | hb) << 1) == 0)) & /* (double)cr = hi */
               (int64_t)(iu >= one) & (int64_t)(iu < inf);
    }
    if (!all) return false;
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        run_sums *s = &p->cr_sums[k];
        memset(s, 0, sizeof *s);
        s->finite = s->crs = b - a;
        s->hist[0] = (uint32_t)(b - a);
        s->hist_used = 1u;
        s->max_ulp = s->max_abs = s->max_rel = 0;
        s->at_ulp = RUN_AT_UNKNOWN;
        s->at_abs = s->at_rel = b;
        if (w->run_weighted[k])
            for (int d = 0; d < DIST_COUNT; d++)
                p->cr_dist[k][d] = (dist_sums){0, 0, w->run_weight[k][d]};
        uint32_t any = 0;
        for (size_t j = a; j < b; j++) any |= p->plain[j];
        p->any_plain[k] = any != 0;
    }
    if (!grad) p->cr_criteria = (criteria_counts){0, 0, points_checked(x, n)};
    return true;
}

/* The point flags prepare_refs reads: plain, 0 < |hi| ≤ DBL_MAX (NaN's magnitude is above
 * inf's); zero, hi = ±0, lo = ±0 and inv_ulp = 2^149. Compares of encodings: no branch, no
 * floating-point compare. Where every hi is plain (a test on hi alone, of 64-bit lanes only),
 * the flags are the constants 1 and 0: the loop that forms them mixes 64-bit compares with 32-bit
 * stores, and was a twentieth of the one-implementation scan. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline void refs_flags(point_ref *p, size_t n)
{
    const uint64_t mag_inf = double_bits(INFINITY) << 1, iu_zero = double_bits(0x1p149);
    uint64_t odd = 0; /* a hi that is ±0, ±inf or NaN: (mag − 1) wraps at 0 */
    for (size_t j = 0; j < n; j++) odd |= (double_bits(p->hi[j]) << 1) - 1 >= mag_inf - 1;
    if (!odd) {
        for (size_t j = 0; j < n; j++) p->plain[j] = 1;
        for (size_t j = 0; j < n; j++) p->zero[j] = 0;
        return;
    }
    for (size_t j = 0; j < n; j++) {
        uint64_t mag = double_bits(p->hi[j]) << 1, lo2 = double_bits(p->lo[j]) << 1;
        p->plain[j] = (uint32_t)((mag != 0) & (mag < mag_inf));
        p->zero[j] = (uint32_t)((mag == 0) & (lo2 == 0) & (double_bits(p->inv_ulp[j]) == iu_zero));
    }
}

/* refs_flags where the block's ends carry near_upper's mark, with upper_block's test of every
 * point: hi the correctly rounded value as a double with 2^-900 ≤ |hi| < ∞, lo near_upper's mark
 * (−2^-1074, or 2^-1074 where hi = 1), x finite and not 0. Where every point passes, every hi is
 * plain: the flags are then the constants, without refs_flags' own test. Whether they pass. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool refs_flags_upper(point_ref *p, const float *x, size_t n)
{
    const uint64_t sign = 0x8000000000000000ull, one = double_bits(1.0);
    const uint64_t tiny = double_bits(0x1p-900), inf = double_bits(INFINITY);
    int64_t all = 1;
    for (size_t j = 0; j < n; j++) {
        uint64_t hb = double_bits(p->hi[j]), lb = double_bits(p->lo[j]), mag = hb & ~sign;
        uint32_t xb = float_bits(x[j]) & 0x7fffffffu;
        int64_t up = (int64_t)(lb == (sign | 1)) | ((int64_t)(hb == one) & (int64_t)(lb == 1));
        all &= up & (int64_t)(mag >= tiny) & (int64_t)(mag < inf) &
               (int64_t)(double_bits((double)p->cr[j]) == hb) & (int64_t)(xb != 0) &
               (int64_t)(xb < 0x7f800000u);
    }
    if (!all) {
        refs_flags(p, n);
        return false;
    }
    for (size_t j = 0; j < n; j++) p->plain[j] = 1;
    for (size_t j = 0; j < n; j++) p->zero[j] = 0;
    return true;
}

/* The references of target t, direction dir, at the block's inputs (from fill_refs), and the
 * metrics of their correctly rounded values as outputs. */
HOT_CLONES static void prepare_refs(scan_worker *w, gelu_target t, int dir, const float *x,
                                     size_t n)
{
    point_ref *p = w->ref[t][dir];
    bool grad = dir == DIR_DERIVATIVE;
    double t0 = w->profiling ? now_s() : 0;
    bool upper_ends = n > 0 && near_upper(p, 0) && near_upper(p, n - 1); /* (intervals of x) */
    bool upper_all = upper_ends && past_block_may(t, w, n) ? refs_flags_upper(p, x, n)
                                                           : (refs_flags(p, n), false);
    w->part->refs[t][dir] += n;
    p->past = PAST_NONE;
    p->lazy_const = !upper_ends && stand_in_block(p, t, x, w, n);
    p->lazy = p->lazy_const || (upper_all && upper_block(p, x, w, n));
    p->exact = !p->lazy && exact_block(p, t, x, w, n, grad);
    p->lazy = p->lazy || p->exact;
    p->micro = !p->lazy && micro_block(p, t, n);
    p->lazy = p->lazy || (p->micro && micro_sums(p, x, w, n, grad));
    if (!p->lazy) {
        fill_inv_abs(p, n);
        bool any_special = cr_errors(p, n, p->cr_ulp, p->cr_abs, p->cr_rel, w->cr);
        for (size_t k = 0; k < w->nruns; k++) {
            size_t a = w->run_start[k], b = w->run_start[k + 1];
            run_sums_of(&p->cr_sums[k], a, b, isfinite(x[a]), false, p->cr_ulp, p->cr_abs,
                        p->cr_rel, w->cr);
            if (w->run_weighted[k])
                dist_run(p->cr_dist[k], w->wfixes, a, b, p->cr_ulp, p->cr_abs, p->inv_ulp,
                         w->run_weight[k], w->run_wmax[k], p->cr_sums[k].max_ulp);
        }
        if (!grad) {
            p->cr_criteria = (criteria_counts){0};
            count_criteria(&p->cr_criteria, x, p->cr, p, p->cr_abs, n, any_special);
        }
    }
    double x_min = w->sh->x_min[t];
    if (!grad) {
        mono_metrics mono = {0};
        check_monotone(&mono, x, p->cr, n, 0, x_min);
        p->cr_monotone = mono.violations == 0;
    } else {
        sign_metrics sign = {0};
        check_sign(&sign, x, p->cr, p, n, 0, x_min);
        p->cr_sign_ok = sign.violations == 0;
    }
    near_prepare(p, t, grad, x, w);
    lap(w, &t0, &w->prof.reference[t][dir]);
}

/* What prepare_refs left unfilled in a block past a threshold (upper_block, stand_in_block):
 * inv_abs and the correctly rounded outputs' errors, as it fills them elsewhere (below the
 * lower threshold the constants they all equal), before a row reads them (in the worker's own
 * buffer: a cache, as near_tight_run's). Their time is the row's. */
HOT_CLONES static void refs_fill_errors(scan_worker *w, const point_ref *r, size_t n)
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

/* One row of metrics (an implementation's outputs y against reference r, one direction) over
 * the block: the correctly rounded outputs' run sums, corrected at the points where y differs
 * (or, where more than an eighth of the points differ, every point's errors as before).
 * A run whose maxima could change m's, or whose errors could reach m's near-tie lists, has its
 * errors written out in full (the correctly rounded ones with y's where they differ) to find the
 * first point reaching them and the near ties. ctx: the row's implementation, target and
 * direction, for the lists' resolver (one per kind of error). */
HOT_CLONES static void row_metrics(scan_worker *w, error_metrics *m, const float *x, const float *y,
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

/* Row i's outputs in direction d at the block's inputs w->x (n + has_prev of them) into out,
 * the time counted as its kernel's. */
static void row_kernel(scan_worker *w, size_t i, int d, size_t n, bool has_prev, uint64_t seq0,
                       float *out)
{
    const gelu_impl *impl = w->sh->cfg->impls[i];
    double t0 = w->profiling ? now_s() : 0;
    const float *batched = w->gy ? w->gy[i * DIR_COUNT + d] : NULL;
    if (batched) /* run by run_group_kernels for the whole group */
        memcpy(out, batched + (seq0 - has_prev - w->gseq), (n + has_prev) * sizeof *out);
    else
        kernel_call_f32(impl, d, w->sh->cfg->fpenv, w->x, out, n + has_prev);
    lap(w, &t0, &w->prof.kernel[i][d]);
}

static float *share_outputs(scan_worker *w, size_t i, int d)
{
    return w->sy + (i * DIR_COUNT + (size_t)d) * (SCAN_BLOCK + 1);
}

/* Whether rows i and j can share metrics: same target, directions and rows of metrics. */
static bool share_traits(const scan_config *cfg, size_t i, size_t j)
{
    const gelu_impl *a = cfg->impls[i], *b = cfg->impls[j];
    return a->target == b->target && scan_directions(a, cfg->grad) == scan_directions(b, cfg->grad) &&
           scan_has_exact_row(a) == scan_has_exact_row(b);
}

/* Identical outputs of rows i and j over the block (their bits: the metrics read them so). */
static bool share_same_outputs(scan_worker *w, size_t i, size_t j, size_t m)
{
    for (int d = 0; d < scan_directions(w->sh->cfg->impls[i], w->sh->cfg->grad); d++)
        if (memcmp(share_outputs(w, i, d), share_outputs(w, j, d), m * sizeof(float)) != 0)
            return false;
    return true;
}

/* Before the block's metrics: the groups of the current part formed at its first block (each
 * row with the first earlier one of the same traits and equal metrics), the grouped rows'
 * kernels run into w->sy, and each group split where its outputs differ: a member whose
 * outputs differ from its holder's joins an earlier member that left with the same outputs,
 * or holds its own metrics from now on, starting from the holder's (not yet changed by this
 * block). */
static void share_block(scan_worker *w, size_t n, bool has_prev, uint64_t seq0)
{
    const scan_config *cfg = w->sh->cfg;
    int p = w->part == w->main_part;
    uint32_t *share = w->share[p];
    if (!w->sy) return;
    if (!w->share_formed[p]) {
        w->share_formed[p] = true;
        for (size_t i = 0; i < cfg->nimpls; i++) {
            share[i] = (uint32_t)i;
            for (size_t h = 0; h < i; h++)
                if (share[h] == h && share_traits(cfg, h, i) &&
                    memcmp(&w->part->metrics[h], &w->part->metrics[i], sizeof(impl_metrics)) == 0) {
                    share[i] = (uint32_t)h;
                    break;
                }
        }
    }
    bool any = false;
    memset(w->grouped, 0, cfg->nimpls);
    for (size_t i = 0; i < cfg->nimpls; i++)
        if (share[i] != i) {
            w->grouped[i] = w->grouped[share[i]] = 1;
            any = true;
        }
    if (!any) return;
    for (size_t i = 0; i < cfg->nimpls; i++)
        if (w->grouped[i])
            for (int d = 0; d < scan_directions(cfg->impls[i], cfg->grad); d++)
                row_kernel(w, i, d, n, has_prev, seq0, share_outputs(w, i, d));
    size_t m = n + has_prev;
    memcpy(w->share_was, share, cfg->nimpls * sizeof *share);
    for (size_t i = 0; i < cfg->nimpls; i++) {
        size_t h = share[i];
        if (h == i || share_same_outputs(w, i, h, m)) continue;
        /* i leaves h's group: for an earlier leaver j of it with i's outputs, j holds their
         * metrics now (share[j] = j); else i holds its own */
        size_t j = h + 1;
        for (; j < i; j++)
            if (w->share_was[j] == h && share[j] == j && share_same_outputs(w, i, j, m)) break;
        share[i] = (uint32_t)j;
        if (j == i) memcpy(&w->part->metrics[i], &w->part->metrics[h], sizeof(impl_metrics));
    }
}

/* Every row's metrics in part p where they are (share_block). */
static void share_settle(scan_worker *w, scan_result *part, int p)
{
    for (size_t i = 0; w->share_formed[p] && i < w->sh->cfg->nimpls; i++)
        if (w->share[p][i] != i)
            memcpy(&part->metrics[i], &part->metrics[w->share[p][i]], sizeof(impl_metrics));
}

static void run_impl(scan_worker *w, size_t i, size_t n, bool has_prev, uint64_t seq0)
{
    const gelu_impl *impl = w->sh->cfg->impls[i];
    impl_metrics *m = &w->part->metrics[i];
    const float *x = w->x + has_prev;
    float *y = w->y + has_prev;
    double x_min = w->sh->x_min[impl->target];
    bool exact_row = scan_has_exact_row(impl) && impl->target != GELU_TARGET_EXACT;
    gelu_fpenv env = w->sh->cfg->fpenv;
    for (int d = 0; d < scan_directions(impl, w->sh->cfg->grad); d++) {
        if (w->grouped && w->grouped[i]) /* run by share_block */
            memcpy(w->y, share_outputs(w, i, d), (n + has_prev) * sizeof *w->y);
        else
            row_kernel(w, i, d, n, has_prev, seq0, w->y);
        double t0 = w->profiling ? now_s() : 0;
        const point_ref *own = w->ref[impl->target][d];
        if (exact_row) {
            const refine_ctx c[ERR_KINDS] = {{impl, GELU_TARGET_EXACT, d, ERR_ULP, NULL, env},
                                             {impl, GELU_TARGET_EXACT, d, ERR_ABS, NULL, env},
                                             {impl, GELU_TARGET_EXACT, d, ERR_REL, NULL, env}};
            row_metrics(w, &m->err[REF_EXACT][d], x, y, w->ref[GELU_TARGET_EXACT][d], n, seq0, c);
        }
        const refine_ctx c[ERR_KINDS] = {{impl, impl->target, d, ERR_ULP, NULL, env},
                                         {impl, impl->target, d, ERR_ABS, NULL, env},
                                         {impl, impl->target, d, ERR_REL, NULL, env}};
        row_metrics(w, &m->err[REF_OWN][d], x, y, own, n, seq0, c); /* leaves own's w->mis */
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

/* The fixed-point weights ⌊w·2^70⌋ (metrics.h: below 2^52, as w ≤ 2^-18) of the points [a, b)
 * into wfix[], and their sum: as two 64-bit sums of their high and low 32 bits (at most 2^20
 * and 2^32 times 4,096 points: no overflow), which vectorize, where one 128-bit sum does not.
 * The same integer. The largest of them raises *max. */
HOT_CLONES static u128 fix_weights(const double *weight, uint64_t *wfix, size_t a, size_t b,
                                   uint64_t *max)
{
    uint64_t hi = 0, lo = 0, m = *max;
    for (size_t j = a; j < b; j++) {
        uint64_t f = (uint64_t)(int64_t)(weight[j] * DIST_W_SCALE);
        wfix[j] = f;
        hi += f >> 32;
        lo += f & 0xffffffffu;
        m = f > m ? f : m;
    }
    *max = m;
    return ((u128)hi << 32) + lo;
}

/* The block's inputs x[0 .. n) (positions seq0 ...), their runs (w->run_start: consecutive
 * points sharing their input range, x bucket and finiteness; w->range and w->x_bucket set at
 * each run's first point, the only ones read), weights and fixed-point run weights. A block whose
 * smallest and largest x are finite and share range and bucket (without the core's two sides)
 * is one run: range and bucket are constant on intervals, and only the core range is two of
 * them. */
HOT_CLONES static void block_inputs(scan_worker *w, const domain_view *dom, uint64_t seq0, size_t n,
                                    float *x)
{
    switch (dom->d.kind) { /* domain_input, the kind taken once */
    case DOMAIN_ALL:
        for (size_t j = 0; j < n; j++) x[j] = float_from_bits((uint32_t)(seq0 + j));
        break;
    case DOMAIN_RANGE:
        for (size_t j = 0; j < n; j++) x[j] = from_ordinal(dom->first_ordinal + (int64_t)(seq0 + j));
        break;
    default:
        for (size_t j = 0; j < n; j++) x[j] = float_from_bits(dom->list[seq0 + j]);
    }
    input_span *sp = &w->span; /* read by the weights and the fast reference's blocks too */
    input_span_of(x, n, sp);
    int32_t key_lo = sp->key_lo, key_hi = sp->key_hi;
    bool nan = sp->abs_hi > 0x7f800000u;
    w->nruns = 0;
    float lo = 0, hi = 0;
    if (!nan && n > 0) {
        lo = float_from_bits(key_lo < 0 ? (uint32_t)-key_lo | 0x80000000u : (uint32_t)key_lo);
        hi = float_from_bits(key_hi < 0 ? (uint32_t)-key_hi | 0x80000000u : (uint32_t)key_hi);
    }
    input_range r = input_range_of(lo);
    int xb = x_bucket_of(lo);
    if (!nan && n > 0 && isfinite(lo) && isfinite(hi) && input_range_of(hi) == r &&
        x_bucket_of(hi) == xb && !(r == RANGE_CORE && lo < 0 && hi > 0)) {
        w->range[0] = r;
        w->x_bucket[0] = (int16_t)xb;
        w->run_start[w->nruns++] = 0;
    } else {
        for (size_t j = 0; j < n; j++) {
            w->range[j] = input_range_of(x[j]);
            w->x_bucket[j] = (int16_t)x_bucket_of(x[j]);
            if (j == 0 || w->range[j] != w->range[j - 1] || w->x_bucket[j] != w->x_bucket[j - 1] ||
                isfinite(x[j]) != isfinite(x[j - 1]))
                w->run_start[w->nruns++] = (uint16_t)j;
        }
    }
    w->run_start[w->nruns] = (uint16_t)n;
    w->e_half_set = dist_exp_half(x, n, w->e_half, sp);
    bool some = dist_weights(x, n, w->weight[DIST_NORMAL], w->weight[DIST_UNIFORM],
                             w->e_half_set ? w->e_half : NULL, sp);
    for (size_t k = 0; k < w->nruns; k++) {
        uint64_t any = 0; /* a weight other than ±0, from the encodings (no trapping compares) */
        for (size_t j = w->run_start[k]; some && j < w->run_start[k + 1]; j++)
            any |= (double_bits(w->weight[DIST_NORMAL][j]) | double_bits(w->weight[DIST_UNIFORM][j])) << 1;
        w->run_weighted[k] = any != 0;
        if (!any) { /* wfix and run_weight are read only for weighted runs */
            for (int d = 0; d < DIST_COUNT; d++) w->run_weight[k][d] = 0;
            continue;
        }
        w->run_wmax[k] = 0;
        for (int d = 0; d < DIST_COUNT; d++)
            w->run_weight[k][d] = fix_weights(w->weight[d], w->wfix[d], w->run_start[k],
                                              w->run_start[k + 1], &w->run_wmax[k]);
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
    block_inputs(w, dom, seq0, n, x);
    lap(w, &t0, &w->prof.inputs);
    int ndir = w->sh->cfg->grad ? DIR_COUNT : 1;
    gelu_fpenv env = w->sh->cfg->fpenv;
    const float *x_ref = x; /* the inputs the references are computed at */
    if (env & GELU_FPENV_DAZ) {
        for (size_t j = 0; j < n; j++) w->x_daz[j] = gelu_fpenv_input(env, x[j]);
        x_ref = w->x_daz;
    }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (w->sh->targets_used & (1u << t)) {
            /* (exp(−x²/2) of the block's own inputs: at them only) */
            fill_refs(w, (gelu_target)t, ndir, x_ref, n,
                      w->e_half_set && x_ref == x ? w->e_half : NULL,
                      x_ref == x ? &w->span : NULL);
            if (x_ref != x) /* not the enclosure at the block's own input */
                for (int d = 0; d < ndir; d++)
                    for (size_t j = 0; j < n; j++)
                        if (float_bits(x_ref[j]) != float_bits(x[j])) w->ref[t][d]->err[j] = NAN;
            if (env & GELU_FPENV_FTZ) flush_refs(w, (gelu_target)t, ndir, x_ref, n);
            for (int d = 0; d < ndir; d++) {
                w->ref[t][d]->daz = (env & GELU_FPENV_DAZ) != 0;
                prepare_refs(w, (gelu_target)t, d, x, n);
            }
        }
    share_block(w, n, has_prev, seq0);
    uint32_t *share = w->share[w->part == w->main_part];
    for (size_t i = 0; i < w->sh->cfg->nimpls; i++)
        if (!w->sy || share[i] == i) run_impl(w, i, n, has_prev, seq0);
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

/* impl_metrics_merge, with the near-tie lists (whose overflow needs the implementation). */
static void merge_impl_metrics(const gelu_impl *impl, gelu_fpenv env, impl_metrics *dst,
                               const impl_metrics *src)
{
    impl_metrics_merge(dst, src);
    for (int ref = 0; ref < REF_KINDS; ref++) {
        gelu_target t = ref == REF_OWN ? impl->target : GELU_TARGET_EXACT;
        for (int d = 0; d < DIR_COUNT; d++)
            for (int k = 0; k < ERR_KINDS; k++) {
                refine_ctx c = {impl, t, d, (error_kind)k, NULL, env};
                near_resolver r = refine_resolver(&c);
                error_metrics *de = &dst->err[ref][d];
                const error_metrics *se = &src->err[ref][d];
                near_merge(&de->near[k], &se->near[k], &r);
                for (int b = 0; k < X_KINDS && b < X_BUCKETS; b++)
                    if (se->x_near[k][b].floor != -INFINITY) /* (an untouched bucket adds nothing) */
                        near_bucket_merge(&de->x_near[k][b], &se->x_near[k][b], &r);
            }
    }
}

/* The kernels of the implementations that take batches, once over blocks [b, e) (and the input
 * before b's first one, as run_block gives it): the outputs run_impl then reads block by block. */
static void run_group_kernels(scan_worker *w, uint64_t b, uint64_t e)
{
    const domain_view *dom = w->sh->dom;
    uint64_t first = b * SCAN_BLOCK, end = e * SCAN_BLOCK < dom->size ? e * SCAN_BLOCK : dom->size;
    w->gseq = first > 0 ? first - 1 : 0;
    size_t m = (size_t)(end - w->gseq);
    double t0 = w->profiling ? now_s() : 0;
    for (size_t j = 0; j < m; j++) w->gx[j] = domain_input(dom, w->gseq + j);
    lap(w, &t0, &w->prof.inputs);
    for (size_t i = 0; i < w->sh->cfg->nimpls; i++) {
        const gelu_impl *impl = w->sh->cfg->impls[i];
        for (int d = 0; d < DIR_COUNT; d++)
            if (w->gy[i * DIR_COUNT + d]) {
                kernel_call_f32(impl, d, w->sh->cfg->fpenv, w->gx, w->gy[i * DIR_COUNT + d], m);
                lap(w, &t0, &w->prof.kernel[i][d]);
            }
    }
}

/* The probe phase. The near-tie lists (near.h) look at an input only where its error could
 * reach the list's floor, the largest lower bound seen; a part scanned in ascending order sees
 * a row's large errors only where they are, often late (pw_fast's 2^24 ULP at x < −5.3 come
 * after every positive input), and until then its floor is low and every input of a region of
 * nearly equal errors (tiny x, where a method's relative error is constant) is looked at one by
 * one, with its tight tolerance. So every PROBE_STRIDE-th group is scanned first; the other
 * groups then start with the largest floors the probes reached (each a lower bound of the true
 * error of an input of the part, so of its maximum). The lists' entries, hence every printed
 * maximum, are the same (near.h: a list is a function of the set of inputs, but for an
 * overflow's entries); only the work changes. A part of fewer than 2 strides has no probes. */
enum { PROBE_STRIDE = 64 };

/* The group handed out at claim c (c < ngroups). */
static uint64_t group_of_claim(const scan_shared *sh, uint64_t c)
{
    if (c < sh->nprobe) return c * PROBE_STRIDE;
    if (sh->nprobe == 0) return c;
    uint64_t j = c - sh->nprobe; /* the j-th group that is not a probe, ascending */
    return j / (PROBE_STRIDE - 1) * PROBE_STRIDE + 1 + j % (PROBE_STRIDE - 1);
}

/* w's main part's floors raised to the largest of every worker's probe part (all probes done):
 * the rows' lists, and each x bucket's (a bucket's floor is a lower bound of the true error of
 * an input of that bucket, so of the bucket's maximum). */
static void seed_floors(scan_worker *w)
{
    const scan_shared *sh = w->sh;
    for (size_t i = 0; i < sh->cfg->nimpls; i++)
        for (int r = 0; r < REF_KINDS; r++)
            for (int d = 0; d < DIR_COUNT; d++) {
                error_metrics *main = &w->main_part->metrics[i].err[r][d];
                for (int k = 0; k < ERR_KINDS; k++) {
                    double f = -INFINITY;
                    for (unsigned q = 0; q < sh->nworkers; q++) {
                        size_t h = sh->workers[q]->share[0][i]; /* where row i's metrics are */
                        double g = sh->workers[q]->probe_part->metrics[h].err[r][d].near[k].floor;
                        f = g > f ? g : f;
                    }
                    near_raise_floor(&main->near[k], f);
                }
                for (int k = 0; k < X_KINDS; k++)
                    for (int b = 0; b < X_BUCKETS; b++) {
                        double f = -INFINITY;
                        for (unsigned q = 0; q < sh->nworkers; q++) {
                            size_t h = sh->workers[q]->share[0][i];
                            double g = sh->workers[q]->probe_part->metrics[h].err[r][d].x_near[k][b].floor;
                            f = g > f ? g : f;
                        }
                        near_bucket_raise_floor(&main->x_near[k][b], f);
                    }
            }
}

static void *worker_main(void *arg)
{
    scan_worker *w = arg;
    scan_shared *sh = w->sh;
    uint64_t g = sh->group_blocks;
    for (;;) {
        uint64_t c = atomic_fetch_add(&sh->next_block, 1);
        if (c >= sh->ngroups) break;
        bool probe = c < sh->nprobe;
        if (!probe && w->part == w->probe_part) { /* the probe phase's end */
            pthread_mutex_lock(&sh->lock);
            while (sh->probes_done < sh->nprobe) pthread_cond_wait(&sh->probed, &sh->lock);
            pthread_mutex_unlock(&sh->lock);
            seed_floors(w);
            w->part = w->main_part;
        }
        uint64_t b = sh->first_block + group_of_claim(sh, c) * g;
        uint64_t e = b + g < sh->end_block ? b + g : sh->end_block;
        if (g > 1) run_group_kernels(w, b, e);
        for (; b < e; b++) {
            run_block(w, b);
            atomic_fetch_add(&sh->blocks_done, 1);
        }
        if (probe) {
            pthread_mutex_lock(&sh->lock);
            if (++sh->probes_done == sh->nprobe) pthread_cond_broadcast(&sh->probed);
            pthread_mutex_unlock(&sh->lock);
        }
    }
    ref_thread_done();
    share_settle(w, w->probe_part, 0);
    share_settle(w, w->main_part, 1);
    pthread_mutex_lock(&w->sh->lock);
    w->sh->running--;
    pthread_cond_signal(&w->sh->finished);
    pthread_mutex_unlock(&w->sh->lock);
    return NULL;
}

/* src's metrics, inputs, reference and fallback counts added into dst (same implementations). */
static void merge_counts(scan_result *dst, const scan_result *src)
{
    for (size_t i = 0; i < dst->nimpls; i++)
        merge_impl_metrics(dst->impls[i], dst->fpenv, &dst->metrics[i], &src->metrics[i]);
    dst->inputs += src->inputs;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) {
            dst->refs[t][d] += src->refs[t][d];
            dst->fallbacks[t][d] += src->fallbacks[t][d];
        }
}

/* The buffers of groups of blocks and of rows sharing metrics. */
static void worker_free_groups(scan_worker *w, size_t nimpls)
{
    for (size_t k = 0; w->gy && k < nimpls * DIR_COUNT; k++) free(w->gy[k]);
    free(w->gy);
    free(w->gx);
    w->gy = NULL;
    w->gx = NULL;
    for (int p = 0; p < 2; p++) free(w->share[p]);
    free(w->share_was);
    free(w->grouped);
    free(w->sy);
}

static scan_worker *worker_new(scan_shared *sh, const scan_result *proto)
{
    scan_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->sh = sh;
    w->profiling = sh->cfg->profile != NULL;
    for (int d = 0; d < DIST_COUNT; d++) w->wfixes[d] = w->wfix[d];
    w->probe_part = calloc(1, sizeof *w->probe_part);
    w->main_part = calloc(1, sizeof *w->main_part);
    w->part = sh->nprobe > 0 ? w->probe_part : w->main_part;
    /* the profile's rows even when not profiling: lap() is handed their addresses */
    bool ok = w->probe_part != NULL && scan_result_copy(w->probe_part, proto) == 0 &&
              w->main_part != NULL && scan_result_copy(w->main_part, proto) == 0 &&
              scan_profile_alloc(&w->prof, proto->nimpls) == 0;
    for (int t = 0; ok && t < GELU_TARGET_COUNT; t++)
        for (int d = 0; ok && d < DIR_COUNT; d++)
            if (sh->targets_used & (1u << t))
                ok = (w->ref[t][d] = malloc(sizeof(point_ref))) != NULL;
    size_t nimpls = sh->cfg->nimpls;
    for (int p = 0; ok && p < 2; p++) {
        ok = (w->share[p] = malloc(nimpls * sizeof *w->share[p])) != NULL;
        for (size_t i = 0; ok && i < nimpls; i++) w->share[p][i] = (uint32_t)i;
    }
    if (ok && nimpls > 1) /* rows sharing metrics (share_block) */
        ok = (w->grouped = calloc(nimpls, 1)) &&
             (w->share_was = malloc(nimpls * sizeof *w->share_was)) &&
             (w->sy = malloc(nimpls * DIR_COUNT * (SCAN_BLOCK + 1) * sizeof *w->sy));
    if (ok && sh->group_blocks > 1) { /* the group's buffers (run_group_kernels) */
        size_t m = (size_t)sh->group_blocks * SCAN_BLOCK + 1;
        ok = (w->gx = malloc(m * sizeof *w->gx)) && (w->gy = calloc(nimpls * DIR_COUNT, sizeof *w->gy));
        for (size_t i = 0; ok && i < nimpls; i++)
            for (int d = 0; ok && d < scan_directions(sh->cfg->impls[i], sh->cfg->grad); d++)
                if (sh->cfg->impls[i]->batch_inputs > SCAN_BLOCK)
                    ok = (w->gy[i * DIR_COUNT + d] = malloc(m * sizeof **w->gy)) != NULL;
    }
    if (!ok) {
        worker_free_groups(w, sh->cfg->nimpls);
        for (int t = 0; t < GELU_TARGET_COUNT; t++)
            for (int d = 0; d < DIR_COUNT; d++) free(w->ref[t][d]);
        scan_result_free(w->probe_part);
        scan_result_free(w->main_part);
        scan_profile_release(&w->prof);
        free(w);
        return NULL;
    }
    return w;
}

static void worker_free(scan_worker *w)
{
    worker_free_groups(w, w->sh->cfg->nimpls);
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) free(w->ref[t][d]);
    scan_result_free(w->probe_part);
    scan_result_free(w->main_part);
    scan_profile_release(&w->prof);
    free(w);
}

/* ---- once per run: special values and forward/derivative consistency */

static void check_specials(const gelu_impl *impl, bool grad, gelu_fpenv env, impl_extras *e)
{
    float x[CONTRACT_SPECIAL_COUNT], y[CONTRACT_SPECIAL_COUNT];
    contract_special_inputs(x);
    mpfr_t exact;
    mpfr_init2(exact, REF_EXACT_PREC);
    for (int d = 0; d < scan_directions(impl, grad); d++) {
        kernel_call_f32(impl, d, env, x, y, CONTRACT_SPECIAL_COUNT);
        for (size_t i = 0; i < CONTRACT_SPECIAL_COUNT; i++) {
            float want = ref_eval_fpenv(impl->target, d == DIR_DERIVATIVE, x[i], env, exact);
            if (!contract_same_value(want, y[i]))
                e->special_failed[d][e->nspecial_failed[d]++] = (special_failure){x[i], want, y[i]};
        }
    }
    mpfr_clear(exact);
}

typedef struct {
    const gelu_impl *impl;
    gelu_fpenv env;
} forward_ctx;

static double forward_at(double x, void *p)
{
    const forward_ctx *c = p;
    float xf = (float)x, y;
    kernel_call_f32(c->impl, DIR_FORWARD, c->env, &xf, &y, 1);
    return y;
}

/* The derivative against GSL's central difference of the implementation's own forward, on a
 * fixed sample of [−8, 8]; step 2^-10·max(1, |x|) (forward rounding noise ≈ 2^-24·|f|/h stays
 * below 1e-4 relative). */
static void check_consistency(const gelu_impl *impl, gelu_fpenv env, impl_extras *e)
{
    float xs[CONSISTENCY_POINTS];
    sample_range(0x5eed, -8.0f, 8.0f, xs, CONSISTENCY_POINTS);
    forward_ctx c = {impl, env};
    gsl_function f = {forward_at, &c};
    e->consistency_max_rel = 0;
    e->consistency_x = 0;
    for (size_t i = 0; i < CONSISTENCY_POINTS; i++) {
        double num, abserr;
        gsl_deriv_central(&f, xs[i], 0x1p-10 * fmax(1.0, fabs(xs[i])), &num, &abserr);
        float yd;
        kernel_call_f32(impl, DIR_DERIVATIVE, env, &xs[i], &yd, 1);
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
    free(r->x64);
    r->impls = NULL;
    r->metrics = NULL;
    r->extras = NULL;
    r->x64 = NULL;
    r->nimpls = 0;
}

int scan_result_copy(scan_result *dst, const scan_result *src)
{
    if (scan_result_alloc(dst, src->nimpls) != 0) return -1;
    uint64_t *x64 = NULL;
    if (src->x64 && !(x64 = malloc(src->inputs * sizeof *x64))) {
        scan_result_release(dst);
        return -1;
    }
    scan_result copy = *src;
    copy.impls = dst->impls;
    copy.metrics = dst->metrics;
    copy.extras = dst->extras;
    copy.x64 = x64;
    memcpy(copy.impls, src->impls, src->nimpls * sizeof *copy.impls);
    memcpy(copy.metrics, src->metrics, src->nimpls * sizeof *copy.metrics);
    memcpy(copy.extras, src->extras, src->nimpls * sizeof *copy.extras);
    if (x64) memcpy(x64, src->x64, src->inputs * sizeof *x64);
    *dst = copy;
    return 0;
}

double scan_result_input(const scan_result *r, uint64_t seq, uint32_t bits)
{
    if (r->x64 && seq < r->inputs) {
        double x;
        memcpy(&x, &r->x64[seq], sizeof x);
        return x;
    }
    return float_from_bits(bits);
}

const char *scan_result_input_text(const scan_result *r, uint64_t seq, uint32_t bits, char *buf,
                                   size_t size)
{
    if (r->x64 && seq < r->inputs)
        snprintf(buf, size, "%a (0x%016llx)", scan_result_input(r, seq, bits),
                 (unsigned long long)r->x64[seq]);
    else
        snprintf(buf, size, "%a (0x%08x)", (double)float_from_bits(bits), bits);
    return buf;
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
    r->fpenv = cfg->fpenv;
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
    if (!gelu_fpenv_supported(cfg->fpenv)) {
        *error = "this machine cannot set that floating-point environment (FTZ/DAZ: x86-64's MXCSR)";
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
    sh.group_blocks = 1;
    for (size_t i = 0; i < cfg->nimpls; i++) {
        uint64_t g = (cfg->impls[i]->batch_inputs + SCAN_BLOCK - 1) / SCAN_BLOCK;
        if (g > sh.group_blocks) sh.group_blocks = g < SCAN_GROUP_MAX ? g : SCAN_GROUP_MAX;
    }
    sh.ngroups = (sh.end_block - sh.first_block + sh.group_blocks - 1) / sh.group_blocks;
    sh.nprobe = sh.ngroups >= 2 * PROBE_STRIDE ? (sh.ngroups + PROBE_STRIDE - 1) / PROBE_STRIDE : 0;
    pthread_cond_init(&sh.probed, NULL);
    atomic_init(&sh.next_block, 0);
    atomic_init(&sh.blocks_done, 0);

    if (result_init(result, cfg) != 0 ||
        (cfg->profile && cfg->profile->nimpls != cfg->nimpls &&
         scan_profile_alloc(cfg->profile, cfg->nimpls) != 0)) {
        free(dom.sample);
        *error = "out of memory";
        return -1;
    }
    unsigned nthreads = cfg->threads ? cfg->threads : online_cpus();
    /* no more workers than blocks: each holds two whole results (its probe and main parts,
     * 216 KB per implementation with the x buckets' near-tie lists; ~1.4 MB in all before them,
     * when 1024 threads on a 100-input sample took 1.4 GiB) */
    if (nthreads > sh.end_block - sh.first_block)
        nthreads = (unsigned)(sh.end_block - sh.first_block > 0 ? sh.end_block - sh.first_block : 1);
    scan_worker **w = calloc(nthreads, sizeof *w);
    pthread_t *th = calloc(nthreads, sizeof *th);
    unsigned started = 0;
    bool ok = w && th;
    for (unsigned k = 0; ok && k < nthreads; k++) /* all made before any starts (seed_floors) */
        ok = (w[k] = worker_new(&sh, result)) != NULL;
    sh.workers = w;
    sh.nworkers = nthreads;
    for (unsigned k = 0; ok && k < nthreads; k++) {
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
    if (!ok) atomic_store(&sh.next_block, sh.ngroups); /* stop the started ones */
    for (unsigned k = 0; k < started; k++) pthread_join(th[k], NULL);
    for (unsigned k = 0; k < started; k++) {
        merge_counts(result, w[k]->probe_part);
        merge_counts(result, w[k]->main_part);
        if (cfg->profile) scan_profile_add(cfg->profile, &w[k]->prof);
    }
    if (cfg->progress && ok) cfg->progress(total, total, cfg->progress_ctx);
    for (unsigned k = 0; k < nthreads && w; k++)
        if (w[k]) worker_free(w[k]);
    free(w);
    free(th);
    free(dom.sample);
    pthread_cond_destroy(&sh.finished);
    pthread_cond_destroy(&sh.probed);
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
            check_specials(cfg->impls[i], cfg->grad, cfg->fpenv, &result->extras[i]);
            if (scan_directions(cfg->impls[i], cfg->grad) == DIR_COUNT)
                check_consistency(cfg->impls[i], cfg->fpenv, &result->extras[i]);
        }
    }
    return (*error = kernel_call_failure()) ? -1 : 0;
}

int scan_directions(const gelu_impl *impl, bool grad)
{
    /* a 16-bit native's derivative is its derivative_u16 (a widened row's, its binary32 one),
     * a binary64 row's its derivative_f64 */
    return grad && (impl->derivative || impl->derivative_u16 || impl->derivative_f64) ? DIR_COUNT : 1;
}

/* ---- merging shards, the gate, partial files */

static bool same_domain(const scan_domain *a, const scan_domain *b)
{
    return a->kind == b->kind &&
           (a->kind != DOMAIN_RANGE ||
            (float_bits(a->lo) == float_bits(b->lo) && float_bits(a->hi) == float_bits(b->hi))) &&
           (a->kind != DOMAIN_SAMPLE || (a->n == b->n && a->seed == b->seed)) &&
           (a->kind != DOMAIN_LIST || (a->n == b->n && a->list == b->list));
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
    if (dst->fpenv != src->fpenv) {
        static _Thread_local char why[160];
        snprintf(why, sizeof why, "not parts of the same run: its --fpenv is %s, the other part's %s "
                 "(kernels and references differ)", gelu_fpenv_name(src->fpenv),
                 gelu_fpenv_name(dst->fpenv));
        *error = why;
        return -1;
    }
    merge_counts(dst, src);
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
    char xt[64];
    buf[0] = '\0';
#define BREAK(...)                                                                                 \
    do {                                                                                           \
        if (broken++ == 0) snprintf(buf, size, __VA_ARGS__);                                       \
    } while (0)
    for (int d = 0; d < scan_directions(impl, r->grad); d++) {
        const error_metrics *e = &m->err[REF_OWN][d];
        const char *dir = d == DIR_FORWARD ? "forward" : "derivative";
        double max_ulp = d == DIR_FORWARD ? c->max_ulp : c->grad_max_ulp;
        double max_abs = d == DIR_FORWARD ? c->max_abs : c->grad_max_abs;
        /* One wrong encoding has an error above ½ ULP, the largest of a correctly rounded
         * result (exact ties do not occur), so the max ULP's input is a wrong one. */
        if (c->correctly_rounded && e->correctly_rounded != e->count)
            BREAK("%s %s: %llu of %llu outputs not correctly rounded, the worst %.6g ULP at x = %s",
                  impl->name, dir, (unsigned long long)(e->count - e->correctly_rounded),
                  (unsigned long long)e->count, e->max_ulp.value,
                  scan_result_input_text(r, e->max_ulp.seq, e->max_ulp.bits, xt, sizeof xt));
        if (e->count && !(e->max_ulp.value <= max_ulp))
            BREAK("%s %s: max ULP error %.6g > claimed %g at x = %s", impl->name, dir,
                  e->max_ulp.value, max_ulp,
                  scan_result_input_text(r, e->max_ulp.seq, e->max_ulp.bits, xt, sizeof xt));
        if (e->count && !(e->max_abs.value <= max_abs))
            BREAK("%s %s: max abs error %.6g > claimed %g at x = %s", impl->name, dir,
                  e->max_abs.value, max_abs,
                  scan_result_input_text(r, e->max_abs.seq, e->max_abs.bits, xt, sizeof xt));
        /* near ties past the MPFR budget (near.h): the maximum could be up to `dropped` */
        if (e->count && !(e->near[ERR_ULP].dropped <= max_ulp))
            BREAK("%s %s: max ULP error not decided (near ties past the MPFR budget): up to %.6g > "
                  "claimed %g", impl->name, dir, e->near[ERR_ULP].dropped, max_ulp);
        if (e->count && !(e->near[ERR_ABS].dropped <= max_abs))
            BREAK("%s %s: max abs error not decided (near ties past the MPFR budget): up to %.6g > "
                  "claimed %g", impl->name, dir, e->near[ERR_ABS].dropped, max_abs);
    }
    if (c->monotone && m->mono.violations)
        BREAK("%s: %llu monotonicity violations, the first at x = %s", impl->name,
              (unsigned long long)m->mono.violations,
              scan_result_input_text(r, m->mono.listed_seq[0], m->mono.listed_bits[0], xt,
                                     sizeof xt));
    for (int d = 0; r->has_extras && c->specials && d < scan_directions(impl, r->grad); d++) {
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
