/* The names users know an implementation by in the frameworks: PyTorch's nn.GELU `approximate`
 * argument, Hugging Face Transformers' `hidden_act` values, oneDNN's eltwise algorithms. Where
 * ours only shares the formula, the text says "same formula as"; the frameworks' own kernels
 * differ in how they evaluate it. */
#ifndef GELUCHECK_KNOWN_NAMES_H
#define GELUCHECK_KNOWN_NAMES_H

/* A short text for the implementation (by registry name, else by target name); "" when none. */
const char *known_names(const char *impl, const char *target);

#endif
