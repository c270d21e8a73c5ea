/* pw_accurate_avx512: the accurate tier (pw_accurate.h has the method and its measured accuracy),
 * 16 lanes, AVX-512. */
#include "vf_avx512.h"

#include "pw_accurate.h"

PW_ACCURATE_IMPL(pw_accurate_avx512);
