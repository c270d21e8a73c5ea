/* The columns of accuracy results (see accuracy_columns.h): what each field of accuracy.csv holds,
 * how the console table prints it, and its cell in the HTML summary. */
#include "accuracy_columns.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "float_bits.h"
#include "html_text.h"

static const char *const ref_names[REF_KINDS] = {"own", "exact"};
static const char *const dir_names[DIR_COUNT] = {"forward", "derivative"};

const char *accuracy_ref_name(int ref) { return ref >= 0 && ref < REF_KINDS ? ref_names[ref] : "?"; }
const char *accuracy_dir_name(int dir) { return dir >= 0 && dir < DIR_COUNT ? dir_names[dir] : "?"; }

static const impl_metrics *metrics_of(const accuracy_row *w) { return &w->r->metrics[w->i]; }
static const error_metrics *errors_of(const accuracy_row *w)
{
    return &metrics_of(w)->err[w->ref][w->dir];
}
static bool own_forward(const accuracy_row *w) { return w->ref == REF_OWN && w->dir == DIR_FORWARD; }
static bool own_derivative(const accuracy_row *w)
{
    return w->ref == REF_OWN && w->dir == DIR_DERIVATIVE;
}

/* ---- CSV fields: numbers as %.9g (a maximum of −inf, nothing measured: empty), inputs as %a
 * (no argmax: empty), counts as integers */

static void put_count(char *buf, size_t size, unsigned long long v) { snprintf(buf, size, "%llu", v); }
static void put_value(char *buf, size_t size, double v)
{
    if (isinf(v) && v < 0) snprintf(buf, size, "%s", "");
    else snprintf(buf, size, "%.9g", v);
}
static void put_x(const accuracy_row *w, char *buf, size_t size, const arg_max *m)
{
    if (m->seq == UINT64_MAX) snprintf(buf, size, "%s", "");
    else snprintf(buf, size, "%a", scan_result_input(w->r, m->seq, m->bits));
}

static void csv_impl(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%s", w->r->impls[w->i]->name);
}
static void csv_format(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%s", gelu_format_of(w->r->impls[w->i]->format)->name);
}
/* The floating-point environment the kernels ran in (gelu_fpenv.h): ieee, ftz, daz, ftz+daz;
 * the run's, or in an IEEE run the one an exec child always runs in (gelu_impl.fixed_fpenv). */
