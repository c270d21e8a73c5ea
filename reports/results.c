/* Measured results read back from CSV (see results.h). */
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gelu_impl.h"

enum { MAX_FIELDS = 128 };

typedef struct {
    char *field[MAX_FIELDS];
    size_t n;
} csv_line;

/* Splits line in place at commas (our CSV files never quote). */
static void split(char *line, csv_line *out)
{
    line[strcspn(line, "\r\n")] = '\0';
    out->n = 0;
    for (char *p = line; out->n < MAX_FIELDS;) {
        out->field[out->n++] = p;
        char *comma = strchr(p, ',');
        if (!comma) break;
        *comma = '\0';
        p = comma + 1;
    }
}

/* The column of `name` in the header, −1 when absent. */
static int column(const csv_line *h, const char *name)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->field[i], name) == 0) return (int)i;
    return -1;
}

static const char *get(const csv_line *l, int col)
{
    return col >= 0 && (size_t)col < l->n ? l->field[col] : "";
}

/* Empty → fallback; "inf" and numbers as strtod reads them. */
static double number(const char *s, double fallback)
{
    if (*s == '\0') return fallback;
    char *end;
    double v = strtod(s, &end);
    return *end == '\0' ? v : fallback;
}

static long count(const char *s) { return *s ? strtol(s, NULL, 10) : -1; }

int results_parse_features(const char *text, unsigned *bits)
{
    *bits = 0;
    if (*text == '\0' || strcmp(text, "none") == 0) return 0;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save, *tok = strtok_r(copy, "+,", &save); tok; tok = strtok_r(NULL, "+,", &save)) {
        unsigned bit = 0;
        for (int i = 0; i < CPU_FEATURE_COUNT && !bit; i++) {
            char name[32];
            if (strcmp(cpu_features_string(1u << i, name, sizeof name), tok) == 0) bit = 1u << i;
        }
        if (!bit) return -1;
        *bits |= bit;
    }
    return 0;
}

const results_row *results_find(const results_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->rows[i].name, name) == 0) return &s->rows[i];
    return NULL;
}

const results_speed *results_speed_at(const results_row *r, const char *size)
{
    for (size_t i = 0; i < r->nspeeds; i++)
        if (strcmp(r->speed[i].size, size) == 0) return &r->speed[i];
    return NULL;
}

