/* The scan's threads and the run (scan_run): workers claiming groups of blocks, the probe
 * groups first, whose near-tie floors seed the others' (seed_floors); the implementations that
 * take batches run once per group (run_group_kernels); per-thread results merged in a fixed
 * order; once per run, in shard 0, the special values and the derivative's consistency with
 * the forward (central differences, GSL). */
#include "scan_internal.h"

#include <gsl/gsl_deriv.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sample.h"

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

/* The kernels of the implementations that take batches, once over blocks [b, e) (and the input
 * before b's first one, as run_block gives it): the outputs run_impl then reads block by block. */
static void run_group_kernels(scan_worker *w, uint64_t b, uint64_t e)
{
    const domain_view *dom = w->sh->dom;
    uint64_t first = b * SCAN_BLOCK, end = e * SCAN_BLOCK < dom->size ? e * SCAN_BLOCK : dom->size;
    w->gseq = first > 0 ? first - 1 : 0;
    size_t m = (size_t)(end - w->gseq);
    double t0 = w->profiling ? now_s() : 0;
    domain_inputs(dom, w->gseq, m, w->gx);
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

/* Whether a call of any row has failed so far: its outputs, and the run, mean nothing. */
static bool calls_failed(const scan_config *cfg)
{
    return kernel_calls_failure(cfg->impls, cfg->nimpls) != NULL;
}

static void *worker_main(void *arg)
{
    scan_worker *w = arg;
    scan_shared *sh = w->sh;
    uint64_t g = sh->group_blocks;
    for (;;) {
        /* a failed call stops the claims; the groups claimed (the probes among them, which a
         * worker past them waits for) are finished */
        if (atomic_load(&sh->calls_failed)) break;
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
        if (calls_failed(sh->cfg)) atomic_store(&sh->calls_failed, true);
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
    free(w->tap);
    free(w->differ);
}

static void worker_free(scan_worker *w);

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
    if (ok && sh->cfg->same_as) /* rows compared output by output (compare_block) */
        ok = (w->tap = malloc(nimpls * DIR_COUNT * SCAN_BLOCK * sizeof *w->tap)) &&
             (w->differ = calloc(nimpls, sizeof *w->differ));
    if (!ok) {
        worker_free(w);
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
    if (!cfg->same_as != !cfg->differ) {
        *error = "same_as and differ go together";
        return -1;
    }
    for (size_t i = 0; cfg->same_as && i < cfg->nimpls; i++)
        if (cfg->same_as[i] >= (int)cfg->nimpls || cfg->same_as[i] == (int)i || cfg->same_as[i] < -1) {
            *error = "same_as names no other row of the scan";
            return -1;
        }
    for (size_t i = 0; cfg->same_as && i < cfg->nimpls; i++)
        for (int d = 0; d < DIR_COUNT; d++) cfg->differ[i][d] = 0;
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
    atomic_init(&sh.calls_failed, false);
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
     * 216 KB per implementation with the x buckets' near-tie lists: 1024 threads on a 100-input
     * sample would take gigabytes) */
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
        for (size_t i = 0; cfg->same_as && i < cfg->nimpls; i++)
            for (int d = 0; d < DIR_COUNT; d++) cfg->differ[i][d] += w[k]->differ[i][d];
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
    return (*error = kernel_calls_failure(cfg->impls, cfg->nimpls)) ? -1 : 0;
}
