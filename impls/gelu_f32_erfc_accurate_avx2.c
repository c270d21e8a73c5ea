/* erfc_accurate_avx2: the accurate erfc-form GELU (erfc_accurate.h has the method and its
 * measured accuracy), 8 lanes, AVX2 + FMA. */
#include "vf_avx2.h"

#include "erfc_accurate.h"

ERFC_ACCURATE_IMPL(erfc_accurate_avx2);
