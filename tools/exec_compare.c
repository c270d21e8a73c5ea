/* Which built-in implementation, if any, an exec child (docs/protocol.md) matches bit for bit:
 * the child and each named kernel over every STRIDE-th binary32 encoding (all 2^32 with stride
 * 1), in batches of 2^16, forward (and with --grad the derivative), counting the inputs whose
 * outputs differ by encoding (any NaN equals any NaN) and naming the first.
 *
 *   exec_compare [--grad] [--stride S] [--timeout SEC] 'COMMAND' IMPL...
 *
 * Built on demand: meson compile -C build exec_compare. The default peers (GSL, SLEEF, oneDNN)
 * are loaded as by gelucheck. Exit status 0 when it ran (whatever it
 * found), 1 when the child failed, 2 bad usage. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec.h"
#include "float_bits.h"
#include "gelu_impl.h"
#include "plugin.h"

enum { BATCH = 1 << 16, MAX_IMPLS = 16 };

int main(int argc, char **argv)
{
    bool grad = false;
    uint64_t stride = 1;
    double timeout = 60;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--grad") == 0) grad = true;
        else if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc) stride = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) timeout = strtod(argv[++i], NULL);
        else {
            fprintf(stderr, "exec_compare: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (i + 2 > argc || stride == 0 || argc - i - 1 > MAX_IMPLS) {
        fprintf(stderr, "usage: exec_compare [--grad] [--stride S] [--timeout SEC] 'COMMAND' IMPL...\n");
        return 2;
    }
    const char *command = argv[i++];
    char peer_err[2000]; /* the default peers (dnnl_erf, ...), as gelucheck loads them */
    if (plugins_load_default_peers(peer_err, sizeof peer_err) != 0) {
        fprintf(stderr, "exec_compare: %s\n", peer_err);
        return 2;
    }
    const gelu_impl *impls[MAX_IMPLS];
    int n = 0;
    for (; i < argc; i++) {
        if (!(impls[n] = gelu_impl_find(argv[i])) || !gelu_impl_available(impls[n])) {
            fprintf(stderr, "exec_compare: '%s' is not an implementation this CPU runs\n", argv[i]);
            return 2;
        }
        n++;
    }
    char err[2000];
    exec_child *c = exec_start(command, timeout, err, sizeof err);
    if (!c) {
        fprintf(stderr, "exec_compare: %s\n", err);
        return 1;
    }
    const exec_handshake *h = exec_info(c);
    printf("child: %s (target %s), origin: %s\n", h->name, gelu_target_name(h->target), h->origin);
    float *x = malloc(BATCH * sizeof *x), *y = malloc(BATCH * sizeof *y), *z = malloc(BATCH * sizeof *z);
    for (int d = 0; d < (grad ? 2 : 1); d++) {
        uint64_t differ[MAX_IMPLS] = {0}, total = 0, child_ns = 0;
        int64_t first[MAX_IMPLS];
        for (int k = 0; k < n; k++) first[k] = -1;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (uint64_t b = 0; b < (UINT64_C(1) << 32);) {
            size_t m = 0;
            for (; m < BATCH && b < (UINT64_C(1) << 32); m++, b += stride) {
                x[m] = float_from_bits((uint32_t)b);
            }
            uint64_t ns = 0;
            if (exec_eval(c, d == 1, x, y, m, &ns, err, sizeof err) != 0) {
                fprintf(stderr, "exec_compare: %s\n", err);
                exec_stop(c);
                return 1;
            }
            child_ns += ns;
            total += m;
            for (int k = 0; k < n; k++) {
                (d ? impls[k]->derivative : impls[k]->forward)(x, z, m);
                for (size_t j = 0; j < m; j++)
                    if (float_bits(y[j]) != float_bits(z[j]) && !(isnan(y[j]) && isnan(z[j]))) {
                        if (first[k] < 0) first[k] = (int64_t)float_bits(x[j]);
                        differ[k]++;
                    }
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        printf("%s: %llu inputs (every %llu-th encoding), %.1f s, the child's kernel %.2f ns/input\n",
               d ? "derivative" : "forward", (unsigned long long)total, (unsigned long long)stride,
               wall, (double)child_ns / (double)total);
        for (int k = 0; k < n; k++) {
            if (differ[k] == 0)
                printf("  %-22s identical at every input\n", impls[k]->name);
            else {
                uint32_t e = (uint32_t)first[k];
                printf("  %-22s differs at %llu inputs, the first at x = %a (0x%08x)\n",
                       impls[k]->name, (unsigned long long)differ[k], (double)float_from_bits(e), e);
            }
        }
    }
    exec_stop(c);
    free(x);
    free(y);
    free(z);
    return 0;
}
