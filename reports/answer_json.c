/* answer.json written and read back (answer.h; the schema: docs/answer-json.md). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "input_file.h"
#include "json.h"

static void put_key(FILE *f, const char *key) { fprintf(f, "\"%s\": ", key); }

static void put_str_member(FILE *f, const char *key, const char *v, bool last)
{
    put_key(f, key);
    json_put_string(f, v);
    fputs(last ? "" : ", ", f);
}

static void put_num_member(FILE *f, const char *key, double v, bool last)
{
    put_key(f, key);
    json_put_number(f, v);
    fputs(last ? "" : ", ", f);
}

static void put_figures(FILE *f, const answer_figures *x)
{
    if (!x->present) {
        fputs("null", f);
        return;
    }
    fputs("{", f);
    put_str_member(f, "name", x->name, false);
    put_str_member(f, "target", x->target, false);
    put_num_member(f, "ns_per_element", x->ns, false);
    put_num_member(f, "x_relu", x->x_relu, false);
    put_num_member(f, "estimated_cycles_per_element", x->est_cycles, false);
    put_num_member(f, "max_ulp", x->max_ulp, false);
    put_num_member(f, "max_abs", x->max_abs, false);
    put_num_member(f, "mean_ulp_normal", x->mean_ulp_normal, false);
    put_num_member(f, "cr_fraction", x->cr_fraction, false);
    put_num_member(f, "own_max_ulp", x->own_max_ulp, false);
    put_num_member(f, "grad_max_ulp", x->grad_max_ulp, false);
    put_num_member(f, "mono_violations", x->mono_violations < 0 ? NAN : (double)x->mono_violations,
                   false);
    put_num_member(f, "inputs", (double)x->inputs, false);
    put_key(f, "measured_under");
    if (x->measured_under[0]) json_put_string(f, x->measured_under);
    else fputs("null", f);
    fputs("}", f);
}

int answer_write_json(FILE *f, const answer *a)
{
    fprintf(f, "{\n  \"schema\": %d,\n  ", a->schema);
    put_str_member(f, "format", a->format, false);
    put_key(f, "size");
    if (a->size[0]) json_put_string(f, a->size);
    else fputs("null", f);
    fputs(",\n  \"cpu\": {", f);
    put_str_member(f, "model", a->cpu_model, false);
    put_str_member(f, "features", a->cpu_features, true);
    fprintf(f, "},\n  \"coverage\": {\"inputs\": %llu, \"encodings\": %llu, \"all\": %s},\n",
            (unsigned long long)a->inputs, (unsigned long long)a->encodings,
            a->all_inputs ? "true" : "false");
    fputs("  \"capped_runs\": [", f);
    for (size_t i = 0; i < a->ncapped; i++) {
        fputs(i ? ",\n    {" : "\n    {", f);
        put_str_member(f, "cap", a->capped[i].cap, false);
        put_str_member(f, "implementations", a->capped[i].impls, false);
        put_num_member(f, "seconds", a->capped[i].seconds, true);
        fputs("}", f);
    }
    fputs("],\n  \"needs\": [", f);
    for (size_t i = 0; i < a->nneeds; i++) {
        fputs(i ? ",\n    {" : "\n    {", f);
        put_str_member(f, "title", a->needs[i].title, false);
        put_str_member(f, "asks", a->needs[i].asks, false);
        fprintf(f, "\"default\": %s}", a->needs[i].is_default ? "true" : "false");
    }
    fputs("],\n  \"platforms\": [", f);
    for (size_t j = 0; j < a->nplatforms; j++) {
        fputs(j ? ",\n    {" : "\n    {", f);
        put_str_member(f, "name", pick_platform_name(a->platforms[j].id), false);
        put_str_member(f, "features", a->platforms[j].features, false);
        put_str_member(f, "speed", a->platforms[j].speed, false);
        put_key(f, "relu");
        if (a->platforms[j].relu[0]) json_put_string(f, a->platforms[j].relu);
        else fputs("null", f);
        fputs("}", f);
    }
    fputs("],\n  \"cells\": [", f);
    const char *sep = "\n    ";
    for (size_t i = 0; i < a->nneeds; i++)
        for (size_t j = 0; j < a->nplatforms; j++) {
            const answer_cell *c = &a->cells[i][j];
            fprintf(f, "%s{\"need\": %zu, \"platform\": ", sep, i);
            json_put_string(f, pick_platform_name(a->platforms[j].id));
            fprintf(f, ", \"fits\": %d,\n     \"choice\": ", c->fits);
            put_figures(f, &c->choice);
            fputs(",\n     \"runner_up\": ", f);
            put_figures(f, &c->runner_up);
            fputs(",\n     \"closest\": ", f);
            if (c->fits == 0 && c->closest[0]) {
                fputs("{", f);
                put_str_member(f, "name", c->closest, false);
                put_str_member(f, "fails", c->why, true);
                fputs("}", f);
            } else
                fputs("null", f);
            fputs("}", f);
            sep = ",\n    ";
        }
    fputs("],\n  \"left_out\": ", f);
    if (!a->left_out_known) fputs("null", f);
    for (size_t i = 0; a->left_out_known && i <= a->left_out.n; i++) {
        if (i == a->left_out.n) {
            fputs(i ? "\n  ]" : "[]", f);
            break;
        }
        const left_out_family *e = &a->left_out.f[i];
        fputs(i ? ",\n    {" : "[\n    {", f);
        put_str_member(f, "family", e->family, false);
        put_str_member(f, "rows", e->rows, false);
        put_str_member(f, "why", e->why, false);
        put_key(f, "command");
        if (e->command[0]) json_put_string(f, e->command);
        else fputs("null", f);
        fputs("}", f);
    }
    fputs(",\n  \"framework_paths\": ", f);
    if (!a->framework_paths_known) fputs("null", f);
    else fputs(a->nframework_paths ? "[" : "[]", f);
    for (size_t i = 0; a->framework_paths_known && i < a->nframework_paths; i++) {
        const answer_framework_paths *e = &a->framework_paths[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        put_str_member(f, "row", e->row, false);
        put_num_member(f, "paths", e->paths, false);
        put_num_member(f, "differ", e->differ, false);
        put_str_member(f, "differing", e->differing, false);
        put_str_member(f, "worst_path", e->worst_path, true);
        fputs(i + 1 == a->nframework_paths ? "}\n  ]" : "}", f);
    }
    fputs("\n}\n", f);
    return ferror(f) ? -1 : 0;
}

/* ---- reading */

