/* Floating-point environments kernels run in: IEEE 754's defaults, or x86's MXCSR with
 * flush-to-zero (FTZ, bit 15: a result that would be subnormal is returned as a zero of its
 * sign) and/or denormals-are-zero (DAZ, bit 6: a subnormal operand is read as a zero of its sign),
 * as frameworks set them (TensorFlow sets both in its threads on x86). What a reference means
 * under them is docs/DESIGN.md's "Floating-point environments" (reference.h, ref_*_fpenv).
 *
 * Only the calling thread's MXCSR is set (each scan worker sets its own around its kernel calls,
 * never around the reference's code); x87 code (long double) has no FTZ/DAZ and is unaffected. */
#ifndef GELUCHECK_GELU_FPENV_H
#define GELUCHECK_GELU_FPENV_H

#include <stdbool.h>
#include <stdint.h>

#include "float_bits.h"

/* A bit set: GELU_FPENV_FTZ | GELU_FPENV_DAZ. 0 is IEEE (the default of a zeroed config). */
typedef enum {
    GELU_FPENV_IEEE = 0,
    GELU_FPENV_FTZ = 1,
    GELU_FPENV_DAZ = 2,
    GELU_FPENV_FTZ_DAZ = GELU_FPENV_FTZ | GELU_FPENV_DAZ,
    GELU_FPENV_COUNT
} gelu_fpenv;

/* "ieee", "ftz", "daz", "ftz+daz": the CSV's, the partial files' and the messages' spelling (no
 * comma: it is a CSV field). */
const char *gelu_fpenv_name(gelu_fpenv e);
/* The environment named by s (the names above, "daz+ftz", and "ftz,daz" or "daz,ftz" as the CLI
 * takes them); false for anything else. */
bool gelu_fpenv_parse(const char *s, gelu_fpenv *e);
/* Whether this machine can set e (IEEE always; FTZ and DAZ: x86-64's SSE MXCSR). */
bool gelu_fpenv_supported(gelu_fpenv e);

/* Sets the calling thread's MXCSR FTZ and DAZ bits to e's (the other bits kept) and returns the
 * register's previous value for gelu_fpenv_leave. Out of line (impls/fpenv.c), so that no
 * floating-point operation of the caller is moved across it. */
unsigned gelu_fpenv_enter(gelu_fpenv e);
void gelu_fpenv_leave(unsigned saved);
/* The calling thread's environment as MXCSR holds it now (tests: restored after a scan). */
gelu_fpenv gelu_fpenv_current(void);

/* DAZ's rule on binary32 values (docs/DESIGN.md, "Floating-point environments"): the kernel
 * reads a subnormal input x as the zero of x's sign, so the expected value is f's at that zero.
 * FTZ's rule needs the exact value: reference.h's ref_ftz_zero. */
static inline bool gelu_fpenv_subnormal(float v)
{
    uint32_t a = float_bits(v) & 0x7fffffffu;
    return a != 0 && a < 0x00800000u;
}
static inline float gelu_fpenv_input(gelu_fpenv e, float x)
{
    return (e & GELU_FPENV_DAZ) && gelu_fpenv_subnormal(x) ? float_from_bits(float_bits(x) & 0x80000000u) : x;
}

#endif
