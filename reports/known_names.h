/* What the report says of an implementation beyond its figures, read from its descriptor
 * (gelu_impl.h: known_as, family) and its target's row: the names users know it by in the
 * frameworks, and its family (who wrote its kernel). */
#ifndef GELUCHECK_KNOWN_NAMES_H
#define GELUCHECK_KNOWN_NAMES_H

#include <stddef.h>

#include "gelu_impl.h"

/* The descriptor's known_as (the implementation of that name in binary32, else in another
 * format), else its target's (by target name); "" when none. */
const char *known_names(const char *impl, const char *target);

/* The registry's method of the implementation named `impl` (one algorithm's ISA builds share
 * it), or `impl` itself when this build registers no such name or it was added at run time. */
const char *impl_method(const char *impl);

/* Where an implementation comes from, for the report's plots: its descriptor's family
 * (GELU_FAMILY_OURS for a name this process has no row of). */
gelu_family impl_family_of(const char *impl);
/* "ours", "libm + GSL", "SIMD libraries", "frameworks". */
const char *impl_family_name(gelu_family f);

#endif