typedef struct {
    char *err;
    size_t errsize;
    const char *path;
} ctx;

static int bad(ctx *x, const char *what, const char *field)
{
    snprintf(x->err, x->errsize, "%s: %s \"%s\"", x->path, what, field);
    return -2;
}

static int get_text(ctx *x, const json_node *n, const char *key, char *out, size_t size,
                    const char *where)
{
    const char *s = json_get_string(n, key);
    char field[96];
    snprintf(field, sizeof field, "%s%s", where, key);
    if (!s) return bad(x, "no string", field);
    if (strlen(s) >= size) return bad(x, "too long a string at", field);
    snprintf(out, size, "%s", s);
    return 0;
}

static int get_num(ctx *x, const json_node *n, const char *key, double *v, const char *where)
{
    char field[96];
    snprintf(field, sizeof field, "%s%s", where, key);
    return json_get_number(n, key, v) ? 0 : bad(x, "no number", field);
}

static int read_figures(ctx *x, const json_node *n, answer_figures *f, const char *where)
{
    memset(f, 0, sizeof *f);
    if (!n || n->kind == JSON_NULL) return 0;
    if (n->kind != JSON_OBJECT) return bad(x, "not an object:", where);
    static const struct {
        const char *key;
        size_t offset;
    } numbers[] = {
        {"ns_per_element", offsetof(answer_figures, ns)},
        {"x_relu", offsetof(answer_figures, x_relu)},
        {"max_ulp", offsetof(answer_figures, max_ulp)},
        {"max_abs", offsetof(answer_figures, max_abs)},
        {"mean_ulp_normal", offsetof(answer_figures, mean_ulp_normal)},
        {"cr_fraction", offsetof(answer_figures, cr_fraction)},
        {"own_max_ulp", offsetof(answer_figures, own_max_ulp)},
        {"grad_max_ulp", offsetof(answer_figures, grad_max_ulp)},
    };
    int rc = get_text(x, n, "name", f->name, sizeof f->name, where);
    if (rc == 0) rc = get_text(x, n, "target", f->target, sizeof f->target, where);
    for (size_t i = 0; rc == 0 && i < sizeof numbers / sizeof numbers[0]; i++)
        rc = get_num(x, n, numbers[i].key, (double *)((char *)f + numbers[i].offset), where);
    double mono, inputs;
    if (rc == 0) rc = get_num(x, n, "mono_violations", &mono, where);
    if (rc == 0) rc = get_num(x, n, "inputs", &inputs, where);
    f->est_cycles = NAN; /* optional: an answer from before the estimates has none */
    if (rc == 0 && json_get(n, "estimated_cycles_per_element"))
        rc = get_num(x, n, "estimated_cycles_per_element", &f->est_cycles, where);
    if (rc == 0 && json_get_string(n, "measured_under"))
        rc = get_text(x, n, "measured_under", f->measured_under, sizeof f->measured_under, where);
    if (rc != 0) return rc;
    if (!(inputs >= 0)) return bad(x, "not a count:", "inputs");
    f->mono_violations = isnan(mono) ? -1 : (long)mono;
    f->inputs = (uint64_t)inputs;
    f->present = true;
    return 0;
}

