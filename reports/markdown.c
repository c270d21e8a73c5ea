/* The README's accuracy table as Markdown (see markdown.h). Numbers to 3 significant digits
 * (the contracts sit just above them), CR in percent to 2 decimals, "–" where a figure was not
 * measured or does not apply (a non-GELU has no exact-GELU figures). */
#include "markdown.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


#define DASH "\xe2\x80\x93" /* – */

/* " 1.68e+07 |", " inf |" or " – |". */
static void cell_number(FILE *f, bool present, double v)
{
    if (!present) fputs(" " DASH " |", f);
    else if (isinf(v)) fputs(" inf |", f);
    else fprintf(f, " %.3g |", v);
}

static void put_count(FILE *f, long v)
{
    if (v < 0) fputs(DASH, f);
    else fprintf(f, "%ld", v);
}

static void row(FILE *f, const results_row *r)
{
    const results_error *own = &r->own[0], *exact = &r->exact[0], *grad = &r->own[1];
    fprintf(f, "| `%s` | %s |", r->name, r->target);
    if (own->present) { /* with the first input reaching it */
        fprintf(f, isinf(own->max_ulp) ? " inf" : " %.3g", own->max_ulp);
        fprintf(f, *own->max_ulp_x ? " (%s) |" : " |", own->max_ulp_x);
    } else
        fputs(" " DASH " |", f);
    cell_number(f, exact->present, exact->max_ulp);
    cell_number(f, own->present, own->max_abs);
    if (own->present) fprintf(f, " %.2f |", 100 * own->cr_fraction);
    else fputs(" " DASH " |", f);
    fputs(" ", f);
    put_count(f, r->mono_violations);
    fputs(" | ", f);
    put_count(f, r->specials_failed[0]);
    fputs("/", f);
    put_count(f, r->specials_failed[1]);
    fputs(" |", f);
    cell_number(f, grad->present, grad->max_ulp);
    cell_number(f, grad->present, grad->max_abs);
    if (!exact->present || r->exact_benchdnn_failed < 0) {
        fputs(" " DASH " |\n", f);
        return;
    }
    fputs(" ", f);
    put_count(f, r->exact_benchdnn_failed);
    fputs(" / ", f);
    put_count(f, r->exact_xnnpack_failed);
    fputs(" |\n", f);
}

void markdown_accuracy_table(FILE *f, const results_set *s)
{
    fputs("| impl | target | max ULP vs own target (at x) | max ULP vs exact GELU | max abs | CR % "
          "| mono breaks | specials wrong (fwd/deriv) | deriv max ULP | deriv max abs | "
          "benchdnn / XNNPACK fails vs exact |\n"
          "|---|---|---|---:|---:|---:|---:|---|---:|---:|---|\n",
          f);
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].scanned) row(f, &s->rows[i]);
}

/* ---- the other formats' table */

enum { CELL = 64, MAX_FORMATS = 4 };

/* One implementation's line: its name, target, in which of the formats (bit k: sets[k]) it was
 * measured and in which natively, and its cells. */
typedef struct {
    const char *name, *target;
    unsigned measured, native;
    char cells[2 * MAX_FORMATS][CELL];
    bool done; /* printed, in its own row or another's */
} formats_line;

/* 15719 → "15,719". */
static void thousands(char *buf, size_t size, unsigned long long v)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", v);
    size_t used = 0;
    for (int i = 0; i < n && used + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0) buf[used++] = ',';
        buf[used++] = digits[i];
    }
    buf[used] = '\0';
}

/* "0", "128 (0.195%)" or "–" (not measured). */
static void not_cr_cell(char *buf, size_t size, const results_error *e)
{
    long long wrong = results_not_correctly_rounded(e);
    if (wrong < 0) {
        snprintf(buf, size, DASH);
        return;
    }
    char count[32];
    thousands(count, sizeof count, (unsigned long long)wrong);
    if (wrong == 0) snprintf(buf, size, "0");
    else snprintf(buf, size, "%s (%.3g%%)", count, 100.0 * (double)wrong / (double)e->inputs);
}

