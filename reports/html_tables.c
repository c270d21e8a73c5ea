/* The page's summary tables (one row per implementation, its columns picked from
 * accuracy_columns.h by name, measurements read back only, sortable) for binary32, the other
 * formats' sections (bfloat16, binary16: every input; binary64: sampled) and the ftz,daz
 * section with its differences from IEEE's results. */
#include "html_tables.h"

#include <math.h>
#include <string.h>

#include "html_text.h"

#include "accuracy_columns.h"
#include "gelu_cr16.h"
#include "gelu_impl.h"
#include "known_names.h"

/* A summary table's accuracy column, picked from the column table (accuracy_columns.h) by name,
 * with the reference and direction it reads and its header. */
typedef struct {
    const char *column;
    int ref, dir;
    const char *header;
    bool sorts_as_text; /* else as numbers (data-v) */
} summary_column;

/* binary32's summary */
static const summary_column summary_columns[] = {
    {"max_ulp", REF_OWN, DIR_FORWARD, "max ULP<small>own target</small>", false},
    {"max_ulp", REF_EXACT, DIR_FORWARD, "max ULP<small>exact GELU</small>", false},
    {"max_abs", REF_EXACT, DIR_FORWARD, "max abs<small>exact GELU</small>", false},
    {"cr_fraction", REF_OWN, DIR_FORWARD, "CR %<small>own target</small>", false},
    {"mono_violations", REF_OWN, DIR_FORWARD, "mono&#173;tone<small>violations</small>", false},
    {"max_ulp", REF_OWN, DIR_DERIVATIVE, "gradient<small>max ULP, own</small>", false},
    {"specials_failed", REF_OWN, DIR_FORWARD, "specials<small>fwd / grad</small>", false},
    {"benchdnn_failed", REF_OWN, DIR_FORWARD, "benchdnn<small>fails</small>", false},
    {"xnnpack_failed", REF_OWN, DIR_FORWARD, "XNNPACK<small>fails</small>", false},
    {"contract", REF_OWN, DIR_FORWARD, "con&#173;tract", true},
};
enum { SUMMARY_COLUMNS = sizeof summary_columns / sizeof summary_columns[0] };

/* Another format's html_summary(its section): correct rounding counted, ULPs in the format */
static const summary_column format_columns[] = {
    {"correctly_rounded", REF_OWN, DIR_FORWARD, "not correctly rounded<small>forward, own target</small>", false},
    {"correctly_rounded", REF_OWN, DIR_DERIVATIVE, "not correctly rounded<small>derivative</small>", false},
    {"max_ulp", REF_OWN, DIR_FORWARD, "max ULP<small>own target</small>", false},
    {"max_ulp", REF_EXACT, DIR_FORWARD, "max ULP<small>exact GELU</small>", false},
    {"max_ulp", REF_OWN, DIR_DERIVATIVE, "gradient<small>max ULP, own</small>", false},
    {"mono_violations", REF_OWN, DIR_FORWARD, "mono&#173;tone<small>violations</small>", false},
    {"specials_failed", REF_OWN, DIR_FORWARD, "specials<small>fwd / grad</small>", false},
    {"contract", REF_OWN, DIR_FORWARD, "con&#173;tract", true},
};
enum { FORMAT_COLUMNS = sizeof format_columns / sizeof format_columns[0] };

/* The ftz,daz section's summary: binary32's ULPs over the inputs the flags can change */
static const summary_column ftz_daz_columns[] = {
    {"max_ulp", REF_OWN, DIR_FORWARD, "max ULP<small>own target</small>", false},
    {"cr_fraction", REF_OWN, DIR_FORWARD, "CR %<small>own target</small>", false},
    {"correctly_rounded", REF_OWN, DIR_FORWARD, "not correctly rounded<small>forward, own target</small>", false},
    {"max_ulp", REF_OWN, DIR_DERIVATIVE, "gradient<small>max ULP, own</small>", false},
    {"correctly_rounded", REF_OWN, DIR_DERIVATIVE, "not correctly rounded<small>derivative</small>", false},
    {"mono_violations", REF_OWN, DIR_FORWARD, "mono&#173;tone<small>violations</small>", false},
    {"specials_failed", REF_OWN, DIR_FORWARD, "specials<small>fwd / grad</small>", false},
    {"contract", REF_OWN, DIR_FORWARD, "claims<small>held under the flags</small>", true},
};
enum { FTZ_DAZ_COLUMNS = sizeof ftz_daz_columns / sizeof ftz_daz_columns[0] };

