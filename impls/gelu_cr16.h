/* The native implementations of the 16-bit formats (impls/gelu_cr16.c: the correctly rounded
 * bfloat16 and binary16 GELUs). A list of their own, beside the registry: the registry's
 * consumers (the binary32 scan, bench, moons, their tests) run binary32 kernels; `accuracy
 * --format` runs these and the widened binary32 implementations. */
#ifndef GELUCHECK_GELU_CR16_H
#define GELUCHECK_GELU_CR16_H

#include "gelu_impl.h"

size_t gelu_impl16_count(void);
const gelu_impl *gelu_impl16_at(size_t i);
/* Adds a 16-bit implementation made at run time (an exec child of format bfloat16 or binary16:
 * a framework's GELU on 16-bit tensors) after the natives, `source` naming where it comes from;
 * both must outlive the run. Before any scan starts. 0, or −1 with err (a name taken in that
 * format: both sources named; too many). */
int gelu_impl16_add(const gelu_impl *impl, const char *source, char *err, size_t errsize);
/* Where a run-time 16-bit implementation comes from; NULL for a built-in one. */
const char *gelu_impl16_source(const gelu_impl *impl);
/* The native implementation called name in format, or NULL. */
const gelu_impl *gelu_impl16_find(const char *name, gelu_format_id format);
/* name in 16-bit format `format`: its native implementation of that name, else the registry's
 * binary32 implementation widened into *view (gelu_impl_widened); NULL when neither exists. */
const gelu_impl *gelu_impl16_lookup(const char *name, gelu_format_id format, gelu_impl *view);
/* How many inputs, since the program started, neither the fast nor the x87 path decided (their
 * result is the fast path's upper rounding, not proven): 0 over all inputs of both formats. */
unsigned long gelu_cr16_unresolved(void);
/* The scalar path the kernels' tables are built from (impls/gelu_cr16.c), run directly on
 * x[0..n) of `format`, forward or (grad) derivative: what the tables are held to at every
 * encoding (tests/test_cr16.c). 0, or −1 when no correctly rounded native serves the format. */
int gelu_cr16_path(gelu_format_id format, bool grad, const uint16_t *x, uint16_t *y, size_t n);

#endif
