/* gelucheck moons: the make_moons experiment (experiments/moons.h) — one small MLP per
 * activation implementation, trained over several seeds; prints mean ± sd of test accuracy and
 * loss, paired comparisons against ReLU and the reference GELU, the inference swap, and a
 * closing note with the numbers. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "moons.h"

static void print_help(void)
{
    moons_config d;
    moons_config_default(&d);
    printf("usage: gelucheck moons [--seeds N] [--first-seed S] [--epochs N] [--samples N]\n"
           "                       [--noise X] [--impl NAME]... [--quick] [--threads N]\n"
           "                       [--csv FILE]\n\n"
           "Trains the same small network on make_moons once per activation implementation and\n"
           "seed, and asks whether the activation (or the GELU implementation) changes what it\n"
           "learns beyond the seed-to-seed spread.\n\n"
           "Data: two interleaving half circles of radius 1, about (0, 0) and (1, 0.5), with\n"
           "Gaussian noise on each coordinate; 50/50 classes; split 60/20/20 into train,\n"
           "validation and test parts. The test part is scored once, after training.\n"
           "Network: 2 -> %zu -> %zu -> 1, the activation after both hidden layers (its forward\n"
           "kernel forward, its derivative kernel backward), binary cross-entropy on the logit,\n"
           "Adam (lr %g, beta1 0.9, beta2 0.999, eps 1e-8), mini-batches of %zu, weights\n"
           "uniform in +-1/sqrt(fan_in). Every implementation of one seed starts from the same\n"
           "weights and sees the same data and batch order, so seeds pair the comparisons.\n\n"
           "Options:\n"
           "  --seeds N       seeds to repeat over (default %zu)\n"
           "  --first-seed S  the first seed, S >= 1; seeds are S, S+1, ... (default %lu; GSL's\n"
           "                  MT19937 would take seed 0 as its default seed 4357)\n"
           "  --epochs N      training epochs (default %zu)\n"
           "  --samples N     points generated per seed, at least 10 (default %zu)\n"
           "  --noise X       sd of the Gaussian noise, X >= 0 (default %g)\n"
           "  --impl NAME     run only NAME (repeatable); ReLU and the reference GELU always\n"
           "                  run, as the baselines of the comparisons (default: every\n"
           "                  implementation this CPU can run; others are skipped with a note)\n"
           "  --quick         3 seeds of 20 epochs (explicit --seeds/--epochs still win)\n"
           "  --threads N     run the seeds on N threads, a whole seed each at a time (default:\n"
           "                  all online CPUs; 1 to 1024); the results do not depend on N\n"
           "  --csv FILE      also write one row per seed and implementation to FILE:\n"
           "                  seed,impl,target,train_loss,val_acc,test_acc,test_loss,seconds,\n"
           "                  swap_test_acc,swap_max_logit_change\n\n"
           "The reference GELU is the available implementation of the exact target with the\n"
           "smallest declared ULP bound (erfc_f64 today). Paired tests: Student's t over the\n"
           "seeds' differences, significant at %g after Bonferroni over the comparisons shown.\n"
           "Results are the same bit for bit for the same options; only times vary. Progress\n"
           "goes to stderr when it is a terminal.\n\n"
           "Exit status: 0 done; 1 a chosen implementation needs CPU features this machine\n"
           "lacks, or FILE could not be written (nothing half-written is left); 2 bad usage.\n",
           d.h1, d.h2, d.lr, d.batch, d.n_seeds, d.first_seed, d.epochs, d.n_samples, d.noise,
           MOONS_ALPHA);
}

typedef struct {
    moons_config config;
    const gelu_impl **chosen; /* --impl names, in order given */
    size_t n_chosen;
    const char *csv;
    unsigned long threads; /* 0: all online CPUs */
} moons_args;

