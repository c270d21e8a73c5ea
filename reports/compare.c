/* Two result sets compared (see compare.h). */
#include "compare.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

static const char *const kind_names[CHANGE_KIND_COUNT] = {
    "worse", "broken", "better", "fixed", "slower", "faster", "added", "removed"};

const char *compare_kind_name(compare_kind k)
{
    return k < CHANGE_KIND_COUNT ? kind_names[k] : "?";
}

bool compare_kind_is_regression(compare_kind k) { return k == CHANGE_WORSE || k == CHANGE_BROKEN; }

/* ---- the accuracy metrics: one list; NaN when the row lacks the figure */

static double own_ulp(const results_row *r) { return r->own[0].present ? r->own[0].max_ulp : NAN; }
static double exact_ulp(const results_row *r)
{
    /* an exact-target row's figure against exact GELU is its own-target figure: once */
    return r->exact[0].present && strcmp(r->target, "exact") != 0 ? r->exact[0].max_ulp : NAN;
}
static double exact_abs(const results_row *r)
{
    return r->exact[0].present ? r->exact[0].max_abs : NAN;
}
static double cr_count(const results_row *r)
{
    return r->own[0].present && r->own[0].correctly_rounded >= 0
               ? (double)r->own[0].correctly_rounded
               : NAN;
}
static double grad_ulp(const results_row *r) { return r->own[1].present ? r->own[1].max_ulp : NAN; }
static double mono(const results_row *r)
{
    return r->mono_violations >= 0 ? (double)r->mono_violations : NAN;
}
static double specials_fwd(const results_row *r)
{
    return r->specials_failed[0] >= 0 ? (double)r->specials_failed[0] : NAN;
}
static double specials_grad(const results_row *r)
{
    return r->specials_failed[1] >= 0 ? (double)r->specials_failed[1] : NAN;
}

static const char *own_ulp_x(const results_row *r) { return r->own[0].max_ulp_x; }
static const char *exact_ulp_x(const results_row *r) { return r->exact[0].max_ulp_x; }
static const char *exact_abs_x(const results_row *r) { return r->exact[0].max_abs_x; }
static const char *grad_ulp_x(const results_row *r) { return r->own[1].max_ulp_x; }

static const struct {
    const char *name;
    double (*get)(const results_row *);
    const char *(*where)(const results_row *); /* the input reaching a maximum, or NULL */
    bool higher_is_worse;
} metrics[] = {
    {"max ULP vs own target", own_ulp, own_ulp_x, true},
    {"max ULP vs exact GELU", exact_ulp, exact_ulp_x, true},
    {"max abs vs exact GELU", exact_abs, exact_abs_x, true},
    {"correctly rounded inputs", cr_count, NULL, false},
    {"gradient max ULP", grad_ulp, grad_ulp_x, true},
    {"monotonicity violations", mono, NULL, true},
    {"specials failed (forward)", specials_fwd, NULL, true},
    {"specials failed (derivative)", specials_grad, NULL, true},
};

static void add(compare_result *c, const char *impl, const char *metric, const char *old_value,
                const char *new_value, compare_kind kind)
{
    c->count[kind]++;
    c->regressions += compare_kind_is_regression(kind);
    if (c->n == COMPARE_MAX_CHANGES) return; /* counted, not listed */
    compare_change *ch = &c->changes[c->n++];
    snprintf(ch->impl, sizeof ch->impl, "%s", impl);
    snprintf(ch->metric, sizeof ch->metric, "%s", metric);
    snprintf(ch->old_value, sizeof ch->old_value, "%s", old_value);
    snprintf(ch->new_value, sizeof ch->new_value, "%s", new_value);
    ch->kind = kind;
}

/* "1.02 @ 0x1.8p+0" when the input is known. */
static void number(char *buf, size_t size, double v, const char *x)
{
    if (x && *x)
        snprintf(buf, size, "%.9g @ %s", v, x);
    else
        snprintf(buf, size, "%.9g", v);
}

static void compare_accuracy(compare_result *c, const results_row *o, const results_row *n)
{
    for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++) {
        double a = metrics[m].get(o), b = metrics[m].get(n);
        if (isnan(a) || isnan(b) || a == b) continue;
        char sa[48], sb[48];
        const char *(*where)(const results_row *) = metrics[m].where;
        number(sa, sizeof sa, a, where ? where(o) : NULL);
        number(sb, sizeof sb, b, where ? where(n) : NULL);
        add(c, o->name, metrics[m].name, sa, sb,
            (b > a) == metrics[m].higher_is_worse ? CHANGE_WORSE : CHANGE_BETTER);
    }
    bool held = strcmp(o->contract, "pass") == 0, holds = strcmp(n->contract, "pass") == 0;
    if (o->contract[0] && n->contract[0] && held != holds)
        add(c, o->name, "contract", o->contract, n->contract, held ? CHANGE_BROKEN : CHANGE_FIXED);
}

static void compare_speed(compare_result *c, const results_row *o, const results_row *n)
{
    for (size_t i = 0; i < o->nspeeds; i++) {
        const results_speed *a = &o->speed[i], *b = results_speed_at(n, a->size);
        if (!b || isnan(a->q1) || isnan(a->q3) || isnan(b->q1) || isnan(b->q3)) continue;
        c->speed_compared = true;
        compare_kind k;
        if (b->q1 > a->q3)
            k = CHANGE_SLOWER;
        else if (b->q3 < a->q1)
            k = CHANGE_FASTER;
        else
            continue;
        char metric[48], sa[48], sb[48];
        snprintf(metric, sizeof metric, "ns/element at %s", a->size);
        snprintf(sa, sizeof sa, "%.4g (IQR %.4g-%.4g)", a->ns, a->q1, a->q3);
        snprintf(sb, sizeof sb, "%.4g (IQR %.4g-%.4g)", b->ns, b->q1, b->q3);
        add(c, o->name, metric, sa, sb, k);
    }
}

