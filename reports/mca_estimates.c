/* Reading the static speed estimates (see mca_estimates.h). */
#include "mca_estimates.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GELUCHECK_ESTIMATES_SOURCE
#error "GELUCHECK_ESTIMATES_SOURCE: the source tree's data/mca_estimates.csv"
#endif
#ifndef GELUCHECK_ESTIMATES_INSTALLED
#error "GELUCHECK_ESTIMATES_INSTALLED: where meson install puts it"
#endif

enum { LINE_MAX_CHARS = 1024, FIELDS_MAX = 16 };
enum { C_IMPL, C_CPU, C_MODEL, C_CYCLES, C_COUNT };
static const char *const required[C_COUNT] = {"impl", "cpu", "model", "rthroughput_cycles_per_element"};

static int bad(char *err, size_t errsize, const char *path, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int bad(char *err, size_t errsize, const char *path, unsigned line, const char *fmt, ...)
{
    int n = snprintf(err, errsize, "%s:%u: ", path, line);
    if (n >= 0 && (size_t)n < errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errsize - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -2;
}

/* Splits line at commas in place; the number of fields, FIELDS_MAX + 1 when more. */
static int split(char *line, char **f)
{
    int n = 0;
    for (char *p = line;; p++) {
        if (n == FIELDS_MAX) return FIELDS_MAX + 1;
        f[n++] = p;
        p += strcspn(p, ",");
        if (*p == '\0') return n;
        *p = '\0';
    }
}

/* The fields of the required columns, checked and copied into r. */
static int read_row(char **f, const int *col, mca_estimate *r, const char *path, unsigned line,
                    char *err, size_t errsize)
{
    char *dst[C_MODEL + 1] = {r->impl, r->cpu, r->model};
    size_t caps[C_MODEL + 1] = {sizeof r->impl, sizeof r->cpu, sizeof r->model};
    for (int c = C_IMPL; c <= C_MODEL; c++) {
        size_t len = strlen(f[col[c]]);
        if (len == 0 || len >= caps[c])
            return bad(err, errsize, path, line, "column '%s': '%s' is empty or longer than %zu",
                       required[c], f[col[c]], caps[c] - 1);
        memcpy(dst[c], f[col[c]], len + 1);
    }
    char *end;
    errno = 0;
    r->cycles = strtod(f[col[C_CYCLES]], &end);
    if (f[col[C_CYCLES]][0] == '\0' || *end != '\0' || errno == ERANGE || !(r->cycles > 0) ||
        isinf(r->cycles))
        return bad(err, errsize, path, line, "column '%s': '%s' is not a positive number",
                   required[C_CYCLES], f[col[C_CYCLES]]);
    return 0;
}

/* The header's columns: col[c] the index of required[c]; *nfields the header's field count. */
static int read_header(char *text, int *col, int *nfields, const char *path, unsigned line,
                       char *err, size_t errsize)
{
    char *f[FIELDS_MAX + 1];
    *nfields = split(text, f);
    if (*nfields > FIELDS_MAX)
        return bad(err, errsize, path, line, "more than %d columns in the header", FIELDS_MAX);
    for (int c = 0; c < C_COUNT; c++) {
        col[c] = -1;
        for (int i = 0; i < *nfields; i++)
            if (strcmp(f[i], required[c]) == 0) col[c] = i;
        if (col[c] < 0)
            return bad(err, errsize, path, line, "no column '%s' in the header", required[c]);
    }
    return 0;
}

/* A row whose cpu is already in e with another model. */
static int check_model(const mca_estimates *e, const mca_estimate *r, const char *path,
                       unsigned line, char *err, size_t errsize)
{
    const char *model = mca_estimates_model(e, r->cpu);
    if (model && strcmp(model, r->model) != 0)
        return bad(err, errsize, path, line, "cpu %s with model %s, but an earlier row says %s",
                   r->cpu, r->model, model);
    if (mca_estimates_find(e, r->impl, r->cpu))
        return bad(err, errsize, path, line, "a second row of %s on %s", r->impl, r->cpu);
    return 0;
}

int mca_estimates_load(const char *path, mca_estimates *e, char *err, size_t errsize)
{
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errsize, "cannot read the estimates %s: %s", path, strerror(errno));
        return -1;
    }
    char text[LINE_MAX_CHARS + 2], *f[FIELDS_MAX + 1];
    int col[C_COUNT], nfields = 0, rc = 0;
    bool have_header = false;
    unsigned line = 0;
    while (rc == 0 && fgets(text, sizeof text, fp)) {
        line++;
        size_t len = strlen(text);
        if (len == 0 || text[len - 1] != '\n') {
            rc = feof(fp) ? bad(err, errsize, path, line, "truncated: the last line has no end")
                          : bad(err, errsize, path, line, "a line longer than %d characters",
                                LINE_MAX_CHARS);
            break;
        }
        text[--len] = '\0';
        if (text[0] == '#') continue;
        if (!have_header) {
            rc = read_header(text, col, &nfields, path, line, err, errsize);
            have_header = true;
            continue;
        }
        int n = split(text, f);
        if (n != nfields) {
            rc = bad(err, errsize, path, line, "%d fields, the header has %d", n, nfields);
            break;
        }
        if (e->n == MCA_ESTIMATES_MAX) {
            rc = bad(err, errsize, path, line, "more than %d rows", MCA_ESTIMATES_MAX);
            break;
        }
        mca_estimate *r = &e->rows[e->n];
        rc = read_row(f, col, r, path, line, err, errsize);
        if (rc == 0) rc = check_model(e, r, path, line, err, errsize);
        if (rc == 0) e->n++;
    }
    if (rc == 0 && ferror(fp)) {
        snprintf(err, errsize, "cannot read the estimates %s: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(fp);
    if (rc == 0 && !have_header) rc = bad(err, errsize, path, line, "no header: an empty file");
    else if (rc == 0 && e->n == 0) rc = bad(err, errsize, path, line, "no estimate in the file");
    return rc;
}

const mca_estimate *mca_estimates_find(const mca_estimates *e, const char *impl, const char *cpu)
{
    for (size_t i = 0; e && i < e->n; i++)
        if (strcmp(e->rows[i].impl, impl) == 0 && strcmp(e->rows[i].cpu, cpu) == 0) return &e->rows[i];
    return NULL;
}

const char *mca_estimates_model(const mca_estimates *e, const char *cpu)
{
    for (size_t i = 0; e && i < e->n; i++)
        if (strcmp(e->rows[i].cpu, cpu) == 0) return e->rows[i].model;
    return NULL;
}

const char *mca_estimates_default_path(void)
{
    return access(GELUCHECK_ESTIMATES_SOURCE, R_OK) == 0 ? GELUCHECK_ESTIMATES_SOURCE
                                                          : GELUCHECK_ESTIMATES_INSTALLED;
}
