/* The report's parts: a report directory is published whole or not at all (a writer failing
 * midway leaves the previous files and no temporary file); the picker's choice on fixture
 * results is deterministic (platform features, constraints, the tie rule); the page inlines
 * gnuplot's SVG without external references and has the make_moons section (or says the
 * experiment was not run). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "known_names.h"
#include "gelu_impl.h"
#include "html_report.h"
#include "moons.h"
#include "pick.h"
#include "report_stage.h"

/* ---- the report directory */

static int write_text(FILE *f, void *ctx) { return fputs(ctx, f) < 0 ? -1 : 0; }
static int write_fails(FILE *f, void *ctx)
{
    fputs(ctx, f); /* half a file, then an error */
    return -1;
}

static char *read_text(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Names in dir other than . and .., joined by spaces, sorted by the caller's expectations. */
static size_t count_entries(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d) closedir(d);
    return n;
}

Test(report, failing_writer_leaves_the_previous_report_intact)
{
    char dir[] = "/tmp/gelucheck-report-XXXXXX", path[2200];
    cr_assert_not_null(mkdtemp(dir));
    report_stage st;
    cr_assert_eq(report_stage_open(&st, dir), 0);
    cr_assert_eq(report_stage_write(&st, "a.csv", write_text, "old a\n"), 0);
    cr_assert_eq(report_stage_write(&st, "b.html", write_text, "old b\n"), 0);
    snprintf(path, sizeof path, "%s/a.csv", dir);
    cr_expect_null(read_text(path), "nothing published before the commit");
    cr_assert_eq(report_stage_commit(&st), 0);
    cr_expect_str_eq(read_text(path), "old a\n");
    cr_expect_eq(count_entries(dir), 2, "the two files and no staging directory");

    /* A second run: the first file is written anew, the second fails midway. */
    cr_assert_eq(report_stage_open(&st, dir), 0);
    cr_assert_eq(report_stage_write(&st, "a.csv", write_text, "new a\n"), 0);
    cr_expect_eq(report_stage_write(&st, "b.html", write_fails, "<html>half"), -1);
    report_stage_abort(&st);
    cr_expect_str_eq(read_text(path), "old a\n");
    snprintf(path, sizeof path, "%s/b.html", dir);
    cr_expect_str_eq(read_text(path), "old b\n");
    cr_expect_eq(count_entries(dir), 2, "no temporary file or staging directory left");

    /* A registered file that never appeared: nothing is published. */
    cr_assert_eq(report_stage_open(&st, dir), 0);
    cr_assert_eq(report_stage_write(&st, "a.csv", write_text, "newer a\n"), 0);
    cr_assert_not_null(report_stage_path(&st, "missing.svg", path, sizeof path));
    cr_expect_eq(report_stage_commit(&st), -1);
    snprintf(path, sizeof path, "%s/a.csv", dir);
    cr_expect_str_eq(read_text(path), "old a\n");
    cr_expect_eq(count_entries(dir), 2);

    /* A killed run's staging directory goes with the next run. */
    pid_t gone = fork();
    if (gone == 0) _exit(0);
    waitpid(gone, NULL, 0);
    snprintf(path, sizeof path, "%s/.staging-%ld-abcdef", dir, (long)gone);
    cr_assert_eq(mkdir(path, 0777), 0);
    strcat(path, "/half.html");
    FILE *f = fopen(path, "w");
    fclose(f);
    cr_assert_eq(report_stage_open(&st, dir), 0);
    report_stage_abort(&st);
    cr_expect_eq(count_entries(dir), 2, "the killed run's staging directory is gone");
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    cr_expect_eq(system(path), 0);
}

/* ---- the picker on tests/fixtures/pick */

static results_set *load_fixture(void)
{
    static results_set s;
    char err[256];
    int rc = results_load(&s, GELUCHECK_FIXTURES "/pick/accuracy.csv",
                          GELUCHECK_FIXTURES "/pick/bench.csv", err, sizeof err);
    cr_assert_eq(rc, 0, "%s", err);
    return &s;
}

static pick_constraints constraints(void)
{
    return (pick_constraints){INFINITY, INFINITY, INFINITY, false, NULL, "l2"};
}

