/* The report's scans of the frameworks' paths (see framework_paths_scan.h). */
#include "framework_paths_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accuracy_csv.h"
#include "exec_frameworks.h"
#include "exec_impl.h"
#include "framework_sample.h"
#include "refine.h"
#include "report_files.h"
#include "results.h"
#include "scan.h"
#include "scan_small.h"

/* A path's child answers a request of 2^16 inputs with one framework call per input on a size-1
 * path: TensorFlow's eager calls take minutes for it. */
enum { PATH_TIMEOUT_S = 900 };

static const results_row *find_row(const results_set *s, const char *name);

/* ROW of "ROW@PATH" into buf; NULL when name has no '@'. */
static const char *row_of(const char *name, char *buf, size_t size)
{
    const char *at = strchr(name, '@');
    if (!at || (size_t)(at - name) >= size) return NULL;
    snprintf(buf, size, "%.*s", (int)(at - name), name);
    return buf;
}

bool framework_is_path(const gelu_impl *m)
{
    char row[RESULTS_NAME];
    return row_of(m->name, row, sizeof row) && exec_framework_find(row) != NULL;
}

size_t framework_paths_split(const gelu_impl **list, size_t *n, const gelu_impl **paths)
{
    size_t kept = 0, moved = 0;
    for (size_t i = 0; i < *n; i++)
        if (framework_is_path(list[i])) paths[moved++] = list[i];
        else list[kept++] = list[i];
    *n = kept;
    return moved;
}

/* The rows of paths[0..n) in `format` (each once, before its first path) and the paths in it,
 * then the format's other paths of those rows (a 16-bit dtype's sizes 34 to 65), into out
 * (room 2n plus the format's count); their count. A path or row not registered in that format
 * is left out. */
static size_t scan_list(const gelu_impl *const *paths, size_t n, gelu_format_id format,
                        const gelu_impl **out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        char row[RESULTS_NAME];
        row_of(paths[i]->name, row, sizeof row);
        const gelu_impl *r = gelu_impl_find_in(row, format);
        const gelu_impl *p = gelu_impl_find_in(paths[i]->name, format);
        bool have = false;
        for (size_t k = 0; k < m; k++) have |= out[k] == r;
        if (r && !have) out[m++] = r;
        if (p) out[m++] = p;
    }
    /* a 16-bit format's own paths of those rows (its sizes go to 65, binary32's to 33) */
    for (size_t i = 0; format != GELU_FORMAT_BINARY32 && i < gelu_impl_count_in(format); i++) {
        const gelu_impl *p = gelu_impl_at_in(format, i);
        char row[RESULTS_NAME];
        if (!framework_is_path(p) || !row_of(p->name, row, sizeof row)) continue;
        bool have = false, row_in = false;
        for (size_t k = 0; k < m; k++) {
            have |= out[k] == p;
            row_in |= strcmp(out[k]->name, row) == 0;
        }
        if (row_in && !have) out[m++] = p;
    }
    return m;
}

static int write_csv(report_stage *st, const char *name, const scan_result *r)
{
    char path[2200];
    if (!report_stage_path(st, name, path, sizeof path)) return -1;
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    accuracy_csv_write(r, f);
    return fclose(f) == 0 ? 0 : -1;
}

/* same_as of list[0..m) (scan.h): a path's row's index (scan_list puts each row before its
 * paths), −1 for the rows. */
static void paths_same_as(const gelu_impl *const *list, size_t m, int *same_as)
{
    for (size_t i = 0; i < m; i++) {
        char row[RESULTS_NAME];
        same_as[i] = -1;
        if (!row_of(list[i]->name, row, sizeof row)) continue;
        for (size_t k = 0; k < i; k++)
            if (strcmp(list[k]->name, row) == 0) same_as[i] = (int)k;
    }
}

/* The paths' counts of outputs differing from their rows' (the scan's, over its inputs) into
 * out: −1 for a derivative one of them has not. */
