/* fpenv_diff: where MXCSR's FTZ and DAZ change a kernel's result, the measurement behind the
 * report's ftz,daz spans (scan/fpenv_cover.c). Runs every implementation of the registry this
 * CPU runs (the default peers included; threaded benchmark rows left out), forward and
 * derivative, on every STRIDE-th binary32 encoding (from 0), once in IEEE's environment and once
 * with FTZ and DAZ set, and compares the outputs by encoding (two NaNs are equal). Prints, per
 * implementation and direction with a difference, how many inputs differ and the extremes of
 * the negative and positive inputs where they do; then the union over all.
 *
 *     meson compile -C build fpenv_diff && build/fpenv_diff 257
 *
 * Exit status 0, 2 for a bad argument, 1 when memory runs out or a peer fails to load. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "float_bits.h"
#include "gelu_fpenv.h"
#include "gelu_impl.h"
#include "plugin.h"

typedef struct {
    float neg_lo, neg_hi, pos_lo, pos_hi; /* the extremes of the differing inputs per sign */
    size_t count;
} diff_span;

static void diff_span_add(diff_span *d, float x)
{
    d->count++;
    if (signbit(x)) {
        if (x < d->neg_lo) d->neg_lo = x;
        if (x > d->neg_hi) d->neg_hi = x;
    } else {
        if (x < d->pos_lo) d->pos_lo = x;
        if (x > d->pos_hi) d->pos_hi = x;
    }
}

static void diff_span_print(const char *what, const diff_span *d)
{
    printf("%-30s %9zu differ  negative x in [%a, %a]  positive x in [%a, %a]\n", what, d->count,
           (double)d->neg_lo, (double)d->neg_hi, (double)d->pos_lo, (double)d->pos_hi);
}

int main(int argc, char **argv)
{
    char *end;
    unsigned long long stride = argc == 2 ? strtoull(argv[1], &end, 10) : 0;
    if (argc != 2 || *end || stride == 0 || stride > 0xffffffffull) {
        fprintf(stderr, "usage: fpenv_diff STRIDE (1 to 2^32-1)\n");
        return 2;
    }
    char err[1024];
    if (plugins_load_default_peers(err, sizeof err) != 0) {
        fprintf(stderr, "fpenv_diff: %s\n", err);
        return 1;
    }
    size_t n = (size_t)((0xffffffffull) / stride + 1);
    float *x = malloc(n * sizeof *x), *ieee = malloc(n * sizeof *ieee), *flagged = malloc(n * sizeof *flagged);
    if (!x || !ieee || !flagged) {
        fprintf(stderr, "fpenv_diff: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) x[i] = float_from_bits((uint32_t)(i * stride));
    diff_span all = {0, -INFINITY, INFINITY, 0, 0};
    for (size_t k = 0; k < gelu_impl_count(); k++) {
        const gelu_impl *m = gelu_impl_at(k);
        if (!gelu_impl_available(m) || m->own_threads || m->format != GELU_FORMAT_BINARY32) continue;
        for (int d = 0; d < 2; d++) {
            gelu_kernel kernel = d ? m->derivative : m->forward;
            if (!kernel) continue;
            kernel(x, ieee, n);
            unsigned saved = gelu_fpenv_enter(GELU_FPENV_FTZ_DAZ);
            kernel(x, flagged, n);
            gelu_fpenv_leave(saved);
            diff_span one = {0, -INFINITY, INFINITY, 0, 0};
            for (size_t i = 0; i < n; i++)
                if (float_bits(ieee[i]) != float_bits(flagged[i]) && !(isnan(ieee[i]) && isnan(flagged[i]))) {
                    diff_span_add(&one, x[i]);
                    diff_span_add(&all, x[i]);
                }
            char what[96];
            snprintf(what, sizeof what, "%s %s", m->name, d ? "derivative" : "forward");
            if (one.count) diff_span_print(what, &one);
        }
    }
    printf("%zu inputs (every %llu-th encoding)\n", n, stride);
    diff_span_print("all", &all);
    free(x);
    free(ieee);
    free(flagged);
    return 0;
}
