/* index.html (see html_report.h). */
#include "html_report.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy_columns.h"
#include "gelu_cr16.h"
#include "gelu_impl.h"
#include "known_names.h"
#include "pick.h"

void html_text(FILE *f, const char *s)
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
    "body{font-family:sans-serif;margin:0.6em auto;max-width:1400px;padding:0 1em;color:#222;"
    "line-height:1.35}"
    "h1{font-size:1.35em;margin:0.2em 0}h2{font-size:1.2em;margin:1.2em 0 0.4em}"
    "h3{font-size:1.05em}p{overflow-wrap:break-word}"
    "p.sub{margin:0 0 0.5em;color:#555;font-size:0.85em}"
    ".scroll{overflow-x:auto;max-width:100%}"
    "table{border-collapse:collapse;font-size:0.8em}"
    "th,td{border:1px solid #bbb;padding:0.15em 0.3em;text-align:right;vertical-align:top}"
    "table.sortable{font-size:0.76em}"
    "th{background:#eee;font-weight:600}td.l,th.l{text-align:left}"
    "td small,th small{display:block;font-size:0.8em;color:#555;white-space:nowrap}"
    "th[data-sort]{cursor:pointer}"
    "tr.fail td.c{color:#b00;font-weight:bold}"
    "dt{font-weight:bold;float:left;width:8em}dd{margin-left:9em;overflow-wrap:anywhere}"
    "@media (max-width:600px){dt{float:none}dd{margin-left:1em}}"
    "code{background:#f4f4f4;overflow-wrap:anywhere}svg{max-width:100%;height:auto}"
    "figure{margin:0.8em 0}figcaption{font-size:0.85em;color:#444}"
    "#answer{display:flex;flex-wrap:wrap;gap:0.5em 1.5em;align-items:flex-start}"
    "#answer>div{flex:1 1 640px;min-width:0}#answer h2{margin-top:0.3em}"
    "#answer figure{flex:1 1 420px;max-width:600px;margin:0}"
    "#answer td{font-size:1.05em}"
    "p.broken{color:#b00;font-weight:bold;margin:0.5em 0}p.ok{color:#064;margin:0.5em 0}"
    "details{margin:0.5em 0;font-size:0.85em}";

/* One line under the title: where and what, the details at the end of the page. */
static void header(FILE *f, const report_meta *m)
{
    fputs("<h1>gelucheck report</h1>\n<p class=\"sub\">", f);
    html_text(f, m->cpu);
    fputs(" &#183; ", f);
    html_text(f, m->date);
    fputs(" &#183; commit ", f);
    html_text(f, m->commit);
    fputs(" &#183; ", f);
    html_text(f, m->scan);
    fputs(" (<a href=\"#run\">how it was run</a>)</p>\n", f);
}

/* The implementations of the results that were added at run time (plugins, exec children):
 * where each comes from and its origin line — untrusted texts, escaped — and what the batching
 * probe found. */
static void added_impls(FILE *f, const results_set *s)
{
    bool any = false;
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (!gelu_impl_source(m) || !results_find(s, m->name)) continue;
        if (!any) fputs("<dt>added at run time</dt><dd><ul>\n", f);
        any = true;
        fputs("<li><b>", f);
        html_text(f, m->name);
        fputs("</b>: ", f);
        html_text(f, gelu_impl_source(m));
        if (m->origin && m->origin[0]) {
            fputs(" &#8212; ", f);
            html_text(f, m->origin);
        }
        if (!m->derivative) fputs("; forward only", f);
        if (m->batch_dependence)
            fputs(m->batch_dependence[0] ? "; outputs depend on the batching"
                                         : "; outputs independent of the batching", f);
        fputs("</li>\n", f);
    }
    if (any) fputs("</ul></dd>\n", f);
}

static void run_details(FILE *f, const report_meta *m, const results_set *s)
{
    fprintf(f, "<h2 id=\"run\">How this report was made</h2>\n<dl>\n");
    const char *labels[] = {"CPU",    "compiler", "flags",     "date",
                            "commit", "scan",     "benchmark", "command"};
    const char *values[] = {m->cpu,    m->compiler, m->flags, m->date,
                            m->commit, m->scan,     m->bench, m->command};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        fprintf(f, "<dt>%s</dt><dd>", labels[i]);
        if (i == 7) fputs("<code>", f);
        html_text(f, values[i]);
        if (i == 0) {
            fputs(" (", f);
            html_text(f, m->cpu_features);
            fputs(")", f);
        }
        fputs(i == 7 ? "</code></dd>\n" : "</dd>\n", f);
    }
    added_impls(f, s);
    fputs("</dl>\n", f);
}

