/* The names users know SLEEF's GELUs by (the report's known_as, the plugin ABI's field), for
 * the binary32 and binary64 rows alike. */
#ifndef GELUCHECK_SLEEF_KNOWN_AS_H
#define GELUCHECK_SLEEF_KNOWN_AS_H

#define SLEEF_ERF_KNOWN_AS "same formula as PyTorch approximate='none', HF gelu, with SLEEF's erff"
#define SLEEF_ERFC_KNOWN_AS                                                                     \
    "the function of PyTorch approximate='none', HF hidden_act gelu, oneDNN eltwise_gelu_erf "  \
    "(computed through erfc: no cancellation for x < 0)"

#endif
