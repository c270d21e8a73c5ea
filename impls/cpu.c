/* CPU feature detection for runtime dispatch (x86-64 through the compiler's cpuid builtins;
 * other architectures report no x86 features). */
#include "gelu_impl.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <stdio.h>
#include <string.h>

static const char *const feature_names[CPU_FEATURE_COUNT] = {
    "avx2", "fma", "avx512f", "avx512dq", "avx512bw", "avx512vl", "f16c", "avx512_bf16",
    "avx512_fp16",
};

unsigned cpu_features(void)
{
    unsigned f = 0;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) f |= CPU_FEATURE_AVX2;
    if (__builtin_cpu_supports("fma")) f |= CPU_FEATURE_FMA;
    if (__builtin_cpu_supports("avx512f")) f |= CPU_FEATURE_AVX512F;
    if (__builtin_cpu_supports("avx512dq")) f |= CPU_FEATURE_AVX512DQ;
    if (__builtin_cpu_supports("avx512bw")) f |= CPU_FEATURE_AVX512BW;
    if (__builtin_cpu_supports("avx512vl")) f |= CPU_FEATURE_AVX512VL;
    /* F16C asked of cpuid itself (leaf 1, ECX bit 29: Intel SDM vol. 2A, CPUID), as clang 14's
     * __builtin_cpu_supports has no "f16c" (the fuzzers' clang build failed on it); its VEX
     * instructions need the AVX state, which "avx" checks (XGETBV) */
    unsigned a1, b1, c1, d1;
    if (__builtin_cpu_supports("avx") && __get_cpuid(1, &a1, &b1, &c1, &d1) && (c1 >> 29 & 1u))
        f |= CPU_FEATURE_F16C;
    /* AVX-512 BF16 asked of cpuid itself (leaf 7, subleaf 1, EAX bit 5: Intel SDM vol. 2A,
     * CPUID, "Structured Extended Feature Enumeration Sub-leaf"), not by a name of
     * __builtin_cpu_supports, whose names depend on the compiler's version; its instructions run
     * on the ZMM state, which the OS has enabled when avx512f is reported (the compiler's check
     * of avx512f reads XGETBV). */
    unsigned a, b, c, d;
    if ((f & CPU_FEATURE_AVX512F) && __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a >> 5 & 1u))
        f |= CPU_FEATURE_AVX512BF16;
    /* AVX-512 FP16 the same way (leaf 7, subleaf 0, EDX bit 23: Intel SDM vol. 2A, CPUID,
     * "Structured Extended Feature Flags Enumeration Leaf"; GCC 12's cpuid.h names it
     * bit_AVX512FP16), on the ZMM state that avx512f's check has found enabled. */
    if ((f & CPU_FEATURE_AVX512F) && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d >> 23 & 1u))
        f |= CPU_FEATURE_AVX512FP16;
#endif
    return f;
}

const char *cpu_features_string(unsigned features, char *buf, size_t size)
{
    size_t used = 0;
    if (size == 0) return buf;
    buf[0] = '\0';
    for (int i = 0; i < CPU_FEATURE_COUNT; i++) {
        if (!(features & (1u << i))) continue;
        int w = snprintf(buf + used, size - used, "%s%s", used ? "," : "", feature_names[i]);
        if (w < 0 || (size_t)w >= size - used) break;
        used += (size_t)w;
    }
    if (used == 0) snprintf(buf, size, "none");
    return buf;
}
