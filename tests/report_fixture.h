/* The report tests' fixture: tests/fixtures/pick's results read back (a static set). */
#ifndef GELUCHECK_REPORT_FIXTURE_H
#define GELUCHECK_REPORT_FIXTURE_H

#include <criterion/criterion.h>

#include "results.h"

static results_set *load_fixture(void)
{
    static results_set s;
    char err[256];
    int rc = results_load(&s, GELUCHECK_FIXTURES "/pick/accuracy.csv",
                          GELUCHECK_FIXTURES "/pick/bench.csv", err, sizeof err);
    cr_assert_eq(rc, 0, "%s", err);
    return &s;
}

#endif
