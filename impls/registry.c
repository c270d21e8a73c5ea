/* The registry of every format's implementations, name and target look-ups. */
#include "gelu_impl.h"
#include "gelucheck_config.h" /* GELUCHECK_HAVE_<ISA>: which ISA builds exist */

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "gelu_cr16.h"
#include "gelu_f64.h"

#define GELU_IMPL(name) extern const gelu_impl gelu_impl_##name;
#include "registry.inc"
#undef GELU_IMPL

static const gelu_impl *const registry[] = {
#define GELU_IMPL(name) &gelu_impl_##name,
#include "registry.inc"
#undef GELU_IMPL
};

/* One list of every implementation, of every format: the built-in rows (the binary32 ones of
 * registry.inc, then the other formats' natives: gelu_cr16.c's, gelu_f64.c's), then those added
 * at run time (exec children, plugins, peers: before any scan starts, read-only afterwards).
 * Per format, the rows of that format in list order, which every consumer iterates. */
enum { FORMATS_MAX = GELU_FORMAT_COUNT + 8, ROWS_MAX = 2600, RUNTIME_MAX = 2200 };
/* RUNTIME_MAX per format: plugins' rows (plugin.h: 120), exec rows (exec_impl.h: 2,000) */
static const gelu_impl *rows[FORMATS_MAX][ROWS_MAX];
static size_t nrows[FORMATS_MAX];
static const gelu_impl *runtime[FORMATS_MAX * RUNTIME_MAX];
static const char *runtime_source[FORMATS_MAX * RUNTIME_MAX];
static size_t nruntime[FORMATS_MAX], nruntime_all;
static pthread_once_t builtins_once = PTHREAD_ONCE_INIT;

static void put_row(const gelu_impl *m) { rows[m->format][nrows[m->format]++] = m; }

static void load_builtins(void)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++) put_row(registry[i]);
    for (size_t i = 0; i < gelu_cr16_builtin_count; i++) put_row(gelu_cr16_builtins[i]);
    for (size_t i = 0; i < gelu_f64_builtin_count; i++) put_row(gelu_f64_builtins[i]);
}

static void builtins(void) { (void)pthread_once(&builtins_once, load_builtins); }

size_t gelu_impl_count_in(gelu_format_id f)
{
    builtins();
    return (unsigned)f < FORMATS_MAX ? nrows[f] : 0;
}

const gelu_impl *gelu_impl_at_in(gelu_format_id f, size_t i)
{
    builtins();
    return (unsigned)f < FORMATS_MAX && i < nrows[f] ? rows[f][i] : NULL;
}

const gelu_impl *gelu_impl_find_in(const char *name, gelu_format_id f)
{
    for (size_t i = 0; i < gelu_impl_count_in(f); i++)
        if (strcmp(rows[f][i]->name, name) == 0) return rows[f][i];
    return NULL;
}

int gelu_impl_add(const gelu_impl *impl, const char *source, char *err, size_t errsize)
{
    gelu_format_id f = impl->format;
    const char *fname = (int)f < gelu_format_count() ? gelu_format_of(f)->name : "?";
    builtins();
    if ((unsigned)f >= FORMATS_MAX || (int)f >= gelu_format_count()) {
        snprintf(err, errsize, "'%s' (%s): format %d is not a registered format", impl->name,
                 source, (int)f);
        return -1;
    }
    const gelu_impl *old = gelu_impl_find_in(impl->name, f);
    if (old) {
        const char *was = gelu_impl_source(old);
        bool b32 = f == GELU_FORMAT_BINARY32; /* binary32 goes without saying */
        snprintf(err, errsize, "two %s%simplementations are named '%s': %s%s and %s",
                 b32 ? "" : fname, b32 ? "" : " ", impl->name, was ? "" : "the built-in one",
                 was ? was : "", source);
        return -1;
    }
    if (nruntime[f] == RUNTIME_MAX || nrows[f] == ROWS_MAX) {
        snprintf(err, errsize, "more than %d %s implementations added at run time (%s)",
                 RUNTIME_MAX, fname, source);
        return -1;
    }
    nruntime[f]++;
    runtime[nruntime_all] = impl;
    runtime_source[nruntime_all++] = source;
    put_row(impl);
    return 0;
}

