/* A block through every row (run_block): its inputs, their weights and runs (block_inputs),
 * the reference values per target and direction (block_shortcuts.c), each row's kernels, rows
 * with identical outputs sharing one row's metrics (share_block, share_settle), and each row's
 * metrics (run_impl, block.c). */
#include "scan_internal.h"

#include <math.h>
#include <string.h>

#include "hot_clones.h"
#include "weights.h"

/* Row i's outputs in direction d at the block's inputs w->x (n + has_prev of them) into out,
 * the time counted as its kernel's. */
static void row_kernel(scan_worker *w, size_t i, int d, size_t n, bool has_prev, uint64_t seq0,
                       float *out)
{
    const gelu_impl *impl = w->sh->cfg->impls[i];
    double t0 = w->profiling ? now_s() : 0;
    const float *batched = w->gy ? w->gy[i * DIR_COUNT + d] : NULL;
    if (batched) /* run by run_group_kernels for the whole group */
        memcpy(out, batched + (seq0 - has_prev - w->gseq), (n + has_prev) * sizeof *out);
    else
        kernel_call_f32(impl, d, w->sh->cfg->fpenv, w->x, out, n + has_prev);
    lap(w, &t0, &w->prof.kernel[i][d]);
    if (w->tap) memcpy(w->tap + (i * DIR_COUNT + (size_t)d) * SCAN_BLOCK, out + has_prev, n * sizeof *out);
}

/* After every row's kernels ran on the block (each row once per direction, by share_block or
 * run_impl, through row_kernel): the outputs of each compared row against its same_as row's. */
static void compare_block(scan_worker *w, size_t n)
{
    const scan_config *cfg = w->sh->cfg;
    for (size_t i = 0; i < cfg->nimpls; i++) {
        if (cfg->same_as[i] < 0) continue;
        size_t k = (size_t)cfg->same_as[i];
        int ndir = scan_directions(cfg->impls[i], cfg->grad);
        if (scan_directions(cfg->impls[k], cfg->grad) < ndir) ndir = scan_directions(cfg->impls[k], cfg->grad);
        for (int d = 0; d < ndir; d++) {
            const float *a = w->tap + (i * DIR_COUNT + (size_t)d) * SCAN_BLOCK;
            const float *b = w->tap + (k * DIR_COUNT + (size_t)d) * SCAN_BLOCK;
            uint64_t c = 0;
            for (size_t j = 0; j < n; j++) c += float_bits(a[j]) != float_bits(b[j]);
            w->differ[i][d] += c;
        }
    }
}

static float *share_outputs(scan_worker *w, size_t i, int d)
{
    return w->sy + (i * DIR_COUNT + (size_t)d) * (SCAN_BLOCK + 1);
}

/* Whether rows i and j can share metrics: same target, directions and rows of metrics. */
static bool share_traits(const scan_config *cfg, size_t i, size_t j)
{
    const gelu_impl *a = cfg->impls[i], *b = cfg->impls[j];
    return a->target == b->target && scan_directions(a, cfg->grad) == scan_directions(b, cfg->grad) &&
           scan_has_exact_row(a) == scan_has_exact_row(b);
}

/* Identical outputs of rows i and j over the block (their bits: the metrics read them so). */
static bool share_same_outputs(scan_worker *w, size_t i, size_t j, size_t m)
{
    for (int d = 0; d < scan_directions(w->sh->cfg->impls[i], w->sh->cfg->grad); d++)
        if (memcmp(share_outputs(w, i, d), share_outputs(w, j, d), m * sizeof(float)) != 0)
            return false;
    return true;
}

/* Before the block's metrics: the groups of the current part formed at its first block (each
 * row with the first earlier one of the same traits and equal metrics), the grouped rows'
 * kernels run into w->sy, and each group split where its outputs differ: a member whose
 * outputs differ from its holder's joins an earlier member that left with the same outputs,
 * or holds its own metrics from now on, starting from the holder's (not yet changed by this
 * block). */