static const char how_to_read[] =
    "<h2 id=\"read\">How to read this</h2>\n<ul>\n"
    "<li><b>Target</b>: the formula an implementation approximates: <i>exact</i> GELU "
    "x&#183;&#934;(x), the <i>tanh</i> form, or the <i>sigmoid</i> form x&#183;&#963;(1.702x). "
    "Each is measured against its own target (how well it computes its formula) and against "
    "exact GELU (how far its formula and its rounding are from true GELU).</li>\n"
    "<li><b>ULP</b>: the error in units of the last place of the binary32 result: 0.5 is the best "
    "possible (correctly rounded), a few ULP is good, thousands mean digits are lost. The "
    "<i>@ x</i> line is the first input (hex float) reaching the maximum, so it can be "
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
    "(<code>gelucheck list</code>).</li>\n"
    "<li>The page is readable without script; with it, a click on a header of the summary "
    "table sorts by that column.</li>\n</ul>\n";

/* "AVX-512", "AVX2" or "portable": the widest ISA a row needs (its full list on hover). */
static const char *isa_label(unsigned features)
{
    if (features & (CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512DQ | CPU_FEATURE_AVX512BW |
                    CPU_FEATURE_AVX512VL))
        return "AVX-512";
    return features & CPU_FEATURE_AVX2 ? "AVX2" : "portable";
}

/* A numeric cell's opening tag; data-v holds the number in full for sorting. */
void html_open_num(FILE *f, double v)
{
    fputs("<td", f);
    if (!isnan(v)) {
        if (isinf(v))
            fprintf(f, " data-v=\"%sInfinity\"", v < 0 ? "-" : "");
        else
            fprintf(f, " data-v=\"%.17g\"", v);
    }
    fputs(">", f);
}

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

/* Another format's summary (its section): correct rounding counted, ULPs in the format */
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
        html_text(f, isa_label(r->features));
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

static void summary(FILE *f, const results_set *s)
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

/* ---- the answer: the common needs (pick.h), each with the fastest on this host */

/* oneDNN's single-threaded row for the target, NULL when not benchmarked. */
static const results_row *onednn_row(const results_set *s, const char *target)
{
    for (size_t i = 0; i < s->n; i++) {
        const results_row *r = &s->rows[i];
        const gelu_impl *m = gelu_impl_find(r->name);
        if (impl_family_of(r->name) == FAMILY_FRAMEWORK && strcmp(r->target, target) == 0 &&
            r->nspeeds && !(m && m->own_threads))
            return r;
    }
    return NULL;
}

static void choice_cells(FILE *f, const results_set *s, const pick_candidate *k,
                         const char *size)
{
    const results_row *r = k->row;
    const results_speed *sp = results_speed_at(r, size);
    const results_row *dnnl = onednn_row(s, r->target);
    const results_speed *dsp = dnnl ? results_speed_at(dnnl, size) : NULL;
    fputs("<td class=\"l\"><b>", f);
    html_text(f, r->name);
    fprintf(f, "</b><small>%.4g ULP, max abs %.2g", r->exact[0].max_ulp, r->exact[0].max_abs);
    if (r->exact[0].normal_mean_ulp == r->exact[0].normal_mean_ulp) /* not NaN */
        fprintf(f, "; mean %.3g ULP on N(0,1) inputs", r->exact[0].normal_mean_ulp);
    fputs("</small></td>", f);
    fprintf(f, "<td>%.3g</td><td>%.3g</td>", sp->ns, sp->ratio);
    if (dsp && dnnl != r) {
        fprintf(f, "<td>%.2g<small>", sp->ns / dsp->ns);
        html_text(f, dnnl->name);
        fputs("</small></td>", f);
    } else
        fputs(dnnl == r ? "<td>1<small>itself</small></td>" : "<td>&#8211;</td>", f);
}

