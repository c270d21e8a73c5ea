/* index.html (see html_report.h): the page's frame, the answer (pick.h), what changed since a
 * baseline, the broken contracts, the plots, how to read it, how it was made and the files; the
 * tables and the other sections come from html_tables.c and html_moons.c. */
#include "html_report.h"

#include "html_moons.h"
#include "html_tables.h"
#include "html_text.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gelu_cr16.h"
#include "gelu_impl.h"
#include "known_names.h"
#include "pick.h"
#include "report_files.h"

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
    "#answer td{font-size:1.05em}#matrix td.l:first-child{min-width:8.5em}"
    "#matrix td small{white-space:normal}"
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


/* ---- the answer: the common needs (pick.h), each with the fastest on this host */

/* The ML kernel library's (oneDNN's) single-threaded row for the target, NULL when not
 * benchmarked. */
static const results_row *onednn_row(const results_set *s, const char *target)
{
    for (size_t i = 0; i < s->n; i++) {
        const results_row *r = &s->rows[i];
        const gelu_impl *m = gelu_impl_find(r->name);
        if (impl_family_of(r->name) == GELU_FAMILY_ML_LIBRARY && strcmp(r->target, target) == 0 &&
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

/* Every platform × need (answer.h), and what the figures are and where they come from. */
static void answer_matrix(FILE *f, const html_report *h)
{
    const answer *a = h->answer;
    char cover[160];
    fputs("<h2>Which GELU to ship</h2>\n<div class=\"scroll\">\n", f);
    answer_html(f, a);
    fputs("</div>\n<p class=\"sub\">The fastest meeting each need on each platform "
          "(<code>gelucheck pick --platform all</code>, <code>answer.json</code>; a need's "
          "constraints on its name and in <code>pick --help</code>): ", f);
    html_text(f, a->format);
    fputs(" at ", f);
    html_text(f, a->size[0] ? a->size : "-");
    fputs(", &#215;ReLU against the platform's own ReLU build, accuracy over ", f);
    html_text(f, answer_coverage(a, cover, sizeof cover));
    fputs("; all measured on this CPU", f);
    for (size_t i = 0; i < a->ncapped; i++) {
        fputs(i ? ", " : ", the rows that dispatch at run time again under ", f);
        fputs("<code>", f);
        html_text(f, a->capped[i].cap);
        fputs("</code>", f);
    }
    fputs(".</p>\n", f);
}

/* The row families the run left out and why (left_out.h), so that "every implementation" is
 * read with them. */
static void left_out_summary(FILE *f, const html_report *h)
{
    if (!h->answer || !h->answer->left_out_known) return;
    const left_out *lo = &h->answer->left_out;
    fputs("<p class=\"sub\" id=\"left-out\"><b>Left out of this run:</b> ", f);
    if (lo->n == 0) fputs("nothing.", f);
    for (size_t i = 0; i < lo->n; i++) {
        const left_out_family *e = &lo->f[i];
        fputs(i ? "; <i>" : "<i>", f);
        html_text(f, e->family);
        fputs("</i> (", f);
        html_text(f, e->rows);
        fputs("): ", f);
        html_text(f, e->why);
        if (e->command[0]) {
            fputs(" &#8212; <code>", f);
            html_text(f, e->command);
            fputs("</code>", f);
        }
    }
    fputs("</p>\n", f);
}

static void answer_section(FILE *f, const html_report *h)
{
    const results_set *s = h->results;
    pick_candidate *k = malloc(RESULTS_MAX_ROWS * sizeof *k);
    char feat[128];
    fputs("<section id=\"answer\">\n<div>\n", f);
    if (h->answer) {
        answer_matrix(f, h);
    } else {
        fputs("<h2>Which GELU to use on this machine</h2>\n", f);
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
    }
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
            html_plot_figure(f, (plot_kind)k, GELU_FORMAT_BINARY32, h->svg[k]);
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
    left_out_summary(f, h); /* under the answer, outside its first screen */
    changes_section(f, h);
    html_summary(f, h->results);
    broken_section(f, h);
    framework_section_html(f, h->results, h->framework_paths);
    plots_section(f, h);
    html_moons_section(f, h->moons);
    html_formats16_section(f, h);
    html_binary64_section(f, h);
    html_ftz_daz_section(f, h);
    fputs(how_to_read, f);
    run_details(f, h->meta, h->results);
    report_files_html(f);
    fputs(sort_script, f);
    fputs("</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}
