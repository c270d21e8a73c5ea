/* The make_moons experiment: does the activation, or the implementation of GELU, change what a
 * small network learns?
 *
 * For each seed: generate the two-moons data (moons_data.h), split it into train, validation and
 * test parts, then train one MLP (mlp.h) per activation implementation from the same initial
 * weights with the same batch order; every implementation sees the same random numbers, so the
 * runs of one seed differ only by the activation's code (a paired design). After training, each
 * network is scored once on the test part. Then the inference swap: the network trained with the
 * reference GELU is evaluated on the test part with every other implementation in its place.
 *
 * Deterministic: one GSL MT19937 stream per seed, and each seed's runs on one thread (seeds are
 * shared out between threads: the results do not depend on their number); only the wall times
 * vary. */
#ifndef GELUCHECK_MOONS_H
#define GELUCHECK_MOONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gelu_impl.h"
#include "stats.h"

typedef struct {
    size_t n_samples;            /* points generated per seed */
    double noise;                /* sd of the Gaussian noise on each coordinate */
    size_t h1, h2;               /* hidden widths */
    size_t epochs, batch;
    double lr;                   /* Adam's step size */
    unsigned long first_seed;
    size_t n_seeds;              /* seeds first_seed, first_seed + 1, … */
} moons_config;

/* What one (seed, implementation) run measured. */
typedef struct {
    double train_loss;      /* mean BCE over the training part after the last epoch */
    double val_acc;         /* accuracy on the validation part after the last epoch */
    double test_acc, test_loss;
    double seconds;         /* wall time of training and scoring (not deterministic) */
    /* The reference's network of this seed with this implementation in place of its
     * activation: test accuracy and the largest |logit change| over the test part. */
    double swap_test_acc, swap_max_logit_change;
} moons_run;

typedef struct {
    moons_config config;
    size_t n_impls;
    const gelu_impl **impls;  /* the implementations run, in table order */
    size_t n_train, n_validation, n_test; /* 60 %, 20 %, the rest (20 %) of n_samples */
    size_t reference;         /* index in impls of the reference GELU (the inference swap) */
    size_t relu;              /* index in impls of ReLU, or n_impls when not run */
    moons_run *runs;          /* runs[seed_index * n_impls + impl_index] */
} moons_experiment;

/* What the paired comparisons compare, and against which baseline. */
typedef enum { MOONS_TEST_ACC, MOONS_TEST_LOSS, MOONS_METRICS } moons_metric;
typedef enum { MOONS_VS_RELU, MOONS_VS_REFERENCE, MOONS_BASELINES } moons_baseline;

/* One implementation against a baseline over the seeds, on one metric. */
typedef struct {
    bool ran;          /* false when the baseline did not run (ReLU left out) */
    paired_diff diff;  /* this − baseline */
    double spread;     /* the larger of the two implementations' seed-to-seed sds */
    bool beyond;       /* |diff.mean| > spread, with ≥ 2 seeds: beyond the seed-to-seed spread */
} moons_comparison;

/* Over seeds, for one implementation. */
typedef struct {
    mean_sd test_acc, test_loss, train_loss, val_acc, seconds;
    moons_comparison vs[MOONS_METRICS][MOONS_BASELINES];
    mean_sd swap_acc_change;                    /* swapped accuracy − reference's accuracy */
    double swap_max_logit_change;               /* the largest over every seed */
} moons_summary;

enum { MOONS_OK = 0, MOONS_NO_MEMORY, MOONS_BAD_CONFIG, MOONS_IO_ERROR };

/* The defaults: 2,000 samples, noise 0.2, 60/20/20 split, 2 → 32 → 32 → 1, batch 32,
 * 100 epochs, lr 0.001, seeds 1 to 10. */
void moons_config_default(moons_config *c);
/* A configuration for tests and smoke runs: 3 seeds of 20 epochs. */
void moons_config_quick(moons_config *c);

/* The reference GELU: among the available implementations whose target is exact, the one with
 * the smallest declared forward ULP bound (the first in registry order on a tie); NULL when there
 * is none. */
const gelu_impl *moons_pick_reference(void);

/* Sets up `e` to run `impls` (n of them, all available, distinct) but the forward-only ones
 * (no derivative kernel: nothing to train through); the reference and ReLU are appended when
 * missing. MOONS_BAD_CONFIG when the configuration cannot run (no reference,
 * counts that do not fit). */
int moons_experiment_init(moons_experiment *e, const moons_config *c, const gelu_impl *const *impls,
                          size_t n);
void moons_experiment_free(moons_experiment *e);

/* Called after each run; `done` of `total` runs finished. */
typedef void (*moons_progress)(void *ctx, size_t done, size_t total);

/* Runs every seed and implementation on `threads` threads (0: one per online CPU; never more
 * than the seeds), each taking a whole seed at a time; the same results bit for bit whatever
 * their number. progress is called under a lock, from any of them. MOONS_OK or
 * MOONS_NO_MEMORY. */
int moons_experiment_run(moons_experiment *e, unsigned threads, moons_progress progress,
                         void *ctx);

const moons_run *moons_run_at(const moons_experiment *e, size_t seed_index, size_t impl_index);
/* MOONS_OK or MOONS_NO_MEMORY. */
int moons_summarise(const moons_experiment *e, size_t impl_index, moons_summary *s);

/* The family-wise level of the paired tests; each is judged at MOONS_ALPHA divided by the number
 * of comparisons shown (Bonferroni). */
#define MOONS_ALPHA 0.05

/* The comparisons the paired tables show: on each metric, every implementation but the
 * baseline against ReLU (when it ran) and against the reference. */
size_t moons_comparison_count(const moons_experiment *e);
/* MOONS_ALPHA / moons_comparison_count (MOONS_ALPHA when there is none). */
double moons_threshold(const moons_experiment *e);

/* Whether m approximates GELU (exact, tanh or sigmoid target), as opposed to ReLU or SiLU. */
bool moons_is_gelu(const gelu_impl *m);

/* Which implementations a tally covers. */
typedef enum { MOONS_ROWS_ALL, MOONS_ROWS_GELU, MOONS_ROWS_NOT_GELU } moons_rows;

/* One metric against one baseline, over the implementations `rows` selects (the baseline left
 * out): how many differences are beyond the seed-to-seed spread and how many significant at
 * `threshold`, the largest |mean Δ| and the smallest p (1 when none is below), each with its
 * implementation's index. n is 0 when the baseline did not run or nothing was selected. */
typedef struct {
    size_t n, beyond, significant;
    double max_abs, min_p;
    size_t max_abs_impl, min_p_impl;
} moons_tally;

moons_tally moons_tally_comparisons(const moons_experiment *e, const moons_summary *sum,
                                    moons_metric m, moons_baseline b, moons_rows rows,
                                    double threshold);

/* The CSV, one row per (seed, implementation) after the header line
 * seed,impl,target,train_loss,val_acc,test_acc,test_loss,seconds,swap_test_acc,
 * swap_max_logit_change; MOONS_OK or MOONS_IO_ERROR when the stream failed. */
int moons_csv_write(const moons_experiment *e, FILE *f);

#endif
