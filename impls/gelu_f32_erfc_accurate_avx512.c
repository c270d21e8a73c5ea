/* erfc_accurate_avx512: the accurate erfc-form GELU (erfc_accurate.h has the method and its
 * measured accuracy), 16 lanes, AVX-512. */
#include "vf_avx512.h"

#include "erfc_accurate.h"

ERFC_ACCURATE_IMPL(erfc_accurate_avx512);
