/* as7126_avx2: GELU with erf by Abramowitz & Stegun 7.1.26 (as7126.h has the method and its
 * measured accuracy), 8 lanes, AVX2 + FMA. */
#include "vf_avx2.h"

#include "as7126.h"

AS7126_IMPL(as7126_avx2);
