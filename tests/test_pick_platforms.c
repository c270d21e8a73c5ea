/* pick's platform rows (reports/pick.c) and the llvm-mca estimates they rank by
 * (reports/mca_estimates.c): every row of the table runs only builds for its own machine — an
 * x86-64 row is never a candidate on an Arm or RISC-V platform, a cross build never on an x86-64
 * one —, checked on a fixture where the x86-64 row is the fastest and most accurate, and shown
 * to catch a planted row that judges armv8-a by CPU features alone; the Arm rows rank by the
 * estimate of their CPU and say so, rv64gcv by accuracy; a bad or truncated estimates file is
 * an error naming its line. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mca_estimates.h"
#include "pick.h"
#include "report_fixture.h"

/* One row per machine and ISA: the x86-64 one (portable, no dispatched_isa) the fastest and most
 * accurate of all; the cross builds' rows timed absurdly fast (qemu's figures must not count). */
static results_set *fixture(void)
{
    static results_set s;
    static const struct {
        const char *name, *isa;
        double ns, ulp;
    } rows[] = {
        {"fast_x86", "", 0.05, 0.5},        {"m_neon", "neon", 0.01, 0.9},
        {"m_sve256", "sve256", 0.01, 0.8},  {"m_sve128", "sve128", 0.01, 0.7},
        {"m_sve512", "sve512", 0.01, 0.6},  {"m_rvv128", "rvv128", 0.01, 0.75},
        {"m_rvv_loose", "rvv128", 0.01, 0.95}, {"m_a64_plain", "portable", 0.01, 0.55},
    };
    s.n = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        results_row *r = gelu_row(&s, rows[i].name, rows[i].ns, rows[i].ulp);
        snprintf(r->dispatched_isa, sizeof r->dispatched_isa, "%s", rows[i].isa);
    }
    return &s;
}

static const char *const estimates_text =
    "# a test's estimates\n"
    "impl,method,cpu,model,rthroughput_cycles_per_element\n"
    "m_neon,m,neoverse-n1,CortexA57,5\n"
    "m_neon,m,neoverse-v1,NeoverseN2,4\n"
    "m_sve256,m,neoverse-v1,NeoverseN2,2\n"
    "m_neon,m,neoverse-v2,NeoverseN2,4\n"
    "m_sve128,m,neoverse-v2,NeoverseN2,3.5\n"
    "m_sve512,m,neoverse-v1,NeoverseN2,0.5\n"
    "fast_x86,m,neoverse-n1,CortexA57,0.25\n";

