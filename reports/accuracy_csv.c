/* Accuracy and ranges CSV writers (see accuracy_csv.h). */
#include "accuracy_csv.h"

#include <math.h>

static const char *const ref_names[REF_KINDS] = {"own", "exact"};
static const char *const dir_names[DIR_COUNT] = {"forward", "derivative"};

static void print_x(FILE *f, const arg_max *m)
{
    if (m->seq == UINT64_MAX) fprintf(f, ",");
    else fprintf(f, ",%a", (double)float_from_bits(m->bits));
}

static void print_value(FILE *f, double v)
{
    if (isinf(v) && v < 0) fprintf(f, ",");
    else fprintf(f, ",%.9g", v);
}

/* Calls row(r, impl index, ref kind, direction) for every row, in table order. */
static void each_row(const scan_result *r, FILE *f,
                     void (*row)(const scan_result *, size_t, int, int, FILE *))
{
    for (size_t i = 0; i < r->nimpls; i++)
        for (int k = 0; k < REF_KINDS; k++) {
            if (k == REF_EXACT && !scan_has_exact_row(r->impls[i])) continue;
            for (int d = 0; d < (r->grad ? DIR_COUNT : 1); d++) row(r, i, k, d, f);
        }
}

static void accuracy_row(const scan_result *r, size_t i, int k, int d, FILE *f)
{
    const gelu_impl *impl = r->impls[i];
    const impl_metrics *m = &r->metrics[i];
    const error_metrics *e = &m->err[k][d];
    gelu_target ref_target = k == REF_OWN ? impl->target : GELU_TARGET_EXACT;
    uint64_t nonfinite = 0;
    for (int g = 0; g < RANGE_COUNT; g++) nonfinite += e->hist[g][HIST_BUCKETS - 1];
    fprintf(f, "%s,%s,%s,%s,%s,%llu", impl->name, gelu_format_of(impl->format)->name,
            gelu_target_name(impl->target), ref_names[k], dir_names[d],
            (unsigned long long)e->count);
    print_value(f, e->max_ulp.value);
    print_x(f, &e->max_ulp);
    fprintf(f, ",%.9g,%llu,%.9g", error_metrics_mean_ulp(e),
            (unsigned long long)e->correctly_rounded,
            e->count ? (double)e->correctly_rounded / (double)e->count : 0.0);
    print_value(f, e->max_abs.value);
    print_x(f, &e->max_abs);
    print_value(f, e->max_rel.value);
    print_x(f, &e->max_rel);
    fprintf(f, ",%llu", (unsigned long long)nonfinite);
    bool mono_row = d == DIR_FORWARD && k == REF_OWN;
    if (mono_row) {
        fprintf(f, ",%llu", (unsigned long long)m->mono.violations);
        if (m->mono.violations) {
            print_value(f, m->mono.largest.value);
            print_x(f, &m->mono.largest);
        } else {
            fprintf(f, ",,");
        }
    } else {
        fprintf(f, ",,,");
    }
    if (d == DIR_DERIVATIVE && k == REF_OWN) {
        fprintf(f, ",%llu", (unsigned long long)m->sign.violations);
        if (m->sign.violations) fprintf(f, ",%a", (double)float_from_bits(m->sign.first_bits));
        else fprintf(f, ",");
    } else {
        fprintf(f, ",,");
    }
    if (r->has_extras && k == REF_OWN) {
        fprintf(f, ",%zu", r->extras[i].nspecial_failed[d]);
        if (d == DIR_DERIVATIVE)
            fprintf(f, ",%.6g,%a", r->extras[i].consistency_max_rel,
                    (double)r->extras[i].consistency_x);
        else
            fprintf(f, ",,");
    } else {
        fprintf(f, ",,,");
    }
    fprintf(f, ",%llu", (unsigned long long)r->fallbacks[ref_target][d]);
    if (k == REF_OWN) {
        char why[256];
        fprintf(f, ",%s", scan_contract_violations(r, i, why, sizeof why) ? "fail" : "pass");
    } else {
        fprintf(f, ",");
    }
    if (d == DIR_FORWARD)
        fprintf(f, ",%llu,%llu,%llu", (unsigned long long)e->benchdnn_failed,
                (unsigned long long)e->xnnpack_failed, (unsigned long long)e->xnnpack_checked);
    else
        fprintf(f, ",,,");
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
    fprintf(f, "impl,format,target,reference,direction,inputs,max_ulp,max_ulp_x,mean_ulp,"
               "correctly_rounded,cr_fraction,max_abs,max_abs_x,max_rel,max_rel_x,nonfinite,"
               "mono_violations,mono_max_steps,mono_max_x,sign_violations,sign_first_x,"
               "specials_failed,consistency_max_rel,consistency_x,ref_fallbacks,contract,"
               "benchdnn_failed,xnnpack_failed,xnnpack_checked");
    hist_header(f);
    each_row(r, f, accuracy_row);
}

static void ranges_row(const scan_result *r, size_t i, int k, int d, FILE *f)
{
    const error_metrics *e = &r->metrics[i].err[k][d];
    for (int g = 0; g < RANGE_COUNT; g++) {
        fprintf(f, "%s,%s,%s,%s", r->impls[i]->name, ref_names[k], dir_names[d],
                input_range_name((input_range)g));
        for (int b = 0; b < HIST_BUCKETS; b++)
            fprintf(f, ",%llu", (unsigned long long)e->hist[g][b]);
        fprintf(f, "\n");
    }
}

void ranges_csv_write(const scan_result *r, FILE *f)
{
    fprintf(f, "impl,reference,direction,range");
    hist_header(f);
    each_row(r, f, ranges_row);
}

static void x_row(const scan_result *r, size_t i, int k, int d, FILE *f)
{
    const error_metrics *e = &r->metrics[i].err[k][d];
    for (int b = 0; b < X_BUCKETS; b++) {
        if (e->x_max_ulp[b] == -INFINITY) continue; /* no input there */
        double lo, hi;
        x_bucket_bounds(b, &lo, &hi);
        fprintf(f, "%s,%s,%s,%g,%g,%.9g,%.9g\n", r->impls[i]->name, ref_names[k], dir_names[d], lo,
                hi, e->x_max_ulp[b], e->x_max_abs[b]);
    }
}

void ulp_by_x_csv_write(const scan_result *r, FILE *f)
{
    fprintf(f, "impl,reference,direction,x_lo,x_hi,max_ulp,max_abs\n");
    each_row(r, f, x_row);
}
