/* The two-moons generator and split (see moons_data.h for the definition). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>

#include "moons_data.h"

bool moons_set_alloc(moons_set *s, size_t n)
{
    s->n = n;
    s->x = malloc((3 * n + 1) * sizeof *s->x); /* x (2n), then label (n), in one block */
    s->label = s->x ? s->x + 2 * n : NULL;
    return s->x != NULL;
}

void moons_set_free(moons_set *s)
{
    free(s->x); /* the block */
    s->x = s->label = NULL;
    s->n = 0;
}

/* Point i of `count` evenly spaced angles over [0, π] (both ends included). */
static double arc_angle(size_t i, size_t count)
{
    return count > 1 ? M_PI * (double)i / (double)(count - 1) : 0.0;
}

void moons_generate(gsl_rng *rng, double noise, moons_set *s)
{
    size_t n_upper = s->n - s->n / 2;
    size_t n_lower = s->n / 2;
    for (size_t i = 0; i < s->n; i++) {
        bool upper = i < n_upper;
        double t = upper ? arc_angle(i, n_upper) : arc_angle(i - n_upper, n_lower);
        double px = upper ? cos(t) : 1.0 - cos(t);
        double py = upper ? sin(t) : 0.5 - sin(t);
        s->x[2 * i] = (float)(px + gsl_ran_gaussian(rng, noise));
        s->x[2 * i + 1] = (float)(py + gsl_ran_gaussian(rng, noise));
        s->label[i] = upper ? 0.0f : 1.0f;
    }
    /* Fisher–Yates on rows, one uniform draw per step. */
    for (size_t i = s->n; i > 1; i--) {
        size_t j = gsl_rng_uniform_int(rng, i);
        float tx = s->x[2 * (i - 1)], ty = s->x[2 * (i - 1) + 1], tl = s->label[i - 1];
        s->x[2 * (i - 1)] = s->x[2 * j];
        s->x[2 * (i - 1) + 1] = s->x[2 * j + 1];
        s->label[i - 1] = s->label[j];
        s->x[2 * j] = tx;
        s->x[2 * j + 1] = ty;
        s->label[j] = tl;
    }
}

static bool copy_rows(const moons_set *from, size_t first, size_t n, moons_set *to)
{
    if (!moons_set_alloc(to, n)) return false;
    memcpy(to->x, from->x + 2 * first, n * 2 * sizeof *to->x);
    memcpy(to->label, from->label + first, n * sizeof *to->label);
    return true;
}

bool moons_split_make(const moons_set *all, size_t n_train, size_t n_validation, moons_split *out)
{
    memset(out, 0, sizeof *out);
    if (n_train == 0 || n_train > all->n || n_validation > all->n - n_train ||
        n_train + n_validation == all->n)
        return false;
    size_t n_test = all->n - n_train - n_validation;
    if (copy_rows(all, 0, n_train, &out->train) &&
        copy_rows(all, n_train, n_validation, &out->validation) &&
        copy_rows(all, n_train + n_validation, n_test, &out->test))
        return true;
    moons_split_free(out);
    return false;
}

void moons_split_free(moons_split *sp)
{
    moons_set_free(&sp->train);
    moons_set_free(&sp->validation);
    moons_set_free(&sp->test);
}
