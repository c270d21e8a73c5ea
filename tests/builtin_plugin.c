/* A plugin serving one of gelucheck's built-in binary32 implementations behind the public ABI,
 * as a user's plugin would: its row is plug_<impl>, with the implementation's kernels, CPU
 * features and contract. The implementation is GELUCHECK_BUILTIN_PLUGIN's (default erfc_f64).
 * For measuring what a plugin's path costs against the same kernel called in gelucheck's own
 * process (docs/plugins.md, "The process crossing's cost"), and for tests that need a plugin
 * whose bits are a built-in row's. */
#include <stdio.h>
#include <stdlib.h>

#include "gelu_impl.h"
#include "gelucheck/plugin.h"

static gelucheck_impl_v1 row;
static gelucheck_plugin_info_v1 info;
static char name[64], features[128];

GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void)
{
    const char *want = getenv("GELUCHECK_BUILTIN_PLUGIN");
    const gelu_impl *m = gelu_impl_find(want && *want ? want : "erfc_f64");
    if (!m || !m->forward) return NULL; /* no such binary32 row: gelucheck names the plugin */
    snprintf(name, sizeof name, "plug_%s", m->name);
    cpu_features_string(m->features, features, sizeof features);
    const gelu_contract *c = &m->contract;
    row = (gelucheck_impl_v1){
        .size = sizeof row,
        .name = name,
        .target = gelu_target_name(m->target),
        .format = "binary32",
        .cpu_features = m->features ? features : "",
        .forward = m->forward,
        .derivative = m->derivative,
        .contract = {c->max_ulp, c->max_abs, c->grad_max_ulp, c->grad_max_abs, c->monotone,
                     c->specials, c->correctly_rounded},
        .origin = "gelucheck's built-in row, as a plugin (tests/builtin_plugin.c)",
    };
    info = (gelucheck_plugin_info_v1){GELUCHECK_PLUGIN_ABI, 1, &row};
    return &info;
}
