/* The report page's sections of the other formats: a section per 16-bit format with its table
 * and plots, binary64's saying its accuracy is sampled, and the ftz,daz section finding a
 * planted wrong flush; each from a scan read back as the report reads its files. */
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


/* The 16-bit formats' sections: a table per format from its results read back from the files
 * (accuracy_F.csv, bench_F.csv), each implementation with how it runs, its inputs not correctly
 * rounded, its speed and its contract's verdict, then its plots — a widened row planted with a
 * wrong output at x = 1 has 1 input more than the widened cr not correctly rounded; without
 * results, the note says why. */
static void plant_one(const float *x, float *y, size_t n)
{
    gelu_impl_find("cr")->forward(x, y, n);
    for (size_t i = 0; i < n; i++) /* GELU(1) = 0.8413: 0.8497, 2 bfloat16 ULPs (2^-8) higher */
        if (x[i] == 1.0f) y[i] *= 1.01f;
}

/* The scan of impls in bfloat16 written as accuracy_bfloat16.csv and read back, with bench. */
static results_set *scanned16(const gelu_impl *const *impls, size_t n, const char *bench)
{
    scan_small_config cfg = {.format = GELU_FORMAT_BFLOAT16, .impls = impls, .nimpls = n,
                             .grad = true, .threads = 2};
    scan_result *r = calloc(1, sizeof *r);
    const char *err = NULL;
    cr_assert(r && scan_small_run(&cfg, r, &err) == 0, "%s", err ? err : "");
    char path[] = "/tmp/gelucheck_acc16_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    accuracy_csv_write(r, f);
    fclose(f);
    scan_result_free(r);
    results_set *s = malloc(sizeof *s);
    char msg[512];
    cr_assert_eq(results_load_format(s, path, bench, GELU_FORMAT_BFLOAT16, false, msg, sizeof msg), 0,
                 "%s", msg);
    unlink(path);
    return s;
}

static char *page_of(const html_report *h)
{
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(html_report_write(f, h), 0);
    fclose(f);
    return buf;
}

