/* The sampled scan of binary64 (see scan_f64.h): the sample and its hard inputs, then worker
 * threads over blocks of consecutive sample points, each block's references computed once with
 * MPFR and every implementation's errors against them, into per-thread metrics merged at the
 * end (order-free: counts, exact sums, maxima with their first position). */
#include "scan_f64.h"
#include "kernel_call.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "float_bits.h"
#include "reference.h"

enum { F64_BLOCK = 1024 };
__extension__ typedef __int128 i128;

static const gelu_format *binary64(void) { return gelu_format_of(GELU_FORMAT_BINARY64); }

/* x as a binary32 value for the metrics' unused encodings and special_failure (scan_f64.h),
 * without the undefined conversion of a double beyond binary32's range: ±inf there. */
static float narrow(double x)
{
    return fabs(x) > 0x1.fffffep+127 ? (x > 0 ? INFINITY : -INFINITY) : (float)x;
}

/* Same encoding, any NaN matching any NaN. */
static bool same_value(double a, double b) { return isnan(a) ? isnan(b) : double_bits(a) == double_bits(b); }

/* ---- the hard inputs */

/* The correctly rounded binary64 value of target t (grad: its derivative) at x. */
static double cr64(gelu_target t, bool grad, double x)
{
    mpfr_t exact;
    mpfr_init2(exact, REF_EXACT_PREC);
    double r = ref_eval_format(binary64(), t, grad, x, exact);
    mpfr_clear(exact);
    return r;
}

typedef enum { TO_ZERO, BELOW_NORMAL, TO_X } boundary;

static bool reached(boundary k, gelu_target t, bool grad, double x)
{
    double r = cr64(t, grad, x);
    if (k == TO_ZERO) return r == 0;
    if (k == BELOW_NORMAL) return fabs(r) < 0x1p-1022;
    return r == (grad ? 1.0 : x);
}

/* The first encoding in (a, b] where `reached` holds, given it fails at a and holds at b (the
 * encodings of one sign grow with |x|): bisection, ~62 MPFR evaluations. */
static uint64_t bisect(boundary k, gelu_target t, bool grad, uint64_t a, uint64_t b)
{
    while (b - a > 1) {
        uint64_t m = a + (b - a) / 2;
        if (reached(k, t, grad, double_from_bits(m))) b = m;
        else a = m;
    }
    return b;
}

static size_t put_around(uint64_t *out, size_t n, uint64_t centre, int reach)
{
    for (int k = -reach; k <= reach; k++) out[n++] = centre + (uint64_t)(int64_t)k;
    return n;
}

static uint64_t hard[SCAN_F64_HARD_MAX];
static size_t nhard;
static pthread_once_t hard_once = PTHREAD_ONCE_INIT;

static void compute_hard(void)
{
    size_t n = 0;
    /* From −1 (GELU and GELU' of every target well inside the normals there) to −10^4 (every
     * target's f and f' are below 2^-1075 there: the sigmoid form's f' ≈ 1.702·x·e^(1.702·x)
     * needs x < −440) on the negative side; from 1 (f(1) ≈ 0.84, f'(1) ≈ 1.08) to 10^4 above. */
    uint64_t neg_a = double_bits(-1.0), neg_b = double_bits(-1e4), pos_a = double_bits(1.0), pos_b = double_bits(1e4);
    for (int i = 0; i < GELU_TARGET_COUNT; i++) { /* every GELU target's row */
        gelu_target t = (gelu_target)i;
        if (!gelu_target_is_gelu(t)) continue;
        n = put_around(hard, n, double_bits(ref_x_min_d(t)), 3);
        for (int d = 0; d < DIR_COUNT; d++) {
            n = put_around(hard, n, bisect(TO_ZERO, t, d, neg_a, neg_b), 2);
            n = put_around(hard, n, bisect(BELOW_NORMAL, t, d, neg_a, neg_b), 2);
            n = put_around(hard, n, bisect(TO_X, t, d, pos_a, pos_b), 2);
        }
    }
    /* The subnormal midpoints: x/2 of an odd subnormal or of the normals' first binade ends on a
     * tie between subnormals. */
    static const uint64_t odd[] = {1, 3, 5, 7, 0x000ffffffffffffdu, 0x000fffffffffffffu,
                                   0x0010000000000001u, 0x0010000000000003u, 0x001fffffffffffffu};
    for (size_t k = 0; k < sizeof odd / sizeof *odd; k++) {
        hard[n++] = odd[k];
        hard[n++] = odd[k] | UINT64_C(0x8000000000000000);
    }
    uint64_t s[GELU_FORMAT_SPECIAL_COUNT];
    gelu_format_special_encodings(binary64(), s);
    for (size_t k = 0; k < GELU_FORMAT_SPECIAL_COUNT; k++) hard[n++] = s[k];
    nhard = n;
    ref_thread_done();
}

