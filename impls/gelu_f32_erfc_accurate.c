/* erfc_accurate: the plain one-lane build of the accurate erfc-form GELU (erfc_accurate.h has the
 * algorithm and the measured accuracy), beside its AVX2 and AVX-512 builds and bit-identical to
 * them; fmaf from libm. */
#include "vf_scalar.h"

#include "erfc_accurate.h"

ERFC_ACCURATE_IMPL(erfc_accurate);