/* A count option: `--name VALUE` into *out within [min, max]. Same return as option_value. */
static int count_option(int argc, char **argv, int *i, const char *name, unsigned long min,
                        unsigned long max, unsigned long *out, bool *given)
{
    const char *v, *why;
    int got = option_value("moons", argc, argv, i, name, &v);
    if (got <= 0) return got;
    if (!parse_count(v, min, max, out, &why)) {
        usage_error("moons", "bad %s '%s': %s (%lu to %lu)", name, v, why, min, max);
        return -1;
    }
    if (given) *given = true;
    return 1;
}

/* EXIT_OK with *a filled, EXIT_USAGE (message printed), or -1 for --help (printed). */
static int parse_args(int argc, char **argv, moons_args *a)
{
    unsigned long seeds = 0, epochs = 0, samples, first;
    bool quick = false, seeds_given = false, epochs_given = false;
    moons_config_default(&a->config);
    samples = a->config.n_samples;
    first = a->config.first_seed;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int got;
        if (is_help(argv[i])) {
            print_help();
            return -1;
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if ((got = count_option(argc, argv, &i, "--seeds", 1, 100000, &seeds,
                                       &seeds_given)) ||
                   (got = count_option(argc, argv, &i, "--epochs", 1, 100000, &epochs,
                                       &epochs_given)) ||
                   (got = count_option(argc, argv, &i, "--samples", 10, 10000000, &samples,
                                       NULL)) ||
                   (got = count_option(argc, argv, &i, "--first-seed", 1, ULONG_MAX - 100000,
                                       &first, NULL)) ||
                   (got = count_option(argc, argv, &i, "--threads", 1, 1024, &a->threads,
                                       NULL))) {
            if (got < 0) return EXIT_USAGE;
        } else if ((got = option_value("moons", argc, argv, &i, "--noise", &v))) {
            float x;
            const char *why = "must be finite and >= 0";
            if (got < 0) return EXIT_USAGE;
            if (!parse_float(v, &x, &why) || !(x >= 0.0f) || isinf(x))
                return usage_error("moons", "bad --noise '%s': %s", v, why);
            a->config.noise = x;
        } else if ((got = option_value("moons", argc, argv, &i, "--impl", &v))) {
            const gelu_impl *m;
            if (got < 0) return EXIT_USAGE;
            if (!(m = gelu_impl_find(v)))
                return usage_error("moons", "unknown --impl '%s' (see 'gelucheck list')", v);
            for (size_t k = 0; k < a->n_chosen; k++)
                if (a->chosen[k] == m) return usage_error("moons", "--impl '%s' is given twice", v);
            a->chosen[a->n_chosen++] = m;
        } else if ((got = option_value("moons", argc, argv, &i, "--csv", &v))) {
            if (got < 0) return EXIT_USAGE;
            a->csv = v;
        } else {
            return usage_error("moons", "unknown argument '%s'", argv[i]);
        }
    }
    if (quick) {
        moons_config q;
        moons_config_quick(&q);
        a->config.n_seeds = q.n_seeds;
        a->config.epochs = q.epochs;
    }
    if (seeds_given) a->config.n_seeds = seeds;
    if (epochs_given) a->config.epochs = epochs;
    a->config.n_samples = samples;
    a->config.first_seed = first;
    return EXIT_OK;
}

/* Leaves out the forward-only implementations (training needs a derivative), naming them in
 * `forward_only` for a note. */
static void drop_forward_only(moons_args *a, char *forward_only, size_t size)
{
    size_t kept = 0;
    forward_only[0] = '\0';
    for (size_t k = 0; k < a->n_chosen; k++) {
        size_t used = strlen(forward_only);
        if (a->chosen[k]->derivative) a->chosen[kept++] = a->chosen[k];
        else snprintf(forward_only + used, size - used, "%s%s", used ? ", " : "", a->chosen[k]->name);
    }
    a->n_chosen = kept;
}

/* The implementations to run: the chosen ones, or every available one; the unavailable ones
 * are named in `skipped` for a note, the forward-only ones in `forward_only`. False (message
 * printed) when a chosen one is unavailable. */