size_t scan_f64_hard_inputs(uint64_t *out)
{
    pthread_once(&hard_once, compute_hard);
    memcpy(out, hard, nhard * sizeof *out);
    return nhard;
}

/* ---- the sample */

/* SplitMix64's output mix (Steele, Lea & Flood 2014; the constants of Vigna's splitmix64.c):
 * draw i of seed s hashes mix(s + 2^64/φ) with i times an odd constant, a function of (s, i)
 * alone. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t draw(uint64_t seed, uint64_t i)
{
    uint64_t h = mix(mix(seed + UINT64_C(0x9e3779b97f4a7c15)) ^ (i * UINT64_C(0xd1b54a32d192ed03)));
    uint64_t sign = h & UINT64_C(0x8000000000000000);
    switch (i % 4) {
    case 0:
    case 1: /* uniform in value on [−10, 10): 53 random bits */
        return double_bits(20.0 * ((double)(h >> 11) * 0x1p-53) - 10.0);
    case 2: /* uniform in encoding over |x| < 64 */
        return sign | (h >> 1) % UINT64_C(0x4050000000000000);
    default: { /* uniform over the finite encodings: an all-ones exponent field loses its top bit */
        uint64_t e = UINT64_C(0x7ff0000000000000);
        return (h & e) == e ? h ^ UINT64_C(0x4000000000000000) : h;
    }
    }
}

