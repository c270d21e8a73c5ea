/* A plugin's description checked field by field (plugin_check.h). */
#include "plugin_check.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "exec.h"

/* "avx2,fma" → CPU_FEATURE_* bits; −1 with the unknown word in bad. */
static int parse_features(const char *s, unsigned *out, char *bad, size_t size)
{
    static const struct {
        const char *name;
        unsigned bit;
    } known[] = {{"avx2", CPU_FEATURE_AVX2},         {"fma", CPU_FEATURE_FMA},
                 {"avx512f", CPU_FEATURE_AVX512F},   {"avx512dq", CPU_FEATURE_AVX512DQ},
                 {"avx512bw", CPU_FEATURE_AVX512BW}, {"avx512vl", CPU_FEATURE_AVX512VL}};
    *out = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        size_t i = 0;
        while (i < sizeof known / sizeof known[0] &&
               !(strlen(known[i].name) == len && strncmp(known[i].name, s, len) == 0))
            i++;
        if (i == sizeof known / sizeof known[0]) {
            snprintf(bad, size, "%.*s", (int)(len > 40 ? 40 : len), s);
            return -1;
        }
        *out |= known[i].bit;
        s += len + (s[len] == ',');
    }
    return 0;
}

static bool bound_ok(double b) { return !isnan(b) && b >= 0; }

/* The ISA named by the description (portable when it names none); GELU_ISA_COUNT: unknown. */
gelu_isa plugin_isa_of(const gelucheck_impl_v1 *d)
{
    const char *name = HAS_FIELD(d, isa) && d->isa ? d->isa : "portable";
    for (int i = 0; i < GELU_ISA_COUNT; i++)
        if (strcmp(gelu_isa_name((gelu_isa)i), name) == 0) return (gelu_isa)i;
    return GELU_ISA_COUNT;
}

/* The row's format, after check_impl (a known one). */
gelu_format_id plugin_format_of(const gelucheck_impl_v1 *d) { return gelu_format_find(d->format)->id; }

/* Whether the description carries kernels of binary32 (forward, derivative), binary64 or the
 * 16-bit formats (the appended pairs, when its size covers them). */
static bool has_binary32(const gelucheck_impl_v1 *d) { return d->forward || d->derivative; }
static bool has_binary64(const gelucheck_impl_v1 *d)
{
    return HAS_FIELD(d, derivative_binary64) && (d->forward_binary64 || d->derivative_binary64);
}
static bool has_u16(const gelucheck_impl_v1 *d)
{
    return HAS_FIELD(d, derivative_u16) && (d->forward_u16 || d->derivative_u16);
}