static void need_row(FILE *f, const results_set *s, const pick_need *need, pick_candidate *k)
{
    size_t n;
    int fits = pick_rank(s, PICK_HOST, &need->c, k, &n);
    fputs("<tr><td class=\"l\"><b>", f);
    html_text(f, need->title);
    fputs("</b></td>", f);
    if (fits == 0) {
        fputs("<td class=\"l\" colspan=\"5\">nothing measured meets it", f);
        if (n > 0 && !k[0].off_target) {
            fputs("<small>closest: ", f);
            html_text(f, k[0].row->name);
            fputs(" (", f);
            html_text(f, k[0].why);
            fputs(")</small>", f);
        }
        fputs("</td></tr>\n", f);
        return;
    }
    choice_cells(f, s, &k[0], need->c.size);
    fputs("<td class=\"l\">", f);
    if (fits > 1) {
        fputs("<b>", f);
        html_text(f, k[1].row->name);
        fprintf(f, "</b><small>%.3g ns/elem, %.4g ULP</small>", k[1].ns,
                k[1].row->exact[0].max_ulp);
    } else
        fputs("none<small>no other meets it</small>", f);
    fputs("</td></tr>\n", f);
}

static void broken_summary(FILE *f, const html_report *h)
{
    if (h->nbroken == 0) {
        fputs("<p class=\"ok\">Every implementation meets the contract it declares.</p>\n", f);
        return;
    }
    fprintf(f, "<p class=\"broken\">%zu declared contract%s broken: ", h->nbroken,
            h->nbroken > 1 ? "s" : "");
    for (size_t i = 0; i < h->nbroken; i++) {
        size_t name = strcspn(h->broken[i], " :");
        fputs(i ? ", <code>" : "<code>", f);
        fprintf(f, "%.*s", (int)name, h->broken[i]);
        fputs("</code>", f);
    }
    fputs(" (<a href=\"#contracts\">the claims and inputs</a>)</p>\n", f);
}

/* One line in the answer: the baseline's verdict. */
static void baseline_summary(FILE *f, const html_report *h)
{
    if (!h->baseline_dir) return;
    if (!h->baseline) {
        fputs("<p class=\"broken\">Not compared with the baseline <code>", f);
        html_text(f, h->baseline_dir);
        fputs("</code>: ", f);
        html_text(f, h->baseline_note ? h->baseline_note : "unreadable");
        fputs("</p>\n", f);
        return;
    }
    const compare_result *c = &h->baseline->result;
    fprintf(f, "<p class=\"%s\">Against the baseline <code>", c->regressions ? "broken" : "ok");
    html_text(f, h->baseline_dir);
    fprintf(f, "</code>: %zu regression%s (<a href=\"#changes\">what changed</a>)</p>\n",
            c->regressions, c->regressions == 1 ? "" : "s");
}

static void changes_section(FILE *f, const html_report *h)
{
    if (!h->baseline) return;
    const compare_result *c = &h->baseline->result;
    const run_manifest *m = h->baseline->manifest;
    fputs("<h2 id=\"changes\">What changed since the baseline</h2>\n<p>Baseline <code>", f);
    html_text(f, h->baseline_dir);
    fputs("</code> (commit ", f);
    html_text(f, m[0].commit);
    fputs(", ", f);
    html_text(f, m[0].created);
    fprintf(f, "), %zu implementations compared, as <code>gelucheck compare</code> does (also "
               "in <code>compare.csv</code>). Accuracy is deterministic, so any worse figure is "
               "a regression; a speed change counts only when the two runs' interquartile ranges "
               "do not overlap%s.</p>\n",
            c->compared, h->baseline->same_cpu ? "" : " (not compared here: different CPUs)");
    if (c->n == 0) {
        fputs("<p>Nothing changed.</p>\n", f);
        return;
    }
    fputs("<div class=\"scroll\">\n<table>\n<thead><tr><th class=\"l\">change</th>"
          "<th class=\"l\">impl</th><th class=\"l\">figure</th><th>baseline</th><th>now</th>"
          "</tr></thead>\n<tbody>\n",
          f);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < c->n; i++) {
            const compare_change *ch = &c->changes[i];
            bool bad = compare_kind_is_regression(ch->kind);
            if (bad != (pass == 0)) continue;
            fprintf(f, "<tr class=\"%s\"><td class=\"l c\">%s</td><td class=\"l\">",
                    bad ? "fail" : "pass", compare_kind_name(ch->kind));
            html_text(f, ch->impl);
            fputs("</td><td class=\"l\">", f);
            html_text(f, ch->metric);
            fputs("</td><td>", f);
            html_text(f, ch->old_value);
            fputs("</td><td>", f);
            html_text(f, ch->new_value);
            fputs("</td></tr>\n", f);
        }
    fputs("</tbody>\n</table>\n</div>\n", f);
}

