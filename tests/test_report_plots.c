/* The report's plots and what they are told of each row: the Pareto front and its labels (none
 * overlapping, every point named on hover), the cost plot without rows that run their own thread
 * pools, the error plots' ISA twins merged, and the families and framework names read from the
 * descriptors. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "html_text.h"
#include "known_names.h"
#include "gelu_impl.h"
#include "accuracy_columns.h"
#include "accuracy_csv.h"
#include "html_report.h"
#include "moons.h"
#include "pick.h"
#include "plugin.h"
#include "report_stage.h"
#include "gelu_cr16.h"
#include "scan_small.h"
#include "scan_f64.h"
#include "gelu_f64.h"
#include "fpenv_cover.h"
#include "report_fixture.h"
#include "gelu_fpenv.h"


/* ---- the plots' data */

/* The front: nothing else both as fast and as accurate; of two equal points the first listed. */
Test(report, pareto_front_keeps_the_undominated_by_speed)
{
    static results_set s;
    s.n = 0;
    gelu_row(&s, "c_slow_exact", 3, 0.5);
    gelu_row(&s, "a_fast_rough", 1, 100);
    gelu_row(&s, "d_dominated", 2.5, 2); /* b is faster and more accurate */
    gelu_row(&s, "b_middle", 2, 1);
    gelu_row(&s, "e_copy_of_a", 1, 100);
    results_row *notgelu = gelu_row(&s, "f_silu", 0.1, 0.1);
    notgelu->exact[0].present = false;
    size_t idx[RESULTS_MAX_ROWS], n = plot_pareto_front(&s, "l2", idx);
    cr_assert_eq(n, 3);
    cr_expect_str_eq(s.rows[idx[0]].name, "a_fast_rough");
    cr_expect_str_eq(s.rows[idx[1]].name, "b_middle");
    cr_expect_str_eq(s.rows[idx[2]].name, "c_slow_exact");
    cr_expect_eq(plot_pareto_front(&s, "dram", idx), 0, "nothing measured at dram");
}

/* The default peers (SLEEF's rows are theirs), as every gelucheck command loads them. */
static void load_peers(void)
{
    char err[2000];
    cr_assert_eq(plugins_load_default_peers(err, sizeof err), 0, "%s", err);
}

/* The front's labels: one that would overlap a label drawn before it (a point just beside a
 * faster one) is left out of the plot's $labels, the front's staircase keeps every point. */
Test(report, pareto_labels_do_not_overlap)
{
    static results_set s;
    s.n = 0;
    gelu_row(&s, "a_fast_rough", 1, 100);
    gelu_row(&s, "b_beside_a", 1.1, 90); /* its label would cover a's */
    gelu_row(&s, "c_slow_exact", 100, 0.5);
    s.nsizes = 1;
    snprintf(s.sizes[0], sizeof s.sizes[0], "l2");
    size_t idx[RESULTS_MAX_ROWS], n = plot_pareto_front(&s, "l2", idx);
    cr_assert_eq(n, 3);
    bool keep[RESULTS_MAX_ROWS];
    cr_expect_eq(plot_pareto_labels(&s, "l2", idx, n, keep), 2);
    cr_expect(keep[0] && !keep[1] && keep[2], "kept: %d %d %d", keep[0], keep[1], keep[2]);
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(plot_script_write(f, PLOT_PARETO, &s), 0);
    fclose(f);
    const char *labels = strstr(buf, "$labels << EOD\n");
    cr_assert_not_null(labels, "%s", buf);
    cr_expect_not_null(strstr(buf, "$front << EOD\na_fast_rough 1 100\nb_beside_a 1.1 90\n"), "%s", buf);
    cr_expect_not_null(strstr(labels, "$labels << EOD\na_fast_rough 1 100\nc_slow_exact 100 0.5\nEOD\n"),
                       "%s", buf);
    cr_expect_not_null(strstr(buf, "$labels using 2:3:1 with labels"), "%s", buf);
    free(buf);
    /* apart, both are labelled */
    s.rows[1].speed[0].ns = 10;
    n = plot_pareto_front(&s, "l2", idx);
    cr_expect_eq(plot_pareto_labels(&s, "l2", idx, n, keep), 3);
}

/* Every Pareto point carries its name (gnuplot's hover text), which the page turns into the
 * point group's <title> (no script): the unlabelled points are named on hover. */
Test(report, pareto_points_are_named_on_hover)
{
    static results_set s;
    s.n = 0;
    gelu_row(&s, "a_fast_rough", 1, 100);
    s.nsizes = 1;
    snprintf(s.sizes[0], sizeof s.sizes[0], "l2");
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(plot_script_write(f, PLOT_PARETO, &s), 0);
    fclose(f);
    cr_expect_not_null(strstr(buf, "$points using ($4 == 0 ? $2 : NaN):3:1 with labels hypertext point"),
                       "%s", buf);
    free(buf);
    const char *svg =
        "<svg width=\"10\">\n<g onmousemove=\"gnuplot_svg.showHypertext(evt,'b_beside_a')\" "
        "onmouseout=\"gnuplot_svg.hideHypertext()\"><title> </title>\n<use href='#gpPt6'/></g>\n</svg>";
    f = open_memstream(&buf, &size);
    html_inline_svg(f, svg);
    fclose(f);
    cr_expect_not_null(strstr(buf, "<g><title>b_beside_a</title>\n<use href='#gpPt6'/></g>"), "%s", buf);
    cr_expect_null(strstr(buf, "gnuplot_svg"), "%s", buf);
    free(buf);
}

static void pool_forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i];
}

/* The cost plot leaves out a row with a thread pool of its own (its time is no one thread's,
 * and it stretched the axis to 10^5), keeps the rest. */