static void share_block(scan_worker *w, size_t n, bool has_prev, uint64_t seq0)
{
    const scan_config *cfg = w->sh->cfg;
    int p = w->part == w->main_part;
    uint32_t *share = w->share[p];
    if (!w->sy) return;
    if (!w->share_formed[p]) {
        w->share_formed[p] = true;
        for (size_t i = 0; i < cfg->nimpls; i++) {
            share[i] = (uint32_t)i;
            for (size_t h = 0; h < i; h++)
                if (share[h] == h && share_traits(cfg, h, i) &&
                    memcmp(&w->part->metrics[h], &w->part->metrics[i], sizeof(impl_metrics)) == 0) {
                    share[i] = (uint32_t)h;
                    break;
                }
        }
    }
    bool any = false;
    memset(w->grouped, 0, cfg->nimpls);
    for (size_t i = 0; i < cfg->nimpls; i++)
        if (share[i] != i) {
            w->grouped[i] = w->grouped[share[i]] = 1;
            any = true;
        }
    if (!any) return;
    for (size_t i = 0; i < cfg->nimpls; i++)
        if (w->grouped[i])
            for (int d = 0; d < scan_directions(cfg->impls[i], cfg->grad); d++)
                row_kernel(w, i, d, n, has_prev, seq0, share_outputs(w, i, d));
    size_t m = n + has_prev;
    memcpy(w->share_was, share, cfg->nimpls * sizeof *share);
    for (size_t i = 0; i < cfg->nimpls; i++) {
        size_t h = share[i];
        if (h == i || share_same_outputs(w, i, h, m)) continue;
        /* i leaves h's group: for an earlier leaver j of it with i's outputs, j holds their
         * metrics now (share[j] = j); else i holds its own */
        size_t j = h + 1;
        for (; j < i; j++)
            if (w->share_was[j] == h && share[j] == j && share_same_outputs(w, i, j, m)) break;
        share[i] = (uint32_t)j;
        if (j == i) memcpy(&w->part->metrics[i], &w->part->metrics[h], sizeof(impl_metrics));
    }
}

/* Every row's metrics in part p where they are (share_block). */
void share_settle(scan_worker *w, scan_result *part, int p)
{
    for (size_t i = 0; w->share_formed[p] && i < w->sh->cfg->nimpls; i++)
        if (w->share[p][i] != i)
            memcpy(&part->metrics[i], &part->metrics[w->share[p][i]], sizeof(impl_metrics));
}

static void run_impl(scan_worker *w, size_t i, size_t n, bool has_prev, uint64_t seq0)
{
    const gelu_impl *impl = w->sh->cfg->impls[i];
    impl_metrics *m = &w->part->metrics[i];
    const float *x = w->x + has_prev;
    float *y = w->y + has_prev;
    double x_min = w->sh->x_min[impl->target];
    bool exact_row = scan_has_exact_row(impl) && impl->target != GELU_TARGET_EXACT;
    gelu_fpenv env = w->sh->cfg->fpenv;
    for (int d = 0; d < scan_directions(impl, w->sh->cfg->grad); d++) {
        if (w->grouped && w->grouped[i]) /* run by share_block */
            memcpy(w->y, share_outputs(w, i, d), (n + has_prev) * sizeof *w->y);
        else
            row_kernel(w, i, d, n, has_prev, seq0, w->y);
        double t0 = w->profiling ? now_s() : 0;
        const point_ref *own = w->ref[impl->target][d];
        if (exact_row) {
            const refine_ctx c[ERR_KINDS] = {{impl, GELU_TARGET_EXACT, d, ERR_ULP, NULL, env},
                                             {impl, GELU_TARGET_EXACT, d, ERR_ABS, NULL, env},
                                             {impl, GELU_TARGET_EXACT, d, ERR_REL, NULL, env}};
            row_metrics(w, &m->err[REF_EXACT][d], x, y, w->ref[GELU_TARGET_EXACT][d], n, seq0, c);
        }
        const refine_ctx c[ERR_KINDS] = {{impl, impl->target, d, ERR_ULP, NULL, env},
                                         {impl, impl->target, d, ERR_ABS, NULL, env},
                                         {impl, impl->target, d, ERR_REL, NULL, env}};
        row_metrics(w, &m->err[REF_OWN][d], x, y, own, n, seq0, c); /* leaves own's w->mis */
        /* Where y is correctly rounded and the correctly rounded values pass a check, y passes
         * it: only the points (and pairs) touching a mismatch, and the seam, are checked. */
        if (d == DIR_FORWARD) {
            uint64_t seq_first = seq0 - has_prev;
            if (!own->cr_monotone) {
                check_monotone(&m->mono, w->x, w->y, n + has_prev, seq_first, x_min);
            } else {
                size_t last = 0; /* pairs k (in w->x) checked so far: 1..last */
                if (has_prev) check_pair(&m->mono, w->x, w->y, last = 1, seq_first, x_min);
                for (size_t q = 0; q < w->nmis; q++) {
                    size_t k = w->mis[q] + has_prev; /* the pairs k and k + 1 touch it */
                    for (size_t p = k > last + 1 ? k : last + 1; p <= k + 1 && p < n + has_prev; p++)
                        check_pair(&m->mono, w->x, w->y, last = p, seq_first, x_min);
                }
            }
        } else if (!own->cr_sign_ok) {
            check_sign(&m->sign, x, y, own, n, seq0, x_min);
        } else {
            for (size_t q = 0; q < w->nmis; q++)
                check_sign_at(&m->sign, x, y, own, w->mis[q], seq0, x_min);
        }
        lap(w, &t0, &w->prof.metrics[i][d]);
    }
}

