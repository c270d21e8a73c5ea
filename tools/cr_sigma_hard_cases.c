/* cr_sigma_hard_cases: the exhaustive search behind impls/cr_sigma_hard_cases.h. For each form
 * of impls/cr_sigma.h (cr_tanh, cr_sigmoid) runs the fast path (the plain one-lane build: every
 * build gives the same bits) on all 2^32 binary32 inputs, forward and derivative; sends the
 * inputs whose rounding test fails to the accurate path; and where that path's own test fails
 * too, or its result differs from MPFR's correctly rounded value, records the input with MPFR's
 * value. Writes the header to stdout and the counts (the fast path's failure rate among them) to
 * stderr.
 *
 *     build/cr_sigma_hard_cases [THREADS] > impls/cr_sigma_hard_cases.h   (default 2 threads)
 *
 * Exit status 0, 2 for a bad argument, 1 when memory runs out or a table overflows. */
#include "vf_scalar.h"

#include "cr_sigmoid.h"
#include "cr_tanh.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "reference.h"

enum { MAX_HARD = 1 << 16, MAX_THREADS = 64, BLOCK = 1 << 16 };

/* The forms searched, in the header's order. */
static const struct {
    const cr_sigma_form *form;
    gelu_target target;
    const char *name, *macro; /* cr_tanh, CR_TANH */
} forms[] = {
    {&cr_tanh_form, GELU_TARGET_TANH, "cr_tanh", "CR_TANH"},
    {&cr_sigmoid_form, GELU_TARGET_SIGMOID, "cr_sigmoid", "CR_SIGMOID"},
};
enum { NFORMS = sizeof forms / sizeof forms[0] };

typedef struct {
    uint32_t x, y;
} hard_case;

/* One search: a form and a direction, its counts and hard cases. */
typedef struct {
    uint64_t fast_fail; /* rounding test of the fast path failed */
    uint64_t acc_fail;  /* … and the accurate path's too */
    uint64_t acc_wrong; /* the accurate path passed its test with a wrong value */
    hard_case *hard;
    size_t nhard;
} search;

typedef struct {
    unsigned k, n; /* this worker's share: encodings ≡ k mod n, by blocks */
    search s[NFORMS][2];
    bool full;
} worker;

