/* The report tests' fixtures: tests/fixtures/pick's results read back (a static set), and rows
 * made by hand. */
#ifndef GELUCHECK_REPORT_FIXTURE_H
#define GELUCHECK_REPORT_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "results.h"

static inline results_set *load_fixture(void)
{
    static results_set s;
    char err[256];
    int rc = results_load(&s, GELUCHECK_FIXTURES "/pick/accuracy.csv",
                          GELUCHECK_FIXTURES "/pick/bench.csv", err, sizeof err);
    cr_assert_eq(rc, 0, "%s", err);
    return &s;
}

/* A scanned exact-target row of s named `name`: max ULP `ulp` (own and exact, forward), `ns` per
 * element at l2. */
static inline results_row *gelu_row(results_set *s, const char *name, double ns, double ulp)
{
    results_row *r = &s->rows[s->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->target, sizeof r->target, "exact");
    r->scanned = true;
    r->own[0].present = r->exact[0].present = true;
    r->own[0].max_ulp = r->exact[0].max_ulp = ulp;
    r->nspeeds = 1;
    snprintf(r->speed[0].size, sizeof r->speed[0].size, "l2");
    r->speed[0].ns = ns;
    return r;
}

#endif
