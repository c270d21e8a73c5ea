/* The answer: pick's choice for every platform × need, as data, text and Markdown (see
 * answer.h). answer_json.c writes and reads answer.json. */
#include "answer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gelu_impl.h"
#include "html_text.h"

#define DASH "\xe2\x80\x93" /* – */
#define TIMES "\xc3\x97"    /* × */

static double or_nan(bool present, double v) { return present ? v : NAN; }

/* r's figures on platform p, from s_p (s with p's capped rows): s is the main run's. */
static void figures_of(answer_figures *f, const results_set *s, const results_set *s_p,
                       const results_row *r, pick_platform p, const char *size,
                       const mca_estimates *estimates)
{
    memset(f, 0, sizeof *f);
    f->present = true;
    snprintf(f->name, sizeof f->name, "%s", r->name);
    snprintf(f->target, sizeof f->target, "%s", r->target);
    const results_speed *sp = size ? results_speed_at(r, size) : NULL;
    const pick_platform_row *row = pick_platform_at(p);
    bool measured = row->speed == PICK_SPEED_MEASURED;
    f->ns = sp && measured ? sp->ns : NAN;
    f->x_relu = measured ? pick_times_relu(s_p, r, p, size) : NAN;
    const mca_estimate *est = row->speed == PICK_SPEED_ESTIMATED && s->format == GELU_FORMAT_BINARY32
                                ? mca_estimates_find(estimates, r->name, row->mca_cpu)
                                : NULL;
    f->est_cycles = est ? est->cycles : NAN;
    snprintf(f->measured_under, sizeof f->measured_under, "%s", capped_measured_under(s, r, p));
    const results_error *e = &r->exact[0];
    f->max_ulp = or_nan(e->present, e->max_ulp);
    f->max_abs = or_nan(e->present, e->max_abs);
    f->mean_ulp_normal = or_nan(e->present, e->normal_mean_ulp);
    f->cr_fraction = or_nan(e->present, e->cr_fraction);
    f->own_max_ulp = or_nan(r->own[0].present, r->own[0].max_ulp);
    f->grad_max_ulp = or_nan(r->exact[1].present, r->exact[1].max_ulp);
    f->mono_violations = r->mono_violations;
    f->inputs = r->inputs;
}