static void csv_fpenv(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%s", gelu_fpenv_name(gelu_impl_fpenv(w->r->impls[w->i], w->r->fpenv)));
}
/* The code path a run-time dispatching peer took in this process (oneDNN: "avx2"); "" else. */
static void csv_dispatched_isa(const accuracy_row *w, char *b, size_t n)
{
    const gelu_impl *m = w->r->impls[w->i];
    snprintf(b, n, "%s", m->dispatched_isa ? m->dispatched_isa() : "");
}
static void csv_target(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%s", gelu_target_name(w->r->impls[w->i]->target));
}
static void csv_reference(const accuracy_row *w, char *b, size_t n) { snprintf(b, n, "%s", ref_names[w->ref]); }
static void csv_direction(const accuracy_row *w, char *b, size_t n) { snprintf(b, n, "%s", dir_names[w->dir]); }
static void csv_inputs(const accuracy_row *w, char *b, size_t n) { put_count(b, n, errors_of(w)->count); }
static void csv_max_ulp(const accuracy_row *w, char *b, size_t n) { put_value(b, n, errors_of(w)->max_ulp.value); }
static void csv_max_ulp_x(const accuracy_row *w, char *b, size_t n) { put_x(w, b, n, &errors_of(w)->max_ulp); }
static void csv_mean_ulp(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%.9g", error_metrics_mean_ulp(errors_of(w)));
}
static void csv_correctly_rounded(const accuracy_row *w, char *b, size_t n)
{
    put_count(b, n, errors_of(w)->correctly_rounded);
}
static double cr_fraction(const error_metrics *e)
{
    return e->count ? (double)e->correctly_rounded / (double)e->count : 0.0;
}
static void csv_cr_fraction(const accuracy_row *w, char *b, size_t n) { snprintf(b, n, "%.9g", cr_fraction(errors_of(w))); }
static void csv_max_abs(const accuracy_row *w, char *b, size_t n) { put_value(b, n, errors_of(w)->max_abs.value); }
static void csv_max_abs_x(const accuracy_row *w, char *b, size_t n) { put_x(w, b, n, &errors_of(w)->max_abs); }
static void csv_max_rel(const accuracy_row *w, char *b, size_t n) { put_value(b, n, errors_of(w)->max_rel.value); }
static void csv_max_rel_x(const accuracy_row *w, char *b, size_t n) { put_x(w, b, n, &errors_of(w)->max_rel); }
static void csv_nonfinite(const accuracy_row *w, char *b, size_t n)
{
    uint64_t c = 0;
    for (int g = 0; g < RANGE_COUNT; g++) c += errors_of(w)->hist[g][HIST_BUCKETS - 1];
    put_count(b, n, c);
}
/* Monotonicity: the forward against the own target's x_min only. */
static void csv_mono_violations(const accuracy_row *w, char *b, size_t n)
{
    if (own_forward(w)) put_count(b, n, metrics_of(w)->mono.violations);
    else snprintf(b, n, "%s", "");
}
static bool mono_broken(const accuracy_row *w) { return own_forward(w) && metrics_of(w)->mono.violations; }
static void csv_mono_max_steps(const accuracy_row *w, char *b, size_t n)
{
    if (mono_broken(w)) put_value(b, n, metrics_of(w)->mono.largest.value);
    else snprintf(b, n, "%s", "");
}
static void csv_mono_max_x(const accuracy_row *w, char *b, size_t n)
{
    if (mono_broken(w)) put_x(w, b, n, &metrics_of(w)->mono.largest);
    else snprintf(b, n, "%s", "");
}
/* The derivative's sign, against the own target. */
static void csv_sign_violations(const accuracy_row *w, char *b, size_t n)
{
    if (own_derivative(w)) put_count(b, n, metrics_of(w)->sign.violations);
    else snprintf(b, n, "%s", "");
}
static void csv_sign_first_x(const accuracy_row *w, char *b, size_t n)
{
    if (own_derivative(w) && metrics_of(w)->sign.violations)
        snprintf(b, n, "%a", scan_result_input(w->r, metrics_of(w)->sign.first_seq,
                                               metrics_of(w)->sign.first_bits));
    else
        snprintf(b, n, "%s", "");
}
/* Special values and the derivative's consistency with the forward: own target, when measured. */
static bool has_extras(const accuracy_row *w) { return w->r->has_extras && w->ref == REF_OWN; }
static void csv_specials_failed(const accuracy_row *w, char *b, size_t n)
{
    if (has_extras(w)) snprintf(b, n, "%zu", w->r->extras[w->i].nspecial_failed[w->dir]);
    else snprintf(b, n, "%s", "");
}
static void csv_consistency_max_rel(const accuracy_row *w, char *b, size_t n)
{
    if (has_extras(w) && w->dir == DIR_DERIVATIVE)
        snprintf(b, n, "%.6g", w->r->extras[w->i].consistency_max_rel);
    else
        snprintf(b, n, "%s", "");
}
static void csv_consistency_x(const accuracy_row *w, char *b, size_t n)
{
    if (has_extras(w) && w->dir == DIR_DERIVATIVE)
        snprintf(b, n, "%a", (double)w->r->extras[w->i].consistency_x);
    else
        snprintf(b, n, "%s", "");
}
/* Whether the outputs were found independent of the batching (gelu_impl.batch_dependence):
 * yes or no when probed (exec children), empty when not. */
static void csv_batch_independent(const accuracy_row *w, char *b, size_t n)
{
    const char *dep = w->r->impls[w->i]->batch_dependence;
    snprintf(b, n, "%s", !dep ? "" : dep[0] ? "no" : "yes");
}
static void csv_ref_fallbacks(const accuracy_row *w, char *b, size_t n)
{
    gelu_target t = w->ref == REF_OWN ? w->r->impls[w->i]->target : GELU_TARGET_EXACT;
    put_count(b, n, w->r->fallbacks[t][w->dir]);
}
static void csv_contract(const accuracy_row *w, char *b, size_t n)
{
    char why[256];
    if (w->ref == REF_OWN)
        snprintf(b, n, "%s", scan_contract_violations(w->r, w->i, why, sizeof why) ? "fail" : "pass");
    else
        snprintf(b, n, "%s", "");
}
/* The frameworks' criteria: forward only; binary32 rules, not applied to a binary64 sample
 * (x64). */
