/* The answer as data (reports/answer.h) on tests/fixtures/answer: 1,000,000 sampled inputs and
 * l2 speeds of pw_fast and pw_fast_avx512 (16,780,000 ULP off in the tail but within 4e-7 and
 * monotone: the fastest rows), erfc_accurate_avx2 (0.634 ULP, AVX2), erfc_f64 (0.502), cr
 * (correctly rounded), tanh (1.5 ULP of its form), and the three ReLU builds (relu 0.1 ns,
 * relu_avx2 0.06, relu_avx512f 0.04, the benchmark's baseline). Every expected value below is
 * read off the fixture's lines by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "json.h"
#include "pick.h"

static const results_set *fixture(void)
{
    static results_set s;
    char err[256];
    cr_assert_eq(results_load(&s, GELUCHECK_FIXTURES "/answer/accuracy.csv",
                              GELUCHECK_FIXTURES "/answer/bench.csv", err, sizeof err),
                 0, "%s", err);
    return &s;
}

static answer *build_all(void)
{
    static answer a;
    char err[256];
    cr_assert_eq(answer_build_all(&a, fixture(), NULL, "l2", "Test CPU", "avx2,fma", err, sizeof err), 0,
                 "%s", err);
    return &a;
}

static int platform_at(const answer *a, pick_platform p)
{
    for (size_t j = 0; j < a->nplatforms; j++)
        if (a->platforms[j].id == p) return (int)j;
    cr_assert_fail("platform %s not in the answer", pick_platform_name(p));
    return -1;
}

/* The default need (no constraint given) never chooses the 1.678e7-ULP rows, on any platform,
 * though they are the fastest; the need that admits them (within 4e-7) does choose them: the
 * plant is live. */
Test(answer, the_default_need_never_chooses_a_kernel_ten_million_ulp_off)
{
    const pick_need *d = pick_need_at(PICK_DEFAULT_NEED);
    cr_assert(pick_constrains(&d->c), "the default need constrains");
    cr_expect_eq(d->c.max_ulp, 1);
    cr_expect(d->c.monotone);
    static pick_candidate k[RESULTS_MAX_ROWS];
    for (int p = 0; p < PICK_PLATFORM_COUNT; p++) {
        size_t n;
        int fits = pick_rank(fixture(), (pick_platform)p, &d->c, k, &n);
        if (!pick_platform_has_rows(fixture(), (pick_platform)p)) { /* x86-64 rows only */
            cr_expect_eq(fits, 0, "%s runs none of them", pick_platform_name((pick_platform)p));
            continue;
        }
        cr_assert_gt(fits, 0, "%s", pick_platform_name((pick_platform)p));
        for (int i = 0; i < fits; i++)
            cr_expect(strncmp(k[i].row->name, "pw_fast", 7) != 0, "%s meets the default on %s",
                      k[i].row->name, pick_platform_name((pick_platform)p));
    }
    const answer *a = build_all();
    cr_expect(a->needs[PICK_DEFAULT_NEED].is_default);
    cr_expect_str_eq(a->cells[0][platform_at(a, PICK_X86_64_V2)].choice.name, "erfc_f64");
    cr_expect_str_eq(a->cells[0][platform_at(a, PICK_X86_64_V3)].choice.name, "erfc_accurate_avx2");
    /* need 2 (within 4e-7): pw_fast on v2 and v3, pw_fast_avx512 on v4 */
    cr_expect_str_eq(a->cells[1][platform_at(a, PICK_X86_64_V2)].choice.name, "pw_fast");
    cr_expect_str_eq(a->cells[1][platform_at(a, PICK_X86_64_V4)].choice.name, "pw_fast_avx512");
}

/* ×ReLU per platform: against relu on v2 and generic, relu_avx2 on v3, relu_avx512f on v4. */
Test(answer, times_relu_is_against_the_platforms_own_relu)
{
    const results_set *s = fixture();
    cr_expect_str_eq(pick_platform_relu(s, PICK_GENERIC, "l2")->name, "relu");
    cr_expect_str_eq(pick_platform_relu(s, PICK_X86_64_V2, "l2")->name, "relu");
    cr_expect_str_eq(pick_platform_relu(s, PICK_X86_64_V3, "l2")->name, "relu_avx2");
    cr_expect_str_eq(pick_platform_relu(s, PICK_X86_64_V4, "l2")->name, "relu_avx512f");
    cr_expect_null(pick_platform_relu(s, PICK_X86_64_V3, "l1"), "nothing benchmarked at l1");
    const results_row *e = results_find(s, "erfc_accurate_avx2"), *f = results_find(s, "erfc_f64");
    cr_expect_float_eq(pick_times_relu(s, e, PICK_X86_64_V3, "l2"), 0.8 / 0.06, 1e-12);
    cr_expect_eq(pick_times_relu(s, e, PICK_X86_64_V4, "l2"), 20, "the bench's own ratio");
    cr_expect_float_eq(pick_times_relu(s, f, PICK_X86_64_V2, "l2"), 2 / 0.1, 1e-12);
    const answer *a = build_all();
    cr_expect_str_eq(a->platforms[platform_at(a, PICK_X86_64_V3)].relu, "relu_avx2");
    cr_expect_float_eq(a->cells[0][platform_at(a, PICK_X86_64_V3)].choice.x_relu, 0.8 / 0.06, 1e-12);
}