int answer_build(answer *a, const results_set *s, const capped_runs *capped,
                 const pick_need *needs, size_t nneeds, int default_need,
                 const pick_platform *platforms, size_t nplatforms, const char *size,
                 const char *cpu_model, const char *cpu_features, char *err, size_t errsize)
{
    if (nneeds > ANSWER_MAX_NEEDS || nplatforms > PICK_PLATFORM_COUNT) {
        snprintf(err, errsize, "at most %d needs and %d platforms", ANSWER_MAX_NEEDS,
                 PICK_PLATFORM_COUNT);
        return -1;
    }
    pick_candidate *k = malloc(RESULTS_MAX_ROWS * sizeof *k);
    results_set *per[PICK_PLATFORM_COUNT] = {NULL}; /* s with the platform's capped rows */
    bool ok = k != NULL;
    for (size_t j = 0; ok && j < nplatforms; j++) ok = (per[j] = capped_for_platform(s, capped, platforms[j])) != NULL;
    if (!ok) {
        for (size_t j = 0; j < nplatforms; j++) free(per[j]);
        free(k);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    memset(a, 0, sizeof *a);
    a->schema = ANSWER_SCHEMA;
    const gelu_format *format = gelu_format_of(s->format);
    snprintf(a->format, sizeof a->format, "%s", format->name);
    snprintf(a->size, sizeof a->size, "%s", size ? size : "");
    snprintf(a->cpu_model, sizeof a->cpu_model, "%s", cpu_model);
    snprintf(a->cpu_features, sizeof a->cpu_features, "%s", cpu_features);
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].scanned && s->rows[i].inputs > a->inputs) a->inputs = s->rows[i].inputs;
    a->encodings = gelu_format_encodings(format);
    a->all_inputs = a->encodings > 0 && a->inputs == a->encodings;
    a->nneeds = nneeds;
    a->nplatforms = nplatforms;
    for (size_t i = 0; capped && i < capped->n; i++)
        if (capped->runs[i].results) {
            snprintf(a->capped[a->ncapped].cap, sizeof a->capped[0].cap, "%s", capped->runs[i].cap);
            snprintf(a->capped[a->ncapped].impls, sizeof a->capped[0].impls, "%s", capped->runs[i].impls);
            a->capped[a->ncapped++].seconds = capped->runs[i].seconds;
        }
    for (size_t j = 0; j < nplatforms; j++) {
        answer_platform *ap = &a->platforms[j];
        const results_row *relu = pick_platform_relu(per[j], platforms[j], size);
        ap->id = platforms[j];
        pick_platform_runs(platforms[j], ap->features, sizeof ap->features);
        pick_speed_text(platforms[j], nneeds ? needs[0].c.estimates : NULL, size, ap->speed, sizeof ap->speed);
        snprintf(ap->relu, sizeof ap->relu, "%s", relu ? relu->name : "");
    }
    for (size_t i = 0; i < nneeds; i++) {
        snprintf(a->needs[i].title, sizeof a->needs[i].title, "%s", needs[i].title);
        snprintf(a->needs[i].asks, sizeof a->needs[i].asks, "%s", needs[i].asks);
        a->needs[i].is_default = (int)i == default_need;
        pick_constraints c = needs[i].c;
        c.size = size;
        for (size_t j = 0; j < nplatforms; j++) {
            answer_cell *cell = &a->cells[i][j];
            size_t n;
            cell->fits = pick_rank(per[j], platforms[j], &c, k, &n);
            if (cell->fits >= 1) figures_of(&cell->choice, s, per[j], k[0].row, platforms[j], size,
                                             c.estimates);
            if (cell->fits >= 2) figures_of(&cell->runner_up, s, per[j], k[1].row, platforms[j],
                                             size, c.estimates);
            if (cell->fits == 0 && n > 0 && !k[0].off_target) {
                snprintf(cell->closest, sizeof cell->closest, "%s", k[0].row->name);
                snprintf(cell->why, sizeof cell->why, "%s", k[0].why);
            }
        }
    }
    for (size_t j = 0; j < nplatforms; j++) free(per[j]);
    free(k);
    return 0;
}

int answer_build_all(answer *a, const results_set *s, const capped_runs *capped, const char *size,
                     const char *cpu_model, const char *cpu_features, char *err, size_t errsize)
{
    pick_need needs[ANSWER_MAX_NEEDS];
    pick_platform platforms[PICK_PLATFORM_COUNT];
    size_t n = pick_need_count() < ANSWER_MAX_NEEDS ? pick_need_count() : ANSWER_MAX_NEEDS;
    for (size_t i = 0; i < n; i++) needs[i] = *pick_need_at(i);
    size_t np = 0;
    for (int p = 0; p < PICK_PLATFORM_COUNT; p++)
        if (pick_platform_has_rows(s, (pick_platform)p)) platforms[np++] = (pick_platform)p;
    return answer_build(a, s, capped, needs, n, PICK_DEFAULT_NEED, platforms, np, size, cpu_model,
                        cpu_features, err, errsize);
}

const char *answer_coverage(const answer *a, char *buf, size_t size)
{
    const gelu_format *f = gelu_format_find(a->format);
    unsigned bits = f ? f->storage_bits : 0;
    if (a->all_inputs)
        snprintf(buf, size, "all 2^%u inputs", bits);
    else if (a->encodings > 0)
        snprintf(buf, size, "%llu of 2^%u inputs: a SAMPLE, its maxima not bounds",
                 (unsigned long long)a->inputs, bits);
    else
        snprintf(buf, size, "%llu inputs: a SAMPLE, its maxima not bounds",
                 (unsigned long long)a->inputs);
    return buf;
}

