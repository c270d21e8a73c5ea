/* Piecewise polynomials on 32 equal pieces, as tools/pw_pieces.sol builds them, on the vf_*
 * operations (include after a vf_<isa>.h): piece i = floor(x·scale + offset) (vf_piece_index),
 * t = x − m[i] (exact: m[i] lies in the piece), and
 *     GELU(x)  ≈ (c0 + h·t) + t·(c1 + t·(c2 + … + t·c_deg)),
 *     GELU'(x) ≈ d0 + t·(d1 + … + t·d_deg),
 * with the first sum and the last Horner step one FMA each (h is nonzero in the pieces at 0
 * only; pw_fast.h says why that keeps the evaluation monotone). */
#ifndef GELUCHECK_VF_PIECES_H
#define GELUCHECK_VF_PIECES_H

#include <stdbool.h>

typedef struct {
    float scale, offset;
    int deg;
    const float *m, *h;
    const float *c[8]; /* c[0..deg] */
    const float *d[8]; /* d[0..deg] */
} vf_pieces;

/* GELU (derivative false) or GELU' (derivative true) by the pieces, for x in their span. */
static inline vf vf_pieces_eval(const vf_pieces *p, vf x, bool derivative)
{
    vi i = vf_piece_index(x, p->scale, p->offset, 31);
    vf t = vf_sub(x, vf_lookup32(p->m, i));
    const float *const *c = derivative ? p->d : p->c;
    vf y = vf_lookup32(c[p->deg], i);
    /* unrolled, so that the tables fold to constants and stay in registers across an array
     * (a rolled loop here cost 25% in `gelucheck bench`) */
#pragma GCC unroll 8
    for (int k = p->deg - 1; k >= 1; k--)
        y = vf_fma(y, t, vf_lookup32(c[k], i));
    vf low = vf_lookup32(c[0], i);
    if (!derivative) low = vf_fma(t, vf_lookup32(p->h, i), low);
    return vf_fma(y, t, low);
}

#endif
