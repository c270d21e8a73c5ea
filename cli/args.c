/* Argument helpers shared by the subcommands. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "manifest.h"
#include "cli.h"
#include "exec_impl.h"
#include "gelu_fpenv.h"

int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "gelucheck %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'gelucheck %s --help'.\n", cmd);
    return EXIT_USAGE;
}

bool is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

int option_value(const char *cmd, int argc, char **argv, int *i, const char *name,
                 const char **value)
{
    const char *arg = argv[*i];
    size_t len = strlen(name);
    if (strncmp(arg, name, len) != 0) return 0;
    if (arg[len] == '=') {
        *value = arg + len + 1;
        return 1;
    }
    if (arg[len] != '\0') return 0;
    if (*i + 1 >= argc) {
        usage_error(cmd, "option %s needs a value", name);
        return -1;
    }
    /* "--csv --grad" would write a file named --grad and drop --grad: a value that looks like
     * an option is refused (give --csv=./--grad for a file of that name) */
    if (strncmp(argv[*i + 1], "--", 2) == 0) {
        usage_error(cmd, "option %s needs a value, but the next argument is the option '%s' "
                         "(write %s=VALUE for a value that starts with --)",
                    name, argv[*i + 1], name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

bool parse_float(const char *s, float *out, const char **why)
{
    char *end;
    if (*s == '\0') {
        *why = "empty";
        return false;
    }
    errno = 0;
    float v = strtof(s, &end);
    if (end == s || *end != '\0') {
        *why = "not a decimal or hex-float number";
        return false;
    }
    if (errno == ERANGE && isinf(v)) {
        *why = "overflows binary32";
        return false;
    }
    if (errno == ERANGE && v == 0.0f) {
        /* strtof gives 0 for "0e-999" without ERANGE; ERANGE with 0 is a non-zero input lost. */
        *why = "underflows binary32 to zero";
        return false;
    }
    *out = v;
    return true;
}

bool parse_count(const char *s, unsigned long min, unsigned long max, unsigned long *out,
                 const char **why)
{
    char *end;
    if (*s < '0' || *s > '9') { /* strtoul would accept blanks and a sign */
        *why = "not a non-negative decimal integer";
        return false;
    }
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end != '\0') {
        *why = "not a non-negative decimal integer";
        return false;
    }
    if (errno == ERANGE || v < min || v > max) {
        *why = v < min && errno != ERANGE ? "too small" : "too large";
        return false;
    }
    *out = v;
    return true;
}

bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    unsigned long v; /* 64 bits on the LP64 targets built here */
    const char *why;
    _Static_assert(sizeof v == sizeof *out, "unsigned long holds a uint64_t");
    if (!parse_count(s, (unsigned long)min, (unsigned long)max, &v, &why)) return false;
    *out = v;
    return true;
}

static char command_line[MANIFEST_VALUE];

void cli_set_command(int argc, char **argv)
{
    manifest_command(command_line, sizeof command_line, argc, argv); /* the real argv, quoted */
}

const char *cli_command(void) { return command_line; }

/* Whether an output gets a manifest beside it: not standard output, not a device or FIFO. */
static bool wants_manifest(const char *path, char *mpath, size_t size)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode))) return false;
    snprintf(mpath, size, "%s.manifest.json", path);
    return true;
}

/* path as an absolute name: its directory resolved (links, "..", "."), its last component
 * kept; the text itself when the directory does not resolve. */
static void canonical_path(const char *path, char *out, size_t size)
{
    char dir[4200], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    if (realpath(dir, real)) snprintf(out, size, "%s/%s", strcmp(real, "/") ? real : "", base);
    else snprintf(out, size, "%s", path);
}

/* Whether paths a and b name one file: the same canonical name, or one existing file. */
static bool same_file(const char *a, const char *b)
{
    char ca[4400], cb[4400];
    struct stat sa, sb;
    canonical_path(a, ca, sizeof ca);
    canonical_path(b, cb, sizeof cb);
    if (strcmp(ca, cb) == 0) return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int distinct_outputs(const char *cmd, const char *const *names, const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!paths[i]) continue;
        if (!paths[i][0] || strcmp(paths[i], "-") == 0) continue; /* "": probe_output says */
        for (size_t j = 0; j < n; j++) {
            if (j == i || !paths[j] || !paths[j][0] || strcmp(paths[j], "-") == 0) continue;
            char mpath[4200];
            if (j > i && same_file(paths[i], paths[j]))
                return usage_error(cmd, "%s '%s' and %s '%s' name the same file: the second would "
                                   "replace the first", names[i], paths[i], names[j], paths[j]);
            if (wants_manifest(paths[i], mpath, sizeof mpath) && same_file(mpath, paths[j]))
                return usage_error(cmd, "%s '%s' is the manifest %s '%s' gets beside it "
                                   "(PATH.manifest.json): one would replace the other", names[j],
                                   paths[j], names[i], paths[i]);
        }
    }
    return EXIT_OK;
}

