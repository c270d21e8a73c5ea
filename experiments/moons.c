/* The make_moons experiment (see moons.h): training, scoring, the inference swap, summaries and
 * the CSV. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "mlp.h"
#include "moons.h"
#include "moons_data.h"

void moons_config_default(moons_config *c)
{
    *c = (moons_config){
        .n_samples = 2000,
        .noise = 0.2,
        .h1 = 32,
        .h2 = 32,
        .epochs = 100,
        .batch = 32,
        .lr = 0.001,
        .first_seed = 1,
        .n_seeds = 10,
    };
}

void moons_config_quick(moons_config *c)
{
    moons_config_default(c);
    c->n_seeds = 3;
    c->epochs = 20;
}

const gelu_impl *moons_pick_reference(void)
{
    const gelu_impl *best = NULL;
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (m->target == GELU_TARGET_EXACT && gelu_impl_available(m) && m->derivative &&
            (!best || m->contract.max_ulp < best->contract.max_ulp))
            best = m;
    }
    return best;
}

/* The index of `m` in e->impls, or e->n_impls. */
static size_t impl_index(const moons_experiment *e, const gelu_impl *m)
{
    size_t i = 0;
    while (i < e->n_impls && e->impls[i] != m)
        i++;
    return i;
}

static void append_missing(moons_experiment *e, const gelu_impl *m)
{
    if (impl_index(e, m) == e->n_impls) e->impls[e->n_impls++] = m;
}

int moons_experiment_init(moons_experiment *e, const moons_config *c, const gelu_impl *const *impls,
                          size_t n)
{
    memset(e, 0, sizeof *e);
    const gelu_impl *reference = moons_pick_reference();
    const gelu_impl *relu = gelu_impl_find("relu");
    e->config = *c;
    e->n_train = c->n_samples * 3 / 5;
    e->n_validation = c->n_samples / 5;
    e->n_test = c->n_samples - e->n_train - e->n_validation;
    if (!reference || c->n_seeds == 0 || c->epochs == 0 || c->batch == 0 || c->h1 == 0 ||
        c->h2 == 0 || e->n_train == 0 || e->n_test == 0 || !(c->noise >= 0.0))
        return MOONS_BAD_CONFIG;
    e->impls = malloc((n + 2) * sizeof *e->impls);
    if (!e->impls) return MOONS_NO_MEMORY;
    for (size_t i = 0; i < n; i++)
        if (impls[i]->derivative) append_missing(e, impls[i]); /* else forward only: untrainable */
    append_missing(e, reference);
    if (relu && gelu_impl_available(relu)) append_missing(e, relu);
    e->reference = impl_index(e, reference);
    e->relu = relu ? impl_index(e, relu) : e->n_impls;
    e->runs = calloc(c->n_seeds * e->n_impls, sizeof *e->runs);
    if (!e->runs) {
        moons_experiment_free(e);
        return MOONS_NO_MEMORY;
    }
    return MOONS_OK;
}

void moons_experiment_free(moons_experiment *e)
{
    free(e->impls);
    free(e->runs);
    memset(e, 0, sizeof *e);
}

const moons_run *moons_run_at(const moons_experiment *e, size_t seed_index, size_t impl_index)
{
    return &e->runs[seed_index * e->n_impls + impl_index];
}

/* Everything one seed's runs share, allocated once per experiment. */
typedef struct {
    mlp net, reference_net;
    mlp_workspace ws;
    adam opt;
    float *grad;
    size_t *order;          /* a permutation of the training rows, redrawn every epoch */
    float *batch_x, *batch_label;
    float *reference_logit; /* the reference network's test logits */
    float *swap_logit;      /* the same network's test logits with another activation */
} trainer;

static void trainer_free(trainer *t)
{
    mlp_free(&t->net);
    mlp_free(&t->reference_net);
    mlp_workspace_free(&t->ws);
    adam_free(&t->opt);
    free(t->grad);
    free(t->order);
    free(t->batch_x);
    free(t->batch_label);
    free(t->reference_logit);
    free(t->swap_logit);
}

