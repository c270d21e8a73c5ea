/* The scan of a small format over all its encodings (see scan_small.h): the MPFR reference
 * of each (target, direction) the run needs, computed once into tables by worker threads, then
 * per implementation its kernel over all encodings and the metrics of its outputs. */
#include "scan_small.h"
#include "kernel_call.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "float_bits.h"
#include "reference.h"

enum { N16 = 65536 }; /* the most encodings of a small format: its buffers' room */

/* The reference of one (target, direction) at every encoding: the correctly rounded value in
 * the format (as a binary32 value) and the exact value as hi + lo. */
typedef struct {
    float *cr;
    double *hi, *lo;
} ref_table;

typedef struct {
    const gelu_format *f;
    gelu_target t;
    bool grad;
    ref_table *out;
    unsigned k, n; /* this worker takes the encodings ≡ k mod n (even shares of dear regions) */
} ref_job;

static void *ref_worker(void *p)
{
    const ref_job *j = p;
    uint32_t n = (uint32_t)gelu_format_encodings(j->f);
    mpfr_t exact, rest;
    mpfr_inits2(REF_EXACT_PREC, exact, rest, (mpfr_ptr)0);
    for (uint32_t b = j->k; b < n; b += j->n) {
        double x = j->f->to_double(b);
        double cr = ref_eval_format(j->f, j->t, j->grad, x, exact);
        double hi = mpfr_get_d(exact, MPFR_RNDN), lo = 0;
        if (mpfr_number_p(exact) && isfinite(hi)) {
            mpfr_sub_d(rest, exact, hi, MPFR_RNDN);
            lo = mpfr_get_d(rest, MPFR_RNDN);
        }
        /* a NaN input's own value back, as ref_defined_value does */
        j->out->cr[b] = isnan(x) ? gelu_format_widen(j->f, (uint16_t)b) : (float)cr;
        j->out->hi[b] = hi;
        j->out->lo[b] = lo;
    }
    mpfr_clears(exact, rest, (mpfr_ptr)0);
    ref_thread_done();
    return NULL;
}

static int ref_table_fill(const gelu_format *f, gelu_target t, bool grad, unsigned threads,
                          ref_table *out)
{
    out->cr = malloc(N16 * sizeof *out->cr);
    out->hi = malloc(N16 * sizeof *out->hi);
    out->lo = malloc(N16 * sizeof *out->lo);
    ref_job *jobs = calloc(threads, sizeof *jobs);
    pthread_t *tid = calloc(threads, sizeof *tid);
    int rc = out->cr && out->hi && out->lo && jobs && tid ? 0 : -1;
    unsigned started = 0;
    for (unsigned k = 0; rc == 0 && k < threads; k++) {
        jobs[k] = (ref_job){f, t, grad, out, k, threads};
        if (k + 1 == threads) ref_worker(&jobs[k]); /* the calling thread takes the last share */
        else if (pthread_create(&tid[k], NULL, ref_worker, &jobs[k]) == 0) started++;
        else ref_worker(&jobs[k]);
    }
    for (unsigned k = 0; k < started; k++) pthread_join(tid[k], NULL);
    free(jobs);
    free(tid);
    return rc;
}

static void ref_table_free(ref_table *r)
{
    free(r->cr);
    free(r->hi);
    free(r->lo);
}

/* The sign bit of f's encodings. */
static uint16_t sign_bit(const gelu_format *f) { return (uint16_t)(1u << (f->storage_bits - 1)); }

/* Position of a value of f in increasing order (−0 and +0 both 0), for distances in steps. */
static int32_t ordinal16(const gelu_format *f, uint16_t b)
{
    uint16_t s = sign_bit(f);
    return b & s ? -(int32_t)(b & (s - 1)) : (int32_t)b;
}

