/* Two result sets compared (see compare.h). */
#include "compare.h"
#include "gelu_impl.h"
#include "speed_change.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const kind_names[CHANGE_KIND_COUNT] = {
    "worse", "broken", "better", "fixed", "slower", "faster", "added", "removed"};

const char *compare_kind_name(compare_kind k)
{
    return k < CHANGE_KIND_COUNT ? kind_names[k] : "?";
}

bool compare_kind_is_regression(compare_kind k) { return k == CHANGE_WORSE || k == CHANGE_BROKEN; }

/* ---- the accuracy metrics: one list; NaN when the row lacks the figure */

/* The error figures of a reference × direction: an exact-target row's figures against exact
 * GELU are its own-target ones, compared once (as own). */
static const results_error *error_of(const results_row *r, int ref, int d)
{
    if (ref == 1 && strcmp(r->target, "exact") == 0) return NULL;
    const results_error *e = ref == 0 ? &r->own[d] : &r->exact[d];
    return e->present ? e : NULL;
}

typedef enum { E_MAX_ULP, E_MAX_ABS, E_MEAN_ULP, E_CR, E_FIGURES } error_figure;

static double figure_of(const results_error *e, error_figure k)
{
    switch (k) {
    case E_MAX_ULP: return e->max_ulp;
    case E_MAX_ABS: return e->max_abs;
    case E_MEAN_ULP: return e->normal_mean_ulp; /* NaN without the column */
    case E_CR: return e->correctly_rounded >= 0 ? (double)e->correctly_rounded : NAN;
    case E_FIGURES: break;
    }
    return NAN;
}

static const char *where_of(const results_error *e, error_figure k)
{
    return k == E_MAX_ULP ? e->max_ulp_x : k == E_MAX_ABS ? e->max_abs_x : NULL;
}

static const char *const figure_names[E_FIGURES] = {"max ULP", "max abs", "mean ULP (normal)",
                                                    "correctly rounded inputs"};
static const char *const ref_names[2] = {"own target", "exact GELU"};
static const char *const dir_names[2] = {"", " (derivative)"};

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

/* The counts of failures, higher worse. */
static const struct {
    const char *name;
    double (*get)(const results_row *);
} counts[] = {
    {"monotonicity violations", mono},
    {"specials failed (forward)", specials_fwd},
    {"specials failed (derivative)", specials_grad},
};

/* How much worse b is than a when higher is worse: b/a, infinite from 0. */
static double factor(double a, double b) { return a > 0 ? b / a : INFINITY; }

static void add(compare_result *c, const char *impl, const char *metric, const char *old_value,
                const char *new_value, compare_kind kind, double severity)
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
    ch->severity = compare_kind_is_regression(kind) ? severity : 0;
}

/* "1.02 @ 0x1.8p+0" when the input is known. */
static void number(char *buf, size_t size, double v, const char *x)
{
    if (x && *x)
        snprintf(buf, size, "%.9g @ %s", v, x);
    else
        snprintf(buf, size, "%.9g", v);
}

/* One figure compared: a change is worse or better by its direction. */
static void compare_figure(compare_result *c, const char *impl, const char *metric, double a,
                           double b, const char *xa, const char *xb, bool higher_is_worse,
                           double severity)
{
    if (isnan(a) || isnan(b) || a == b) return;
    char sa[64], sb[64];
    number(sa, sizeof sa, a, xa);
    number(sb, sizeof sb, b, xb);
    add(c, impl, metric, sa, sb, (b > a) == higher_is_worse ? CHANGE_WORSE : CHANGE_BETTER,
        severity);
}

