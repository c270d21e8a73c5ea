/* The rank test of speed changes (see speed_change.h). */
#include "speed_change.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_N = 32 };

/* count[u] = the arrangements of m and n values (no ties) whose U (pairs with the first sample's
 * value above) is u, u from 0 to m·n: N(i, j, u) = N(i − 1, j, u − j) + N(i, j − 1, u), the
 * largest value from the first sample (above all j of the second) or from the second. */
static void u_counts(unsigned m, unsigned n, double *count)
{
    static double dp[2][MAX_N + 1][MAX_N * MAX_N + 1];
    size_t top = (size_t)m * n;
    memset(dp, 0, sizeof dp);
    for (unsigned j = 0; j <= n; j++) dp[0][j][0] = 1; /* i = 0: U = 0 */
    for (unsigned i = 1; i <= m; i++) {
        double(*old)[MAX_N * MAX_N + 1] = dp[(i - 1) & 1], (*cur)[MAX_N * MAX_N + 1] = dp[i & 1];
        for (unsigned j = 0; j <= n; j++)
            for (size_t u = 0; u <= top; u++)
                cur[j][u] = (u >= j ? old[j][u - j] : 0) + (j > 0 ? cur[j - 1][u] : 0);
    }
    memcpy(count, dp[m & 1][n], (top + 1) * sizeof *count);
}

double speed_rank_p(const double *a, unsigned na, const double *b, unsigned nb)
{
    if (na < 1 || nb < 1 || na > MAX_N || nb > MAX_N) return NAN;
    double u = 0;
    for (unsigned i = 0; i < na; i++)
        for (unsigned j = 0; j < nb; j++) u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
    static double count[MAX_N * MAX_N + 1];
    u_counts(na, nb, count);
    double total = 0, below = 0, above = 0;
    for (size_t k = 0; k <= (size_t)na * nb; k++) {
        total += count[k];
        if ((double)k <= u) below += count[k];
        if ((double)k >= u) above += count[k];
    }
    double p = 2 * fmin(below, above) / total;
    return p < 1 ? p : 1;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double speed_median(const double *v, unsigned n)
{
    double s[MAX_N];
    if (n < 1 || n > MAX_N) return NAN;
    memcpy(s, v, n * sizeof *v);
    qsort(s, n, sizeof *s, by_value);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double speed_common_shift(const double *ratios, size_t n)
{
    double s[SPEED_SHIFT_MAX_ROWS];
    if (n < SPEED_SHIFT_MIN_ROWS || n > SPEED_SHIFT_MAX_ROWS) return 1;
    memcpy(s, ratios, n * sizeof *s);
    qsort(s, n, sizeof *s, by_value);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    return m > 0 && isfinite(m) ? m : 1;
}

double speed_run_floor(const double *ratios, size_t n, double shift)
{
    double dev[SPEED_SHIFT_MAX_ROWS], least = SPEED_MIN_EFFECT_PERCENT / 100.0;
    if (n < SPEED_SHIFT_MIN_ROWS || n > SPEED_SHIFT_MAX_ROWS || !(shift > 0)) return least;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (ratios[i] > 0 && isfinite(ratios[i])) dev[k++] = fabs(log(ratios[i] / shift));
    if (k < SPEED_SHIFT_MIN_ROWS) return least;
    qsort(dev, k, sizeof *dev, by_value);
    double mad = k % 2 ? dev[k / 2] : (dev[k / 2 - 1] + dev[k / 2]) / 2;
    double floor = expm1(SPEED_FLOOR_SIGMAS * 1.4826 * mad);
    return floor > least ? floor : least;
}

speed_change speed_change_judge(const double *a, unsigned na, const double *b, unsigned nb,
                                double shift, double floor, double *p, double *effect)
{
    double scaled[MAX_N];
    if (nb <= MAX_N)
        for (unsigned i = 0; i < nb; i++) scaled[i] = b[i] / shift;
    double pv = speed_rank_p(a, na, scaled, nb);
    double e = isnan(pv) ? NAN : speed_median(scaled, nb) / speed_median(a, na);
    if (p) *p = pv;
    if (effect) *effect = e;
    double least = SPEED_MIN_EFFECT_PERCENT / 100.0;
    if (!(floor >= least)) floor = least;
    if (!(pv < SPEED_P_MAX)) return SPEED_SAME;
    if (e >= 1 + floor) return SPEED_SLOWER;
    if (e <= 1 / (1 + floor)) return SPEED_FASTER;
    return SPEED_SAME;
}
