/* VF_ARRAY_KERNEL(name, fn): the array kernel `static void name(const float *x, float *y,
 * size_t n)` that applies the vector function `vf fn(vf)` to whole vectors and to the last,
 * partial one through a zero-padded copy, so every element goes through the same instructions
 * whatever its position or n. Include after a vf_<isa>.h. */
#ifndef GELUCHECK_VF_ARRAY_H
#define GELUCHECK_VF_ARRAY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gelu_impl.h"
#include "gelucheck_config.h"

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

/* VF_SPLIT_ARRAY_KERNEL(name, fn, below, tail_fn): like VF_ARRAY_KERNEL(name, fn), except that
 * the elements below `below` get tail_fn's values instead, computed on those elements only,
 * packed into whole vectors, a chunk of the array at a time (pack, run, unpack): a costly path
 * that few elements need costs in proportion to them, not to the vectors they touch. Each
 * element's result depends on its own value only, so the packing changes no result. */
#ifdef VF_PACKS
#define VF_SPLIT_CHUNK 512 /* elements: a multiple of every VF_WIDTH */
#define VF_SPLIT_ARRAY_KERNEL(name, fn, below, tail_fn)                                       \
    static void name(const float *x, float *y, size_t n)                                     \
    {                                                                                        \
        float xs[VF_SPLIT_CHUNK + VF_WIDTH];                                                 \
        vm mask[VF_SPLIT_CHUNK / VF_WIDTH];                                                  \
        size_t i = 0;                                                                        \
        while (i + VF_WIDTH <= n) {                                                          \
            size_t start = i, nv = 0, k = 0;                                                 \
            for (; nv < VF_SPLIT_CHUNK / VF_WIDTH && i + VF_WIDTH <= n; nv++, i += VF_WIDTH) { \
                vf v = vf_load(x + i);                                                       \
                vf_store(y + i, fn(v));                                                      \
                mask[nv] = vf_less_mask(v, vf_set1(below));                                  \
                if (vf_mask_count(mask[nv])) k += vf_pack(v, mask[nv], xs + k);              \
            }                                                                                \
            for (size_t j = k; j < k + VF_WIDTH; j++) xs[j] = (below) - 1.0f;                \
            for (size_t j = 0; j < k; j += VF_WIDTH) vf_store(xs + j, tail_fn(vf_load(xs + j))); \
            for (size_t v = 0, r = 0; r < k; v++) {                                          \
                if (!vf_mask_count(mask[v])) continue;                                       \
                float *at = y + start + v * VF_WIDTH;                                        \
                vf_store(at, vf_unpack(vf_load(at), mask[v], xs + r));                       \
                r += vf_mask_count(mask[v]);                                                 \
            }                                                                                \
        }                                                                                    \
        if (i < n) {                                                                         \
            float buf[VF_WIDTH] = {0};                                                       \
            memcpy(buf, x + i, (n - i) * sizeof *x);                                         \
            vf v = vf_load(buf);                                                             \
            vf_store(buf, vf_select_less(v, vf_set1(below), tail_fn(v), fn(v)));             \
            memcpy(y + i, buf, (n - i) * sizeof *y);                                         \
        }                                                                                    \
    }
