/* compare over every column (reports/compare.h) on tests/fixtures/compare: a tanh-form kernel
 * (tanh_avx2) whose own-target max abs error grew 5.05e-7 -> 6.03e-5 (x119), its derivative's
 * max ULP 300 -> 330 and its correctly rounded inputs 800,000 -> 799,000; erfc_f64's max ULP
 * 0.502 -> 0.51. The planted 119x regression comes first, then the others worst first; --impl
 * restricts the comparison. */
#include <criterion/criterion.h>
#include <string.h>

#include "compare.h"

static compare_sets *load(const char *const *only, size_t nonly)
{
    static compare_sets cs;
    char err[1024];
    cr_assert_eq(compare_sets_load_only(&cs, GELUCHECK_FIXTURES "/compare/old",
                                        GELUCHECK_FIXTURES "/compare/new", only, nonly, err,
                                        sizeof err),
                 0, "%s", err);
    return &cs;
}

Test(compare_columns, the_planted_own_target_regression_is_listed_first)
{
    const compare_result *c = &load(NULL, 0)->result;
    cr_assert_eq(c->n, 4);
    cr_expect_eq(c->regressions, 4);
    static const struct {
        const char *impl, *metric, *old_value, *new_value;
    } want[] = {
        {"tanh_avx2", "max abs vs own target", "5.05e-07 @ 0x1.8p+2", "6.03e-05 @ 0x1.8p+2"},
        {"tanh_avx2", "max ULP vs own target (derivative)", "300 @ -0x1.2p+3", "330 @ -0x1.2p+3"},
        {"erfc_f64", "max ULP vs own target", "0.502 @ 0x1p+0", "0.51 @ 0x1p+0"},
        {"tanh_avx2", "correctly rounded inputs vs own target", "800000", "799000"},
    };
    for (size_t i = 0; i < 4; i++) {
        cr_expect_str_eq(c->changes[i].impl, want[i].impl, "change %zu", i);
        cr_expect_str_eq(c->changes[i].metric, want[i].metric, "change %zu", i);
        cr_expect_str_eq(c->changes[i].old_value, want[i].old_value, "change %zu", i);
        cr_expect_str_eq(c->changes[i].new_value, want[i].new_value, "change %zu", i);
        cr_expect_eq(c->changes[i].kind, CHANGE_WORSE);
    }
    cr_expect_float_eq(c->changes[0].severity, 6.03e-05 / 5.05e-07, 1e-9);
}

Test(compare_columns, impl_restricts_the_comparison)
{
    const char *only[] = {"erfc_f64"};
    const compare_result *c = &load(only, 1)->result;
    cr_expect_eq(c->compared, 1);
    cr_assert_eq(c->n, 1);
    cr_expect_str_eq(c->changes[0].impl, "erfc_f64");
}
