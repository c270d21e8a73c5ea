/* The hottest loops of the scan (and of the reference library's block fill, fast_ref_block) in
 * three builds, chosen once at load time (GCC's target_clones, an ifunc): for x86-64-v4
 * (AVX-512) and v3 (AVX2), where the compiler vectorizes them, and any x86-64. The same
 * operations in each (IEEE binary64, no contraction into FMA: ISO C mode and -ffp-contract=off,
 * scan/meson.build, reference/meson.build; maxima as integer maxima, metrics.h's max_key): the
 * same bits (tests/clones.sh runs the three). Not under clang (its builds take the portable
 * code). */
#ifndef GELUCHECK_HOT_CLONES_H
#define GELUCHECK_HOT_CLONES_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define HOT_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define HOT_CLONES
#endif

#endif
