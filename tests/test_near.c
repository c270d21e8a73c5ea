/* The near-tie lists (scan/near.h) against a brute force: inputs with known true errors and
 * intervals around them, added in domain order or split into parts merged in any order, give
 * the true maximum and its first input after near_resolve_all; without overflow the lists are
 * the same bits whatever the merge order; with overflow (many overlapping intervals) entries
 * are resolved and nothing that could win is lost; past the budget, the bound kept holds the
 * maximum. The resolver is a stub that returns the true error (and counts its calls). And the
 * fast reference's markers the scan's bounds rely on. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fast.h"
#include "near.h"
#include "targets.h"

enum { N = 3000 };
static double truth[N];
static unsigned calls;

static double stub_exact(const void *ctx, uint32_t bits, uint32_t out)
{
    (void)ctx;
    (void)out;
    calls++;
    return truth[bits];
}

static const near_resolver stub = {stub_exact, NULL};

/* True errors on a coarse grid (exact ties among them) and intervals of half-width w around
 * them, off-centre by a pseudo-random amount. */
static void make(double w, unsigned seed, double *lo, double *hi)
{
    srand(seed);
    for (int i = 0; i < N; i++) {
        truth[i] = floor((double)rand() / RAND_MAX * 1000) / 1000;
        double off = ((double)rand() / RAND_MAX - 0.5) * w;
        lo[i] = fmax(0, truth[i] + off - w);
        hi[i] = truth[i] + off + w;
    }
}

static void brute(double *best, int *first)
{
    *best = -1;
    for (int i = 0; i < N; i++)
        if (truth[i] > *best) {
            *best = truth[i];
            *first = i;
        }
}

static void add_range(near_list *l, const double *lo, const double *hi, int a, int b)
{
    for (int i = a; i < b; i++) near_add(l, lo[i], hi[i], (uint64_t)i, (uint32_t)i, 0, &stub);
}

Test(near, merged_in_any_order_gives_the_first_maximum)
{
    static double lo[N], hi[N];
    for (unsigned seed = 1; seed <= 20; seed++) {
        make(seed % 2 ? 1e-4 : 3e-3, seed, lo, hi);
        double best;
        int first;
        brute(&best, &first);
        near_list whole, parts[3], ab, ba;
        near_init(&whole);
        add_range(&whole, lo, hi, 0, N);
        for (int p = 0; p < 3; p++) {
            near_init(&parts[p]);
            add_range(&parts[p], lo, hi, p * N / 3, (p + 1) * N / 3);
        }
        ab = parts[0];
        near_merge(&ab, &parts[1], &stub);
        near_merge(&ab, &parts[2], &stub);
        ba = parts[2];
        near_merge(&ba, &parts[0], &stub);
        near_merge(&ba, &parts[1], &stub);
        cr_expect_null(near_check(&whole), "%s", near_check(&whole));
        if (whole.resolved == 0 && ab.resolved == 0 && ba.resolved == 0) {
            cr_expect_eq(memcmp(&whole, &ab, sizeof whole), 0, "seed %u: merge order changed the list", seed);
            cr_expect_eq(memcmp(&whole, &ba, sizeof whole), 0, "seed %u: merge order changed the list", seed);
        }
        near_list *all[] = {&whole, &ab, &ba};
        for (int k = 0; k < 3; k++) {
            cr_assert_eq(near_resolve_all(all[k], &stub), 0);
            cr_expect_eq(all[k]->n, 1);
            cr_expect_eq(all[k]->e[0].lower, best, "seed %u: %g, want %g", seed, all[k]->e[0].lower, best);
            cr_expect_eq(all[k]->e[0].seq, (uint64_t)first, "seed %u: at %llu, want %d", seed,
                         (unsigned long long)all[k]->e[0].seq, first);
        }
    }
}

/* Intervals wide enough that most inputs overlap the maximum: the list overflows, resolves
 * with MPFR (the stub) and still gives the first maximum; past the budget it keeps a bound. */
Test(near, overflow_resolves_and_the_budget_keeps_a_bound)
{
    static double lo[N], hi[N];
    make(2, 7, lo, hi);
    double best;
    int first;
    brute(&best, &first);
    near_list l;
    near_init(&l);
    calls = 0;
    add_range(&l, lo, hi, 0, 200);
    cr_expect_gt(l.resolved, 0, "200 overlapping inputs overflow a list of %d", NEAR_MAX);
    cr_expect_eq(l.resolved, calls);
    near_init(&l);
    add_range(&l, lo, hi, 0, N);
    cr_expect_geq(l.resolved, NEAR_BUDGET, "the budget is reached");
    cr_expect_null(near_check(&l), "%s", near_check(&l));
    double dropped = l.dropped;
    cr_assert_eq(near_resolve_all(&l, &stub), 0);
    /* what is kept: the best resolved entry; the bound covers every input not kept */
    cr_expect(l.e[0].lower <= best);
    cr_expect(l.e[0].lower == best || dropped >= best, "%g kept, %g dropped, the maximum %g",
              l.e[0].lower, dropped, best);
}

/* The scan recognizes fast.c's stand-ins by their values (near_tolerance.h: NEAR_STAND_IN, near_upper):
 * pinned here, so that a change in fast.c fails this test rather than the near-tie bounds. */
Test(near, the_reference_markers_are_the_scans)
{
    for (int t = 0; t < GELU_TARGET_COUNT; t++) /* every target row with an enclosure */
        for (int grad = 0; grad < 2 && target_def_of((gelu_target)t)->enclose; grad++) {
            gelu_target target = (gelu_target)t;
            enclosure e;
            fast_enclose(target, grad, -200.0f, &e);
            cr_expect(e.hi == -0x1p-1000 && e.lo == 0, "stand-in below: %a + %a", e.hi, e.lo);
            fast_enclose(target, grad, 100.0f, &e);
            cr_expect(grad ? e.hi == 1 && e.lo == DBL_TRUE_MIN : e.hi == 100 && e.lo == -DBL_TRUE_MIN,
                      "marker above: %a + %a", e.hi, e.lo);
        }
}

/* An infinite error is an error: a list whose floor is +inf (an entry certainly infinite) is
 * well formed, as the merge of a checkpoint's chunks checks (a full report of tanh_libm's
 * derivative, max ULP inf, was refused as "the floor is not a number" after two hours). */
Test(near, an_infinite_floor_is_well_formed)
{
    near_list l;
    near_init(&l);
    near_add(&l, INFINITY, INFINITY, 5, 0x3f800000u, 0x7f800000u, &stub);
    near_add(&l, INFINITY, INFINITY, 9, 0x40000000u, 0x7f800000u, &stub);
    cr_expect_eq(l.floor, INFINITY);
    cr_expect_eq(l.n, 1, "the later certainly infinite input loses the tie");
    cr_expect_eq(l.e[0].seq, 5);
    cr_expect_null(near_check(&l), "%s", near_check(&l));
    l.floor = NAN;
    cr_expect_not_null(near_check(&l), "a NaN floor is refused");
}
