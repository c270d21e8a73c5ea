/* Whether a benchmark row got slower or faster between two runs, judged on its ×baseline ratio
 * of each round (bench.csv's ratio_rounds: the row's time over the baseline ReLU's time in the
 * same round, so that a machine's drift between the runs cancels). The test: the two runs'
 * rounds compared by the Mann-Whitney rank test, exact two-sided p < 0.01, and the medians
 * apart by at least 5%. With the fewest rounds the benchmark takes (5, at the dram size) the
 * smallest p is 2/C(10,5) = 0.0079: a change there needs every round of one run above every
 * round of the other. Library code. */
#ifndef GELUCHECK_SPEED_CHANGE_H
#define GELUCHECK_SPEED_CHANGE_H

enum { SPEED_MIN_EFFECT_PERCENT = 5 };
#define SPEED_P_MAX 0.01

typedef enum { SPEED_SAME, SPEED_SLOWER, SPEED_FASTER } speed_change;

/* The exact two-sided p of the Mann-Whitney U of samples a[0..na) and b[0..nb) (ties count
 * half; the exact distribution is that without ties), na, nb from 1 to 32. */
double speed_rank_p(const double *a, unsigned na, const double *b, unsigned nb);
/* The verdict on old rounds a and new rounds b (ratios: higher is slower), with the p and the
 * medians' ratio b/a into *p and *effect when not NULL. */
speed_change speed_change_judge(const double *a, unsigned na, const double *b, unsigned nb,
                                double *p, double *effect);

#endif
