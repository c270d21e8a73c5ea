/* The maxima of a scan made MPFR's, from the near-tie lists (see refine.h). */
#include "refine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

double refine_mpfr_error(gelu_target t, int d, uint32_t bits, float y, error_kind k, gelu_fpenv env)
{
    float x = float_from_bits(bits);
    mpfr_t exact;
    mpfr_init2(exact, REF_EXACT_PREC);
    ref_eval_fpenv(t, d == DIR_DERIVATIVE, x, env, exact);
    double e = k == ERR_ULP ? ref_ulp_error(y, exact)
               : k == ERR_ABS ? ref_abs_error(y, exact)
                              : ref_rel_error(y, exact);
    mpfr_clear(exact);
    return e;
}

/* An open-addressing table of MPFR values keyed by (target, direction, input), growing by
 * doubling at half full. */
struct refine_cache {
    size_t cap, n;
    uint64_t *key; /* key + 1; 0: empty */
    mpfr_t *value;
    bool failed; /* out of memory once: evaluate without the table */
    gelu_fpenv fpenv; /* the run's environment: every value is ref_eval_fpenv's in it */
};

static uint64_t cache_key(gelu_target t, int d, uint32_t bits)
{
    return ((uint64_t)t << 33 | (uint64_t)d << 32 | bits) + 1;
}

static size_t cache_slot(const refine_cache *c, uint64_t key)
{
    size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (c->cap - 1);
    while (c->key[i] && c->key[i] != key) i = (i + 1) & (c->cap - 1);
    return i;
}

static void cache_free(refine_cache *c)
{
    for (size_t i = 0; i < c->cap; i++)
        if (c->key[i]) mpfr_clear(c->value[i]);
    free(c->key);
    free(c->value);
    c->key = NULL;
    c->value = NULL;
    c->cap = c->n = 0;
}

static bool cache_grow(refine_cache *c)
{
    refine_cache bigger = {c->cap ? 2 * c->cap : 1024, 0, NULL, NULL, false, c->fpenv};
    bigger.key = calloc(bigger.cap, sizeof *bigger.key);
    bigger.value = malloc(bigger.cap * sizeof *bigger.value);
    if (!bigger.key || !bigger.value) {
        free(bigger.key);
        free(bigger.value);
        return false;
    }
    for (size_t i = 0; i < c->cap; i++)
        if (c->key[i]) {
            size_t j = cache_slot(&bigger, c->key[i]);
            bigger.key[j] = c->key[i];
            memcpy(bigger.value[j], c->value[i], sizeof(mpfr_t)); /* moved, not copied */
            bigger.n++;
        }
    free(c->key);
    free(c->value);
    *c = bigger;
    return true;
}

/* The exact value at x of target t in direction d, evaluated once per cache. NULL when the
 * table cannot grow. */
static mpfr_ptr cache_value(refine_cache *c, gelu_target t, int d, uint32_t bits)
{
    if (c->failed || (2 * (c->n + 1) > c->cap && !cache_grow(c))) {
        c->failed = true;
        return NULL;
    }
    uint64_t key = cache_key(t, d, bits);
    size_t i = cache_slot(c, key);
    if (!c->key[i]) {
        mpfr_init2(c->value[i], REF_EXACT_PREC);
        ref_eval_fpenv(t, d == DIR_DERIVATIVE, float_from_bits(bits), c->fpenv, c->value[i]);
        c->key[i] = key;
        c->n++;
    }
    return c->value[i];
}

static double resolve(const void *ctx, uint32_t bits, uint32_t out)
{
    const refine_ctx *c = ctx;
    mpfr_ptr exact = c->cache ? cache_value(c->cache, c->t, c->d, bits) : NULL;
    if (!exact) return refine_mpfr_error(c->t, c->d, bits, float_from_bits(out), c->k, c->fpenv);
    float y = float_from_bits(out);
    return c->k == ERR_ULP ? ref_ulp_error(y, exact)
           : c->k == ERR_ABS ? ref_abs_error(y, exact)
                             : ref_rel_error(y, exact);
}

near_resolver refine_resolver(const refine_ctx *ctx) { return (near_resolver){resolve, ctx}; }

/* Each x bucket's maximum x_max[b] from its list xl[b]: the largest MPFR error of its entries
 * (a bucket without entries has no finite input, or comes from a 16-bit scan whose maxima are
 * MPFR's already: kept). */
static void refine_buckets(double *x_max, near_bucket *xl, const refine_ctx *c)
{
    near_resolver r = refine_resolver(c);
    for (int b = 0; b < X_BUCKETS; b++) {
        uint32_t resolved = xl[b].resolved; /* counts the scan's overflows only */
        if (near_bucket_resolve_all(&xl[b], &r) != 0) continue;
        xl[b].resolved = resolved;
        x_max[b] = xl[b].e[0].lower; /* the only entry left */
    }
}

/* The maximum a from the list l (x_max: its x buckets' maxima, refined before; NULL for none). */
static void refine(arg_max *a, near_list *l, double *x_max, const refine_ctx *c)
{
    near_resolver r = refine_resolver(c);
    uint32_t resolved = l->resolved; /* counts the scan's overflows only */
    if (near_resolve_all(l, &r) != 0) return; /* no finite input */
    l->resolved = resolved;
    const near_entry *best = &l->e[0]; /* the only entry left: largest, first on a tie */
    a->value = best->lower;
    a->seq = best->seq;
    a->bits = best->bits;
    if (!x_max) return;
    /* The buckets' values are MPFR's errors of inputs of the row, so at most its maximum, and
     * the maximum's bucket holds it; both are restated here for a bucket whose list went past
     * its budget (its value is then the best entry kept, near.h). */
    for (int b = 0; b < X_BUCKETS; b++) x_max[b] = x_max[b] > a->value ? a->value : x_max[b];
    int b = x_bucket_of(float_from_bits(a->bits));
    if (b != X_BUCKET_NONE) x_max[b] = a->value;
}

void scan_refine_maxima(scan_result *r)
{
    refine_cache cache = {.fpenv = r->fpenv};
    for (size_t i = 0; i < r->nimpls; i++) {
        const gelu_impl *m = r->impls[i];
        for (int ref = 0; ref < REF_KINDS; ref++) {
            if (ref == REF_EXACT && !scan_has_exact_row(m)) continue;
            gelu_target t = ref == REF_OWN ? m->target : GELU_TARGET_EXACT;
            for (int d = 0; d < (r->grad ? DIR_COUNT : 1); d++) {
                error_metrics *e = &r->metrics[i].err[ref][d];
                if (e->count == 0) continue;
                refine_ctx c[ERR_KINDS] = {{m, t, d, ERR_ULP, &cache, r->fpenv},
                                           {m, t, d, ERR_ABS, &cache, r->fpenv},
                                           {m, t, d, ERR_REL, &cache, r->fpenv}};
                refine_buckets(e->x_max_ulp, e->x_near[ERR_ULP], &c[ERR_ULP]);
                refine_buckets(e->x_max_abs, e->x_near[ERR_ABS], &c[ERR_ABS]);
                refine(&e->max_ulp, &e->near[ERR_ULP], e->x_max_ulp, &c[ERR_ULP]);
                refine(&e->max_abs, &e->near[ERR_ABS], e->x_max_abs, &c[ERR_ABS]);
                refine(&e->max_rel, &e->near[ERR_REL], NULL, &c[ERR_REL]);
            }
        }
    }
    cache_free(&cache);
}
