/* gelucheck list: every registered implementation with its target, the CPU features it needs,
 * whether this CPU has them, and its declared contract; then the run-time ones, the frameworks,
 * the native 16-bit ones, the widened bfloat16 conversions' path, this CPU and the peers. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "exec_cross.h"
#include "exec_frameworks.h"
#include "exec_impl.h"
#include "gelu_cr16.h"
#include "gelu_f64.h"
#include "gelu_impl.h"
#include "plugin.h"

static const char *bound(double b, char *buf, size_t size)
{
    if (isinf(b)) snprintf(buf, size, "-");
    else snprintf(buf, size, "%.3g", b);
    return buf;
}

/* The default peers: where each was loaded from (or that its file is missing), and the code
 * path of those that dispatch at run time. */
static void print_peers(void)
{
    for (size_t k = 0; k < plugins_default_peer_count(); k++) {
        const char *path;
        bool loaded;
        const char *name = plugins_default_peer(k, &path, &loaded);
        if (k == 0) printf("default peers (GELUCHECK_NO_DEFAULT_PEERS=1: none):\n");
        printf("  %s: %s%s", name, loaded ? "" : "not found: ", path);
        for (size_t i = 0; loaded && i < gelu_impl_count(); i++) {
            const gelu_impl *m = gelu_impl_at(i);
            const char *src = gelu_impl_source(m);
            if (m->dispatched_isa && src && strstr(src, path)) {
                printf(" (dispatched ISA: %s)", m->dispatched_isa());
                break;
            }
        }
        printf("\n");
    }
}

/* The floating-point environments an exec child runs in (its `fpenv` line): on request, or
 * always one that is not IEEE's (gelu_impl.fixed_fpenv). */
static void print_fpenvs(const gelu_impl *m)
{
    char list[64];
    if (!exec_impls_fpenv_list(m, list, sizeof list)) return;
    if (m->fixed_fpenv)
        printf("    fpenv: always %s (MXCSR's FTZ/DAZ; it lists 'fpenv %s', no ieee): its rows' "
               "fpenv says so, and --fpenv accepts only what it lists\n",
               gelu_fpenv_name((gelu_fpenv)(m->fixed_fpenv - 1)), list);
    else
        printf("    fpenv: %s (the environments --fpenv may ask it for)\n", list);
}

/* A small format's native row, one line. */
static void print_native(const gelu_impl *m)
{
    const char *src = gelu_impl_source(m);
    printf("  %s: %s, target %s, correctly rounded %s", m->name, gelu_format_of(m->format)->name,
           gelu_target_name(m->target), m->contract.correctly_rounded ? "(claimed)" : "(no claim)");
    if (src) printf("; %s%s", src, m->derivative_u16 ? "" : "; forward only");
    if (m->dispatched_isa) printf("; dispatched ISA: %s", m->dispatched_isa());
    printf("\n");
}

/* The frameworks' rows (exec_frameworks.h): installed (with the version) or not, started in
 * this run or not. */
static void print_frameworks(void)
{
    char py[1024], version[32], what[64];
    printf("\nframeworks (peers/*.py over the exec protocol, run by\n  %s;\n  each starts when an --impl "
           "names it, or all installed ones with --frameworks;\n  with --format F also in the 16-bit "
           "formats listed, on tensors of that type):\n",
           exec_frameworks_python(py, sizeof py));
    for (size_t k = 0; k < exec_framework_count(); k++) {
        const exec_framework *f = exec_framework_at(k);
        const gelu_impl *m = gelu_impl_find(f->name); /* else started in a 16-bit format */
        for (int k = 0; !m && k < gelu_format_count(); k++)
            if (gelu_format_small(gelu_format_of((gelu_format_id)k)))
                m = gelu_impl_find_in(f->name, (gelu_format_id)k);
        const char *taken = m && !exec_impls_owns(m) ? gelu_impl_source(m) : NULL;
        if (taken) m = NULL; /* a row of that name from elsewhere (a plugin): not this one */
        char fixed[96] = "";
        if (m && m->fixed_fpenv)
            snprintf(fixed, sizeof fixed, "; runs in %s always (its framework sets it), not IEEE's",
                     gelu_fpenv_name((gelu_fpenv)(m->fixed_fpenv - 1)));
        if (exec_framework_version(f, version, sizeof version))
            snprintf(what, sizeof what, "%s %s", f->framework, version);
        else
            snprintf(what, sizeof what, "%s not installed", f->framework);
        printf("  %-16s %-28s %-6s %-22s %-26s %s%s%s\n", f->name, what, f->target,
               f->derivative ? "forward and derivative" : "forward only",
               f->formats16[0] ? f->formats16 : "binary32 only",
               taken                    ? "not started: its name is taken by "
               : !m                     ? "not started"
               : !m->batch_dependence   ? "started"
               : m->batch_dependence[0] ? "started; outputs depend on the batching (above)"
                                        : "started; outputs independent of the batching",
               taken ? taken : "", fixed);
    }
}