static void diffs_of(framework_diffs *out, const gelu_impl *const *list, size_t m, const int *same_as,
                     const uint64_t (*differ)[DIR_COUNT], uint64_t inputs)
{
    memset(out, 0, sizeof *out);
    out->inputs = inputs;
    for (size_t i = 0; i < m && out->n < FRAMEWORK_PATHS_MAX; i++) {
        if (same_as[i] < 0) continue;
        const gelu_impl *row = list[same_as[i]];
        framework_path_diff *d = &out->d[out->n++];
        snprintf(d->path, sizeof d->path, "%s", list[i]->name);
        snprintf(d->row, sizeof d->row, "%s", row->name);
        d->differ[0] = (long)differ[i][DIR_FORWARD];
        d->differ[1] = scan_directions(row, true) == DIR_COUNT && scan_directions(list[i], true) == DIR_COUNT
                           ? (long)differ[i][DIR_DERIVATIVE]
                           : -1;
    }
}

/* Scans list[0..m) in `format` (binary32: on the paths' sample), its file `file` staged, read
 * back into sec, each path's outputs compared with its row's at every input scanned. 0, or −1
 * with err. */
static int scan_one(const gelu_impl **list, size_t m, gelu_format_id format, unsigned threads,
                    report_stage *st, const char *file, framework_paths_section *sec, char *err,
                    size_t errsize)
{
    scan_result *r = calloc(1, sizeof *r);
    uint32_t *inputs = NULL;
    uint64_t ninputs = 0;
    const char *why = "out of memory";
    int *same_as = malloc(m * sizeof *same_as);
    uint64_t (*differ)[DIR_COUNT] = calloc(m, sizeof *differ);
    int rc = r && same_as && differ ? 0 : -1;
    sec->format = format;
    if (rc == 0) paths_same_as(list, m, same_as);
    if (rc == 0 && format == GELU_FORMAT_BINARY32) {
        rc = framework_sample_build(&inputs, &ninputs);
        scan_config cfg = {.impls = list, .nimpls = m, .grad = true,
                           .domain = {.kind = DOMAIN_LIST, .list = inputs, .n = ninputs},
                           .threads = threads, .shard_n = 1, .same_as = same_as, .differ = differ};
        if (rc == 0 && (rc = scan_run(&cfg, r, &why)) == 0) scan_refine_maxima(r);
        if (rc == 0) framework_sample_describe(r->inputs, sec->covered, sizeof sec->covered);
    } else if (rc == 0) {
        scan_small_config cfg = {.format = format, .impls = list, .nimpls = m, .grad = true,
                                 .threads = threads, .same_as = same_as, .differ = differ};
        rc = scan_small_run(&cfg, r, &why);
        snprintf(sec->covered, sizeof sec->covered, "all %llu %s encodings, forward and derivative",
                 (unsigned long long)(r ? r->inputs : 0), gelu_format_of(format)->name);
    }
    if (rc == 0 && exec_impls_failure()) rc = -1, why = exec_impls_failure();
    /* done with these children: the next format's start from none (a 16-bit scan's rows and
     * paths are processes of their own, as many again) */
    for (size_t i = 0; i < m; i++) exec_impls_release(list[i]);
    if (rc == 0 && write_csv(st, file, r) != 0) rc = -1, why = "cannot write it";
    char path[2200], bad[512];
    if (rc == 0 && (!(sec->results = malloc(sizeof *sec->results)) ||
                    results_load_format(sec->results, report_stage_path(st, file, path, sizeof path),
                                        NULL, format, true, bad, sizeof bad) != 0)) {
        why = sec->results ? bad : "out of memory";
        rc = -1;
    }
    if (rc == 0) diffs_of(&sec->diffs, list, m, same_as, (const uint64_t (*)[DIR_COUNT])differ, r->inputs);
    if (rc != 0) {
        snprintf(err, errsize, "%s: %s", file, why);
        free(sec->results);
        sec->results = NULL;
    }
    if (r) scan_result_free(r);
    free(inputs);
    free(same_as);
    free(differ);
    return rc;
}

