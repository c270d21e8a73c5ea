/* gelucheck compare's engine (reports/compare.h) on real scans: a kernel made 1 ULP worse at one
 * input (which also breaks its declared contract) is reported as both regressions, at that
 * input; an unchanged rerun shows no change; sets of another manifest schema, another domain or
 * without a manifest are refused, naming the files. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "accuracy_csv.h"
#include "compare.h"
#include "manifest.h"

extern const gelu_impl gelu_impl_erfc_f64;

static const float bad_x = 1.5f; /* 0x1.8p+0, where the planted kernel is 1 ULP further off */

/* erfc_f64 moved 1 ULP away from exact GELU at bad_x (the direction from a double evaluation,
 * accurate to far better than the 0.5 ULP gap it decides): its error there becomes 1 + e. */
static void forward_one_ulp_worse(const float *x, float *y, size_t n)
{
    gelu_impl_erfc_f64.forward(x, y, n);
    double exact = 0.75 * erfc(-1.5 / sqrt(2.0));
    for (size_t i = 0; i < n; i++)
        if (x[i] == bad_x) y[i] = nextafterf(y[i], y[i] > exact ? INFINITY : -INFINITY);
}

/* Scans impl (named erfc_f64) over [lo, hi] into DIR/accuracy.csv with DIR/manifest.json. */
static void scan_into(const char *dir, const gelu_impl *impl, float lo, float hi)
{
    cr_assert(mkdir(dir, 0777) == 0);
    scan_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    const gelu_impl *list[] = {impl};
    scan_config cfg = {.impls = list, .nimpls = 1, .grad = true, .threads = 1, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = lo, .hi = hi}};
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    char path[512];
    snprintf(path, sizeof path, "%s/accuracy.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    accuracy_csv_write(r, f);
    cr_assert_eq(fclose(f), 0);
    scan_result_free(r);
    run_manifest m;
    manifest_collect(&m, "test_compare");
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_FILE);
    cr_assert_eq(manifest_write_file(path, &m), 0);
}

static char root[] = "/tmp/gelucheck-compare-XXXXXX";
static char old_dir[600], same_dir[600], worse_dir[600], other_dir[600];

static void setup(void)
{
    cr_assert_not_null(mkdtemp(root));
    snprintf(old_dir, sizeof old_dir, "%s/old", root);
    snprintf(same_dir, sizeof same_dir, "%s/same", root);
    snprintf(worse_dir, sizeof worse_dir, "%s/worse", root);
    snprintf(other_dir, sizeof other_dir, "%s/other", root);
    gelu_impl worse = gelu_impl_erfc_f64; /* the same name: the same row in both sets */
    worse.forward = forward_one_ulp_worse;
    const float lo = 0x1.7fp+0f, hi = 0x1.81p+0f; /* 2^17 inputs around bad_x */
    scan_into(old_dir, &gelu_impl_erfc_f64, lo, hi);
    scan_into(same_dir, &gelu_impl_erfc_f64, lo, hi);
    scan_into(worse_dir, &worse, lo, hi);
    scan_into(other_dir, &gelu_impl_erfc_f64, lo, 0x1.80p+0f);
}

static void teardown(void)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_expect_eq(system(cmd), 0);
}

static const compare_change *find(const compare_result *c, const char *metric)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->changes[i].metric, metric) == 0) return &c->changes[i];
    return NULL;
}

TestSuite(compare, .init = setup, .fini = teardown);

Test(compare, one_ulp_worse_at_one_input_and_a_broken_contract_are_regressions)
{
    compare_sets *cs = malloc(sizeof *cs);
    char err[1024];
    cr_assert_eq(compare_sets_load(cs, old_dir, worse_dir, err, sizeof err), 0, "%s", err);
    const compare_result *c = &cs->result;
    cr_expect_eq(c->compared, 1);
    const compare_change *ulp = find(c, "max ULP vs own target");
    cr_assert_not_null(ulp, "the max ULP change is reported");
    cr_expect_eq(ulp->kind, CHANGE_WORSE);
    cr_expect(strstr(ulp->new_value, "@ 0x1.8p+0") != NULL, "at the planted input: %s",
              ulp->new_value);
    cr_expect(strtod(ulp->new_value, NULL) >= 1.0, "1 ULP further off: %s", ulp->new_value);
    const compare_change *contract = find(c, "contract");
    cr_assert_not_null(contract, "the newly broken contract is reported");
    cr_expect_eq(contract->kind, CHANGE_BROKEN);
    cr_expect_str_eq(contract->old_value, "pass");
    cr_expect_str_eq(contract->new_value, "fail");
    const compare_change *cr = find(c, "correctly rounded inputs vs own target");
    cr_assert_not_null(cr);
    cr_expect_eq(strtod(cr->old_value, NULL) - strtod(cr->new_value, NULL), 1.0,
                 "one input fewer correctly rounded: %s -> %s", cr->old_value, cr->new_value);
    cr_expect_eq(c->regressions, c->count[CHANGE_WORSE] + c->count[CHANGE_BROKEN]);
    cr_expect_geq(c->regressions, 3);
    cr_expect_null(find(c, "max ULP vs own target (derivative)"), "the derivative was not touched");

    /* Backwards, the same changes are improvements: no regression. */
    cr_assert_eq(compare_sets_load(cs, worse_dir, old_dir, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cs->result.regressions, 0);
    cr_expect_eq(find(&cs->result, "contract")->kind, CHANGE_FIXED);
    free(cs);
}

Test(compare, an_unchanged_rerun_shows_no_change)
{
    compare_sets *cs = malloc(sizeof *cs);
    char err[1024];
    cr_assert_eq(compare_sets_load(cs, old_dir, same_dir, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cs->result.n, 0, "first change: %s %s",
                 cs->result.n ? cs->result.changes[0].metric : "", cs->result.n ? cs->result.changes[0].new_value : "");
    cr_expect_eq(cs->result.regressions, 0);
    cr_expect_not(cs->result.speed_compared, "no bench.csv: speed not compared");
    free(cs);
}

Test(compare, sets_that_cannot_be_compared_are_refused_naming_the_files)
{
    compare_sets *cs = malloc(sizeof *cs);
    char err[1024], path[700];
    cr_expect_eq(compare_sets_load(cs, old_dir, other_dir, err, sizeof err), -1);
    cr_expect(strstr(err, "not the same domain") && strstr(err, other_dir), "%s", err);

    /* A manifest of a schema this build does not know: both versions named. */
    snprintf(path, sizeof path, "%s/%s", same_dir, MANIFEST_FILE);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char text[8192];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    char *schema = strstr(text, "\"schema\": 1");
    cr_assert_not_null(schema, "%s", text);
    schema[strlen("\"schema\": ")] = '7';
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    cr_expect_eq(compare_sets_load(cs, old_dir, same_dir, err, sizeof err), -1);
    cr_expect(strstr(err, "(schema 1)") && strstr(err, "(schema 7)") && strstr(err, same_dir),
              "%s", err);

    /* No manifest at all. */
    cr_assert_eq(remove(path), 0);
    cr_expect_eq(compare_sets_load(cs, old_dir, same_dir, err, sizeof err), -1);
    cr_expect(strstr(err, same_dir) && strstr(err, MANIFEST_FILE), "%s", err);
    free(cs);
}