static void compare_accuracy(compare_result *c, const results_row *o, const results_row *n)
{
    for (int ref = 0; ref < 2; ref++)
        for (int d = 0; d < 2; d++) {
            const results_error *eo = error_of(o, ref, d), *en = error_of(n, ref, d);
            if (!eo || !en) continue;
            for (int k = 0; k < E_FIGURES; k++) {
                char metric[48];
                double a = figure_of(eo, (error_figure)k), b = figure_of(en, (error_figure)k);
                snprintf(metric, sizeof metric, "%s vs %s%s", figure_names[k], ref_names[ref],
                         dir_names[d]);
                bool cr = k == E_CR; /* fewer is worse: the inputs missed, new/old */
                double sev = cr ? factor((double)eo->inputs - a, (double)en->inputs - b) : factor(a, b);
                compare_figure(c, o->name, metric, a, b, where_of(eo, (error_figure)k),
                               where_of(en, (error_figure)k), !cr, sev);
            }
        }
    for (size_t m = 0; m < sizeof counts / sizeof counts[0]; m++) {
        double a = counts[m].get(o), b = counts[m].get(n);
        compare_figure(c, o->name, counts[m].name, a, b, NULL, NULL, true, factor(a, b));
    }
    bool held = strcmp(o->contract, "pass") == 0, holds = strcmp(n->contract, "pass") == 0;
    if (o->contract[0] && n->contract[0] && held != holds)
        add(c, o->name, "contract", o->contract, n->contract, held ? CHANGE_BROKEN : CHANGE_FIXED,
            INFINITY);
}

/* A row with its own thread pool (a benchmark-only row of this build): its time depends on how
 * many cores the rest of the machine leaves it, which the single-threaded baseline of the same
 * round does not see, so its speed is not judged between runs. */
static bool own_pool(const char *name)
{
    const gelu_impl *m = gelu_impl_find(name);
    return m && m->own_threads;
}

/* A row whose target is a known one but not a GELU (ReLU, SiLU): a yardstick of the benchmark,
 * not a kernel anyone ships as GELU; its speed is not judged. (A memory-bound ReLU's ratio to the
 * baseline ReLU moved 11% between two report --quick runs of one build at l2.) */
static bool yardstick(const char *target)
{
    gelu_target t = gelu_target_from_name(target);
    return t < GELU_TARGET_COUNT && !gelu_target_is_gelu(t);
}

/* Per size of the old set (its sizes[] order), the new run's common shift and its floor over
 * the single-threaded rows both runs timed by rounds (speed_common_shift, speed_run_floor). */
typedef struct {
    double shift[RESULTS_MAX_SIZES], floor[RESULTS_MAX_SIZES];
} run_spread;

static void run_spreads(const results_set *old_set, const results_set *new_set, run_spread *s)
{
    static double ratios[RESULTS_MAX_ROWS];
    for (size_t z = 0; z < old_set->nsizes; z++) {
        size_t n = 0;
        for (size_t i = 0; i < old_set->n; i++) {
            const results_row *o = &old_set->rows[i], *nr = results_find(new_set, o->name);
            const results_speed *a = results_speed_at(o, old_set->sizes[z]);
            const results_speed *b = nr ? results_speed_at(nr, old_set->sizes[z]) : NULL;
            if (a && b && a->nrounds >= 2 && b->nrounds >= 2 &&
                strcmp(o->name, old_set->baseline) != 0 && !own_pool(o->name) && !yardstick(o->target))
                ratios[n++] = speed_median(b->rounds, b->nrounds) / speed_median(a->rounds, a->nrounds);
        }
        s->shift[z] = speed_common_shift(ratios, n);
        s->floor[z] = speed_run_floor(ratios, n, s->shift[z]);
    }
}

static size_t size_index(const results_set *old_set, const char *size)
{
    for (size_t z = 0; z < old_set->nsizes; z++)
        if (strcmp(old_set->sizes[z], size) == 0) return z;
    return RESULTS_MAX_SIZES;
}

/* By the rounds' ×baseline ratios when both runs wrote them (speed_change.h, the new rounds
 * divided by the run's common shift at that size), else by the quartiles of ns/element: a
 * change when the interquartile ranges do not overlap. */