#else /* one lane, or no cheap packing (AVX2): the tail on whole vectors that have such a lane */
#define VF_SPLIT_ARRAY_KERNEL(name, fn, below, tail_fn)                                       \
    static inline vf name##_one(vf v)                                                        \
    {                                                                                        \
        vf y = fn(v);                                                                        \
        if (vf_mask_count(vf_less_mask(v, vf_set1(below))))                                  \
            y = vf_select_less(v, vf_set1(below), tail_fn(v), y);                            \
        return y;                                                                            \
    }                                                                                        \
    VF_ARRAY_KERNEL(name, name##_one)
#endif

/* VF_SPLIT3_ARRAY_KERNEL(name, fn, below, tail_fn, above, high_fn): three paths by value: x <
 * below gets tail_fn, x > above high_fn (a cheap one: x itself, a constant), the rest (NaN too)
 * fn, which must also be right for x > above (the build without packing runs it there). With
 * packing, a vector whose lanes are all in the middle runs fn as it is; any other is given
 * high_fn, and its middle lanes and its tail lanes are packed, each kind into whole vectors of
 * its own, and run after the chunk: inputs spread over the three ranges (uniform on [−10, 10])
 * pay fn and tail_fn for the lanes that need them, not for every lane. */
#ifdef VF_PACKS
#define VF_FULL_MASK ((1u << VF_WIDTH) - 1u)
#define VF_SPLIT3_ARRAY_KERNEL(name, fn, below, tail_fn, above, high_fn)                       \
    static inline vm name##_middle(vf v)                                                     \
    {                                                                                        \
        vm out = (vm)(vf_less_mask(v, vf_set1(below)) | vf_less_mask(vf_set1(above), v));    \
        return (vm)(~out & VF_FULL_MASK);                                                    \
    }                                                                                        \
    static void name##_run(float *xs, size_t k, vf (*f)(vf), float pad)                      \
    {                                                                                        \
        for (size_t j = k; j < k + VF_WIDTH; j++) xs[j] = pad;                               \
        for (size_t j = 0; j < k; j += VF_WIDTH) vf_store(xs + j, f(vf_load(xs + j)));        \
    }                                                                                        \
    static void name(const float *x, float *y, size_t n)                                     \
    {                                                                                        \
        float xs[VF_SPLIT_CHUNK + VF_WIDTH], xm[VF_SPLIT_CHUNK + VF_WIDTH];                  \
        size_t at[VF_SPLIT_CHUNK / VF_WIDTH]; /* the mixed vectors' offsets */               \
        vm low[VF_SPLIT_CHUNK / VF_WIDTH], mid[VF_SPLIT_CHUNK / VF_WIDTH];                   \
        size_t i = 0;                                                                        \
        while (i + VF_WIDTH <= n) {                                                          \
            size_t end = n - n % VF_WIDTH, nmix = 0, k = 0, km = 0;                          \
            if (end - i > VF_SPLIT_CHUNK) end = i + VF_SPLIT_CHUNK;                          \
            while (i < end) {                                                                \
                /* a run of vectors all in the middle: fn as it is */                        \
                for (; i < end && name##_middle(vf_load(x + i)) == VF_FULL_MASK; i += VF_WIDTH) \
                    vf_store(y + i, fn(vf_load(x + i)));                                     \
                if (i == end) break;                                                         \
                vf v = vf_load(x + i);                                                       \
                vm lo = vf_less_mask(v, vf_set1(below)), md = name##_middle(v);              \
                vf_store(y + i, high_fn(v));                                                 \
                if (vf_mask_count(lo)) k += vf_pack(v, lo, xs + k);                          \
                if (vf_mask_count(md)) km += vf_pack(v, md, xm + km);                        \
                at[nmix] = i, low[nmix] = lo, mid[nmix++] = md;                              \
                i += VF_WIDTH;                                                               \
            }                                                                                \
            name##_run(xs, k, tail_fn, (below) - 1.0f);                                      \
            name##_run(xm, km, fn, (below));                                                 \
            for (size_t v = 0, r = 0, rm = 0; v < nmix; v++) {                               \
                vf o = vf_load(y + at[v]);                                                   \
                if (vf_mask_count(low[v])) o = vf_unpack(o, low[v], xs + r);                 \
                if (vf_mask_count(mid[v])) o = vf_unpack(o, mid[v], xm + rm);                \
                vf_store(y + at[v], o);                                                      \
                r += vf_mask_count(low[v]);                                                  \
                rm += vf_mask_count(mid[v]);                                                 \
            }                                                                                \
        }                                                                                    \
        if (i < n) {                                                                         \
            float buf[VF_WIDTH] = {0};                                                       \
            memcpy(buf, x + i, (n - i) * sizeof *x);                                         \
            vf v = vf_load(buf);                                                             \
            vf_store(buf, vf_select_less(v, vf_set1(below), tail_fn(v), fn(v)));             \
            memcpy(y + i, buf, (n - i) * sizeof *y);                                         \
        }                                                                                    \
    }
#else
#define VF_SPLIT3_ARRAY_KERNEL(name, fn, below, tail_fn, above, high_fn)                       \
    VF_SPLIT_ARRAY_KERNEL(name, fn, below, tail_fn)
#endif

/* VF_GELU_IMPL(name, target, forward, derivative, origin, known_as, contract fields...): the
 * descriptor
 * gelu_impl_<name> of one ISA's build of a vf_* algorithm, its ISA and CPU features those of the
 * vf_<isa>.h included (VF_ISA, VF_FEATURES), its method VF_METHOD, which the build's file
 * generated from impls/vf_build.c.in defines (impls/meson.build, vf_methods).
 *
 * The plain (one-lane) build is compiled twice where the compiler takes -mfma: as is, the
 * portable kernels, whose vf_fma is libm's fmaf (a call per operation), and with FMA
 * instructions (VF_SCALAR_FMA defined), which export only their kernels,
 * gelu_f32_<name>_fma_forward/_derivative. The descriptor's kernels call the FMA ones on a CPU
 * that has FMA and the portable ones elsewhere: the same bits either way (fmaf and the FMA
 * instruction round once, and nothing else changes: ISO C mode contracts no a*b + c), which
 * tests/test_impls.c checks through .forward_nofma/.derivative_nofma. */
#define VF_GELU_DESCRIPTOR(impl_name, impl_target, forward_kernel, derivative_kernel,           \
                           forward_plain, derivative_plain, origin_line, known_as_text, ...)                   \
    const gelu_impl gelu_impl_##impl_name = {                                                \
        .name = #impl_name,                                                                  \
        .method = VF_METHOD,                                                                 \
        .isa = VF_ISA,                                                                       \
        .target = (impl_target),                                                             \
        .features = VF_FEATURES,                                                             \
        .forward = (forward_kernel),                                                         \
        .derivative = (derivative_kernel),                                                   \
        .forward_nofma = (forward_plain),                                                    \
        .derivative_nofma = (derivative_plain),                                              \
        .contract = {__VA_ARGS__},                                                           \
        .origin = (origin_line),                                                             \
        .known_as = (known_as_text),                                                         \
    }

