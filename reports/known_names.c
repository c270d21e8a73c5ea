/* Framework names of each implementation (see known_names.h). */
#include "known_names.h"

#include "gelu_impl.h"

#include <stdio.h>
#include <string.h>

/* Exact GELU, x·Φ(x), computed some other way than PyTorch's erf form. */
#define EXACT_FUNCTION                                                                             \
    "the function of PyTorch approximate='none', HF hidden_act gelu, oneDNN eltwise_gelu_erf"
#define THROUGH_ERFC EXACT_FUNCTION " (computed through erfc: no cancellation for x < 0)"

static const struct {
    const char *key; /* registry name, or "target:T" */
    const char *text;
} table[] = {
    {"erf_naive", "same formula as PyTorch approximate='none' (x·½·(1 + erf(x/√2))), HF hidden_act "
                  "gelu (and gelu_python); oneDNN's algorithm for it: eltwise_gelu_erf"},
    {"sleef_erf_u10", "same formula as PyTorch approximate='none', HF gelu, with SLEEF's erff"},
    {"tanh_libm", "same formula as PyTorch approximate='tanh' and HF gelu_pytorch_tanh, gelu_new, "
                  "gelu_accurate; HF gelu_fast is the same tanh form written as "
                  "tanh(0.7978845608·x·(1 + 0.044715·x²)), a rounded constant; oneDNN "
                  "eltwise_gelu_tanh"},
    {"dnnl_erf", "oneDNN eltwise_gelu_erf itself (PyTorch approximate='none' semantics)"},
    {"dnnl_erf_omp", "oneDNN eltwise_gelu_erf itself, on its OpenMP threads"},
    {"dnnl_tanh", "oneDNN eltwise_gelu_tanh itself (PyTorch approximate='tanh' semantics)"},
    {"dnnl_tanh_omp", "oneDNN eltwise_gelu_tanh itself, on its OpenMP threads"},
    {"sigmoid", "same formula as HF hidden_act quick_gelu (x·σ(1.702·x))"},
    {"silu", "not a GELU: PyTorch nn.SiLU, HF hidden_act silu / swish"},
    {"erfc_libm", THROUGH_ERFC},
    {"erfc_f64", THROUGH_ERFC},
    {"gsl_erfc", THROUGH_ERFC},
    {"sleef_erfc_u15", THROUGH_ERFC},
    {"erfc_accurate", THROUGH_ERFC},
    {"as7126", "same formula as PyTorch approximate='none' with erf by Abramowitz & Stegun 7.1.26, "
               "as PyTorch's vectorized erf and oneDNN's AVX2 eltwise_gelu_erf evaluate it"},
    {"pw_fast", EXACT_FUNCTION " (computed directly: piecewise polynomials of GELU itself, to an "
                "absolute error)"},
    {"pw_accurate", EXACT_FUNCTION " (computed directly: piecewise polynomials of GELU itself, "
                    "an exp form in the negative tail)"},
    /* the frameworks' own kernels (plugins/exec_frameworks.c), run in the framework */
    {"torch_gelu", "PyTorch torch.nn.functional.gelu(approximate='none') itself, nn.GELU()"},
    {"torch_gelu_tanh", "PyTorch torch.nn.functional.gelu(approximate='tanh') itself"},
    {"tf_gelu", "TensorFlow tf.nn.gelu(approximate=False) itself"},
    {"tf_gelu_tanh", "TensorFlow tf.nn.gelu(approximate=True) itself"},
    {"jax_gelu", "JAX jax.nn.gelu(approximate=False) itself (jitted, XLA CPU)"},
    {"jax_gelu_tanh", "JAX jax.nn.gelu(approximate=True) itself, its default (jitted, XLA CPU)"},
    {"ort_gelu", "ONNX operator Gelu (opset 20, approximate='none') in ONNX Runtime"},
    {"ort_gelu_tanh", "ONNX operator Gelu (opset 20, approximate='tanh') in ONNX Runtime"},
    {"ort_ms_gelu", "ONNX Runtime contrib operator com.microsoft.Gelu"},
    {"ort_ms_fastgelu", "ONNX Runtime contrib operator com.microsoft.FastGelu (tanh form)"},
    {"target:exact", EXACT_FUNCTION},
    {"target:tanh", "the function of PyTorch approximate='tanh', HF gelu_pytorch_tanh / gelu_new"},
    {"target:sigmoid", "the function of HF quick_gelu"},
    {"target:relu", "not a GELU: the cost baseline (PyTorch nn.ReLU, oneDNN eltwise_relu)"},
};

const char *impl_method(const char *impl)
{
    const gelu_impl *m = gelu_impl_find(impl);
    return m && m->method ? m->method : impl; /* run-time implementations have none */
}

/* Looked up by the registry name, then by its method (the builds of one algorithm share their
 * names), then by the target. */
const char *known_names(const char *impl, const char *target)
{
    char keys[3][64] = {"", "", "target:"};
    snprintf(keys[0], sizeof keys[0], "%s", impl);
    snprintf(keys[1], sizeof keys[1], "%s", impl_method(impl));
    strncat(keys[2], target, sizeof keys[2] - strlen(keys[2]) - 1);
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
            if (strcmp(table[i].key, keys[pass]) == 0) return table[i].text;
    return "";
}

/* By name prefix, then the plain formulas by base name; everything else is ours. */
impl_family impl_family_of(const char *impl)
{
    static const struct {
        const char *prefix;
        impl_family family;
    } prefixes[] = {{"dnnl_", FAMILY_FRAMEWORK}, {"torch_", FAMILY_FRAMEWORK},
                    {"tf_", FAMILY_FRAMEWORK},   {"jax_", FAMILY_FRAMEWORK},
                    {"ort_", FAMILY_FRAMEWORK},  {"sleef_", FAMILY_SIMD_LIBRARY},
                    {"gsl_", FAMILY_LIBM_GSL}};
    static const char *const plain[] = {"erf_naive", "erfc_libm", "erfc_f64",
                                        "tanh_libm", "sigmoid",   "silu"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(impl, prefixes[i].prefix, strlen(prefixes[i].prefix)) == 0)
            return prefixes[i].family;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (strcmp(impl_method(impl), plain[i]) == 0) return FAMILY_LIBM_GSL;
    return FAMILY_OURS;
}

const char *impl_family_name(impl_family f)
{
    static const char *const names[FAMILY_COUNT] = {"ours", "libm + GSL", "SIMD libraries",
                                                    "frameworks"};
    return f < FAMILY_COUNT ? names[f] : "?";
}
