/* Scan results: allocation, copies, the input at a position; merging the results of threads
 * and shards (integer counts and sums, maxima with their first input: the same bits in any
 * order); and the gate, each implementation's result held against its declared contract
 * (scan_contract_violations). */
#include "scan_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* impl_metrics_merge, with the near-tie lists (whose overflow needs the implementation). */
static void merge_impl_metrics(const gelu_impl *impl, gelu_fpenv env, impl_metrics *dst,
                               const impl_metrics *src)
{
    impl_metrics_merge(dst, src);
    for (int ref = 0; ref < REF_KINDS; ref++) {
        gelu_target t = ref == REF_OWN ? impl->target : GELU_TARGET_EXACT;
        for (int d = 0; d < DIR_COUNT; d++)
            for (int k = 0; k < ERR_KINDS; k++) {
                refine_ctx c = {impl, t, d, (error_kind)k, NULL, env};
                near_resolver r = refine_resolver(&c);
                error_metrics *de = &dst->err[ref][d];
                const error_metrics *se = &src->err[ref][d];
                near_merge(&de->near[k], &se->near[k], &r);
                for (int b = 0; k < X_KINDS && b < X_BUCKETS; b++)
                    if (se->x_near[k][b].floor != -INFINITY) /* (an untouched bucket adds nothing) */
                        near_bucket_merge(&de->x_near[k][b], &se->x_near[k][b], &r);
            }
    }
}

/* src's metrics, inputs, reference and fallback counts added into dst (same implementations). */
void merge_counts(scan_result *dst, const scan_result *src)
{
    for (size_t i = 0; i < dst->nimpls; i++)
        merge_impl_metrics(dst->impls[i], dst->fpenv, &dst->metrics[i], &src->metrics[i]);
    dst->inputs += src->inputs;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int d = 0; d < DIR_COUNT; d++) {
            dst->refs[t][d] += src->refs[t][d];
            dst->fallbacks[t][d] += src->fallbacks[t][d];
        }
}

int scan_result_alloc(scan_result *r, size_t nimpls)
{
    scan_result_release(r);
    r->impls = calloc(nimpls, sizeof *r->impls);
    r->metrics = calloc(nimpls, sizeof *r->metrics);
    r->extras = calloc(nimpls, sizeof *r->extras);
    if (!r->impls || !r->metrics || !r->extras) {
        scan_result_release(r);
        return -1;
    }
    r->nimpls = nimpls;
    return 0;
}

void scan_result_release(scan_result *r)
{
    free(r->impls);
    free(r->metrics);
    free(r->extras);
    free(r->x64);
    r->impls = NULL;
    r->metrics = NULL;
    r->extras = NULL;
    r->x64 = NULL;
    r->nimpls = 0;
}

int scan_result_copy(scan_result *dst, const scan_result *src)
{
    if (scan_result_alloc(dst, src->nimpls) != 0) return -1;
    uint64_t *x64 = NULL;
    if (src->x64 && !(x64 = malloc(src->inputs * sizeof *x64))) {
        scan_result_release(dst);
        return -1;
    }
    scan_result copy = *src;
    copy.impls = dst->impls;
    copy.metrics = dst->metrics;
    copy.extras = dst->extras;
    copy.x64 = x64;
    memcpy(copy.impls, src->impls, src->nimpls * sizeof *copy.impls);
    memcpy(copy.metrics, src->metrics, src->nimpls * sizeof *copy.metrics);
    memcpy(copy.extras, src->extras, src->nimpls * sizeof *copy.extras);
    if (x64) memcpy(x64, src->x64, src->inputs * sizeof *x64);
    *dst = copy;
    return 0;
}

double scan_result_input(const scan_result *r, uint64_t seq, uint32_t bits)
{
    if (r->x64 && seq < r->inputs) {
        double x;
        memcpy(&x, &r->x64[seq], sizeof x);
        return x;
    }
    return float_from_bits(bits);
}

const char *scan_result_input_text(const scan_result *r, uint64_t seq, uint32_t bits, char *buf,
                                   size_t size)
{
    if (r->x64 && seq < r->inputs)
        snprintf(buf, size, "%a (0x%016llx)", scan_result_input(r, seq, bits),
                 (unsigned long long)r->x64[seq]);
    else
        snprintf(buf, size, "%a (0x%08x)", (double)float_from_bits(bits), bits);
    return buf;
}

void scan_result_free(scan_result *r)
{
    if (!r) return;
    scan_result_release(r);
    free(r);
}

int scan_directions(const gelu_impl *impl, bool grad)
{
    /* a 16-bit native's derivative is its derivative_u16 (a widened row's, its binary32 one),
     * a binary64 row's its derivative_f64 */
    return grad && (impl->derivative || impl->derivative_u16 || impl->derivative_f64) ? DIR_COUNT : 1;
}

static bool same_domain(const scan_domain *a, const scan_domain *b)
{
    return a->kind == b->kind &&
           (a->kind != DOMAIN_RANGE ||
            (float_bits(a->lo) == float_bits(b->lo) && float_bits(a->hi) == float_bits(b->hi))) &&
           (a->kind != DOMAIN_SAMPLE || (a->n == b->n && a->seed == b->seed)) &&
           (a->kind != DOMAIN_LIST || (a->n == b->n && a->list == b->list));
}

