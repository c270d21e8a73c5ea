/* gelucheck list: every registered implementation with its target, the CPU features it needs,
 * whether this CPU has them, and its declared contract. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "gelu_cr16.h"
#include "gelu_impl.h"

static const char *bound(double b, char *buf, size_t size)
{
    if (isinf(b)) snprintf(buf, size, "-");
    else snprintf(buf, size, "%.3g", b);
    return buf;
}

int cmd_list(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            printf("usage: gelucheck list\n\n"
                   "Lists every implementation: its target (exact | tanh | sigmoid | silu | relu), the CPU\n"
                   "features it needs, whether this CPU has them, and its declared contract:\n"
                   "max ULP and max absolute error against its own target (forward, then\n"
                   "derivative), monotone, special values, correctly rounded (forward and\n"
                   "derivative, by encoding). '-' means no claim.\n");
            return EXIT_OK;
        }
        return usage_error("list", "unexpected argument '%s'", argv[i]);
    }
    char feat[128], b[4][32];
    int needs = (int)strlen("needs"); /* the widest feature list sets its column's width */
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        int w = (int)strlen(cpu_features_string(gelu_impl_at(i)->features, feat, sizeof feat));
        if (w > needs) needs = w;
    }
    printf("%-24s %-8s %-*s %-9s %-9s %-9s %-9s %-9s %-8s %-8s %s\n", "name", "target", needs,
           "needs", "available", "max_ulp", "max_abs", "grad_ulp", "grad_abs", "monotone",
           "specials", "correctly_rounded");
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        const gelu_contract *c = &m->contract;
        printf("%-24s %-8s %-*s %-9s %-9s %-9s %-9s %-9s %-8s %-8s %s\n", m->name,
               gelu_target_name(m->target), needs,
               cpu_features_string(m->features, feat, sizeof feat),
               gelu_impl_available(m) ? "yes" : "no", bound(c->max_ulp, b[0], sizeof b[0]),
               bound(c->max_abs, b[1], sizeof b[1]), bound(c->grad_max_ulp, b[2], sizeof b[2]),
               bound(c->grad_max_abs, b[3], sizeof b[3]), c->monotone ? "yes" : "no",
               c->specials ? "yes" : "no", c->correctly_rounded ? "yes" : "no");
    }
    bool heading = false;
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const char *src = gelu_impl_source(gelu_impl_at(i));
        if (!src) continue;
        if (!heading) printf("\nadded at run time:\n");
        heading = true;
        printf("  %s: %s\n", gelu_impl_at(i)->name, src);
    }
    printf("\n16-bit formats (accuracy, eval, bench --format F): every implementation above runs "
           "widened; natively:\n");
    for (size_t i = 0; i < gelu_impl16_count(); i++) {
        const gelu_impl *m = gelu_impl16_at(i);
        printf("  %s: %s, target %s, correctly rounded %s\n", m->name,
               gelu_format_of(m->format)->name, gelu_target_name(m->target),
               m->contract.correctly_rounded ? "(claimed)" : "(no claim)");
    }
    printf("\nthis CPU: %s\n", cpu_features_string(cpu_features(), feat, sizeof feat));
    if (*gelu_absent_peers())
        printf("not built (library absent or disabled at configure time): %s\n", gelu_absent_peers());
    return EXIT_OK;
}
