/* cr_avx2: GELU and its derivative correctly rounded to binary32 (cr.h has the method and its
 * proof), 8 lanes, AVX2 + FMA. */
#include "vf_avx2.h"

#include "cr.h"

CR_IMPL(cr_avx2);