double scan_small_weight(const gelu_format *f, input_dist d, uint16_t bits)
{
    double x = f->to_double(bits);
    if (!isfinite(x)) return 0;
    double a, b;
    if ((bits & (sign_bit(f) - 1)) == 0) { /* ±0: up to half the smallest subnormal */
        double h = 0.5 * f->to_double(1);
        a = bits ? -h : 0;
        b = bits ? 0 : h;
    } else {
        /* neighbours by value: the encoding one step down and up in magnitude */
        double near0 = f->to_double((uint16_t)(bits - 1)), far = f->to_double((uint16_t)(bits + 1));
        /* past the largest finite (the next encoding an infinity or a NaN): 2^(emax+1) */
        double out = isfinite(far) ? far : ldexp(1.0, f->emax + 1);
        double m0 = 0.5 * (x + near0), m1 = 0.5 * (x + out);
        a = x > 0 ? m0 : m1;
        b = x > 0 ? m1 : m0;
    }
    if (d == DIST_UNIFORM) {
        double lo = a > -10 ? a : -10, hi = b < 10 ? b : 10;
        return hi > lo ? (hi - lo) / 20 : 0;
    }
    /* Φ(b) − Φ(a): erfc's tails where the interval lies beyond ±1 (no cancellation of
     * Φ ≈ 1), erf's near 0; each within ~2^-40 of the mass (the interval is at least 2^-11 of
     * its distance to 0) */
    const double r2 = 0x1.6a09e667f3bcdp-1; /* 1/√2 */
    if (a >= 0 && b > 1) return 0.5 * (erfc(a * r2) - erfc(b * r2));
    if (b <= 0 && a < -1) return 0.5 * (erfc(-b * r2) - erfc(-a * r2));
    return 0.5 * (erf(b * r2) - erf(a * r2));
}

/* Everything one direction of one implementation adds, against reference table R of format f:
 * the errors at every encoding into m. */
typedef struct {
    double ulp[N16], abs[N16], rel[N16], inv[N16];
    uint32_t cr[N16];
} point_errors;

static void errors_against(const gelu_format *f, const float *y, const uint16_t *y16,
                           const ref_table *R, point_errors *e)
{
    for (uint32_t b = 0; b < gelu_format_encodings(f); b++) {
        double hi = R->hi[b], lo = R->lo[b];
        double a = ref_abs_error_dd(y[b], hi, lo);
        e->inv[b] = isfinite(hi) ? ref_inv_ulp_format(f, hi, lo) : 1.0;
        e->abs[b] = a;
        e->ulp[b] = isfinite(a) ? a * e->inv[b] : a;
        e->rel[b] = ref_rel_error_dd(y[b], hi, lo);
        e->cr[b] = isnan(R->cr[b]) ? isnan(y[b]) : y16[b] == f->from_double(R->cr[b]);
    }
}

/* The points' errors into m; forward, also the peers' binary32 rules (criteria.h) on each
 * output as it is: how a 16-bit output fares under oneDNN's and XNNPACK's f32 tolerances. */
static void add_errors(error_metrics *m, uint32_t n, const float *x, const float *y,
                       const ref_table *R, bool forward, const point_errors *e,
                       const uint64_t *const W[DIST_COUNT])
{
    for (uint32_t b = 0; b < n && forward; b++) {
        criterion_result xn = criterion_xnnpack_gelu(x[b], y[b], R->hi[b], R->lo[b]);
        m->benchdnn_failed += criterion_benchdnn_gelu_erf(x[b], y[b], R->hi[b], R->lo[b]) == CRITERION_FAIL;
        m->xnnpack_failed += xn == CRITERION_FAIL;
        m->xnnpack_checked += xn != CRITERION_NOT_APPLICABLE;
    }
    for (uint32_t b = 0; b < n; b++) {
        error_metrics_add_run(m, 0, x, b, b + 1, input_range_of(x[b]), x_bucket_of(x[b]),
                              isfinite(x[b]), e->ulp, e->abs, e->rel, e->cr);
        for (int d = 0; d < DIST_COUNT; d++)
            dist_point(&m->dist[d], W[d][b], e->ulp[b], e->abs[b], e->inv[b], +1);
    }
}

