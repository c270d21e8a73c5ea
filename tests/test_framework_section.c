/* The framework rows' paths in the report and in pick (reports/framework_section.h, pick.h):
 * the section's table per framework, its rows with their paths under them, verdicts and the
 * outputs that differ from the batch path; pick judging a row by its worst path. Rows made by
 * hand (report_fixture.h); a path's defect planted in its figures. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework_section.h"
#include "pick.h"
#include "report_fixture.h"

static char *section_of(const results_set *s, const framework_paths_out *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    framework_section_html(f, s, p);
    fclose(f);
    return buf;
}

/* One section of the paths' scans: format, rows and paths s, torch_gelu@size1 differing from
 * torch_gelu at `differ` forward outputs of `inputs`. */
static void section_with(framework_paths_out *p, gelu_format_id format, results_set *s,
                         long differ, uint64_t inputs, const char *covered)
{
    framework_paths_section *sec = &p->s[p->n++];
    sec->format = format;
    sec->results = s;
    sec->diffs = (framework_diffs){.n = 1, .inputs = inputs};
    snprintf(sec->diffs.d[0].path, sizeof sec->diffs.d[0].path, "torch_gelu@size1");
    snprintf(sec->diffs.d[0].row, sizeof sec->diffs.d[0].row, "torch_gelu");
    sec->diffs.d[0].differ[0] = differ;
    sec->diffs.d[0].differ[1] = -1;
    snprintf(sec->covered, sizeof sec->covered, "%s", covered);
}

/* torch_gelu and its path size1 (contract broken there), and a row of no framework. */
static results_set *paths_set(void)
{
    static results_set s;
    memset(&s, 0, sizeof s);
    snprintf(gelu_row(&s, "torch_gelu", 2, 0.6)->contract, 8, "pass");
    snprintf(gelu_row(&s, "torch_gelu@size1", 9, 3)->contract, 8, "fail");
    snprintf(gelu_row(&s, "erfc_f64", 1, 0.5)->contract, 8, "pass");
    return &s;
}

Test(framework_section, a_table_per_framework_with_the_paths_and_their_differences)
{
    static framework_paths_out p;
    static results_set s16;
    memset(&p, 0, sizeof p);
    section_with(&p, GELU_FORMAT_BINARY32, paths_set(), 59, 65536, "THE SAMPLE");
    s16 = *paths_set();
    s16.format = GELU_FORMAT_BFLOAT16;
    section_with(&p, GELU_FORMAT_BFLOAT16, &s16, 1234, 65536, "all 65536 bfloat16 encodings");
    char *html = section_of(NULL, &p);
    cr_expect_not_null(strstr(html, "<h3>binary32</h3>\n<p>Rows and paths over THE SAMPLE;"), "%s", html);
    cr_expect_not_null(strstr(html, "<h3>PyTorch</h3>"), "%s", html);
    cr_expect_not_null(strstr(html, "<h3>bfloat16</h3>\n<p>Rows and paths over all 65536 bfloat16 "
                                    "encodings; &#8800; batch path: the outputs whose encoding differs "
                                    "from the row's, at every one of these 65536 inputs.</p>"), "%s", html);
    cr_expect_not_null(strstr(html, "<h3>PyTorch (bfloat16)</h3>"), "%s", html);
    cr_expect_not_null(strstr(html, "<td class=\"broken\">1234 <small>of 65536</small></td>"), "%s", html);
    cr_expect_not_null(strstr(html, "<tr><td class=\"l\"><code>torch_gelu</code></td><td>pass</td>"), "%s", html);
    cr_expect_not_null(strstr(html, "&#160;&#160;<code>torch_gelu@size1</code></td><td class=\"broken\">fail</td>"),
                       "%s", html);
    cr_expect_not_null(strstr(html, "<td class=\"broken\">59 <small>of 65536</small></td><td>n/a</td>"), "%s", html);
    cr_expect_not_null(strstr(html, "<td>batch path</td>"), "%s", html);
    cr_expect_null(strstr(html, "erfc_f64"), "a row of no framework in the section: %s", html);
    free(html);
}

/* Consecutive paths of a row with the same figures share a line (size classes); a difference
 * planted at one size (a verdict, a maximum, a count of outputs differing from the batch path)
 * ends the class there and the planted size stands alone. */
