/* index.html (see html_report.h). */
#include "html_report.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "gelu_impl.h"
#include "known_names.h"

static void text(FILE *f, const char *s)
{
    for (; s && *s; s++) switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;font-size:0.85em}"
    "th,td{border:1px solid #bbb;padding:0.2em 0.4em;text-align:right;vertical-align:top}"
    "th{background:#eee}td.l{text-align:left}"
    "td.names{text-align:left;font-size:0.9em;max-width:22em}"
    "tr.fail td.c{color:#a00;font-weight:bold}dt{font-weight:bold;float:left;width:8em}"
    "dd{margin-left:9em}code{background:#f4f4f4}svg{max-width:100%;height:auto}"
    "figure{margin:1em 0}figcaption{font-size:0.9em;color:#444}";

static void header(FILE *f, const report_meta *m)
{
    fprintf(f, "<h1>gelucheck report</h1>\n<dl>\n");
    const char *labels[] = {"CPU",    "compiler", "flags",     "date",
                            "commit", "scan",     "benchmark", "command"};
    const char *values[] = {m->cpu,    m->compiler, m->flags, m->date,
                            m->commit, m->scan,     m->bench, m->command};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        fprintf(f, "<dt>%s</dt><dd>", labels[i]);
        if (i == 7) fputs("<code>", f);
        text(f, values[i]);
        if (i == 0) {
            fputs(" (", f);
            text(f, m->cpu_features);
            fputs(")", f);
        }
        fputs(i == 7 ? "</code></dd>\n" : "</dd>\n", f);
    }
    fputs("</dl>\n", f);
}

static const char how_to_read[] =
    "<h2>How to read this</h2>\n<ul>\n"
    "<li><b>Target</b>: the formula an implementation approximates: <i>exact</i> GELU "
    "x&#183;&#934;(x), the <i>tanh</i> form, or the <i>sigmoid</i> form x&#183;&#963;(1.702x). "
    "Each is measured against its own target (how well it computes its formula) and against "
    "exact GELU (how far its formula and its rounding are from true GELU).</li>\n"
    "<li><b>ULP</b>: the error in units of the last place of the binary32 result: 0.5 is the best "
    "possible (correctly rounded), a few ULP is good, thousands mean digits are lost. The "
    "<i>at x</i> figure is the first input (hex float) reaching the maximum, so it can be "
    "replayed with <code>gelucheck eval</code>.</li>\n"
    "<li><b>Max abs</b>: the largest |computed &#8722; exact|. Where GELU is tiny "
    "(x &lt; &#8722;4) a large ULP error can still be a tiny absolute error; training usually cares about the "
    "latter, bit-exact reproduction about the former.</li>\n"
    "<li><b>Monotone</b>: violations of GELU's shape (decreasing below its minimum at "
    "x &#8776; &#8722;0.7518, increasing above) between consecutive inputs. <b>Specials</b>: "
    "wrong results for &#177;0, &#177;inf or NaN, forward/derivative.</li>\n"
    "<li><b>benchdnn / XNNPACK</b>: how many inputs fail oneDNN's benchdnn check for gelu_erf "
    "(relative error 4e-6) and XNNPACK's GELU test tolerance (10&#183;&#949; absolute or "
    "5&#183;&#949; relative, on [&#8722;10, 10]), against the own target.</li>\n"
    "<li><b>ns/elem, &#215;ReLU</b>: median time per element and its ratio to a vectorized ReLU "
    "measured in the same rounds. Quote the ratio; the absolute time belongs to this machine at "
    "this moment.</li>\n"
    "<li><b>Contract</b>: whether the implementation meets the accuracy it declares "
    "(<code>gelucheck list</code>).</li>\n</ul>\n";

/* A number with its input: "184.6 @ -0x1.2p+2". */
static void error_cell(FILE *f, const results_error *e, bool ulp)
{
    fputs("<td>", f);
    if (!e->present)
        fputs("&#8211;", f);
    else {
        double v = ulp ? e->max_ulp : e->max_abs;
        const char *x = ulp ? e->max_ulp_x : e->max_abs_x;
        fprintf(f, isinf(v) ? "inf" : "%.4g", v);
        if (*x) {
            fputs("<br/>@ ", f);
            text(f, x);
        }
    }
    fputs("</td>", f);
}

static void count_cell(FILE *f, long v)
{
    if (v < 0)
        fputs("<td>&#8211;</td>", f);
    else
        fprintf(f, "<td>%ld</td>", v);
}

static void speed_cells(FILE *f, const results_row *r, const char *size)
{
    const results_speed *sp = size ? results_speed_at(r, size) : NULL;
    if (sp)
        fprintf(f, "<td>%.4g</td><td>%.3g</td>", sp->ns, sp->ratio);
    else
        fputs("<td>&#8211;</td><td>&#8211;</td>", f);
}

