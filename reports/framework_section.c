/* The report's framework section (see framework_section.h). */
#include "framework_section.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "exec_frameworks.h"
#include "html_text.h"

/* The row's name of a path ("torch_gelu" of "torch_gelu@size1") into buf; NULL for no path. */
static const char *row_name(const char *path, char *buf, size_t size)
{
    const char *at = strchr(path, '@');
    if (!at) return NULL;
    snprintf(buf, size, "%.*s", (int)(at - path), path);
    return buf;
}

static const framework_path_diff *diff_of(const framework_diffs *d, const char *path)
{
    for (size_t i = 0; d && i < d->n; i++)
        if (strcmp(d->d[i].path, path) == 0) return &d->d[i];
    return NULL;
}

static void num_cell(FILE *f, const results_error *e, double v)
{
    if (!e->present) {
        fputs("<td>n/a</td>", f);
        return;
    }
    html_open_num(f, v);
    fprintf(f, "%.4g</td>", v);
}

static void differ_cell(FILE *f, const framework_path_diff *d, int dir, uint64_t inputs)
{
    if (!d) fputs("<td>batch path</td>", f);
    else if (d->differ[dir] < 0) fputs("<td>n/a</td>", f);
    else fprintf(f, "<td%s>%ld <small>of %llu</small></td>", d->differ[dir] ? " class=\"broken\"" : "",
                 d->differ[dir], (unsigned long long)inputs);
}

static bool same_error(const results_error *a, const results_error *b)
{
    return a->present == b->present &&
           (!a->present || (a->max_ulp == b->max_ulp && a->max_abs == b->max_abs));
}

/* Whether b is a path of a's row whose line would show a's cells (d: a's
 * differences from the batch path). */
static bool same_line(const results_row *a, const framework_path_diff *d, const results_row *b,
                      const framework_diffs *diffs)
{
    char ra[RESULTS_NAME], rb[RESULTS_NAME];
    const framework_path_diff *e = diff_of(diffs, b->name);
    return b->scanned && row_name(b->name, rb, sizeof rb) && row_name(a->name, ra, sizeof ra) &&
           strcmp(ra, rb) == 0 && strcmp(a->contract, b->contract) == 0 &&
           a->mono_violations == b->mono_violations && same_error(&a->own[0], &b->own[0]) &&
           same_error(&a->own[1], &b->own[1]) && (d == NULL) == (e == NULL) &&
           (!d || (d->differ[0] == e->differ[0] && d->differ[1] == e->differ[1]));
}

/* One framework's table: its rows, each followed by its paths (consecutive paths of a row with
 * the same figures on one line: "ROW@size2 to @size33 (32 paths)"); format: the scan's format,
 * named in the heading when it is not binary32. */
static void framework_table(FILE *f, const results_set *s, const char *framework,
                            const framework_diffs *diffs, gelu_format_id format)
{
    fprintf(f, "<h3>");
    html_text(f, framework);
    if (format != GELU_FORMAT_BINARY32) fprintf(f, " (%s)", gelu_format_of(format)->name);
    fputs("</h3>\n<div class=\"scroll\">\n<table>\n<thead><tr><th class=\"l\">row / path</th>"
          "<th>contract</th><th>max ULP<small>own target, forward</small></th>"
          "<th>max abs<small>own target, forward</small></th>"
          "<th>max abs<small>derivative</small></th><th>monotonicity<small>violations</small></th>"
          "<th>&#8800; batch path<small>forward</small></th>"
          "<th>&#8800; batch path<small>derivative</small></th></tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < s->n; i++) {
        const results_row *r = &s->rows[i];
        char name[RESULTS_NAME];
        const char *row = row_name(r->name, name, sizeof name);
        const exec_framework *fw = exec_framework_find(row ? row : r->name);
        if (!fw || strcmp(fw->framework, framework) != 0 || !r->scanned) continue;
        const framework_path_diff *d = diff_of(diffs, r->name);
        /* the paths after it of the same row with the same cells: one line (size classes) */
        size_t last = i;
        while (row && last + 1 < s->n && same_line(r, d, &s->rows[last + 1], diffs)) last++;
        fputs(row ? "<tr><td class=\"l\">&#160;&#160;<code>" : "<tr><td class=\"l\"><code>", f);
        html_text(f, r->name);
        if (last > i) {
            const char *tail = strchr(s->rows[last].name, '@');
            fputs("</code> to <code>", f);
            html_text(f, tail ? tail : s->rows[last].name);
            fprintf(f, "</code> <small>(%zu paths, the same figures)</small>", last - i + 1);
        } else {
            fputs("</code>", f);
        }
        fprintf(f, "</td><td%s>%s</td>", strcmp(r->contract, "fail") == 0 ? " class=\"broken\"" : "",
                r->contract[0] ? r->contract : "none");
        num_cell(f, &r->own[0], r->own[0].max_ulp);
        num_cell(f, &r->own[0], r->own[0].max_abs);
        num_cell(f, &r->own[1], r->own[1].max_abs);
        fprintf(f, "<td>%ld</td>", r->mono_violations);
        differ_cell(f, row ? d : NULL, 0, diffs ? diffs->inputs : 0);
        differ_cell(f, row ? d : NULL, 1, diffs ? diffs->inputs : 0);
        fputs("</tr>\n", f);
        i = last;
    }
    fputs("</tbody>\n</table>\n</div>\n", f);
}