static bool same_line(const formats_line *a, const formats_line *b, size_t ncells)
{
    if (a->native != b->native || a->measured != b->measured || strcmp(a->target, b->target) != 0) return false;
    for (size_t c = 0; c < ncells; c++)
        if (strcmp(a->cells[c], b->cells[c]) != 0) return false;
    return true;
}

void markdown_formats_table(FILE *f, const results_set *const *sets, size_t n,
                            bool (*native)(const char *name, gelu_format_id format))
{
    if (n > MAX_FORMATS) n = MAX_FORMATS;
    size_t room = n * RESULTS_MAX_ROWS, nlines = 0, ncells = 2 * n;
    formats_line *lines = calloc(room ? room : 1, sizeof *lines);
    if (!lines) return;
    /* binary64's table holds its own rows only: nothing runs widened there, nothing to mark */
    bool sampled = n == 1 && sets[0]->format == GELU_FORMAT_BINARY64;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < sets[k]->n; i++) {
            const results_row *r = &sets[k]->rows[i];
            if (!r->scanned) continue;
            size_t j = 0;
            while (j < nlines && strcmp(lines[j].name, r->name) != 0) j++;
            if (j == nlines) { /* first met: not measured in every format until found there */
                lines[j] = (formats_line){.name = r->name, .target = r->target};
                for (size_t c = 0; c < ncells; c++) snprintf(lines[j].cells[c], CELL, DASH);
                nlines++;
            }
            lines[j].measured |= 1u << k;
            if (!sampled && native(r->name, sets[k]->format)) lines[j].native |= 1u << k;
            for (int d = 0; d < 2; d++)
                not_cr_cell(lines[j].cells[2 * k + (size_t)d], CELL, &r->own[d]);
        }
    fputs(sampled ? "| implementation (binary64's own) |" : "| implementation (run widened unless native) |", f);
    for (size_t k = 0; k < n; k++) {
        const char *name = gelu_format_of(sets[k]->format)->name;
        char of[64] = "";
        if (sampled && sets[k]->n) { /* a sample: its size with every count */
            char count[32];
            thousands(count, sizeof count, (unsigned long long)sets[k]->rows[0].inputs);
            snprintf(of, sizeof of, " (SAMPLED: %s inputs)", count);
        }
        fprintf(f, " %s forward%s | %s derivative%s |", name, of, name, of);
    }
    fputs("\n|---|", f);
    for (size_t c = 0; c < ncells; c++) fputs("---:|", f);
    fputs("\n", f);
    for (size_t i = 0; i < nlines; i++) {
        if (lines[i].done) continue;
        fputs("|", f);
        for (size_t j = i, listed = 0; j < nlines; j++)
            if (!lines[j].done && same_line(&lines[i], &lines[j], ncells)) {
                fprintf(f, "%s `%s`", listed++ ? "," : "", lines[j].name);
                lines[j].done = true;
            }
        /* native wherever measured, or only in some of its formats: which */
        if (lines[i].native && lines[i].native == lines[i].measured) fputs(" (native)", f);
        for (size_t k = 0, listed = 0; lines[i].native != lines[i].measured && k < n; k++)
            if (lines[i].native >> k & 1u)
                fprintf(f, "%s%s", listed++ ? ", " : " (native in ", gelu_format_of(sets[k]->format)->name);
        if (lines[i].native && lines[i].native != lines[i].measured) fputs(")", f);
        if (strcmp(lines[i].target, "exact") != 0) fprintf(f, " (%s target)", lines[i].target);
        fputs(" |", f);
        for (size_t c = 0; c < ncells; c++) fprintf(f, " %s |", lines[i].cells[c]);
        fputs("\n", f);
    }
    free(lines);
}
