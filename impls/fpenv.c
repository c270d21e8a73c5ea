/* Floating-point environments: MXCSR's FTZ and DAZ bits (see gelu_fpenv.h). */
#include "gelu_fpenv.h"

#include <string.h>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

/* MXCSR's bits (Intel SDM vol. 1, 10.2.3): FTZ bit 15, DAZ bit 6. */
enum { MXCSR_FTZ = 1u << 15, MXCSR_DAZ = 1u << 6 };

/* "ftz+daz", not "ftz,daz": the name goes into CSV fields (the CLI takes both spellings) */
static const char *const names[GELU_FPENV_COUNT] = {"ieee", "ftz", "daz", "ftz+daz"};

const char *gelu_fpenv_name(gelu_fpenv e) { return e < GELU_FPENV_COUNT ? names[e] : "?"; }

bool gelu_fpenv_parse(const char *s, gelu_fpenv *e)
{
    for (int k = 0; k < GELU_FPENV_COUNT; k++)
        if (strcmp(s, names[k]) == 0) {
            *e = (gelu_fpenv)k;
            return true;
        }
    if (strcmp(s, "ftz,daz") == 0 || strcmp(s, "daz,ftz") == 0 || strcmp(s, "daz+ftz") == 0) {
        *e = GELU_FPENV_FTZ_DAZ;
        return true;
    }
    return false;
}

bool gelu_fpenv_supported(gelu_fpenv e)
{
#if defined(__x86_64__)
    /* every x86-64 CPU has SSE2 and MXCSR's FTZ; DAZ came with the Pentium 4's later steppings
     * and is on every x86-64 CPU this suite's contracts name */
    return e < GELU_FPENV_COUNT;
#else
    return e == GELU_FPENV_IEEE;
#endif
}

unsigned gelu_fpenv_enter(gelu_fpenv e)
{
#if defined(__x86_64__)
    unsigned saved = _mm_getcsr();
    unsigned set = (e & GELU_FPENV_FTZ ? MXCSR_FTZ : 0u) | (e & GELU_FPENV_DAZ ? MXCSR_DAZ : 0u);
    _mm_setcsr((saved & ~(MXCSR_FTZ | MXCSR_DAZ)) | set);
    return saved;
#else
    (void)e;
    return 0;
#endif
}

void gelu_fpenv_leave(unsigned saved)
{
#if defined(__x86_64__)
    _mm_setcsr(saved);
#else
    (void)saved;
#endif
}

gelu_fpenv gelu_fpenv_current(void)
{
#if defined(__x86_64__)
    unsigned m = _mm_getcsr();
    return (gelu_fpenv)((m & MXCSR_FTZ ? GELU_FPENV_FTZ : 0) | (m & MXCSR_DAZ ? GELU_FPENV_DAZ : 0));
#else
    return GELU_FPENV_IEEE;
#endif
}
