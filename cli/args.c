/* Argument helpers shared by the subcommands. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
