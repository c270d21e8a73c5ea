/* Framework names of each implementation (see known_names.h). */
#include "known_names.h"

#include <string.h>

/* Exact GELU, x·Φ(x), computed some other way than PyTorch's erf form. */
#define EXACT_FUNCTION                                                                             \
    "the function of PyTorch approximate='none', HF hidden_act gelu, oneDNN eltwise_gelu_erf "     \
    "(computed through erfc: no cancellation for x < 0)"

static const struct {
    const char *key; /* registry name, or "target:T" */
    const char *text;
} table[] = {
    {"erf_naive", "same formula as PyTorch approximate='none' (x·½·(1 + erf(x/√2))), HF hidden_act "
                  "gelu (and gelu_python); oneDNN's algorithm for it: eltwise_gelu_erf"},
    {"sleef_erf_u10_avx2",
     "same formula as PyTorch approximate='none', HF gelu, with SLEEF's erff"},
    {"sleef_erf_u10_avx512f",
     "same formula as PyTorch approximate='none', HF gelu, with SLEEF's erff"},
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
    {"target:exact", EXACT_FUNCTION},
    {"target:tanh", "the function of PyTorch approximate='tanh', HF gelu_pytorch_tanh / gelu_new"},
    {"target:sigmoid", "the function of HF quick_gelu"},
    {"target:relu", "not a GELU: the cost baseline (PyTorch nn.ReLU, oneDNN eltwise_relu)"},
};

const char *known_names(const char *impl, const char *target)
{
    char key[64] = "target:";
    strncat(key, target, sizeof key - strlen(key) - 1);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
            if (strcmp(table[i].key, pass == 0 ? impl : key) == 0) return table[i].text;
    return "";
}
