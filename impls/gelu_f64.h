/* The binary64 implementations: a list of their own beside the registry (whose consumers run
 * binary32 kernels, as impls/gelu_cr16.h's list is for the 16-bit formats), scanned by sampling
 * (scan/scan_f64.h, `accuracy --format binary64`) and timed by `bench --format binary64`.
 * Built-in rows (impls/gelu_f64.c): GELU's erfc, tanh and sigmoid forms in double with libm, and
 * ReLU per ISA (the benchmark's baseline); plugins add theirs (include/gelucheck/plugin.h's
 * binary64 kernels: GSL's and SLEEF's peers). */
#ifndef GELUCHECK_GELU_F64_H
#define GELUCHECK_GELU_F64_H

#include "gelu_impl.h"

size_t gelu_impl64_count(void);
const gelu_impl *gelu_impl64_at(size_t i);
/* NULL when no binary64 implementation has that name. */
const gelu_impl *gelu_impl64_find(const char *name);
/* Adds a binary64 implementation made at run time (a plugin's), after the built-in ones, as
 * gelu_impl_add does for binary32: before any scan; names are unique among the binary64 rows.
 * 0, or −1 with err. */
int gelu_impl64_add(const gelu_impl *impl, const char *source, char *err, size_t errsize);

#endif
