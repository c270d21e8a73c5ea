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

static char *section_of(const results_set *s, const framework_diffs *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    framework_section_html(f, s, d);
    fclose(f);
    return buf;
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
    framework_diffs d = {.n = 1, .inputs = 65536};
    snprintf(d.d[0].path, sizeof d.d[0].path, "torch_gelu@size1");
    snprintf(d.d[0].row, sizeof d.d[0].row, "torch_gelu");
    d.d[0].differ[0] = 59;
    d.d[0].differ[1] = -1;
    char *html = section_of(paths_set(), &d);
    cr_expect_not_null(strstr(html, "<h3>PyTorch</h3>"), "%s", html);
    cr_expect_not_null(strstr(html, "<tr><td class=\"l\"><code>torch_gelu</code></td><td>pass</td>"), "%s", html);
    cr_expect_not_null(strstr(html, "&#160;&#160;<code>torch_gelu@size1</code></td><td class=\"broken\">fail</td>"),
                       "%s", html);
    cr_expect_not_null(strstr(html, "<td class=\"broken\">59 <small>of 65536</small></td><td>n/a</td>"), "%s", html);
    cr_expect_not_null(strstr(html, "<td>batch path</td>"), "%s", html);
    cr_expect_null(strstr(html, "erfc_f64"), "a row of no framework in the section: %s", html);
    free(html);
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
