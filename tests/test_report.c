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
    char mark[2300];
    snprintf(mark, sizeof mark, "%s/" REPORT_STAGE_MARK, path);
    FILE *f = fopen(mark, "w");
    fclose(f);
    strcat(path, "/half.html");
    f = fopen(path, "w");
    fclose(f);
    cr_assert_eq(report_stage_open(&st, dir), 0);
    report_stage_abort(&st);
    cr_expect_eq(count_entries(dir), 2, "the killed run's staging directory is gone");
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    cr_expect_eq(system(path), 0);
}

/* Issue 11, item 4: a "stale staging directory" that is a symbolic link (to a victim
 * directory), or a directory gelucheck did not mark, is left alone; only marked ones go. */
Test(report, stale_stage_cleanup_never_follows_links_or_touches_unmarked_directories)
{
    char dir[] = "/tmp/gelucheck-report-XXXXXX", victim[] = "/tmp/gelucheck-victim-XXXXXX";
    char path[2300];
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_not_null(mkdtemp(victim));
    snprintf(path, sizeof path, "%s/precious", victim);
    FILE *f = fopen(path, "w");
    fputs("keep\n", f);
    fclose(f);
    pid_t gone = fork();
    if (gone == 0) _exit(0);
    waitpid(gone, NULL, 0);
    snprintf(path, sizeof path, "%s/.staging-%ld-link", dir, (long)gone);
    cr_assert_eq(symlink(victim, path), 0);
    snprintf(path, sizeof path, "%s/.staging-%ld-mine", dir, (long)gone);
    cr_assert_eq(mkdir(path, 0777), 0); /* a user's directory of that name, without the mark */
    report_stage st;
    cr_assert_eq(report_stage_open(&st, dir), 0);
    report_stage_abort(&st);
    snprintf(path, sizeof path, "%s/precious", victim);
    cr_expect_str_eq(read_text(path), "keep\n", "the victim's file survives");
    cr_expect_eq(count_entries(dir), 2, "the link and the unmarked directory stay");
    snprintf(path, sizeof path, "rm -rf '%s' '%s'", dir, victim);
    cr_expect_eq(system(path), 0);
}

/* Issue 11, item 14: a file the report owns but did not write this time (a plot when gnuplot
 * is missing) does not stay beside the new data; published files follow the umask. */
Test(report, publication_removes_owned_files_not_written_and_follows_the_umask)
{
    char dir[] = "/tmp/gelucheck-report-XXXXXX", path[2300];
    cr_assert_not_null(mkdtemp(dir));
    report_stage st;
    cr_assert_eq(report_stage_open(&st, dir), 0);
    cr_assert_eq(report_stage_write(&st, "cost.svg", write_text, "old plot\n"), 0);
    cr_assert_eq(report_stage_write(&st, "a.csv", write_text, "old a\n"), 0);
    cr_assert_eq(report_stage_commit(&st), 0);
    mode_t old = umask(027);
    cr_assert_eq(report_stage_open(&st, dir), 0);
    cr_assert_eq(report_stage_own(&st, "cost.svg"), 0);
    cr_assert_eq(report_stage_write(&st, "a.csv", write_text, "new a\n"), 0);
    cr_assert_eq(report_stage_commit(&st), 0);
    umask(old);
    snprintf(path, sizeof path, "%s/cost.svg", dir);
    cr_expect_null(read_text(path), "the previous run's plot is gone");
    snprintf(path, sizeof path, "%s/a.csv", dir);
    cr_expect_str_eq(read_text(path), "new a\n");
    struct stat sb;
    cr_assert_eq(stat(path, &sb), 0);
    cr_expect_eq(sb.st_mode & 0777, 0640, "mode %o", (unsigned)(sb.st_mode & 0777));
    cr_expect_eq(count_entries(dir), 1);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    cr_expect_eq(system(path), 0);
}

/* ---- the picker on tests/fixtures/pick */

static pick_constraints constraints(void)
{
    return pick_no_constraints("l2");
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
    cr_expect_str_eq(choice(PICK_GENERIC, &c, &fits), "tanhy",
                     "tanhy needs AVX2: nothing fits, and the closest is of the target asked "
                     "for (nonmono, faster, fails only the target)");
    cr_expect_eq(fits, 0);
}

/* The two constraints the report's answer needs: against the own target, and correct rounding
 * by the count (a fraction printed to 9 digits says 1 for 2^32 − 1 of 2^32). */