/* Monotonicity of the forward over consecutive encodings (the pair straddling x_min exempt). */
static void check_monotone16(const gelu_format *f, mono_metrics *m, const float *x,
                             const float *y, const uint16_t *y16, double x_min)
{
    for (uint32_t k = 1; k < gelu_format_encodings(f); k++) {
        float a = x[k - 1], b = x[k];
        if (!isfinite(a) || !isfinite(b) || a == b) continue;
        uint32_t lo = a < b ? k - 1 : k, hi = a < b ? k : k - 1;
        bool ok;
        if (x[hi] <= x_min) ok = y[lo] >= y[hi];
        else if (x[lo] >= x_min) ok = y[hi] >= y[lo];
        else continue;
        if (!ok) {
            int32_t dist = ordinal16(f, y16[lo]) - ordinal16(f, y16[hi]);
            uint64_t steps = isnan(y[lo]) || isnan(y[hi]) ? UINT64_MAX
                                                          : (uint64_t)(dist < 0 ? -dist : dist);
            mono_add(m, k, b, steps);
        }
    }
}

/* The derivative's sign: negative below x_min, positive above, unless the correctly rounded
 * value is zero. */
static void check_sign16(sign_metrics *m, uint32_t n, const float *x, const float *y,
                         const float *cr, double x_min)
{
    for (uint32_t b = 0; b < n; b++) {
        if (isnan(x[b]) || cr[b] == 0.0f) continue;
        bool ok = x[b] < x_min ? y[b] < 0.0f : y[b] > 0.0f;
        if (!ok) sign_add(m, b, x[b]);
    }
}

static void check_specials16(const gelu_format *f, const float *x, const float *y,
                             const float *cr, impl_extras *e, int d)
{
    uint64_t s[GELU_FORMAT_SPECIAL_COUNT];
    gelu_format_special_encodings(f, s);
    for (int i = 0; i < GELU_FORMAT_SPECIAL_COUNT; i++)
        if (!contract_same_value(cr[s[i]], y[s[i]]))
            e->special_failed[d][e->nspecial_failed[d]++] = (special_failure){x[s[i]], cr[s[i]], y[s[i]]};
}

/* The run's buffers. */
typedef struct {
    uint16_t enc[N16], y16[N16];
    float x[N16], y[N16], wx[N16], wy[N16];
    uint64_t w[DIST_COUNT][N16];
    point_errors err;
} small_buffers;

static int check_config(const scan_small_config *cfg, const char **error)
{
    const gelu_format *f = gelu_format_of(cfg->format);
    if (!gelu_format_small(f))
        return *error = "the small scan runs the small formats only (16 bits or fewer)", -1;
    for (size_t i = 0; i < cfg->nimpls; i++) {
        const gelu_impl *m = cfg->impls[i];
        /* a forward-only one (no derivative kernel) is scanned forward only */
        bool native = m->forward_u16, widened = gelu_impl_is_widened(m);
        if (m->format != cfg->format || !(native || widened))
            return *error = "an implementation without kernels of the scanned format", -1;
        if (cfg->same_as && (cfg->same_as[i] < -1 || cfg->same_as[i] >= (int)i))
            return *error = "same_as names no earlier row of the scan", -1;
    }
    if (!cfg->same_as != !cfg->differ) return *error = "same_as and differ go together", -1;
    return 0;
}