static bool criteria_applied(const accuracy_row *w) { return w->dir == DIR_FORWARD && !w->r->x64; }
static void csv_benchdnn_failed(const accuracy_row *w, char *b, size_t n)
{
    if (criteria_applied(w)) put_count(b, n, errors_of(w)->benchdnn_failed);
    else snprintf(b, n, "%s", "");
}
static void csv_xnnpack_failed(const accuracy_row *w, char *b, size_t n)
{
    if (criteria_applied(w)) put_count(b, n, errors_of(w)->xnnpack_failed);
    else snprintf(b, n, "%s", "");
}
static void csv_xnnpack_checked(const accuracy_row *w, char *b, size_t n)
{
    if (criteria_applied(w)) put_count(b, n, errors_of(w)->xnnpack_checked);
    else snprintf(b, n, "%s", "");
}

/* Weighted as activations are drawn (scan/weights.h): the mean, and the maximum over the
 * distribution's inputs of non-negligible mass ("" when none was scanned; "" for a binary64
 * sample, whose points carry no weight). */
static void put_dist(const accuracy_row *w, char *b, size_t n, input_dist g, error_kind k, bool max)
{
    if (w->r->x64) {
        snprintf(b, n, "%s", "");
        return;
    }
    double v = max ? error_metrics_dist_max(errors_of(w), g, k) : error_metrics_dist_mean(errors_of(w), g, k);
    if (max && isinf(v) && v < 0) snprintf(b, n, "%s", "");
    else snprintf(b, n, "%.9g", v);
}
#define DIST_FIELD(name, g, k, max)                                                                \
    static void csv_##name(const accuracy_row *w, char *b, size_t n) { put_dist(w, b, n, g, k, max); }
DIST_FIELD(normal_mean_ulp, DIST_NORMAL, ERR_ULP, false)
DIST_FIELD(normal_max_ulp, DIST_NORMAL, ERR_ULP, true)
DIST_FIELD(normal_mean_abs, DIST_NORMAL, ERR_ABS, false)
DIST_FIELD(normal_max_abs, DIST_NORMAL, ERR_ABS, true)
DIST_FIELD(uniform_mean_ulp, DIST_UNIFORM, ERR_ULP, false)
DIST_FIELD(uniform_max_ulp, DIST_UNIFORM, ERR_ULP, true)
DIST_FIELD(uniform_mean_abs, DIST_UNIFORM, ERR_ABS, false)
DIST_FIELD(uniform_max_abs, DIST_UNIFORM, ERR_ABS, true)

/* ---- the console's own texts: shorter numbers, the reference's target, CR in percent */

static void put_short(char *buf, size_t size, double v)
{
    if (isinf(v)) snprintf(buf, size, "%s", v > 0 ? "inf" : "-");
    else snprintf(buf, size, "%.4g", v);
}
static void con_target(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%s", w->ref == REF_OWN ? gelu_target_name(w->r->impls[w->i]->target) : "exact");
}
static void con_max_ulp(const accuracy_row *w, char *b, size_t n) { put_short(b, n, errors_of(w)->max_ulp.value); }
static void con_max_ulp_x(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%a", scan_result_input(w->r, errors_of(w)->max_ulp.seq, errors_of(w)->max_ulp.bits));
}
static void con_mean_ulp(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%.4g", error_metrics_mean_ulp(errors_of(w)));
}
static void con_cr_fraction(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%.4f%%", 100.0 * cr_fraction(errors_of(w)));
}
static void con_max_abs(const accuracy_row *w, char *b, size_t n) { put_short(b, n, errors_of(w)->max_abs.value); }
static void con_max_abs_x(const accuracy_row *w, char *b, size_t n)
{
    snprintf(b, n, "%a", scan_result_input(w->r, errors_of(w)->max_abs.seq, errors_of(w)->max_abs.bits));
}

/* ---- HTML summary cells, from the results read back (results.h) */

static const results_error *error_read(const results_row *r, int ref, int dir)
{
    return ref == REF_OWN ? &r->own[dir] : &r->exact[dir];
}

/* A derivative's cell of a forward-only implementation (its forward measured, its derivative
 * not, in a run that scanned derivatives): "n/a". */
static const char html_no_derivative[] = "<td title=\"forward only: no derivative\">n/a</td>";
static bool forward_only(const results_row *r, int dir)
{
    return dir == DIR_DERIVATIVE && !r->own[DIR_DERIVATIVE].present && r->own[DIR_FORWARD].present;
}

/* A number with its input on a second, smaller line: "184.6" over "@ -0x1.2p+2"; "n/a" for a
 * forward-only implementation's derivative. */
