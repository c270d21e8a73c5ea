/* The binary64 implementations, rows of the registry in format binary64, scanned by sampling
 * (scan/scan_f64.h, `accuracy --format binary64`) and timed by `bench --format binary64`.
 * Built-in rows (impls/gelu_f64.c): GELU's erfc, tanh and sigmoid forms in double with libm, and
 * ReLU per ISA (the benchmark's baseline); plugins add theirs (include/gelucheck/plugin.h's
 * binary64 kernels: GSL's and SLEEF's peers). */
#ifndef GELUCHECK_GELU_F64_H
#define GELUCHECK_GELU_F64_H

#include "gelu_impl.h"

/* The built-in rows, for the registry (gelu_impl.h). */
extern const gelu_impl *const *const gelu_f64_builtins;
extern const size_t gelu_f64_builtin_count;

#endif