Test(report, pick_by_own_target_ulp_and_correct_rounding)
{
    pick_constraints c = constraints();
    c.target = "tanh";
    c.own_max_ulp = 2;
    int fits;
    cr_expect_str_eq(choice(PICK_HOST, &c, &fits), "tanhy");
    cr_expect_eq(fits, 1);
    c.own_max_ulp = 1.9;
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    cr_expect_eq(pick_rank(load_fixture(), PICK_HOST, &c, k, &n), 0);
    for (size_t i = 0; i < n; i++)
        if (strcmp(k[i].row->name, "tanhy") == 0)
            cr_expect_str_eq(k[i].why, "max ULP vs own target 2 > 1.9");

    c = constraints();
    c.correctly_rounded = true; /* forward and derivative: nonmono 1000 of 1000 both; tie_c's
                                 * forward too, its derivative 990 of 1000 */
    cr_expect_eq(pick_rank(load_fixture(), PICK_GENERIC, &c, k, &n), 1);
    cr_expect_str_eq(k[0].row->name, "nonmono");
    cr_expect_str_eq(k[1].row->name, "tie_c");
    cr_expect_str_eq(k[1].why, "derivative 99.0000% correctly rounded vs exact GELU'", "%s", k[1].why);
    cr_expect_str_eq(k[2].why, "90.0000% correctly rounded vs exact GELU", "%s", k[2].why);

    results_error almost = {.present = true, .cr_fraction = 1, .correctly_rounded = 4294967295,
                            .inputs = 4294967296};
    cr_expect_not(results_all_correctly_rounded(&almost), "one input of 2^32 is not");
    almost.correctly_rounded = 4294967296;
    cr_expect(results_all_correctly_rounded(&almost));
}

/* The report's list of common needs: each can be met by something (not a contradiction). */
Test(report, common_needs_are_well_formed)
{
    cr_assert_geq(pick_need_count(), 4);
    cr_expect_null(pick_need_at(pick_need_count()));
    for (size_t i = 0; i < pick_need_count(); i++) {
        const pick_need *n = pick_need_at(i);
        cr_expect(n->title[0] && n->asks[0]);
        cr_expect_str_eq(n->c.size, "l2", "ranked where both benchmarks measure");
    }
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
                 -2); /* content, not I/O */
    cr_expect(strstr(err, "no column 'reference'") != NULL, "%s", err);
    free(bad);
}

/* A 16-bit format's results (tests/fixtures/pick16): bench rows of another format are skipped
 * (bench.csv without a format column is binary32's: an older file), so a bfloat16 pick has no
 * speed there and ranks by accuracy; bench_bfloat16.csv's rows are read. */
Test(report, results_of_a_16_bit_format_take_only_that_formats_speed)
{
    results_set *s = malloc(sizeof *s);
    char err[256];
    cr_assert_eq(results_load_format(s, GELUCHECK_FIXTURES "/pick16/accuracy_bfloat16.csv",
                                     GELUCHECK_FIXTURES "/pick16/bench.csv", GELU_FORMAT_BFLOAT16,
                                     false, err, sizeof err), 0, "%s", err);
    cr_expect_eq(s->nsizes, 0);
    cr_expect_null(results_speed_at(results_find(s, "cr"), "l2")); /* binary32's 0.1 ns, skipped */
    pick_constraints c = pick_no_constraints(NULL);
    c.monotone = true;
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    /* pw_fast (3 monotonicity violations) is out; at the same max ULP, the larger fraction
     * correctly rounded first (cr_bfloat16 before cr), then by name (erfc_libm after it) */
    cr_expect_eq(pick_rank(s, PICK_GENERIC, &c, k, &n), 3);
    cr_expect_str_eq(k[0].row->name, "cr_bfloat16");
    cr_expect_str_eq(k[1].row->name, "erfc_libm");
    cr_expect_str_eq(k[2].row->name, "cr");
    c.contract_kept = true; /* erfc_libm's contract: fail */
    cr_expect_eq(pick_rank(s, PICK_GENERIC, &c, k, &n), 2);
    cr_assert_eq(results_load_format(s, GELUCHECK_FIXTURES "/pick16/accuracy_bfloat16.csv",
                                     GELUCHECK_FIXTURES "/pick16/bench_bfloat16.csv",
                                     GELU_FORMAT_BFLOAT16, false, err, sizeof err), 0, "%s", err);
    cr_expect_eq(results_speed_at(results_find(s, "cr"), "l2")->ns, 3.0);
    cr_expect_str_eq(s->baseline, "relu");
    /* the 16-bit rows are refused where binary32's are read, naming the line and the format */
    cr_expect_eq(results_load(s, GELUCHECK_FIXTURES "/pick16/accuracy_bfloat16.csv", NULL, err,
                              sizeof err), -2);
    cr_expect(strstr(err, "accuracy_bfloat16.csv:2: column 'format': a bfloat16 row") != NULL, "%s", err);
    free(s);
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
                     NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
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
    cr_expect_not_null(strstr(buf, "<td class=\"l\" data-v=\"tie_c\"><b>tie_c</b>"),
                       "a row per implementation");
    cr_expect_not_null(strstr(buf, "<h2 id=\"moons\">"));
    cr_expect_not_null(strstr(buf, "make_moons experiment was not run"));
    free(buf);
}

