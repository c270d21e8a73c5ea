/* gelucheck eval: one implementation at the given inputs, as CSV against the correctly rounded
 * reference: x,y,ref,ulp_error,abs_error (x, y, ref as C99 hex floats). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gelu_cr16.h"
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
    printf("usage: gelucheck eval --impl NAME [--grad] [--against TARGET] [--format F]\n"
           "                      [--fpenv ieee|ftz|daz|ftz,daz] X...\n\n"
           "Evaluates implementation NAME (see 'gelucheck list') at each X and prints one CSV\n"
           "line per input under the header x,y,ref,ulp_error,abs_error:\n"
           "  x, y   the input and the implementation's output, as C99 hex floats (%%a)\n"
           "  ref    the correctly rounded binary32 value of the reference function\n"
           "  ulp_error, abs_error   |y - exact| in ULPs of binary32 and absolutely (real-valued)\n\n"
           "Options:\n"
           "  --impl NAME       the implementation (required)\n"
           "  --grad            evaluate the derivative against the reference's derivative\n"
           "  --against TARGET  the reference function: own (the implementation's own target,\n"
           "                    the default), %s\n"
           "  --format F        binary32 (default) or a small format (bfloat16, binary16, e4m3,\n"
           "                    e5m2): X must be a value of F; a binary32 implementation runs\n"
           "                    widened (x -> binary32 -> kernel -> round to nearest even to F),\n"
           "                    the format's natives (cr_F) as they are; ref and ulp_error are F's\n"
           "  --fpenv E         run the kernel with MXCSR's FTZ and/or DAZ set (default ieee);\n"
           "                    ref is then E's: under daz f at a subnormal X's signed zero, under\n"
           "                    ftz a subnormal correctly rounded value as the zero of its sign\n"
           "                    (the exact value the errors are measured from). binary32 only; an\n"
           "                    exec child is asked for E, refused unless it lists E\n\n"
           "X is decimal or a C99 hex float (-0x1.8p+1), inf or nan; negative numbers are plain\n"
           "arguments. Use -- before inputs that would otherwise look like options.\n",
           evaluated_targets(targets, sizeof targets));
}

/* A 16-bit implementation at binary32 values of its format: through the encodings. */
static int eval16(const gelu_impl *m, bool grad, const float *xs, float *ys, size_t n)
{
    const gelu_format *f = gelu_format_of(m->format);
    uint16_t *x16 = malloc(n * sizeof *x16), *y16 = malloc(n * sizeof *y16);
    float *wx = malloc(n * sizeof *wx), *wy = malloc(n * sizeof *wy);
    int st = x16 && y16 && wx && wy ? EXIT_OK : EXIT_CHECK_FAILED;
    for (size_t i = 0; st == EXIT_OK && i < n; i++) {
        /* values convert exactly; a NaN gives the format's quiet NaN of its sign */
        x16[i] = gelu_format_narrow(f, xs[i]);
    }
    if (st == EXIT_OK) {
        gelu_impl_run_u16(m, grad, x16, y16, n, wx, wy);
        for (size_t i = 0; i < n; i++) ys[i] = gelu_format_widen(f, y16[i]);
    }
    free(x16);
    free(y16);
    free(wx);
    free(wy);
    return st;
}

int cmd_eval(int argc, char **argv)
{
    char fmt_names[256]; /* the formats' names, for a message */
    const char *impl_name = NULL, *against = "own";
    const gelu_format *format = gelu_format_of(GELU_FORMAT_BINARY32);
    gelu_fpenv fpenv = GELU_FPENV_IEEE;
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
        } else if (!options_done && (got = option_value("eval", argc, argv, &i, "--format", &v))) {
            if (got < 0) status = EXIT_USAGE;
            else if (!(format = gelu_format_find(v)))
                status = usage_error("eval", "unknown --format '%s': %s", v,
                                     gelu_format_names(", ", " or ", true, fmt_names, sizeof fmt_names));
            else if (format->id == GELU_FORMAT_BINARY64)
                status = usage_error("eval", "--format binary64 is not evaluated here ('gelucheck "
                                     "accuracy --format binary64' scans its sample)");
        } else if (!options_done && (got = option_value("eval", argc, argv, &i, "--fpenv", &v))) {
            status = got < 0 ? EXIT_USAGE : parse_fpenv("eval", v, &fpenv);
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
    gelu_impl view;
    gelu_target target = GELU_TARGET_COUNT;
    bool f16 = format && gelu_format_small(format);
    if (status == EXIT_OK && !impl_name) status = usage_error("eval", "missing --impl NAME");
    if (status == EXIT_OK && !(impl = f16 ? gelu_impl_lookup_in(impl_name, format->id, &view)
                                          : gelu_impl_find(impl_name)))
        status = usage_error("eval", "unknown implementation '%s'%s%s (see 'gelucheck list')",
                             impl_name, f16 ? " for --format " : "", f16 ? format->name : "");
    for (size_t i = 0; status == EXIT_OK && f16 && i < n; i++)
        if (!isnan(xs[i]) && gelu_format_widen(format, gelu_format_narrow(format, xs[i])) != xs[i])
            status = usage_error("eval", "input %a is not a %s value (nearest: %a)", (double)xs[i],
                                 format->name,
                                 (double)gelu_format_widen(format, gelu_format_narrow(format, xs[i])));
    if (status == EXIT_OK && f16 && fpenv != GELU_FPENV_IEEE)
        status = usage_error("eval", "--fpenv %s: --format %s runs in IEEE's environment only "
                             "(--fpenv applies to binary32)", gelu_fpenv_name(fpenv), format->name);
    if (status == EXIT_OK) status = fpenv_check_impls("eval", fpenv, &impl, 1);
    if (status == EXIT_OK && grad && !impl->derivative && !impl->derivative_u16)
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
    if (f16) status = eval16(impl, grad, xs, ys, n);
    else {
        unsigned saved = gelu_fpenv_enter(fpenv); /* around the kernel only */
        (grad ? impl->derivative : impl->forward)(xs, ys, n);
        gelu_fpenv_leave(saved);
    }
    int failed = status != EXIT_OK ? status : exec_failure_status("eval");
    if (failed != EXIT_OK) {
        free(xs);
        free(ys);
        return failed;
    }
    mpfr_t exact;
    mpfr_init2(exact, REF_EXACT_PREC);
    printf("x,y,ref,ulp_error,abs_error\n");
    for (size_t i = 0; i < n; i++) {
        float ref = f16 ? (float)ref_eval_format(format, target, grad, xs[i], exact)
                        : ref_eval_fpenv(target, grad, xs[i], fpenv, exact);
        printf("%a,%a,%a,%.9g,%.9g\n", (double)xs[i], (double)ys[i], (double)ref,
               ref_ulp_error_format(format, ys[i], exact), ref_abs_error(ys[i], exact));
    }
    mpfr_clear(exact);
    free(ys);
    free(xs);
    return EXIT_OK;
}
