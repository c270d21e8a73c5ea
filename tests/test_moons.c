/* The make_moons experiment's parts: the network's gradient against central finite
 * differences for every smooth activation (and a planted wrong derivative that the check must
 * catch), the data generator's balance and shape, the paired t test on a worked example, and
 * bitwise determinism of a whole (small) experiment. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <string.h>

#include "mlp.h"
#include "moons.h"
#include "moons_data.h"
#include "stats.h"

enum { GC_ROWS = 8, GC_H1 = 4, GC_H2 = 3 };

/* Central differences of the float network's loss with step h = 2^-6 (the step actually taken
 * is measured as the difference of the two perturbed floats). Error budget per parameter:
 * truncation h²/6·|L'''| ≈ 4e-5·|L'''|, tiny here because |L'''| ≪ 1 on this net; rounding: the
 * loss is a double sum of BCE over binary32 logits good to ~1e-7, so ~1e-7/h ≈ 1e-5 at worst.
 * Measured: every smooth implementation's worst error is < 0.08 of atol 2e-5 + 2e-3·|g| (about
 * 2e-6), so the tolerance has a margin > 10, while the planted Φ-only derivative exceeds it
 * ~100-fold. */
static const double GC_STEP = 0x1p-6, GC_ATOL = 2e-5, GC_RTOL = 2e-3;

/* The largest |fd − backprop| / (atol + rtol·|backprop|) over every parameter: ≤ 1 passes. */
static double gradient_check(const gelu_impl *act, size_t *worst_param)
{
    moons_set s;
    mlp net;
    mlp_workspace ws;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    cr_assert(moons_set_alloc(&s, GC_ROWS) && mlp_alloc(&net, GC_H1, GC_H2) &&
              mlp_workspace_alloc(&ws, &net, GC_ROWS));
    moons_generate(rng, 0.2, &s);
    mlp_init_params(&net, rng);
    float *grad = malloc(net.n_params * sizeof *grad), *scratch = malloc(net.n_params * sizeof *grad);
    mlp_loss_grad(&net, act, s.x, s.label, GC_ROWS, &ws, grad);
    double worst = 0.0;
    for (size_t i = 0; i < net.n_params; i++) {
        float p = net.params[i], up = (float)(p + GC_STEP), down = (float)(p - GC_STEP);
        net.params[i] = up;
        double l_up = mlp_loss_grad(&net, act, s.x, s.label, GC_ROWS, &ws, scratch);
        net.params[i] = down;
        double l_down = mlp_loss_grad(&net, act, s.x, s.label, GC_ROWS, &ws, scratch);
        net.params[i] = p;
        double fd = (l_up - l_down) / ((double)up - (double)down);
        double ratio = fabs(fd - grad[i]) / (GC_ATOL + GC_RTOL * fabs(grad[i]));
        if (ratio > worst) {
            worst = ratio;
            *worst_param = i;
        }
    }
    free(grad);
    free(scratch);
    mlp_workspace_free(&ws);
    mlp_free(&net);
    moons_set_free(&s);
    gsl_rng_free(rng);
    return worst;
}

Test(moons, gradient_matches_finite_differences)
{
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (m->target == GELU_TARGET_RELU) continue; /* kinks: finite differences do not apply */
        if (!gelu_impl_available(m)) {
            /* info, not warn: Criterion 2.4 exits 1 once anything is logged as a warning */
            cr_log_info("%s: skipped, needs CPU features this machine lacks", m->name);
            continue;
        }
        size_t at = 0;
        double worst = gradient_check(m, &at);
        cr_log_info("%s: worst gradient error %.3g of the tolerance, at parameter %zu", m->name,
                    worst, at);
        cr_expect(worst <= 1.0, "%s: gradient error %.3g times the tolerance at parameter %zu",
                  m->name, worst, at);
    }
}

/* The planted defect: GELU's derivative without its x·φ(x) term (Φ(x) alone), a plausible
 * backward-pass bug. */
static void phi_only(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = (float)(0.5 * erfc(-(double)x[i] * 0x1.6a09e667f3bcdp-1));
}

