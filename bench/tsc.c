/* The time-stamp counter's frequency (tsc.h). */
#include "tsc.h"

#include <math.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define TSC_X86 1
#endif

const char *tsc_source_name(tsc_source s)
{
    switch (s) {
    case TSC_CPUID_15H: return "CPUID leaf 0x15";
    case TSC_CALIBRATED: return "calibrated against CLOCK_MONOTONIC";
    case TSC_NONE: return "none";
    }
    return "none";
}

uint64_t tsc_now(void)
{
#ifdef TSC_X86
    return __rdtsc();
#else
    return 0;
#endif
}

double tsc_hz_cpuid(void)
{
#ifdef TSC_X86
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 0x15) return 0;
    __cpuid_count(0x15, 0, eax, ebx, ecx, edx);
    (void)edx;
    /* EAX/EBX: TSC = crystal × EBX/EAX; ECX: the crystal's Hz, 0 where not reported */
    if (eax == 0 || ebx == 0 || ecx == 0) return 0;
    return (double)ecx * ebx / eax;
#else
    return 0;
#endif
}

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double tsc_hz_measure(double seconds)
{
#ifdef TSC_X86
    double t0 = monotonic_seconds();
    uint64_t c0 = tsc_now();
    double t1;
    do t1 = monotonic_seconds();
    while (t1 - t0 < seconds);
    uint64_t c1 = tsc_now();
    return (double)(c1 - c0) / (t1 - t0);
#else
    (void)seconds;
    return 0;
#endif
}

bool tsc_check_hz(double hz, double seconds, double tolerance)
{
    double measured = tsc_hz_measure(seconds);
    return hz > 0 && measured > 0 && fabs(hz / measured - 1.0) <= tolerance;
}

tsc_frequency tsc_frequency_get(void)
{
    double hz = tsc_hz_cpuid();
    if (hz > 0 && tsc_check_hz(hz, 0.02, 0.01)) return (tsc_frequency){hz, TSC_CPUID_15H};
    hz = tsc_hz_measure(0.05);
    if (hz > 0) return (tsc_frequency){hz, TSC_CALIBRATED};
    return (tsc_frequency){0, TSC_NONE};
}

double tsc_cycles_per_element(double ns_per_element, double hz)
{
    return hz > 0 ? ns_per_element * hz * 1e-9 : NAN;
}
