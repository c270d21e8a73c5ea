/* Framework names and families of each implementation, from its descriptor (see known_names.h). */
#include "known_names.h"

#include <string.h>

#include "gelu_format.h"
#include "gelu_impl.h"
#include "targets.h"

/* The descriptor of that name: binary32's, else the first other format's row of it. */
static const gelu_impl *descriptor(const char *impl)
{
    const gelu_impl *m = gelu_impl_find(impl);
    for (int f = 0; !m && f < gelu_format_count(); f++) m = gelu_impl_find_in(impl, (gelu_format_id)f);
    return m;
}

const char *impl_method(const char *impl)
{
    const gelu_impl *m = gelu_impl_find(impl);
    return m && m->method ? m->method : impl; /* run-time implementations have none */
}

const char *known_names(const char *impl, const char *target)
{
    const gelu_impl *m = descriptor(impl);
    if (m && m->known_as) return m->known_as;
    gelu_target t = gelu_target_from_name(target);
    return t < GELU_TARGET_COUNT && target_def_of(t)->known_as ? target_def_of(t)->known_as : "";
}

gelu_family impl_family_of(const char *impl)
{
    const gelu_impl *m = descriptor(impl);
    return m ? m->family : GELU_FAMILY_OURS;
}

const char *impl_family_name(gelu_family f) { return gelu_family_text(f); }