Test(moons, gradient_check_catches_planted_derivative)
{
    const gelu_impl *good = gelu_impl_find("erfc_f64");
    cr_assert(good);
    gelu_impl bad = *good;
    bad.derivative = phi_only;
    size_t at = 0;
    double worst = gradient_check(&bad, &at);
    cr_log_info("planted Φ-only derivative: worst gradient error %.3g of the tolerance", worst);
    cr_expect(worst > 10.0, "the planted derivative passed the gradient check (%.3g)", worst);
}

Test(moons, generator_balance_and_shape_without_noise)
{
    const size_t n = 2001; /* odd: the first class gets the extra point */
    moons_set s;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 1);
    cr_assert(moons_set_alloc(&s, n));
    moons_generate(rng, 0.0, &s);
    size_t ones = 0;
    double worst_radius = 0.0, sum_y[2] = {0.0, 0.0};
    for (size_t i = 0; i < n; i++) {
        bool one = s.label[i] == 1.0f;
        cr_assert(one || s.label[i] == 0.0f, "label %g at %zu", (double)s.label[i], i);
        ones += one;
        double cx = one ? 1.0 : 0.0, cy = one ? 0.5 : 0.0;
        double r = hypot(s.x[2 * i] - cx, s.x[2 * i + 1] - cy);
        worst_radius = fmax(worst_radius, fabs(r - 1.0));
        sum_y[one] += s.x[2 * i + 1] - cy;
    }
    cr_expect_eq(ones, n / 2, "class 1 has %zu of %zu points", ones, n);
    cr_expect(worst_radius < 1e-6, "a point is %.3g off its unit half circle", worst_radius);
    /* The upper arc lies above its centre, the lower below: mean of sin t over [0, π] = 2/π. */
    const double two_over_pi = 0x1.45f306dc9c883p-1;
    cr_expect(fabs(sum_y[0] / (double)(n - n / 2) - two_over_pi) < 1e-3, "upper arc mean %g",
              sum_y[0] / (double)(n - n / 2));
    cr_expect(fabs(sum_y[1] / (double)(n / 2) + two_over_pi) < 1e-3, "lower arc mean %g",
              sum_y[1] / (double)(n / 2));
    moons_set_free(&s);
    gsl_rng_free(rng);
}

Test(moons, generator_noise_has_the_requested_sd)
{
    const size_t n = 20000;
    moons_set clean, noisy;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cr_assert(moons_set_alloc(&clean, n) && moons_set_alloc(&noisy, n));
    gsl_rng_set(rng, 3);
    moons_generate(rng, 0.0, &clean);
    gsl_rng_set(rng, 3);
    moons_generate(rng, 0.2, &noisy);
    /* Same seed, same draws: the shuffles agree, so the difference is the noise alone. */
    double ss = 0.0;
    for (size_t i = 0; i < 2 * n; i++)
        ss += (noisy.x[i] - clean.x[i]) * (noisy.x[i] - clean.x[i]);
    double sd = sqrt(ss / (double)(2 * n));
    cr_expect(fabs(sd - 0.2) < 0.005, "noise sd %g, wanted 0.2", sd); /* 0.005 ≈ 5 standard errors */
    moons_set_free(&clean);
    moons_set_free(&noisy);
    gsl_rng_free(rng);
}

Test(moons, paired_t_on_a_worked_example)
{
    /* d = 1, 2, 3, 4: mean 2.5, sd √(5/3), t = 2.5/(sd/2) = 3.8730, two-sided p with 3 df
     * = 0.030466 (t table; Student's t CDF in closed form for 3 df). */
    const double a[] = {1, 2, 3, 4}, b[] = {0, 0, 0, 0};
    paired_diff d = stats_paired(a, b, 4, 1);
    cr_expect(fabs(d.mean - 2.5) < 1e-12 && fabs(d.sd - sqrt(5.0 / 3.0)) < 1e-12);
    cr_expect(fabs(d.t - 3.872983346207417) < 1e-9, "t = %.17g", d.t);
    cr_expect(fabs(d.p - 0.030466) < 2e-6, "p = %.9g", d.p);
    paired_diff same = stats_paired(a, a, 4, 1);
    cr_expect(same.t == 0.0 && same.p == 1.0);
}