int compare_results(const results_set *old_set, const results_set *new_set, bool speed,
                    compare_result *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < old_set->n; i++) {
        const results_row *o = &old_set->rows[i], *n = results_find(new_set, o->name);
        if (n && o->scanned && n->scanned && o->inputs != n->inputs) {
            snprintf(err, errsize,
                     "%s: the old set scanned %llu inputs, the new %llu: not the same domain",
                     o->name, (unsigned long long)o->inputs, (unsigned long long)n->inputs);
            return -1;
        }
    }
    for (size_t i = 0; i < old_set->n; i++) {
        const results_row *o = &old_set->rows[i], *n = results_find(new_set, o->name);
        if (!n) {
            add(out, o->name, "implementation", "present", "absent", CHANGE_REMOVED);
            continue;
        }
        out->compared++;
        if (o->scanned != n->scanned) /* its accuracy rows gone (or new), its bench rows kept */
            add(out, o->name, "accuracy rows", o->scanned ? "present" : "absent",
                n->scanned ? "present" : "absent", o->scanned ? CHANGE_REMOVED : CHANGE_ADDED);
        compare_accuracy(out, o, n);
        if (speed) compare_speed(out, o, n);
    }
    for (size_t i = 0; i < new_set->n; i++)
        if (!results_find(old_set, new_set->rows[i].name))
            add(out, new_set->rows[i].name, "implementation", "absent", "present", CHANGE_ADDED);
    return 0;
}

int compare_csv_write(FILE *f, const compare_result *c)
{
    fputs("impl,metric,old,new,change\n", f);
    for (size_t i = 0; i < c->n; i++) {
        const compare_change *ch = &c->changes[i];
        fprintf(f, "%s,%s,%s,%s,%s\n", ch->impl, ch->metric, ch->old_value, ch->new_value,
                compare_kind_name(ch->kind));
    }
    return ferror(f) ? -1 : 0;
}

/* DIR/NAME into buf. */
static const char *path_in(char *buf, size_t size, const char *dir, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

int compare_check_dir(const char *dir, run_manifest *m, char *err, size_t errsize)
{
    char path[4096], why[512];
    int rc = manifest_read(path_in(path, sizeof path, dir, MANIFEST_FILE), m, why, sizeof why);
    if (rc != MANIFEST_OK) {
        snprintf(err, errsize, "%s", why);
        if (rc == MANIFEST_EIO && access(path, F_OK) != 0)
            snprintf(err, errsize, "'%s' has no %s (not a result set of this gelucheck?)", dir,
                     MANIFEST_FILE);
        return -1;
    }
    if (access(path_in(path, sizeof path, dir, "accuracy.csv"), R_OK) != 0) {
        snprintf(err, errsize, "cannot read '%s'", path);
        return -1;
    }
    return 0;
}

/* Both manifests, their schemas named together when one is unknown. */
static int read_manifests(compare_sets *cs, const char *const dirs[2], char *err, size_t errsize)
{
    char why[2][1024];
    int rc[2];
    for (int k = 0; k < 2; k++) {
        memset(&cs->manifest[k], 0, sizeof cs->manifest[k]);
        rc[k] = compare_check_dir(dirs[k], &cs->manifest[k], why[k], sizeof why[k]);
    }
    if ((rc[0] || rc[1]) && (cs->manifest[0].schema != MANIFEST_SCHEMA ||
                             cs->manifest[1].schema != MANIFEST_SCHEMA) &&
        cs->manifest[0].schema > 0 && cs->manifest[1].schema > 0) {
        snprintf(err, errsize,
                 "cannot compare %s/%s (schema %d) with %s/%s (schema %d): this gelucheck "
                 "reads schema %d",
                 dirs[0], MANIFEST_FILE, cs->manifest[0].schema, dirs[1], MANIFEST_FILE,
                 cs->manifest[1].schema, MANIFEST_SCHEMA);
        return -1;
    }
    for (int k = 0; k < 2; k++)
        if (rc[k]) {
            snprintf(err, errsize, "%s", why[k]);
            return -1;
        }
    return 0;
}

int compare_sets_load(compare_sets *cs, const char *old_dir, const char *new_dir, char *err,
                      size_t errsize)
{
    const char *const dirs[2] = {old_dir, new_dir};
    if (read_manifests(cs, dirs, err, errsize) != 0) return -1;
    char acc[2][4096], bench[2][4096];
    bool have_bench = true;
    for (int k = 0; k < 2; k++) {
        path_in(acc[k], sizeof acc[k], dirs[k], "accuracy.csv");
        have_bench &= access(path_in(bench[k], sizeof bench[k], dirs[k], "bench.csv"), R_OK) == 0;
    }
    for (int k = 0; k < 2; k++)
        if (results_load(&cs->sets[k], acc[k], have_bench ? bench[k] : NULL, err, errsize) != 0)
            return -1;
    cs->same_cpu = strcmp(cs->manifest[0].cpu_model, cs->manifest[1].cpu_model) == 0;
    char why[512];
    if (compare_results(&cs->sets[0], &cs->sets[1], have_bench && cs->same_cpu, &cs->result, why,
                        sizeof why) != 0) {
        snprintf(err, errsize, "cannot compare %s/accuracy.csv with %s/accuracy.csv: %s", old_dir,
                 new_dir, why);
        return -1;
    }
    return 0;
}
