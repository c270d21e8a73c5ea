/* oneDNN's AArch64 build as rows of the cross build's exec child (cross/exec_vf.c): its eltwise
 * primitives gelu_erf (dnnl_erf_aarch64, target exact) and gelu_tanh (dnnl_tanh_aarch64, target
 * tanh), forward and backward with diff_dst = 1, single-threaded, through the x86 peer's
 * execution code (peers/dnnl_eltwise.c) on Debian's arm64 libdnnl (libdnnl2:arm64).
 *
 * oneDNN picks its implementation at run time from the CPU: under qemu-aarch64, a JIT kernel
 * (jit:sve_512) where SVE vectors are 512 bits (-cpu max,sve-max-vq=4), its reference C++ code
 * (ref:any) otherwise. Each row announces the implementation it runs (dispatched_isa: oneDNN's
 * implementation string for the forward primitive). The contracts claimed are the largest of
 * the x86 paths' measured bounds (peers/dnnl.c): a hypothesis the gate checks. */
#include <math.h>
#include <stdio.h>

#include "dnnl_eltwise.h"
#include "gelu_impl.h"

static void erf_forward(const float *x, float *y, size_t n)
{
    dnnl_eltwise_run(dnnl_eltwise_gelu_erf, false, false, x, y, n);
}
static void erf_derivative(const float *x, float *y, size_t n)
{
    dnnl_eltwise_run(dnnl_eltwise_gelu_erf, true, false, x, y, n);
}
static void tanh_forward(const float *x, float *y, size_t n)
{
    dnnl_eltwise_run(dnnl_eltwise_gelu_tanh, false, false, x, y, n);
}
static void tanh_derivative(const float *x, float *y, size_t n)
{
    dnnl_eltwise_run(dnnl_eltwise_gelu_tanh, true, false, x, y, n);
}

/* oneDNN's implementation string of a forward gelu_erf primitive on this CPU ("ref:any",
 * "jit:sve_512"), found once, in the protocol's letters (ref_any, jit_sve_512: other characters
 * become '_'); "unknown" when oneDNN cannot say. */
static const char *dispatched(void)
{
    static char impl[64];
    if (impl[0]) return impl;
    snprintf(impl, sizeof impl, "unknown");
    dnnl_engine_t e;
    if (dnnl_engine_create(&e, dnnl_cpu, 0) != dnnl_success) return impl;
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {64};
    dnnl_eltwise_desc_t ed;
    dnnl_primitive_desc_t pd;
    const char *s = NULL;
    if (dnnl_memory_desc_init_by_tag(&md, 1, dims, dnnl_f32, dnnl_a) == dnnl_success &&
        dnnl_eltwise_forward_desc_init(&ed, dnnl_forward_inference, dnnl_eltwise_gelu_erf, &md, 0,
                                       0) == dnnl_success &&
        dnnl_primitive_desc_create(&pd, &ed, NULL, e, NULL) == dnnl_success) {
        if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &s) == dnnl_success && s)
            snprintf(impl, sizeof impl, "%.31s", s);
        for (char *c = impl; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'))) *c = '_';
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_engine_destroy(e);
    return impl;
}

/* The x86 paths' largest bounds (peers/dnnl.c: sse41's for gelu_erf, every path's 5.03e-7 for
 * gelu_tanh); no ULP claim (gelu_erf's forward is 0 where GELU is tiny and negative). */
const gelu_impl gelu_impl_dnnl_erf_aarch64 = {
    .name = "dnnl_erf_aarch64",
    .method = "dnnl_erf_aarch64",
    .isa = GELU_ISA_NEON,
    .target = GELU_TARGET_EXACT,
    .forward = erf_forward,
    .derivative = erf_derivative,
    .contract = {.max_ulp = INFINITY, .max_abs = 4.71e-07, .grad_max_ulp = INFINITY,
                 .grad_max_abs = 3.55e-07},
    .origin = "peer: oneDNN eltwise_gelu_erf, AArch64 build (Debian libdnnl2:arm64)",
    .family = GELU_FAMILY_ML_LIBRARY,
    .known_as = "oneDNN eltwise_gelu_erf itself (PyTorch approximate='none' semantics)",
    .dispatched_isa = dispatched,
};

const gelu_impl gelu_impl_dnnl_tanh_aarch64 = {
    .name = "dnnl_tanh_aarch64",
    .method = "dnnl_tanh_aarch64",
    .isa = GELU_ISA_NEON,
    .target = GELU_TARGET_TANH,
    .forward = tanh_forward,
    .derivative = tanh_derivative,
    .contract = {.max_ulp = INFINITY, .max_abs = 5.03e-07, .grad_max_ulp = INFINITY,
                 .grad_max_abs = INFINITY},
    .origin = "peer: oneDNN eltwise_gelu_tanh, AArch64 build (Debian libdnnl2:arm64)",
    .family = GELU_FAMILY_ML_LIBRARY,
    .known_as = "oneDNN eltwise_gelu_tanh itself (PyTorch approximate='tanh' semantics)",
    .dispatched_isa = dispatched,
};