static void html_error(FILE *f, const results_row *r, int ref, int dir, bool ulp)
{
    const results_error *e = error_read(r, ref, dir);
    if (!e->present) {
        fputs(forward_only(r, dir) ? html_no_derivative : "<td>&#8211;</td>", f);
        return;
    }
    double v = ulp ? e->max_ulp : e->max_abs;
    const char *x = ulp ? e->max_ulp_x : e->max_abs_x;
    html_open_num(f, v);
    fprintf(f, isinf(v) ? "inf" : "%.4g", v);
    if (*x) {
        fputs("<small>@ ", f);
        html_text(f, x);
        fputs("</small>", f);
    }
    fputs("</td>", f);
}

static void html_max_ulp(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir)
{
    (void)c;
    html_error(f, r, ref, dir, true);
}
static void html_max_abs(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir)
{
    (void)c;
    html_error(f, r, ref, dir, false);
}
static void html_cr_fraction(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir)
{
    (void)c;
    const results_error *e = error_read(r, ref, dir);
    if (e->present) {
        html_open_num(f, 100 * e->cr_fraction);
        fprintf(f, "%.4f</td>", 100 * e->cr_fraction);
    } else
        fputs(forward_only(r, dir) ? html_no_derivative : "<td>&#8211;</td>", f);
}
/* The inputs not correctly rounded over the share of the scanned ones (sorted by the share);
 * "–" when not measured. */
static void html_not_cr(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir)
{
    (void)c;
    const results_error *e = error_read(r, ref, dir);
    long long wrong = results_not_correctly_rounded(e);
    if (wrong < 0) {
        fputs(forward_only(r, dir) ? html_no_derivative : "<td>&#8211;</td>", f);
        return;
    }
    double share = 100.0 * (double)wrong / (double)e->inputs;
    html_open_num(f, share);
    fprintf(f, "%lld<small>%.3g%%</small></td>", wrong, share);
}
/* Both directions in one cell, "fwd / grad", sorted by their sum. */
static void html_specials_failed(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir)
{
    (void)c, (void)ref, (void)dir;
    if (r->specials_failed[0] < 0)
        fputs("<td>&#8211;</td>", f);
    else if (forward_only(r, DIR_DERIVATIVE)) /* forward only */
        fprintf(f, "<td data-v=\"%ld\">%ld / n/a</td>", r->specials_failed[0], r->specials_failed[0]);
    else {
        long fwd = r->specials_failed[0], grad = r->specials_failed[1] < 0 ? 0 : r->specials_failed[1];
        fprintf(f, "<td data-v=\"%ld\">%ld / %ld</td>", fwd + grad, fwd, grad);
    }
}
static void html_xnnpack_failed(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir)
{
    (void)c, (void)ref, (void)dir; /* own target, forward; with the inputs it checks */
    if (r->xnnpack_failed < 0)
        fputs("<td>&#8211;</td>", f);
    else
        fprintf(f, "<td data-v=\"%ld\">%ld<small>of %ld</small></td>", r->xnnpack_failed,
                r->xnnpack_failed, r->xnnpack_checked);
}
static void html_contract(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir)
{
    (void)c, (void)ref, (void)dir;
    fputs("<td class=\"c l\">", f);
    html_text(f, r->contract[0] ? r->contract : "\xe2\x80\x93");
    fputs("</td>", f);
}