/* "1.23 ns, 3.1x relu_avx2" or what was not measured. */
static void speed_text(char *buf, size_t size, const answer_figures *f, const char *relu,
                       const char *times)
{
    if (!isnan(f->est_cycles)) snprintf(buf, size, "%.3g cycles/element ESTIMATED", f->est_cycles);
    else if (isnan(f->ns)) snprintf(buf, size, "not benchmarked");
    else if (isnan(f->x_relu)) snprintf(buf, size, "%.3g ns, no ReLU of the platform measured", f->ns);
    else snprintf(buf, size, "%.3g ns, %.3g%s %s", f->ns, f->x_relu, times, relu);
}

/* "0.5 ULP, max abs 2.4e-07" against exact GELU; for another target its ULP against its own
 * formula ("1.2 ULP of the tanh form") and its max abs against exact GELU. */
static void accuracy_text(char *buf, size_t size, const answer *a, const answer_figures *f)
{
    int n;
    if (strcmp(f->target, "exact") != 0 && !isnan(f->own_max_ulp))
        n = snprintf(buf, size, "%.4g ULP of the %s form, max abs %.2g vs exact", f->own_max_ulp,
                     f->target, f->max_abs);
    else if (!isnan(f->max_ulp))
        n = snprintf(buf, size, "%.4g ULP, max abs %.2g", f->max_ulp, f->max_abs);
    else
        n = snprintf(buf, size, "accuracy not measured");
    /* a figure over fewer inputs than the answer's (a capped run's sample in a full job) */
    if (n > 0 && (size_t)n < size && f->inputs < a->inputs)
        snprintf(buf + n, size - (size_t)n, " (SAMPLED: %llu inputs)", (unsigned long long)f->inputs);
}

void answer_print_matrix(FILE *f, const answer *a)
{
    char cover[160];
    fprintf(f, "\nthe answer (%s; ranked by median ns/element at %s; accuracy over %s), measured "
               "on '%s':\n",
            a->format, a->size[0] ? a->size : "- (no speed figures: by accuracy)",
            answer_coverage(a, cover, sizeof cover), a->cpu_model);
    for (size_t j = 0; j < a->nplatforms; j++)
        if (pick_platform_at(a->platforms[j].id)->speed != PICK_SPEED_MEASURED)
            fprintf(f, "%s (%s): speed %s\n", pick_platform_name(a->platforms[j].id),
                    a->platforms[j].features, a->platforms[j].speed);
    for (size_t i = 0; i < a->ncapped; i++)
        fprintf(f, "run under %s for its platform's path: %s (%.1f s)\n", a->capped[i].cap,
                a->capped[i].impls, a->capped[i].seconds);
    for (size_t i = 0; i < a->nneeds; i++) {
        fprintf(f, "need %zu: %s%s\n    (%s)\n", i + 1, a->needs[i].title,
                a->needs[i].is_default ? " [the default need]" : "", a->needs[i].asks);
        for (size_t j = 0; j < a->nplatforms; j++) {
            const answer_cell *c = &a->cells[i][j];
            const answer_platform *p = &a->platforms[j];
            fprintf(f, "  %-10s ", pick_platform_name(p->id));
            if (c->fits == 0) {
                fprintf(f, "nothing fits%s%s%s%s\n", c->closest[0] ? "; closest " : "", c->closest,
                        c->why[0] ? ": " : "", c->why);
                continue;
            }
            char speed[160], acc[128];
            speed_text(speed, sizeof speed, &c->choice, p->relu, "x");
            accuracy_text(acc, sizeof acc, a, &c->choice);
            fprintf(f, "%-22s %s; %s", c->choice.name, speed, acc);
            if (c->choice.measured_under[0]) fprintf(f, " [run under %s]", c->choice.measured_under);
            if (c->fits >= 2) {
                accuracy_text(acc, sizeof acc, a, &c->runner_up);
                if (!isnan(c->runner_up.est_cycles))
                    fprintf(f, " | runner-up %s (%.3g cycles/element ESTIMATED, %s)",
                            c->runner_up.name, c->runner_up.est_cycles, acc);
                else if (isnan(c->runner_up.ns)) fprintf(f, " | runner-up %s (%s)", c->runner_up.name, acc);
                else fprintf(f, " | runner-up %s (%.3g ns, %s)", c->runner_up.name, c->runner_up.ns, acc);
            }
            fputc('\n', f);
        }
    }
}