Test(report, cost_plot_leaves_out_own_thread_pools)
{
    static const gelu_impl pool = {.name = "pool_gelu_test", .target = GELU_TARGET_EXACT,
                                   .format = GELU_FORMAT_BINARY32, .forward = pool_forward,
                                   .own_threads = true};
    char err[256];
    cr_assert_eq(gelu_impl_add(&pool, "test", err, sizeof err), 0, "%s", err);
    static results_set s;
    s.n = 0;
    gelu_row(&s, "single_thread", 2, 1)->speed[0].ratio = 3;
    gelu_row(&s, "pool_gelu_test", 4, 1)->speed[0].ratio = 90000;
    s.nsizes = 1;
    snprintf(s.sizes[0], sizeof s.sizes[0], "l2");
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(plot_script_write(f, PLOT_COST, &s), 0);
    fclose(f);
    cr_expect_not_null(strstr(buf, "$cost << EOD\nsingle_thread 3 3\nEOD\n"), "%s", buf);
    cr_expect_null(strstr(buf, "pool_gelu_test"), "%s", buf);
    free(buf);
}

/* Small multiples: ISA builds with equal figures are drawn once, named together; a build whose
 * figures differ is drawn apart; each family is a panel. */
Test(report, error_plots_merge_identical_isa_twins_only, .init = load_peers)
{
    static results_set s;
    s.n = 0;
    gelu_row(&s, "pw_fast", 20, 1e7);
    gelu_row(&s, "pw_fast_avx2", 2, 1e7);
    gelu_row(&s, "pw_accurate", 20, 1);
    gelu_row(&s, "pw_accurate_avx512", 0.5, 1.5); /* differs: its own curve */
    gelu_row(&s, "dnnl_erf", 1, 1e7);
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(plot_script_write(f, PLOT_ULP_BY_X, &s), 0);
    fclose(f);
    cr_expect_not_null(strstr(buf, "title 'pw_fast +avx2'"), "%s", buf);
    cr_expect_null(strstr(buf, "eq 'pw_fast_avx2'"), "the twin is not drawn again");
    cr_expect_not_null(strstr(buf, "eq 'pw_accurate_avx512'"));
    cr_expect_not_null(strstr(buf, "title 'pw_accurate'"));
    cr_expect_not_null(strstr(buf, "set multiplot layout 1,2"), "two families: ours, ML kernel libraries");
    cr_expect_not_null(strstr(buf, "set title 'ML kernel libraries'"));
    cr_expect_not_null(strstr(buf, "set linetype 1 lc rgb '#0072B2'"), "Okabe-Ito colours");
    free(buf);
}

/* Families are the descriptors': the peers' (loaded as every command loads them), the built-in
 * rows', and a row added at run time with its own. */
static void forward_none(const float *x, float *y, size_t n) { memcpy(y, x, n * sizeof *y); }

Test(report, families_from_the_descriptors, .init = load_peers)
{
    cr_expect_eq(impl_family_of("dnnl_erf_omp"), GELU_FAMILY_ML_LIBRARY, "a library, not a framework");
    cr_expect_eq(impl_family_of("sleef_erf_u10_avx2"), GELU_FAMILY_SIMD_LIBRARY);
    cr_expect_eq(impl_family_of("gsl_cdf"), GELU_FAMILY_LIBM_GSL);
    cr_expect_eq(impl_family_of("erfc_f64"), GELU_FAMILY_LIBM_GSL);
    cr_expect_eq(impl_family_of("pw_fast_avx512"), GELU_FAMILY_OURS);
    cr_expect_eq(impl_family_of("tanh_avx2"), GELU_FAMILY_OURS, "ours, unlike tanh_libm");
    cr_expect_eq(impl_family_of("tanh_libm"), GELU_FAMILY_LIBM_GSL);
    cr_expect_eq(impl_family_of("no_such_impl"), GELU_FAMILY_OURS);
    static const gelu_impl added = {.name = "added_simd", .target = GELU_TARGET_EXACT,
                                    .forward = forward_none, .family = GELU_FAMILY_SIMD_LIBRARY,
                                    .known_as = "ADDED-KNOWN-AS"};
    char err[256];
    cr_assert_eq(gelu_impl_add(&added, "test", err, sizeof err), 0, "%s", err);
    cr_expect_eq(impl_family_of("added_simd"), GELU_FAMILY_SIMD_LIBRARY);
    cr_expect_str_eq(known_names("added_simd", "exact"), "ADDED-KNOWN-AS");
    cr_expect_str_eq(impl_family_name(GELU_FAMILY_SIMD_LIBRARY), "SIMD libraries");
}

/* Framework names: by registry name, by the name without its ISA suffix, then by target. */
Test(report, known_names_by_name_isa_and_target, .init = load_peers)
{
    cr_expect(strstr(known_names("pw_fast_avx512", "exact"), "directly") != NULL);
    cr_expect(strstr(known_names("erfc_accurate_avx2", "exact"), "through erfc") != NULL);
    cr_expect(strstr(known_names("sleef_erf_u10_avx512f", "exact"), "SLEEF's erff") != NULL);
    cr_expect(strstr(known_names("as7126_avx512", "exact"), "7.1.26") != NULL);
    const char *generic = known_names("gsl_cdf", "exact");
    cr_expect(strstr(generic, "approximate='none'") != NULL && strstr(generic, "erfc") == NULL,
              "gsl_cdf is not computed through erfc: %s", generic);
    cr_expect(strstr(known_names("tanh_avx2", "tanh"), "approximate='tanh'") != NULL);
    cr_expect_str_eq(known_names("no_such_impl", "no_such_target"), "");
}