#if VF_WIDTH == 1 && defined(VF_SCALAR_FMA)
#define VF_GELU_IMPL(impl_name, impl_target, forward_kernel, derivative_kernel, origin_line, known_as_text, ...) \
    void gelu_f32_##impl_name##_fma_forward(const float *x, float *y, size_t n);            \
    void gelu_f32_##impl_name##_fma_derivative(const float *x, float *y, size_t n);         \
    void gelu_f32_##impl_name##_fma_forward(const float *x, float *y, size_t n)             \
    {                                                                                        \
        forward_kernel(x, y, n);                                                             \
    }                                                                                        \
    void gelu_f32_##impl_name##_fma_derivative(const float *x, float *y, size_t n)          \
    {                                                                                        \
        derivative_kernel(x, y, n);                                                          \
    }                                                                                        \
    void gelu_f32_##impl_name##_fma_derivative(const float *x, float *y, size_t n) /* takes the ; */
#elif VF_WIDTH == 1 && GELUCHECK_HAVE_SCALAR_FMA
#define VF_GELU_IMPL(impl_name, impl_target, forward_kernel, derivative_kernel, origin_line, known_as_text, ...) \
    void gelu_f32_##impl_name##_fma_forward(const float *x, float *y, size_t n);            \
    void gelu_f32_##impl_name##_fma_derivative(const float *x, float *y, size_t n);         \
    static void impl_name##_forward_dispatch(const float *x, float *y, size_t n)            \
    {                                                                                        \
        (vf_cpu_has_fma() ? gelu_f32_##impl_name##_fma_forward : forward_kernel)(x, y, n);   \
    }                                                                                        \
    static void impl_name##_derivative_dispatch(const float *x, float *y, size_t n)         \
    {                                                                                        \
        (vf_cpu_has_fma() ? gelu_f32_##impl_name##_fma_derivative : derivative_kernel)(x, y, n); \
    }                                                                                        \
    VF_GELU_DESCRIPTOR(impl_name, impl_target, impl_name##_forward_dispatch,                 \
                       impl_name##_derivative_dispatch, forward_kernel, derivative_kernel,   \
                       origin_line, known_as_text, __VA_ARGS__)

/* Whether this CPU has FMA, asked once. */
static inline bool vf_cpu_has_fma(void)
{
    static int has = -1; /* racing first calls store the same value */
    if (has < 0) has = (cpu_features() & CPU_FEATURE_FMA) != 0;
    return has;
}
#else
#define VF_GELU_IMPL(impl_name, impl_target, forward_kernel, derivative_kernel, origin_line, known_as_text, ...) \
    VF_GELU_DESCRIPTOR(impl_name, impl_target, forward_kernel, derivative_kernel, NULL, NULL, \
                       origin_line, known_as_text, __VA_ARGS__)
#endif

#endif
