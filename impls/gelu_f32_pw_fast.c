/* pw_fast: the fast tier (pw_fast.h has the method and its measured accuracy), the plain one-lane build (same results as the vector builds). */
#include "vf_scalar.h"

#include "pw_fast.h"

PW_FAST_IMPL(pw_fast);