/* text into a temporary file, its path into path (unlinked by the caller). */
static void write_temp(const char *text, char *path, size_t size)
{
    snprintf(path, size, "/tmp/gelucheck_estimates_XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static const mca_estimates *estimates(void)
{
    static mca_estimates e;
    char path[64], err[512];
    write_temp(estimates_text, path, sizeof path);
    int rc = mca_estimates_load(path, &e, err, sizeof err);
    unlink(path);
    cr_assert_eq(rc, 0, "%s", err);
    return &e;
}

/* The machine each platform is, and the cross ISAs it runs, written here apart from pick.c's
 * table: what a platform's choice is checked against. */
static const struct {
    const char *name;
    pick_arch arch;
    const char *isas; /* the dispatched_isa values its rows may have; NULL: x86-64's own rows */
} machines[] = {
    {"generic", PICK_ARCH_X86_64, NULL},   {"x86-64-v2", PICK_ARCH_X86_64, NULL},
    {"x86-64-v3", PICK_ARCH_X86_64, NULL}, {"x86-64-v4", PICK_ARCH_X86_64, NULL},
    {"host", PICK_ARCH_X86_64, NULL},      {"armv8-a", PICK_ARCH_AARCH64, "neon"},
    {"armv8.2-a+sve", PICK_ARCH_AARCH64, "neon sve256"},
    {"armv9-a+sve2", PICK_ARCH_AARCH64, "neon sve128"},
    {"rv64gcv", PICK_ARCH_RISCV64, "rvv128"},
};

/* The first candidate meeting every constraint on p that p's machine does not run (a row of
 * another machine, or of an ISA not among its own), NULL when there is none. */
static const char *foreign_choice(const pick_platform_row *p, const pick_constraints *c)
{
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n, m = 0;
    while (m < sizeof machines / sizeof machines[0] && strcmp(machines[m].name, p->name) != 0) m++;
    cr_assert_lt(m, sizeof machines / sizeof machines[0], "platform %s: add it to machines[]",
                 p->name);
    int fits = pick_rank_on(fixture(), p, c, k, &n);
    for (int i = 0; i < fits; i++) {
        const char *isa = k[i].row->dispatched_isa;
        bool own = machines[m].isas ? isa[0] && strstr(machines[m].isas, isa) != NULL
                                    : isa[0] == '\0';
        if (!own) return k[i].row->name;
    }
    return NULL;
}

static pick_constraints default_need(void)
{
    pick_constraints c = pick_need_at(PICK_DEFAULT_NEED)->c;
    c.estimates = estimates();
    return c;
}

Test(pick_platforms, every_row_runs_only_its_own_machines_builds)
{
    pick_constraints c = default_need();
    for (int i = 0; i < PICK_PLATFORM_COUNT; i++) {
        const pick_platform_row *p = pick_platform_at((pick_platform)i);
        cr_assert_not_null(p->name);
        cr_expect_eq(pick_platform_from_name(p->name), (pick_platform)i, "%s", p->name);
        cr_expect(p->what && p->what[0], "%s says what it stands for", p->name);
        cr_expect((p->arch == PICK_ARCH_X86_64) == (p->isas == NULL), "%s: ISAs off x86-64 only",
                  p->name);
        cr_expect((p->speed == PICK_SPEED_ESTIMATED) == (p->mca_cpu != NULL), "%s", p->name);
        cr_expect((p->speed == PICK_SPEED_NONE) == (p->why_speed != NULL), "%s", p->name);
        const char *bad = foreign_choice(p, &c);
        cr_expect_null(bad, "%s would run %s", p->name, bad ? bad : "");
        static pick_candidate k[RESULTS_MAX_ROWS];
        size_t n;
        cr_expect_gt(pick_rank(fixture(), (pick_platform)i, &c, k, &n), 0, "%s chooses one",
                     p->name);
        cr_expect(pick_platform_has_rows(fixture(), (pick_platform)i), "%s", p->name);
    }
}

/* The plant: armv8-a judged as the old switch's default judged every platform it did not
 * name, by CPU features alone (none needed: generic). The x86-64 row, fastest and most accurate,
 * is then its choice, and the check catches it. */
Test(pick_platforms, a_row_judging_armv8_a_by_features_alone_is_caught)
{
    pick_constraints c = default_need();
    pick_platform_row planted = *pick_platform_at(PICK_ARMV8_A);
    planted.arch = PICK_ARCH_X86_64;
    planted.isas = NULL;
    planted.speed = PICK_SPEED_MEASURED;
    const char *bad = foreign_choice(&planted, &c);
    cr_assert_not_null(bad, "the planted armv8-a row's choice is not caught");
    cr_expect_str_eq(bad, "fast_x86");
    cr_expect_null(foreign_choice(pick_platform_at(PICK_ARMV8_A), &c));
}

Test(pick_platforms, the_arm_rows_rank_by_their_cpus_estimate)
{
    pick_constraints c = default_need();
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    /* V1: sve256 (2 cycles) before neon (4); sve512 (0.5) is not V1's length */
    cr_expect_eq(pick_rank(fixture(), PICK_ARMV8_2_A_SVE, &c, k, &n), 2);
    cr_expect_str_eq(k[0].row->name, "m_sve256");
    cr_expect_eq(k[0].cost, 2);
    cr_expect(isinf(k[0].ns), "no measured ns off x86-64");
    cr_expect_str_eq(k[1].row->name, "m_neon");
    cr_expect_eq(pick_rank(fixture(), PICK_ARMV9_A_SVE2, &c, k, &n), 2);
    cr_expect_str_eq(k[0].row->name, "m_sve128");
    for (size_t i = 0; i < n; i++)
        if (strcmp(k[i].row->name, "fast_x86") == 0)
            cr_expect_str_eq(k[i].why, "a build for x86-64, which armv9-a+sve2 (AArch64) does not run");
    cr_expect_eq(pick_rank(fixture(), PICK_ARMV8_A, &c, k, &n), 1);
    cr_expect_str_eq(k[0].row->name, "m_neon", "the x86 row's estimate on N1 does not make it run");
    char text[192];
    cr_expect(strstr(pick_speed_text(PICK_ARMV8_A, c.estimates, "l2", text, sizeof text),
                     "estimated (llvm-mca, model CortexA57"), "%s", text);
    /* no estimate of a row: not ranked by a figure it lacks */
    c.estimates = NULL;
    cr_expect_eq(pick_rank(fixture(), PICK_ARMV8_A, &c, k, &n), 0);
    cr_expect_str_eq(k[0].why, "no llvm-mca estimates loaded");
}

Test(pick_platforms, rv64gcv_ranks_by_accuracy_and_says_why)
{
    pick_constraints c = default_need();
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t n;
    cr_expect_eq(pick_rank(fixture(), PICK_RV64GCV, &c, k, &n), 2);
    cr_expect_str_eq(k[0].row->name, "m_rvv128", "0.75 ULP before 0.95");
    cr_expect(isinf(k[0].cost));
    char text[192];
    cr_expect(strstr(pick_speed_text(PICK_RV64GCV, c.estimates, "l2", text, sizeof text),
                     "not estimated"), "%s", text);
    cr_expect_eq(pick_rank(fixture(), PICK_X86_64_V3, &c, k, &n), 1);
    cr_expect_str_eq(k[0].row->name, "fast_x86");
    for (size_t i = 0; i < n; i++)
        if (strcmp(k[i].row->name, "m_neon") == 0)
            cr_expect_str_eq(k[i].why, "a build for AArch64, which x86-64-v3 (x86-64) does not run");
}

/* Each bad file, and the text its error must hold (the line and what is wrong). */
Test(pick_platforms, a_bad_or_truncated_estimates_file_is_an_error)
{
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"", "no header: an empty file"},
        {"impl,cpu,model,rthroughput_cycles_per_element\n", "no estimate in the file"},
        {"impl,cpu,model,rthroughput_cycles_per_element\nm_neon,neoverse-n1,CortexA57,5",
         ":2: truncated: the last line has no end"},
        {"impl,cpu,model,rthroughput_cycles_per_element\nm_neon,neoverse-n1,Cort",
         ":2: truncated"},
        {"impl,cpu,rthroughput_cycles_per_element\nm_neon,neoverse-n1,5\n", ":1: no column 'model'"},
        {"impl,cpu,model,rthroughput_cycles_per_element\nm_neon,neoverse-n1,CortexA57,abc\n",
         ":2: column 'rthroughput_cycles_per_element': 'abc' is not a positive number"},
        {"impl,cpu,model,rthroughput_cycles_per_element\nm_neon,neoverse-n1,CortexA57,-1\n",
         "'-1' is not a positive number"},
        {"impl,cpu,model,rthroughput_cycles_per_element\nm_neon,neoverse-n1\n",
         ":2: 2 fields, the header has 4"},
        {"impl,cpu,model,rthroughput_cycles_per_element\na,neoverse-n1,CortexA57,1\n"
         "b,neoverse-n1,NeoverseN2,1\n",
         ":3: cpu neoverse-n1 with model NeoverseN2, but an earlier row says CortexA57"},
        {"impl,cpu,model,rthroughput_cycles_per_element\na,neoverse-n1,CortexA57,1\n"
         "a,neoverse-n1,CortexA57,2\n",
         ":3: a second row of a on neoverse-n1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static mca_estimates e;
        char path[64], err[512] = "";
        write_temp(cases[i].text, path, sizeof path);
        int rc = mca_estimates_load(path, &e, err, sizeof err);
        unlink(path);
        cr_expect_eq(rc, -2, "case %zu loaded: %s", i, err);
        cr_expect(strstr(err, cases[i].error) && strstr(err, path), "case %zu: '%s'", i, err);
    }
    static mca_estimates e;
    char err[512];
    cr_expect_eq(mca_estimates_load("/nonexistent/mca_estimates.csv", &e, err, sizeof err), -1);
    cr_expect(strstr(err, "cannot read the estimates /nonexistent/mca_estimates.csv"), "%s", err);
}

/* The repository's own file loads, and each Arm platform's CPU is in it. */
Test(pick_platforms, the_committed_estimates_cover_the_arm_platforms)
{
    static mca_estimates e;
    char err[512];
    cr_assert_eq(mca_estimates_load(mca_estimates_default_path(), &e, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < PICK_PLATFORM_COUNT; i++) {
        const pick_platform_row *p = pick_platform_at((pick_platform)i);
        if (p->speed == PICK_SPEED_ESTIMATED)
            cr_expect_not_null(mca_estimates_model(&e, p->mca_cpu), "%s: no estimate for %s",
                               p->name, p->mca_cpu);
    }
}