static bool select_impls(moons_args *a, char *skipped, char *forward_only, size_t size)
{
    skipped[0] = '\0';
    for (size_t k = 0; k < a->n_chosen; k++)
        if (!gelu_impl_available(a->chosen[k])) {
            fprintf(stderr, "gelucheck moons: '%s' needs CPU features this machine lacks\n",
                    a->chosen[k]->name);
            return false;
        }
    for (size_t i = 0; a->n_chosen == 0 && i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        size_t used = strlen(skipped);
        if (!gelu_impl_available(m))
            snprintf(skipped + used, size - used, "%s%s", used ? ", " : "", m->name);
    }
    /* By default, as the scan: every available one but the threaded benchmark rows (their
     * kernels are their single-threaded twins', and their thread pools would fight the run's). */
    if (a->n_chosen == 0)
        for (size_t i = 0; i < gelu_impl_count(); i++) {
            const gelu_impl *m = gelu_impl_at(i);
            if (gelu_impl_available(m) && !m->own_threads) a->chosen[a->n_chosen++] = m;
        }
    drop_forward_only(a, forward_only, size);
    return true;
}

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void show_progress(void *ctx, size_t done, size_t total)
{
    fprintf(stderr, "\rgelucheck moons: %zu/%zu runs, %.0f s", done, total,
            monotonic_seconds() - *(const double *)ctx);
    if (done == total) fputc('\n', stderr);
}

static void print_results(const moons_experiment *e, const moons_summary *sum)
{
    const moons_config *c = &e->config;
    printf("make_moons: %zu points per seed (%zu train / %zu validation / %zu test), noise %g\n"
           "MLP 2-%zu-%zu-1, BCE, Adam lr %g (0.9, 0.999, 1e-8), batch %zu, %zu epochs; "
           "%zu seeds (%lu to %lu)\n\n",
           c->n_samples, e->n_train, e->n_validation, e->n_test, c->noise, c->h1, c->h2, c->lr,
           c->batch, c->epochs, c->n_seeds, c->first_seed,
           c->first_seed + (unsigned long)c->n_seeds - 1);
    /* Literal headers: "±" is two bytes, which printf's widths would count. */
    printf("impl           target   test acc (± sd)   test loss         final train loss  "
           "val acc s/seed\n");
    for (size_t i = 0; i < e->n_impls; i++) {
        const moons_summary *s = &sum[i];
        printf("%-14s %-8s %.4f ± %.4f   %.4f ± %.4f   %.4f ± %.4f   %.4f  %.2f\n",
               e->impls[i]->name, gelu_target_name(e->impls[i]->target), s->test_acc.mean,
               s->test_acc.sd, s->test_loss.mean, s->test_loss.sd, s->train_loss.mean,
               s->train_loss.sd, s->val_acc.mean, s->seconds.mean);
    }
}

static const char *const metric_names[MOONS_METRICS] = {"test acc", "test loss"};

/* Δ, its sd, t, p, whether |Δ| is beyond the seed-to-seed spread, whether p < alpha; "same"
 * when every seed gave identical values. Accuracy in fixed point, loss in exponent form (the
 * GELU implementations differ in it by ~1e-5). */
static void print_paired(const moons_comparison *c, moons_metric m, double alpha)
{
    const paired_diff *d = &c->diff;
    if (m == MOONS_TEST_ACC) printf(" %+8.4f %7.4f", d->mean, d->sd);
    else printf(" %+8.1e %7.1e", d->mean, d->sd);
    if (d->n < 2)
        printf(" %7s %8s %-7s %-4s", "-", "-", "-", "-"); /* one seed: no spread, no test */
    else if (d->mean == 0.0 && d->sd == 0.0)
        printf(" %7s %8s %-7s %-4s", "-", "-", "same", "no");
    else
        printf(" %7.2f %8.2g %-7s %-4s", d->t, d->p, c->beyond ? "yes" : "no",
               d->p < alpha ? "yes" : "no");
}

