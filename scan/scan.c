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

/* Sample: n encodings drawn uniformly (GSL MT19937), sorted by encoding, duplicates removed. */
static int domain_open(const scan_domain *d, domain_view *v)
{
    memset(v, 0, sizeof *v);
    v->d = *d;
    switch (d->kind) {
    case DOMAIN_ALL: v->size = UINT64_C(1) << 32; return 0;
    case DOMAIN_RANGE:
        v->first_ordinal = ordinal(d->lo);
        v->size = (uint64_t)(ordinal(d->hi) - v->first_ordinal + 1);
        return 0;
    case DOMAIN_SAMPLE: {
        if (d->n == 0) return -1;
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

bool scan_has_exact_row(const gelu_impl *impl)
{
    return impl->target == GELU_TARGET_EXACT || impl->target == GELU_TARGET_TANH ||
           impl->target == GELU_TARGET_SIGMOID;
}

/* ---- one block */

/* A block's reference values prepared for the metric loop, as arrays (vectorizable). */
typedef struct {
    double hi[SCAN_BLOCK], lo[SCAN_BLOCK], inv_ulp[SCAN_BLOCK], inv_abs[SCAN_BLOCK];
    float cr[SCAN_BLOCK];
    uint32_t cr_bits[SCAN_BLOCK];
    uint32_t plain[SCAN_BLOCK]; /* 1: finite and non-zero, the metric loop's fast path applies
                                 * (32 bits wide like the floats, so the loops vectorize) */
} point_ref;

typedef struct {
    const scan_config *cfg;
    const domain_view *dom;
    unsigned targets_used; /* bit per target */
    double x_min[GELU_TARGET_COUNT];
    uint64_t first_block, end_block;
    atomic_uint_fast64_t next_block, blocks_done;
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
    /* The block's runs: points k with run_start[r] ≤ k < run_start[r + 1] share their input
     * range, x bucket and whether x is finite (the metric loop adds a run at a time). */
    size_t nruns;
    uint16_t run_start[SCAN_BLOCK + 1];
} scan_worker;

static void prepare_refs(scan_worker *w, gelu_target t, int dir, const float *x, size_t n)
{
    point_ref *p = w->ref[t][dir];
    for (size_t j = 0; j < n; j++) {
        ref_value v;
        w->part->fallbacks[t][dir] += fast_ref_value(t, dir == DIR_DERIVATIVE, x[j], &v, &p->inv_ulp[j]);
        p->hi[j] = v.hi;
        p->lo[j] = v.lo;
        p->cr[j] = v.cr;
        p->cr_bits[j] = float_bits(v.cr);
        p->plain[j] = isfinite(v.hi) && v.hi != 0 ? 1 : 0;
        p->inv_abs[j] = p->plain[j] ? 1.0 / fabs(v.hi) : 0;
    }
    w->part->refs[t][dir] += n;
}

/* The peers' criteria (criteria.h) over a block, from the absolute errors abs[] already computed:
 * the rules' finite branch written as a loop the compiler vectorizes, then the points whose
 * reference or output is not a finite non-zero number by the rules themselves. */
static void count_criteria(error_metrics *m, const float *x, const float *y, const point_ref *r,
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
    m->benchdnn_failed += benchdnn;
    m->xnnpack_failed += xnnpack;
    m->xnnpack_checked += checked;
    if (any_special)
        for (size_t j = 0; j < n; j++)
            if (!r->plain[j] || !isfinite(y[j]))
                error_metrics_add_criteria(m, x[j], y[j], r->hi[j], r->lo[j]);
}

/* The metric loop, the hot path of the scan: errors of the whole block first (a loop the
 * compiler vectorizes), outputs or references that are not finite non-zero numbers redone by
 * the general rules, then the counters. */
static void accumulate_errors(scan_worker *w, error_metrics *m, const float *x, const float *y,
                              const point_ref *r, size_t n, uint64_t seq0, int dir)
{
    double *ulp = w->ulp, *abs = w->abs, *rel = w->rel;
    for (size_t j = 0; j < n; j++) {
        double d = fabs(((double)y[j] - r->hi[j]) - r->lo[j]);
        abs[j] = d;
        ulp[j] = d * r->inv_ulp[j];
        rel[j] = d * r->inv_abs[j];
    }
    unsigned specials = 0; /* references or outputs that are not finite non-zero numbers */
    for (size_t j = 0; j < n; j++)
        specials |= (r->plain[j] ^ 1u) | ((float_bits(y[j]) & 0x7fffffffu) >= 0x7f800000u);
    bool any_special = specials != 0;
    if (any_special)
        for (size_t j = 0; j < n; j++)
            if (!r->plain[j] || !isfinite(y[j])) {
                ulp[j] = ref_ulp_error_dd(y[j], r->hi[j], r->lo[j]);
                abs[j] = ref_abs_error_dd(y[j], r->hi[j], r->lo[j]);
                rel[j] = ref_rel_error_dd(y[j], r->hi[j], r->lo[j]);
            }
    for (size_t j = 0; j < n; j++) { /* same encoding, or both NaN: integer ops that vectorize */
        uint32_t b = float_bits(y[j]), c = r->cr_bits[j];
        w->cr[j] = (b == c) | (((b & 0x7fffffffu) > 0x7f800000u) & ((c & 0x7fffffffu) > 0x7f800000u));
    }
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        error_metrics_add_run(m, seq0, x, a, b, w->range[a], w->x_bucket[a], isfinite(x[a]), ulp,
                              abs, rel, w->cr);
    }
    if (dir == DIR_FORWARD) count_criteria(m, x, y, r, abs, n, any_special);
}

/* Distance between two floats in binary32 steps (−0 and +0 one step apart). */
static uint64_t float_distance(float a, float b)
{
    if (isnan(a) || isnan(b)) return UINT64_MAX;
    int64_t d = ordinal(a) - ordinal(b);
    return (uint64_t)(d < 0 ? -d : d);
}

/* Monotonicity over consecutive pairs x[k-1], x[k] (x[0] may be the previous block's last
 * input, so that seams are checked); x[k] is at position seq_first + k. */
static void check_monotone(mono_metrics *m, const float *x, const float *y, size_t count,
                           uint64_t seq_first, double x_min)
{
    for (size_t k = 1; k < count; k++) {
        float a = x[k - 1], b = x[k];
        if (!isfinite(a) || !isfinite(b) || a == b) continue;
        float lo_x = a < b ? a : b, hi_x = a < b ? b : a;
        float y_lo = a < b ? y[k - 1] : y[k], y_hi = a < b ? y[k] : y[k - 1];
        bool ok;
        if (hi_x <= x_min) ok = y_lo >= y_hi;      /* left branch: non-increasing */
        else if (lo_x >= x_min) ok = y_hi >= y_lo; /* right branch: non-decreasing */
        else continue;                              /* straddles x_min: exempt */
        if (!ok) mono_add(m, seq_first + k, b, float_distance(y_lo, y_hi));
    }
}

/* The derivative's sign: negative below x_min, positive above, unless the exact value rounds
 * to zero. */
static void check_sign(sign_metrics *m, const float *x, const float *y, const point_ref *r,
                       size_t n, uint64_t seq0, double x_min)
{
    for (size_t j = 0; j < n; j++) {
        if (isnan(x[j]) || r->cr[j] == 0.0f) continue;
        bool ok = x[j] < x_min ? y[j] < 0.0f : y[j] > 0.0f;
        if (!ok) sign_add(m, seq0 + j, x[j]);
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
        (d == DIR_FORWARD ? impl->forward : impl->derivative)(w->x, w->y, n + has_prev);
        accumulate_errors(w, &m->err[REF_OWN][d], x, y, w->ref[impl->target][d], n, seq0, d);
        if (exact_row)
            accumulate_errors(w, &m->err[REF_EXACT][d], x, y, w->ref[GELU_TARGET_EXACT][d], n,
                              seq0, d);
        if (d == DIR_FORWARD) check_monotone(&m->mono, w->x, w->y, n + has_prev, seq0 - has_prev, x_min);
        else check_sign(&m->sign, x, y, w->ref[impl->target][d], n, seq0, x_min);
    }
}

static void run_block(scan_worker *w, uint64_t block)
{
    const domain_view *dom = w->sh->dom;
    uint64_t seq0 = block * SCAN_BLOCK;
    size_t n = (size_t)(dom->size - seq0 < SCAN_BLOCK ? dom->size - seq0 : SCAN_BLOCK);
    bool has_prev = seq0 > 0;
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
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (w->sh->targets_used & (1u << t))
            for (int d = 0; d < (w->sh->cfg->grad ? DIR_COUNT : 1); d++)
                prepare_refs(w, (gelu_target)t, d, x, n);
    for (size_t i = 0; i < w->sh->cfg->nimpls; i++)
        run_impl(w, i, n, has_prev, seq0);
    w->part->inputs += n;
}

/* ---- threads */

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
    return NULL;
}

static scan_worker *worker_new(scan_shared *sh, const scan_result *proto)
{
    scan_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->sh = sh;
    w->part = malloc(sizeof *w->part);
    bool ok = w->part != NULL;
    if (ok) *w->part = *proto;
    for (int t = 0; ok && t < GELU_TARGET_COUNT; t++)
        for (int d = 0; ok && d < DIR_COUNT; d++)
            if (sh->targets_used & (1u << t))
                ok = (w->ref[t][d] = malloc(sizeof(point_ref))) != NULL;
    if (!ok) {
        for (int t = 0; t < GELU_TARGET_COUNT; t++)
            for (int d = 0; d < DIR_COUNT; d++) free(w->ref[t][d]);
        free(w->part);
        free(w);
        return NULL;
    }
    return w;
}

static void worker_free(scan_worker *w)
{
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) free(w->ref[t][d]);
    free(w->part);
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

static void result_init(scan_result *r, const scan_config *cfg)
{
    memset(r, 0, sizeof *r);
    r->nimpls = cfg->nimpls;
    for (size_t i = 0; i < cfg->nimpls; i++) {
        r->impls[i] = cfg->impls[i];
        impl_metrics_init(&r->metrics[i]);
    }
    r->grad = cfg->grad;
    r->domain = cfg->domain;
    r->shard_k = cfg->shard_k;
    r->shard_n = cfg->shard_n;
}

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int scan_run(const scan_config *cfg, scan_result *result, const char **error)
{
    if (cfg->nimpls == 0 || cfg->nimpls > SCAN_MAX_IMPLS) {
        *error = "between 1 and 64 implementations per run";
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
    scan_shared sh = {.cfg = cfg, .dom = &dom};
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

    result_init(result, cfg);
    unsigned nthreads = cfg->threads ? cfg->threads : online_cpus();
    scan_worker **w = calloc(nthreads, sizeof *w);
    pthread_t *th = calloc(nthreads, sizeof *th);
    unsigned started = 0;
    bool ok = w && th;
    for (unsigned k = 0; ok && k < nthreads; k++) {
        ok = (w[k] = worker_new(&sh, result)) != NULL &&
             pthread_create(&th[k], NULL, worker_main, w[k]) == 0;
        if (ok) started++;
    }
    uint64_t total = sh.end_block - sh.first_block;
    while (started > 0 && atomic_load(&sh.blocks_done) < total && ok) {
        if (cfg->progress) cfg->progress(atomic_load(&sh.blocks_done), total, cfg->progress_ctx);
        sleep_ms(200);
    }
    if (!ok) atomic_store(&sh.next_block, sh.end_block); /* stop the started ones */
    for (unsigned k = 0; k < started; k++) {
        pthread_join(th[k], NULL);
        for (size_t i = 0; i < cfg->nimpls; i++)
            impl_metrics_merge(&result->metrics[i], &w[k]->part->metrics[i]);
        result->inputs += w[k]->part->inputs;
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
        memcpy(dst->extras, src->extras, sizeof dst->extras);
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

/* Partial file: a text header naming the run, then the result's counters as raw bytes (same
 * build and architecture; the sizes in the header are checked). */
static const char partial_magic[] = "gelucheck-partial 1";

int scan_result_write(const scan_result *r, FILE *f)
{
    fprintf(f, "%s %zu %zu\n", partial_magic, sizeof(impl_metrics), sizeof(impl_extras));
    fprintf(f, "domain %d 0x%08x 0x%08x %llu %llu\n", (int)r->domain.kind, float_bits(r->domain.lo),
            float_bits(r->domain.hi), (unsigned long long)r->domain.n,
            (unsigned long long)r->domain.seed);
    fprintf(f, "grad %d\nshard %u %u\ninputs %llu\nhas_extras %d\nimpls %zu\n", r->grad ? 1 : 0,
            r->shard_k, r->shard_n, (unsigned long long)r->inputs, r->has_extras ? 1 : 0,
            r->nimpls);
    for (size_t i = 0; i < r->nimpls; i++) fprintf(f, "%s\n", r->impls[i]->name);
    fprintf(f, "data\n");
    bool ok = fwrite(r->refs, sizeof r->refs, 1, f) == 1 &&
              fwrite(r->fallbacks, sizeof r->fallbacks, 1, f) == 1 &&
              fwrite(r->metrics, sizeof r->metrics[0], r->nimpls, f) == r->nimpls &&
              fwrite(r->extras, sizeof r->extras[0], r->nimpls, f) == r->nimpls;
    return ok && !ferror(f) ? 0 : -1;
}

int scan_result_read(scan_result *r, FILE *f, const char **error)
{
    memset(r, 0, sizeof *r);
    size_t msize, esize, n;
    int kind, grad, extras;
    unsigned lo, hi;
    unsigned long long dn, seed, inputs;
    char magic[32] = "", word[8] = "";
    if (fscanf(f, "%31[^ ] 1 %zu %zu domain %d %x %x %llu %llu grad %d shard %u %u inputs %llu "
                  "has_extras %d impls %zu",
               magic, &msize, &esize, &kind, &lo, &hi, &dn, &seed, &grad, &r->shard_k,
               &r->shard_n, &inputs, &extras, &n) != 14 ||
        strcmp(magic, "gelucheck-partial") != 0) {
        *error = "not a gelucheck partial result";
        return -1;
    }
    if (msize != sizeof(impl_metrics) || esize != sizeof(impl_extras) || n == 0 ||
        n > SCAN_MAX_IMPLS || kind < DOMAIN_ALL || kind > DOMAIN_SAMPLE) {
        *error = "written by a different build of gelucheck";
        return -1;
    }
    r->domain = (scan_domain){(domain_kind)kind, float_from_bits(lo), float_from_bits(hi), dn, seed};
    r->grad = grad;
    r->inputs = inputs;
    r->has_extras = extras;
    r->nimpls = n;
    for (size_t i = 0; i < n; i++) {
        char name[128];
        if (fscanf(f, "%127s", name) != 1 || !(r->impls[i] = gelu_impl_find(name))) {
            *error = "names an implementation this build does not have";
            return -1;
        }
    }
    if (fscanf(f, "%7s", word) != 1 || strcmp(word, "data") != 0 || fgetc(f) != '\n') {
        *error = "truncated header";
        return -1;
    }
    bool ok = fread(r->refs, sizeof r->refs, 1, f) == 1 &&
              fread(r->fallbacks, sizeof r->fallbacks, 1, f) == 1 &&
              fread(r->metrics, sizeof r->metrics[0], n, f) == n &&
              fread(r->extras, sizeof r->extras[0], n, f) == n && fgetc(f) == EOF;
    if (!ok) {
        *error = "truncated or trailing data";
        return -1;
    }
    return 0;
}