/* The table. Columns and their meaning: README, "Report files". */
static const accuracy_column columns[] = {
    /* name                  CSV field                 console: width, header, text   HTML */
    {"impl", csv_impl, -14, NULL, NULL, NULL},
    {"format", csv_format, 0, NULL, NULL, NULL},
    {"target", csv_target, -6, NULL, con_target, NULL},
    {"reference", csv_reference, -5, "ref", NULL, NULL},
    {"direction", csv_direction, -10, NULL, NULL, NULL},
    {"inputs", csv_inputs, 0, NULL, NULL, NULL},
    {"max_ulp", csv_max_ulp, 11, NULL, con_max_ulp, html_max_ulp},
    {"max_ulp_x", csv_max_ulp_x, -16, "at", con_max_ulp_x, NULL},
    {"mean_ulp", csv_mean_ulp, 9, NULL, con_mean_ulp, NULL},
    {"correctly_rounded", csv_correctly_rounded, 0, NULL, NULL, html_not_cr},
    {"cr_fraction", csv_cr_fraction, 9, "CR", con_cr_fraction, html_cr_fraction},
    {"max_abs", csv_max_abs, 10, NULL, con_max_abs, html_max_abs},
    {"max_abs_x", csv_max_abs_x, -16, "at", con_max_abs_x, NULL},
    {"max_rel", csv_max_rel, 0, NULL, NULL, NULL},
    {"max_rel_x", csv_max_rel_x, 0, NULL, NULL, NULL},
    {"nonfinite", csv_nonfinite, 0, NULL, NULL, NULL},
    {"mono_violations", csv_mono_violations, 6, "mono", NULL, html_as_written},
    {"mono_max_steps", csv_mono_max_steps, 0, NULL, NULL, NULL},
    {"mono_max_x", csv_mono_max_x, 0, NULL, NULL, NULL},
    {"sign_violations", csv_sign_violations, 6, "sign", NULL, NULL},
    {"sign_first_x", csv_sign_first_x, 0, NULL, NULL, NULL},
    {"specials_failed", csv_specials_failed, 5, "spec", NULL, html_specials_failed},
    {"consistency_max_rel", csv_consistency_max_rel, 0, NULL, NULL, NULL},
    {"consistency_x", csv_consistency_x, 0, NULL, NULL, NULL},
    {"ref_fallbacks", csv_ref_fallbacks, 0, NULL, NULL, NULL},
    {"batch_independent", csv_batch_independent, 0, NULL, NULL, NULL},
    {"fpenv", csv_fpenv, 0, NULL, NULL, NULL},
    {"contract", csv_contract, 0, NULL, NULL, html_contract},
    {"benchdnn_failed", csv_benchdnn_failed, 0, NULL, NULL, html_as_written},
    {"xnnpack_failed", csv_xnnpack_failed, 0, NULL, NULL, html_xnnpack_failed},
    {"xnnpack_checked", csv_xnnpack_checked, 0, NULL, NULL, NULL},
    {"normal_mean_ulp", csv_normal_mean_ulp, 0, NULL, NULL, NULL},
    {"normal_max_ulp", csv_normal_max_ulp, 0, NULL, NULL, NULL},
    {"normal_mean_abs", csv_normal_mean_abs, 0, NULL, NULL, NULL},
    {"normal_max_abs", csv_normal_max_abs, 0, NULL, NULL, NULL},
    {"uniform_mean_ulp", csv_uniform_mean_ulp, 0, NULL, NULL, NULL},
    {"uniform_max_ulp", csv_uniform_max_ulp, 0, NULL, NULL, NULL},
    {"uniform_mean_abs", csv_uniform_mean_abs, 0, NULL, NULL, NULL},
    {"uniform_max_abs", csv_uniform_max_abs, 0, NULL, NULL, NULL},
    {"dispatched_isa", csv_dispatched_isa, 0, NULL, NULL, NULL},
};

size_t accuracy_column_count(void) { return sizeof columns / sizeof columns[0]; }

const accuracy_column *accuracy_column_at(size_t k)
{
    return k < accuracy_column_count() ? &columns[k] : NULL;
}

const accuracy_column *accuracy_column_find(const char *name)
{
    for (size_t k = 0; k < accuracy_column_count(); k++)
        if (strcmp(columns[k].name, name) == 0) return &columns[k];
    return NULL;
}

int accuracy_column_text_slot(const accuracy_column *c)
{
    int slot = 0;
    for (size_t k = 0; k < accuracy_column_count(); k++) {
        if (&columns[k] == c) return c->html == html_as_written ? slot : -1;
        slot += columns[k].html == html_as_written;
    }
    return -1;
}

void html_as_written(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir)
{
    int slot = accuracy_column_text_slot(c);
    const char *t = slot >= 0 && slot < RESULTS_TEXT_COLUMNS ? r->text[ref][dir][slot] : "";
    if (!*t) {
        fputs("<td>&#8211;</td>", f);
        return;
    }
    fputs("<td data-v=\"", f);
    html_text(f, t);
    fputs("\">", f);
    html_text(f, t);
    fputs("</td>", f);
}

void accuracy_each_row(const scan_result *r, void (*fn)(const accuracy_row *row, void *arg),
                       void *arg)
{
    for (size_t i = 0; i < r->nimpls; i++)
        for (int k = 0; k < REF_KINDS; k++) {
            if (k == REF_EXACT && !scan_has_exact_row(r->impls[i])) continue;
            for (int d = 0; d < scan_directions(r->impls[i], r->grad); d++) {
                accuracy_row row = {r, i, k, d};
                fn(&row, arg);
            }
        }
}
