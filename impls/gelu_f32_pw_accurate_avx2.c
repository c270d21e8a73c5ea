/* pw_accurate_avx2: the accurate tier (pw_accurate.h has the method and its measured accuracy),
 * 8 lanes, AVX2 + FMA. */
#include "vf_avx2.h"

#include "pw_accurate.h"

PW_ACCURATE_IMPL(pw_accurate_avx2);