Test(moons, adam_first_steps_are_bias_corrected)
{
    /* With bias correction m̂/√v̂ = g/|g| at step 1 and for a constant gradient ever after, so
     * each step moves by lr (up to ε); without it the first step would be lr·0.1/√0.001 ≈
     * 3.16·lr. */
    adam opt;
    float p = 0.0f, g = 0.25f; /* near 0, float spacing (~1e-10) is far below the 1e-8 tolerance */
    cr_assert(adam_alloc(&opt, 1, 1e-3));
    for (int step = 1; step <= 3; step++) {
        float before = p;
        adam_step(&opt, &p, &g);
        cr_expect(fabs((double)(before - p) - 1e-3) < 1e-8, "step %d moved by %.9g, not 1e-3",
                  step, (double)(before - p));
    }
    adam_free(&opt);
}

/* A whole experiment small enough for the quick tier: `seeds` seeds from first_seed on
 * `threads` threads. */
static void run_seeds(unsigned long first_seed, size_t seeds, unsigned threads,
                      moons_experiment *e, moons_progress progress, void *ctx)
{
    moons_config c;
    moons_config_quick(&c);
    c.n_samples = 200;
    c.n_seeds = seeds;
    c.epochs = 3;
    c.first_seed = first_seed;
    const gelu_impl *impls[] = {gelu_impl_find("erf_naive"), gelu_impl_find("silu")};
    cr_assert(moons_experiment_init(e, &c, impls, 2) == MOONS_OK);
    cr_assert(moons_experiment_run(e, threads, progress, ctx) == MOONS_OK);
}

static void run_small(unsigned long first_seed, moons_experiment *e)
{
    run_seeds(first_seed, 2, 1, e, NULL, NULL);
}

typedef struct {
    size_t calls, last_done, total;
    bool in_order;
} progress_log;

static void log_progress(void *ctx, size_t done, size_t total)
{
    progress_log *p = ctx;
    p->in_order &= done == p->last_done + 1;
    p->last_done = done;
    p->total = total;
    p->calls++;
}

/* Every result but the wall time, bitwise. */
static bool same_results(const moons_experiment *a, const moons_experiment *b)
{
    for (size_t k = 0; k < a->config.n_seeds * a->n_impls; k++) {
        moons_run x = a->runs[k], y = b->runs[k];
        x.seconds = y.seconds = 0.0;
        if (memcmp(&x, &y, sizeof x) != 0) return false;
    }
    return true;
}

Test(moons, same_seed_same_numbers)
{
    moons_experiment a, b, other;
    run_small(5, &a);
    run_small(5, &b);
    run_small(6, &other);
    cr_expect_eq(a.n_impls, 4, "erf_naive, silu, the reference and relu: %zu", a.n_impls);
    cr_expect(same_results(&a, &b), "two runs with the same seeds differ");
    cr_expect(!same_results(&a, &other), "other seeds gave the same numbers: the check is blind");
    for (size_t s = 0; s < a.config.n_seeds; s++) {
        const moons_run *r = moons_run_at(&a, s, a.reference);
        cr_expect(r->swap_max_logit_change == 0.0 && r->swap_test_acc == r->test_acc,
                  "the reference swapped for itself changed: %g", r->swap_max_logit_change);
    }
    moons_experiment_free(&a);
    moons_experiment_free(&b);
    moons_experiment_free(&other);
}

/* Seeds shared out between threads: every run's numbers as on one thread, whatever the number
 * of threads (more threads than seeds too), and progress counted once per run, in order. */
Test(moons, threads_change_no_result)
{
    moons_experiment one, two, many;
    progress_log log = {0, 0, 0, true};
    run_seeds(3, 5, 1, &one, NULL, NULL);
    run_seeds(3, 5, 2, &two, log_progress, &log);
    run_seeds(3, 5, 9, &many, NULL, NULL);
    cr_expect(same_results(&one, &two), "2 threads changed the results");
    cr_expect(same_results(&one, &many), "9 threads (5 seeds) changed the results");
    cr_expect(log.calls == 5 * one.n_impls && log.total == 5 * one.n_impls && log.in_order,
              "progress: %zu calls, total %zu, in order %d", log.calls, log.total, log.in_order);
    /* each seed's rows are its own: seed 1 differs from seed 0 (else the comparison is blind) */
    const moons_run *r0 = moons_run_at(&one, 0, 0), *r1 = moons_run_at(&one, 1, 0);
    cr_expect(r0->train_loss != r1->train_loss, "two seeds gave the same training loss");
    moons_experiment_free(&one);
    moons_experiment_free(&two);
    moons_experiment_free(&many);
}