int scan_small_run(const scan_small_config *cfg, scan_result *result, const char **error)
{
    if (check_config(cfg, error) != 0) return -1;
    const gelu_format *f = gelu_format_of(cfg->format);
    unsigned threads = cfg->threads ? cfg->threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    small_buffers *B = malloc(sizeof *B);
    /* with same_as: every row's outputs, kept for the rows compared with it */
    uint16_t *kept = cfg->same_as ? malloc(cfg->nimpls * DIR_COUNT * N16 * sizeof *kept) : NULL;
    ref_table refs[GELU_TARGET_COUNT][DIR_COUNT] = {{{0}}};
    if (!B || (cfg->same_as && !kept) || scan_result_alloc(result, cfg->nimpls) != 0) {
        free(B);
        free(kept);
        return *error = "out of memory", -1;
    }
    for (size_t i = 0; cfg->same_as && i < cfg->nimpls; i++)
        for (int d = 0; d < DIR_COUNT; d++) cfg->differ[i][d] = 0;
    uint32_t n = (uint32_t)gelu_format_encodings(f);
    for (uint32_t b = 0; b < n; b++) {
        B->enc[b] = (uint16_t)b;
        B->x[b] = gelu_format_widen(f, (uint16_t)b);
        for (int d = 0; d < DIST_COUNT; d++) /* weights ≤ 2^-8: W < 2^62 */
            B->w[d][b] = (uint64_t)(int64_t)(scan_small_weight(f, (input_dist)d, (uint16_t)b) * DIST_W_SCALE);
    }
    const uint64_t *W[DIST_COUNT] = {B->w[DIST_NORMAL], B->w[DIST_UNIFORM]};
    int rc = 0;
    result->grad = cfg->grad;
    result->domain = (scan_domain){.kind = DOMAIN_ALL};
    result->shard_k = 0;
    result->shard_n = 1;
    result->inputs = n;
    result->has_extras = true;
    for (size_t i = 0; i < cfg->nimpls && rc == 0; i++) {
        const gelu_impl *m = cfg->impls[i];
        impl_metrics *im = &result->metrics[i];
        result->impls[i] = m;
        impl_metrics_init(im);
        result->extras[i].consistency_max_rel = NAN; /* not measured (scan_small.h) */
        double x_min = ref_x_min_d(m->target);
        for (int d = 0; d < scan_directions(m, cfg->grad) && rc == 0; d++) {
            kernel_call_u16(m, d == DIR_DERIVATIVE, B->enc, B->y16, n, B->wx, B->wy);
            for (uint32_t b = 0; b < n; b++) B->y[b] = gelu_format_widen(f, B->y16[b]);
            if (kept) {
                memcpy(kept + (i * DIR_COUNT + (size_t)d) * N16, B->y16, n * sizeof *kept);
                int k = cfg->same_as[i];
                if (k >= 0 && d < scan_directions(cfg->impls[k], cfg->grad)) {
                    const uint16_t *b16 = kept + ((size_t)k * DIR_COUNT + (size_t)d) * N16;
                    for (uint32_t b = 0; b < n; b++) cfg->differ[i][d] += B->y16[b] != b16[b];
                }
            }
            for (int k = 0; k < REF_KINDS && rc == 0; k++) {
                if (k == REF_EXACT && !scan_has_exact_row(m)) continue;
                gelu_target t = k == REF_OWN ? m->target : GELU_TARGET_EXACT;
                ref_table *R = &refs[t][d];
                if (!R->cr) {
                    if ((rc = ref_table_fill(f, t, d == DIR_DERIVATIVE, threads, R)) != 0) break;
                    result->refs[t][d] = result->fallbacks[t][d] = n; /* all by MPFR */
                }
                errors_against(f, B->y, B->y16, R, &B->err);
                add_errors(&im->err[k][d], n, B->x, B->y, R, d == DIR_FORWARD, &B->err, W);
            }
            if (rc != 0) break;
            const ref_table *own = &refs[m->target][d];
            if (d == DIR_FORWARD) check_monotone16(f, &im->mono, B->x, B->y, B->y16, x_min);
            else check_sign16(&im->sign, n, B->x, B->y, own->cr, x_min);
            check_specials16(f, B->x, B->y, own->cr, &result->extras[i], d);
        }
    }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) ref_table_free(&refs[t][d]);
    free(B);
    free(kept);
    if (rc != 0) *error = "out of memory";
    else if ((*error = kernel_calls_failure(cfg->impls, cfg->nimpls))) rc = -1;
    return rc;
}