static const char *choice(pick_platform p, const pick_constraints *c, int *fits)
{
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    *fits = pick_rank(load_fixture(), p, c, k, &n);
    return n ? k[0].row->name : "";
}

Test(report, pick_respects_the_platform_and_breaks_ties_by_ulp_then_name)
{
    pick_constraints c = constraints();
    c.max_ulp = 2;
    c.monotone = true;
    int fits;
    /* fast_v4 (1.5 ns) needs AVX-512; then three at 2 ns: tie_c has the smaller ULP error. */
    cr_expect_str_eq(choice(PICK_X86_64_V4, &c, &fits), "fast_v4");
    cr_expect_str_eq(choice(PICK_X86_64_V3, &c, &fits), "tie_c");
    cr_expect_eq(fits, 3);
    c.max_ulp = 0.5;
    c.grad_max_ulp = 1; /* only tie_c has a derivative row */
    cr_expect_str_eq(choice(PICK_GENERIC, &c, &fits), "tie_c");
    cr_expect_eq(fits, 1);

    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    c = constraints();
    c.max_ulp = 1;
    c.monotone = true;
    pick_rank(load_fixture(), PICK_GENERIC, &c, k, &n);
    /* tie_c, then tie_a before tie_b (same speed, same ULP: by name) */
    cr_expect_str_eq(k[0].row->name, "tie_c");
    cr_expect_str_eq(k[1].row->name, "tie_a");
    cr_expect_str_eq(k[2].row->name, "tie_b");
    for (size_t i = 0; i < n; i++)
        if (strcmp(k[i].row->name, "nonmono") == 0)
            cr_expect_str_eq(k[i].why, "3 monotonicity violations");
}

Test(report, pick_with_nothing_fitting_lists_the_closest_first)
{
    pick_constraints c = constraints();
    c.max_ulp = 0.1;
    int fits;
    cr_expect_str_eq(choice(PICK_HOST, &c, &fits), "nonmono",
                     "the fastest of those failing one constraint");
    cr_expect_eq(fits, 0);
    c = constraints();
    c.target = "tanh";
    cr_expect_str_eq(choice(PICK_X86_64_V3, &c, &fits), "tanhy");
    cr_expect_eq(fits, 1);
    cr_expect_str_eq(choice(PICK_GENERIC, &c, &fits), "nonmono", "tanhy needs AVX2: nothing fits");
    cr_expect_eq(fits, 0);
}

Test(report, fixture_rows_are_read_by_column_name)
{
    const results_set *s = load_fixture();
    const results_row *t = results_find(s, "tanhy");
    cr_assert_not_null(t);
    cr_expect_eq(t->exact[0].max_ulp, 1.2e7);
    cr_expect_str_eq(t->exact[0].max_ulp_x, "-0x1.2p+3");
    cr_expect_eq(t->benchdnn_failed, 5);
    cr_expect_eq(t->features, CPU_FEATURE_AVX2 | CPU_FEATURE_FMA);
    cr_expect_str_eq(s->baseline, "relu_base");
    cr_expect_eq(s->nsizes, 2);
    cr_expect_eq(results_speed_at(results_find(s, "tie_a"), "l1")->ns, 1.0);
    char err[256];
    results_set *bad = malloc(sizeof *bad);
    cr_expect_eq(results_load(bad, GELUCHECK_FIXTURES "/pick/bench.csv", NULL, err, sizeof err),
                 -1);
    cr_expect(strstr(err, "no column 'reference'") != NULL, "%s", err);
    free(bad);
}

/* ---- the page */