static bool trainer_alloc(trainer *t, const moons_experiment *e)
{
    const moons_config *c = &e->config;
    memset(t, 0, sizeof *t);
    bool ok = mlp_alloc(&t->net, c->h1, c->h2) && mlp_alloc(&t->reference_net, c->h1, c->h2) &&
              mlp_workspace_alloc(&t->ws, &t->net, c->batch) &&
              adam_alloc(&t->opt, t->net.n_params, c->lr);
    t->grad = malloc(t->net.n_params * sizeof *t->grad);
    t->order = malloc(e->n_train * sizeof *t->order);
    t->batch_x = malloc(c->batch * MLP_INPUTS * sizeof *t->batch_x);
    t->batch_label = malloc(c->batch * sizeof *t->batch_label);
    t->reference_logit = malloc(e->n_test * sizeof *t->reference_logit);
    t->swap_logit = malloc(e->n_test * sizeof *t->swap_logit);
    if (ok && t->grad && t->order && t->batch_x && t->batch_label && t->reference_logit &&
        t->swap_logit)
        return true;
    trainer_free(t);
    return false;
}

/* Accuracy (logit > 0 means class 1) and mean BCE of `net` on `s`; the logits into `logit`
 * when it is not NULL. */
static void score(const mlp *net, const gelu_impl *act, const moons_set *s, mlp_workspace *ws,
                  double *accuracy, double *loss, float *logit)
{
    size_t right = 0;
    double sum = 0.0;
    for (size_t first = 0; first < s->n; first += ws->max_batch) {
        size_t n = s->n - first < ws->max_batch ? s->n - first : ws->max_batch;
        mlp_forward(net, act, s->x + 2 * first, n, ws);
        for (size_t r = 0; r < n; r++) {
            float y = s->label[first + r], z = ws->logit[r];
            right += (z > 0.0f) == (y > 0.5f);
            sum += bce_with_logit(z, y);
            if (logit) logit[first + r] = z;
        }
    }
    *accuracy = (double)right / (double)s->n;
    *loss = sum / (double)s->n;
}

/* Trains `net` from fresh initial weights for config.epochs epochs of shuffled mini-batches,
 * drawing the initial weights and then each epoch's order from `rng`. */