static void summary_row(FILE *f, const results_set *s, const results_row *r)
{
    char feat[128];
    fprintf(f, "<tr class=\"%s\"><td class=\"l\"><b>",
            strcmp(r->contract, "fail") == 0 ? "fail" : "pass");
    text(f, r->name);
    fputs("</b></td><td class=\"names\">", f);
    text(f, known_names(r->name, r->target));
    fputs("</td><td class=\"l\">", f);
    text(f, r->target);
    fputs("</td><td class=\"l\">", f);
    text(f, r->features ? cpu_features_string(r->features, feat, sizeof feat) : "portable");
    fputs("</td>", f);
    error_cell(f, &r->own[0], true);
    error_cell(f, &r->exact[0], true);
    error_cell(f, &r->exact[0], false);
    if (r->own[0].present)
        fprintf(f, "<td>%.4f</td>", 100 * r->own[0].cr_fraction);
    else
        fputs("<td>&#8211;</td>", f);
    count_cell(f, r->mono_violations);
    error_cell(f, &r->own[1], true);
    fputs("<td>", f);
    if (r->specials_failed[0] < 0)
        fputs("&#8211;", f);
    else
        fprintf(f, "%ld / %ld", r->specials_failed[0],
                r->specials_failed[1] < 0 ? 0 : r->specials_failed[1]);
    fputs("</td>", f);
    count_cell(f, r->benchdnn_failed);
    if (r->xnnpack_failed < 0)
        fputs("<td>&#8211;</td>", f);
    else
        fprintf(f, "<td>%ld of %ld</td>", r->xnnpack_failed, r->xnnpack_checked);
    fputs("<td class=\"c\">", f);
    text(f, r->contract[0] ? r->contract : "\xe2\x80\x93");
    fputs("</td>", f);
    speed_cells(f, r, s->nsizes ? s->sizes[0] : NULL);
    speed_cells(f, r, s->nsizes > 1 ? s->sizes[s->nsizes - 1] : NULL);
    fputs("</tr>\n", f);
}

static void summary(FILE *f, const results_set *s)
{
    const char *first = s->nsizes ? s->sizes[0] : "-",
               *last = s->nsizes > 1 ? s->sizes[s->nsizes - 1] : "-";
    fputs("<h2>Summary</h2>\n<table>\n<thead><tr><th>impl</th><th>known as</th><th>target</th>"
          "<th>ISA</th><th>max ULP vs own target</th><th>max ULP vs exact GELU</th>"
          "<th>max abs vs exact GELU</th><th>correctly rounded % (own)</th><th>monotonicity "
          "violations</th>"
          "<th>gradient max ULP (own)</th><th>specials failed fwd / grad</th>"
          "<th>benchdnn fails</th><th>XNNPACK fails</th><th>contract</th>",
          f);
    fprintf(f,
            "<th>ns/elem %s</th><th>&#215;ReLU %s</th><th>ns/elem %s</th><th>&#215;ReLU %s</th>"
            "</tr></thead>\n<tbody>\n",
            first, first, last, last);
    for (size_t i = 0; i < s->n; i++) summary_row(f, s, &s->rows[i]);
    fputs("</tbody>\n</table>\n", f);
    if (s->baseline[0]) {
        fputs("<p>&#215;ReLU: against <code>", f);
        text(f, s->baseline);
        fputs("</code>, the widest ReLU this CPU runs. Rows without accuracy figures are "
              "benchmark-only (threaded rows measure the same kernels as their single-threaded "
              "twin).</p>\n",
              f);
    }
}

void html_inline_svg(FILE *f, const char *svg)
{
    const char *p = strstr(svg, "<svg");
    if (!p) return;
    while (*p) {
        if (isspace((unsigned char)p[0]) && strncmp(p + 1, "xmlns", 5) == 0) {
            const char *q = strchr(p + 6, '"'); /* skip ` xmlns[:x]="…"` */
            q = q ? strchr(q + 1, '"') : NULL;
            if (q) {
                p = q + 1;
                continue;
            }
        }
        if (strncmp(p, "xlink:href", 10) == 0) {
            fputs("href", f);
            p += 10;
            continue;
        }
        fputc(*p++, f);
    }
    fputc('\n', f);
}

static void broken_section(FILE *f, const html_report *h)
{
    fputs("<h2>Contracts</h2>\n", f);
    if (h->nbroken == 0) {
        fputs("<p>Every implementation meets the contract it declares.</p>\n", f);
        return;
    }
    fputs("<p>Declared contracts this run found broken (the first broken claim of each):</p>\n"
          "<ul>\n",
          f);
    for (size_t i = 0; i < h->nbroken; i++) {
        fputs("<li><code>", f);
        text(f, h->broken[i]);
        fputs("</code></li>\n", f);
    }
    fputs("</ul>\n", f);
}