/* ---- Markdown */

static const pick_platform markdown_platforms[] = {PICK_X86_64_V2, PICK_X86_64_V3, PICK_X86_64_V4,
                                                   PICK_HOST};
enum { MARKDOWN_PLATFORMS = sizeof markdown_platforms / sizeof markdown_platforms[0] };

static int platform_index(const answer *a, pick_platform p)
{
    for (size_t j = 0; j < a->nplatforms; j++)
        if (a->platforms[j].id == p) return (int)j;
    return -1;
}

/* A Markdown cell's text: '|' would end the cell. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') fputc('\\', f);
        fputc(*s, f);
    }
}

static void md_cell(FILE *f, const answer *a, size_t need, int j)
{
    if (j < 0) {
        fputs(" " DASH " |", f);
        return;
    }
    const answer_cell *c = &a->cells[need][j];
    if (c->fits == 0) {
        fputs(" nothing fits", f);
        if (c->closest[0]) fprintf(f, "<br>closest `%s`: ", c->closest);
        if (c->closest[0]) md_text(f, c->why);
        fputs(" |", f);
        return;
    }
    char speed[160], acc[128];
    speed_text(speed, sizeof speed, &c->choice, a->platforms[j].relu, TIMES);
    accuracy_text(acc, sizeof acc, a, &c->choice);
    fprintf(f, " **`%s`**<br>%s<br>%s", c->choice.name, speed, acc);
    if (c->choice.measured_under[0]) fprintf(f, "<br>(run under `%s`)", c->choice.measured_under);
    if (c->fits >= 2) fprintf(f, "<br>runner-up `%s`", c->runner_up.name);
    fputs(" |", f);
}

void answer_markdown(FILE *f, const answer *a)
{
    fputs("| need |", f);
    for (size_t m = 0; m < MARKDOWN_PLATFORMS; m++) {
        int j = platform_index(a, markdown_platforms[m]);
        fprintf(f, " %s<br>(%s) |", pick_platform_name(markdown_platforms[m]),
                j < 0 ? "not in this answer"
                : markdown_platforms[m] == PICK_HOST ? "the CPU below"
                                                     : a->platforms[j].features);
    }
    fputs("\n|---|", f);
    for (size_t m = 0; m < MARKDOWN_PLATFORMS; m++) fputs("---|", f);
    fputs("\n", f);
    for (size_t i = 0; i < a->nneeds; i++) {
        fputs("| ", f);
        md_text(f, a->needs[i].title);
        if (a->needs[i].is_default) fputs(" (the default)", f);
        fputs(" |", f);
        for (size_t m = 0; m < MARKDOWN_PLATFORMS; m++)
            md_cell(f, a, i, platform_index(a, markdown_platforms[m]));
        fputs("\n", f);
    }
    char cover[160];
    fprintf(f, "\n%s; fastest by median ns/element at %s, " TIMES "ReLU against the platform's own "
               "ReLU build; accuracy against exact GELU over %s; measured on %s (%s).\n",
            a->format, a->size[0] ? a->size : DASH, answer_coverage(a, cover, sizeof cover),
            a->cpu_model, a->cpu_features);
    answer_paths_markdown(f, a);
}

void answer_paths_markdown(FILE *f, const answer *a)
{
    size_t differ = 0;
    for (size_t i = 0; a->framework_paths_known && i < a->nframework_paths; i++)
        differ += a->framework_paths[i].differ > 0;
    if (!a->framework_paths_known || a->nframework_paths == 0) return;
    if (!differ) {
        fprintf(f, "\nThe frameworks' paths scanned (%zu row%s) gave their rows' GELU: same "
                   "verdicts, same outputs where compared.\n",
                a->nframework_paths, a->nframework_paths == 1 ? "" : "s");
        return;
    }
    fputs("\n**The GELU you get depends on how you call it**: a framework's GELU on other tensor "
          "sizes, threads, compiled or fused is another function (docs/frameworks.md, \"Paths\"):\n\n", f);
    for (size_t i = 0; i < a->nframework_paths; i++) {
        const answer_framework_paths *e = &a->framework_paths[i];
        if (!e->differ) continue;
        fputs("- `", f);
        md_text(f, e->row);
        fprintf(f, "`: %d of its %d path%s differ%s from the batch path (", e->differ, e->paths,
                e->paths == 1 ? "" : "s", e->differ == 1 ? "s" : "");
        md_text(f, e->differing);
        fputs("); worst path: ", f);
        md_text(f, e->worst_path);
        fputs("\n", f);
    }
}

/* ---- HTML */