int scan_result_merge(scan_result *dst, const scan_result *src, const char **error)
{
    bool same = dst->nimpls == src->nimpls && dst->grad == src->grad &&
                dst->shard_n == src->shard_n && same_domain(&dst->domain, &src->domain);
    for (size_t i = 0; same && i < dst->nimpls; i++) same = dst->impls[i] == src->impls[i];
    if (!same) {
        *error = "not parts of the same run (implementations, domain, --grad or shard count differ)";
        return -1;
    }
    if (dst->fpenv != src->fpenv) {
        static _Thread_local char why[160];
        snprintf(why, sizeof why, "not parts of the same run: its --fpenv is %s, the other part's %s "
                 "(kernels and references differ)", gelu_fpenv_name(src->fpenv),
                 gelu_fpenv_name(dst->fpenv));
        *error = why;
        return -1;
    }
    merge_counts(dst, src);
    if (src->has_extras) {
        dst->has_extras = true;
        memcpy(dst->extras, src->extras, dst->nimpls * sizeof *dst->extras);
    }
    if (src->shard_k < dst->shard_k) dst->shard_k = src->shard_k;
    return 0;
}

int scan_contract_violations(const scan_result *r, size_t i, char *buf, size_t size)
{
    const gelu_impl *impl = r->impls[i];
    const gelu_contract *c = &impl->contract;
    const impl_metrics *m = &r->metrics[i];
    int broken = 0;
    char xt[64];
    buf[0] = '\0';
#define BREAK(...)                                                                                 \
    do {                                                                                           \
        if (broken++ == 0) snprintf(buf, size, __VA_ARGS__);                                       \
    } while (0)
    for (int d = 0; d < scan_directions(impl, r->grad); d++) {
        const error_metrics *e = &m->err[REF_OWN][d];
        const char *dir = d == DIR_FORWARD ? "forward" : "derivative";
        double max_ulp = d == DIR_FORWARD ? c->max_ulp : c->grad_max_ulp;
        double max_abs = d == DIR_FORWARD ? c->max_abs : c->grad_max_abs;
        /* One wrong encoding has an error above ½ ULP, the largest of a correctly rounded
         * result (exact ties do not occur), so the max ULP's input is a wrong one. */
        if (c->correctly_rounded && e->correctly_rounded != e->count)
            BREAK("%s %s: %llu of %llu outputs not correctly rounded, the worst %.6g ULP at x = %s",
                  impl->name, dir, (unsigned long long)(e->count - e->correctly_rounded),
                  (unsigned long long)e->count, e->max_ulp.value,
                  scan_result_input_text(r, e->max_ulp.seq, e->max_ulp.bits, xt, sizeof xt));
        if (e->count && !(e->max_ulp.value <= max_ulp))
            BREAK("%s %s: max ULP error %.6g > claimed %g at x = %s", impl->name, dir,
                  e->max_ulp.value, max_ulp,
                  scan_result_input_text(r, e->max_ulp.seq, e->max_ulp.bits, xt, sizeof xt));
        if (e->count && !(e->max_abs.value <= max_abs))
            BREAK("%s %s: max abs error %.6g > claimed %g at x = %s", impl->name, dir,
                  e->max_abs.value, max_abs,
                  scan_result_input_text(r, e->max_abs.seq, e->max_abs.bits, xt, sizeof xt));
        /* near ties past the MPFR budget (near.h): the maximum could be up to `dropped` */
        if (e->count && !(e->near[ERR_ULP].dropped <= max_ulp))
            BREAK("%s %s: max ULP error not decided (near ties past the MPFR budget): up to %.6g > "
                  "claimed %g", impl->name, dir, e->near[ERR_ULP].dropped, max_ulp);
        if (e->count && !(e->near[ERR_ABS].dropped <= max_abs))
            BREAK("%s %s: max abs error not decided (near ties past the MPFR budget): up to %.6g > "
                  "claimed %g", impl->name, dir, e->near[ERR_ABS].dropped, max_abs);
    }
    if (c->monotone && m->mono.violations)
        BREAK("%s: %llu monotonicity violations, the first at x = %s", impl->name,
              (unsigned long long)m->mono.violations,
              scan_result_input_text(r, m->mono.listed_seq[0], m->mono.listed_bits[0], xt,
                                     sizeof xt));
    for (int d = 0; r->has_extras && c->specials && d < scan_directions(impl, r->grad); d++) {
        const impl_extras *e = &r->extras[i];
        if (e->nspecial_failed[d])
            BREAK("%s %s: special value wrong at x = %a (0x%08x): expected 0x%08x, got 0x%08x",
                  impl->name, d == DIR_FORWARD ? "forward" : "derivative",
                  (double)e->special_failed[d][0].x, float_bits(e->special_failed[d][0].x),
                  float_bits(e->special_failed[d][0].expected),
                  float_bits(e->special_failed[d][0].actual));
    }
#undef BREAK
    return broken;
}