/* Starts, in `format`, the framework rows of paths[0..n) whose client serves it (with the paths
 * GELUCHECK_FRAMEWORK_PATHS selects, as the binary32 ones were). 0, or −1 with err. */
static int start_in(const gelu_impl *const *paths, size_t n, gelu_format_id format, char *err,
                    size_t errsize)
{
    for (size_t i = 0; i < n; i++) {
        char row[RESULTS_NAME], note[2000];
        const exec_framework *fw = exec_framework_find(row_of(paths[i]->name, row, sizeof row));
        if (!fw || !exec_framework_serves(fw, format)) continue;
        if (exec_framework_add(fw, format, PATH_TIMEOUT_S, err, errsize, note, sizeof note) != 0)
            return -1;
        if (!gelu_impl_find_in(paths[i]->name, format)) /* a path GELUCHECK_FRAMEWORK_PATHS did not */
            if (exec_framework_add_path(paths[i]->name, format, PATH_TIMEOUT_S, err, errsize, note,
                                        sizeof note) < 0)
                err[0] = '\0'; /* the client lists it not in this format: left out */
    }
    return 0;
}

int framework_paths_scan(const gelu_impl *const *paths, size_t n, unsigned threads,
                         report_stage *st, framework_paths_out *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    if (n == 0) return 0;
    const gelu_impl **list = calloc(2 * n, sizeof *list);
    if (!list) return snprintf(err, errsize, "out of memory"), -1;
    size_t m = scan_list(paths, n, GELU_FORMAT_BINARY32, list);
    int rc = scan_one(list, m, GELU_FORMAT_BINARY32, threads, st, FRAMEWORK_PATHS_FILE,
                      &out->s[out->n], err, errsize);
    if (rc == 0) out->n++;
    gelu_format_id ids[REPORT_FORMATS];
    for (size_t k = 0, nf = report_formats(ids); rc == 0 && k < nf; k++) {
        if (!gelu_format_small(gelu_format_of(ids[k])) || out->n == FRAMEWORK_SECTIONS_MAX) continue;
        char file[64], why[1200];
        snprintf(file, sizeof file, "accuracy_paths_%s.csv", gelu_format_of(ids[k])->name);
        if (start_in(paths, n, ids[k], why, sizeof why) != 0) {
            size_t used = strlen(out->note);
            snprintf(out->note + used, sizeof out->note - used, "%s%s: left out (%.400s)",
                     used ? "; " : "", gelu_format_of(ids[k])->name, why);
            continue;
        }
        const gelu_impl **room = realloc(list, (2 * n + gelu_impl_count_in(ids[k])) * sizeof *list);
        if (!room) {
            rc = -1;
            snprintf(err, errsize, "out of memory");
            break;
        }
        list = room;
        m = scan_list(paths, n, ids[k], list);
        if (m == 0) continue; /* no framework serves it */
        rc = scan_one(list, m, ids[k], threads, st, file, &out->s[out->n], err, errsize);
        if (rc == 0) out->n++;
    }
    free(list);
    return rc;
}

int framework_paths_merge(results_set *s, const char *path, char *err, size_t errsize)
{
    if (access(path, F_OK) != 0) return 0;
    results_set *p = malloc(sizeof *p);
    if (!p) return snprintf(err, errsize, "out of memory"), -1;
    int rc = results_load_format(p, path, NULL, GELU_FORMAT_BINARY32, false, err, errsize);
    for (size_t i = 0; rc == 0 && i < p->n && s->n < RESULTS_MAX_ROWS; i++) {
        char row[RESULTS_NAME];
        if (!row_of(p->rows[i].name, row, sizeof row) || !find_row(s, row) || find_row(s, p->rows[i].name))
            continue;
        s->rows[s->n++] = p->rows[i];
    }
    free(p);
    return rc;
}