/* The answer section comes first and says, per common need, pick's choice on these results
 * (the fixture: tie_c is the fastest ≤ 1 ULP monotone exact GELU, fast_v4 being 1.5 ULP, and
 * tie_a the runner-up; tanhy, 2 ULP of its formula, meets the tanh need), and the broken
 * contracts in red. */
Test(report, page_answers_first_with_picks_choices_and_broken_contracts)
{
    report_meta meta = {"cpu", "avx2", "gcc", "-O2", "today", "abc", "report", "scan", "bench"};
    const char *broken[] = {"tie_b forward: max ULP error 9 > claimed 1"};
    html_report h = {load_fixture(), &meta, {NULL}, NULL, broken, 1, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(html_report_write(f, &h), 0);
    fclose(f);
    char *answer = strstr(buf, "<section id=\"answer\">"), *end = strstr(buf, "</section>");
    cr_assert(answer && end && answer < end);
    cr_expect(answer < strstr(buf, "id=\"summary\""), "the answer precedes the table");
    *end = '\0';
    cr_expect_not_null(strstr(answer, "Exact GELU, ≤ 1 ULP, monotone</b></td><td class=\"l\">"
                                      "<b>tie_c</b>"), "%s", answer);
    cr_expect_not_null(strstr(answer, "<b>tie_a</b><small>2 ns/elem"), "the runner-up: %s", answer);
    if (cpu_features() & CPU_FEATURE_AVX2) /* tanhy needs AVX2 + FMA */
        cr_expect_not_null(strstr(answer, "The tanh form, ≤ 2 ULP of its formula, monotone</b>"
                                          "</td><td class=\"l\"><b>tanhy</b>"), "%s", answer);
    cr_expect_not_null(
        strstr(answer, "<p class=\"broken\">1 declared contract broken: <code>tie_b</code>"));
    free(buf);
}

/* With --baseline: the verdict in the answer, the changes (regressions first) in their section;
 * a baseline that could not be compared is said so, with why. */
Test(report, page_shows_the_changes_since_a_baseline)
{
    report_meta meta = {"cpu", "avx2", "gcc", "-O2", "today", "abc", "report", "scan", "bench"};
    compare_sets *cs = calloc(1, sizeof *cs);
    cr_assert_not_null(cs);
    cs->sets[0] = *load_fixture();
    cs->sets[1] = cs->sets[0];
    results_row *tie_c = (results_row *)results_find(&cs->sets[1], "tie_c");
    tie_c->own[0].max_ulp = 1.5; /* worse, and its contract now fails */
    snprintf(tie_c->contract, sizeof tie_c->contract, "fail");
    ((results_row *)results_find(&cs->sets[1], "tanhy"))->own[0].max_ulp = 1; /* better */
    cs->same_cpu = true;
    char err[256];
    cr_assert_eq(compare_results(&cs->sets[0], &cs->sets[1], true, &cs->result, err, sizeof err),
                 0);
    cr_expect_eq(cs->result.regressions, 2, "max ULP worse and the contract broken");
    html_report h = {&cs->sets[1], &meta, {NULL}, NULL, NULL, 0, NULL, cs, "old/run", NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(html_report_write(f, &h), 0);
    fclose(f);
    cr_expect_not_null(strstr(buf, "<p class=\"broken\">Against the baseline <code>old/run</code>: "
                                   "2 regressions"), "%s", buf);
    const char *changes = strstr(buf, "<h2 id=\"changes\">");
    cr_assert_not_null(changes);
    const char *worse = strstr(changes, "<td class=\"l c\">worse</td><td class=\"l\">tie_c</td>"),
               *better = strstr(changes, "<td class=\"l c\">better</td><td class=\"l\">tanhy</td>");
    cr_expect(worse && better && worse < better, "regressions first");
    cr_expect_not_null(strstr(changes, "<td class=\"l c\">broken</td><td class=\"l\">tie_c</td>"));
    free(buf);

    html_report refused = {&cs->sets[1], &meta, {NULL}, NULL, NULL, 0, NULL,
                           NULL, "old/run", "not the same domain", NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    f = open_memstream(&buf, &size);
    cr_assert_eq(html_report_write(f, &refused), 0);
    fclose(f);
    cr_expect_not_null(strstr(buf, "Not compared with the baseline <code>old/run</code>: not the "
                                   "same domain"));
    cr_expect_null(strstr(buf, "id=\"changes\""));
    free(buf);
    free(cs);
}

/* The page of a tiny make_moons run (silu, with the reference and ReLU that always run). */
static char *page_with_moons(moons_experiment *e, moons_summary *sum)
{
    report_meta meta = {"cpu", "avx2", "gcc", "-O2", "today", "abc", "report", "scan", "bench"};
    html_moons moons = {e, sum, "A tiny run"};
    html_report h = {load_fixture(), &meta, {NULL}, NULL, NULL, 0, &moons, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
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
    cr_assert_eq(moons_experiment_run(&e, 1, NULL, NULL), MOONS_OK);
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
    for (const char *p = buf; (p = strstr(p, "<table")); p++) open++;
    for (const char *p = buf; (p = strstr(p, "</table>")); p++) close++;
    cr_expect_eq(open, close);
    cr_expect_eq(open, 5, "the answer, the summary and the three make_moons tables");
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

/* Every column the HTML summary shows as written has a slot in results_row.text. */
Test(report, columns_shown_as_written_have_a_slot)
{
    int shown = 0;
    for (size_t k = 0; k < accuracy_column_count(); k++) {
        const accuracy_column *c = accuracy_column_at(k);
        if (c->html != html_as_written) continue;
        cr_expect_eq(accuracy_column_text_slot(c), shown, "%s", c->name);
        cr_expect_lt(accuracy_column_text_slot(c), RESULTS_TEXT_COLUMNS,
                     "%s: raise RESULTS_TEXT_COLUMNS", c->name);
        shown++;
    }
    cr_expect_gt(shown, 0);
}

/* A results set of two rows: `name`, measured on path `isa` and the faster (1 ns against 2), and
 * "plain", a portable row; both with the same accuracy. */
static results_row *dispatch_pair(results_set *s, const char *name, const char *isa)
{
    s->n = 0;
    results_row *r = gelu_row(s, name, 1, 3);
    gelu_row(s, "plain", 2, 3);
    snprintf(r->dispatched_isa, sizeof r->dispatched_isa, "%s", isa);
    return r;
}

/* A peer that dispatches at run time is judged for a platform only by figures measured on the
 * path that platform's CPUs take: oneDNN measured on avx512_core is not x86-64-v3's answer (the
 * message names the cap to measure under), measured on avx2 it is, and no path is generic's. */
Test(report, pick_judges_a_dispatching_peer_by_the_path_measured)
{
    static results_set s;
    results_row *d = dispatch_pair(&s, "dnnl_like", "avx512_core");
    pick_constraints c = pick_no_constraints("l2");
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V3, &c, k, &n), 1);
    cr_expect_str_eq(k[0].row->name, "plain");
    cr_expect_str_eq(k[1].why, "measured on its avx512_core path, not x86-64-v3's avx2: measure it "
                               "under DNNL_MAX_CPU_ISA=AVX2", "%s", k[1].why);
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V4, &c, k, &n), 2);
    cr_expect_str_eq(k[0].row->name, "dnnl_like", "the faster, on its own path");
    snprintf(d->dispatched_isa, sizeof d->dispatched_isa, "avx512_core_amx"); /* the same kernels */
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V4, &c, k, &n), 2);
    snprintf(d->dispatched_isa, sizeof d->dispatched_isa, "avx2");
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V3, &c, k, &n), 2);
    cr_expect_str_eq(k[0].row->name, "dnnl_like");
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V4, &c, k, &n), 1);
    cr_expect_eq(pick_rank(&s, PICK_GENERIC, &c, k, &n), 1);
    cr_expect_str_eq(k[1].why, "measured on its avx2 path; which path generic CPUs take is unknown: "
                               "cannot judge it", "%s", k[1].why);
}

