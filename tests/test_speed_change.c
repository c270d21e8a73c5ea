/* The rank test of speed changes (reports/speed_change.h): exact p values of small samples, and
 * on synthetic runs of 32 rows (log-normal per-round ratios of spread sd 0.04 in log, an idle
 * machine's: interquartile spreads of about 5%; each row moved between the runs by sd 0.015, as
 * two report --quick runs of one build moved at l1: rows' new/old spread 0.0285 robust sd, 0.024
 * of it the rounds') at the fewest rounds the benchmark takes (5, dram) and at --quick's 9: at
 * most 1 false change in 20 unchanged pairs and at most 1% of all the rows of their runs, a 20%
 * slowdown found in at least 19 of 20, and without the run's floor the unchanged rows flagged; compare reports a planted slowdown of a row, not an unchanged one, and not a drift of
 * every row alike. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "compare.h"
#include "speed_change.h"

Test(speed_change, exact_p_of_small_samples)
{
    const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    cr_expect_float_eq(speed_rank_p(a, 3, b, 3), 2.0 / 20, 1e-15, "U = 0 of C(6,3) = 20");
    const double c[] = {1, 2, 3, 4, 5}, d[] = {6, 7, 8, 9, 10};
    cr_expect_float_eq(speed_rank_p(c, 5, d, 5), 2.0 / 252, 1e-15, "the smallest p at 5 rounds");
    cr_expect_eq(speed_rank_p(c, 5, c, 5), 1, "the same rounds");
    const double e[] = {1, 2, 3, 4, 6}, f[] = {5, 7, 8, 9, 10};
    cr_expect_float_eq(speed_rank_p(e, 5, f, 5), 4.0 / 252, 1e-15, "U = 1: 2 of 252 each side");
    double p, effect;
    cr_expect_eq(speed_change_judge(c, 5, d, 5, 1, 0, &p, &effect), SPEED_SLOWER);
    cr_expect_eq(speed_change_judge(e, 5, f, 5, 1, 0, &p, &effect), SPEED_SAME, "p = 0.016");
    const double g[] = {1.00, 1.01, 1.02, 1.03, 1.04}, h[] = {1.05, 1.05, 1.06, 1.07, 1.08};
    cr_expect_eq(speed_change_judge(g, 5, h, 5, 1, 0, &p, &effect), SPEED_SAME, "separated, 4%% apart");
}

static uint64_t state = 0x9e3779b97f4a7c15u;
static double uniform(void) /* xorshift64*, (0, 1) */
{
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    return ((double)((state * 0x2545f4914f6cdd1du) >> 11) + 0.5) * 0x1p-53;
}
static double normal(void) { return sqrt(-2 * log(uniform())) * cos(0x1.921fb54442d18p+2 * uniform()) /* 2π */; }

/* A run pair of ROWS rows at one size: each row's old rounds log-normal around its own level
 * (sd 0.04), its new rounds moved by the machine's drift (every row alike), by the row's own
 * move between the runs (log-normal, sd 0.015: the memory layout, the frequency of that minute)
 * and by slow for row 0; then judged as compare does, against the run's shift and floor. */
enum { ROWS = 32 };

static void draw(double *v, unsigned n, double scale)
{
    for (unsigned i = 0; i < n; i++) v[i] = scale * 3.0 * exp(0.04 * normal());
}

/* The verdicts of one run pair into verdict[0..ROWS). */
static void judge_pair(unsigned n, double drift, double slow, speed_change *verdict)
{
    static double a[ROWS][32], b[ROWS][32];
    double ratios[ROWS];
    for (int r = 0; r < ROWS; r++) {
        double level = 1 + r * 0.5, moved = exp(0.015 * normal());
        draw(a[r], n, level);
        draw(b[r], n, level * drift * moved * (r == 0 ? slow : 1));
        ratios[r] = speed_median(b[r], n) / speed_median(a[r], n);
    }
    double shift = speed_common_shift(ratios, ROWS), floor = speed_run_floor(ratios, ROWS, shift);
    for (int r = 0; r < ROWS; r++)
        verdict[r] = speed_change_judge(a[r], n, b[r], n, shift, floor, NULL, NULL);
}