static void compare_speed(compare_result *c, const results_row *o, const results_row *n,
                          const results_set *old_set, const run_spread *spread)
{
    if (own_pool(o->name) || yardstick(o->target)) {
        if (o->nspeeds && n->nspeeds && strcmp(o->name, old_set->baseline) != 0)
            c->speed_not_judged[own_pool(o->name) ? 0 : 1]++;
        return;
    }
    for (size_t i = 0; i < o->nspeeds; i++) {
        const results_speed *a = &o->speed[i], *b = results_speed_at(n, a->size);
        char metric[48], sa[64], sb[64];
        compare_kind k;
        if (b && a->nrounds >= 2 && b->nrounds >= 2) {
            if (strcmp(o->name, old_set->baseline) == 0) continue; /* its ratio is 1 by definition */
            size_t z = size_index(old_set, a->size);
            double p, effect, sh = z < RESULTS_MAX_SIZES ? spread->shift[z] : 1;
            double fl = z < RESULTS_MAX_SIZES ? spread->floor[z] : 0;
            c->speed_compared = true;
            speed_change v = speed_change_judge(a->rounds, a->nrounds, b->rounds, b->nrounds, sh,
                                                fl, &p, &effect);
            if (v == SPEED_SAME) continue;
            k = v == SPEED_SLOWER ? CHANGE_SLOWER : CHANGE_FASTER;
            snprintf(metric, sizeof metric, "xReLU at %s (rank p %.2g)", a->size, p);
            snprintf(sa, sizeof sa, "%.4g (%u rounds)", a->ratio, a->nrounds);
            snprintf(sb, sizeof sb, "%.4g (%u rounds, x%.3g beyond the run's x%.3g)", b->ratio,
                     b->nrounds, effect, sh);
        } else {
            if (!b || isnan(a->q1) || isnan(a->q3) || isnan(b->q1) || isnan(b->q3)) continue;
            c->speed_compared = true;
            if (b->q1 > a->q3)
                k = CHANGE_SLOWER;
            else if (b->q3 < a->q1)
                k = CHANGE_FASTER;
            else
                continue;
            snprintf(metric, sizeof metric, "ns/element at %s", a->size);
            snprintf(sa, sizeof sa, "%.4g (IQR %.4g-%.4g)", a->ns, a->q1, a->q3);
            snprintf(sb, sizeof sb, "%.4g (IQR %.4g-%.4g)", b->ns, b->q1, b->q3);
        }
        add(c, o->name, metric, sa, sb, k, 0);
    }
}

static bool chosen(const char *name, const char *const *only, size_t nonly)
{
    for (size_t i = 0; i < nonly; i++)
        if (strcmp(only[i], name) == 0) return true;
    return nonly == 0;
}

/* Regressions first, worst first; the rest as they came (an insertion sort: stable, and n is
 * at most COMPARE_MAX_CHANGES). */
static void order_changes(compare_result *c)
{
    for (size_t i = 1; i < c->n; i++) {
        compare_change t = c->changes[i];
        size_t j = i;
        while (j > 0) {
            compare_change *p = &c->changes[j - 1];
            bool rp = compare_kind_is_regression(p->kind), rt = compare_kind_is_regression(t.kind);
            bool before = (rt && !rp) || (rt && rp && t.severity > p->severity);
            if (!before) break;
            c->changes[j] = *p;
            j--;
        }
        c->changes[j] = t;
    }
}

int compare_results(const results_set *old_set, const results_set *new_set, bool speed,
                    compare_result *out, char *err, size_t errsize)
{
    return compare_results_only(old_set, new_set, speed, NULL, 0, out, err, errsize);
}

int compare_results_only(const results_set *old_set, const results_set *new_set, bool speed,
                         const char *const *only, size_t nonly, compare_result *out, char *err,
                         size_t errsize)
{
    memset(out, 0, sizeof *out);
    static run_spread spread;
    if (speed) run_spreads(old_set, new_set, &spread);
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
        if (!chosen(o->name, only, nonly)) continue;
        if (!n) {
            add(out, o->name, "implementation", "present", "absent", CHANGE_REMOVED, 0);
            continue;
        }
        out->compared++;
        if (o->scanned != n->scanned) /* its accuracy rows gone (or new), its bench rows kept */
            add(out, o->name, "accuracy rows", o->scanned ? "present" : "absent",
                n->scanned ? "present" : "absent", o->scanned ? CHANGE_REMOVED : CHANGE_ADDED, 0);
        compare_accuracy(out, o, n);
        if (speed) compare_speed(out, o, n, old_set, &spread);
    }
    for (size_t i = 0; i < new_set->n; i++)
        if (!results_find(old_set, new_set->rows[i].name) && chosen(new_set->rows[i].name, only, nonly))
            add(out, new_set->rows[i].name, "implementation", "absent", "present", CHANGE_ADDED, 0);
    order_changes(out);
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

