/* The fast reference's value (fast.h): f(x) lies in [hi + lo − err, hi + lo + err]. Apart from
 * fast.h so that the target rows (targets.h) name it without the fast reference itself. */
#ifndef GELUCHECK_ENCLOSURE_H
#define GELUCHECK_ENCLOSURE_H

typedef struct {
    double hi, lo, err;
} enclosure;

#endif