static void html_cell(FILE *f, const answer *a, size_t need, int j)
{
    if (j < 0) {
        fputs("<td>&#8211;</td>", f);
        return;
    }
    const answer_cell *c = &a->cells[need][j];
    fputs("<td class=\"l\">", f);
    if (c->fits == 0) {
        fputs("nothing fits", f);
        if (c->closest[0]) {
            fputs("<small>closest ", f);
            html_text(f, c->closest);
            fputs("</small>", f);
        }
        fputs("</td>", f);
        return;
    }
    char speed[160], acc[128];
    speed_text(speed, sizeof speed, &c->choice, a->platforms[j].relu, TIMES);
    accuracy_text(acc, sizeof acc, a, &c->choice);
    fputs("<b>", f);
    html_text(f, c->choice.name);
    fputs("</b><small>", f);
    html_text(f, speed);
    fputs("</small><small>", f);
    html_text(f, acc);
    fputs("</small>", f);
    if (c->choice.measured_under[0]) {
        fputs("<small>run under ", f);
        html_text(f, c->choice.measured_under);
        fputs("</small>", f);
    }
    if (c->fits >= 2) {
        fputs("<small>runner-up ", f);
        html_text(f, c->runner_up.name);
        fputs("</small>", f);
    }
    fputs("</td>", f);
}

/* Whether the host's column says what x86-64-v4's does (every need the same choice): then the
 * page shows one column for both. */
static bool host_is_v4(const answer *a)
{
    int h = platform_index(a, PICK_HOST), v4 = platform_index(a, PICK_X86_64_V4);
    if (h < 0 || v4 < 0) return false;
    for (size_t i = 0; i < a->nneeds; i++) {
        const answer_cell *x = &a->cells[i][h], *y = &a->cells[i][v4];
        if (x->fits != y->fits || strcmp(x->choice.name, y->choice.name) != 0 ||
            strcmp(x->runner_up.name, y->runner_up.name) != 0)
            return false;
    }
    return true;
}

void answer_html(FILE *f, const answer *a)
{
    bool merged = host_is_v4(a);
    fputs("<table id=\"matrix\">\n<thead><tr><th class=\"l\">need</th>", f);
    for (size_t m = 0; m < MARKDOWN_PLATFORMS; m++) {
        if (merged && markdown_platforms[m] == PICK_HOST) continue;
        int j = platform_index(a, markdown_platforms[m]);
        fputs("<th class=\"l\">", f);
        html_text(f, pick_platform_name(markdown_platforms[m]));
        fputs("<small>", f);
        /* short: the header must not widen the table past the page's first screen */
        const char *feat = j < 0 ? "" : a->platforms[j].features;
        html_text(f, j < 0 ? "not in this answer"
                     : markdown_platforms[m] == PICK_HOST ? "this CPU"
                     : strstr(feat, "avx512f") ? (merged ? "AVX-512, as this CPU" : "AVX-512")
                     : strstr(feat, "avx2") ? "AVX2, FMA"
                                            : "no AVX");
        fputs("</small></th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < a->nneeds; i++) {
        fputs("<tr><td class=\"l\" title=\"", f);
        html_text(f, a->needs[i].asks);
        fputs("\"><b>", f);
        html_text(f, a->needs[i].title);
        fputs("</b>", f);
        if (a->needs[i].is_default) fputs("<small>pick's default</small>", f);
        fputs("</td>", f);
        for (size_t m = 0; m < MARKDOWN_PLATFORMS; m++)
            if (!(merged && markdown_platforms[m] == PICK_HOST))
                html_cell(f, a, i, platform_index(a, markdown_platforms[m]));
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}
