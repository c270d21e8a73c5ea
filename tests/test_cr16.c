/* The correctly rounded 16-bit kernels (impls/gelu_cr16.c) are lookups in tables built at first
 * use from the scalar path the cr16 gates prove: each kernel gives the path's result at every one
 * of the 65,536 encodings, forward and derivative of both formats, with the inputs in any order
 * (a table indexed by position rather than by encoding would pass in increasing order only), and
 * when its first calls come from several threads at once. The comparison is planted a wrong
 * entry to show it finds it at its encoding. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>

#include "gelu_cr16.h"

enum { ENCODINGS = 1 << 16 };

typedef struct {
    const char *name;
    gelu_format_id format;
} cr16_row;

static const cr16_row rows[] = {{"cr_bfloat16", GELU_FORMAT_BFLOAT16},
                                {"cr_binary16", GELU_FORMAT_BINARY16}};

static gelu_kernel_u16 kernel_of(const cr16_row *r, bool grad)
{
    const gelu_impl *m = gelu_impl_find_in(r->name, r->format);
    cr_assert_not_null(m, "%s", r->name);
    return grad ? m->derivative_u16 : m->forward_u16;
}

/* Every encoding, in increasing order (reverse: decreasing). */
static void all_encodings(uint16_t *x, bool reverse)
{
    for (uint32_t b = 0; b < ENCODINGS; b++) x[b] = (uint16_t)(reverse ? ENCODINGS - 1 - b : b);
}

static uint16_t want[ENCODINGS]; /* the scalar path's results, by first_difference */

/* The first i where y[i] differs from the scalar path at x[i] (want[i]), or −1. */
static long first_difference(const cr16_row *r, bool grad, const uint16_t *x, const uint16_t *y)
{
    cr_assert_eq(gelu_cr16_path(r->format, grad, x, want, ENCODINGS), 0, "%s: no scalar path",
                 r->name);
    for (long i = 0; i < ENCODINGS; i++)
        if (y[i] != want[i]) return i;
    return -1;
}

Test(cr16, kernels_give_the_path_at_every_encoding)
{
    static uint16_t x[ENCODINGS], y[ENCODINGS];
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++)
        for (int grad = 0; grad <= 1; grad++)
            for (int reverse = 0; reverse <= 1; reverse++) {
                all_encodings(x, reverse);
                kernel_of(&rows[k], grad)(x, y, ENCODINGS);
                long i = first_difference(&rows[k], grad, x, y);
                cr_expect_eq(i, -1, "%s %s: encoding 0x%04x gives 0x%04x, the path 0x%04x",
                             rows[k].name, grad ? "derivative" : "forward", i < 0 ? 0 : x[i],
                             i < 0 ? 0 : y[i], i < 0 ? 0 : want[i]);
            }
}

Test(cr16, planted_wrong_entry_found_at_its_encoding)
{
    static uint16_t x[ENCODINGS], y[ENCODINGS];
    all_encodings(x, true);
    kernel_of(&rows[1], false)(x, y, ENCODINGS);
    y[ENCODINGS - 1 - 0x3c00] ^= 1; /* GELU(1) in binary16, one step off */
    long i = first_difference(&rows[1], false, x, y);
    cr_assert_eq(i, ENCODINGS - 1 - 0x3c00);
    cr_expect_eq(x[i], 0x3c00);
}

/* Threads that call one kernel for the first time together, each on all encodings. */
enum { THREADS = 4 };
typedef struct {
    pthread_barrier_t *start;
    gelu_kernel_u16 kernel;
    uint16_t x[ENCODINGS], y[ENCODINGS];
} caller;

static void *call_after_barrier(void *arg)
{
    caller *c = arg;
    pthread_barrier_wait(c->start);
    c->kernel(c->x, c->y, ENCODINGS);
    return NULL;
}

Test(cr16, first_calls_from_several_threads)
{
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++)
        for (int grad = 0; grad <= 1; grad++) {
            pthread_barrier_t start;
            pthread_t tid[THREADS];
            caller *c = calloc(THREADS, sizeof *c);
            cr_assert_not_null(c);
            pthread_barrier_init(&start, NULL, THREADS);
            for (int t = 0; t < THREADS; t++) {
                c[t] = (caller){.start = &start, .kernel = kernel_of(&rows[k], grad)};
                all_encodings(c[t].x, t & 1);
                cr_assert_eq(pthread_create(&tid[t], NULL, call_after_barrier, &c[t]), 0);
            }
            for (int t = 0; t < THREADS; t++) pthread_join(tid[t], NULL);
            pthread_barrier_destroy(&start);
            for (int t = 0; t < THREADS; t++)
                cr_expect_eq(first_difference(&rows[k], grad, c[t].x, c[t].y), -1,
                             "%s %s, thread %d", rows[k].name, grad ? "derivative" : "forward", t);
            free(c);
        }
}
