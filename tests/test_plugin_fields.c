/* A plugin's description as text (plugins/plugin_fields.h, plugin_describe.h): the field list
 * covers gelucheck_impl_v1, a description written is read back field for field, and malformed
 * or truncated texts are refused with the line at fault. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_describe.h"
#include "plugin_fields.h"

/* Whether fields (sorted by offset) cover every member after size: each starts where the one
 * before it ends, up to alignment (< 8 bytes), the first right after size, the last ending
 * within 8 bytes of the struct's end. */
static bool covers(const plugin_field *f, size_t n)
{
    size_t end = offsetof(gelucheck_impl_v1, name);
    for (size_t i = 0; i < n; i++) {
        if (f[i].offset < end || f[i].offset - end >= 8) return false;
        end = f[i].offset + f[i].size;
    }
    return end <= sizeof(gelucheck_impl_v1) && sizeof(gelucheck_impl_v1) - end < 8;
}

Test(plugin_fields, the_list_covers_the_struct)
{
    cr_assert(covers(plugin_fields, plugin_field_count), "a member of gelucheck_impl_v1 has no field");
    /* planted: the list without a middle member (contract.max_abs), without the last */
    plugin_field less[64];
    size_t n = 0;
    for (size_t i = 0; i < plugin_field_count; i++)
        if (strcmp(plugin_fields[i].key, "max_abs") != 0) less[n++] = plugin_fields[i];
    cr_assert_eq(n, plugin_field_count - 1);
    cr_assert_not(covers(less, n));
    cr_assert_not(covers(plugin_fields, plugin_field_count - 1));
}

static void kernel(const float *x, float *y, size_t n) { memcpy(y, x, n * sizeof *x); }
static const char *path_name(void) { return "avx512_core"; }

/* The text of p's description (and left_out). */
static char *written(const gelucheck_plugin_info_v1 *p, const char *left_out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    cr_assert_eq(plugin_description_write(f, p, left_out), 0);
    fclose(f);
    return text;
}

Test(plugin_fields, a_description_is_read_back)
{
    gelucheck_impl_v1 rows[2] = {
        {.size = sizeof(gelucheck_impl_v1), .name = "mine", .target = "tanh", .format = "binary32",
         .cpu_features = "avx2,fma", .forward = kernel,
         .contract = {.max_ulp = 2.5, .max_abs = INFINITY, .grad_max_ulp = 0x1p-3,
                      .grad_max_abs = 1e-7, .monotone = 1, .specials = 0, .correctly_rounded = 0},
         .origin = "line\none, 100% \x1b[31m", .method = "meth", .isa = "avx2",
         .dispatched_isa = path_name, .family = "ml_library", .known_as = "gelu_tanh"},
        /* the first layout: nothing past own_threads is read, nor written */
        {.size = GELUCHECK_IMPL_V1_FIRST_SIZE, .name = "old", .target = "exact",
         .format = "binary32", .cpu_features = "", .forward = kernel, .derivative = kernel,
         .origin = "o", .own_threads = 1, .method = "never read"},
    };
    gelucheck_plugin_info_v1 info = {GELUCHECK_PLUGIN_ABI, 2, rows};
    char *text = written(&info, "dnnl_erf in binary16: no");
    plugin_description d;
    char err[300];
    cr_assert_eq(plugin_description_parse(text, &d, err, sizeof err), 0, "%s", err);
    cr_assert_eq(d.info.abi, 1);
    cr_assert_eq(d.info.count, 2);
    cr_assert(d.info.impls == d.rows);
    const gelucheck_impl_v1 *a = &d.rows[0], *b = &d.rows[1];
    cr_assert_eq(a->size, sizeof(gelucheck_impl_v1));
    cr_assert_str_eq(a->name, "mine");
    cr_assert_str_eq(a->target, "tanh");
    cr_assert_str_eq(a->cpu_features, "avx2,fma");
    cr_assert(a->forward != NULL && a->forward != kernel, "a placeholder, not the plugin's kernel");
    cr_assert(a->derivative == NULL);
    cr_assert_eq(a->contract.max_ulp, 2.5);
    cr_assert(isinf(a->contract.max_abs));
    cr_assert_eq(a->contract.grad_max_ulp, 0.125);
    cr_assert_eq(a->contract.grad_max_abs, 1e-7);
    cr_assert_eq(a->contract.monotone, 1);
    cr_assert_str_eq(a->origin, "line\none, 100% \x1b[31m");
    cr_assert_str_eq(a->method, "meth");
    cr_assert_str_eq(a->isa, "avx2");
    cr_assert(a->dispatched_isa == NULL);
    cr_assert_str_eq(d.dispatched_isa[0], "avx512_core");
    cr_assert_str_eq(a->family, "ml_library");
    cr_assert_str_eq(a->known_as, "gelu_tanh");
    cr_assert(a->forward_binary64 == NULL && a->forward_u16 == NULL);
    cr_assert_eq(b->size, GELUCHECK_IMPL_V1_FIRST_SIZE);
    cr_assert_eq(b->own_threads, 1);
    cr_assert(b->derivative != NULL);
    cr_assert(b->method == NULL, "a field past the row's size");
    cr_assert(d.dispatched_isa[1] == NULL);
    cr_assert_str_eq(d.left_out, "dnnl_erf in binary16: no");
    free(text);
}

