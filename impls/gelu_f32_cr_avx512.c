/* cr_avx512: GELU and its derivative correctly rounded to binary32 (cr.h has the method and its
 * proof), 16 lanes, AVX-512. */
#include "vf_avx512.h"

#include "cr.h"

CR_IMPL(cr_avx512);
