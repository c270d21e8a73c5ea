/* Near ties of a maximum: the list of inputs that could be it (see near.h). */
#include "near.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* A list of either size (near_list, near_bucket) as its fields, its room and its budget: the
 * one implementation of both. */
typedef struct {
    double *floor, *dropped;
    uint32_t *n, *resolved;
    near_entry *e;
    uint32_t cap, budget;
} near_view;

static near_view view_of(near_list *l)
{
    return (near_view){&l->floor, &l->dropped, &l->n, &l->resolved, l->e, NEAR_MAX, NEAR_BUDGET};
}

static near_view view_of_bucket(near_bucket *l)
{
    return (near_view){&l->floor, &l->dropped, &l->n, &l->resolved, l->e, NEAR_BUCKET_MAX,
                       NEAR_BUCKET_BUDGET};
}

static void init(near_view l)
{
    memset(l.e, 0, l.cap * sizeof l.e[0]);
    *l.n = *l.resolved = 0;
    *l.floor = -INFINITY;
    *l.dropped = -INFINITY;
}

/* a drops b: a is certainly above b, or certainly at least as large and earlier. */
static bool drops(const near_entry *a, const near_entry *b)
{
    return a->lower > b->upper || (a->lower >= b->upper && a->seq < b->seq);
}

/* The list's order: upper bound descending, then position. */
static bool before(const near_entry *a, const near_entry *b)
{
    return a->upper > b->upper || (a->upper == b->upper && a->seq < b->seq);
}

/* The list cut to its first n entries (the rest zeroed: the bits depend on the entries only). */
static void set_count(near_view l, size_t n)
{
    memset(&l.e[n], 0, (*l.n > n ? *l.n - n : 0) * sizeof l.e[0]);
    *l.n = (uint32_t)n;
}

/* Keeps the entries that reach the floor and that no other entry drops. */
static void prune(near_view l)
{
    if (*l.dropped < *l.floor) *l.dropped = -INFINITY;
    size_t k = 0;
    for (size_t i = 0; i < *l.n; i++) {
        bool keep = l.e[i].upper >= *l.floor;
        for (size_t j = 0; keep && j < *l.n; j++) keep = j == i || !drops(&l.e[j], &l.e[i]);
        if (keep) l.e[k++] = l.e[i];
    }
    set_count(l, k);
}

static void raise_floor(near_view l, double lower)
{
    if (lower > *l.floor) {
        *l.floor = lower;
        prune(l);
    }
}

/* Every entry's interval made its MPFR value; then the best one drops the others. */
static void resolve_entries(near_view l, const near_resolver *r)
{
    for (size_t i = 0; i < *l.n; i++) {
        near_entry *e = &l.e[i];
        if (e->lower == e->upper) continue;
        double v = r->exact(r->ctx, e->bits, e->out);
        e->lower = e->upper = v;
        (*l.resolved)++;
    }
    /* exact values: re-sort (insertion sort, at most NEAR_MAX entries) */
    for (size_t i = 1; i < *l.n; i++)
        for (size_t j = i; j > 0 && before(&l.e[j], &l.e[j - 1]); j--) {
            near_entry t = l.e[j];
            l.e[j] = l.e[j - 1];
            l.e[j - 1] = t;
        }
    double best = -INFINITY;
    for (size_t i = 0; i < *l.n; i++) best = l.e[i].lower > best ? l.e[i].lower : best;
    *l.floor = best > *l.floor ? best : *l.floor;
    prune(l);
}

static bool rejects(near_view l, double upper)
{
    if (upper < *l.floor) return true;
    for (size_t i = 0; i < *l.n; i++)
        if (l.e[i].lower >= upper) return true; /* the entry is earlier */
    return false;
}

static void insert(near_view l, const near_entry *in, const near_resolver *r)
{
    if (in->upper < *l.floor || isnan(in->upper) || isnan(in->lower)) return;
    for (size_t i = 0; i < *l.n; i++)
        if (drops(&l.e[i], in) || l.e[i].seq == in->seq) return; /* or already there */
    raise_floor(l, in->lower);
    size_t k = 0; /* the entries the new one drops go */
    for (size_t i = 0; i < *l.n; i++)
        if (!drops(in, &l.e[i])) l.e[k++] = l.e[i];
    set_count(l, k);
    if (*l.n == l.cap && *l.resolved >= l.budget) { /* drop the last (lowest upper) */
        near_entry *last = &l.e[*l.n - 1];
        if (before(last, in)) { /* the new one is the last */
            *l.dropped = in->upper > *l.dropped ? in->upper : *l.dropped;
            return;
        }
        *l.dropped = last->upper > *l.dropped ? last->upper : *l.dropped;
        set_count(l, *l.n - 1);
    }
    if (*l.n == l.cap) {
        resolve_entries(l, r); /* leaves one entry: the best resolved */
        for (size_t i = 0; i < *l.n; i++)
            if (drops(&l.e[i], in)) return;
        k = 0;
        for (size_t i = 0; i < *l.n; i++)
            if (!drops(in, &l.e[i])) l.e[k++] = l.e[i];
        set_count(l, k);
    }
    size_t at = *l.n;
    while (at > 0 && before(in, &l.e[at - 1])) {
        l.e[at] = l.e[at - 1];
        at--;
    }
    l.e[at] = *in;
    (*l.n)++;
}