/* answer.json read back by the generic JSON reader, field by field against the fixture, and
 * by answer_read_json to the same answer. */
Test(answer, answer_json_carries_every_field)
{
    const answer *a = build_all();
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_eq(answer_write_json(f, a), 0);
    fclose(f);
    char err[256];
    json_node *root = json_parse(text, len, err, sizeof err);
    cr_assert_not_null(root, "%s\n%s", err, text);
    double v;
    cr_expect(json_get_number(root, "schema", &v) && v == 1);
    cr_expect_str_eq(json_get_string(root, "format"), "binary32");
    cr_expect_str_eq(json_get_string(root, "size"), "l2");
    cr_expect_str_eq(json_get_string(json_get(root, "cpu"), "model"), "Test CPU");
    const json_node *cover = json_get(root, "coverage");
    cr_expect(json_get_number(cover, "inputs", &v) && v == 1000000);
    cr_expect(json_get_number(cover, "encodings", &v) && v == 4294967296.0);
    cr_expect(json_get(cover, "all")->kind == JSON_BOOL && !json_get(cover, "all")->boolean);
    size_t needs = 0, platforms = 0, cells = 0;
    for (const json_node *n = json_get(root, "needs")->child; n; n = n->next) needs++;
    for (const json_node *n = json_get(root, "platforms")->child; n; n = n->next) platforms++;
    cr_expect_eq(needs, pick_need_count());
    cr_expect_eq(platforms, PICK_ARMV8_A, "the x86-64 platforms (the table's first), no cross "
                 "one without its rows");
    const json_node *v3 = NULL;
    for (const json_node *c = json_get(root, "cells")->child; c; c = c->next, cells++)
        if (json_get_number(c, "need", &v) && v == 0 &&
            strcmp(json_get_string(c, "platform"), "x86-64-v3") == 0)
            v3 = c;
    cr_expect_eq(cells, needs * platforms);
    cr_assert_not_null(v3);
    cr_expect(json_get_number(v3, "fits", &v) && v == 3, "erfc_accurate_avx2, erfc_f64, cr");
    const json_node *choice = json_get(v3, "choice"), *runner = json_get(v3, "runner_up");
    cr_expect_str_eq(json_get_string(choice, "name"), "erfc_accurate_avx2");
    cr_expect(json_get_number(choice, "ns_per_element", &v) && v == 0.8);
    cr_expect(json_get_number(choice, "max_ulp", &v) && v == 0.634);
    cr_expect(json_get_number(choice, "max_abs", &v) && v == 2.39e-07);
    cr_expect(json_get_number(choice, "mono_violations", &v) && v == 0);
    cr_expect(json_get_number(choice, "inputs", &v) && v == 1000000);
    cr_expect(json_get_number(choice, "grad_max_ulp", &v) && isnan(v), "no derivative row: null");
    cr_expect_str_eq(json_get_string(runner, "name"), "erfc_f64");
    cr_expect_eq(json_get(v3, "closest")->kind, JSON_NULL);
    json_free(root);

    char path[] = "/tmp/gelucheck_answer_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *out = fdopen(fd, "w");
    fwrite(text, 1, len, out);
    fclose(out);
    free(text);
    static answer back;
    cr_assert_eq(answer_read_json(path, &back, err, sizeof err), 0, "%s", err);
    cr_expect_eq(back.nneeds, a->nneeds);
    cr_expect_eq(back.nplatforms, a->nplatforms);
    for (size_t i = 0; i < a->nneeds; i++)
        for (size_t j = 0; j < a->nplatforms; j++) {
            const answer_cell *x = &a->cells[i][j], *y = &back.cells[i][j];
            cr_expect_eq(x->fits, y->fits);
            cr_expect_str_eq(x->choice.name, y->choice.name);
            cr_expect_str_eq(x->runner_up.name, y->runner_up.name);
            cr_expect(x->choice.x_relu == y->choice.x_relu ||
                      (isnan(x->choice.x_relu) && isnan(y->choice.x_relu)));
        }
    remove(path);
}