static void train(const moons_experiment *e, trainer *t, const gelu_impl *act, mlp *net,
                  const moons_set *train_set, gsl_rng *rng)
{
    const moons_config *c = &e->config;
    mlp_init_params(net, rng);
    adam_reset(&t->opt);
    for (size_t i = 0; i < train_set->n; i++)
        t->order[i] = i;
    for (size_t epoch = 0; epoch < c->epochs; epoch++) {
        gsl_ran_shuffle(rng, t->order, train_set->n, sizeof *t->order);
        for (size_t first = 0; first < train_set->n; first += c->batch) {
            size_t n = train_set->n - first < c->batch ? train_set->n - first : c->batch;
            for (size_t r = 0; r < n; r++) {
                size_t row = t->order[first + r];
                t->batch_x[2 * r] = train_set->x[2 * row];
                t->batch_x[2 * r + 1] = train_set->x[2 * row + 1];
                t->batch_label[r] = train_set->label[row];
            }
            mlp_loss_grad(net, act, t->batch_x, t->batch_label, n, &t->ws, t->grad);
            adam_step(&t->opt, net->params, t->grad);
        }
    }
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Trains and scores implementation `i` on one seed's split, starting from a copy of the random
 * stream `start` so that every implementation sees the same numbers. The reference keeps its
 * network and test logits for the inference swap. */
static void run_one(moons_experiment *e, trainer *t, moons_run *r, size_t i, const moons_split *sp,
                    const gsl_rng *start, gsl_rng *work)
{
    const gelu_impl *act = e->impls[i];
    bool is_reference = i == e->reference;
    mlp *net = is_reference ? &t->reference_net : &t->net;
    double t0 = now_seconds(), unused;
    gsl_rng_memcpy(work, start);
    train(e, t, act, net, &sp->train, work);
    score(net, act, &sp->train, &t->ws, &unused, &r->train_loss, NULL);
    score(net, act, &sp->validation, &t->ws, &r->val_acc, &unused, NULL);
    score(net, act, &sp->test, &t->ws, &r->test_acc, &r->test_loss,
          is_reference ? t->reference_logit : NULL);
    r->seconds = now_seconds() - t0;
}

/* The reference's trained network scored on the test part with implementation `i`. */
static void swap_one(const moons_experiment *e, trainer *t, moons_run *r, size_t i,
                     const moons_set *test)
{
    double unused;
    score(&t->reference_net, e->impls[i], test, &t->ws, &r->swap_test_acc, &unused, t->swap_logit);
    r->swap_max_logit_change = 0.0;
    for (size_t k = 0; k < test->n; k++) {
        double change = fabs((double)t->swap_logit[k] - (double)t->reference_logit[k]);
        if (change > r->swap_max_logit_change || isnan(change)) r->swap_max_logit_change = change;
    }
}

/* What the threads of one run share: the next seed to take, the runs done (for progress), the
 * first failure. */
typedef struct {
    moons_experiment *e;
    moons_progress progress;
    void *ctx;
    pthread_mutex_t lock;
    size_t next_seed, done;
    int status;
} seed_pool;

/* Runs seed index s (every implementation) with its own trainer and streams: a seed's numbers
 * depend on nothing another seed does, so the split over threads changes no bit. */
static int run_seed(seed_pool *sp, size_t s, trainer *t, moons_set *all, gsl_rng *start,
                    gsl_rng *work)
{
    moons_experiment *e = sp->e;
    const moons_config *c = &e->config;
    moons_split split;
    gsl_rng_set(start, c->first_seed + s);
    moons_generate(start, c->noise, all);
    if (!moons_split_make(all, e->n_train, e->n_validation, &split)) return MOONS_NO_MEMORY;
    moons_run *runs = e->runs + s * e->n_impls;
    size_t total = c->n_seeds * e->n_impls;
    /* The reference first: the others' swap rows need its network. */
    run_one(e, t, &runs[e->reference], e->reference, &split, start, work);
    for (size_t k = 0; k < e->n_impls; k++) {
        if (k != e->reference) run_one(e, t, &runs[k], k, &split, start, work);
        swap_one(e, t, &runs[k], k, &split.test);
        pthread_mutex_lock(&sp->lock);
        size_t done = ++sp->done;
        if (sp->progress) sp->progress(sp->ctx, done, total);
        pthread_mutex_unlock(&sp->lock);
    }
    moons_split_free(&split);
    return MOONS_OK;
}

/* One thread: seeds taken one at a time until none is left or a thread has failed. */
static void *seed_worker(void *arg)
{
    seed_pool *sp = arg;
    moons_experiment *e = sp->e;
    trainer t;
    moons_set all = {0, NULL, NULL};
    gsl_rng *start = gsl_rng_alloc(gsl_rng_mt19937), *work = gsl_rng_alloc(gsl_rng_mt19937);
    bool ready = trainer_alloc(&t, e);
    int status = ready && start && work && moons_set_alloc(&all, e->config.n_samples)
                     ? MOONS_OK : MOONS_NO_MEMORY;
    for (;;) {
        pthread_mutex_lock(&sp->lock);
        if (status != MOONS_OK && sp->status == MOONS_OK) sp->status = status;
        bool stop = sp->status != MOONS_OK || sp->next_seed == e->config.n_seeds;
        size_t s = sp->next_seed;
        if (!stop) sp->next_seed++;
        pthread_mutex_unlock(&sp->lock);
        if (stop) break;
        status = run_seed(sp, s, &t, &all, start, work);
    }
    moons_set_free(&all);
    gsl_rng_free(start);
    gsl_rng_free(work);
    if (ready) trainer_free(&t);
    return NULL;
}

int moons_experiment_run(moons_experiment *e, unsigned threads, moons_progress progress,
                         void *ctx)
{
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (unsigned)cpus : 1;
    }
    if (threads > e->config.n_seeds) threads = (unsigned)e->config.n_seeds;
    seed_pool sp = {.e = e, .progress = progress, .ctx = ctx, .status = MOONS_OK};
    pthread_mutex_init(&sp.lock, NULL);
    pthread_t *tids = threads > 1 ? malloc((threads - 1) * sizeof *tids) : NULL;
    unsigned started = 0;
    while (tids && started + 1 < threads && pthread_create(&tids[started], NULL, seed_worker, &sp) == 0)
        started++; /* fewer threads than asked (none at all) only cost time */
    seed_worker(&sp);
    for (unsigned k = 0; k < started; k++) pthread_join(tids[k], NULL);
    free(tids);
    pthread_mutex_destroy(&sp.lock);
    return sp.status;
}

/* One field (at byte offset `field`) of implementation i's runs, one value per seed. */
static void column(const moons_experiment *e, size_t i, size_t field, double *out)
{
    for (size_t s = 0; s < e->config.n_seeds; s++)
        memcpy(&out[s], (const char *)moons_run_at(e, s, i) + field, sizeof *out);
}

/* Implementation i against implementation `base` on the metric at byte offset `field`;
 * `v` and `w` are scratch columns of n_seeds. */
static moons_comparison compare(const moons_experiment *e, size_t i, size_t base, size_t field,
                                double *v, double *w)
{
    moons_comparison c = {.ran = base < e->n_impls};
    if (!c.ran) return c;
    size_t n = e->config.n_seeds;
    column(e, i, field, v);
    column(e, base, field, w);
    c.diff = stats_paired(v, w, n, 1);
    c.spread = fmax(stats_mean_sd(v, n, 1).sd, stats_mean_sd(w, n, 1).sd);
    c.beyond = n >= 2 && fabs(c.diff.mean) > c.spread; /* one seed has no spread */
    return c;
}

