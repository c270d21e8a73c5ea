/* pw_fast_avx2: the fast tier (pw_fast.h has the method and its measured accuracy), 8 lanes, AVX2 + FMA. */
#include "vf_avx2.h"

#include "pw_fast.h"

PW_FAST_IMPL(pw_fast_avx2);