/* Every scanned input of the row correctly rounded against exact GELU, forward and (when
 * scanned) derivative: its own target's rows, so exact-target implementations only. */
static bool all_correctly_rounded_exact(const results_row *r)
{
    if (strcmp(r->target, "exact") != 0 || !r->own[DIR_FORWARD].present) return false;
    for (int d = 0; d < DIR_COUNT; d++)
        if (r->own[d].present && !results_all_correctly_rounded(&r->own[d])) return false;
    return true;
}

/* The answer's line on the other formats, from their results: per format the implementations
 * correctly rounded at every input (exact GELU, forward and derivative); none: the exact-target
 * one with the fewest forward inputs not correctly rounded. Without results, why (formats_note). */
static void answer_formats(FILE *f, const html_report *h)
{
    if (!h->nformats) {
        fputs("<p>16-bit formats: ", f);
        html_text(f, h->formats_note ? h->formats_note : "not scanned");
        fputs("</p>\n", f);
        return;
    }
    /* one paragraph for all formats: the answer must fit the first screen (tests/test_browser.sh) */
    fputs("<p>Correctly rounded, exact GELU, every input, forward and derivative: ", f);
    for (size_t k = 0; k < h->nformats; k++) {
        const results_set *s = h->formats[k].results;
        const char *name = gelu_format_of(s->format)->name;
        size_t listed = 0;
        const results_row *closest = NULL;
        long long fewest = -1;
        bool grad = false;
        for (size_t i = 0; i < s->n; i++) grad |= s->rows[i].own[DIR_DERIVATIVE].present;
        fprintf(f, "%s<a href=\"#%s\">%s</a>%s ", k ? "; " : "", name, name,
                grad ? "" : " (forward only scanned)");
        /* the format's own implementations by name, then those run widened: a few names when
         * no native is among them, a count for the rest (the format's section lists them all) */
        size_t widened = 0, own = 0;
        for (int pass = 0; pass < 2; pass++, own = listed)
            for (size_t i = 0; i < s->n; i++) {
                const results_row *r = &s->rows[i];
                bool native = gelu_impl_find_in(r->name, s->format) != NULL;
                if ((pass == 0) != native) continue;
                long long wrong = results_not_correctly_rounded(&r->own[DIR_FORWARD]);
                if (all_correctly_rounded_exact(r)) {
                    if (!native && (own || listed >= 3)) { widened++; continue; }
                    fputs(listed++ ? ", <code>" : "<code>", f);
                    html_text(f, r->name);
                    fprintf(f, "</code>%s", grad && !r->own[DIR_DERIVATIVE].present ? " (forward only)" : "");
                } else if (strcmp(r->target, "exact") == 0 && wrong >= 0 && (!closest || wrong < fewest)) {
                    fewest = wrong;
                    closest = r;
                }
            }
        if (widened) fprintf(f, " +%zu widened", widened);
        if (listed == 0 && closest) {
            fputs("none (closest: <code>", f);
            html_text(f, closest->name);
            fprintf(f, "</code>, %lld forward inputs missed)", fewest);
        } else if (listed == 0) {
            fputs("none", f);
        }
    }
    fputs(".</p>\n", f);
}

