/* Whether a benchmark row got slower or faster between two runs, judged on its ×baseline ratio
 * of each round (bench.csv's ratio_rounds: the row's time over the baseline ReLU's time in the
 * same round, so that a machine's drift between the runs cancels), the new run's rounds divided
 * by the shift common to all its rows at that size first (the baseline's own time differs from
 * run to run and moves every ratio alike: two report --quick runs of one build on a shared
 * machine had 25 of 37 rows "faster" at l1 by 5-10% without it). The test: the two runs' rounds
 * compared by the Mann-Whitney rank test, exact two-sided p < 0.01, and the medians apart by at
 * least 5%. With the fewest rounds the benchmark takes (5, at the dram size) the
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
 * by shift first (the run's common shift, speed_common_shift; 1: none), with the p and the
 * medians' ratio (b/shift)/a into *p and *effect when not NULL. */
speed_change speed_change_judge(const double *a, unsigned na, const double *b, unsigned nb,
                                double shift, double *p, double *effect);

/* A run's common shift at one size: the median over its rows of new median / old median (the
 * ratios[0..n)), which a change of the machine or of the baseline's own time between the runs
 * moves for every row alike; 1 with fewer than SPEED_SHIFT_MIN_ROWS rows (too few to tell one
 * row's change from the run's), n up to SPEED_SHIFT_MAX_ROWS. */
enum { SPEED_SHIFT_MIN_ROWS = 5, SPEED_SHIFT_MAX_ROWS = 256 };
double speed_common_shift(const double *ratios, size_t n);
/* The median of v[0..n), n from 1 to 32. */
double speed_median(const double *v, unsigned n);

#endif
