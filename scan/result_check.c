/* The invariants of a scan result's counters (scan_result_check, partial.h): what every result
 * of a scan satisfies whatever its inputs, checked on every partial file read and every merge. */
#include "partial.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    uint64_t first, end; /* the positions the result covers */
    const scan_domain *domain;
    char *err;
    size_t errsize;
} span;

/* The encoding at position seq of a range domain (the order of encodings, −0 below +0). */
static uint32_t range_bits(const scan_domain *d, uint64_t seq)
{
    uint32_t lo = float_bits(d->lo);
    int64_t o = ((lo & 0x80000000u) ? -(int64_t)(lo & 0x7fffffffu) - 1 : (int64_t)lo) + (int64_t)seq;
    return o < 0 ? (uint32_t)(-(o + 1)) | 0x80000000u : (uint32_t)o;
}

static bool seq_ok(const span *s, uint64_t seq) { return seq >= s->first && seq < s->end; }

static int check_arg_max(const span *s, const arg_max *m, const char *what)
{
    if (isnan(m->value) || (m->value == -INFINITY) != (m->seq == UINT64_MAX) ||
        (m->seq != UINT64_MAX && (m->value < 0 || !seq_ok(s, m->seq))))
        return partial_fail(s->err, s->errsize, "%s: maximum %g at position %llu is not a maximum of these inputs",
                    what, m->value, (unsigned long long)m->seq);
    return 0;
}

/* The inputs of a near-tie list's entries: within the shard, their encodings those of their
 * positions (all and range domains). NULL, or what is wrong. */
static const char *check_entries(const span *s, const near_entry *e, uint32_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!seq_ok(s, e[i].seq)) return "an entry outside the shard's inputs";
        if (s->domain->kind == DOMAIN_ALL && e[i].bits != (uint32_t)e[i].seq)
            return "an entry's input is not the one at its position";
        if (s->domain->kind == DOMAIN_RANGE && e[i].bits != range_bits(s->domain, e[i].seq))
            return "an entry's input is not the one at its position";
    }
    return NULL;
}

/* A near-tie list (near.h): its own invariants, its inputs within the shard and their encodings
 * those of their positions (all and range domains); for ULP and absolute errors (whose bounds
 * hold the computed value), the floor at most the computed maximum, whose input is among the
 * entries unless some were resolved or dropped. */
static int check_near(const span *s, const near_list *l, const arg_max *top, uint64_t count,
                      const char *what, const char *kind, bool holds_computed)
{
    const char *bad = near_check(l);
    if (!bad && l->resolved > count) bad = "more entries resolved than inputs";
    /* (No "floor at most the computed maximum": past the upper thresholds a point's error bounds
     * come from |f(−x)|, not from the stand-in hi = x, lo = ∓2^-1074 the computed errors use, so
     * there the floor can exceed the computed maximum: a shard wholly past x = 16 had it.) */
    if (!bad && (top->seq == UINT64_MAX) != (l->n == 0)) bad = "entries without a maximum, or the reverse";
    bool found = false;
    for (size_t i = 0; i < l->n; i++) found |= l->e[i].seq == top->seq;
    if (!bad) bad = check_entries(s, l->e, l->n);
    if (!bad && holds_computed && l->n && !found && l->dropped == -INFINITY && l->resolved == 0)
        bad = "the computed maximum's input is not among the entries";
    if (bad)
        return partial_fail(s->err, s->errsize, "%s near ties of the %s: %s", what, kind, bad);
    return 0;
}

/* The x buckets' lists of a row (near.h's near_bucket): their own invariants, their inputs
 * within the shard and in their bucket, and a computed maximum in every bucket with entries. */
static int check_xlists(const span *s, const error_metrics *e, uint64_t count, const char *what)
{
    static const char *const kind[X_KINDS] = {"ULP", "abs"};
    for (int k = 0; k < X_KINDS; k++)
        for (int b = 0; b < X_BUCKETS; b++) {
            const near_bucket *l = &e->x_near[k][b];
            const double *x_max = k == ERR_ULP ? e->x_max_ulp : e->x_max_abs;
            const char *bad = near_bucket_check(l);
            if (!bad && l->resolved > count) bad = "more entries resolved than inputs";
            if (!bad && l->n > 0 && x_max[b] == -INFINITY) bad = "entries in a bucket without a maximum";
            if (!bad) bad = check_entries(s, l->e, l->n);
            for (size_t i = 0; !bad && i < l->n; i++)
                if (x_bucket_of(float_from_bits(l->e[i].bits)) != b) bad = "an entry's input is in another bucket";
            if (bad)
                return partial_fail(s->err, s->errsize, "%s near ties of x bucket %d's max %s: %s", what, b,
                            kind[k], bad);
        }
    return 0;
}

