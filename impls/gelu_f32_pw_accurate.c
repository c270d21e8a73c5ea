/* pw_accurate: the accurate tier (pw_accurate.h has the method and its measured accuracy),
 * the plain one-lane build (same results as the vector builds). */
#include "vf_scalar.h"

#include "pw_accurate.h"

PW_ACCURATE_IMPL(pw_accurate);
