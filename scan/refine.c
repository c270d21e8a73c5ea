/* The maxima of a scan made MPFR's, from the near-tie lists (see refine.h). */
#include "refine.h"

#include <math.h>

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

static double resolve(const void *ctx, uint32_t bits, uint32_t out)
{
    const refine_ctx *c = ctx;
    return refine_mpfr_error(c->t, c->d, bits, float_from_bits(out), c->k, c->fpenv);
}

near_resolver refine_resolver(const refine_ctx *ctx) { return (near_resolver){resolve, ctx}; }

/* The maximum a from the list l (x_max: its x buckets' maxima, NULL for none). */
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
    for (int b = 0; b < X_BUCKETS; b++) x_max[b] = x_max[b] > a->value ? a->value : x_max[b];
    int b = x_bucket_of(float_from_bits(a->bits));
    if (b != X_BUCKET_NONE) x_max[b] = a->value;
}

void scan_refine_maxima(scan_result *r)
{
    for (size_t i = 0; i < r->nimpls; i++) {
        const gelu_impl *m = r->impls[i];
        for (int ref = 0; ref < REF_KINDS; ref++) {
            if (ref == REF_EXACT && !scan_has_exact_row(m)) continue;
            gelu_target t = ref == REF_OWN ? m->target : GELU_TARGET_EXACT;
            for (int d = 0; d < (r->grad ? DIR_COUNT : 1); d++) {
                error_metrics *e = &r->metrics[i].err[ref][d];
                if (e->count == 0) continue;
                refine_ctx c[ERR_KINDS] = {{m, t, d, ERR_ULP, r->fpenv}, {m, t, d, ERR_ABS, r->fpenv},
                                           {m, t, d, ERR_REL, r->fpenv}};
                refine(&e->max_ulp, &e->near[ERR_ULP], e->x_max_ulp, &c[ERR_ULP]);
                refine(&e->max_abs, &e->near[ERR_ABS], e->x_max_abs, &c[ERR_ABS]);
                refine(&e->max_rel, &e->near[ERR_REL], NULL, &c[ERR_REL]);
            }
        }
    }
}
