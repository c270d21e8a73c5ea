/* The registry built from registry.inc, name and target look-ups. */
#include "gelu_impl.h"
#include "gelucheck_config.h" /* GELUCHECK_HAVE_<ISA>: which ISA builds exist */

#include <stdio.h>
#include <string.h>

#define GELU_IMPL(name) extern const gelu_impl gelu_impl_##name;
#include "registry.inc"
#undef GELU_IMPL

static const gelu_impl *const registry[] = {
#define GELU_IMPL(name) &gelu_impl_##name,
#include "registry.inc"
#undef GELU_IMPL
};

/* Implementations added at run time (exec children; plugins), after the built-in ones. Added
 * before any scan starts (main), read-only afterwards. */
enum { RUNTIME_MAX = 160 }; /* plugins' rows (plugin.h: 120), exec children (16), frameworks */
static const gelu_impl *runtime[RUNTIME_MAX];
static const char *runtime_source[RUNTIME_MAX];
static size_t nruntime;

static size_t builtin_count(void) { return sizeof registry / sizeof registry[0]; }

size_t gelu_impl_count(void) { return builtin_count() + nruntime; }

const gelu_impl *gelu_impl_at(size_t i)
{
    return i < builtin_count() ? registry[i] : i - builtin_count() < nruntime ? runtime[i - builtin_count()] : NULL;
}

const gelu_impl *gelu_impl_find(const char *name)
{
    for (size_t i = 0; i < gelu_impl_count(); i++)
        if (strcmp(gelu_impl_at(i)->name, name) == 0)
            return gelu_impl_at(i);
    return NULL;
}

int gelu_impl_add(const gelu_impl *impl, const char *source, char *err, size_t errsize)
{
    const gelu_impl *old = gelu_impl_find(impl->name);
    if (old) {
        const char *was = gelu_impl_source(old);
        snprintf(err, errsize, "two implementations are named '%s': %s%s and %s", impl->name,
                 was ? "" : "the built-in one", was ? was : "", source);
        return -1;
    }
    if (nruntime == RUNTIME_MAX) {
        snprintf(err, errsize, "more than %d implementations added at run time (%s)", RUNTIME_MAX,
                 source);
        return -1;
    }
    runtime[nruntime] = impl;
    runtime_source[nruntime++] = source;
    return 0;
}

const char *gelu_impl_source(const gelu_impl *impl)
{
    for (size_t i = 0; i < nruntime; i++)
        if (runtime[i] == impl) return runtime_source[i];
    return NULL;
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