Test(framework_section, paths_with_the_same_figures_share_a_line)
{
    static framework_paths_out p;
    static results_set s;
    static const struct {
        int at;            /* the size planted (0: none) */
        const char *alone; /* its line, or the classes' when none */
        const char *before, *after; /* the classes around it */
    } cases[] = {
        {0, "<code>torch_gelu@size1</code> to <code>@size33</code> <small>(33 paths", NULL, NULL},
        {17, "&#160;&#160;<code>torch_gelu@size17</code></td><td class=\"broken\">fail",
         "<code>torch_gelu@size1</code> to <code>@size16</code> <small>(16 paths",
         "<code>torch_gelu@size18</code> to <code>@size33</code> <small>(16 paths"},
        {-33, "&#160;&#160;<code>torch_gelu@size33</code></td><td>pass</td><td data-v=\"0.69999",
         "<code>torch_gelu@size1</code> to <code>@size32</code> <small>(32 paths", NULL},
        {1000 + 5, "&#160;&#160;<code>torch_gelu@size5</code></td>",
         "<code>torch_gelu@size1</code> to <code>@size4</code> <small>(4 paths",
         "<code>torch_gelu@size6</code> to <code>@size33</code> <small>(28 paths"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memset(&s, 0, sizeof s);
        memset(&p, 0, sizeof p);
        snprintf(gelu_row(&s, "torch_gelu", 2, 0.6)->contract, 8, "pass");
        framework_paths_section *sec = &p.s[p.n++];
        sec->format = GELU_FORMAT_BINARY32;
        sec->results = &s;
        sec->diffs.inputs = 1000;
        for (int size = 1; size <= 33; size++) {
            char name[RESULTS_NAME];
            snprintf(name, sizeof name, "torch_gelu@size%d", size);
            int at = cases[c].at;
            results_row *r = gelu_row(&s, name, 2, size == -at ? 0.7 : 0.6); /* a max ULP */
            snprintf(r->contract, 8, "%s", size == at ? "fail" : "pass");
            framework_path_diff *d = &sec->diffs.d[sec->diffs.n++];
            snprintf(d->path, sizeof d->path, "%s", name);
            snprintf(d->row, sizeof d->row, "torch_gelu");
            d->differ[0] = size == at - 1000 ? 7 : 0; /* outputs other than the batch path's */
            d->differ[1] = -1;
        }
        char *html = section_of(NULL, &p);
        cr_expect_not_null(strstr(html, cases[c].alone), "case %zu: %s", c, html);
        if (cases[c].before) cr_expect_not_null(strstr(html, cases[c].before), "case %zu: %s", c, html);
        if (cases[c].after) cr_expect_not_null(strstr(html, cases[c].after), "case %zu: %s", c, html);
        free(html);
    }
}

Test(framework_section, nothing_without_framework_rows)
{
    results_set *s = paths_set();
    s->n = 0;
    gelu_row(s, "erfc_f64", 1, 0.5);
    char *html = section_of(s, NULL);
    cr_expect_str_empty(html);
    free(html);
}

Test(framework_section, without_paths_scanned_the_batch_paths_of_the_page)
{
    char *html = section_of(paths_set(), NULL);
    cr_expect_not_null(strstr(html, "<h3>PyTorch</h3>"), "%s", html);
    cr_expect_not_null(strstr(html, "<td>batch path</td>"), "%s", html);
    cr_expect_null(strstr(html, "<h3>binary32</h3>"), "%s", html);
    free(html);
}

Test(framework_section, pick_judges_a_row_by_its_worst_path)
{
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    pick_constraints c = pick_no_constraints("l2");
    c.max_ulp = 1;
    results_set *s = paths_set();
    int fits = pick_rank(s, PICK_GENERIC, &c, k, &n);
    cr_expect_eq(n, 2, "the path is a candidate of its own: %zu candidates", n);
    cr_expect_eq(fits, 1);
    const pick_candidate *torch = strcmp(k[0].row->name, "torch_gelu") == 0 ? &k[0] : &k[1];
    cr_expect_str_eq(torch->row->name, "torch_gelu");
    cr_expect_eq(torch->failed, 1);
    cr_expect_str_eq(torch->worst_path, "size1");
    cr_expect_str_eq(torch->why, "path size1: max ULP vs exact GELU 3 > 1");
    cr_expect_eq(torch->ns, 2, "the row's speed, not the path's");
    /* the path made as good as the row: it fits, judged by the batch path */
    s->rows[1].own[0].max_ulp = s->rows[1].exact[0].max_ulp = 0.5;
    pick_rank(s, PICK_GENERIC, &c, k, &n);
    torch = strcmp(k[0].row->name, "torch_gelu") == 0 ? &k[0] : &k[1];
    cr_expect_eq(torch->failed, 0);
    cr_expect_str_eq(torch->worst_path, "the batch path");
}

/* ---- the paths' sample (scan/framework_sample.h): every finite binade and the fixed inputs */

#include "framework_sample.h"

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static bool listed(const uint32_t *list, uint64_t n, uint32_t e)
{
    uint64_t lo = 0, hi = n; /* ascending */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (list[mid] < e) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && list[lo] == e;
}

/* The first (sign, biased exponent) of the 510 finite binades holding fewer than `least` inputs
 * of list, as sign << 8 | exponent; −1 when every one holds enough. */
static int thin_binade(const uint32_t *list, uint64_t n, uint64_t least)
{
    static uint64_t count[2][256];
    memset(count, 0, sizeof count);
    for (uint64_t i = 0; i < n; i++) count[list[i] >> 31][(list[i] >> 23) & 0xff]++;
    for (int s = 0; s < 2; s++)
        for (int e = 0; e < 255; e++)
            if (count[s][e] < least) return s << 8 | e;
    return -1;
}

Test(framework_sample, every_binade_and_the_fixed_inputs)
{
    uint32_t *list;
    uint64_t n;
    cr_assert_eq(framework_sample_build(&list, &n), 0);
    cr_assert_geq(n, 1u << 20, "%llu inputs", (unsigned long long)n);
    for (uint64_t i = 1; i < n; i++) cr_assert_lt(list[i - 1], list[i], "ascending, distinct at %llu", (unsigned long long)i);
    cr_assert_eq(thin_binade(list, n, 2057), -1, "binade %#x holds fewer than 2,057", thin_binade(list, n, 2057));
    /* each binade's ends: 1, the largest float below 2, the subnormals' first and last */
    const uint32_t ends[] = {0x3f800000u, 0x3fffffffu, 0x00000000u, 0x007fffffu, 0x80000000u,
                             0x807fffffu, 0xff7fffffu, 0x7f000000u};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++)
        cr_assert(listed(list, n, ends[k]), "%#x", ends[k]);
    /* the fixed inputs: the grid of 1/16 over [-8, 8], the special values, named ones */
    for (int k = -128; k <= 128; k++) cr_assert(listed(list, n, bits_of((float)k / 16)), "%d/16", k);
    const uint32_t specials[] = {0xff800000u, 0x7f800000u, 0x7fc00000u, 0x00000001u, 0x80000001u};
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++)
        cr_assert(listed(list, n, specials[k]), "%#x", specials[k]);
    const float named[] = {0x1.cb4b4ap-23f, -0x1.cb4b4ap-1f, -0x1.cb4b4ap+0f, 0x1.4b4b4ap+63f,
                           0x1.38e61p+2f, -0x1.62b9d4p+2f, -0x1.80ead2p-1f, 0x1.0017c8p+127f, -40.0f};
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
        cr_assert(listed(list, n, bits_of(named[k])), "%a", (double)named[k]);
    /* 319 distinct fixed inputs */
    const uint32_t *fixed = framework_sample_fixed();
    for (int i = 0; i < 319; i++) {
        cr_assert(listed(list, n, fixed[i]), "fixed[%d] = %#x", i, fixed[i]);
        for (int j = 0; j < i; j++) cr_assert_neq(fixed[i], fixed[j], "fixed[%d] = fixed[%d]", i, j);
    }
    /* planted: a binade taken out (negative, exponent 130) is the one found thin */
    uint64_t m = 0;
    for (uint64_t i = 0; i < n; i++)
        if ((list[i] >> 23) != (1u << 8 | 130u)) list[m++] = list[i];
    cr_assert_eq(thin_binade(list, m, 1), 1 << 8 | 130);
    free(list);
    char buf[600];
    cr_assert_not_null(strstr(framework_sample_describe(1049389, buf, sizeof buf), "1049389 distinct"));
}