/* The fixed-point weights ⌊w·2^70⌋ (metrics.h: below 2^52, as w ≤ 2^-18) of the points [a, b)
 * into wfix[], and their sum: as two 64-bit sums of their high and low 32 bits (at most 2^20
 * and 2^32 times 4,096 points: no overflow), which vectorize, where one 128-bit sum does not.
 * The same integer. The largest of them raises *max. */
HOT_CLONES static u128 fix_weights(const double *weight, uint64_t *wfix, size_t a, size_t b,
                                   uint64_t *max)
{
    uint64_t hi = 0, lo = 0, m = *max;
    for (size_t j = a; j < b; j++) {
        uint64_t f = (uint64_t)(int64_t)(weight[j] * DIST_W_SCALE);
        wfix[j] = f;
        hi += f >> 32;
        lo += f & 0xffffffffu;
        m = f > m ? f : m;
    }
    *max = m;
    return ((u128)hi << 32) + lo;
}

/* The block's inputs x[0 .. n) (positions seq0 ...), their runs (w->run_start: consecutive
 * points sharing their input range, x bucket and finiteness; w->range and w->x_bucket set at
 * each run's first point, the only ones read), weights and fixed-point run weights. A block whose
 * smallest and largest x are finite and share range and bucket (without the core's two sides)
 * is one run: range and bucket are constant on intervals, and only the core range is two of
 * them. */
