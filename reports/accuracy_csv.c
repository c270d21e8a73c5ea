/* Accuracy and ranges CSV writers (see accuracy_csv.h). */
#include "accuracy_csv.h"

#include <math.h>
#include <string.h>

#include "accuracy_columns.h"

/* One line of accuracy.csv: every column of the table, then the histogram over all ranges. */
static void accuracy_line(const accuracy_row *w, void *arg)
{
    FILE *f = arg;
    char field[128];
    for (size_t k = 0; k < accuracy_column_count(); k++) {
        accuracy_column_at(k)->csv(w, field, sizeof field);
        fprintf(f, "%s%s", k ? "," : "", field);
    }
    const error_metrics *e = &w->r->metrics[w->i].err[w->ref][w->dir];
    for (int b = 0; b < HIST_BUCKETS; b++) {
        uint64_t c = 0;
        for (int g = 0; g < RANGE_COUNT; g++) c += e->hist[g][b];
        fprintf(f, ",%llu", (unsigned long long)c);
    }
    fprintf(f, "\n");
}

static void hist_header(FILE *f)
{
    for (int b = 0; b < HIST_BUCKETS; b++) fprintf(f, ",ulp_%s", hist_bucket_name(b));
    fprintf(f, "\n");
}

void accuracy_csv_write(const scan_result *r, FILE *f)
{
    for (size_t k = 0; k < accuracy_column_count(); k++)
        fprintf(f, "%s%s", k ? "," : "", accuracy_column_at(k)->name);
    hist_header(f);
    accuracy_each_row(r, accuracy_line, f);
}

static void ranges_line(const accuracy_row *w, void *arg)
{
    FILE *f = arg;
    const error_metrics *e = &w->r->metrics[w->i].err[w->ref][w->dir];
    for (int g = 0; g < RANGE_COUNT; g++) {
        fprintf(f, "%s,%s,%s,%s", w->r->impls[w->i]->name, accuracy_ref_name(w->ref),
                accuracy_dir_name(w->dir), input_range_name((input_range)g));
        for (int b = 0; b < HIST_BUCKETS; b++)
            fprintf(f, ",%llu", (unsigned long long)e->hist[g][b]);
        fprintf(f, "\n");
    }
}

void ranges_csv_write(const scan_result *r, FILE *f)
{
    fprintf(f, "impl,reference,direction,range");
    hist_header(f);
    accuracy_each_row(r, ranges_line, f);
}

static void x_line(const accuracy_row *w, void *arg)
{
    FILE *f = arg;
    const error_metrics *e = &w->r->metrics[w->i].err[w->ref][w->dir];
    for (int b = 0; b < X_BUCKETS; b++) {
        if (e->x_max_ulp[b] == -INFINITY) continue; /* no input there */
        double lo, hi;
        x_bucket_bounds(b, &lo, &hi);
        fprintf(f, "%s,%s,%s,%g,%g,%.9g,%.9g\n", w->r->impls[w->i]->name, accuracy_ref_name(w->ref),
                accuracy_dir_name(w->dir), lo, hi, e->x_max_ulp[b], e->x_max_abs[b]);
    }
}

void ulp_by_x_csv_write(const scan_result *r, FILE *f)
{
    fprintf(f, "impl,reference,direction,x_lo,x_hi,max_ulp,max_abs\n");
    accuracy_each_row(r, x_line, f);
}

void csv_field(FILE *f, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void implementations_csv_write(const scan_result *r, FILE *f)
{
    fputs("impl,target,derivative,source,origin,batch_independent\n", f);
    for (size_t i = 0; i < r->nimpls; i++) {
        const gelu_impl *m = r->impls[i];
        const char *source = gelu_impl_source(m), *dep = m->batch_dependence;
        csv_field(f, m->name);
        fprintf(f, ",%s,%s,", gelu_target_name(m->target), m->derivative ? "yes" : "no");
        csv_field(f, source ? source : "built-in");
        fputc(',', f);
        csv_field(f, m->origin ? m->origin : "");
        fprintf(f, ",%s\n", !dep ? "" : dep[0] ? "no" : "yes");
    }
}
