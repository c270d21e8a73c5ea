/* pw_fast_avx512: the fast tier (pw_fast.h has the method and its measured accuracy), 16 lanes, AVX-512. */
#include "vf_avx512.h"

#include "pw_fast.h"

PW_FAST_IMPL(pw_fast_avx512);