static void speed_cells(FILE *f, const results_row *r, const char *size)
{
    const results_speed *sp = size ? results_speed_at(r, size) : NULL;
    if (sp) {
        html_open_num(f, sp->ns);
        fprintf(f, "%.4g%s</td>", sp->ns,
                sp->timed_inside ? "<small title=\"timed inside the child: its own clock around the "
                                   "kernel call, the pipe excluded\">timed in child</small>" : "");
        html_open_num(f, sp->ratio);
        fprintf(f, "%.3g</td>", sp->ratio);
    } else
        fputs("<td>&#8211;</td><td>&#8211;</td>", f);
}

static void summary_row(FILE *f, const results_set *s, const results_row *r,
                        const summary_column *cols, size_t ncols)
{
    char feat[128];
    fprintf(f, "<tr class=\"%s\"><td class=\"l\" data-v=\"",
            strcmp(r->contract, "fail") == 0 ? "fail" : "pass");
    html_text(f, r->name);
    fputs("\"><b>", f);
    html_text(f, r->name);
    fputs("</b><small title=\"", f);
    html_text(f, r->features ? cpu_features_string(r->features, feat, sizeof feat) : "no CPU feature");
    fputs("\">", f);
    html_text(f, r->target);
    fputs(" &#183; ", f);
    if (r->dispatched_isa[0]) { /* a peer that picks its code path at run time: the one measured */
        fputs("dispatched ", f);
        html_text(f, r->dispatched_isa);
    } else
        html_text(f, html_isa_label(r->features));
    if (s->format != GELU_FORMAT_BINARY32 && s->format != GELU_FORMAT_BINARY64)
        /* run as frameworks do, or the format's own (binary64's are all its own) */
        fputs(gelu_impl_find_in(r->name, s->format) ? " &#183; native" : " &#183; widened", f);
    fputs("</small></td>", f);
    for (size_t k = 0; k < ncols; k++) {
        const accuracy_column *c = accuracy_column_find(cols[k].column);
        c->html(f, c, r, cols[k].ref, cols[k].dir);
    }
    speed_cells(f, r, s->nsizes ? s->sizes[0] : NULL);
    speed_cells(f, r, s->nsizes > 1 ? s->sizes[s->nsizes - 1] : NULL);
    fputs("</tr>\n", f);
}