static void answer_section(FILE *f, const html_report *h)
{
    const results_set *s = h->results;
    pick_candidate *k = malloc(RESULTS_MAX_ROWS * sizeof *k);
    char feat[128];
    fputs("<section id=\"answer\">\n<div>\n<h2>Which GELU to use on this machine</h2>\n", f);
    fputs("<div class=\"scroll\">\n<table>\n<thead><tr><th class=\"l\">need</th>"
          "<th class=\"l\">fastest meeting it<small>vs exact GELU</small></th>"
          "<th>ns/elem<small>l2</small></th><th>&#215;ReLU<small>l2</small></th>"
          "<th>&#215;oneDNN<small>same target</small></th>"
          "<th class=\"l\">runner-up</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; k && i < pick_need_count(); i++) need_row(f, s, pick_need_at(i), k);
    fputs("</tbody>\n</table>\n</div>\n<p class=\"sub\">", f);
    fprintf(f, "Chosen by <code>gelucheck pick --platform host</code> (%s) from these results; "
               "a need's constraints: ",
            cpu_features_string(pick_platform_features(PICK_HOST), feat, sizeof feat));
    for (size_t i = 0; i < pick_need_count(); i++) {
        fputs(i ? "; <i>" : "<i>", f);
        html_text(f, pick_need_at(i)->title);
        fputs("</i>: ", f);
        html_text(f, pick_need_at(i)->asks);
    }
    fputs(". Ranked by median ns/element at l2, in binary32 (<code>gelucheck pick --format "
          "F</code> chooses within format F).</p>\n", f);
    answer_formats(f, h);
    broken_summary(f, h);
    baseline_summary(f, h);
    fputs("</div>\n", f);
    if (h->svg[PLOT_PARETO]) {
        fputs("<figure id=\"pareto\">\n", f);
        html_inline_svg(f, h->svg[PLOT_PARETO]);
        fputs("<figcaption>", f);
        html_text(f, plot_caption(PLOT_PARETO, GELU_FORMAT_BINARY32));
        fputs(" (<code>pareto.svg</code>, <code>pareto.gp</code>)</figcaption>\n</figure>\n", f);
    }
    fputs("</section>\n", f);
    free(k);
}

/* Sorts table.sortable by a header's column on click (numbers by data-v, text by data-v or
 * the cell's text; again for the other direction). Written without '<' or '&' so the page stays
 * well-formed XML; without script the table stays in the scan's order. */
static const char sort_script[] =
    "<script>\n"
    "document.querySelectorAll('table.sortable').forEach(function (t) {\n"
    "  t.tHead.querySelectorAll('th[data-sort]').forEach(function (th) {\n"
    "    th.title = 'sort by this column';\n"
    "    th.addEventListener('click', function () {\n"
    "      var k = th.cellIndex, num = th.dataset.sort === 'num';\n"
    "      var dir = th.dataset.dir === 'up' ? -1 : 1;\n"
    "      th.dataset.dir = dir === 1 ? 'up' : 'down';\n"
    "      var key = function (row) {\n"
    "        var c = row.cells[k], v = c.dataset.v;\n"
    "        if (num) return v === undefined ? Infinity : Number(v);\n"
    "        return v === undefined ? c.textContent : v;\n"
    "      };\n"
    "      var rows = Array.prototype.slice.call(t.tBodies[0].rows);\n"
    "      rows.sort(function (a, b) {\n"
    "        var x = key(a), y = key(b);\n"
    "        if (num) return x === y ? 0 : (x > y ? dir : -dir);\n"
    "        return dir * String(x).localeCompare(String(y));\n"
    "      });\n"
    "      rows.forEach(function (r) { t.tBodies[0].appendChild(r); });\n"
    "    });\n"
    "  });\n"
    "});\n"
    "</script>\n";

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
    fputs("<h2 id=\"contracts\">Contracts</h2>\n", f);
    if (h->nbroken == 0) {
        fputs("<p>Every implementation meets the contract it declares.</p>\n", f);
        return;
    }
    fputs("<p>Declared contracts this run found broken (the first broken claim of each):</p>\n"
          "<ul>\n",
          f);
    for (size_t i = 0; i < h->nbroken; i++) {
        fputs("<li><code>", f);
        html_text(f, h->broken[i]);
        fputs("</code></li>\n", f);
    }
    fputs("</ul>\n", f);
}

/* A plot as a figure: its title (a heading under binary32's Plots or a format's section), the
 * SVG inline, its caption and files. */