static void print_paired_table(const moons_experiment *e, const moons_summary *sum,
                               moons_metric m, double alpha)
{
    bool relu_ran = e->relu < e->n_impls;
    printf("\n%s paired over seeds: Δ = row − baseline; beyond = |mean Δ| > the larger\n"
           "seed-to-seed sd of the two; sig = p < %.2g (%.2g over %zu comparisons, Bonferroni)\n",
           m == MOONS_TEST_ACC ? "Test accuracy" : "Test loss", alpha, MOONS_ALPHA,
           moons_comparison_count(e));
    printf("%-14s %-46s %s %s\n", "", relu_ran ? "vs relu" : "(relu not run)",
           "vs the reference,", e->impls[e->reference]->name);
    printf("%-14s", "impl");
    for (int b = 0; b < MOONS_BASELINES; b++)
        printf("   mean Δ    sd Δ       t        p beyond  sig "); /* "Δ": 2 bytes, 1 column */
    printf("\n");
    for (size_t i = 0; i < e->n_impls; i++) {
        printf("%-14s", e->impls[i]->name);
        for (int b = 0; b < MOONS_BASELINES; b++) {
            if (sum[i].vs[m][b].ran) print_paired(&sum[i].vs[m][b], m, alpha);
            else printf(" %-46s", "");
        }
        printf("\n");
    }
}

static void print_swap_table(const moons_experiment *e, const moons_summary *sum)
{
    printf("\nInference swap: each seed's network trained with %s, scored on the test part with\n"
           "the row's implementation in place of its activation\n",
           e->impls[e->reference]->name);
    printf("impl           target   Δ test acc (± sd)   max |Δ logit|\n");
    for (size_t i = 0; i < e->n_impls; i++)
        printf("%-14s %-8s %+.4f ± %.4f    %.3g\n", e->impls[i]->name,
               gelu_target_name(e->impls[i]->target), sum[i].swap_acc_change.mean,
               sum[i].swap_acc_change.sd, sum[i].swap_max_logit_change);
}

/* One line per metric of the tally of `rows` against baseline b; adds to the totals of
 * comparisons, those beyond the spread and those significant. */
static void print_tallies(const moons_experiment *e, const moons_summary *sum, const char *what,
                          moons_baseline b, moons_rows rows, double alpha, size_t totals[3])
{
    for (int m = 0; m < MOONS_METRICS; m++) {
        moons_tally t = moons_tally_comparisons(e, sum, (moons_metric)m, b, rows, alpha);
        if (t.n == 0) continue;
        printf("- %s, %s: largest |mean Δ| %.2g (%s);\n"
               "  %zu of %zu beyond the seed-to-seed spread, %zu significant.\n",
               what, metric_names[m], t.max_abs, e->impls[t.max_abs_impl]->name, t.beyond, t.n,
               t.significant);
        totals[0] += t.n;
        totals[1] += t.beyond;
        totals[2] += t.significant;
    }
}

static void print_note(const moons_experiment *e, const moons_summary *sum, double alpha,
                       double wall, const char *skipped, const char *forward_only)
{
    const char *ref = e->impls[e->reference]->name;
    char what[128];
    printf("\nNote: %zu runs in %.1f s wall on this machine (times vary with load; results do "
           "not).\n", e->config.n_seeds * e->n_impls, wall);
    size_t totals[3] = {0, 0, 0};
    print_tallies(e, sum, "every activation vs relu", MOONS_VS_RELU, MOONS_ROWS_ALL, alpha, totals);
    snprintf(what, sizeof what, "GELU implementations vs %s", ref);
    print_tallies(e, sum, what, MOONS_VS_REFERENCE, MOONS_ROWS_GELU, alpha, totals);
    double logit = 0.0, acc = 0.0;
    size_t arg = e->reference;
    for (size_t i = 0; i < e->n_impls; i++) {
        if (i == e->reference || !moons_is_gelu(e->impls[i])) continue;
        acc = fmax(acc, fabs(sum[i].swap_acc_change.mean));
        if (sum[i].swap_max_logit_change >= logit) {
            logit = sum[i].swap_max_logit_change;
            arg = i;
        }
    }
    printf("- inference swap into the %s networks: the other GELU implementations change a\n"
           "  test logit by at most %.3g (%s) and the mean test accuracy by at most %.4f",
           ref, logit, e->impls[arg]->name, acc);
    for (size_t i = 0; i < e->n_impls; i++)
        if (!moons_is_gelu(e->impls[i]))
            printf(";\n  %s in its place: %+.4f", e->impls[i]->name, sum[i].swap_acc_change.mean);
    printf(".\n");
    if (skipped[0]) printf("- skipped (CPU features missing): %s.\n", skipped);
    if (forward_only[0])
        printf("- left out (forward only: no derivative to train through): %s.\n", forward_only);
    if (e->config.n_seeds < 2)
        printf("- verdict: none with one seed (no seed-to-seed spread to compare against);\n"
               "  use --seeds 2 or more.\n");
    else if (totals[1] == 0 && totals[2] == 0)
        printf("- verdict: no difference in test accuracy or loss, between activations or between\n"
               "  GELU implementations, exceeds the seed-to-seed spread or is significant: here the\n"
               "  seed matters more than the activation. Swapping the activation of a trained\n"
               "  network is another matter (the swap table).\n");
    else
        printf("- verdict: %zu of %zu differences exceed the seed-to-seed spread and %zu are\n"
               "  significant (see the paired tables).\n", totals[1], totals[0], totals[2]);
}

