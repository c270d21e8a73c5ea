/* Whether a benchmark row got slower or faster between two runs, judged on its ×baseline ratio
 * of each round (bench.csv's ratio_rounds: the row's time over the baseline ReLU's time in the
 * same round, so that a machine's drift between the runs cancels), the new run's rounds divided
 * by the shift common to all its rows at that size first (the baseline's own time differs from
 * run to run and moves every ratio alike: two report --quick runs of one build on a shared
 * machine had 25 of 37 rows "faster" at l1 by 5-10% without it). The test: the two runs' rounds
 * compared by the Mann-Whitney rank test, exact two-sided p < 0.01, and the medians apart by at
 * least the run's floor: 5%, or more where the rows of the run moved apart more than that
 * (speed_run_floor). The rounds of one run share its memory layout and frequency, so the rank
 * test alone sees only the spread within a run; between two runs of one build each row also
 * moves on its own (two report --quick runs on a shared machine: rows 6% apart after the common
 * shift, all rounds of one run above the other's), and the floor is that spread, measured on the
 * run's rows themselves. With the fewest rounds the benchmark takes (5, at the dram size) the
 * smallest p is 2/C(10,5) = 0.0079: a change there needs every round of one run above every
 * round of the other. Library code. */
#ifndef GELUCHECK_SPEED_CHANGE_H
#define GELUCHECK_SPEED_CHANGE_H

#include <stddef.h>

enum { SPEED_MIN_EFFECT_PERCENT = 5 };
#define SPEED_P_MAX 0.01

typedef enum { SPEED_SAME, SPEED_SLOWER, SPEED_FASTER } speed_change;

/* The exact two-sided p of the Mann-Whitney U of samples a[0..na) and b[0..nb) (ties count
 * half; the exact distribution is that without ties), na, nb from 1 to 32. */
double speed_rank_p(const double *a, unsigned na, const double *b, unsigned nb);
/* The verdict on old rounds a and new rounds b (ratios: higher is slower), the new rounds divided
 * by shift first (the run's common shift, speed_common_shift; 1: none), a change only when the
 * medians' ratio is at least 1 + floor or at most 1 / (1 + floor) (floor: speed_run_floor, at
 * least SPEED_MIN_EFFECT_PERCENT / 100), with the p and the medians' ratio (b/shift)/a into *p and
 * *effect when not NULL. */
speed_change speed_change_judge(const double *a, unsigned na, const double *b, unsigned nb,
                                double shift, double floor, double *p, double *effect);

/* A run's common shift at one size: the median over its rows of new median / old median (the
 * ratios[0..n)), which a change of the machine or of the baseline's own time between the runs
 * moves for every row alike; 1 with fewer than SPEED_SHIFT_MIN_ROWS rows (too few to tell one
 * row's change from the run's), n up to SPEED_SHIFT_MAX_ROWS. */
enum { SPEED_SHIFT_MIN_ROWS = 5, SPEED_SHIFT_MAX_ROWS = 256 };
double speed_common_shift(const double *ratios, size_t n);
/* A run's floor at one size: the smallest relative effect judged a change, given its rows'
 * new median / old median ratios[0..n) and its common shift: SPEED_FLOOR_SIGMAS robust standard
 * deviations (1.4826 × the median absolute deviation) of log(ratio / shift) over the rows, as
 * exp(·) − 1, and at least SPEED_MIN_EFFECT_PERCENT / 100 (also with fewer than
 * SPEED_SHIFT_MIN_ROWS rows). A row that changed is one row: it moves the median absolute
 * deviation by at most one rank. */
enum { SPEED_FLOOR_SIGMAS = 3 };
double speed_run_floor(const double *ratios, size_t n, double shift);
/* The median of v[0..n), n from 1 to 32. */
double speed_median(const double *v, unsigned n);

#endif
