/* The correctly rounded GELUs of the small formats (impls/gelu_cr16.c: bfloat16, binary16, e4m3,
 * e5m2), rows of the registry in their formats; `accuracy --format` runs them beside the widened
 * binary32 implementations. */
#ifndef GELUCHECK_GELU_CR16_H
#define GELUCHECK_GELU_CR16_H

#include "gelu_impl.h"

/* The built-in natives, for the registry (gelu_impl.h). */
extern const gelu_impl *const gelu_cr16_builtins[];
extern const size_t gelu_cr16_builtin_count;
/* How many inputs, since the program started, neither the fast nor the x87 path decided (their
 * result is the fast path's upper rounding, not proven): 0 over all inputs of both formats. */
unsigned long gelu_cr16_unresolved(void);
/* The scalar path the kernels' tables are built from (impls/gelu_cr16.c), run directly on
 * x[0..n) of `format`, forward or (grad) derivative: what the tables are held to at every
 * encoding (tests/test_cr16.c). 0, or −1 when no correctly rounded native serves the format. */
int gelu_cr16_path(gelu_format_id format, bool grad, const uint16_t *x, uint16_t *y, size_t n);

#endif
