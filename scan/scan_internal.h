/* The scan engine's inside, shared by its files (not scan.h's API): a domain read by position,
 * one block's reference values prepared for the metric loop (point_ref), each thread's worker
 * and the run's shared state, and the functions one file of the engine hands another. The
 * files: domain.c, block.c (one row's metrics of a block), block_shortcuts.c (the block's
 * reference values and their closed forms), near_tolerance.c and near_points.c (near ties of
 * the maxima, near_tolerance.h), rows.c (a block through every row), run.c (threads and the
 * run), result.c (merge and gate). */
#ifndef GELUCHECK_SCAN_INTERNAL_H
#define GELUCHECK_SCAN_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "float_order.h"
#include "kernel_call.h"
#include "refine.h"
#include "scan.h"
#include "weights.h"

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
    /* a row's call failed (kernel_call_failure, a row's call_failure): no more claims */
    atomic_bool calls_failed;
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
    /* With cfg->same_as: every row's outputs of the block (tap[(i * DIR_COUNT + d) *
     * SCAN_BLOCK], the block's own inputs) and its counts of outputs differing from its
     * same_as row's (compare_block). */
    float *tap;
    uint64_t (*differ)[DIR_COUNT];
} scan_worker;

/* domain.c */
int domain_open(const scan_domain *d, domain_view *v);
float domain_input(const domain_view *v, uint64_t i);
/* x[0 .. n) = inputs i .. i + n − 1 */
void domain_inputs(const domain_view *v, uint64_t i, size_t n, float *x);

/* block.c */
void count_criteria(criteria_counts *c, const float *x, const float *y,
                    const point_ref *r, const double *abs, size_t n,
                    bool any_special);
bool cr_errors(const point_ref *r, size_t n, double *ulp, double *abs,
               double *rel, uint32_t *cr);
void check_monotone(mono_metrics *m, const float *x, const float *y, size_t count,
                    uint64_t seq_first, double x_min);
void check_sign(sign_metrics *m, const float *x, const float *y, const point_ref *r,
                size_t n, uint64_t seq0, double x_min);
void fill_refs(scan_worker *w, gelu_target t, int ndir, const float *x, size_t n,
               const double *e_half, const input_span *span);
void flush_refs(scan_worker *w, gelu_target t, int ndir, const float *x_ref, size_t n);
void row_metrics(scan_worker *w, error_metrics *m, const float *x, const float *y,
                 const point_ref *r, size_t n, uint64_t seq0,
                 const refine_ctx *ctx);
void fill_inv_abs(point_ref *p, size_t n);
void refs_fill_errors(scan_worker *w, const point_ref *r, size_t n);

/* block_shortcuts.c */
void prepare_refs(scan_worker *w, gelu_target t, int dir, const float *x,
                  size_t n);

/* rows.c */
void share_settle(scan_worker *w, scan_result *part, int p);
void run_block(scan_worker *w, uint64_t block);

/* result.c */
void merge_counts(scan_result *dst, const scan_result *src);

/* Every kernel call goes through kernel_call.h: run in the run's environment, judged. */

/* Whether x's reference was computed at ±0, so is exact (the near-tie tolerances' zero case):
 * x = ±0, or under DAZ a subnormal x, which the kernels and the reference read as ±0. Without
 * the second case every input of a subnormal stretch under DAZ would be a near tie within
 * 10^-3 ULP of an exact error of 0 (the derivatives' 1/2): each one looked at, and the maxima
 * left "not decided among near ties past the MPFR budget" (`accuracy --fpenv ftz,daz --grad`
 * over subnormal inputs). */
static inline int64_t ref_at_zero(const point_ref *p, float x)
{
    uint32_t a = float_bits(x) & 0x7fffffffu;
    return (int64_t)(a == 0) | ((int64_t)p->daz & (int64_t)(a < 0x00800000u));
}

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* When profiling: the time since *t0 added to *sum, and *t0 moved to now. */
static inline void lap(scan_worker *w, double *t0, double *sum)
{
    if (!w->profiling) return;
    double t = now_s();
    *sum += t - *t0;
    *t0 = t;
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

/* The derivative's sign at point j: negative below x_min, positive above, unless the exact
 * value rounds to zero. */
static inline void check_sign_at(sign_metrics *m, const float *x, const float *y,
                                 const point_ref *r, size_t j, uint64_t seq0, double x_min)
{
    if (isnan(x[j]) || r->cr[j] == 0.0f) return;
    bool ok = x[j] < x_min ? y[j] < 0.0f : y[j] > 0.0f;
    if (!ok) sign_add(m, seq0 + j, x[j]);
}

#endif