static void plots_section(FILE *f, const html_report *h)
{
    fputs("<h2>Plots</h2>\n", f);
    if (h->plots_note) {
        fputs("<p><b>", f);
        text(f, h->plots_note);
        fputs("</b></p>\n", f);
    }
    for (int k = 0; k < PLOT_COUNT; k++) {
        if (!h->svg[k]) continue;
        fputs("<figure>\n<h3>", f);
        text(f, plot_title((plot_kind)k));
        fputs("</h3>\n", f);
        html_inline_svg(f, h->svg[k]);
        fputs("<figcaption>", f);
        text(f, plot_caption((plot_kind)k));
        fprintf(f, " (<code>%s.svg</code>, drawn by <code>%s.gp</code>)</figcaption>\n</figure>\n",
                plot_name((plot_kind)k), plot_name((plot_kind)k));
    }
}

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
    text(f, m->name);
    fputs("</b></td><td class=\"l\">", f);
    text(f, gelu_target_name(m->target));
    fputs("</td>", f);
}

static void moons_setup(FILE *f, const html_moons *mo)
{
    const moons_experiment *e = mo->experiment;
    const moons_config *c = &e->config;
    fputs("<p>", f);
    text(f, mo->run);
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
    text(f, e->impls[e->reference]->name);
    fputs("</code>. Every number but the times is the same bit for bit on every run; one row "
          "per seed and implementation is in <code>moons.csv</code>.</p>\n",
          f);
}

static void moons_results_table(FILE *f, const html_moons *mo)
{
    const moons_experiment *e = mo->experiment;
    fputs("<table>\n<thead><tr><th>impl</th><th>target</th><th>test accuracy</th>"
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
    fputs("</tbody>\n</table>\n<p>Mean &#177; sd over the seeds; s/seed: wall time of one "
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
    text(f, what);
    fprintf(f, "</td><td class=\"l\">%s</td><td>%zu</td><td>%zu</td><td>%zu</td><td>%.2g (",
            metric_names[m], t->n, t->beyond, t->significant, t->max_abs);
    text(f, e->impls[t->max_abs_impl]->name);
    fprintf(f, ")</td><td>%.2g (", t->min_p);
    text(f, e->impls[t->min_p_impl]->name);
    fputs(")</td></tr>\n", f);
}

static void moons_comparisons(FILE *f, const html_moons *mo)
{
    const moons_experiment *e = mo->experiment;
    double threshold = moons_threshold(e);
    size_t n = 0, beyond = 0, significant = 0, gelu_flagged = 0, gelu_n = 0;
    double min_p = 1.0;
    fputs("<table>\n<thead><tr><th>comparisons</th><th>metric</th><th>n</th>"
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
    fputs("</tbody>\n</table>\n<p><b>Conclusion</b>: ", f);
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
    text(f, e->impls[e->reference]->name);
    fputs("</code>, scored on the test part with the row's implementation in place of its "
          "activation.</p>\n<table>\n<thead><tr><th>impl</th><th>target</th>"
          "<th>&#916; test accuracy</th><th>max |&#916; logit|</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < e->n_impls; i++) {
        const moons_summary *s = &mo->summary[i];
        fputs("<tr>", f);
        name_cells(f, e->impls[i]);
        fprintf(f, "<td>%+.4f &#177; %.4f</td><td>%.3g</td></tr>\n", s->swap_acc_change.mean,
                s->swap_acc_change.sd, s->swap_max_logit_change);
    }
    fputs("</tbody>\n</table>\n", f);
}

static void moons_section(FILE *f, const html_moons *mo)
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

static const char files_section[] =
    "<h2>Files</h2>\n<ul>\n"
    "<li><code>accuracy.csv</code>: one row per implementation, reference (own target, exact "
    "GELU) and direction (forward, derivative), with every figure above and the ULP "
    "histogram.</li>\n"
    "<li><code>ranges.csv</code>: the ULP histograms per input range (negative tail, core, "
    "positive side, tiny, NaN).</li>\n"
    "<li><code>ulp_by_x.csv</code>: the largest ULP and absolute error per 1/8 of x, the "
    "plots' data.</li>\n"
    "<li><code>bench.csv</code>: the benchmark, per size.</li>\n"
    "<li><code>moons.csv</code>: the make_moons experiment, one row per seed and "
    "implementation (as <code>gelucheck moons --csv</code>).</li>\n</ul>\n";

int html_report_write(FILE *f, const html_report *h)
{
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
            "<title>gelucheck report</title>\n<style>%s</style>\n</head>\n<body>\n",
            style);
    header(f, h->meta);
    fputs(how_to_read, f);
    summary(f, h->results);
    broken_section(f, h);
    plots_section(f, h);
    moons_section(f, h->moons);
    fputs(files_section, f);
    fputs("</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}
