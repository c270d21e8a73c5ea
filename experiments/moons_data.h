/* The two-moons data set, generated with GSL's RNG, and its train/validation/test split.
 *
 * Half the points (the first class, label 0) lie on the upper unit half circle about (0, 0):
 * (cos t, sin t) for t spaced evenly over [0, π]. The other half (label 1) lie on a second half
 * circle of radius 1 that opens the other way about (1, 1/2): (1 − cos t, 1/2 − sin t). The two
 * arcs interlock, so no straight line separates the classes. Every coordinate then gets
 * independent Gaussian noise of standard deviation `noise`, and the points are shuffled. An odd
 * count gives the first class the extra point. With noise 0 every point is exactly at distance 1
 * from its class's centre (up to binary32 rounding). */
#ifndef GELUCHECK_MOONS_DATA_H
#define GELUCHECK_MOONS_DATA_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    size_t n;
    float *x;     /* n rows of 2 coordinates, row-major */
    float *label; /* n labels, 0 or 1 */
} moons_set;

/* The three parts of one data set; each owns its arrays. */
typedef struct {
    moons_set train, validation, test;
} moons_split;

/* Allocates a set of n points (arrays uninitialised); false when out of memory. */
bool moons_set_alloc(moons_set *s, size_t n);
void moons_set_free(moons_set *s);

/* Fills `s` (already allocated with s->n points) with shuffled two-moons points, drawing from
 * `rng` in a fixed order: the noise for every point, then the shuffle. */
void moons_generate(gsl_rng *rng, double noise, moons_set *s);

/* Splits `all` in order into n_train, n_validation and the rest for the test part (copies).
 * The generator shuffled already, so taking consecutive runs is a random split. False when the
 * counts do not fit or memory runs out (nothing allocated then). */
bool moons_split_make(const moons_set *all, size_t n_train, size_t n_validation, moons_split *out);
void moons_split_free(moons_split *sp);

#endif
