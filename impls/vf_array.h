/* VF_ARRAY_KERNEL(name, fn): the array kernel `static void name(const float *x, float *y,
 * size_t n)` that applies the vector function `vf fn(vf)` to whole vectors and to the last,
 * partial one through a zero-padded copy, so every element goes through the same instructions
 * whatever its position or n. Include after a vf_<isa>.h. */
#ifndef GELUCHECK_VF_ARRAY_H
#define GELUCHECK_VF_ARRAY_H

#include <stddef.h>
#include <string.h>

#include "gelu_impl.h"

#define VF_ARRAY_KERNEL(name, fn)                                                            \
    static void name(const float *x, float *y, size_t n)                                     \
    {                                                                                        \
        size_t i = 0;                                                                        \
        for (; i + VF_WIDTH <= n; i += VF_WIDTH)                                             \
            vf_store(y + i, fn(vf_load(x + i)));                                             \
        if (i < n) {                                                                         \
            float buf[VF_WIDTH] = {0};                                                       \
            memcpy(buf, x + i, (n - i) * sizeof *x);                                         \
            vf_store(buf, fn(vf_load(buf)));                                                 \
            memcpy(y + i, buf, (n - i) * sizeof *y);                                         \
        }                                                                                    \
    }

/* VF_GELU_IMPL(name, target, forward, derivative, origin, contract fields...): the descriptor
 * gelu_impl_<name> of one ISA's build of a vf_* algorithm, its CPU features those of the
 * vf_<isa>.h included (VF_FEATURES). */
#define VF_GELU_IMPL(impl_name, impl_target, forward_kernel, derivative_kernel, origin_line, ...) \
    const gelu_impl gelu_impl_##impl_name = {                                                \
        .name = #impl_name,                                                                  \
        .target = (impl_target),                                                             \
        .features = VF_FEATURES,                                                             \
        .forward = (forward_kernel),                                                         \
        .derivative = (derivative_kernel),                                                   \
        .contract = {__VA_ARGS__},                                                           \
        .origin = (origin_line),                                                             \
    }

#endif
