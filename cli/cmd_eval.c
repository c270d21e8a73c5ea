/* gelucheck eval: one implementation at the given inputs, as CSV against the correctly rounded
 * reference: x,y,ref,ulp_error,abs_error (x, y, ref as C99 hex floats). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gelu_impl.h"
#include "reference.h"
#include "targets.h"

/* The targets with an evaluated reference (the target table's rows without a defining
 * formula), as "exact, tanh, ..." into buf. */
static const char *evaluated_targets(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (!target_def_of((gelu_target)t)->defined && used < size)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                                     gelu_target_name((gelu_target)t));
    return buf;
}

static void print_help(void)
{
    char targets[256];
    printf("usage: gelucheck eval --impl NAME [--grad] [--against TARGET] X...\n\n"
           "Evaluates implementation NAME (see 'gelucheck list') at each X and prints one CSV\n"
           "line per input under the header x,y,ref,ulp_error,abs_error:\n"
           "  x, y   the input and the implementation's output, as C99 hex floats (%%a)\n"
           "  ref    the correctly rounded binary32 value of the reference function\n"
           "  ulp_error, abs_error   |y - exact| in ULPs of binary32 and absolutely (real-valued)\n\n"
           "Options:\n"
           "  --impl NAME       the implementation (required)\n"
           "  --grad            evaluate the derivative against the reference's derivative\n"
           "  --against TARGET  the reference function: own (the implementation's own target,\n"
           "                    the default), %s\n\n"
           "X is decimal or a C99 hex float (-0x1.8p+1), inf or nan; negative numbers are plain\n"
           "arguments. Use -- before inputs that would otherwise look like options.\n",
           evaluated_targets(targets, sizeof targets));
}

int cmd_eval(int argc, char **argv)
{
    const char *impl_name = NULL, *against = "own";
    bool grad = false, options_done = false;
    float *xs = malloc((size_t)argc * sizeof *xs);
    size_t n = 0;
    int status = EXIT_OK;
    if (!xs) return EXIT_CHECK_FAILED;
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i], *v;
        int got;
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = true;
        } else if (!options_done && is_help(a)) {
            print_help();
            free(xs);
            return EXIT_OK;
        } else if (!options_done && strcmp(a, "--grad") == 0) {
            grad = true;
        } else if (!options_done && (got = option_value("eval", argc, argv, &i, "--impl", &v))) {
            if (got < 0) status = EXIT_USAGE;
            else impl_name = v;
        } else if (!options_done && (got = option_value("eval", argc, argv, &i, "--against", &v))) {
            if (got < 0) status = EXIT_USAGE;
            else against = v;
        } else if (!options_done && strncmp(a, "--", 2) == 0) {
            status = usage_error("eval", "unknown option '%s'", a);
        } else {
            const char *why;
            if (!parse_float(a, &xs[n], &why)) status = usage_error("eval", "bad input '%s': %s", a, why);
            n++;
        }
    }
    const gelu_impl *impl = NULL;
    gelu_target target = GELU_TARGET_COUNT;
    if (status == EXIT_OK && !impl_name) status = usage_error("eval", "missing --impl NAME");
    if (status == EXIT_OK && !(impl = gelu_impl_find(impl_name)))
        status = usage_error("eval", "unknown implementation '%s' (see 'gelucheck list')", impl_name);
    if (status == EXIT_OK && grad && !impl->derivative)
        status = usage_error("eval", "--grad: '%s' is forward only (it has no derivative kernel)",
                             impl->name);
    if (status == EXIT_OK) {
        bool own = strcmp(against, "own") == 0;
        target = own ? impl->target : gelu_target_from_name(against);
        char targets[256];
        evaluated_targets(targets, sizeof targets);
        if (own && target_def_of(target)->defined)
            status = usage_error("eval", "'%s' approximates %s, which has no MPFR reference: "
                                 "give --against one of %s", impl->name, gelu_target_name(target),
                                 targets);
        else if (target == GELU_TARGET_COUNT || target_def_of(target)->defined)
            status = usage_error("eval", "unknown --against '%s' (own, %s)", against, targets);
    }
    if (status == EXIT_OK && n == 0) status = usage_error("eval", "no inputs X given");
    if (status == EXIT_OK && !gelu_impl_available(impl)) {
        fprintf(stderr, "gelucheck eval: '%s' needs CPU features this machine lacks\n", impl->name);
        status = EXIT_CHECK_FAILED;
    }
    if (status != EXIT_OK) {
        free(xs);
        return status;
    }
    float *ys = malloc(n * sizeof *ys);
    if (!ys) {
        free(xs);
        return EXIT_CHECK_FAILED;
    }
    (grad ? impl->derivative : impl->forward)(xs, ys, n);
    int failed = exec_failure_status("eval");
    if (failed != EXIT_OK) {
        free(xs);
        free(ys);
        return failed;
    }
    mpfr_t exact;
    mpfr_init2(exact, REF_EXACT_PREC);
    printf("x,y,ref,ulp_error,abs_error\n");
    for (size_t i = 0; i < n; i++) {
        float ref = ref_eval(target, grad, xs[i], exact);
        printf("%a,%a,%a,%.9g,%.9g\n", (double)xs[i], (double)ys[i], (double)ref,
               ref_ulp_error(ys[i], exact), ref_abs_error(ys[i], exact));
    }
    mpfr_clear(exact);
    free(ys);
    free(xs);
    return EXIT_OK;
}