/* A file of another schema, a missing field, a cell naming an unknown platform: refused. */
Test(answer, bad_answer_files_are_refused_naming_the_field)
{
    static const struct {
        const char *text, *needle;
    } cases[] = {
        {"{\"schema\": 2}", "answer schema 2, this gelucheck reads schema 1"},
        {"{\"schema\": 1, \"format\": \"binary32\"}", "no string \"cpu.model\""},
        {"[1,", "not JSON: expected a value at byte 3"},
        {"{\"schema\": 1, \"format\": \"binary32\", \"size\": \"l2\", \"cpu\": {\"model\": \"m\", "
         "\"features\": \"f\"}, \"coverage\": {\"inputs\": 1, \"encodings\": 4294967296, \"all\": "
         "false}, \"needs\": [], \"platforms\": [], \"cells\": [{\"need\": 0, \"platform\": "
         "\"x86-64-v9\", \"fits\": 0}]}",
         "a need index out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[] = "/tmp/gelucheck_answer_XXXXXX", err[512];
        int fd = mkstemp(path);
        cr_assert_geq(fd, 0);
        FILE *f = fdopen(fd, "w");
        fputs(cases[i].text, f);
        fclose(f);
        static answer a;
        cr_expect_eq(answer_read_json(path, &a, err, sizeof err), -2, "%s", cases[i].text);
        cr_expect(strstr(err, cases[i].needle) != NULL, "'%s' lacks '%s'", err, cases[i].needle);
        remove(path);
    }
}

/* The Markdown matrix: need × the four platforms, the default need marked, a cell's choice with
 * ×ReLU against its platform's ReLU. */
Test(answer, markdown_matrix_has_a_column_per_platform)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    answer_markdown(f, build_all());
    fclose(f);
    cr_expect(strstr(text, "| need | x86-64-v2<br>") == text, "%s", text);
    cr_expect(strstr(text, "| Exact GELU, \xe2\x89\xa4 1 ULP, monotone (the default) | **`erfc_f64`**"),
              "%s", text);
    cr_expect(strstr(text, "**`erfc_accurate_avx2`**<br>0.8 ns, 13.3\xc3\x97 relu_avx2"), "%s", text);
    cr_expect(strstr(text, "1000000 of 2^32 inputs: a SAMPLE"), "%s", text);
    free(text);
}

static char *html_of(const answer *a)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    answer_html(f, a);
    fclose(f);
    return text;
}

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++) n++;
    return n;
}

/* A row per need, a column per platform (the host's merged into x86-64-v4's when every choice is
 * the same: the fixture's host is an AVX-512 CPU), a cell of each. */
Test(answer, html_matrix_has_a_cell_per_need_and_platform)
{
    char *text = html_of(build_all());
    cr_expect_eq(count(text, "<tr><td class=\"l\" title=\""), 4, "a row per need: %s", text);
    cr_expect_eq(count(text, "</td><td"), 4 * 3, "v2, v3, v4 = host: %s", text);
    cr_expect(strstr(text, "<th class=\"l\">x86-64-v3<small>AVX2, FMA</small></th>"), "%s", text);
    cr_expect(strstr(text, "<th class=\"l\">x86-64-v4<small>AVX-512, as this CPU</small></th>"), "%s", text);
    /* the v3 cell: its choice, against the platform's own ReLU, and the runner-up */
    cr_expect(strstr(text, "<b>erfc_accurate_avx2</b><small>0.8 ns, 13.3\xc3\x97 relu_avx2</small>"
                           "<small>0.634 ULP, max abs 2.4e-07</small><small>runner-up erfc_f64</small>"),
              "%s", text);
    free(text);
    /* a host whose choice differs from x86-64-v4's has its own column */
    static answer other;
    other = *build_all();
    int host = platform_at(&other, PICK_HOST);
    snprintf(other.cells[0][host].choice.name, sizeof other.cells[0][host].choice.name, "host_only");
    text = html_of(&other);
    cr_expect_eq(count(text, "</td><td"), 4 * 4, "v2, v3, v4, host: %s", text);
    cr_expect(strstr(text, "<th class=\"l\">host<small>this CPU</small></th>"), "%s", text);
    cr_expect(strstr(text, "<b>host_only</b>"), "%s", text);
    free(text);
}
