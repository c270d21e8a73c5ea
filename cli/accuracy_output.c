/* The accuracy table and files (see accuracy_output.h). */
#include "accuracy_output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "accuracy_columns.h"
#include "accuracy_csv.h"
#include "atomic_file.h"
#include "float_bits.h"
#include "cli.h"

/* The console table: the columns of the table (accuracy_columns.h) that have a console width,
 * in its order, one space apart. */
static void print_cell(const accuracy_column *c, const char *text, bool first)
{
    printf(c->console_width < 0 ? "%s%-*s" : "%s%*s", first ? "" : " ",
           c->console_width < 0 ? -c->console_width : c->console_width, text);
}

static void print_row(const accuracy_row *w, void *arg)
{
    (void)arg;
    bool first = true;
    for (size_t k = 0; k < accuracy_column_count(); k++) {
        const accuracy_column *c = accuracy_column_at(k);
        if (!c->console_width) continue;
        char text[128];
        (c->console ? c->console : c->csv)(w, text, sizeof text);
        print_cell(c, text, first);
        first = false;
    }
    printf("\n");
}

static void print_table(const scan_result *r)
{
    bool first = true;
    for (size_t k = 0; k < accuracy_column_count(); k++) {
        const accuracy_column *c = accuracy_column_at(k);
        if (!c->console_width) continue;
        print_cell(c, c->console_header ? c->console_header : c->name, first);
        first = false;
    }
    printf("\n");
    accuracy_each_row(r, print_row, NULL);
    for (size_t i = 0; r->grad && i < r->nimpls; i++)
        if (scan_directions(r->impls[i], true) < DIR_COUNT)
            printf("%s: forward only (no derivative kernel): its derivative is not scanned\n",
                   r->impls[i]->name);
    if (r->fpenv != GELU_FPENV_IEEE) /* (IEEE's, the default, goes without saying) */
        printf("\nfpenv %s: the kernels ran with MXCSR's %s set; references: a subnormal input "
               "read as zero (daz), a subnormal correctly rounded result expected as zero (ftz)\n",
               gelu_fpenv_name(r->fpenv),
               r->fpenv == GELU_FPENV_FTZ_DAZ ? "FTZ and DAZ" : r->fpenv == GELU_FPENV_FTZ ? "FTZ" : "DAZ");
    printf("\ninputs: %llu", (unsigned long long)r->inputs);
    uint64_t refs = 0, fb = 0;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) {
            refs += r->refs[t][d];
            fb += r->fallbacks[t][d];
        }
    printf("; reference values: %llu, of which MPFR fallbacks: %llu (%.3g)\n",
           (unsigned long long)refs, (unsigned long long)fb, refs ? (double)fb / (double)refs : 0.0);
}

/* The lists behind the counts: each implementation's first monotonicity breaks and its wrong
 * special values with expected and actual encodings. */
static void print_details(const scan_result *r)
{
    for (size_t i = 0; i < r->nimpls; i++) {
        const mono_metrics *m = &r->metrics[i].mono;
        if (m->violations) {
            printf("%s: %llu monotonicity break%s, largest %.0f steps at %a; first at", r->impls[i]->name,
                   (unsigned long long)m->violations, m->violations > 1 ? "s" : "", m->largest.value,
                   scan_result_input(r, m->largest.seq, m->largest.bits));
            for (size_t k = 0; k < m->nlisted; k++)
                printf(" %a", scan_result_input(r, m->listed_seq[k], m->listed_bits[k]));
            printf("\n");
        }
        /* maxima whose near ties went past the MPFR budget (scan/near.h) */
        static const char *const kind[ERR_KINDS] = {"max ULP", "max abs", "max rel"};
        for (int k = 0; k < REF_KINDS; k++)
            for (int d = 0; d < DIR_COUNT; d++)
                for (int e = 0; e < ERR_KINDS; e++) {
                    const near_list *l = &r->metrics[i].err[k][d].near[e];
                    if (l->dropped != -INFINITY)
                        printf("%s %s vs %s: %s not decided among near ties past the MPFR budget: "
                               "shown %.9g at the first input found, the true one at most %.9g\n",
                               r->impls[i]->name, d == DIR_FORWARD ? "forward" : "derivative",
                               k == REF_OWN ? "own target" : "exact", kind[e],
                               e == ERR_ULP ? r->metrics[i].err[k][d].max_ulp.value
                               : e == ERR_ABS ? r->metrics[i].err[k][d].max_abs.value
                                              : r->metrics[i].err[k][d].max_rel.value,
                               l->dropped);
                }
        /* the same for the x buckets' maxima (ulp_by_x.csv): how many, and the worst bound */
        for (int k = 0; k < REF_KINDS; k++)
            for (int d = 0; d < DIR_COUNT; d++)
                for (int e = 0; e < X_KINDS; e++) {
                    const error_metrics *m = &r->metrics[i].err[k][d];
                    const double *shown = e == ERR_ULP ? m->x_max_ulp : m->x_max_abs;
                    int undecided = 0, first = -1;
                    double bound = -INFINITY;
                    for (int b = 0; b < X_BUCKETS; b++) {
                        double dropped = m->x_near[e][b].dropped;
                        if (dropped == -INFINITY) continue;
                        undecided++;
                        first = first < 0 ? b : first;
                        bound = dropped > bound ? dropped : bound;
                    }
                    if (undecided == 0) continue;
                    double lo, hi;
                    x_bucket_bounds(first, &lo, &hi);
                    printf("%s %s vs %s: %s of %d x bucket%s not decided among near ties past the MPFR "
                           "budget (ulp_by_x.csv shows the largest error found), the first [%g, %g) "
                           "shown %.9g, the true ones at most %.9g\n",
                           r->impls[i]->name, d == DIR_FORWARD ? "forward" : "derivative",
                           k == REF_OWN ? "own target" : "exact", kind[e], undecided,
                           undecided > 1 ? "s" : "", lo, hi, shown[first], bound);
                }
        for (int d = 0; r->has_extras && d < DIR_COUNT; d++) {
            const impl_extras *e = &r->extras[i];
            if (!e->nspecial_failed[d]) continue;
            printf("%s %s: special values wrong:", r->impls[i]->name,
                   d == DIR_FORWARD ? "forward" : "derivative");
            if (r->x64) { /* binary64: special_failure holds binary32 values; the inputs are the
                           * sample's special encodings (scan_f64.h), each a row of its errors */
                printf(" %zu of %d special inputs\n", e->nspecial_failed[d], GELU_FORMAT_SPECIAL_COUNT);
                continue;
            }
            for (size_t k = 0; k < e->nspecial_failed[d]; k++) {
                const special_failure *f = &e->special_failed[d][k];
                printf(" x=0x%08x want 0x%08x got 0x%08x;", float_bits(f->x), float_bits(f->expected),
                       float_bits(f->actual));
            }
            printf("\n");
        }
    }
}

