/* Mergeable accuracy metrics (see metrics.h). */
#include "metrics.h"

#include <math.h>
#include <string.h>

input_range input_range_of_d(double x)
{
    if (isnan(x)) return RANGE_NAN;
    if (fabs(x) < 0x1p-8) return RANGE_TINY;
    if (x < -3.0) return RANGE_NEG_TAIL;
    if (x > 3.0) return RANGE_POSITIVE;
    return RANGE_CORE;
}

int x_bucket_of_d(double x)
{
    if (isnan(x)) return X_BUCKET_NONE;
    if (x < X_BUCKET_LO) return X_BUCKET_BELOW;
    if (x >= -X_BUCKET_LO) return X_BUCKET_ABOVE;
    int b = (int)((x - X_BUCKET_LO) / X_BUCKET_WIDTH); /* may round up onto a boundary, as above */
    if (X_BUCKET_LO + b * (double)X_BUCKET_WIDTH > x) b--;
    return b;
}

void x_bucket_bounds(int bucket, double *lo, double *hi)
{
    if (bucket == X_BUCKET_BELOW) {
        *lo = -INFINITY;
        *hi = X_BUCKET_LO;
    } else if (bucket == X_BUCKET_ABOVE) {
        *lo = -X_BUCKET_LO;
        *hi = INFINITY;
    } else {
        *lo = X_BUCKET_LO + bucket * (double)X_BUCKET_WIDTH;
        *hi = *lo + X_BUCKET_WIDTH;
    }
}

const char *input_range_name(input_range r)
{
    static const char *const names[RANGE_COUNT] = {"negative_tail", "core", "positive_side",
                                                   "tiny", "nan"};
    return r < RANGE_COUNT ? names[r] : "?";
}

const char *hist_bucket_name(int b)
{
    static const char *const names[HIST_BUCKETS] = {
        "0",       "<=0.5",   "<=1",     "<=2",     "<=4",     "<=8",      "<=16",
        "<=32",    "<=64",    "<=128",   "<=256",   "<=512",   "<=1024",   "<=2^11",
        "<=2^12",  "<=2^13",  "<=2^14",  "<=2^15",  "<=2^16",  "<=2^17",   "<=2^18",
        "<=2^19",  "<=2^20",  ">2^20",   "nonfinite"};
    return b >= 0 && b < HIST_BUCKETS ? names[b] : "?";
}

void arg_max_init(arg_max *m)
{
    m->value = -INFINITY;
    m->seq = UINT64_MAX;
    m->bits = 0;
}

/* Larger value wins; on a tie the earlier input. */
static bool beats(double value, uint64_t seq, const arg_max *m)
{
    return value > m->value || (value == m->value && seq < m->seq);
}

void arg_max_merge(arg_max *dst, const arg_max *src)
{
    if (src->seq != UINT64_MAX && beats(src->value, src->seq, dst)) *dst = *src;
}