Test(report, page_inlines_svg_without_external_references)
{
    static const char svg[] =
        "<?xml version=\"1.0\"?>\n<svg \n viewBox=\"0 0 10 10\"\n "
        "xmlns=\"http://www.w3.org/2000/svg\"\n"
        " xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n<use xlink:href='#gpPt1'/></svg>\n";
    report_meta meta = {"cpu <x>",          "avx2", "gcc",  "-O2", "today", "abc123",
                        "gelucheck report", "scan", "bench"};
    const char *broken[] = {"tie_b forward: max ULP error 9 > claimed 1"};
    html_report h = {load_fixture(), &meta, {svg, NULL, NULL, NULL}, "a note & more", broken, 1,
                     NULL};
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(html_report_write(f, &h), 0);
    fclose(f);
    cr_expect_null(strstr(buf, "http"), "no URL at all");
    cr_expect_null(strstr(buf, "src="));
    cr_expect_null(strstr(buf, "<?xml"), "the SVG's XML declaration is dropped");
    cr_expect_not_null(strstr(buf, "<use href='#gpPt1'/>"));
    cr_expect_not_null(strstr(buf, "cpu &lt;x&gt;"), "text is escaped");
    cr_expect_not_null(strstr(buf, "a note &amp; more"));
    cr_expect_not_null(strstr(buf, "<code>tie_b forward: max ULP error 9 &gt; claimed 1</code>"));
    cr_expect_not_null(strstr(buf, "<td class=\"l\"><b>tie_c</b></td>"),
                       "a row per implementation");
    cr_expect_not_null(strstr(buf, "<h2 id=\"moons\">"));
    cr_expect_not_null(strstr(buf, "make_moons experiment was not run"));
    free(buf);
}

/* The page of a tiny make_moons run (silu, with the reference and ReLU that always run). */
static char *page_with_moons(moons_experiment *e, moons_summary *sum)
{
    report_meta meta = {"cpu", "avx2", "gcc", "-O2", "today", "abc", "report", "scan", "bench"};
    html_moons moons = {e, sum, "A tiny run"};
    html_report h = {load_fixture(), &meta, {NULL}, NULL, NULL, 0, &moons};
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(html_report_write(f, &h), 0);
    fclose(f);
    return buf;
}

Test(report, page_has_the_moons_tables_and_conclusion)
{
    moons_config c;
    moons_config_quick(&c);
    c.n_samples = 100;
    c.epochs = 2;
    c.n_seeds = 2;
    const gelu_impl *silu = gelu_impl_find("silu");
    moons_experiment e;
    cr_assert_eq(moons_experiment_init(&e, &c, &silu, 1), MOONS_OK);
    cr_assert_eq(moons_experiment_run(&e, NULL, NULL), MOONS_OK);
    moons_summary sum[3];
    cr_assert_eq(e.n_impls, 3, "silu, the reference, relu");
    for (size_t i = 0; i < e.n_impls; i++) cr_assert_eq(moons_summarise(&e, i, &sum[i]), MOONS_OK);
    char *buf = page_with_moons(&e, sum);
    cr_expect_null(strstr(buf, "http"), "no URL at all");
    cr_expect_null(strstr(buf, "was not run"));
    const char *section = strstr(buf, "<h2 id=\"moons\">");
    cr_assert_not_null(section);
    cr_expect_not_null(strstr(section, "<b>How to read this</b>"));
    cr_expect_not_null(strstr(section, "<td class=\"l\"><b>silu</b></td><td class=\"l\">silu</td>"));
    /* 2 metrics × (2 vs relu + 2 vs the reference) = 8 comparisons */
    cr_expect_not_null(strstr(section, "Bonferroni threshold 0.05 / 8 = 0.0063"), "%s", section);
    cr_expect_not_null(strstr(section, "Inference swap"));
    cr_expect_not_null(strstr(section, "&#916; test accuracy</th><th>max |&#916; logit|</th>"));
    size_t open = 0, close = 0;
    for (const char *p = buf; (p = strstr(p, "<table>")); p++) open++;
    for (const char *p = buf; (p = strstr(p, "</table>")); p++) close++;
    cr_expect_eq(open, close);
    cr_expect_eq(open, 4, "the summary and the three make_moons tables");
    free(buf);

    /* The CSV the report stages: the documented header, one row per seed and implementation. */
    size_t size, lines = 0;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(moons_csv_write(&e, f), MOONS_OK);
    fclose(f);
    static const char header[] = "seed,impl,target,train_loss,val_acc,test_acc,test_loss,"
                                 "seconds,swap_test_acc,swap_max_logit_change\n";
    cr_expect_eq(strncmp(buf, header, sizeof header - 1), 0, "%s", buf);
    for (const char *p = buf; *p; p++) lines += *p == '\n';
    cr_expect_eq(lines, 1 + 2 * 3);
    free(buf);
    moons_experiment_free(&e);
}

/* Framework names: by registry name, by the name without its ISA suffix, then by target. */
Test(report, known_names_by_name_isa_and_target)
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