static int check_error_row(const span *s, const error_metrics *e, uint64_t count, const char *what)
{
    char sub[200];
    if (e->count != count)
        return partial_fail(s->err, s->errsize, "%s: %llu inputs counted where the run has %llu", what,
                    (unsigned long long)e->count, (unsigned long long)count);
    uint64_t hist = 0;
    for (int r = 0; r < RANGE_COUNT; r++)
        for (int b = 0; b < HIST_BUCKETS; b++) {
            if (e->hist[r][b] > count - hist)
                return partial_fail(s->err, s->errsize, "%s: the ULP histogram holds more than the %llu inputs",
                            what, (unsigned long long)count);
            hist += e->hist[r][b];
        }
    if (hist != count)
        return partial_fail(s->err, s->errsize, "%s: the ULP histogram holds %llu inputs, not %llu", what,
                    (unsigned long long)hist, (unsigned long long)count);
    if (e->finite > count || e->correctly_rounded > count || e->benchdnn_failed > count ||
        e->xnnpack_checked > count || e->xnnpack_failed > e->xnnpack_checked)
        return partial_fail(s->err, s->errsize, "%s: a count (finite, correctly rounded, criteria) exceeds the %llu inputs",
                    what, (unsigned long long)count);
    /* each finite error adds at most 2^30 ULP in units of 2^-20: sum <= finite·2^50 */
    uint64_t cap_hi = e->finite >> 14, cap_lo = e->finite << 50;
    if (e->ulp_sum_hi > cap_hi || (e->ulp_sum_hi == cap_hi && e->ulp_sum_lo > cap_lo))
        return partial_fail(s->err, s->errsize, "%s: the ULP sum exceeds its cap for %llu inputs", what,
                    (unsigned long long)e->finite);
    snprintf(sub, sizeof sub, "%s max ULP", what);
    if (check_arg_max(s, &e->max_ulp, sub)) return -1;
    snprintf(sub, sizeof sub, "%s max abs", what);
    if (check_arg_max(s, &e->max_abs, sub)) return -1;
    snprintf(sub, sizeof sub, "%s max rel", what);
    if (check_arg_max(s, &e->max_rel, sub)) return -1;
    for (int b = 0; b < X_BUCKETS; b++)
        if (isnan(e->x_max_ulp[b]) || isnan(e->x_max_abs[b]) || e->x_max_ulp[b] > e->max_ulp.value ||
            e->x_max_abs[b] > e->max_abs.value)
            return partial_fail(s->err, s->errsize, "%s: x bucket %d's maximum exceeds the row's", what, b);
    /* the weighted sums: the weight at most the distribution's mass (1, with each weight's
     * rounding: 2^-40) over the finite inputs, each term at most its weight's times the cap */
    for (int d = 0; d < DIST_COUNT; d++) {
        const dist_sums *w = &e->dist[d];
        u128 most = ((u128)1 << 70) + ((u128)1 << 33);
        if (w->weight > most || w->ulp > w->weight * ((u128)1 << 57) || w->abs > w->ulp)
            return partial_fail(s->err, s->errsize, "%s: the %s-weighted sums exceed their bounds", what,
                        input_dist_name((input_dist)d));
    }
    static const char *const kind[ERR_KINDS] = {"max ULP", "max abs", "max rel"};
    const arg_max *top[ERR_KINDS] = {&e->max_ulp, &e->max_abs, &e->max_rel};
    for (int k = 0; k < ERR_KINDS; k++)
        if (check_near(s, &e->near[k], top[k], count, what, kind[k], k != ERR_REL)) return -1;
    return check_xlists(s, e, count, what);
}