Test(speed_change, synthetic_rounds_at_five_and_nine)
{
    static const unsigned rounds[] = {5, 9};
    for (size_t k = 0; k < 2; k++) {
        unsigned n = rounds[k], false_rows = 0, false_changes = 0, found = 0;
        speed_change v[ROWS];
        for (int pair = 0; pair < 20; pair++) {
            judge_pair(n, 0.97, 1, v);
            false_changes += v[0] != SPEED_SAME;
            for (int r = 0; r < ROWS; r++) false_rows += v[r] != SPEED_SAME;
            judge_pair(n, 0.97, 1.2, v);
            found += v[0] == SPEED_SLOWER;
        }
        cr_log_info("%u rounds: %u false changes in 20 unchanged pairs (%u in all %u rows of "
                    "their runs), the slowdown found in %u of 20", n, false_changes, false_rows,
                    20 * ROWS, found);
        cr_expect_leq(false_changes, 1, "%u rounds: %u false changes in 20", n, false_changes);
        cr_expect_leq(false_rows, 20 * ROWS / 100, "%u rounds: %u false changes in %u rows", n,
                      false_rows, 20 * ROWS);
        cr_expect_geq(found, 19, "%u rounds: a 20%% slowdown found in %u of 20", n, found);
    }
}

/* Without the floor (the 5% minimum alone), rows that moved between the runs by their own are
 * flagged: the floor is what keeps unchanged runs quiet. */
Test(speed_change, the_floor_is_what_keeps_unchanged_runs_quiet)
{
    static double a[ROWS][32], b[ROWS][32];
    unsigned flagged = 0;
    for (int pair = 0; pair < 20; pair++) {
        double ratios[ROWS];
        for (int r = 0; r < ROWS; r++) {
            draw(a[r], 9, 1 + r * 0.5);
            draw(b[r], 9, (1 + r * 0.5) * exp(0.015 * normal()));
            ratios[r] = speed_median(b[r], 9) / speed_median(a[r], 9);
        }
        double shift = speed_common_shift(ratios, ROWS);
        for (int r = 0; r < ROWS; r++)
            flagged += speed_change_judge(a[r], 9, b[r], 9, shift, 0, NULL, NULL) != SPEED_SAME;
    }
    cr_expect_geq(flagged, 5, "the 5%% minimum alone flags %u rows of 20 unchanged pairs", flagged);
    cr_expect_float_eq(speed_run_floor((const double[]){1, 1, 1, 1, 1}, 5, 1), 0.05, 1e-15,
                       "rows that did not move: the 5%% minimum");
    /* |log| deviations 0, 0.01, 0.02, 0.05, 0.1: median 0.02, 3 × 1.4826 × 0.02 */
    cr_expect_float_eq(speed_run_floor((const double[]){1, exp(0.01), exp(-0.02), exp(0.05),
                                                        exp(-0.1)}, 5, 1),
                       expm1(SPEED_FLOOR_SIGMAS * 1.4826 * 0.02), 1e-12);
}

/* Rows "steady0".."steady3" and "slowed" at dram, 5 rounds each; the new set's rounds scaled by
 * drift (every row: the machine or the baseline's own time), "slowed"'s by slow too. */
