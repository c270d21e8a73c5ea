/* erfc_accurate: the accurate erfc-form GELU (erfc_accurate.h has the method and its measured
 * accuracy), the plain one-lane build (same results as the vector builds). */
#include "vf_scalar.h"

#include "erfc_accurate.h"

ERFC_ACCURATE_IMPL(erfc_accurate);