Test(report, page_has_a_section_per_16_bit_format)
{
    gelu_impl planted32 = *gelu_impl_find("cr");
    planted32.name = "planted";
    planted32.forward = plant_one;
    gelu_impl planted = gelu_impl_widened(&planted32, GELU_FORMAT_BFLOAT16);
    gelu_impl widened = gelu_impl_widened(gelu_impl_find("cr"), GELU_FORMAT_BFLOAT16);
    const gelu_impl *impls[] = {&widened, gelu_impl_find_in("cr_bfloat16", GELU_FORMAT_BFLOAT16), &planted};
    results_set *s = scanned16(impls, 3, GELUCHECK_FIXTURES "/pick16/bench_bfloat16.csv");
    report_meta meta = {"cpu", "avx2", "gcc", "-O2", "today", "abc", "report", "scan", "bench"};
    html_format sec = {s, {NULL}, NULL};
    sec.svg[PLOT_NOT_CR] = "<svg id=\"planted-not-cr\"></svg>";
    sec.svg[PLOT_PARETO] = "<svg id=\"planted-pareto\"></svg>";
    html_report h = {load_fixture(), &meta, {NULL}, NULL, NULL, 0, NULL, NULL, NULL, NULL, &sec, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    char *buf = page_of(&h);
    char *p, *sec_start = strstr(buf, "<h3 id=\"bfloat16\">bfloat16</h3>");
    cr_assert_not_null(sec_start, "%s", buf);
    cr_expect_not_null(strstr(sec_start, "<div class=\"scroll\" id=\"summary-bfloat16\">"));
    cr_expect_not_null(strstr(sec_start, "<th data-sort=\"num\">not correctly rounded<small>forward, own target</small></th>"));
    /* the widened cr: 128 forward inputs (the odd subnormals, docs/formats.md "16-bit formats"),
     * 100 * 128 / 65536 = 0.1953125 %; 3 ns/element and 6 x ReLU at l2 in the planted bench file,
     * its one size (the last size's cells: dashes) */
    p = strstr(sec_start, "<b>cr</b>");
    cr_assert_not_null(p);
    cr_expect_not_null(strstr(p, "exact &#183; portable &#183; widened</small></td><td data-v=\"0.1953125\">128<small>0.195%</small></td>"),
                       "%.600s", p);
    cr_expect_not_null(strstr(p, "<td data-v=\"3\">3</td><td data-v=\"6\">6</td><td>&#8211;</td><td>&#8211;</td></tr>"), "%.1500s", p);
    p = strstr(sec_start, "<b>cr_bfloat16</b>");
    cr_assert_not_null(p);
    cr_expect_not_null(strstr(p, "native</small></td><td data-v=\"0\">0<small>0%</small></td>"), "%.300s", p);
    cr_expect_not_null(strstr(p, "<td data-v=\"50\">50</td><td data-v=\"100\">100</td><td>&#8211;</td><td>&#8211;</td></tr>"), "%.1500s", p);
    p = strstr(sec_start, "<b>planted</b>");
    cr_assert_not_null(p);
    /* its forward cell: cr's 128 and x = 1, 100 * 129/65536 = 0.19683837890625 %; not benchmarked */
    cr_expect_not_null(strstr(p, "widened</small></td><td data-v=\"0.19683837890625\">129<small>0.197%</small></td>"), "%.300s", p);
    cr_expect_not_null(strstr(p, "</td><td>&#8211;</td><td>&#8211;</td></tr>"), "%.1500s", p);
    /* the plots drawn, in the plot list's order, with the format's captions; ulp_by_x not drawn */
    p = strstr(sec_start, "<figure id=\"bfloat16_pareto\">");
    cr_assert_not_null(p);
    cr_expect_not_null(strstr(p, "<svg id=\"planted-pareto\"></svg>"));
    cr_expect_not_null(strstr(p, "<figure id=\"bfloat16_not_cr\">\n<h4>Inputs not correctly rounded</h4>\n<svg id=\"planted-not-cr\"></svg>"));
    cr_expect_not_null(strstr(p, "(<code>bfloat16_not_cr.svg</code>, drawn by <code>bfloat16_not_cr.gp</code>)"));
    cr_expect_null(strstr(buf, "bfloat16_ulp_by_x.svg"));
    /* the answer names the correctly rounded one, not the widened cr (128 inputs) */
    cr_expect_not_null(strstr(buf, "<p>Correctly rounded, exact GELU, every input, forward and derivative: "
                                   "<a href=\"#bfloat16\">bfloat16</a> <code>cr_bfloat16</code>.</p>"),
                       "%.2000s", buf);
    free(buf);
    free(s);
    /* without cr_bfloat16: none, and the closest is cr (128 inputs; the planted row 129) */
    impls[1] = &planted;
    s = scanned16(impls, 2, NULL);
    sec.results = s;
    buf = page_of(&h);
    cr_expect_not_null(strstr(buf, "<a href=\"#bfloat16\">bfloat16</a> none (closest: <code>cr</code>, "
                                   "128 forward inputs missed).</p>"), "%.2000s", buf);
    cr_expect_not_null(strstr(buf, "Not benchmarked. <code>gelucheck bench --format bfloat16</code>"));
    free(buf);
    free(s);
    html_report none = {load_fixture(), &meta, {NULL}, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    none.formats_note = "Not run in --quick";
    buf = page_of(&none);
    cr_expect_not_null(strstr(buf, "every bfloat16 and binary16 input</h2>\n<p>Not run in --quick</p>"));
    cr_expect_not_null(strstr(buf, "<p>16-bit formats: Not run in --quick</p>"));
    free(buf);
}

/* binary64's section: a sampled scan's accuracy_binary64.csv read back (its empty columns
 * accepted, its rows known to this build's binary64 list) with the benchmark's
 * bench_binary64.csv (tests/fixtures/pick: relu the baseline, l1 and l2 at binary64's counts),
 * the section saying first that it is sampled and how many inputs, then the 16-bit sections'
 * table with the speed at the first and last size, against binary64's own ReLU, and the plots
 * drawn for it (Pareto, ULP by x) with captions that say "sampled"; without results, "Not run". */
Test(report, page_has_a_binary64_section_that_says_it_is_sampled)
{
    const gelu_impl *impls[] = {gelu_impl_find_in("erfc_libm", GELU_FORMAT_BINARY64),
                                gelu_impl_find_in("sigmoid", GELU_FORMAT_BINARY64)};
    scan_f64_config cfg = {.impls = impls, .nimpls = 2, .grad = true, .n = 300, .seed = 1,
                           .threads = 2};
    scan_result *r = calloc(1, sizeof *r);
    const char *err = NULL;
    cr_assert(r && scan_f64_run(&cfg, r, &err) == 0, "%s", err ? err : "");
    char path[] = "/tmp/gelucheck_acc64_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    accuracy_csv_write(r, f);
    fclose(f);
    results_set *s = malloc(sizeof *s);
    char msg[512], sampled[64];
    cr_assert_eq(results_load_format(s, path, GELUCHECK_FIXTURES "/pick/bench_binary64.csv",
                                     GELU_FORMAT_BINARY64, true, msg, sizeof msg), 0, "%s", msg);
    unlink(path);
    snprintf(sampled, sizeof sampled, "%llu inputs", (unsigned long long)r->inputs);
    scan_result_free(r);
    cr_expect_eq(s->nsizes, 2);
    cr_expect_str_eq(s->baseline, "relu");
    report_meta meta = {"cpu", "avx2", "gcc", "-O2", "today", "abc", "report", "scan", "bench"};
    html_format sec = {s, {NULL}, NULL};
    sec.svg[PLOT_PARETO] = "<svg id=\"planted-pareto64\"></svg>";
    sec.svg[PLOT_ULP_BY_X] = "<svg id=\"planted-byx64\"></svg>";
    sec.svg[PLOT_NOT_CR] = "<svg id=\"planted-notcr64\"></svg>"; /* not drawn for binary64 */
    html_report h = {load_fixture(), &meta, {NULL}, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, 0,
                     NULL, &sec, sampled, NULL, NULL, NULL, NULL, NULL};
    char *buf = page_of(&h), *sec64 = strstr(buf, "<h2 id=\"binary64\">binary64: a sample</h2>");
    cr_assert_not_null(sec64, "%.300s", buf);
    char want[128];
    snprintf(want, sizeof want, "<p><b>Sampled, not exhaustive: %s</b>.", sampled);
    cr_expect_eq(strncmp(strchr(sec64, '\n') + 1, want, strlen(want)), 0, "%.300s", sec64);
    cr_expect_not_null(strstr(sec64, "<div class=\"scroll\" id=\"summary-binary64\">"));
    cr_expect_not_null(strstr(sec64, "<th data-sort=\"num\">ns/elem<small>l1</small></th>"
                                     "<th data-sort=\"num\">&#215;ReLU<small>l1</small></th>"
                                     "<th data-sort=\"num\">ns/elem<small>l2</small></th>"), "%.3000s", sec64);
    char *p = strstr(sec64, "<b>erfc_libm</b>");
    cr_assert_not_null(p, "%.2000s", sec64);
    cr_expect_not_null(strstr(p, "exact &#183; portable</small></td>"), "%.300s", p); /* not widened */
    /* the fixture's speeds: 7 ns, 14 x ReLU at l1; 7.5 ns, 12.5 x at l2 */
    cr_expect_not_null(strstr(p, "<td data-v=\"7\">7</td><td data-v=\"14\">14</td>"
                                 "<td data-v=\"7.5\">7.5</td><td data-v=\"12.5\">12.5</td></tr>"), "%.2000s", p);
    p = strstr(sec64, "<b>sigmoid</b>");
    cr_assert_not_null(p);
    cr_expect_not_null(strstr(p, "<td data-v=\"6\">6</td><td data-v=\"12\">12</td>"
                                 "<td data-v=\"6.5\">6.5</td><td data-v=\"10.5\">10.5</td></tr>"), "%.2000s", p);
    cr_expect_not_null(strstr(sec64, "&#215;ReLU: against <code>relu</code>, binary64's own ReLU, in "
                                     "the same rounds: <code>gelucheck bench --format binary64</code>, 8 "
                                     "bytes read and 8 written per element."), "%.3000s", sec64);
    cr_expect_not_null(strstr(sec64, "<code>bench_binary64.csv</code>, <code>ulp_by_x_binary64.csv</code>"));
    p = strstr(sec64, "<figure id=\"binary64_pareto\">\n<h4>What accuracy costs</h4>\n<svg id=\"planted-pareto64\"></svg>");
    cr_assert_not_null(p, "%.3000s", sec64);
    cr_expect_not_null(strstr(p, "over the SAMPLE (sampled: a bigger sample can only raise a point"));
    p = strstr(p, "<figure id=\"binary64_ulp_by_x\">\n<h4>ULP error against x</h4>\n<svg id=\"planted-byx64\"></svg>");
    cr_assert_not_null(p, "%.3000s", sec64);
    cr_expect_not_null(strstr(p, "over the SAMPLE's inputs"));
    cr_expect_null(strstr(buf, "planted-notcr64"));
    free(buf);
    h.f64 = NULL;
    buf = page_of(&h);
    cr_expect_not_null(strstr(buf, "<h2 id=\"binary64\">binary64: a sample</h2>\n<p>Not run.</p>"));
    free(buf);
    free(s);
}

/* ---- the ftz,daz section */

/* cr, but under FTZ at one input of the negative tail, where the correctly rounded GELU is a
 * negative subnormal and FTZ expects −0, it "flushes" to −2^-126 instead: 2^23 ULP there. */
static float ftz_planted_x;

static void cr_forward_flushing_wrongly(const float *x, float *y, size_t n)
{
    gelu_impl_find("cr")->forward(x, y, n);
    if (gelu_fpenv_current() & GELU_FPENV_FTZ)
        for (size_t i = 0; i < n; i++)
            if (float_bits(x[i]) == float_bits(ftz_planted_x)) y[i] = -0x1p-126f;
}

/* A scan of impls over domain d in environment e, its accuracy CSV read back (not known_only:
 * the planted row is not the registry's). */
static results_set *scan_read_back(const gelu_impl **impls, size_t n, scan_domain d, gelu_fpenv e)
{
    scan_config cfg = {.impls = impls, .nimpls = n, .domain = d, .threads = 2, .shard_n = 1,
                       .fpenv = e};
    scan_result *r = calloc(1, sizeof *r);
    const char *err = NULL;
    cr_assert(r && scan_run(&cfg, r, &err) == 0, "%s", err ? err : "");
    char path[] = "/tmp/gelucheck_ftz_XXXXXX", msg[512];
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    accuracy_csv_write(r, f);
    fclose(f);
    results_set *s = malloc(sizeof *s);
    cr_assert_eq(results_load_format(s, path, NULL, GELU_FORMAT_BINARY32, false, msg, sizeof msg),
                 0, "%s", msg);
    unlink(path);
    scan_result_free(r);
    return s;
}

/* The section reads accuracy_ftz_daz.csv back: it says what it covered and what was left out,
 * has a row per implementation, and the planted wrong flush shows at its input, in the table
 * and in what differs from IEEE's table (IEEE's scan of the same kernels, where it is cr). */
Test(report, page_has_an_ftz_daz_section_that_finds_a_wrong_flush, .timeout = 240)
{
    if (!gelu_fpenv_supported(GELU_FPENV_FTZ_DAZ)) {
        cr_log_info("no MXCSR (not x86-64): the ftz,daz section is not tested");
        cr_skip_test();
    }
    fpenv_cover_config c = fpenv_cover_default(1);
    uint32_t *list;
    uint64_t n;
    cr_assert_eq(fpenv_cover_build(&c, &list, &n), 0);
    /* the quick list's input nearest below −13.5 (GELU ≈ −1.6·10^-41 there: subnormal) */
    for (uint64_t i = 0; i < n; i++)
        if (list[i] >= float_bits(-13.5f) && list[i] < 0xff800000u) {
            ftz_planted_x = float_from_bits(list[i]);
            break;
        }
    cr_assert(ftz_planted_x < -13.5f && ftz_planted_x > -13.6f, "%a", (double)ftz_planted_x);
    gelu_impl planted = *gelu_impl_find("cr");
    planted.name = "cr_flushing_wrongly";
    planted.forward = cr_forward_flushing_wrongly;
    const gelu_impl *impls[] = {&planted, gelu_impl_find("cr")};
    results_set *flagged = scan_read_back(impls, 2, (scan_domain){.kind = DOMAIN_LIST, .list = list, .n = n},
                                          GELU_FPENV_FTZ_DAZ);
    results_set *ieee = scan_read_back(impls, 2,
                                       (scan_domain){.kind = DOMAIN_RANGE, .lo = -13.6f, .hi = -13.5f},
                                       GELU_FPENV_IEEE);
    free(list);
    report_meta meta = {"cpu", "avx2", "gcc", "-O2", "today", "abc", "report", "scan", "bench"};
    html_report h = {ieee, &meta, {NULL}, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, 0, NULL,
                     NULL, NULL, flagged, "COVERED-TEXT", "", NULL, NULL};
    char *buf = page_of(&h), *sec = strstr(buf, "<h2 id=\"ftz_daz\">ftz,daz (FTZ+DAZ)</h2>\n");
    cr_assert_not_null(sec, "%.300s", buf);
    cr_expect_not_null(strstr(sec, "<b>Covered: COVERED-TEXT</b>"));
    cr_expect_not_null(strstr(sec, "none was in this run"), "exec children named as left out");
    cr_expect_not_null(strstr(sec, "they are not judged here"));
    char *table = strstr(sec, "id=\"summary-ftz_daz\""), *row = strstr(sec, "<b>cr_flushing_wrongly</b>");
    cr_assert(table && row, "%.3000s", sec);
    char x[64];
    snprintf(x, sizeof x, "%a", (double)ftz_planted_x);
    char *end = strstr(row, "</tr>");
    cr_assert_not_null(end);
    *end = '\0';
    cr_expect_not_null(strstr(row, x), "the row names the input %s: %.2000s", x, row);
    cr_expect_not_null(strstr(row, "8.39e+06") ? row : strstr(row, "8.389e+06"), "2^23 ULP: %.2000s", row);
    *end = '<';
    char *diff = strstr(sec, "<h3>What differs from IEEE's table</h3>");
    cr_assert_not_null(diff);
    char want[160];
    snprintf(want, sizeof want, "<li><b>cr_flushing_wrongly</b>: forward max ULP 0.5 &#8594; 8.39e+06 at x = %s", x);
    cr_expect_not_null(strstr(diff, want), "want %s in %.1000s", want, diff);
    cr_expect_null(strstr(diff, "<b>cr</b>"), "cr, correct under the flags, is not listed: %.1000s", diff);
    free(buf);
    h.ftz_daz_left_out = "torch_gelu, tf_gelu";
    buf = page_of(&h);
    cr_expect_not_null(strstr(buf, "Left out, as exec children: torch_gelu, tf_gelu ("));
    free(buf);
    h.ftz_daz = NULL;
    buf = page_of(&h);
    cr_expect_not_null(strstr(buf, "<h2 id=\"ftz_daz\">ftz,daz (FTZ+DAZ)</h2>\n<p>Not run.</p>"));
    free(buf);
    free(flagged);
    free(ieee);
}