int moons_summarise(const moons_experiment *e, size_t i, moons_summary *sum)
{
    size_t n = e->config.n_seeds;
    double *v = malloc(2 * n * sizeof *v), *w = v + n;
    if (!v) return MOONS_NO_MEMORY;
    memset(sum, 0, sizeof *sum);
#define MEAN_SD_OF(name) (column(e, i, offsetof(moons_run, name), v), stats_mean_sd(v, n, 1))
    sum->test_acc = MEAN_SD_OF(test_acc);
    sum->test_loss = MEAN_SD_OF(test_loss);
    sum->train_loss = MEAN_SD_OF(train_loss);
    sum->val_acc = MEAN_SD_OF(val_acc);
    sum->seconds = MEAN_SD_OF(seconds);
#undef MEAN_SD_OF
    const size_t fields[MOONS_METRICS] = {offsetof(moons_run, test_acc),
                                          offsetof(moons_run, test_loss)};
    const size_t bases[MOONS_BASELINES] = {e->relu, e->reference};
    for (int m = 0; m < MOONS_METRICS; m++)
        for (int b = 0; b < MOONS_BASELINES; b++)
            sum->vs[m][b] = compare(e, i, bases[b], fields[m], v, w);
    /* The swap: this implementation in the reference's network against the reference itself. */
    column(e, i, offsetof(moons_run, swap_test_acc), v);
    column(e, e->reference, offsetof(moons_run, test_acc), w);
    paired_diff swap = stats_paired(v, w, n, 1);
    sum->swap_acc_change = (mean_sd){swap.mean, swap.sd};
    column(e, i, offsetof(moons_run, swap_max_logit_change), v);
    for (size_t s = 0; s < n; s++)
        if (v[s] > sum->swap_max_logit_change || isnan(v[s])) sum->swap_max_logit_change = v[s];
    free(v);
    return MOONS_OK;
}

size_t moons_comparison_count(const moons_experiment *e)
{
    size_t others = e->n_impls - 1;
    return MOONS_METRICS * ((e->relu < e->n_impls ? others : 0) + others);
}

double moons_threshold(const moons_experiment *e)
{
    size_t n = moons_comparison_count(e);
    return MOONS_ALPHA / (double)(n ? n : 1);
}

bool moons_is_gelu(const gelu_impl *m)
{
    return gelu_target_is_gelu(m->target);
}

moons_tally moons_tally_comparisons(const moons_experiment *e, const moons_summary *sum,
                                    moons_metric m, moons_baseline b, moons_rows rows,
                                    double threshold)
{
    moons_tally t = {0, 0, 0, -1.0, 1.0, 0, 0};
    size_t base = b == MOONS_VS_RELU ? e->relu : e->reference;
    for (size_t i = 0; i < e->n_impls; i++) {
        const moons_comparison *c = &sum[i].vs[m][b];
        bool gelu = moons_is_gelu(e->impls[i]);
        if (i == base || !c->ran || (rows == MOONS_ROWS_GELU && !gelu) ||
            (rows == MOONS_ROWS_NOT_GELU && gelu))
            continue;
        t.n++;
        t.beyond += c->beyond;
        t.significant += c->diff.p < threshold;
        if (fabs(c->diff.mean) > t.max_abs) {
            t.max_abs = fabs(c->diff.mean);
            t.max_abs_impl = i;
        }
        if (c->diff.p < t.min_p || t.n == 1) {
            t.min_p = c->diff.p;
            t.min_p_impl = i;
        }
    }
    return t;
}

int moons_csv_write(const moons_experiment *e, FILE *f)
{
    fprintf(f, "seed,impl,target,train_loss,val_acc,test_acc,test_loss,seconds,swap_test_acc,"
               "swap_max_logit_change\n");
    for (size_t s = 0; s < e->config.n_seeds; s++)
        for (size_t i = 0; i < e->n_impls; i++) {
            const moons_run *r = moons_run_at(e, s, i);
            fprintf(f, "%lu,%s,%s,%.17g,%.17g,%.17g,%.17g,%.6f,%.17g,%.17g\n",
                    e->config.first_seed + s, e->impls[i]->name,
                    gelu_target_name(e->impls[i]->target), r->train_loss, r->val_acc,
                    r->test_acc, r->test_loss, r->seconds, r->swap_test_acc,
                    r->swap_max_logit_change);
        }
    return ferror(f) ? MOONS_IO_ERROR : MOONS_OK;
}