/* PyTorch's tanh form (dispatched_isa: ATen's CPU capability) is judged by ATen's paths:
 * measured on avx512 it is not x86-64-v3's answer (the message names ATen's cap, not oneDNN's);
 * measured on default it is generic's and x86-64-v2's, not v3's. Its exact form runs the oneDNN
 * bundled with torch: judged by oneDNN's paths, with oneDNN 3's cap. */
Test(report, pick_judges_torch_by_its_cpu_capability)
{
    static results_set s;
    results_row *t = dispatch_pair(&s, "torch_gelu_tanh", "avx512");
    pick_constraints c = pick_no_constraints("l2");
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V3, &c, k, &n), 1);
    cr_expect_str_eq(k[1].why, "measured on its avx512 path, not x86-64-v3's avx2: measure it "
                               "under ATEN_CPU_CAPABILITY=avx2", "%s", k[1].why);
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V4, &c, k, &n), 2);
    snprintf(t->dispatched_isa, sizeof t->dispatched_isa, "default");
    cr_expect_eq(pick_rank(&s, PICK_GENERIC, &c, k, &n), 2);
    cr_expect_str_eq(k[0].row->name, "torch_gelu_tanh");
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V2, &c, k, &n), 2);
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V3, &c, k, &n), 1);
    cr_expect_str_eq(k[1].why, "measured on its default path, not x86-64-v3's avx2: measure it "
                               "under ATEN_CPU_CAPABILITY=avx2", "%s", k[1].why);
    dispatch_pair(&s, "torch_gelu", "avx512_core_bf16");
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V3, &c, k, &n), 1);
    cr_expect_str_eq(k[1].why, "measured on its avx512_core_bf16 path, not x86-64-v3's avx2: "
                               "measure it under ONEDNN_MAX_CPU_ISA=AVX2", "%s", k[1].why);
    cr_expect_eq(pick_rank(&s, PICK_GENERIC, &c, k, &n), 1);
}