static uint32_t bits_of(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

void error_metrics_init(error_metrics *m)
{
    memset(m, 0, sizeof *m);
    arg_max_init(&m->max_ulp);
    arg_max_init(&m->max_abs);
    arg_max_init(&m->max_rel);
    for (int b = 0; b < X_BUCKETS; b++) m->x_max_ulp[b] = m->x_max_abs[b] = -INFINITY;
    for (int k = 0; k < ERR_KINDS; k++) near_init(&m->near[k]);
    for (int k = 0; k < X_KINDS; k++)
        for (int b = 0; b < X_BUCKETS; b++) near_bucket_init(&m->x_near[k][b]);
}

void impl_metrics_init(impl_metrics *m)
{
    memset(m, 0, sizeof *m);
    for (int r = 0; r < REF_KINDS; r++)
        for (int d = 0; d < DIR_COUNT; d++)
            error_metrics_init(&m->err[r][d]);
    arg_max_init(&m->mono.largest);
    m->sign.first_seq = UINT64_MAX;
}

static void add128(uint64_t *hi, uint64_t *lo, uint64_t add_hi, uint64_t add_lo)
{
    uint64_t old = *lo;
    *lo += add_lo;
    *hi += add_hi + (*lo < old);
}

void mono_add(mono_metrics *m, uint64_t seq, float x, uint64_t distance)
{
    m->violations++;
    arg_max_add(&m->largest, (double)distance, seq, x);
    if (m->nlisted < MONO_LISTED) {
        m->listed_seq[m->nlisted] = seq;
        m->listed_bits[m->nlisted] = bits_of(x);
        m->nlisted++;
    }
}

void sign_add(sign_metrics *m, uint64_t seq, float x)
{
    m->violations++;
    if (seq < m->first_seq) {
        m->first_seq = seq;
        m->first_bits = bits_of(x);
    }
}

/* The near-tie lists are left to the caller (near_merge needs MPFR on overflow). */
void error_metrics_merge(error_metrics *dst, const error_metrics *src)
{
    dst->count += src->count;
    dst->finite += src->finite;
    add128(&dst->ulp_sum_hi, &dst->ulp_sum_lo, src->ulp_sum_hi, src->ulp_sum_lo);
    arg_max_merge(&dst->max_ulp, &src->max_ulp);
    arg_max_merge(&dst->max_abs, &src->max_abs);
    arg_max_merge(&dst->max_rel, &src->max_rel);
    dst->correctly_rounded += src->correctly_rounded;
    for (int r = 0; r < RANGE_COUNT; r++)
        for (int b = 0; b < HIST_BUCKETS; b++)
            dst->hist[r][b] += src->hist[r][b];
    for (int b = 0; b < X_BUCKETS; b++) {
        dst->x_max_ulp[b] = fmax(dst->x_max_ulp[b], src->x_max_ulp[b]);
        dst->x_max_abs[b] = fmax(dst->x_max_abs[b], src->x_max_abs[b]);
    }
    for (int d = 0; d < DIST_COUNT; d++) dist_add(&dst->dist[d], &src->dist[d]);
    dst->benchdnn_failed += src->benchdnn_failed;
    dst->xnnpack_failed += src->xnnpack_failed;
    dst->xnnpack_checked += src->xnnpack_checked;
}

/* The first MONO_LISTED violations of both lists, in domain order. */
static void merge_listed(mono_metrics *dst, const mono_metrics *src)
{
    uint64_t seq[2 * MONO_LISTED];
    uint32_t bits[2 * MONO_LISTED];
    size_t n = 0, i = 0, j = 0;
    while (n < MONO_LISTED && (i < dst->nlisted || j < src->nlisted)) {
        bool take_dst = j >= src->nlisted || (i < dst->nlisted && dst->listed_seq[i] < src->listed_seq[j]);
        seq[n] = take_dst ? dst->listed_seq[i] : src->listed_seq[j];
        bits[n] = take_dst ? dst->listed_bits[i++] : src->listed_bits[j++];
        n++;
    }
    memcpy(dst->listed_seq, seq, n * sizeof seq[0]);
    memcpy(dst->listed_bits, bits, n * sizeof bits[0]);
    dst->nlisted = n;
}

void impl_metrics_merge(impl_metrics *dst, const impl_metrics *src)
{
    for (int r = 0; r < REF_KINDS; r++)
        for (int d = 0; d < DIR_COUNT; d++)
            error_metrics_merge(&dst->err[r][d], &src->err[r][d]);
    dst->mono.violations += src->mono.violations;
    arg_max_merge(&dst->mono.largest, &src->mono.largest);
    merge_listed(&dst->mono, &src->mono);
    dst->sign.violations += src->sign.violations;
    if (src->sign.first_seq < dst->sign.first_seq) {
        dst->sign.first_seq = src->sign.first_seq;
        dst->sign.first_bits = src->sign.first_bits;
    }
}

double error_metrics_mean_ulp(const error_metrics *m)
{
    if (m->finite == 0) return 0;
    double sum = ldexp((double)m->ulp_sum_hi, 64) + (double)m->ulp_sum_lo;
    return sum / ULP_SUM_SCALE / (double)m->finite;
}

double error_metrics_dist_mean(const error_metrics *m, input_dist d, error_kind k)
{
    const dist_sums *s = &m->dist[d];
    if (s->weight == 0) return 0;
    return (double)(k == ERR_ULP ? s->ulp : s->abs) / (double)s->weight / DIST_Q_SCALE;
}

double error_metrics_dist_max(const error_metrics *m, input_dist d, error_kind k)
{
    float lo = d == DIST_NORMAL ? DIST_NORMAL_MAX_LO : DIST_UNIFORM_MAX_LO;
    float hi = d == DIST_NORMAL ? DIST_NORMAL_MAX_HI : DIST_UNIFORM_MAX_HI;
    const double *v = k == ERR_ULP ? m->x_max_ulp : m->x_max_abs;
    double best = -INFINITY;
    for (int b = x_bucket_of(lo); b < x_bucket_of(hi); b++) best = v[b] > best ? v[b] : best;
    return best;
}