/* The frameworks of s's framework rows, in order of first appearance, into seen; whether a
 * path is among the rows. */
static size_t frameworks_of(const results_set *s, const char *seen[8], bool *any_path)
{
    size_t nseen = 0;
    for (size_t i = 0; s && i < s->n; i++) {
        char name[RESULTS_NAME];
        const char *row = row_name(s->rows[i].name, name, sizeof name);
        const exec_framework *fw = exec_framework_find(row ? row : s->rows[i].name);
        if (!fw || !s->rows[i].scanned) continue;
        *any_path |= row != NULL;
        bool known = false;
        for (size_t k = 0; k < nseen; k++) known |= strcmp(seen[k], fw->framework) == 0;
        if (!known && nseen < 8) seen[nseen++] = fw->framework;
    }
    return nseen;
}

void framework_section_html(FILE *f, const results_set *s, const framework_paths_out *paths)
{
    const char *seen[8];
    bool any_path = false, scanned = paths && paths->n;
    size_t nseen = frameworks_of(scanned ? paths->s[0].results : s, seen, &any_path);
    if (nseen == 0) return;
    fputs("<section id=\"frameworks\">\n<h2>The frameworks' paths</h2>\n<p class=\"sub\">A "
          "framework's GELU is the function a user lands on by how they call it: each row below is "
          "the batch path (the scan's requests as one tensor) and, indented, the paths this run "
          "scanned as rows of their own (<code>ROW@PATH</code>: tensor sizes, two intra-op "
          "threads, compiled, fused; <code>GELUCHECK_FRAMEWORK_PATHS</code> selects them, "
          "docs/frameworks.md), each judged by the row's contract.", f);
    if (!any_path)
        fputs(" This run scanned no path: the batch paths alone, over the run's inputs.", f);
    fputs(" The GELU you get depends on how you call it where a path's verdict or outputs "
          "differ from its row's.</p>\n", f);
    if (paths && paths->note[0]) {
        fputs("<p class=\"note\">", f);
        html_text(f, paths->note);
        fputs("</p>\n", f);
    }
    if (!scanned) {
        for (size_t k = 0; k < nseen; k++) framework_table(f, s, seen[k], NULL, GELU_FORMAT_BINARY32);
        fputs("</section>\n", f);
        return;
    }
    for (size_t j = 0; j < paths->n; j++) {
        const framework_paths_section *sec = &paths->s[j];
        fprintf(f, "<h3>%s</h3>\n<p>Rows and paths over ", gelu_format_of(sec->format)->name);
        html_text(f, sec->covered);
        if (sec->diffs.n)
            fprintf(f, "; &#8800; batch path: the outputs whose encoding differs from the row's, "
                       "at every one of these %llu inputs.</p>\n",
                    (unsigned long long)sec->diffs.inputs);
        else
            fputs(".</p>\n", f);
        const char *fws[8];
        bool any = false;
        size_t nfw = frameworks_of(sec->results, fws, &any);
        for (size_t k = 0; k < nfw; k++) framework_table(f, sec->results, fws[k], &sec->diffs, sec->format);
    }
    fputs("</section>\n", f);
}
