/* VF_ARRAY_KERNEL(name, fn): the array kernel `static void name(const float *x, float *y,
 * size_t n)` that applies the vector function `vf fn(vf)` to whole vectors and to the last,
 * partial one through a zero-padded copy, so every element goes through the same instructions
 * whatever its position or n. Include after a vf_<isa>.h. */
#ifndef GELUCHECK_VF_ARRAY_H
#define GELUCHECK_VF_ARRAY_H

#include <stddef.h>
#include <string.h>

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

#endif