static void plant_runs(results_set *old_set, results_set *new_set, double drift, double slow)
{
    old_set->n = new_set->n = 5;
    old_set->nsizes = new_set->nsizes = 1;
    snprintf(old_set->sizes[0], sizeof old_set->sizes[0], "dram");
    snprintf(new_set->sizes[0], sizeof new_set->sizes[0], "dram");
    for (int i = 0; i < 5; i++) {
        results_row *o = &old_set->rows[i], *n = &new_set->rows[i];
        memset(o, 0, sizeof *o);
        if (i < 4) snprintf(o->name, sizeof o->name, "steady%d", i);
        else snprintf(o->name, sizeof o->name, "slowed");
        snprintf(o->target, sizeof o->target, "exact");
        o->mono_violations = o->specials_failed[0] = o->specials_failed[1] = -1;
        o->nspeeds = 1;
        results_speed *sp = &o->speed[0];
        snprintf(sp->size, sizeof sp->size, "dram");
        sp->ns = sp->q1 = sp->q3 = 1; /* the quartiles overlap: only the rounds can tell */
        sp->nrounds = 5;
        for (unsigned r = 0; r < 5; r++) sp->rounds[r] = (2 + i) * (1 + 0.005 * r);
        *n = *o;
        for (unsigned r = 0; r < 5; r++)
            n->speed[0].rounds[r] = o->speed[0].rounds[(r + 2) % 5] * drift * (i == 4 ? slow : 1);
    }
}

Test(speed_change, compare_reports_a_planted_slowdown_by_the_rounds)
{
    static results_set old_set, new_set;
    static compare_result c;
    char err[256];
    plant_runs(&old_set, &new_set, 1, 1.2);
    cr_assert_eq(compare_results(&old_set, &new_set, true, &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.n, 1);
    cr_expect_str_eq(c.changes[0].impl, "slowed");
    cr_expect_eq(c.changes[0].kind, CHANGE_SLOWER);
    cr_expect_str_eq(c.changes[0].metric, "xReLU at dram (rank p 0.0079)");
    /* the same slowdown of a yardstick (a row whose target is not a GELU) is not judged */
    snprintf(old_set.rows[4].target, sizeof old_set.rows[4].target, "relu");
    snprintf(new_set.rows[4].target, sizeof new_set.rows[4].target, "relu");
    cr_assert_eq(compare_results(&old_set, &new_set, true, &c, err, sizeof err), 0, "%s", err);
    cr_expect_eq(c.n, 0, "a ReLU row's slowdown: %zu changes", c.n);
    cr_expect_eq(c.speed_not_judged[1], 1);
}

/* A drift of every row alike (the baseline's own time, the machine) is no change; a row's own
 * slowdown on top of it still is. */
Test(speed_change, a_drift_of_every_row_is_no_change)
{
    static results_set old_set, new_set;
    static compare_result c;
    char err[256];
    plant_runs(&old_set, &new_set, 0.9, 1);
    /* the baseline: its rounds' ratios are 1, which the drift does not move */
    snprintf(old_set.baseline, sizeof old_set.baseline, "relu");
    snprintf(new_set.baseline, sizeof new_set.baseline, "relu");
    old_set.rows[5] = old_set.rows[0];
    snprintf(old_set.rows[5].name, sizeof old_set.rows[5].name, "relu");
    for (unsigned r = 0; r < 5; r++) old_set.rows[5].speed[0].rounds[r] = 1;
    new_set.rows[5] = old_set.rows[5];
    old_set.n = new_set.n = 6;
    cr_assert_eq(compare_results(&old_set, &new_set, true, &c, err, sizeof err), 0, "%s", err);
    cr_expect_eq(c.n, 0, "a 10%% drift of all rows: %zu changes, the first %s", c.n,
                 c.n ? c.changes[0].impl : "");
    plant_runs(&old_set, &new_set, 0.9, 1.2);
    cr_assert_eq(compare_results(&old_set, &new_set, true, &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.n, 1);
    cr_expect_str_eq(c.changes[0].impl, "slowed");
    cr_expect_eq(c.changes[0].kind, CHANGE_SLOWER);
    cr_expect(strstr(c.changes[0].new_value, "beyond the run's x0.9"), "%s", c.changes[0].new_value);
    cr_expect_eq(speed_common_shift((const double[]){1, 1.1, 0.9, 2, 1.05}, 5), 1.05);
    cr_expect_eq(speed_common_shift((const double[]){2, 2, 2, 2}, 4), 1, "too few rows to tell");
}
