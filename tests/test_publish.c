/* Publishing a report directory is all or nothing: with rename() onto index.html failing (the
 * fault shim, GELUCHECK_FAIL_RENAME=index.html, as an immutable index.html would), the files
 * already renamed are put back, the new ones removed and a stale file the report owns is kept:
 * the directory holds the previous report, byte for byte. Runs only under tests/fault_shim. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_stage.h"

static int write_text(FILE *f, void *ctx) { return fputs(ctx, f) < 0 ? -1 : 0; }

static void put(const char *dir, const char *name, const char *text)
{
    char path[2200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static const char *get(const char *dir, const char *name)
{
    static char buf[256];
    char path[2200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) return "(absent)";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

Test(publish, a_failing_rename_restores_the_previous_report)
{
    char dir[] = "/tmp/gelucheck-publish-XXXXXX", cmd[2300];
    cr_assert_not_null(mkdtemp(dir));
    /* the shim is there: a rename onto index.html fails */
    put(dir, "probe", "x");
    char from[2200], to[2200];
    snprintf(from, sizeof from, "%s/probe", dir);
    snprintf(to, sizeof to, "%s/index.html", dir);
    cr_assert_eq(rename(from, to), -1, "run with LD_PRELOAD=fault_shim, GELUCHECK_FAIL_RENAME=index.html");
    cr_assert_eq(errno, EPERM);
    unlink(from);

    put(dir, "a.csv", "old a\n");
    put(dir, "index.html", "old index\n");
    put(dir, "cost.svg", "old svg\n");
    report_stage st;
    cr_assert_eq(report_stage_open(&st, dir), 0);
    cr_assert_eq(report_stage_write(&st, "a.csv", write_text, "new a\n"), 0);
    cr_assert_eq(report_stage_write(&st, "b.csv", write_text, "new b\n"), 0);
    cr_assert_eq(report_stage_own(&st, "cost.svg"), 0); /* not drawn this time */
    cr_assert_eq(report_stage_write(&st, "index.html", write_text, "new index\n"), 0);
    cr_expect_eq(report_stage_commit(&st), -1);
    cr_expect_eq(errno, EPERM);
    cr_expect_str_eq(get(dir, "a.csv"), "old a\n");
    cr_expect_str_eq(get(dir, "b.csv"), "(absent)");
    cr_expect_str_eq(get(dir, "index.html"), "old index\n");
    cr_expect_str_eq(get(dir, "cost.svg"), "old svg\n");
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 3", dir);
    cr_expect_eq(system(cmd), 0, "the three old files and nothing else (no staging directory)");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}