static void plot_figure(FILE *f, plot_kind k, gelu_format_id format, const char *svg)
{
    char stem[64];
    const char *h = format == GELU_FORMAT_BINARY32 ? "h3" : "h4"; /* under the format's h3 */
    plot_stem(k, format, stem, sizeof stem);
    fprintf(f, "<figure id=\"%s\">\n<%s>", stem, h);
    html_text(f, plot_title(k));
    fprintf(f, "</%s>\n", h);
    html_inline_svg(f, svg);
    fputs("<figcaption>", f);
    html_text(f, plot_caption(k, format));
    fprintf(f, " (<code>%s.svg</code>, drawn by <code>%s.gp</code>)</figcaption>\n</figure>\n",
            stem, stem);
}

static void plots_section(FILE *f, const html_report *h)
{
    fputs("<h2 id=\"plots\">Plots</h2>\n", f);
    if (h->plots_note) {
        fputs("<p><b>", f);
        html_text(f, h->plots_note);
        fputs("</b></p>\n", f);
    }
    for (int k = 0; k < PLOT_COUNT; k++)
        if (h->svg[k] && k != PLOT_PARETO && plot_drawn((plot_kind)k, GELU_FORMAT_BINARY32))
            plot_figure(f, (plot_kind)k, GELU_FORMAT_BINARY32, h->svg[k]);
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
    "<li><code>implementations.csv</code>: what each implementation is and where it comes "
    "from: target, derivative, source (built in, a plugin file, an exec command), origin, "
    "whether its outputs were found independent of the batching.</li>\n"
    "<li><code>bench.csv</code>: the benchmark, per size (<code>timed</code>: <i>child</i> for "
    "an exec child timed by its own clock).</li>\n"
    "<li><code>moons.csv</code>: the make_moons experiment, one row per seed and "
    "implementation (as <code>gelucheck moons --csv</code>).</li>\n"
    "<li><code>accuracy_bfloat16.csv</code>, <code>accuracy_binary16.csv</code>: the 16-bit "
    "formats' scans, with <code>accuracy.csv</code>'s columns; <code>ulp_by_x_bfloat16.csv</code>, "
    "<code>ulp_by_x_binary16.csv</code> as <code>ulp_by_x.csv</code>; "
    "<code>bench_bfloat16.csv</code>, <code>bench_binary16.csv</code>: their benchmarks "
    "(<code>gelucheck bench --format F</code>), with <code>bench.csv</code>'s columns.</li>\n"
    "<li><code>accuracy_binary64.csv</code>: binary64's sampled scan (<code>gelucheck accuracy "
    "--format binary64 --grad</code>), with <code>accuracy.csv</code>'s columns; "
    "<code>ulp_by_x_binary64.csv</code>: the sample's maxima per 1/8 of x, as "
    "<code>ulp_by_x.csv</code>; <code>bench_binary64.csv</code>: its benchmark (<code>gelucheck "
    "bench --format binary64</code>), with <code>bench.csv</code>'s columns.</li>\n"
    "<li><code>" RESULTS_FTZ_DAZ_FILE "</code>: the scan with MXCSR's FTZ and DAZ set, over the "
    "inputs they can change (section ftz,daz), with <code>accuracy.csv</code>'s columns "
    "(<code>fpenv</code> ftz+daz).</li>\n"
    "</ul>\n";

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
            plot_figure(f, (plot_kind)k, s->format, hf->svg[k]);
}

/* A 16-bit format's section: its heading and body. */
static void format_section(FILE *f, const html_format *hf)
{
    const char *name = gelu_format_of(hf->results->format)->name;
    fprintf(f, "<h3 id=\"%s\">%s</h3>\n", name, name);
    format_body(f, hf);
}

static void formats16_section(FILE *f, const html_report *h)
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
static void binary64_section(FILE *f, const html_report *h)
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
static void ftz_daz_section(FILE *f, const html_report *h)
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

int html_report_write(FILE *f, const html_report *h)
{
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
            "<title>gelucheck report</title>\n<style>%s</style>\n</head>\n<body>\n",
            style);
    header(f, h->meta);
    answer_section(f, h);
    changes_section(f, h);
    summary(f, h->results);
    broken_section(f, h);
    plots_section(f, h);
    moons_section(f, h->moons);
    formats16_section(f, h);
    binary64_section(f, h);
    ftz_daz_section(f, h);
    fputs(how_to_read, f);
    run_details(f, h->meta, h->results);
    fputs(files_section, f);
    fputs(sort_script, f);
    fputs("</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}
