/* The page's make_moons section (experiments/moons.h): the setup, the results per
 * implementation (mean ± sd over seeds), the paired comparisons against the reference and
 * the swaps of a trained network's activation. */
#include "html_moons.h"

#include <math.h>
#include <string.h>

#include "html_text.h"

/* ---- the make_moons experiment */

static void mean_sd_cell(FILE *f, mean_sd v, const char *format)
{
    fputs("<td>", f);
    fprintf(f, format, v.mean);
    fputs(" &#177; ", f);
    fprintf(f, format, v.sd);
    fputs("</td>", f);
}

static void name_cells(FILE *f, const gelu_impl *m)
{
    fputs("<td class=\"l\"><b>", f);
    html_text(f, m->name);
    fputs("</b></td><td class=\"l\">", f);
    html_text(f, gelu_target_name(m->target));
    fputs("</td>", f);
}

static void moons_setup(FILE *f, const html_moons *mo)
{
    const moons_experiment *e = mo->experiment;
    const moons_config *c = &e->config;
    fputs("<p>", f);
    html_text(f, mo->run);
    fprintf(f,
            " of <code>gelucheck moons</code> over the implementations scanned above: "
            "%zu points per seed (%zu train, %zu validation, %zu test), noise %g; MLP 2&#8211;"
            "%zu&#8211;%zu&#8211;1 with the implementation after both hidden layers (its "
            "forward kernel forward, its derivative backward), BCE, Adam (lr %g), batch %zu, "
            "%zu epochs; %zu seeds (%lu to %lu). Within a seed every implementation starts "
            "from the same weights and sees the same batches, so the seeds pair the "
            "comparisons. Reference GELU: <code>",
            c->n_samples, e->n_train, e->n_validation, e->n_test, c->noise, c->h1, c->h2, c->lr,
            c->batch, c->epochs, c->n_seeds, c->first_seed,
            c->first_seed + (unsigned long)c->n_seeds - 1);
    html_text(f, e->impls[e->reference]->name);
    fputs("</code>. Every number but the times is the same bit for bit on every run; one row "
          "per seed and implementation is in <code>moons.csv</code>.</p>\n",
          f);
}

static void moons_results_table(FILE *f, const html_moons *mo)
{
    const moons_experiment *e = mo->experiment;
    fputs("<div class=\"scroll\">\n<table>\n<thead><tr><th>impl</th><th>target</th><th>test accuracy</th>"
          "<th>test loss</th><th>final train loss</th><th>s/seed</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < e->n_impls; i++) {
        const moons_summary *s = &mo->summary[i];
        fputs("<tr>", f);
        name_cells(f, e->impls[i]);
        mean_sd_cell(f, s->test_acc, "%.4f");
        mean_sd_cell(f, s->test_loss, "%.4f");
        mean_sd_cell(f, s->train_loss, "%.4f");
        fprintf(f, "<td>%.2f</td></tr>\n", s->seconds.mean);
    }
    fputs("</tbody>\n</table>\n</div>\n<p>Mean &#177; sd over the seeds; s/seed: wall time of one "
          "seed's training and scoring (the only figure that varies between runs).</p>\n",
          f);
}

/* The groups of comparisons, which together are every comparison the threshold counts. */
typedef struct {
    moons_baseline baseline;
    moons_rows rows;
    const char *what;
} comparison_group;

static const comparison_group groups[] = {
    {MOONS_VS_RELU, MOONS_ROWS_ALL, "every activation vs relu"},
    {MOONS_VS_REFERENCE, MOONS_ROWS_GELU, "GELU implementations vs the reference"},
    {MOONS_VS_REFERENCE, MOONS_ROWS_NOT_GELU, "the other activations vs the reference"},
};
enum { GROUPS = sizeof groups / sizeof groups[0] };
static const char *const metric_names[MOONS_METRICS] = {"test accuracy", "test loss"};

static void tally_row(FILE *f, const moons_experiment *e, const moons_tally *t,
                      const char *what, moons_metric m)
{
    fputs("<tr><td class=\"l\">", f);
    html_text(f, what);
    fprintf(f, "</td><td class=\"l\">%s</td><td>%zu</td><td>%zu</td><td>%zu</td><td>%.2g (",
            metric_names[m], t->n, t->beyond, t->significant, t->max_abs);
    html_text(f, e->impls[t->max_abs_impl]->name);
    fprintf(f, ")</td><td>%.2g (", t->min_p);
    html_text(f, e->impls[t->min_p_impl]->name);
    fputs(")</td></tr>\n", f);
}