static int by_encoding(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int scan_f64_sample(uint64_t n, uint64_t seed, uint64_t **out, uint64_t *count)
{
    uint64_t *x = malloc((n + SCAN_F64_HARD_MAX) * sizeof *x);
    if (!x) return -1;
    for (uint64_t i = 0; i < n; i++) x[i] = draw(seed, i);
    uint64_t m = n + scan_f64_hard_inputs(x + n);
    qsort(x, m, sizeof *x, by_encoding);
    uint64_t k = 0;
    for (uint64_t i = 0; i < m; i++)
        if (k == 0 || x[i] != x[k - 1]) x[k++] = x[i];
    *out = x;
    *count = k;
    return 0;
}

/* ---- the scan */

/* One direction of one reference at a block's points. */
typedef struct {
    mpfr_t exact[F64_BLOCK];
    double cr[F64_BLOCK];
} block_ref;

typedef struct {
    const scan_f64_config *cfg;
    const uint64_t *x64;
    uint64_t count;
    unsigned k, nthreads; /* this worker takes blocks k, k + nthreads, … */
    impl_metrics *metrics; /* nimpls, this worker's */
    bool needed[GELU_TARGET_COUNT];
    int failed;
} f64_worker;

static void block_reference(gelu_target t, bool grad, const double *x, size_t n, block_ref *R)
{
    for (size_t j = 0; j < n; j++) R->cr[j] = ref_eval_format(binary64(), t, grad, x[j], R->exact[j]);
}

/* A block's points' errors against R, into m (one run per point: each has its own range and
 * bucket in a sample). */
static void add_errors(error_metrics *m, uint64_t seq0, const double *x, const float *xf,
                       const double *y, size_t n, const block_ref *R)
{
    double ulp[F64_BLOCK], abs[F64_BLOCK], rel[F64_BLOCK];
    uint32_t cr[F64_BLOCK];
    for (size_t j = 0; j < n; j++) {
        ulp[j] = ref_ulp_error_format(binary64(), y[j], R->exact[j]);
        abs[j] = ref_abs_error_d(y[j], R->exact[j]);
        rel[j] = ref_rel_error_d(y[j], R->exact[j]);
        cr[j] = same_value(R->cr[j], y[j]);
    }
    for (size_t j = 0; j < n; j++)
        error_metrics_add_run(m, seq0, xf, j, j + 1, input_range_of_d(x[j]), x_bucket_of_d(x[j]),
                              isfinite(x[j]), ulp, abs, rel, cr);
}

/* Position of a double in increasing order (−0 and +0 both 0), for distances in steps. */
static i128 ordinal64(double v)
{
    uint64_t b = double_bits(v);
    return b >> 63 ? -(i128)(b & ~(UINT64_C(1) << 63)) : (i128)b;
}

/* Monotonicity between consecutive sample points: pairs (j−1, j) of x[0..n) (x[0] is the
 * previous block's last point when seq0 > 0), the pair straddling x_min exempt. */
static void check_monotone(mono_metrics *m, uint64_t seq0, const double *x, const double *y,
                           size_t n, double x_min)
{
    for (size_t j = 1; j < n; j++) {
        double a = x[j - 1], b = x[j];
        if (!isfinite(a) || !isfinite(b) || a == b) continue;
        size_t lo = a < b ? j - 1 : j, hi = a < b ? j : j - 1;
        bool ok;
        if (x[hi] <= x_min) ok = y[lo] >= y[hi];
        else if (x[lo] >= x_min) ok = y[hi] >= y[lo];
        else continue;
        if (!ok) {
            i128 dist = ordinal64(y[lo]) - ordinal64(y[hi]);
            if (dist < 0) dist = -dist;
            uint64_t steps = isnan(y[lo]) || isnan(y[hi]) || dist > (i128)UINT64_MAX
                                 ? UINT64_MAX : (uint64_t)dist;
            mono_add(m, seq0 + j, narrow(b), steps);
        }
    }
}

static void check_sign(sign_metrics *m, uint64_t seq0, const double *x, const double *y,
                       const double *cr, size_t n, double x_min)
{
    for (size_t j = 0; j < n; j++) {
        if (isnan(x[j]) || cr[j] == 0.0) continue;
        bool ok = x[j] < x_min ? y[j] < 0.0 : y[j] > 0.0;
        if (!ok) sign_add(m, seq0 + j, narrow(x[j]));
    }
}

typedef struct {
    double x[F64_BLOCK + 1], y[F64_BLOCK + 1];
    float xf[F64_BLOCK];
    block_ref ref[GELU_TARGET_COUNT];
} f64_buffers;

static void scan_block(f64_worker *w, f64_buffers *B, bool grad, uint64_t first, uint64_t end)
{
    const scan_f64_config *cfg = w->cfg;
    /* x[0] is the previous point (for the seam's monotonicity pair) when there is one */
    size_t prev = first > 0, n = (size_t)(end - first);
    for (size_t j = 0; j < n + prev; j++) B->x[j] = double_from_bits(w->x64[first - prev + j]);
    const double *x = B->x + prev;
    for (size_t j = 0; j < n; j++) B->xf[j] = narrow(x[j]); /* unused bits (scan_result.x64) */
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (w->needed[t]) block_reference((gelu_target)t, grad, x, n, &B->ref[t]);
    for (size_t i = 0; i < cfg->nimpls; i++) {
        const gelu_impl *m = cfg->impls[i];
        if (grad && scan_directions(m, true) < DIR_COUNT) continue;
        kernel_call_f64(m, grad, B->x, B->y, n + prev);
        const double *y = B->y + prev;
        int d = grad ? DIR_DERIVATIVE : DIR_FORWARD;
        for (int k = 0; k < REF_KINDS; k++) {
            if (k == REF_EXACT && !scan_has_exact_row(m)) continue;
            gelu_target t = k == REF_OWN ? m->target : GELU_TARGET_EXACT;
            add_errors(&w->metrics[i].err[k][d], first, x, B->xf, y, n, &B->ref[t]);
        }
        double x_min = ref_x_min_d(m->target);
        if (!grad) check_monotone(&w->metrics[i].mono, first - prev, B->x, B->y, n + prev, x_min);
        else check_sign(&w->metrics[i].sign, first, x, y, B->ref[m->target].cr, n, x_min);
    }
}

static void *worker_run(void *p)
{
    f64_worker *w = p;
    f64_buffers *B = malloc(sizeof *B);
    if (!B) {
        w->failed = 1;
        return NULL;
    }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (size_t j = 0; j < F64_BLOCK; j++) mpfr_init2(B->ref[t].exact[j], REF_EXACT_PREC);
    uint64_t blocks = (w->count + F64_BLOCK - 1) / F64_BLOCK;
    for (uint64_t b = w->k; b < blocks; b += w->nthreads) {
        uint64_t first = b * F64_BLOCK, end = first + F64_BLOCK < w->count ? first + F64_BLOCK : w->count;
        scan_block(w, B, false, first, end);
        if (w->cfg->grad) scan_block(w, B, true, first, end);
    }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (size_t j = 0; j < F64_BLOCK; j++) mpfr_clear(B->ref[t].exact[j]);
    free(B);
    ref_thread_done();
    return NULL;
}

/* The format's special encodings, each implementation's output against its own target's
 * correctly rounded value, by encoding (counts; the entries hold binary32 values, see
 * accuracy_output.c). */
static void check_specials(const scan_f64_config *cfg, scan_result *r)
{
    uint64_t s[GELU_FORMAT_SPECIAL_COUNT];
    double x[GELU_FORMAT_SPECIAL_COUNT], y[GELU_FORMAT_SPECIAL_COUNT];
    gelu_format_special_encodings(binary64(), s);
    for (size_t k = 0; k < GELU_FORMAT_SPECIAL_COUNT; k++) x[k] = double_from_bits(s[k]);
    for (size_t i = 0; i < cfg->nimpls; i++) {
        const gelu_impl *m = cfg->impls[i];
        for (int d = 0; d < scan_directions(m, cfg->grad); d++) {
            kernel_call_f64(m, d, x, y, GELU_FORMAT_SPECIAL_COUNT);
            impl_extras *e = &r->extras[i];
            for (size_t k = 0; k < GELU_FORMAT_SPECIAL_COUNT; k++) {
                double want = cr64(m->target, d, x[k]);
                if (!same_value(want, y[k]))
                    e->special_failed[d][e->nspecial_failed[d]++] =
                        (special_failure){narrow(x[k]), narrow(want), narrow(y[k])};
            }
        }
    }
}

static int check_config(const scan_f64_config *cfg, const char **error)
{
    for (size_t i = 0; i < cfg->nimpls; i++)
        if (cfg->impls[i]->format != GELU_FORMAT_BINARY64 || !cfg->impls[i]->forward_f64)
            return *error = "an implementation without binary64 kernels", -1;
    if (cfg->n == 0) return *error = "an empty sample", -1;
    return 0;
}

int scan_f64_run(const scan_f64_config *cfg, scan_result *r, const char **error)
{
    if (check_config(cfg, error) != 0) return -1;
    unsigned nthreads = cfg->threads ? cfg->threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (nthreads < 1) nthreads = 1;
    uint64_t *x64 = NULL, count = 0;
    f64_worker *w = calloc(nthreads, sizeof *w);
    pthread_t *tid = calloc(nthreads, sizeof *tid);
    if (!w || !tid || scan_f64_sample(cfg->n, cfg->seed, &x64, &count) != 0 ||
        scan_result_alloc(r, cfg->nimpls) != 0) {
        free(w);
        free(tid);
        free(x64);
        return *error = "out of memory", -1;
    }
    r->x64 = x64;
    r->grad = cfg->grad;
    r->domain = (scan_domain){.kind = DOMAIN_SAMPLE, .n = cfg->n, .seed = cfg->seed};
    r->shard_k = 0;
    r->shard_n = 1;
    r->inputs = count;
    r->has_extras = true;
    bool needed[GELU_TARGET_COUNT] = {false};
    for (size_t i = 0; i < cfg->nimpls; i++) {
        r->impls[i] = cfg->impls[i];
        impl_metrics_init(&r->metrics[i]);
        r->extras[i].consistency_max_rel = NAN; /* not measured (scan_f64.h) */
        needed[cfg->impls[i]->target] = true;
        needed[GELU_TARGET_EXACT] |= scan_has_exact_row(cfg->impls[i]);
    }
    int rc = 0;
    unsigned started = 0;
    for (unsigned k = 0; k < nthreads && rc == 0; k++) {
        w[k] = (f64_worker){.cfg = cfg, .x64 = x64, .count = count, .k = k, .nthreads = nthreads};
        memcpy(w[k].needed, needed, sizeof needed);
        if (!(w[k].metrics = calloc(cfg->nimpls, sizeof *w[k].metrics))) rc = -1;
        for (size_t i = 0; rc == 0 && i < cfg->nimpls; i++) impl_metrics_init(&w[k].metrics[i]);
    }
    for (unsigned k = 0; rc == 0 && k < nthreads; k++) {
        if (k + 1 == nthreads) worker_run(&w[k]); /* the calling thread takes the last share */
        else if (pthread_create(&tid[k], NULL, worker_run, &w[k]) == 0) started++;
        else worker_run(&w[k]);
    }
    for (unsigned k = 0; k < started; k++) pthread_join(tid[k], NULL);
    for (unsigned k = 0; k < nthreads; k++) {
        rc |= w[k].failed ? -1 : 0;
        for (size_t i = 0; w[k].metrics && i < cfg->nimpls; i++)
            impl_metrics_merge(&r->metrics[i], &w[k].metrics[i]);
        free(w[k].metrics);
    }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; needed[t] && d < (cfg->grad ? DIR_COUNT : 1); d++)
            r->refs[t][d] = r->fallbacks[t][d] = count; /* all by MPFR */
    if (rc == 0) check_specials(cfg, r);
    ref_thread_done();
    free(w);
    free(tid);
    if (rc != 0) *error = "out of memory";
    else if ((*error = kernel_calls_failure(cfg->impls, cfg->nimpls))) rc = -1;
    return rc;
}