typedef void (*csv_writer)(const scan_result *, FILE *);

static int write_file(const char *cmd, const char *path, csv_writer w, const scan_result *r)
{
    atomic_file a;
    char err[512];
    if (atomic_file_open(&a, path, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck %s: %s\n", cmd, err);
        return -1;
    }
    w(r, a.f);
    if (atomic_file_commit(&a, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck %s: %s\n", cmd, err);
        return -1;
    }
    return write_manifest_beside(cmd, path) == EXIT_OK ? 0 : -1;
}

int accuracy_files_probe(const char *cmd, const accuracy_files *files)
{
    const char *paths[3] = {files->csv, files->ranges_csv, files->partial};
    for (int i = 0; i < 3; i++)
        if (paths[i] && probe_output(cmd, paths[i]) != EXIT_OK) return -1;
    return 0;
}

/* What a verdict covers: "over all 4294967296 binary32 inputs", or a part of them, said to be
 * a sample (or a range) with its size: a contract kept there is not proven for every input. */
static const char *coverage(const scan_result *r, char *buf, size_t size)
{
    const gelu_format *f = gelu_format_of(r->nimpls ? r->impls[0]->format : GELU_FORMAT_BINARY32);
    uint64_t all = gelu_format_encodings(f);
    if (all && r->inputs == all)
        snprintf(buf, size, "over all %llu %s inputs", (unsigned long long)all, f->name);
    else if (all)
        snprintf(buf, size, "over %llu of the %llu %s inputs only (a SAMPLE or a range: not every "
                 "input)", (unsigned long long)r->inputs, (unsigned long long)all, f->name);
    else
        snprintf(buf, size, "over a SAMPLE of %llu %s inputs (not every input)",
                 (unsigned long long)r->inputs, f->name);
    return buf;
}

int accuracy_output(const char *cmd, const scan_result *r, const accuracy_files *files)
{
    print_table(r);
    print_details(r);
    int status = EXIT_OK;
    char cover[160];
    coverage(r, cover, sizeof cover);
    for (size_t i = 0; i < r->nimpls; i++) {
        char why[512];
        int n = scan_contract_violations(r, i, why, sizeof why);
        if (n) {
            printf("CONTRACT BROKEN (%d claim%s): %s; judged %s\n", n, n > 1 ? "s" : "", why, cover);
            status = EXIT_CHECK_FAILED;
        }
    }
    if (status == EXIT_OK) printf("every implementation meets its declared contract %s\n", cover);
    if (files->csv && write_file(cmd, files->csv, accuracy_csv_write, r) != 0)
        status = EXIT_CHECK_FAILED;
    if (files->ranges_csv && write_file(cmd, files->ranges_csv, ranges_csv_write, r) != 0)
        status = EXIT_CHECK_FAILED;
    return status;
}

size_t accuracy_default_impls(const char *cmd, const gelu_impl **out)
{
    size_t n = 0;
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (m->own_threads)
            fprintf(stderr, "gelucheck %s: leaving out '%s' (own thread pool, the kernels of its "
                            "single-threaded twin)\n", cmd, m->name);
        else if (gelu_impl_available(m)) out[n++] = m;
    }
    return n;
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

void print_scan_profile(const scan_result *r, const scan_profile *p, double wall, unsigned threads)
{
    double kernels = 0, metrics = 0, refs = 0, fallbacks = 0;
    for (size_t i = 0; i < r->nimpls; i++)
        for (int d = 0; d < DIR_COUNT; d++) {
            kernels += p->kernel[i][d];
            metrics += p->metrics[i][d];
        }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) {
            refs += p->reference[t][d];
            fallbacks += p->fallback[t][d];
        }
    double total = kernels + metrics + refs + p->inputs;
    double per_input = r->inputs ? 1e9 / (double)r->inputs : 0;
    printf("\nprofile: thread seconds (ns per input), %llu inputs, %.1f s wall x %u thread%s\n",
           (unsigned long long)r->inputs, wall, threads, threads > 1 ? "s" : "");
    printf("%-24s %22s %22s %22s %22s\n", "impl", "kernel forward", "kernel derivative",
           "metrics forward", "metrics derivative");
    for (size_t i = 0; i < r->nimpls; i++) {
        printf("%-24s", r->impls[i]->name);
        for (int d = 0; d < DIR_COUNT; d++)
            printf(" %10.2f (%9.2f)", p->kernel[i][d], p->kernel[i][d] * per_input);
        for (int d = 0; d < DIR_COUNT; d++)
            printf(" %10.2f (%9.2f)", p->metrics[i][d], p->metrics[i][d] * per_input);
        printf("\n");
    }
    printf("%-24s %22s %22s %22s %22s\n", "reference", "fast forward", "fast derivative",
           "MPFR forward", "MPFR derivative");
    for (int t = 0; t < GELU_TARGET_COUNT; t++) {
        if (r->refs[t][DIR_FORWARD] == 0) continue;
        printf("ref:%-20s", gelu_target_name((gelu_target)t));
        for (int d = 0; d < DIR_COUNT; d++)
            printf(" %10.2f (%9.2f)", p->reference[t][d] - p->fallback[t][d],
                   (p->reference[t][d] - p->fallback[t][d]) * per_input);
        for (int d = 0; d < DIR_COUNT; d++)
            printf(" %10.2f %10llu", p->fallback[t][d], (unsigned long long)r->fallbacks[t][d]);
        printf("\n");
    }
    /* near ties (scan/near.h): the entries resolved with MPFR during the scan, lists full (the
     * rows' maxima, then the x buckets') */
    for (size_t i = 0; i < r->nimpls; i++) {
        unsigned long long resolved = 0, by_x = 0;
        for (int k = 0; k < REF_KINDS; k++)
            for (int d = 0; d < DIR_COUNT; d++) {
                const error_metrics *e = &r->metrics[i].err[k][d];
                for (int q = 0; q < ERR_KINDS; q++) resolved += e->near[q].resolved;
                for (int q = 0; q < X_KINDS; q++)
                    for (int b = 0; b < X_BUCKETS; b++) by_x += e->x_near[q][b].resolved;
            }
        if (resolved || by_x)
            printf("near ties of %s's maxima resolved with MPFR in the scan (a list was full): %llu, "
                   "of its x buckets' maxima: %llu\n",
                   r->impls[i]->name, resolved, by_x);
    }
    printf("total %.1f thread s: kernels %.1f (%.0f%%), metrics %.1f (%.0f%%), references %.1f "
           "(%.0f%%, of which MPFR %.1f), inputs %.1f\n",
           total, kernels, 100 * kernels / total, metrics, 100 * metrics / total, refs,
           100 * refs / total, fallbacks, p->inputs);
}

void accuracy_progress(uint64_t done, uint64_t total, void *ctx)
{
    scan_progress_state *p = ctx;
    double el = seconds_since(&p->start);
    double frac = total ? (double)done / (double)total : 1;
    double eta = frac > 0 ? el * (1 - frac) / frac : 0;
    double rate = el > 0 ? (double)done * SCAN_BLOCK / el : 0; /* blocks are SCAN_BLOCK inputs */
    if (p->log_lines) { /* not a terminal (a CI log, a file): a plain line a minute */
        if (el < p->next_line && done != total) return;
        p->next_line = el + 60;
        if (done == total) return;
        fprintf(stderr, "scan: %.1f%% done, %.0f s elapsed, ETA %.0f s, %.3g inputs/s\n", 100 * frac,
                el, eta, rate);
        return;
    }
    int width = 30, filled = (int)(frac * width);
    fprintf(stderr, "\rscan [%.*s%*s] %5.1f%%  %4.0fs elapsed, ETA %4.0fs, %.3g inputs/s ", filled,
            "##############################", width - filled, "", 100 * frac, el, eta, rate);
    if (done == total) fprintf(stderr, "\n");
}

void scan_progress_start(scan_progress_state *p)
{
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    p->log_lines = !isatty(STDERR_FILENO);
    p->next_line = 60;
}