static void merge(near_view dst, near_view src, const near_resolver *r)
{
    *dst.dropped = *src.dropped > *dst.dropped ? *src.dropped : *dst.dropped;
    raise_floor(dst, *src.floor);
    if (*dst.dropped < *dst.floor) *dst.dropped = -INFINITY;
    *dst.resolved += *src.resolved;
    for (size_t i = 0; i < *src.n; i++) insert(dst, &src.e[i], r);
}

static int resolve_all(near_view l, const near_resolver *r)
{
    if (*l.n == 0) return -1;
    resolve_entries(l, r);
    return 0;
}

static const char *check(near_view l)
{
    if (*l.n > l.cap) return "more entries than the list holds";
    /* +inf is a floor: an input's error certainly infinite (a derivative's ULP error where it
     * returns inf and the exact value is finite: tanh_libm's over the whole domain) */
    if (isnan(*l.floor)) return "the floor is not a number";
    if ((*l.n == 0) != (*l.floor == -INFINITY)) return "entries without a floor, or a floor without entries";
    if (isnan(*l.dropped) || (*l.dropped != -INFINITY && *l.dropped < *l.floor))
        return "a dropped bound below the floor";
    static const near_entry zero;
    for (size_t i = *l.n; i < l.cap; i++)
        if (memcmp(&l.e[i], &zero, sizeof zero) != 0) return "an unused entry is not zero";
    for (size_t i = 0; i < *l.n; i++) {
        const near_entry *e = &l.e[i];
        if (isnan(e->lower) || isnan(e->upper) || e->lower > e->upper || e->lower < 0)
            return "an entry's bounds are not an interval of errors";
        if (e->upper < *l.floor || e->lower > *l.floor) return "an entry outside the floor";
        if (i > 0 && !before(&l.e[i - 1], e)) return "entries out of order";
        for (size_t j = 0; j < *l.n; j++)
            if (j != i && drops(&l.e[j], e)) return "an entry that another one rules out";
    }
    return NULL;
}

/* ---- the row's lists */

void near_init(near_list *l) { init(view_of(l)); }

void near_add(near_list *l, double lower, double upper, uint64_t seq, uint32_t bits, uint32_t out,
              const near_resolver *r)
{
    near_entry in = {lower, upper, seq, bits, out};
    insert(view_of(l), &in, r);
}

void near_merge(near_list *dst, const near_list *src, const near_resolver *r)
{
    merge(view_of(dst), view_of((near_list *)src), r); /* src is only read */
}

void near_raise_floor(near_list *l, double lower) { raise_floor(view_of(l), lower); }

bool near_rejects(const near_list *l, double upper) { return rejects(view_of((near_list *)l), upper); }

int near_resolve_all(near_list *l, const near_resolver *r) { return resolve_all(view_of(l), r); }

const char *near_check(const near_list *l) { return check(view_of((near_list *)l)); }

/* ---- the buckets' lists */

void near_bucket_init(near_bucket *l) { init(view_of_bucket(l)); }

void near_bucket_add(near_bucket *l, double lower, double upper, uint64_t seq, uint32_t bits,
                     uint32_t out, const near_resolver *r)
{
    near_entry in = {lower, upper, seq, bits, out};
    insert(view_of_bucket(l), &in, r);
}

void near_bucket_merge(near_bucket *dst, const near_bucket *src, const near_resolver *r)
{
    merge(view_of_bucket(dst), view_of_bucket((near_bucket *)src), r);
}

void near_bucket_raise_floor(near_bucket *l, double lower) { raise_floor(view_of_bucket(l), lower); }

bool near_bucket_rejects(const near_bucket *l, double upper)
{
    return rejects(view_of_bucket((near_bucket *)l), upper);
}

int near_bucket_resolve_all(near_bucket *l, const near_resolver *r)
{
    return resolve_all(view_of_bucket(l), r);
}

const char *near_bucket_check(const near_bucket *l) { return check(view_of_bucket((near_bucket *)l)); }