static void moons_comparisons(FILE *f, const html_moons *mo)
{
    const moons_experiment *e = mo->experiment;
    double threshold = moons_threshold(e);
    size_t n = 0, beyond = 0, significant = 0, gelu_flagged = 0, gelu_n = 0;
    double min_p = 1.0;
    fputs("<div class=\"scroll\">\n<table>\n<thead><tr><th>comparisons</th><th>metric</th><th>n</th>"
          "<th>beyond the seed-to-seed spread</th><th>significant</th>"
          "<th>largest |mean &#916;|</th><th>smallest p</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t g = 0; g < GROUPS; g++)
        for (int m = 0; m < MOONS_METRICS; m++) {
            moons_tally t = moons_tally_comparisons(e, mo->summary, (moons_metric)m,
                                                    groups[g].baseline, groups[g].rows,
                                                    threshold);
            if (t.n == 0) continue;
            tally_row(f, e, &t, groups[g].what, (moons_metric)m);
            n += t.n;
            beyond += t.beyond;
            significant += t.significant;
            min_p = t.min_p < min_p ? t.min_p : min_p;
            if (groups[g].rows == MOONS_ROWS_GELU) {
                gelu_n += t.n;
                gelu_flagged += t.beyond + t.significant;
            }
        }
    fputs("</tbody>\n</table>\n</div>\n<p><b>Conclusion</b>: ", f);
    if (e->config.n_seeds < 2)
        fputs("none with one seed: there is no seed-to-seed spread to compare against.", f);
    else
        fprintf(f,
                "%zu of the %zu paired differences exceed the seed-to-seed spread and %zu "
                "%s significant; the smallest p is %.2g, against the Bonferroni threshold "
                "%g / %zu = %.2g. Between GELU implementations, %s.",
                beyond, n, significant, significant == 1 ? "is" : "are", min_p, MOONS_ALPHA, n,
                threshold,
                gelu_n == 0 ? "there was nothing to compare"
                : gelu_flagged == 0 ? "no difference exceeds the spread or is significant: the "
                                     "seed matters more than the implementation"
                                   : "some differences exceed the spread or are significant "
                                     "(see <code>gelucheck moons</code> for the paired tables)");
    fputs("</p>\n", f);
}

static void moons_swap_table(FILE *f, const html_moons *mo)
{
    const moons_experiment *e = mo->experiment;
    fputs("<p>Inference swap: each seed's network trained with <code>", f);
    html_text(f, e->impls[e->reference]->name);
    fputs("</code>, scored on the test part with the row's implementation in place of its "
          "activation.</p>\n<div class=\"scroll\">\n<table>\n<thead><tr><th>impl</th><th>target</th>"
          "<th>&#916; test accuracy</th><th>max |&#916; logit|</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < e->n_impls; i++) {
        const moons_summary *s = &mo->summary[i];
        fputs("<tr>", f);
        name_cells(f, e->impls[i]);
        fprintf(f, "<td>%+.4f &#177; %.4f</td><td>%.3g</td></tr>\n", s->swap_acc_change.mean,
                s->swap_acc_change.sd, s->swap_max_logit_change);
    }
    fputs("</tbody>\n</table>\n</div>\n", f);
}

void html_moons_section(FILE *f, const html_moons *mo)
{
    fputs("<h2 id=\"moons\">Does the implementation matter for learning? (make_moons)</h2>\n", f);
    if (!mo) {
        fputs("<p>The make_moons experiment was not run for this report.</p>\n", f);
        return;
    }
    moons_setup(f, mo);
    fputs("<p><b>How to read this</b>: a difference between two rows means something only when "
          "it is larger than the sd across seeds beside it; the paired comparisons below ask "
          "exactly that, seed by seed. The inference swap asks another question: how far a "
          "trained network's outputs move when its activation's code is replaced.</p>\n",
          f);
    moons_results_table(f, mo);
    fputs("<p>Paired over seeds: &#916; = row &#8722; baseline; beyond = |mean &#916;| larger "
          "than the larger seed-to-seed sd of the two; significant = Student's t over the "
          "seeds' differences below the Bonferroni threshold.</p>\n",
          f);
    moons_comparisons(f, mo);
    moons_swap_table(f, mo);
}