/* The framework names, once per distinct text, after the table (they made its rows tall). */
static void names_footnote(FILE *f, const results_set *s)
{
    fputs("<details><summary>What the frameworks call these implementations</summary>\n<ul>\n",
          f);
    for (size_t i = 0; i < s->n; i++) {
        const char *t = known_names(s->rows[i].name, s->rows[i].target);
        bool seen = !*t;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(known_names(s->rows[j].name, s->rows[j].target), t) == 0;
        if (seen) continue;
        fputs("<li>", f);
        for (size_t j = i, n = 0; j < s->n; j++)
            if (strcmp(known_names(s->rows[j].name, s->rows[j].target), t) == 0) {
                fputs(n++ ? ", <code>" : "<code>", f);
                html_text(f, s->rows[j].name);
                fputs("</code>", f);
            }
        fputs(": ", f);
        html_text(f, t);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n</details>\n", f);
}

/* A summary table, one row per implementation of the results: the columns, then the speed at
 * the first and the last size measured; id: the table's container's. */
static void summary_table(FILE *f, const results_set *s, const summary_column *cols, size_t ncols,
                          const char *id)
{
    const char *first = s->nsizes ? s->sizes[0] : "-",
               *last = s->nsizes > 1 ? s->sizes[s->nsizes - 1] : "-";
    fprintf(f, "<div class=\"scroll\" id=\"%s\">\n"
               "<table class=\"sortable\">\n<thead><tr>"
               "<th class=\"l\" data-sort=\"text\">impl<small>target &#183; ISA%s</small></th>",
            id, s->format != GELU_FORMAT_BINARY32 ? " &#183; run as" : "");
    for (size_t k = 0; k < ncols; k++)
        fprintf(f, "<th%s>%s</th>",
                cols[k].sorts_as_text ? " class=\"l\" data-sort=\"text\"" : " data-sort=\"num\"",
                cols[k].header);
    fprintf(f,
            "<th data-sort=\"num\">ns/elem<small>%s</small></th>"
            "<th data-sort=\"num\">&#215;ReLU<small>%s</small></th>"
            "<th data-sort=\"num\">ns/elem<small>%s</small></th>"
            "<th data-sort=\"num\">&#215;ReLU<small>%s</small></th>"
            "</tr></thead>\n<tbody>\n",
            first, first, last, last);
    for (size_t i = 0; i < s->n; i++) summary_row(f, s, &s->rows[i], cols, ncols);
    fputs("</tbody>\n</table>\n</div>\n", f);
}

void html_summary(FILE *f, const results_set *s)
{
    fputs("<h2 id=\"summary\">Every implementation</h2>\n", f);
    summary_table(f, s, summary_columns, SUMMARY_COLUMNS, "summary-table");
    if (s->baseline[0]) {
        fputs("<p>&#215;ReLU: against <code>", f);
        html_text(f, s->baseline);
        fputs("</code>, the widest ReLU this CPU runs. Rows without accuracy figures are "
              "benchmark-only (threaded rows measure the same kernels as their single-threaded "
              "twin). The second line under a maximum is the first input reaching it.</p>\n",
              f);
    }
    names_footnote(f, s);
}

/* A format's summary table (accuracy read back from accuracy_F.csv, speed from bench_F.csv),
 * what its speed is against, and its plots: the body of its section. */
static void format_body(FILE *f, const html_format *hf)
{
    const results_set *s = hf->results;
    const gelu_format *fmt = gelu_format_of(s->format);
    const char *name = fmt->name;
    char acc[64], bench[64], byx[64];
    results_file_name(acc, sizeof acc, "accuracy", s->format);
    results_file_name(bench, sizeof bench, "bench", s->format);
    results_file_name(byx, sizeof byx, "ulp_by_x", s->format);
    char id[64];
    snprintf(id, sizeof id, "summary-%s", name);
    summary_table(f, s, format_columns, FORMAT_COLUMNS, id);
    fprintf(f, "<p>ULPs are %s's. ", name);
    if (s->baseline[0]) {
        fputs("&#215;ReLU: against <code>", f);
        html_text(f, s->baseline);
        if (gelu_format_small(fmt)) /* the binary32 ReLU, as the GELUs */
            fprintf(f, "</code> run in %s the same way (widened), in the same rounds: ", name);
        else
            fprintf(f, "</code>, %s's own ReLU, in the same rounds: ", name);
    } else
        fputs("Not benchmarked. ", f);
    fprintf(f, "<code>gelucheck bench --format %s</code>, %u bytes read and %u written per element. "
               "The files: <code>%s</code>, <code>%s</code>, <code>%s</code>.</p>\n",
            name, fmt->storage_bits / 8, fmt->storage_bits / 8, acc, bench, byx);
    if (hf->plots_note) {
        fputs("<p><b>", f);
        html_text(f, hf->plots_note);
        fputs("</b></p>\n", f);
    }
    for (int k = 0; k < PLOT_COUNT; k++)
        if (plot_drawn((plot_kind)k, s->format) && hf->svg[k])
            html_plot_figure(f, (plot_kind)k, s->format, hf->svg[k]);
}

/* A 16-bit format's section: its heading and body. */
static void format_section(FILE *f, const html_format *hf)
{
    const char *name = gelu_format_of(hf->results->format)->name;
    fprintf(f, "<h3 id=\"%s\">%s</h3>\n", name, name);
    format_body(f, hf);
}

void html_formats16_section(FILE *f, const html_report *h)
{
    fputs("<h2 id=\"formats16\">16-bit formats: every bfloat16 and binary16 input</h2>\n", f);
    if (!h->nformats) {
        fputs("<p>", f);
        html_text(f, h->formats_note ? h->formats_note : "Not run.");
        fputs("</p>\n", f);
        return;
    }
    fputs("<p>All 65,536 encodings of each format, forward and derivative, against the correctly "
          "rounded value in the format (MPFR). A <em>widened</em> implementation is a binary32 one "
          "run as frameworks run it: x widened to binary32, its kernel, the result rounded to "
          "nearest even to the format; its &#8220;not correctly rounded&#8221; count is what that "
          "costs. A <em>native</em> one takes and returns the format's encodings.</p>\n", f);
    for (size_t k = 0; k < h->nformats; k++) format_section(f, &h->formats[k]);
}

/* binary64: a sample, never every input; the section says so before anything else. */
void html_binary64_section(FILE *f, const html_report *h)
{
    fputs("<h2 id=\"binary64\">binary64: a sample</h2>\n", f);
    if (!h->f64) {
        fputs("<p>Not run.</p>\n", f);
        return;
    }
    fputs("<p><b>Sampled, not exhaustive: ", f);
    html_text(f, h->f64_sampled);
    fputs("</b>. Forward and derivative of each binary64 implementation (GELU's forms in double "
          "and the peers' double kernels), against the correctly rounded binary64 value (MPFR at "
          "53 bits, subnormalized); ULPs are binary64's; a figure is the sample's, a bound only "
          "over it, and so are the plots' errors. <code>accuracy_binary64.csv</code> has "
          "<code>accuracy.csv</code>'s columns (binary32's criteria and the weighted means empty). "
          "The speed is not sampled: the benchmark times arrays of doubles.</p>\n", f);
    format_body(f, h->f64);
}

/* One way an implementation's ftz,daz row is worse than its IEEE row (a maximum above IEEE's,
 * more failures): "; " between them, the first after ": ". */
static void ftz_daz_change(FILE *f, int *said, const char *what, const char *ieee, const char *flagged)
{
    fputs(*said ? "; " : ": ", f);
    fprintf(f, "%s ", what);
    html_text(f, ieee);
    fputs(" &#8594; ", f);
    html_text(f, flagged);
    ++*said;
}

/* Per implementation of the ftz,daz results, what is worse than in IEEE's table (h->results):
 * the forward and derivative maxima (own target, with their inputs), the monotonicity
 * violations, the failed special values, the claims. */
static void ftz_daz_differences(FILE *f, const html_report *h)
{
    const results_set *s = h->ftz_daz;
    size_t listed = 0;
    static const char *const dirs[2] = {"forward max ULP", "derivative max ULP"};
    for (size_t i = 0; i < s->n; i++) {
        const results_row *z = &s->rows[i], *e = results_find(h->results, z->name);
        if (!z->scanned || !e || !e->scanned) continue;
        int said = 0;
        char a[96], b[96];
        for (int d = 0; d < 2; d++) {
            const results_error *ze = &z->own[d], *ee = &e->own[d];
            if (!ze->present || !ee->present || !(ze->max_ulp > ee->max_ulp)) continue;
            if (!said++) {
                fputs(listed++ ? "<li><b>" : "<ul>\n<li><b>", f);
                html_text(f, z->name);
                fputs("</b>", f);
                said = 0;
            }
            snprintf(a, sizeof a, "%.3g", ee->max_ulp);
            snprintf(b, sizeof b, "%.3g at x = %s", ze->max_ulp, ze->max_ulp_x);
            ftz_daz_change(f, &said, dirs[d], a, b);
        }
        for (int d = 0; d < 2; d++)
            if (z->specials_failed[d] > e->specials_failed[d] && e->specials_failed[d] >= 0) {
                if (!said) {
                    fputs(listed++ ? "<li><b>" : "<ul>\n<li><b>", f);
                    html_text(f, z->name);
                    fputs("</b>", f);
                }
                snprintf(a, sizeof a, "%ld", e->specials_failed[d]);
                snprintf(b, sizeof b, "%ld", z->specials_failed[d]);
                ftz_daz_change(f, &said, d ? "failed special values (derivative)"
                                           : "failed special values (forward)", a, b);
            }
        if (z->mono_violations > e->mono_violations && e->mono_violations >= 0) {
            if (!said) {
                fputs(listed++ ? "<li><b>" : "<ul>\n<li><b>", f);
                html_text(f, z->name);
                fputs("</b>", f);
            }
            snprintf(a, sizeof a, "%ld", e->mono_violations);
            snprintf(b, sizeof b, "%ld", z->mono_violations);
            ftz_daz_change(f, &said, "monotonicity violations", a, b);
        }
        if (strcmp(z->contract, e->contract) != 0 && z->contract[0] && e->contract[0]) {
            if (!said) {
                fputs(listed++ ? "<li><b>" : "<ul>\n<li><b>", f);
                html_text(f, z->name);
                fputs("</b>", f);
            }
            ftz_daz_change(f, &said, "claims", strcmp(e->contract, "pass") ? "broken" : "held",
                           strcmp(z->contract, "pass") ? "broken" : "held");
        }
        if (said) fputs("</li>\n", f);
    }
    if (listed) fputs("</ul>\n", f);
    else fputs("<p>None: no maximum above IEEE's table's, no more failures.</p>\n", f);
}

/* ftz,daz: the in-process implementations with FTZ and DAZ set, over the inputs where the flags
 * can change a result; the section says what it covered first. */
void html_ftz_daz_section(FILE *f, const html_report *h)
{
    fputs("<h2 id=\"ftz_daz\">ftz,daz (FTZ+DAZ)</h2>\n", f);
    if (!h->ftz_daz) {
        fputs("<p>Not run.</p>\n", f);
        return;
    }
    fputs("<p>The kernels run with x86's MXCSR flush-to-zero and denormals-are-zero set, as "
          "TensorFlow's threads and PyTorch's <code>set_flush_denormal(True)</code> run them, "
          "against what a correctly rounded GELU returns there (a subnormal input read as its "
          "signed zero; a subnormal result expected as the zero of its sign). <b>Covered: ", f);
    html_text(f, h->ftz_daz_covered);
    fputs("</b>. Elsewhere the flags change no result (measured over every default "
          "implementation, docs/DESIGN.md), so these inputs' figures are the environment's: a "
          "maximum here is a maximum over all 2^32 inputs under the flags where it exceeds "
          "IEEE's table's. ", f);
    if (h->ftz_daz_left_out && h->ftz_daz_left_out[0]) {
        fputs("Left out, as exec children: ", f);
        html_text(f, h->ftz_daz_left_out);
        fputs(" (their kernels run in another process, which this one's MXCSR does not reach). ",
              f);
    } else
        fputs("Exec children (the frameworks' rows) would be left out: their kernels run in "
              "another process, which this one's MXCSR does not reach; none was in this run. ", f);
    fputs("The claims are IEEE's: the last column says whether they would also hold over these "
          "inputs under the flags; they are not judged here (the exit status is IEEE's "
          "verdict). Not benchmarked. The file: <code>" RESULTS_FTZ_DAZ_FILE "</code> (columns of "
          "<code>accuracy.csv</code>, <code>fpenv</code> ftz+daz).</p>\n", f);
    summary_table(f, h->ftz_daz, ftz_daz_columns, FTZ_DAZ_COLUMNS, "summary-ftz_daz");
    fputs("<h3>What differs from IEEE's table</h3>\n", f);
    ftz_daz_differences(f, h);
}