static int read_cells(ctx *x, const json_node *cells, answer *a)
{
    if (!cells || cells->kind != JSON_ARRAY) return bad(x, "no array", "cells");
    for (const json_node *c = cells->child; c; c = c->next) {
        double need, fits;
        char platform[32];
        int rc = get_num(x, c, "need", &need, "cells[].");
        if (rc == 0) rc = get_text(x, c, "platform", platform, sizeof platform, "cells[].");
        if (rc == 0) rc = get_num(x, c, "fits", &fits, "cells[].");
        if (rc != 0) return rc;
        int j = -1;
        for (size_t k = 0; k < a->nplatforms; k++)
            if (strcmp(pick_platform_name(a->platforms[k].id), platform) == 0) j = (int)k;
        if (!(need >= 0 && need < (double)a->nneeds) || need != floor(need))
            return bad(x, "a need index out of range in", "cells[].need");
        if (j < 0) return bad(x, "a platform not in \"platforms\" in", "cells[].platform");
        answer_cell *cell = &a->cells[(size_t)need][j];
        cell->fits = (int)fits;
        if ((rc = read_figures(x, json_get(c, "choice"), &cell->choice, "cells[].choice.")) ||
            (rc = read_figures(x, json_get(c, "runner_up"), &cell->runner_up,
                               "cells[].runner_up.")))
            return rc;
        const json_node *closest = json_get(c, "closest");
        if (closest && closest->kind == JSON_OBJECT &&
            ((rc = get_text(x, closest, "name", cell->closest, sizeof cell->closest,
                            "cells[].closest.")) ||
             (rc = get_text(x, closest, "fails", cell->why, sizeof cell->why, "cells[].closest."))))
            return rc;
        if ((cell->fits > 0) != cell->choice.present)
            return bad(x, "\"fits\" and \"choice\" disagree in", "cells[]");
    }
    return 0;
}

/* "left_out": null or absent (not known: pick's, or an answer from before it), or an array. */
static int read_left_out(ctx *x, const json_node *list, answer *a)
{
    if (!list || list->kind == JSON_NULL) return 0;
    if (list->kind != JSON_ARRAY) return bad(x, "neither null nor an array:", "left_out");
    a->left_out_known = true;
    for (const json_node *n = list->child; n; n = n->next) {
        if (a->left_out.n == LEFT_OUT_MAX) return bad(x, "too many families in", "left_out");
        left_out_family *e = &a->left_out.f[a->left_out.n++];
        int rc = get_text(x, n, "family", e->family, sizeof e->family, "left_out[].");
        if (rc == 0) rc = get_text(x, n, "rows", e->rows, sizeof e->rows, "left_out[].");
        if (rc == 0) rc = get_text(x, n, "why", e->why, sizeof e->why, "left_out[].");
        if (rc == 0 && json_get_string(n, "command"))
            rc = get_text(x, n, "command", e->command, sizeof e->command, "left_out[].");
        if (rc != 0) return rc;
    }
    return 0;
}

/* "framework_paths": null or absent (not known), or an array. */
static int read_framework_paths(ctx *x, const json_node *list, answer *a)
{
    if (!list || list->kind == JSON_NULL) return 0;
    if (list->kind != JSON_ARRAY) return bad(x, "neither null nor an array:", "framework_paths");
    a->framework_paths_known = true;
    for (const json_node *n = list->child; n; n = n->next) {
        if (a->nframework_paths == ANSWER_FRAMEWORK_ROWS)
            return bad(x, "too many rows in", "framework_paths");
        answer_framework_paths *e = &a->framework_paths[a->nframework_paths++];
        double paths, differ;
        int rc = get_text(x, n, "row", e->row, sizeof e->row, "framework_paths[].");
        if (rc == 0) rc = get_num(x, n, "paths", &paths, "framework_paths[].");
        if (rc == 0) rc = get_num(x, n, "differ", &differ, "framework_paths[].");
        if (rc == 0) rc = get_text(x, n, "differing", e->differing, sizeof e->differing, "framework_paths[].");
        if (rc == 0) rc = get_text(x, n, "worst_path", e->worst_path, sizeof e->worst_path, "framework_paths[].");
        if (rc != 0) return rc;
        if (!(paths >= 1 && paths <= 1000 && differ >= 0 && differ <= paths && paths == (int)paths &&
              differ == (int)differ))
            return bad(x, "counts out of range (0 <= differ <= paths, 1 <= paths) in", "framework_paths[]");
        e->paths = (int)paths;
        e->differ = (int)differ;
    }
    return 0;
}