static int write_csv(FILE *f, void *e) { return moons_csv_write(e, f) == MOONS_OK ? 0 : -1; }

int cmd_moons(int argc, char **argv)
{
    moons_args a = {.chosen = malloc(((size_t)argc + gelu_impl_count()) * sizeof *a.chosen)};
    if (!a.chosen) return EXIT_CHECK_FAILED;
    int status = parse_args(argc, argv, &a);
    char skipped[512], forward_only[512];
    if (status == EXIT_OK && !select_impls(&a, skipped, forward_only, sizeof skipped))
        status = EXIT_CHECK_FAILED;
    if (status != EXIT_OK) {
        free(a.chosen);
        return status < 0 ? EXIT_OK : status;
    }
    if (a.csv && probe_output("moons", a.csv) != EXIT_OK) {
        free(a.chosen);
        return EXIT_CHECK_FAILED;
    }
    moons_experiment e;
    int r = moons_experiment_init(&e, &a.config, a.chosen, a.n_chosen);
    free(a.chosen);
    if (r != MOONS_OK) {
        fprintf(stderr, "gelucheck moons: %s\n", r == MOONS_NO_MEMORY ? "out of memory"
                : "cannot run: no available implementation of the exact GELU to serve as reference");
        return EXIT_CHECK_FAILED;
    }
    double t0 = monotonic_seconds();
    r = moons_experiment_run(&e, (unsigned)a.threads, isatty(STDERR_FILENO) ? show_progress : NULL,
                             &t0);
    double wall = monotonic_seconds() - t0;
    bool exec_failed = exec_failure_status("moons") != EXIT_OK;
    moons_summary *sum = calloc(e.n_impls, sizeof *sum);
    for (size_t i = 0; r == MOONS_OK && sum && i < e.n_impls; i++)
        r = moons_summarise(&e, i, &sum[i]);
    if (exec_failed) {
        status = EXIT_CHECK_FAILED;
    } else if (r != MOONS_OK || !sum) {
        fprintf(stderr, "gelucheck moons: out of memory\n");
        status = EXIT_CHECK_FAILED;
    } else {
        double alpha = moons_threshold(&e);
        print_results(&e, sum);
        for (int m = 0; m < MOONS_METRICS; m++)
            print_paired_table(&e, sum, (moons_metric)m, alpha);
        print_swap_table(&e, sum);
        print_note(&e, sum, alpha, wall, skipped, forward_only);
        if (a.csv) status = write_output("moons", a.csv, write_csv, &e);
    }
    free(sum);
    moons_experiment_free(&e);
    return status;
}

const gelucheck_command command_moons = {"moons", cmd_moons,
                                         "train a small MLP on make_moons with each activation, over seeds",
                                         impl_repeats, false};