/* The parse of text: its result, err into err. */
static int parse(const char *text, char *err, size_t size)
{
    char *copy = strdup(text);
    plugin_description d;
    int rc = plugin_description_parse(copy, &d, err, size);
    free(copy);
    return rc;
}

#define HEAD "gelucheck-plugin-description 1\nabi 1\ncount 1\n"
#define ROW "row\nsize 120\nname a\ntarget exact\nformat binary32\nforward 1\n"

Test(plugin_fields, malformed_texts_are_refused)
{
    char err[300];
    static const struct {
        const char *text, *needle;
    } bad[] = {
        {"", "it ends after 0 lines, before 'done'"},
        {"gelucheck-plugin-description 2\n", "line 1 is not"},
        {HEAD ROW "end\n", "before 'done'"},              /* truncated */
        {HEAD ROW "colour red\nend\ndone\n", "line 10: unknown field 'colour'"},
        {HEAD ROW "name b\nend\ndone\n", "line 10: field name given twice"},
        {HEAD ROW "known_as x\nend\ndone\n", "beyond the row's size"},
        /* the fuzzer's: a second size would leave name set past the row's size of 0 */
        {HEAD ROW "size 0\nend\ndone\n", "line 10: size given twice or after a field"},
        {HEAD "row\nsize 120\nsize 120\nend\ndone\n", "line 6: size given twice"},
        {HEAD ROW "max_ulp two\nend\ndone\n", "max_ulp 'two' is not a number"},
        {HEAD ROW "monotone 1.5\nend\ndone\n", "monotone '1.5' is not an int"},
        {HEAD ROW "derivative 0x1234\nend\ndone\n", "derivative is not 1"},
        {HEAD ROW "origin a%0\nend\ndone\n", "malformed %XX"},
        {HEAD ROW "origin a%00b\nend\ndone\n", "malformed %XX"},
        {HEAD ROW "end\ndone\nrow\n", "text after 'done'"},
        {"gelucheck-plugin-description 1\nabi 1\ncount 2\n" ROW "end\ndone\n", "1 rows for a count of 2"},
        {"gelucheck-plugin-description 1\ncount -1\n", "count '-1'"},
    };
    /* a text longer than the writer writes (PLUGIN_TEXT_MAX): it would not read back the same */
    static char longer[PLUGIN_TEXT_MAX + 200];
    snprintf(longer, sizeof longer, "%s", HEAD ROW "origin ");
    size_t at = strlen(longer);
    memset(longer + at, 'o', PLUGIN_TEXT_MAX + 1);
    snprintf(longer + at + PLUGIN_TEXT_MAX + 1, sizeof longer - at - PLUGIN_TEXT_MAX - 1, "\nend\ndone\n");
    cr_expect_eq(parse(longer, err, sizeof err), -1);
    cr_expect(strstr(err, "line 10: origin longer than 4096 bytes"), "%s", err);
    longer[at + PLUGIN_TEXT_MAX] = '\n'; /* 4,096 bytes: taken */
    memcpy(longer + at + PLUGIN_TEXT_MAX + 1, "end\ndone\n", sizeof "end\ndone\n");
    cr_expect_eq(parse(longer, err, sizeof err), 0, "%s", err);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        cr_expect_eq(parse(bad[i].text, err, sizeof err), -1, "case %zu accepted", i);
        cr_expect(strstr(err, bad[i].needle), "case %zu: '%s' not in '%s'", i, bad[i].needle, err);
    }
    /* the host's refusal: 1, its message unescaped */
    cr_assert_eq(parse("gelucheck-plugin-description 1\nerror cannot load plugin 'a%25b.so': no\n",
                       err, sizeof err), 1);
    cr_assert_str_eq(err, "cannot load plugin 'a%b.so': no");
    /* a good one, for contrast */
    cr_assert_eq(parse(HEAD ROW "end\ndone\n", err, sizeof err), 0, "%s", err);
    /* a field without a value (the fuzzer's: its value unescaped in place) is an empty text */
    cr_assert_eq(parse(HEAD ROW "origin\nend\ndone\n", err, sizeof err), 0, "%s", err);
}
