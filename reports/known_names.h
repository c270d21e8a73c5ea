/* The names users know an implementation by in the frameworks: PyTorch's nn.GELU `approximate`
 * argument, Hugging Face Transformers' `hidden_act` values, oneDNN's eltwise algorithms. Where
 * ours only shares the formula, the text says "same formula as"; the frameworks' own kernels
 * differ in how they evaluate it. Also each implementation's family (who wrote its kernel). */
#ifndef GELUCHECK_KNOWN_NAMES_H
#define GELUCHECK_KNOWN_NAMES_H

#include <stddef.h>

/* A short text for the implementation (by registry name, else by target name); "" when none. */
const char *known_names(const char *impl, const char *target);

/* The registry's method of the implementation named `impl` (one algorithm's ISA builds share
 * it), or `impl` itself when this build registers no such name or it was added at run time. */
const char *impl_method(const char *impl);

/* Where an implementation comes from, for the report's plots: this project's kernels, plain
 * formulas over the C library or GSL, SIMD math libraries (SLEEF), frameworks (oneDNN). */
typedef enum { FAMILY_OURS, FAMILY_LIBM_GSL, FAMILY_SIMD_LIBRARY, FAMILY_FRAMEWORK, FAMILY_COUNT }
    impl_family;
impl_family impl_family_of(const char *impl);
/* "ours", "libm + GSL", "SIMD libraries", "frameworks". */
const char *impl_family_name(impl_family f);

#endif