int probe_output(const char *cmd, const char *path)
{
    char err[512], mpath[4200];
    if (atomic_file_probe(path, err, sizeof err) == 0 &&
        (!wants_manifest(path, mpath, sizeof mpath) || atomic_file_probe(mpath, err, sizeof err) == 0))
        return EXIT_OK;
    fprintf(stderr, "gelucheck %s: %s\n", cmd, err);
    return EXIT_CHECK_FAILED;
}

int write_manifest_beside(const char *cmd, const char *path)
{
    char mpath[4200];
    if (!wants_manifest(path, mpath, sizeof mpath)) return EXIT_OK;
    run_manifest m;
    manifest_collect(&m, command_line);
    if (manifest_write_file(mpath, &m) == 0) return EXIT_OK;
    fprintf(stderr, "gelucheck %s: cannot write '%s': %s ('%s' is written)\n", cmd, mpath,
            strerror(errno), path);
    return EXIT_CHECK_FAILED;
}

int write_output(const char *cmd, const char *path, int (*writer)(FILE *f, void *ctx), void *ctx)
{
    atomic_file a;
    char err[512];
    if (atomic_file_open(&a, path, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck %s: %s\n", cmd, err);
        return EXIT_CHECK_FAILED;
    }
    if (writer(a.f, ctx) != 0) {
        fprintf(stderr, "gelucheck %s: cannot write '%s': %s (the previous file is intact)\n", cmd,
                path, strerror(errno));
        atomic_file_abort(&a);
        return EXIT_CHECK_FAILED;
    }
    if (atomic_file_commit(&a, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck %s: %s (the previous file is intact)\n", cmd, err);
        return EXIT_CHECK_FAILED;
    }
    return write_manifest_beside(cmd, path);
}

int split_list(const char *cmd, const char *opt, const char *list, char ***items, size_t *n)
{
    size_t len = strlen(list), count = 1;
    *items = NULL;
    *n = 0;
    if (len == 0) return usage_error(cmd, "empty %s", opt);
    for (const char *p = list; *p; p++) count += *p == ',';
    char **out = malloc(count * sizeof *out + len + 1);
    if (!out) {
        fprintf(stderr, "gelucheck %s: out of memory\n", cmd);
        return EXIT_CHECK_FAILED;
    }
    char *text = (char *)(out + count);
    memcpy(text, list, len + 1);
    for (size_t k = 0; k < count; k++) {
        out[k] = text;
        char *comma = strchr(text, ',');
        if (comma) *comma = '\0';
        text = comma ? comma + 1 : text + strlen(text);
        if (out[k][0] == '\0') {
            free(out);
            return usage_error(cmd, "bad %s '%s': element %zu is empty", opt, list, k + 1);
        }
        for (size_t j = 0; j < k; j++)
            if (strcmp(out[j], out[k]) == 0) {
                const char *dup = out[k];
                int st = usage_error(cmd, "bad %s '%s': '%s' is given twice", opt, list, dup);
                free(out);
                return st;
            }
    }
    *items = out;
    *n = count;
    return EXIT_OK;
}

int reject_repeated_options(const char *cmd, int argc, char **argv, const char *const *repeatable)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strncmp(argv[i], "--", 2) != 0) continue;
        size_t len = strcspn(argv[i], "=");
        bool repeats = false;
        for (const char *const *r = repeatable; r && *r; r++)
            repeats |= strlen(*r) == len && strncmp(*r, argv[i], len) == 0;
        if (repeats) continue;
        for (int j = 1; j < i; j++)
            if (strncmp(argv[j], argv[i], len) == 0 && (argv[j][len] == '\0' || argv[j][len] == '='))
                return usage_error(cmd, "option %.*s is given twice (it takes one value)", (int)len,
                                   argv[i]);
    }
    return EXIT_OK;
}

int exec_failure_status(const char *cmd)
{
    const char *why = exec_impls_failure();
    if (!why) return EXIT_OK;
    fprintf(stderr, "gelucheck %s: %s; nothing was written\n", cmd, why);
    return EXIT_CHECK_FAILED;
}

int parse_fpenv(const char *cmd, const char *value, gelu_fpenv *e)
{
    gelu_fpenv env;
    if (!gelu_fpenv_parse(value, &env))
        return usage_error(cmd, "unknown --fpenv '%s': ieee, ftz, daz or ftz,daz", value);
    if (!gelu_fpenv_supported(env))
        return usage_error(cmd, "--fpenv '%s': this machine cannot set it (FTZ/DAZ: x86-64's MXCSR)",
                           value);
    *e = env;
    return EXIT_OK;
}

int fpenv_check_impls(const char *cmd, gelu_fpenv e, const gelu_impl *const *impls, size_t n)
{
    char why[300];
    for (size_t i = 0; i < n; i++)
        if (!exec_impls_fpenv_ok(impls[i], e, why, sizeof why))
            return usage_error(cmd, "--fpenv %s: exec child '%s' (%s) cannot run its kernels in that "
                               "environment: %s; leave it out or run it with --fpenv ieee",
                               gelu_fpenv_name(e), impls[i]->name, gelu_impl_source(impls[i]), why);
    exec_impls_use_fpenv(e);
    return EXIT_OK;
}
