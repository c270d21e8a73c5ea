/* The floating-point state of a call (fp_state.h). */
#include "fp_state.h"

#include <stdio.h>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

enum { MXCSR_FLAGS = 0x3f };

fp_state fp_state_read(void)
{
    fp_state s = {0, 0};
#if defined(__x86_64__)
    s.mxcsr = _mm_getcsr();
    __asm__ volatile("fnstcw %0" : "=m"(s.x87));
#endif
    return s;
}

void fp_state_restore(fp_state s)
{
#if defined(__x86_64__)
    _mm_setcsr(s.mxcsr);
    __asm__ volatile("fldcw %0" : : "m"(s.x87));
#else
    (void)s;
#endif
}

bool fp_state_changed(fp_state was, fp_state now)
{
    return ((was.mxcsr ^ now.mxcsr) & ~(unsigned)MXCSR_FLAGS) || was.x87 != now.x87;
}

static const char *const rounding[4] = {"to nearest", "downward", "upward", "toward zero"};

void fp_state_difference(fp_state was, fp_state now, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
#define ADD(...) (k += (size_t)snprintf(buf + k, k < size ? size - k : 0, __VA_ARGS__))
    unsigned m = (was.mxcsr ^ now.mxcsr) & ~(unsigned)MXCSR_FLAGS;
    const char *sep = ": ";
    if (m) {
        ADD("MXCSR 0x%04x (the call began with 0x%04x", now.mxcsr, was.mxcsr & ~(unsigned)MXCSR_FLAGS);
        if (m & 0x6000) ADD("%sSSE rounding %s", sep, rounding[(now.mxcsr >> 13) & 3]), sep = ", ";
        if (m & 0x8000) ADD("%sflush-to-zero %s", sep, now.mxcsr & 0x8000 ? "set" : "cleared"), sep = ", ";
        if (m & 0x0040) ADD("%sdenormals-are-zero %s", sep, now.mxcsr & 0x0040 ? "set" : "cleared"), sep = ", ";
        if (m & 0x1f80) ADD("%sexception masks changed", sep);
        ADD(")");
    }
    if (was.x87 != now.x87) {
        ADD("%sthe x87 control word 0x%04x (it began 0x%04x", m ? " and " : "", now.x87, was.x87);
        if ((was.x87 ^ now.x87) & 0x0c00) ADD(": x87 rounding %s", rounding[(now.x87 >> 10) & 3]);
        ADD(")");
    }
#undef ADD
}
