/* cr: GELU and its derivative correctly rounded to binary32 (cr.h has the method and its
 * proof), the plain one-lane build (same results as the vector builds). */
#include "vf_scalar.h"

#include "cr.h"

CR_IMPL(cr);
