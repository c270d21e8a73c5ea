/* A plugin's description (include/gelucheck/plugin.h) checked field by field, before any of its
 * rows is added (plugin.c): the same checks whether gelucheck read it from the plugin or from
 * its host (plugin_describe.h). */
#ifndef GELUCHECK_PLUGIN_CHECK_H
#define GELUCHECK_PLUGIN_CHECK_H

#include <stddef.h>

#include "gelu_impl.h"
#include "gelucheck/plugin.h"

/* Whether the description, of d->size bytes, has the field that ends at `end` (fields appended
 * after ABI 1's first layout are absent from older plugins). */
#define HAS_FIELD(d, field)                                                                        \
    ((d)->size >= offsetof(gelucheck_impl_v1, field) + sizeof((d)->field))

/* Checks one description: 0 and its CPU features and target, or −1 with the field at fault in
 * why. */
int plugin_check_impl(const gelucheck_impl_v1 *d, unsigned *features, gelu_target *target,
                      char *why, size_t size);
/* The ISA named by the description (portable when it names none); GELU_ISA_COUNT: unknown. */
gelu_isa plugin_isa_of(const gelucheck_impl_v1 *d);
/* The row's format, after plugin_check_impl (a known one). */
gelu_format_id plugin_format_of(const gelucheck_impl_v1 *d);

#endif