const char *gelu_impl_source(const gelu_impl *impl)
{
    for (size_t i = 0; i < nruntime_all; i++)
        if (runtime[i] == impl) return runtime_source[i];
    return NULL;
}

const gelu_impl *gelu_impl_lookup_in(const char *name, gelu_format_id format, gelu_impl *view)
{
    const gelu_impl *native = gelu_impl_find_in(name, format), *b32 = gelu_impl_find(name);
    if (native || !gelu_format_small(gelu_format_of(format))) return native;
    if (!b32) return NULL;
    *view = gelu_impl_widened(b32, format);
    return view;
}

static const struct {
    const char *name;
    unsigned features;
} isas[GELU_ISA_COUNT] = {
#define GELU_ISA_ROW(id, isa_name, isa_features) [GELU_ISA_##id] = {isa_name, isa_features},
    GELU_ISA_LIST(GELU_ISA_ROW)
#undef GELU_ISA_ROW
};

const char *gelu_isa_name(gelu_isa isa) { return isa < GELU_ISA_COUNT ? isas[isa].name : "?"; }

unsigned gelu_isa_features(gelu_isa isa) { return isa < GELU_ISA_COUNT ? isas[isa].features : 0; }

const gelu_impl *gelu_impl_build(const char *method, gelu_isa isa)
{
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (m->method && m->isa == isa && strcmp(m->method, method) == 0) return m;
    }
    return NULL;
}

static const struct {
    const char *name;
    bool is_gelu;
} targets[GELU_TARGET_COUNT] = {
#define GELU_TARGET_ROW(id, name, is_gelu) [GELU_TARGET_##id] = {name, is_gelu},
    GELU_TARGETS(GELU_TARGET_ROW)
#undef GELU_TARGET_ROW
};

const char *gelu_target_name(gelu_target t) { return t < GELU_TARGET_COUNT ? targets[t].name : "?"; }

bool gelu_target_is_gelu(gelu_target t) { return t < GELU_TARGET_COUNT && targets[t].is_gelu; }

const char *gelu_target_list(bool gelu_only, char *buf, size_t size)
{
    size_t n = 0, k = 0, used = 0;
    for (int t = 0; t < GELU_TARGET_COUNT; t++) n += !gelu_only || targets[t].is_gelu;
    buf[0] = '\0';
    for (int t = 0; t < GELU_TARGET_COUNT && used < size; t++)
        if (!gelu_only || targets[t].is_gelu) {
            k++;
            used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                     k == 1 ? "" : k == n ? " or " : ", ", targets[t].name);
        }
    return buf;
}

gelu_target gelu_target_from_name(const char *name)
{
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (strcmp(targets[t].name, name) == 0)
            return (gelu_target)t;
    return GELU_TARGET_COUNT;
}

const char *gelu_absent_peers(void)
{
    static const char *const absent[] = {
        !GELUCHECK_HAVE_DNNL ? "oneDNN (dnnl_*)" : NULL,
        !GELUCHECK_HAVE_SLEEF ? "SLEEF (sleef_*)" : NULL,
    };
    static char list[64];
    if (list[0] == '\0')
        for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
            if (absent[i])
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         list[0] ? ", " : "", absent[i]);
    return list;
}

bool gelu_impl_available(const gelu_impl *impl) { return (impl->features & ~cpu_features()) == 0; }

gelu_family gelu_family_from_key(const char *key)
{
    static const char *const keys[GELU_FAMILY_COUNT] = {
#define GELU_FAMILY_KEY(id, key, text) [GELU_FAMILY_##id] = key,
        GELU_FAMILIES(GELU_FAMILY_KEY)
#undef GELU_FAMILY_KEY
    };
    for (int f = 0; f < GELU_FAMILY_COUNT; f++)
        if (strcmp(keys[f], key) == 0) return (gelu_family)f;
    return GELU_FAMILY_COUNT;
}

const char *gelu_family_text(gelu_family f)
{
    static const char *const texts[GELU_FAMILY_COUNT] = {
#define GELU_FAMILY_TEXT(id, key, text) [GELU_FAMILY_##id] = text,
        GELU_FAMILIES(GELU_FAMILY_TEXT)
#undef GELU_FAMILY_TEXT
    };
    return f < GELU_FAMILY_COUNT ? texts[f] : "?";
}