/* Checks one description; the field at fault into why. */
int plugin_check_impl(const gelucheck_impl_v1 *d, unsigned *features, gelu_target *target,
                      char *why, size_t size)
{
    char bad[64], names[256];
    if (d->size < GELUCHECK_IMPL_V1_FIRST_SIZE)
        return snprintf(why, size, "size %u is smaller than version 1's %zu", d->size,
                        (size_t)GELUCHECK_IMPL_V1_FIRST_SIZE), -1;
    if (!d->name || !exec_name_ok(d->name))
        return snprintf(why, size, "name %s%.60s%s is not 1 to 48 of A-Z a-z 0-9 _ starting with a "
                        "letter", d->name ? "'" : "", d->name ? d->name : "(none)", d->name ? "'" : ""), -1;
    if (!d->target || (*target = gelu_target_from_name(d->target)) == GELU_TARGET_COUNT)
        return snprintf(why, size, "target '%.40s' is not %s", d->target ? d->target : "(none)",
                        gelu_target_list(false, names, sizeof names)), -1;
    /* a registered format (impls/gelu_format.h); this ABI carries the kernels of each:
     * binary32's, binary64's (the appended forward_binary64, derivative_binary64), the 16-bit
     * formats' (the appended forward_u16, derivative_u16) */
    const gelu_format *f = d->format ? gelu_format_find(d->format) : NULL;
    if (!f)
        return snprintf(why, size, "format '%.40s' is not one this gelucheck scans (%s)",
                        d->format ? d->format : "(none)",
                        gelu_format_names(", ", ", ", false, names, sizeof names)), -1;
    if (parse_features(d->cpu_features ? d->cpu_features : "", features, bad, sizeof bad) != 0)
        return snprintf(why, size, "cpu_features: '%s' is not one of avx2, fma, avx512f, avx512dq, "
                        "avx512bw, avx512vl", bad), -1;
    const char *method = HAS_FIELD(d, method) ? d->method : NULL;
    if (method && !exec_name_ok(method))
        return snprintf(why, size, "method '%.60s' is not 1 to 48 of A-Z a-z 0-9 _ starting with a "
                        "letter", method), -1;
    gelu_isa isa = plugin_isa_of(d);
    if (isa == GELU_ISA_COUNT)
        return snprintf(why, size, "isa '%.40s' is not portable, avx2, avx512f or avx512", d->isa), -1;
    if (gelu_isa_features(isa) & ~*features)
        return snprintf(why, size, "isa '%s' needs cpu_features %s", gelu_isa_name(isa),
                        cpu_features_string(gelu_isa_features(isa), bad, sizeof bad)), -1;
    if (gelu_format_sampled(f)) {
        if (!HAS_FIELD(d, derivative_binary64) || !d->forward_binary64)
            return snprintf(why, size, "format binary64 and no forward_binary64 kernel"), -1;
        if (has_binary32(d))
            return snprintf(why, size, "format binary64 with binary32 kernels (forward, "
                            "derivative: NULL for a binary64 row)"), -1;
        if (has_u16(d))
            return snprintf(why, size, "format binary64 with 16-bit kernels (forward_u16, "
                            "derivative_u16: NULL for a binary64 row)"), -1;
    } else if (gelu_format_small(f)) {
        if (!HAS_FIELD(d, derivative_u16))
            return snprintf(why, size, "format %s and no forward_u16 kernel (size %u: a layout "
                            "before the 16-bit kernels)", f->name, d->size), -1;
        if (!d->forward_u16)
            return snprintf(why, size, "format %s and no forward_u16 kernel", f->name), -1;
        if (has_binary32(d))
            return snprintf(why, size, "format %s with binary32 kernels (forward, derivative: NULL "
                            "for a 16-bit row)", f->name), -1;
        if (has_binary64(d))
            return snprintf(why, size, "format %s with binary64 kernels (forward_binary64, "
                            "derivative_binary64: NULL for a 16-bit row)", f->name), -1;
    } else if (!d->forward) {
        return snprintf(why, size, "no forward kernel"), -1;
    } else if (has_binary64(d)) {
        return snprintf(why, size, "format binary32 with binary64 kernels"), -1;
    } else if (has_u16(d)) {
        return snprintf(why, size, "format binary32 with 16-bit kernels (forward_u16, "
                        "derivative_u16: NULL for a binary32 row)"), -1;
    }
    const char *family = HAS_FIELD(d, family) ? d->family : NULL;
    if (family && gelu_family_from_key(family) == GELU_FAMILY_COUNT)
        return snprintf(why, size, "family '%.40s' is not ours, libm_gsl, simd_library, "
                        "ml_library or framework", family), -1;
    const gelucheck_contract_v1 *c = &d->contract;
    const double b[4] = {c->max_ulp, c->max_abs, c->grad_max_ulp, c->grad_max_abs};
    static const char *const bn[4] = {"max_ulp", "max_abs", "grad_max_ulp", "grad_max_abs"};
    for (int i = 0; i < 4; i++)
        if (!bound_ok(b[i]))
            return snprintf(why, size, "contract.%s is %g (a bound is >= 0; GELUCHECK_NO_CLAIM for "
                            "none)", bn[i], b[i]), -1;
    return 0;
}