bool framework_paths_broken(const framework_paths_out *out)
{
    for (size_t k = 0; k < out->n; k++)
        for (size_t i = 0; out->s[k].results && i < out->s[k].results->n; i++)
            if (strcmp(out->s[k].results->rows[i].contract, "fail") == 0) return true;
    return false;
}

void framework_paths_out_free(framework_paths_out *out)
{
    for (size_t k = 0; k < out->n; k++) free(out->s[k].results);
    out->n = 0;
}

static const results_row *find_row(const results_set *s, const char *name)
{
    for (size_t i = 0; s && i < s->n; i++)
        if (strcmp(s->rows[i].name, name) == 0) return &s->rows[i];
    return NULL;
}

/* Whether two rows' figures differ: verdict, monotonicity, forward and derivative maxima. */
static bool figures_differ(const results_row *p, const results_row *r)
{
    if (strcmp(p->contract, r->contract) != 0 || p->mono_violations != r->mono_violations) return true;
    for (int d = 0; d < 2; d++) {
        const results_error *a[] = {&p->own[d], &p->exact[d]}, *b[] = {&r->own[d], &r->exact[d]};
        for (int k = 0; k < 2; k++)
            if (a[k]->present != b[k]->present ||
                (a[k]->present && (a[k]->max_ulp != b[k]->max_ulp || a[k]->max_abs != b[k]->max_abs)))
                return true;
    }
    return false;
}

/* Whether path (its row `row`) differs from the row in section sec: its figures, or outputs of
 * other encodings where compared. */
static bool differs_in(const framework_paths_section *sec, const char *path, const char *row)
{
    const results_row *p = find_row(sec->results, path), *r = find_row(sec->results, row);
    if (p && r && figures_differ(p, r)) return true;
    for (size_t k = 0; k < sec->diffs.n; k++)
        if (strcmp(sec->diffs.d[k].path, path) == 0)
            return sec->diffs.d[k].differ[0] > 0 || sec->diffs.d[k].differ[1] > 0;
    return false;
}

/* Whether a is worse than b: a broken contract first, then a larger max ULP against exact
 * GELU (forward). */
static bool worse(const results_row *a, const results_row *b)
{
    bool fa = strcmp(a->contract, "fail") == 0, fb = strcmp(b->contract, "fail") == 0;
    if (fa != fb) return fa;
    double ua = a->exact[0].present ? a->exact[0].max_ulp : -1;
    double ub = b->exact[0].present ? b->exact[0].max_ulp : -1;
    return ua > ub;
}

void framework_paths_answer(const framework_paths_out *out, answer *a)
{
    a->framework_paths_known = out->n > 0 && out->s[0].results;
    a->nframework_paths = 0;
    if (!a->framework_paths_known) return;
    const results_set *s = out->s[0].results;
    for (size_t i = 0; i < s->n; i++) { /* the rows, in the scan's order */
        if (strchr(s->rows[i].name, '@') || a->nframework_paths == ANSWER_FRAMEWORK_ROWS) continue;
        const results_row *row = &s->rows[i], *worst = row;
        answer_framework_paths e = {.paths = 0};
        snprintf(e.row, sizeof e.row, "%s", row->name);
        size_t len = strlen(row->name), used = 0;
        for (size_t j = 0; j < s->n; j++) {
            const char *name = s->rows[j].name;
            if (strncmp(name, row->name, len) != 0 || name[len] != '@') continue;
            e.paths++;
            if (worse(&s->rows[j], worst)) worst = &s->rows[j];
            bool d = false;
            for (size_t k = 0; k < out->n && !d; k++) d = differs_in(&out->s[k], name, row->name);
            if (!d) continue;
            e.differ++;
            if (used < sizeof e.differing)
                used += (size_t)snprintf(e.differing + used, sizeof e.differing - used, "%s%s",
                                         used ? ", " : "", name + len + 1);
        }
        if (!e.paths) continue;
        snprintf(e.worst_path, sizeof e.worst_path, "%s",
                 worst == row ? "the batch path" : strchr(worst->name, '@') + 1);
        a->framework_paths[a->nframework_paths++] = e;
    }
}