/* The fixture's accuracy.csv with a dispatched_isa column: `isa` on every row, except `other` on
 * the second row of tie_c (NULL: the same); into path. */
static void fixture_with_isa(const char *path, const char *isa, const char *other)
{
    FILE *in = fopen(GELUCHECK_FIXTURES "/pick/accuracy.csv", "r"), *out = fopen(path, "w");
    cr_assert(in && out);
    char line[4096];
    int tie_c = 0;
    for (int k = 0; fgets(line, sizeof line, in); k++) {
        line[strcspn(line, "\n")] = '\0';
        bool second = strncmp(line, "tie_c,", 6) == 0 && ++tie_c == 2;
        fprintf(out, "%s,%s\n", line, k == 0 ? "dispatched_isa" : second && other ? other : isa);
    }
    fclose(in);
    fclose(out);
}

/* dispatched_isa is read back per implementation; a name that is not a word, or two rows of one
 * implementation that disagree, are refused naming the column. */
Test(report, dispatched_isa_is_read_back_and_checked)
{
    char path[] = "/tmp/gelucheck-isa-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    results_set *s = malloc(sizeof *s);
    char err[512] = "";
    fixture_with_isa(path, "avx2", NULL);
    cr_assert_eq(results_load(s, path, NULL, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(results_find(s, "tie_c")->dispatched_isa, "avx2");
    fixture_with_isa(path, "avx2", "sse41");
    cr_expect_eq(results_load(s, path, NULL, err, sizeof err), -2);
    cr_expect(strstr(err, "column 'dispatched_isa': 'sse41', but an earlier row of tie_c says 'avx2'"),
              "%s", err);
    fixture_with_isa(path, "avx2", "avx 2");
    cr_expect_eq(results_load(s, path, NULL, err, sizeof err), -2);
    cr_expect(strstr(err, "column 'dispatched_isa': 'avx 2' is not an ISA name"), "%s", err);
    free(s);
    unlink(path);
}

/* JAX's rows (dispatched_isa: the ISA XLA compiled for) are judged by XLA's paths: measured on
 * xla_avx512 they are x86-64-v4's answer, not v3's (the message names XLA's cap); measured on
 * xla_avx (no FMA, the same outputs as xla_sse4_2) they are v2's. */
Test(report, pick_judges_jax_by_its_xla_isa)
{
    static results_set s;
    results_row *j = dispatch_pair(&s, "jax_gelu", "xla_avx512");
    pick_constraints c = pick_no_constraints("l2");
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V4, &c, k, &n), 2);
    cr_expect_str_eq(k[0].row->name, "jax_gelu");
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V3, &c, k, &n), 1);
    cr_expect_str_eq(k[1].why, "measured on its xla_avx512 path, not x86-64-v3's xla_avx2: "
                               "measure it under XLA_FLAGS=--xla_cpu_max_isa=AVX2", "%s", k[1].why);
    snprintf(j->dispatched_isa, sizeof j->dispatched_isa, "xla_avx");
    cr_expect_eq(pick_rank(&s, PICK_X86_64_V2, &c, k, &n), 2);
    cr_expect_str_eq(k[0].row->name, "jax_gelu");
    cr_expect_eq(pick_rank(&s, PICK_GENERIC, &c, k, &n), 1);
}