static results_row *row_for(results_set *s, const char *name)
{
    results_row *r = (results_row *)results_find(s, name);
    if (r || s->n == RESULTS_MAX_ROWS) return r;
    r = &s->rows[s->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->mono_violations = r->specials_failed[0] = r->specials_failed[1] = -1;
    r->benchdnn_failed = r->xnnpack_failed = r->xnnpack_checked = -1;
    const gelu_impl *m = gelu_impl_find(name); /* until a CSV says otherwise */
    if (m) {
        r->features = m->features;
        snprintf(r->target, sizeof r->target, "%s", gelu_target_name(m->target));
    }
    return r;
}

typedef struct {
    FILE *f;
    char *line;
    size_t cap;
    csv_line header;
    char *header_text;
} csv_file;

static void csv_close(csv_file *c)
{
    fclose(c->f);
    free(c->line);
    free(c->header_text);
}

/* Opens a CSV file and finds its required columns (names[i] into cols[i]); a missing one is
 * an error. */
static int csv_open(csv_file *c, const char *path, const char *const *names, int *cols, size_t n,
                    char *err, size_t errsize)
{
    memset(c, 0, sizeof *c);
    c->f = fopen(path, "r");
    if (!c->f) {
        snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    if (getline(&c->header_text, &c->cap, c->f) < 0) {
        snprintf(err, errsize, "'%s' is empty", path);
        fclose(c->f);
        free(c->header_text);
        return -1;
    }
    c->cap = 0;
    split(c->header_text, &c->header);
    for (size_t i = 0; i < n; i++)
        if ((cols[i] = column(&c->header, names[i])) < 0) {
            snprintf(err, errsize, "'%s' has no column '%s' (not a gelucheck CSV?)", path,
                     names[i]);
            csv_close(c);
            return -1;
        }
    return 0;
}

static bool csv_next(csv_file *c, csv_line *l)
{
    if (getline(&c->line, &c->cap, c->f) < 0) return false;
    split(c->line, l);
    return true;
}

enum {
    A_IMPL,
    A_TARGET,
    A_REF,
    A_DIR,
    A_INPUTS,
    A_ULP,
    A_ULP_X,
    A_CR,
    A_ABS,
    A_ABS_X,
    A_MONO,
    A_SPECIALS,
    A_CONTRACT,
    A_COLS
};
static const char *const accuracy_cols[A_COLS] = {
    "impl",      "target",      "reference", "direction", "inputs",          "max_ulp",
    "max_ulp_x", "cr_fraction", "max_abs",   "max_abs_x", "mono_violations", "specials_failed",
    "contract"};

static void accuracy_line(results_set *s, const csv_line *l, const int *c, const int *crit,
                          const int *hist)
{
    results_row *r = row_for(s, get(l, c[A_IMPL]));
    if (!r) return;
    r->scanned = true;
    snprintf(r->target, sizeof r->target, "%s", get(l, c[A_TARGET]));
    int d = strcmp(get(l, c[A_DIR]), "derivative") == 0;
    bool own = strcmp(get(l, c[A_REF]), "own") == 0;
    results_error *e = own ? &r->own[d] : &r->exact[d];
    e->present = true;
    e->max_ulp = number(get(l, c[A_ULP]), NAN);
    e->max_abs = number(get(l, c[A_ABS]), NAN);
    e->cr_fraction = number(get(l, c[A_CR]), NAN);
    snprintf(e->max_ulp_x, sizeof e->max_ulp_x, "%s", get(l, c[A_ULP_X]));
    snprintf(e->max_abs_x, sizeof e->max_abs_x, "%s", get(l, c[A_ABS_X]));
    if (!own) return;
    /* An exact-target implementation is its own exact row. */
    if (strcmp(r->target, "exact") == 0) r->exact[d] = *e;
    r->inputs = (uint64_t)number(get(l, c[A_INPUTS]), 0);
    if (d == 0) r->mono_violations = count(get(l, c[A_MONO]));
    r->specials_failed[d] = count(get(l, c[A_SPECIALS]));
    snprintf(r->contract, sizeof r->contract, "%s", get(l, c[A_CONTRACT]));
    if (d == 0) {
        for (int b = 0; b < HIST_BUCKETS; b++) r->hist[b] = (uint64_t)number(get(l, hist[b]), 0);
        r->benchdnn_failed = count(get(l, crit[0]));
        r->xnnpack_failed = count(get(l, crit[1]));
        r->xnnpack_checked = count(get(l, crit[2]));
    }
}

static int load_accuracy(results_set *s, const char *path, char *err, size_t errsize)
{
    csv_file c;
    int cols[A_COLS];
    if (csv_open(&c, path, accuracy_cols, cols, A_COLS, err, errsize) != 0) return -1;
    int crit[3] = {column(&c.header, "benchdnn_failed"), column(&c.header, "xnnpack_failed"),
                   column(&c.header, "xnnpack_checked")};
    int hist[HIST_BUCKETS];
    for (int b = 0; b < HIST_BUCKETS; b++) {
        char name[32];
        snprintf(name, sizeof name, "ulp_%s", hist_bucket_name(b));
        hist[b] = column(&c.header, name);
    }
    csv_line l;
    while (csv_next(&c, &l))
        if (l.n == c.header.n) accuracy_line(s, &l, cols, crit, hist);
    csv_close(&c);
    return 0;
}

enum { B_SIZE, B_IMPL, B_TARGET, B_FEATURES, B_NS, B_RATIO, B_BASELINE, B_DIST, B_COLS };
static const char *const bench_cols[B_COLS] = {
    "size",     "impl", "target", "features", "ns_per_element_median", "ratio_to_baseline",
    "baseline", "dist"};

static void note_size(results_set *s, const char *size)
{
    for (size_t i = 0; i < s->nsizes; i++)
        if (strcmp(s->sizes[i], size) == 0) return;
    if (s->nsizes < RESULTS_MAX_SIZES)
        snprintf(s->sizes[s->nsizes++], sizeof s->sizes[0], "%s", size);
}

static int load_bench(results_set *s, const char *path, char *err, size_t errsize)
{
    csv_file c;
    int cols[B_COLS];
    if (csv_open(&c, path, bench_cols, cols, B_COLS, err, errsize) != 0) return -1;
    char dist[32] = "";
    csv_line l;
    int status = 0;
    while (status == 0 && csv_next(&c, &l)) {
        if (l.n != c.header.n) continue;
        if (!dist[0]) snprintf(dist, sizeof dist, "%s", get(&l, cols[B_DIST]));
        if (strcmp(dist, get(&l, cols[B_DIST])) != 0) continue;
        results_row *r = row_for(s, get(&l, cols[B_IMPL]));
        if (!r || r->nspeeds == RESULTS_MAX_SIZES) continue;
        if (!r->target[0]) snprintf(r->target, sizeof r->target, "%s", get(&l, cols[B_TARGET]));
        if (results_parse_features(get(&l, cols[B_FEATURES]), &r->features) != 0) {
            snprintf(err, errsize, "'%s': unknown CPU feature in '%s'", path,
                     get(&l, cols[B_FEATURES]));
            status = -1;
        }
        const char *size = get(&l, cols[B_SIZE]);
        if (results_speed_at(r, size)) continue;
        results_speed *sp = &r->speed[r->nspeeds++];
        snprintf(sp->size, sizeof sp->size, "%s", size);
        sp->ns = number(get(&l, cols[B_NS]), NAN);
        sp->ratio = number(get(&l, cols[B_RATIO]), NAN);
        note_size(s, size);
        snprintf(s->baseline, sizeof s->baseline, "%s", get(&l, cols[B_BASELINE]));
    }
    csv_close(&c);
    return status;
}

int results_load(results_set *s, const char *accuracy_path, const char *bench_path, char *err,
                 size_t errsize)
{
    memset(s, 0, sizeof *s);
    if (load_accuracy(s, accuracy_path, err, errsize) != 0) return -1;
    return bench_path ? load_bench(s, bench_path, err, errsize) : 0;
}