/* Same encoding; any NaN matches any NaN. */
static bool same_value(float a, float b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check(worker *w, int f, bool grad, float x)
{
    vf lo, hi;
    cr_sigma_bounds(forms[f].form, grad, x, &lo, &hi);
    if (!vf_count_differ(lo, hi)) return;
    search *s = &w->s[f][grad];
    s->fast_fail++;
    float r;
    bool ok = cr_sigma_accurate_try(forms[f].form, grad, x, &r);
    float want = ref_round(forms[f].target, grad, x);
    if (ok && same_value(r, want)) return;
    if (ok)
        s->acc_wrong++;
    else
        s->acc_fail++;
    if (s->nhard == MAX_HARD) {
        w->full = true;
        return;
    }
    hard_case *h = &s->hard[s->nhard++];
    memcpy(&h->x, &x, sizeof h->x);
    memcpy(&h->y, &want, sizeof h->y);
}

static void *run(void *arg)
{
    worker *w = arg;
    for (uint64_t start = (uint64_t)w->k * BLOCK; start < ((uint64_t)1 << 32);
         start += (uint64_t)w->n * BLOCK)
        for (uint64_t b = start; b < start + BLOCK; b++) {
            uint32_t bits = (uint32_t)b;
            float x;
            memcpy(&x, &bits, sizeof x);
            for (int f = 0; f < NFORMS; f++) {
                check(w, f, false, x);
                check(w, f, true, x);
            }
        }
    ref_thread_done();
    return NULL;
}

static int by_input(const void *a, const void *b)
{
    uint32_t p = ((const hard_case *)a)->x, q = ((const hard_case *)b)->x;
    return (p > q) - (p < q);
}

static void print_table(const char *name, const char *macro, const char *dir, const hard_case *h,
                        size_t n)
{
    printf("#define %s_HARD_%s_N %zu\n", macro, dir[0] == 'f' ? "FWD" : "DER", n);
    printf("static const uint32_t %s_hard_%s_x[] = {", name, dir);
    for (size_t i = 0; i < n; i++) printf("0x%08" PRIx32 "u, ", h[i].x);
    printf("0xffffffffu};\n");
    printf("static const uint32_t %s_hard_%s_y[] = {", name, dir);
    for (size_t i = 0; i < n; i++) printf("0x%08" PRIx32 "u, ", h[i].y);
    printf("0xffffffffu};\n");
}

/* The merged, sorted table of one search over the workers, printed; its counts to stderr. */
static int report(const worker *ws, unsigned nthreads, int f, bool grad)
{
    uint64_t fast = 0, acc = 0, wrong = 0;
    size_t n = 0;
    for (unsigned k = 0; k < nthreads; k++) {
        fast += ws[k].s[f][grad].fast_fail;
        acc += ws[k].s[f][grad].acc_fail;
        wrong += ws[k].s[f][grad].acc_wrong;
        n += ws[k].s[f][grad].nhard;
    }
    hard_case *all = malloc((n ? n : 1) * sizeof *all);
    if (!all) return -1;
    for (unsigned k = 0, at = 0; k < nthreads; at += ws[k].s[f][grad].nhard, k++)
        memcpy(all + at, ws[k].s[f][grad].hard, ws[k].s[f][grad].nhard * sizeof *all);
    qsort(all, n, sizeof *all, by_input);
    fprintf(stderr,
            "%s %s: fast path's rounding test failed at %" PRIu64 " of 4294967296 inputs "
            "(%.3g); the accurate path's at %" PRIu64 ", wrong after passing at %" PRIu64
            "; %zu hard cases\n",
            forms[f].name, grad ? "derivative" : "forward", fast, (double)fast / 0x1p32, acc,
            wrong, n);
    print_table(forms[f].name, forms[f].macro, grad ? "der" : "fwd", all, n);
    free(all);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned nthreads = 2;
    if (argc > 2 || (argc == 2 && (sscanf(argv[1], "%u", &nthreads) != 1 || nthreads == 0 ||
                                   nthreads > MAX_THREADS))) {
        fprintf(stderr, "usage: cr_sigma_hard_cases [THREADS (1..%d)] > "
                        "impls/cr_sigma_hard_cases.h\n", MAX_THREADS);
        return 2;
    }
    static worker ws[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    for (unsigned k = 0; k < nthreads; k++) {
        ws[k] = (worker){.k = k, .n = nthreads};
        for (int f = 0; f < NFORMS; f++)
            for (int g = 0; g < 2; g++)
                if (!(ws[k].s[f][g].hard = malloc(MAX_HARD * sizeof(hard_case)))) {
                    fprintf(stderr, "cr_sigma_hard_cases: out of memory\n");
                    return 1;
                }
        if (pthread_create(&th[k], NULL, run, &ws[k])) {
            fprintf(stderr, "cr_sigma_hard_cases: cannot start thread %u\n", k);
            return 1;
        }
    }
    for (unsigned k = 0; k < nthreads; k++) pthread_join(th[k], NULL);
    for (unsigned k = 0; k < nthreads; k++)
        if (ws[k].full) {
            fprintf(stderr, "cr_sigma_hard_cases: more than %d hard cases in one thread\n",
                    MAX_HARD);
            return 1;
        }
    printf("/* generated by tools/cr_sigma_hard_cases.c, do not edit (regenerate: "
           "build/cr_sigma_hard_cases > impls/cr_sigma_hard_cases.h) */\n");
    printf("/* The inputs whose accurate path (impls/cr_sigma.h) cannot decide the rounding, with "
           "their correctly rounded value (MPFR), as encodings, sorted; a sentinel ends each "
           "array. */\n");
    for (int f = 0; f < NFORMS; f++)
        for (int g = 0; g < 2; g++)
            if (report(ws, nthreads, f, g)) {
                fprintf(stderr, "cr_sigma_hard_cases: out of memory\n");
                return 1;
            }
    return 0;
}