HOT_CLONES static void block_inputs(scan_worker *w, const domain_view *dom, uint64_t seq0, size_t n,
                                    float *x)
{
    domain_inputs(dom, seq0, n, x);
    input_span *sp = &w->span; /* read by the weights and the fast reference's blocks too */
    input_span_of(x, n, sp);
    int32_t key_lo = sp->key_lo, key_hi = sp->key_hi;
    bool nan = sp->abs_hi > 0x7f800000u;
    w->nruns = 0;
    float lo = 0, hi = 0;
    if (!nan && n > 0) {
        lo = float_from_bits(key_lo < 0 ? (uint32_t)-key_lo | 0x80000000u : (uint32_t)key_lo);
        hi = float_from_bits(key_hi < 0 ? (uint32_t)-key_hi | 0x80000000u : (uint32_t)key_hi);
    }
    input_range r = input_range_of(lo);
    int xb = x_bucket_of(lo);
    if (!nan && n > 0 && isfinite(lo) && isfinite(hi) && input_range_of(hi) == r &&
        x_bucket_of(hi) == xb && !(r == RANGE_CORE && lo < 0 && hi > 0)) {
        w->range[0] = r;
        w->x_bucket[0] = (int16_t)xb;
        w->run_start[w->nruns++] = 0;
    } else {
        for (size_t j = 0; j < n; j++) {
            w->range[j] = input_range_of(x[j]);
            w->x_bucket[j] = (int16_t)x_bucket_of(x[j]);
            if (j == 0 || w->range[j] != w->range[j - 1] || w->x_bucket[j] != w->x_bucket[j - 1] ||
                isfinite(x[j]) != isfinite(x[j - 1]))
                w->run_start[w->nruns++] = (uint16_t)j;
        }
    }
    w->run_start[w->nruns] = (uint16_t)n;
    w->e_half_set = dist_exp_half(x, n, w->e_half, sp);
    bool some = dist_weights(x, n, w->weight[DIST_NORMAL], w->weight[DIST_UNIFORM],
                             w->e_half_set ? w->e_half : NULL, sp);
    for (size_t k = 0; k < w->nruns; k++) {
        uint64_t any = 0; /* a weight other than ±0, from the encodings (no trapping compares) */
        for (size_t j = w->run_start[k]; some && j < w->run_start[k + 1]; j++)
            any |= (double_bits(w->weight[DIST_NORMAL][j]) | double_bits(w->weight[DIST_UNIFORM][j])) << 1;
        w->run_weighted[k] = any != 0;
        if (!any) { /* wfix and run_weight are read only for weighted runs */
            for (int d = 0; d < DIST_COUNT; d++) w->run_weight[k][d] = 0;
            continue;
        }
        w->run_wmax[k] = 0;
        for (int d = 0; d < DIST_COUNT; d++)
            w->run_weight[k][d] = fix_weights(w->weight[d], w->wfix[d], w->run_start[k],
                                              w->run_start[k + 1], &w->run_wmax[k]);
    }
}

void run_block(scan_worker *w, uint64_t block)
{
    const domain_view *dom = w->sh->dom;
    uint64_t seq0 = block * SCAN_BLOCK;
    size_t n = (size_t)(dom->size - seq0 < SCAN_BLOCK ? dom->size - seq0 : SCAN_BLOCK);
    bool has_prev = seq0 > 0;
    double t0 = w->profiling ? now_s() : 0;
    if (has_prev) w->x[0] = domain_input(dom, seq0 - 1);
    float *x = w->x + has_prev;
    block_inputs(w, dom, seq0, n, x);
    lap(w, &t0, &w->prof.inputs);
    int ndir = w->sh->cfg->grad ? DIR_COUNT : 1;
    gelu_fpenv env = w->sh->cfg->fpenv;
    const float *x_ref = x; /* the inputs the references are computed at */
    if (env & GELU_FPENV_DAZ) {
        for (size_t j = 0; j < n; j++) w->x_daz[j] = gelu_fpenv_input(env, x[j]);
        x_ref = w->x_daz;
    }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (w->sh->targets_used & (1u << t)) {
            /* (exp(−x²/2) of the block's own inputs: at them only) */
            fill_refs(w, (gelu_target)t, ndir, x_ref, n,
                      w->e_half_set && x_ref == x ? w->e_half : NULL,
                      x_ref == x ? &w->span : NULL);
            if (x_ref != x) /* not the enclosure at the block's own input */
                for (int d = 0; d < ndir; d++)
                    for (size_t j = 0; j < n; j++)
                        if (float_bits(x_ref[j]) != float_bits(x[j])) w->ref[t][d]->err[j] = NAN;
            if (env & GELU_FPENV_FTZ) flush_refs(w, (gelu_target)t, ndir, x_ref, n);
            for (int d = 0; d < ndir; d++) {
                w->ref[t][d]->daz = (env & GELU_FPENV_DAZ) != 0;
                prepare_refs(w, (gelu_target)t, d, x, n);
            }
        }
    share_block(w, n, has_prev, seq0);
    uint32_t *share = w->share[w->part == w->main_part];
    for (size_t i = 0; i < w->sh->cfg->nimpls; i++)
        if (!w->sy || share[i] == i) run_impl(w, i, n, has_prev, seq0);
    if (w->tap) compare_block(w, n);
    w->part->inputs += n;
}
