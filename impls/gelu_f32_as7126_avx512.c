/* as7126_avx512: GELU with erf by Abramowitz & Stegun 7.1.26 (as7126.h has the method and its
 * measured accuracy), 16 lanes, AVX-512. */
#include "vf_avx512.h"

#include "as7126.h"

AS7126_IMPL(as7126_avx512);