int cmd_list(int argc, char **argv)
{
    char fmt_names[256]; /* the formats' names, for a message */
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) v = argv[++i];
        else if (strncmp(argv[i], "--format=", 9) == 0) v = argv[i] + 9;
        if (v) { /* read before the command runs (main.c): the format --frameworks starts */
            const gelu_format *f = gelu_format_find(v);
            if (!f)
                return usage_error("list", "unknown --format '%s': %s", v,
                                   gelu_format_names(", ", " or ", true, fmt_names, sizeof fmt_names));
            if (!cli_frameworks_given()) /* list shows every format's rows: F chooses nothing else */
                return usage_error("list", "--format %s chooses the format --frameworks starts the "
                                   "frameworks' rows in: give --frameworks with it (without "
                                   "--format, list shows every format's rows)", v);
            continue;
        }
        if (is_help(argv[i])) {
            printf("usage: gelucheck list [--frameworks [--format F]]\n\n"
                   "Lists every implementation: its target (exact | tanh | sigmoid | silu | relu), the CPU\n"
                   "features it needs, whether this CPU has them, and its declared contract:\n"
                   "max ULP and max absolute error against its own target (forward, then\n"
                   "derivative), monotone, special values, correctly rounded (forward and\n"
                   "derivative, by encoding). '-' means no claim; 'n/a' under grad_ulp and\n"
                   "grad_abs: forward only (no derivative kernel). Then the implementations\n"
                   "added at run time, the frameworks' rows, the native 16-bit ones (a plugin's\n"
                   "too) and what a plugin left out and why, the binary64\n"
                   "ones (accuracy --format binary64 samples them), the path of the widened bfloat16\n"
                   "conversions (avx512_bf16 around the AVX-512 builds, or portable and why;\n"
                   "GELUCHECK_NO_BF16=1: portable), of the widened binary16 ones (avx512_fp16\n"
                   "around the AVX-512 builds, f16c around the vector ones, or why not;\n"
                   "GELUCHECK_NO_FP16=1: no avx512_fp16), this CPU's features and the default\n"
                   "peers.\n\n"
                   "--cross DIR (an option of every command) lists the rows of a cross build's\n"
                   "exec child (docs/aarch64.md).\n"
                   "--frameworks starts every installed framework row (their batching probe,\n"
                   "the code path each dispatched to); with --format bfloat16|binary16 their\n"
                   "GELUs on tensors of that type instead (listed with the 16-bit formats).\n");
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
               bound(c->max_abs, b[1], sizeof b[1]),
               m->derivative ? bound(c->grad_max_ulp, b[2], sizeof b[2]) : "n/a",
               m->derivative ? bound(c->grad_max_abs, b[3], sizeof b[3]) : "n/a", c->monotone ? "yes" : "no",
               c->specials ? "yes" : "no", c->correctly_rounded ? "yes" : "no");
    }
    bool heading = false;
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        const char *src = gelu_impl_source(m);
        if (!src || plugins_is_default_peer(m)) continue;
        if (!heading) printf("\nadded at run time:\n");
        heading = true;
        printf("  %s: %s%s\n", m->name, src, m->derivative ? "" : "; forward only");
        if (m->dispatched_isa) printf("    dispatched ISA: %s\n", m->dispatched_isa());
        if (m->batch_dependence)
            printf("    batching: %s\n", m->batch_dependence[0] ? m->batch_dependence
                   : "outputs independent of it (probed: 1,024 inputs in one request and one by one)");
        print_fpenvs(m);
    }
    print_frameworks();
    exec_cross_print(stdout);
    printf("\nsmall formats (accuracy, eval, bench --format F): every implementation above runs "
           "widened; natively:\n");
    for (int f = 0; f < gelu_format_count(); f++) {
        gelu_format_id id = (gelu_format_id)f;
        if (!gelu_format_small(gelu_format_of(id))) continue;
        for (size_t i = 0; i < gelu_impl_count_in(id); i++) print_native(gelu_impl_at_in(id, i));
    }
    const char *left_src, *left;
    for (size_t i = 0; (left = plugins_left_out(i, &left_src)); i++)
        printf("  left out by %s: %s\n", left_src, left);
    printf("\nbinary64 (accuracy --format binary64, by sampling; bench --format binary64; a list of "
           "its rows):\n");
    for (size_t i = 0; i < gelu_impl_count_in(GELU_FORMAT_BINARY64); i++) {
        const gelu_impl *m = gelu_impl_at_in(GELU_FORMAT_BINARY64, i);
        printf("  %s: target %s, needs %s%s%s\n", m->name, gelu_target_name(m->target),
               cpu_features_string(m->features, feat, sizeof feat),
               gelu_impl_available(m) ? "" : " (not on this CPU)",
               m->derivative_f64 ? "" : "; forward only");
    }
    printf("\nwidened bfloat16 conversions (the same bits either way; GELUCHECK_NO_BF16=1: "
           "portable):\n  %s\n",
           gelu_widened_bfloat16_path());
    printf("\nwidened binary16 conversions (the same bits either way; GELUCHECK_NO_FP16=1: no "
           "avx512_fp16):\n  %s\n",
           gelu_widened_binary16_path());
    printf("\nthis CPU: %s\n", cpu_features_string(cpu_features(), feat, sizeof feat));
    print_peers();
    if (*gelu_absent_peers())
        printf("not built (library absent or disabled at configure time): %s\n", gelu_absent_peers());
    return EXIT_OK;
}

const gelucheck_command command_list = {"list", cmd_list,
                                         "list the implementations, their targets, CPU needs and contracts",
                                         NULL, false};
