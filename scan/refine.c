/* The maxima of a scan recomputed with MPFR at their inputs (see refine.h). */
#include "refine.h"

#include <math.h>

#include "reference.h"

typedef enum { ERR_ULP, ERR_ABS, ERR_REL } error_kind;

/* The error of the implementation's output at the input with encoding bits, against target t
 * (direction d), with MPFR. */
static double mpfr_error(const gelu_impl *m, gelu_target t, int d, uint32_t bits, error_kind k)
{
    float x = float_from_bits(bits), y;
    (d == DIR_FORWARD ? m->forward : m->derivative)(&x, &y, 1);
    mpfr_t exact;
    mpfr_init2(exact, REF_EXACT_PREC);
    ref_eval(t, d == DIR_DERIVATIVE, x, exact);
    double e = k == ERR_ULP ? ref_ulp_error(y, exact)
               : k == ERR_ABS ? ref_abs_error(y, exact)
                              : ref_rel_error(y, exact);
    mpfr_clear(exact);
    return e;
}

/* The maximum a, and its x bucket's maximum (x_max: NULL for none) where that was a's value. */
static void refine(arg_max *a, double *x_max, const gelu_impl *m, gelu_target t, int d, error_kind k)
{
    if (a->seq == UINT64_MAX) return; /* no finite input */
    double v = mpfr_error(m, t, d, a->bits, k);
    int b = x_bucket_of(float_from_bits(a->bits));
    if (x_max && b != X_BUCKET_NONE && x_max[b] == a->value) x_max[b] = v;
    a->value = v;
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
                refine(&e->max_ulp, e->x_max_ulp, m, t, d, ERR_ULP);
                refine(&e->max_abs, e->x_max_abs, m, t, d, ERR_ABS);
                refine(&e->max_rel, NULL, m, t, d, ERR_REL);
            }
        }
    }
}