static int read_answer(ctx *x, const json_node *root, answer *a)
{
    memset(a, 0, sizeof *a);
    double schema, inputs, encodings;
    if (get_num(x, root, "schema", &schema, "") != 0) return -2;
    if (schema != ANSWER_SCHEMA) {
        snprintf(x->err, x->errsize, "%s: answer schema %g, this gelucheck reads schema %d", x->path,
                 schema, ANSWER_SCHEMA);
        return -2;
    }
    a->schema = ANSWER_SCHEMA;
    const json_node *cpu = json_get(root, "cpu"), *cover = json_get(root, "coverage");
    const json_node *all = json_get(cover, "all");
    int rc = get_text(x, root, "format", a->format, sizeof a->format, "");
    if (rc == 0 && json_get_string(root, "size"))
        rc = get_text(x, root, "size", a->size, sizeof a->size, "");
    if (rc == 0) rc = get_text(x, cpu, "model", a->cpu_model, sizeof a->cpu_model, "cpu.");
    if (rc == 0) rc = get_text(x, cpu, "features", a->cpu_features, sizeof a->cpu_features, "cpu.");
    if (rc == 0) rc = get_num(x, cover, "inputs", &inputs, "coverage.");
    if (rc == 0) rc = get_num(x, cover, "encodings", &encodings, "coverage.");
    if (rc == 0 && (!all || all->kind != JSON_BOOL)) rc = bad(x, "no true or false", "coverage.all");
    if (rc != 0) return rc;
    a->inputs = (uint64_t)inputs;
    a->encodings = (uint64_t)encodings;
    a->all_inputs = all->boolean;
    const json_node *needs = json_get(root, "needs"), *platforms = json_get(root, "platforms");
    if (!needs || needs->kind != JSON_ARRAY) return bad(x, "no array", "needs");
    for (const json_node *n = needs->child; n; n = n->next) {
        if (a->nneeds == ANSWER_MAX_NEEDS) return bad(x, "too many needs in", "needs");
        answer_need *an = &a->needs[a->nneeds++];
        const json_node *d = json_get(n, "default");
        if ((rc = get_text(x, n, "title", an->title, sizeof an->title, "needs[].")) ||
            (rc = get_text(x, n, "asks", an->asks, sizeof an->asks, "needs[].")))
            return rc;
        if (!d || d->kind != JSON_BOOL) return bad(x, "no true or false", "needs[].default");
        an->is_default = d->boolean;
    }
    if (!platforms || platforms->kind != JSON_ARRAY) return bad(x, "no array", "platforms");
    for (const json_node *n = platforms->child; n; n = n->next) {
        char name[32];
        if (a->nplatforms == PICK_PLATFORM_COUNT) return bad(x, "too many platforms in", "platforms");
        answer_platform *p = &a->platforms[a->nplatforms++];
        if ((rc = get_text(x, n, "name", name, sizeof name, "platforms[].")) ||
            (rc = get_text(x, n, "features", p->features, sizeof p->features, "platforms[].")))
            return rc;
        if ((p->id = pick_platform_from_name(name)) == PICK_PLATFORM_COUNT)
            return bad(x, "an unknown platform at", "platforms[].name");
        if (json_get_string(n, "speed") &&
            (rc = get_text(x, n, "speed", p->speed, sizeof p->speed, "platforms[].")))
            return rc;
        if (json_get_string(n, "relu") &&
            (rc = get_text(x, n, "relu", p->relu, sizeof p->relu, "platforms[].")))
            return rc;
    }
    if ((rc = read_cells(x, json_get(root, "cells"), a)) != 0) return rc;
    if ((rc = read_left_out(x, json_get(root, "left_out"), a)) != 0) return rc;
    return read_framework_paths(x, json_get(root, "framework_paths"), a);
}

enum { ANSWER_MAX_BYTES = 1 << 22 };

int answer_read_json(const char *path, answer *a, char *err, size_t errsize)
{
    FILE *f = input_open(path);
    if (!f) {
        snprintf(err, errsize, "%s: cannot read: %s", path, input_strerror(errno));
        return -1;
    }
    char *buf = malloc(ANSWER_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, ANSWER_MAX_BYTES + 1, f) : 0;
    int rerr = ferror(f) ? errno : 0;
    fclose(f);
    if (!buf || rerr) {
        snprintf(err, errsize, "%s: cannot read: %s", path, buf ? strerror(rerr) : "out of memory");
        free(buf);
        return -1;
    }
    if (n > ANSWER_MAX_BYTES) {
        snprintf(err, errsize, "%s: larger than %d bytes: not an answer", path, ANSWER_MAX_BYTES);
        free(buf);
        return -2;
    }
    char why[256];
    json_node *root = json_parse(buf, n, why, sizeof why);
    free(buf);
    if (!root) {
        snprintf(err, errsize, "%s: not JSON: %s", path, why);
        return -2;
    }
    ctx x = {err, errsize, path};
    int rc = read_answer(&x, root, a);
    json_free(root);
    return rc;
}