static int check_impl(const span *s, const scan_result *r, size_t i)
{
    const impl_metrics *m = &r->metrics[i];
    const char *name = r->impls[i]->name;
    char what[160];
    for (int ref = 0; ref < REF_KINDS; ref++)
        for (int d = 0; d < DIR_COUNT; d++) {
            bool row = (ref == REF_OWN || scan_has_exact_row(r->impls[i])) &&
                       d < scan_directions(r->impls[i], r->grad);
            snprintf(what, sizeof what, "%s %s vs %s", name, d == DIR_FORWARD ? "forward" : "derivative",
                     ref == REF_OWN ? "own target" : "exact");
            if (check_error_row(s, &m->err[ref][d], row ? r->inputs : 0, what)) return -1;
        }
    const mono_metrics *mo = &m->mono;
    snprintf(what, sizeof what, "%s monotonicity", name);
    if (mo->violations > r->inputs || mo->nlisted > MONO_LISTED || mo->nlisted > mo->violations ||
        (mo->violations > 0 && mo->nlisted < (mo->violations < MONO_LISTED ? mo->violations : MONO_LISTED)))
        return partial_fail(s->err, s->errsize, "%s: %llu violations with %zu listed", what,
                    (unsigned long long)mo->violations, mo->nlisted);
    for (size_t k = 0; k < mo->nlisted; k++)
        if (!seq_ok(s, mo->listed_seq[k]) || (k && mo->listed_seq[k] <= mo->listed_seq[k - 1]))
            return partial_fail(s->err, s->errsize, "%s: listed violation %zu is out of order or outside the inputs", what, k + 1);
    if (check_arg_max(s, &mo->largest, what)) return -1;
    if ((mo->largest.seq == UINT64_MAX) != (mo->violations == 0))
        return partial_fail(s->err, s->errsize, "%s: a largest step without a violation, or the reverse", what);
    const sign_metrics *sg = &m->sign;
    if (sg->violations > r->inputs || (sg->violations == 0) != (sg->first_seq == UINT64_MAX) ||
        (sg->violations && !seq_ok(s, sg->first_seq)))
        return partial_fail(s->err, s->errsize, "%s derivative sign: %llu violations, the first at position %llu",
                    name, (unsigned long long)sg->violations, (unsigned long long)sg->first_seq);
    const impl_extras *e = &r->extras[i];
    for (int d = 0; d < DIR_COUNT; d++)
        if (e->nspecial_failed[d] > CONTRACT_SPECIAL_COUNT ||
            ((!r->has_extras || d >= scan_directions(r->impls[i], r->grad)) && e->nspecial_failed[d]))
            return partial_fail(s->err, s->errsize, "%s: %zu special values failed of %d", name,
                        e->nspecial_failed[d], CONTRACT_SPECIAL_COUNT);
    if ((scan_directions(r->impls[i], r->grad) < DIR_COUNT || !r->has_extras) &&
        (e->consistency_max_rel != 0 || e->consistency_x != 0))
        return partial_fail(s->err, s->errsize, "%s: a consistency figure where none was measured", name);
    return 0;
}

int scan_result_check(const scan_result *r, bool whole, char *err, size_t errsize)
{
    span s = {0, 0, &r->domain, err, errsize};
    if (r->nimpls == 0 || !r->impls || !r->metrics || !r->extras)
        return partial_fail(err, errsize, "%zu implementations", r->nimpls);
    if (whole ? (s.end = scan_domain_size(&r->domain)) == 0
              : scan_shard_span(&r->domain, r->shard_k, r->shard_n, &s.first, &s.end) != 0)
        return partial_fail(err, errsize, "the domain is empty, or shard %u/%u does not exist",
                    r->shard_k + 1, r->shard_n);
    if (r->inputs != s.end - s.first)
        return partial_fail(err, errsize, "%llu inputs, but %s of this domain has %llu",
                    (unsigned long long)r->inputs, whole ? "the whole" : "this shard",
                    (unsigned long long)(s.end - s.first));
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++)
            if (r->fallbacks[t][d] > r->refs[t][d] || r->refs[t][d] > r->inputs)
                return partial_fail(err, errsize, "%s %s: %llu MPFR fallbacks of %llu references for %llu inputs",
                            gelu_target_name((gelu_target)t), d == DIR_FORWARD ? "forward" : "derivative",
                            (unsigned long long)r->fallbacks[t][d], (unsigned long long)r->refs[t][d],
                            (unsigned long long)r->inputs);
    for (size_t i = 0; i < r->nimpls; i++)
        if (check_impl(&s, r, i) != 0) return -1;
    return 0;
}
