/* as7126: GELU with erf by Abramowitz & Stegun 7.1.26 (as7126.h has the method and its
 * measured accuracy), the plain one-lane build (same results as the vector builds). */
#include "vf_scalar.h"

#include "as7126.h"

AS7126_IMPL(as7126);