/* A result set's files: a directory's (manifest.json, else accuracy.csv's manifest beside it)
 * or an accuracy CSV file's (FILE.manifest.json); bench "" when there is none. */
typedef struct {
    char manifest[4200], accuracy[4200], bench[4200];
    bool is_file;
} set_paths;

static void paths_of(const char *where, set_paths *p)
{
    struct stat st;
    p->is_file = stat(where, &st) == 0 && S_ISREG(st.st_mode);
    p->bench[0] = '\0';
    if (p->is_file) {
        snprintf(p->accuracy, sizeof p->accuracy, "%s", where);
        snprintf(p->manifest, sizeof p->manifest, "%s.manifest.json", where);
        return;
    }
    snprintf(p->accuracy, sizeof p->accuracy, "%s/accuracy.csv", where);
    snprintf(p->manifest, sizeof p->manifest, "%s/%s", where, MANIFEST_FILE);
    if (access(p->manifest, F_OK) != 0) /* accuracy and bench runs: their own manifests */
        snprintf(p->manifest, sizeof p->manifest, "%s/accuracy.csv.manifest.json", where);
    snprintf(p->bench, sizeof p->bench, "%s/bench.csv", where);
    if (access(p->bench, R_OK) != 0) p->bench[0] = '\0';
}

int compare_check_dir(const char *dir, run_manifest *m, char *err, size_t errsize)
{
    set_paths p;
    char why[512];
    paths_of(dir, &p);
    int rc = manifest_read(p.manifest, m, why, sizeof why);
    if (rc != MANIFEST_OK) {
        snprintf(err, errsize, "%s", why);
        if (rc == MANIFEST_EIO && access(p.manifest, F_OK) != 0)
            snprintf(err, errsize, p.is_file ? "'%s' has no %s.manifest.json beside it (not a "
                                               "result of this gelucheck?)"
                                             : "'%s' has no %s, nor accuracy.csv.manifest.json (not a "
                                               "result set of this gelucheck?)",
                     dir, p.is_file ? dir : MANIFEST_FILE);
        return -1;
    }
    if (access(p.accuracy, R_OK) != 0) {
        snprintf(err, errsize, "cannot read '%s'", p.accuracy);
        return -1;
    }
    return 0;
}

/* Both manifests, their schemas named together when one is unknown. */
static int read_manifests(compare_sets *cs, const char *const dirs[2], const set_paths p[2],
                          char *err, size_t errsize)
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
                 "cannot compare %s (schema %d) with %s (schema %d): this gelucheck reads schema %d",
                 p[0].manifest, cs->manifest[0].schema, p[1].manifest, cs->manifest[1].schema,
                 MANIFEST_SCHEMA);
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
    return compare_sets_load_only(cs, old_dir, new_dir, NULL, 0, err, errsize);
}

int compare_sets_load_only(compare_sets *cs, const char *old_dir, const char *new_dir,
                           const char *const *only, size_t nonly, char *err, size_t errsize)
{
    const char *const dirs[2] = {old_dir, new_dir};
    set_paths p[2];
    paths_of(old_dir, &p[0]);
    paths_of(new_dir, &p[1]);
    if (read_manifests(cs, dirs, p, err, errsize) != 0) return -1;
    bool have_bench = p[0].bench[0] && p[1].bench[0];
    for (int k = 0; k < 2; k++)
        if (results_load(&cs->sets[k], p[k].accuracy, have_bench ? p[k].bench : NULL, err, errsize) != 0)
            return -1;
    cs->same_cpu = strcmp(cs->manifest[0].cpu_model, cs->manifest[1].cpu_model) == 0;
    char why[512];
    if (compare_results_only(&cs->sets[0], &cs->sets[1], have_bench && cs->same_cpu, only, nonly,
                             &cs->result, why, sizeof why) != 0) {
        snprintf(err, errsize, "cannot compare %s with %s: %s", p[0].accuracy, p[1].accuracy, why);
        return -1;
    }
    return 0;
}
