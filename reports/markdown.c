/* The README's accuracy table as Markdown (see markdown.h). Numbers to 3 significant digits
 * (the contracts sit just above them), CR in percent to 2 decimals, "–" where a figure was not
 * measured or does not apply (a non-GELU has no exact-GELU figures). */
#include "markdown.h"

#include <math.h>

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
