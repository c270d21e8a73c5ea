/* Measured results read back from CSV (see results.h). */
#include "results.h"
#include "input_file.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy_columns.h"
#include "bench.h"
#include "gelu_cr16.h"
#include "gelu_f64.h"
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

/* The implementation called name in the set's format: a 16-bit format's native one of that
 * name, else the registry's binary32 one (run widened in a 16-bit format); NULL when none. */
static const gelu_impl *impl_of(const results_set *s, const char *name)
{
    const gelu_impl *m = NULL;
    if (gelu_format_sampled(gelu_format_of(s->format))) return gelu_impl_find_in(name, s->format); /* its own rows */
    if (s->format != GELU_FORMAT_BINARY32) m = gelu_impl_find_in(name, s->format);
    return m ? m : gelu_impl_find(name);
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
    r->exact_benchdnn_failed = r->exact_xnnpack_failed = -1;
    const gelu_impl *m = impl_of(s, name); /* until a CSV says otherwise */
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
    const char *path;
    size_t lineno;
    bool known_only; /* implementations this build has, with its targets and features */
    char *err;
    size_t errsize;
} csv_file;

static void csv_close(csv_file *c)
{
    fclose(c->f);
    free(c->line);
    free(c->header_text);
}

static int bad(csv_file *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(csv_file *c, const char *fmt, ...)
{
    int n = snprintf(c->err, c->errsize, "%s:%zu: ", c->path, c->lineno);
    if (n > 0 && (size_t)n < c->errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + n, c->errsize - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -2;
}

/* Opens a CSV file and finds its required columns (names[i] into cols[i]); a missing one, a
 * column twice or an empty name is an error. */
static int csv_open(csv_file *c, const char *path, bool known_only, const char *const *names,
                    int *cols, size_t n, char *err, size_t errsize)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    c->known_only = known_only;
    c->err = err;
    c->errsize = errsize;
    c->lineno = 1;
    c->f = input_open(path);
    if (!c->f) {
        snprintf(err, errsize, "cannot read '%s': %s", path, input_strerror(errno));
        return -1;
    }
    errno = 0;
    if (getline(&c->header_text, &c->cap, c->f) < 0) {
        int e = errno;
        if (e) snprintf(err, errsize, "cannot read '%s': %s", path, strerror(e));
        else snprintf(err, errsize, "'%s' is empty", path);
        fclose(c->f);
        free(c->header_text);
        return e ? -1 : -2;
    }
    c->cap = 0;
    split(c->header_text, &c->header);
    for (size_t i = 0; i < c->header.n; i++) {
        if (c->header.field[i][0] == '\0') {
            bad(c, "column %zu of the header has no name", i + 1);
            csv_close(c);
            return -2;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(c->header.field[i], c->header.field[j]) == 0) {
                bad(c, "column '%s' appears twice in the header", c->header.field[i]);
                csv_close(c);
                return -2;
            }
    }
    for (size_t i = 0; i < n; i++)
        if ((cols[i] = column(&c->header, names[i])) < 0) {
            snprintf(err, errsize, "'%s' has no column '%s' (not a gelucheck CSV?)", path,
                     names[i]);
            csv_close(c);
            return -2;
        }
    return 0;
}

/* The next line: 1, 0 at the end, −1 (err) for a line whose field count is not the header's. */
static int csv_next(csv_file *c, csv_line *l)
{
    errno = 0;
    if (getline(&c->line, &c->cap, c->f) < 0) {
        if (errno) return bad(c, "cannot read: %s", strerror(errno));
        return 0;
    }
    c->lineno++;
    if (strlen(c->line) != strcspn(c->line, "\n") + (strchr(c->line, '\n') != NULL))
        return bad(c, "a NUL byte in the line");
    split(c->line, l);
    if (l->n != c->header.n)
        return bad(c, "%zu fields where the header has %zu", l->n, c->header.n);
    return 1;
}

static const char *col_name(const csv_file *c, int col) { return c->header.field[col]; }

/* A number in [lo, hi] ("inf" allowed when hi is INFINITY); never NaN. empty_ok: "" gives
 * *out = NAN. */
static int get_number(csv_file *c, const csv_line *l, int col, double lo, double hi, bool empty_ok,
                      double *out)
{
    const char *s = get(l, col);
    if (*s == '\0' && empty_ok) {
        *out = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || isnan(v) || v < lo || v > hi || isspace((unsigned char)*s))
        return bad(c, "column '%s': '%s' is not a number from %g to %g", col_name(c, col), s, lo, hi);
    *out = v;
    return 0;
}

/* A count 0..2^32 (or −1 for "" when empty_ok). */
static int get_count(csv_file *c, const csv_line *l, int col, bool empty_ok, long *out)
{
    const char *s = get(l, col);
    if (*s == '\0' && empty_ok) {
        *out = -1;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end != '\0' || errno == ERANGE || v > (1ull << 32))
        return bad(c, "column '%s': '%s' is not a count from 0 to 2^32", col_name(c, col), s);
    *out = (long)v;
    return 0;
}

/* An input as written: "" (none) or a hex float. */
static int get_hex_x(csv_file *c, const csv_line *l, int col, char *out, size_t size)
{
    const char *s = get(l, col);
    char *end;
    if (*s != '\0') {
        const char *h = s + (*s == '-');
        double v = strtod(s, &end);
        if (strncmp(h, "0x", 2) != 0 || *end != '\0' || isnan(v) || strlen(s) >= size)
            return bad(c, "column '%s': '%s' is not a hex float", col_name(c, col), s);
    }
    snprintf(out, size, "%s", s);
    return 0;
}

static int get_enum(csv_file *c, const csv_line *l, int col, const char *const *names, int n)
{
    const char *s = get(l, col);
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return bad(c, "column '%s': unknown value '%s'", col_name(c, col), s);
}

/* Column format (−1: absent, binary32): a known format's name; its id, −2 after an error. */
static int get_format(csv_file *c, const csv_line *l, int col)
{
    if (col < 0) return GELU_FORMAT_BINARY32;
    const gelu_format *f = gelu_format_find(get(l, col));
    if (!f) return bad(c, "column '%s': unknown format '%s'", col_name(c, col), get(l, col));
    return (int)f->id;
}

/* The row of an implementation name; with known_only, one this build has whose target is the
 * file's. */
static results_row *row_checked(csv_file *c, results_set *s, const csv_line *l, int impl_col,
                                int target_col)
{
    const char *name = get(l, impl_col), *target = get(l, target_col);
    if (*name == '\0' || strlen(name) >= RESULTS_NAME) {
        bad(c, "column '%s': '%s' is not an implementation name", col_name(c, impl_col), name);
        return NULL;
    }
    if (gelu_target_from_name(target) == GELU_TARGET_COUNT) {
        bad(c, "column '%s': unknown target '%s'", col_name(c, target_col), target);
        return NULL;
    }
    const gelu_impl *m = impl_of(s, name);
    if (c->known_only && !m) {
        bad(c, "column '%s': '%s' is not an implementation of this build (see 'gelucheck list')",
            col_name(c, impl_col), name);
        return NULL;
    }
    if (c->known_only && strcmp(target, gelu_target_name(m->target)) != 0) {
        bad(c, "column '%s': '%s', but %s's target in this build is '%s'", col_name(c, target_col),
            target, name, gelu_target_name(m->target));
        return NULL;
    }
    results_row *r = row_for(s, name);
    if (!r) bad(c, "more than %d implementations", RESULTS_MAX_ROWS);
    else if (r->target[0] && strcmp(r->target, target) != 0) {
        bad(c, "column '%s': '%s', but an earlier row of %s says '%s'", col_name(c, target_col),
            target, name, r->target);
        return NULL;
    }
    return r;
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

/* The fields of the columns shown as written (accuracy_columns.h) into r->text[ref][d]: each a
 * number ("inf" allowed) or empty, short enough to keep. */
static int keep_texts(csv_file *c, results_row *r, const csv_line *l, const int *text_col, int ref,
                      int d)
{
    for (int k = 0; k < RESULTS_TEXT_COLUMNS; k++) {
        if (text_col[k] < 0) continue;
        double v;
        if (get_number(c, l, text_col[k], -INFINITY, INFINITY, true, &v)) return -2;
        const char *t = get(l, text_col[k]);
        if (strlen(t) >= RESULTS_X)
            return bad(c, "column '%s': '%s' is longer than %d characters", col_name(c, text_col[k]),
                       t, RESULTS_X - 1);
        snprintf(r->text[ref][d][k], RESULTS_X, "%s", t);
    }
    return 0;
}

/* Column dispatched_isa (−1: absent): a word of a-z 0-9 _, the same on every row of an
 * implementation. */
static int get_dispatched_isa(csv_file *c, results_row *r, const csv_line *l, int col)
{
    if (col < 0) return 0;
    const char *isa = get(l, col);
    size_t len = strlen(isa);
    if (len >= sizeof r->dispatched_isa ||
        strspn(isa, "abcdefghijklmnopqrstuvwxyz0123456789_") != len)
        return bad(c, "column '%s': '%.40s' is not an ISA name (a-z, 0-9, _; at most %zu)",
                   col_name(c, col), isa, sizeof r->dispatched_isa - 1);
    if (r->csv_rows && strcmp(r->dispatched_isa, isa) != 0)
        return bad(c, "column '%s': '%s', but an earlier row of %s says '%s'", col_name(c, col),
                   isa, r->name, r->dispatched_isa);
    snprintf(r->dispatched_isa, sizeof r->dispatched_isa, "%s", isa);
    return 0;
}

static int accuracy_line(csv_file *c, results_set *s, const csv_line *l, const int *col,
                         const int *crit, const int *hist, int cr_count, const int *text_col,
                         int normal_mean, int isa_col, int format_col)
{
    static const char *const refs[] = {"own", "exact"}, *const dirs[] = {"forward", "derivative"},
                             *const verdicts[] = {"pass", "fail", ""};
    int ref, d, format = get_format(c, l, format_col);
    if (format < 0) return -2;
    if (format != (int)s->format)
        return bad(c, "column 'format': a %s row where %s rows are read (%s results are in their "
                   "own file: accuracy_%s.csv)", gelu_format_of((gelu_format_id)format)->name,
                   gelu_format_of(s->format)->name, gelu_format_of((gelu_format_id)format)->name,
                   gelu_format_of((gelu_format_id)format)->name);
    if ((ref = get_enum(c, l, col[A_REF], refs, 2)) < 0 || (d = get_enum(c, l, col[A_DIR], dirs, 2)) < 0)
        return -2;
    results_row *r = row_checked(c, s, l, col[A_IMPL], col[A_TARGET]);
    if (!r || get_dispatched_isa(c, r, l, isa_col)) return -2;
    snprintf(r->target, sizeof r->target, "%s", get(l, col[A_TARGET]));
    bool own = ref == 0;
    results_error e = {.present = true};
    results_error *dst = own ? &r->own[d] : &r->exact[d];
    unsigned bit = 1u << (2 * ref + d);
    if (r->csv_rows & bit)
        return bad(c, "a second row for %s, reference %s, %s", r->name, refs[ref], dirs[d]);
    r->csv_rows |= bit;
    long inputs;
    if (get_number(c, l, col[A_ULP], 0, INFINITY, false, &e.max_ulp) ||
        get_number(c, l, col[A_ABS], 0, INFINITY, false, &e.max_abs) ||
        get_number(c, l, col[A_CR], 0, 1, false, &e.cr_fraction) ||
        get_hex_x(c, l, col[A_ULP_X], e.max_ulp_x, sizeof e.max_ulp_x) ||
        get_hex_x(c, l, col[A_ABS_X], e.max_abs_x, sizeof e.max_abs_x) ||
        get_count(c, l, col[A_INPUTS], false, &inputs))
        return -2;
    e.normal_mean_ulp = NAN;
    /* empty for a binary64 sample, whose points carry no weight */
    bool sampled64 = gelu_format_sampled(gelu_format_of(s->format));
    if (normal_mean >= 0 && get_number(c, l, normal_mean, 0, INFINITY, sampled64, &e.normal_mean_ulp))
        return -2;
    if (inputs == 0) return bad(c, "column 'inputs': 0 inputs");
    long correctly_rounded;
    if (get_count(c, l, cr_count, true, &correctly_rounded)) return -2;
    if (correctly_rounded > inputs)
        return bad(c, "column 'correctly_rounded': %ld of %ld inputs", correctly_rounded, inputs);
    e.correctly_rounded = correctly_rounded; /* −1 without the column */
    e.inputs = (uint64_t)inputs;
    if (r->inputs && (uint64_t)inputs != r->inputs)
        return bad(c, "column 'inputs': %ld, but an earlier row of %s says %llu", inputs, r->name,
                   (unsigned long long)r->inputs);
    r->inputs = (uint64_t)inputs;
    r->scanned = true;
    *dst = e;
    long *exact_crit[2] = {&r->exact_benchdnn_failed, &r->exact_xnnpack_failed};
    bool exact_row = !own || strcmp(r->target, "exact") == 0; /* exact-target: its own exact row */
    for (int k = 0; k < 2 && d == 0 && exact_row; k++)
        if (crit[k] >= 0 && get_count(c, l, crit[k], true, exact_crit[k])) return -2;
    if (!own) return keep_texts(c, r, l, text_col, ref, d); /* the columns' own checks first */
    if (strcmp(r->target, "exact") == 0) r->exact[d] = e;
    long mono, spec;
    int verdict;
    if (get_count(c, l, col[A_MONO], d == 1, &mono) || get_count(c, l, col[A_SPECIALS], true, &spec) ||
        (verdict = get_enum(c, l, col[A_CONTRACT], verdicts, 3)) < 0)
        return -2;
    if (d == 0) r->mono_violations = mono;
    r->specials_failed[d] = spec;
    snprintf(r->contract, sizeof r->contract, "%s", verdicts[verdict]);
    if (d == 0) {
        uint64_t sum = 0;
        for (int b = 0; b < HIST_BUCKETS; b++) {
            long v = 0;
            if (hist[b] >= 0 && get_count(c, l, hist[b], false, &v)) return -2;
            r->hist[b] = (uint64_t)v;
            sum += (uint64_t)v;
        }
        if (hist[0] >= 0 && sum != r->inputs)
            return bad(c, "the ULP histogram holds %llu inputs, not %llu", (unsigned long long)sum,
                       (unsigned long long)r->inputs);
        if ((crit[0] >= 0 && get_count(c, l, crit[0], true, &r->benchdnn_failed)) ||
            (crit[1] >= 0 && get_count(c, l, crit[1], true, &r->xnnpack_failed)) ||
            (crit[2] >= 0 && get_count(c, l, crit[2], true, &r->xnnpack_checked)))
            return -2;
    }
    if (keep_texts(c, r, l, text_col, ref, d)) return -2;
    /* An exact-target implementation is its own exact row. */
    if (strcmp(r->target, "exact") == 0) memcpy(r->text[1][d], r->text[0][d], sizeof r->text[0][d]);
    return 0;
}

static int load_accuracy(results_set *s, const char *path, bool known_only, char *err,
                         size_t errsize)
{
    csv_file c;
    int cols[A_COLS];
    int rc = csv_open(&c, path, known_only, accuracy_cols, cols, A_COLS, err, errsize);
    if (rc != 0) return rc;
    int crit[3] = {column(&c.header, "benchdnn_failed"), column(&c.header, "xnnpack_failed"),
                   column(&c.header, "xnnpack_checked")};
    int hist[HIST_BUCKETS], cr_count = column(&c.header, "correctly_rounded"),
        normal_mean = column(&c.header, "normal_mean_ulp"),
        isa_col = column(&c.header, "dispatched_isa"), format_col = column(&c.header, "format");
    for (int b = 0; b < HIST_BUCKETS; b++) {
        char name[32];
        snprintf(name, sizeof name, "ulp_%s", hist_bucket_name(b));
        hist[b] = column(&c.header, name);
    }
    int text_col[RESULTS_TEXT_COLUMNS];
    for (int k = 0; k < RESULTS_TEXT_COLUMNS; k++) text_col[k] = -1;
    for (size_t k = 0; k < accuracy_column_count(); k++) {
        const accuracy_column *a = accuracy_column_at(k);
        int slot = accuracy_column_text_slot(a);
        if (slot >= 0 && slot < RESULTS_TEXT_COLUMNS) text_col[slot] = column(&c.header, a->name);
    }
    csv_line l;
    int rows = 0;
    while ((rc = csv_next(&c, &l)) == 1 &&
           (rc = accuracy_line(&c, s, &l, cols, crit, hist, cr_count, text_col, normal_mean,
                               isa_col, format_col)) == 0)
        rows++;
    if (rc == 0 && rows == 0) rc = bad(&c, "no rows after the header");
    csv_close(&c);
    return rc;
}

enum { B_SIZE, B_N, B_IMPL, B_TARGET, B_FEATURES, B_NS, B_RATIO, B_BASELINE, B_DIST, B_COLS };
static const char *const bench_cols[B_COLS] = {
    "size", "n", "impl", "target", "features", "ns_per_element_median", "ratio_to_baseline",
    "baseline", "dist"};

/* The sizes the benchmark names (bench.h), in the format's elements: the label, or a number
 * that is the count. */
static int check_size(csv_file *c, const csv_line *l, const int *col, gelu_format_id format)
{
    const char *size = get(l, col[B_SIZE]);
    long n;
    if (get_count(c, l, col[B_N], false, &n)) return -2;
    size_t named = bench_named_size_elements(size, format);
    if (named) {
        if ((size_t)n != named)
            return bad(c, "column 'n': %ld, but size %s is %zu elements in %s", n, size, named,
                       gelu_format_of(format)->name);
        return 0;
    }
    char *end;
    long v = strtol(size, &end, 10);
    if (*size < '1' || *size > '9' || *end != '\0' || v != n || strlen(size) >= 24)
        return bad(c, "column 'size': '%s' is not l1, l2, dram or the element count %ld", size, n);
    return 0;
}

static void note_size(results_set *s, const char *size)
{
    for (size_t i = 0; i < s->nsizes; i++)
        if (strcmp(s->sizes[i], size) == 0) return;
    if (s->nsizes < RESULTS_MAX_SIZES)
        snprintf(s->sizes[s->nsizes++], sizeof s->sizes[0], "%s", size);
}

static int bench_line(csv_file *c, results_set *s, const csv_line *l, const int *col, char *dist)
{
    static const char *const dists[] = {"normal", "uniform"};
    int format = get_format(c, l, column(&c->header, "format")); /* optional: binary32 */
    if (format < 0) return -2;
    if (format != (int)s->format) return 0; /* another format's run */
    if (get_enum(c, l, col[B_DIST], dists, 2) < 0 || check_size(c, l, col, s->format)) return -2;
    if (!dist[0]) snprintf(dist, 32, "%s", get(l, col[B_DIST]));
    const char *baseline = get(l, col[B_BASELINE]);
    if (c->known_only && !impl_of(s, baseline))
        return bad(c, "column 'baseline': '%s' is not an implementation of this build", baseline);
    if (s->baseline[0] && strcmp(s->baseline, baseline) != 0)
        return bad(c, "column 'baseline': '%s', but an earlier row says '%s'", baseline, s->baseline);
    snprintf(s->baseline, sizeof s->baseline, "%s", baseline);
    results_row *r = row_checked(c, s, l, col[B_IMPL], col[B_TARGET]);
    if (!r) return -2;
    unsigned features;
    if (results_parse_features(get(l, col[B_FEATURES]), &features) != 0)
        return bad(c, "column 'features': unknown CPU feature in '%s'", get(l, col[B_FEATURES]));
    const gelu_impl *m = impl_of(s, r->name);
    if (c->known_only && features != m->features) {
        char want[128];
        return bad(c, "column 'features': '%s', but %s needs %s in this build",
                   get(l, col[B_FEATURES]), r->name, cpu_features_string(m->features, want, sizeof want));
    }
    double ns, ratio, q1, q3; /* the quartiles are optional columns: NaN without them */
    if (get_number(c, l, col[B_NS], 0x1p-30, 1e12, false, &ns) ||
        get_number(c, l, col[B_RATIO], 0x1p-30, 1e12, false, &ratio) ||
        get_number(c, l, column(&c->header, "ns_per_element_q1"), 0, 1e12, true, &q1) ||
        get_number(c, l, column(&c->header, "ns_per_element_q3"), 0, 1e12, true, &q3))
        return -2;
    /* timed: an optional column (host when absent) */
    static const char *const timers[] = {"host", "child"};
    int timed_col = column(&c->header, "timed");
    int timed = timed_col < 0 ? 0 : get_enum(c, l, timed_col, timers, 2);
    if (timed < 0) return -2;
    double rounds[BENCH_KEPT_ROUNDS]; /* ratio_rounds: an optional column of ';'-separated positive numbers */
    unsigned nrounds = 0;
    int rounds_col = column(&c->header, "ratio_rounds");
    if (rounds_col >= 0 && *get(l, rounds_col)) {
        char text[BENCH_KEPT_ROUNDS * 16], *end;
        bool fits = (size_t)snprintf(text, sizeof text, "%s", get(l, rounds_col)) < sizeof text;
        for (char *save, *t = strtok_r(text, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
            double v = strtod(t, &end);
            if (!fits || *end || !(v > 0 && v < 1e12) || nrounds == BENCH_KEPT_ROUNDS)
                return bad(c, "column 'ratio_rounds': '%s' is not up to %d positive numbers "
                           "separated by ';'", get(l, rounds_col), BENCH_KEPT_ROUNDS);
            rounds[nrounds++] = v;
        }
    }
    if (strcmp(dist, get(l, col[B_DIST])) != 0) return 0; /* only the first distribution */
    const char *size = get(l, col[B_SIZE]);
    if (results_speed_at(r, size))
        return bad(c, "a second row for %s at size %s, %s", r->name, size, dist);
    if (r->nspeeds == RESULTS_MAX_SIZES) return bad(c, "more than %d sizes", RESULTS_MAX_SIZES);
    r->features = features;
    if (!r->target[0]) snprintf(r->target, sizeof r->target, "%s", get(l, col[B_TARGET]));
    results_speed *sp = &r->speed[r->nspeeds++];
    snprintf(sp->size, sizeof sp->size, "%s", size);
    sp->ns = ns;
    sp->ratio = ratio;
    sp->q1 = q1;
    sp->q3 = q3;
    sp->timed_inside = timed == 1;
    sp->nrounds = nrounds;
    memcpy(sp->rounds, rounds, nrounds * sizeof *rounds);
    note_size(s, size);
    return 0;
}

static int load_bench(results_set *s, const char *path, bool known_only, char *err, size_t errsize)
{
    csv_file c;
    int cols[B_COLS];
    int rc = csv_open(&c, path, known_only, bench_cols, cols, B_COLS, err, errsize);
    if (rc != 0) return rc;
    char dist[32] = "";
    csv_line l;
    int rows = 0;
    while ((rc = csv_next(&c, &l)) == 1 && (rc = bench_line(&c, s, &l, cols, dist)) == 0) rows++;
    if (rc == 0 && rows == 0) rc = bad(&c, "no rows after the header");
    csv_close(&c);
    return rc;
}

int results_load_format(results_set *s, const char *accuracy_path, const char *bench_path,
                        gelu_format_id format, bool known_only, char *err, size_t errsize)
{
    memset(s, 0, sizeof *s);
    s->format = format;
    int rc = load_accuracy(s, accuracy_path, known_only, err, errsize);
    return rc == 0 && bench_path ? load_bench(s, bench_path, known_only, err, errsize) : rc;
}

int results_load_checked(results_set *s, const char *accuracy_path, const char *bench_path,
                         bool known_only, char *err, size_t errsize)
{
    return results_load_format(s, accuracy_path, bench_path, GELU_FORMAT_BINARY32, known_only, err,
                               errsize);
}

int results_load(results_set *s, const char *accuracy_path, const char *bench_path, char *err,
                 size_t errsize)
{
    return results_load_checked(s, accuracy_path, bench_path, false, err, errsize);
}
