/* The number formats kernels read and write: one descriptor per format, {name, storage size,
 * precision, exponent range, encoding <-> value}, and what follows from them (special
 * encodings, the number of encodings). binary32, bfloat16, binary16 and binary64 are registered
 * (docs/DESIGN.md, "Formats"; binary64 is scanned by sampling, scan/scan_f64.h):
 *
 *   format    storage   bits  precision  emin    emax   smallest subnormal
 *   bfloat16  uint16_t  16    8          −126    127    2^-133
 *   binary16  uint16_t  16    11         −14     15     2^-24
 *   binary32  float     32    24         −126    127    2^-149
 *   binary64  double    64    53         −1022   1023   2^-1074
 *   e4m3      uint16_t  8     4          −6      8      2^-9     (OCP FP8; no infinity, max 448)
 *   e5m2      uint16_t  8     3          −14     15     2^-16    (OCP FP8, IEEE-style)
 *
 * (IEEE 754-2019 table 3.5 for binary16/32/64; bfloat16 is binary32's upper 16 bits; the 8-bit
 * formats are those of the OCP 8-bit Floating Point Specification (OFP8), revision 1.0.) All
 * but e4m3 are IEEE-style interchange formats: sign, bits − precision exponent bits, precision − 1
 * fraction bits, gradual underflow, the all-ones exponent for infinities and NaNs. e4m3 keeps
 * that exponent for normals: its only NaNs are S.1111.111, it has no infinity, its largest
 * finite is 1.110b·2^8 = 448. Every value of each is exactly a double, so a double carries any
 * of them between the reference and the scan.
 *
 * Nothing here knows about the reference: the rounding to a format is reference.h's. */
#ifndef GELUCHECK_GELU_FORMAT_H
#define GELUCHECK_GELU_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The registered formats, one line each: the enum's suffix, then the descriptor's row in
 * impls/formats.c. New formats are appended: the ids are part of the descriptor that plugins
 * will be built against (binary32 stays 0, the default of a row that does not set `format`). */
#define GELU_FORMATS(X) X(BINARY32) X(BFLOAT16) X(BINARY16) X(BINARY64) X(E4M3) X(E5M2)

typedef enum {
#define GELU_FORMAT_ENUM(id) GELU_FORMAT_##id,
    GELU_FORMATS(GELU_FORMAT_ENUM)
#undef GELU_FORMAT_ENUM
    GELU_FORMAT_COUNT
} gelu_format_id;

/* A faster way to convert a whole array of a small format to and from binary32 around a kernel
 * (instructions chosen at run time), the same bits as the row's portable arrays: taken for a
 * kernel whose build has `build_features` (and is a vector build when vector_builds_only), on a
 * CPU with `cpu_features`, unless the environment variable `refuse_env` (NULL: none) is set to
 * anything but "" or "0"; widen and narrow are NULL when this build has no such code. */
typedef struct {
    const char *name; /* "f16c (vcvtph2ps, vcvtps2ph)" */
    unsigned build_features, cpu_features; /* CPU_FEATURE_* bits (gelu_impl.h) */
    bool vector_builds_only;
    const char *refuse_env;
    void (*widen)(const uint16_t *x, float *y, size_t n);
    void (*narrow)(const float *y, uint16_t *x, size_t n);
} gelu_format_fast_path;

typedef struct gelu_format gelu_format;
struct gelu_format {
    gelu_format_id id;
    const char *name;      /* "binary32": the CSV's and the report's `format` column */
    unsigned storage_bits; /* 16 (uint16_t, the encoding), 32 (float) or 64 (double) */
    int precision;         /* significand bits, the implicit one included */
    int emin, emax;        /* the smallest normal is 2^emin, the largest finite < 2^(emax+1) */
    /* No infinity (OFP8 E4M3): the all-ones exponent field holds normals, and with the all-ones
     * fraction the NaN of each sign; the exponent bias is then emax − 1. */
    bool no_infinity;
    /* The value of an encoding (the low storage_bits bits), exactly, as a double; a NaN for a
     * NaN encoding (its payload not kept: a signalling NaN may come back quiet, so kernels'
     * inputs are made from encodings, never through this). */
    double (*to_double)(uint64_t bits);
    /* The encoding of v, a value of the format (a rounded result): exact for those; a NaN gives
     * the format's quiet NaN of v's sign. */
    uint64_t (*from_double)(double v);
    /* The small formats' (storage_bits <= 16; NULL for binary32 and binary64) conversions around a
     * binary32 kernel, as frameworks make them: widen, an encoding to binary32, exactly (a NaN
     * keeps its sign, quiet bit and payload, shifted up, so a signalling NaN stays signalling);
     * narrow, a binary32 value to the format, rounded once to nearest even (gradual underflow,
     * overflow as from_double, signed zeros kept; a NaN gives the quiet NaN of its sign); the
     * same over arrays (the portable loops, conversions inline where the row has its own). */
    float (*widen)(const gelu_format *f, uint16_t bits);
    uint16_t (*narrow)(const gelu_format *f, float y);
    void (*widen_array)(const gelu_format *f, const uint16_t *x, float *y, size_t n);
    void (*narrow_array)(const gelu_format *f, const float *y, uint16_t *x, size_t n);
    /* The special inputs, as gelu_format_special_encodings lists them; NULL: derived from the
     * fields (IEEE-style). */
    void (*special_encodings)(const gelu_format *f, uint64_t *out);
    /* Faster array conversions, tried in order (the first that may be taken wins), and the
     * number of them. */
    const gelu_format_fast_path *fast_paths;
    size_t nfast_paths;
    /* Where the widened adapter's conversions run in this process, for list, bench and the
     * report: "avx512_bf16 (vcvtneps2bf16) around the AVX-512 builds, ..." (impls/widened.c). */
    const char *(*conversions_path)(void);
    /* A section of its own in `report`: every encoding scanned (a sampled format: a sample). */
    bool in_report;
};

/* The descriptor of format f (f < gelu_format_count()): a built-in row, or one added by
 * gelu_format_add. */
const gelu_format *gelu_format_of(gelu_format_id f);
/* The number of formats: GELU_FORMAT_COUNT built-in ones, then those added at run time. */
int gelu_format_count(void);
/* Adds a format row made at run time (a test's throwaway format), after the built-in ones, its
 * id set to the next one; `row` must outlive the run. Before any scan starts. Its id, or −1 with
 * err (a name taken, too many, or a row this code cannot run: only small IEEE-style formats whose
 * values are binary32 values, with widen/narrow set, are taken). */
int gelu_format_add(const gelu_format *row, char *err, size_t errsize);
/* The portable conversions of any IEEE-style format of storage_bits <= 16 whose values are all
 * binary32 values, from the row's fields alone: for rows with no conversions of their own. */
float gelu_format_widen_fields(const gelu_format *f, uint16_t bits);
uint16_t gelu_format_narrow_fields(const gelu_format *f, float y);
void gelu_format_widen_array_fields(const gelu_format *f, const uint16_t *x, float *y, size_t n);
void gelu_format_narrow_array_fields(const gelu_format *f, const float *y, uint16_t *x, size_t n);
/* The value of an encoding of an IEEE-style small format, and the rounding of a double to it
 * (gelu_format_round), as to_double / from_double of such a row. */
double gelu_format_to_double_fields(const gelu_format *f, uint64_t bits);
/* The formats' names, in table order, as "binary32, bfloat16, ... or e5m2" (sep ", ", last
 * " or "; sep "|" and last "|" for a usage line), into buf. With small_only, binary32 and the
 * small formats only (what eval and list take). */
const char *gelu_format_names(const char *sep, const char *last, bool small_only, char *buf,
                              size_t size);
/* NULL when no format has that name. */
const gelu_format *gelu_format_find(const char *name);

/* A small format (storage_bits <= 16): kernels read and write arrays of uint16_t encodings (the
 * low storage_bits bits), every encoding is scanned, binary32 kernels run widened. */
static inline bool gelu_format_small(const gelu_format *f) { return f->storage_bits <= 16; }

/* The number of encodings, 2^storage_bits; 0 when that does not fit (binary64: sampled only). */
uint64_t gelu_format_encodings(const gelu_format *f);

/* The special inputs every implementation is held to, as encodings in this order: +0, −0, +inf,
 * −inf, +qNaN, −qNaN, +sNaN, −sNaN, ±largest finite, ±smallest normal, ±smallest subnormal. */
enum { GELU_FORMAT_SPECIAL_COUNT = 14 };
void gelu_format_special_encodings(const gelu_format *f, uint64_t out[GELU_FORMAT_SPECIAL_COUNT]);

/* The conversions a framework makes around a binary32 kernel, for the small formats
 * (storage_bits <= 16):
 *   gelu_format_round: any double v to the format's encoding, rounded once, to nearest with ties
 *     to even (the current rounding mode must be the default one), gradual underflow, overflow
 *     to ±inf, signed zeros kept; a NaN gives the format's quiet NaN of v's sign. From a binary32
 *     y (exact in a double) it is the round-to-nearest-even narrowing of y, as frameworks'
 *     float → bfloat16/half conversions do.
 *   gelu_format_widen: an encoding to binary32, exactly (every bfloat16 and binary16 value is a
 *     binary32 value); a NaN keeps its sign, its quiet bit and its payload (shifted up), so a
 *     signalling NaN stays signalling. */
uint16_t gelu_format_round(const gelu_format *f, double v);
static inline float gelu_format_widen(const gelu_format *f, uint16_t bits)
{
    return f->widen(f, bits);
}
/* gelu_format_round of a binary32 y: the row's narrowing, the same encodings. */
static inline uint16_t gelu_format_narrow(const gelu_format *f, float y)
{
    return f->narrow(f, y);
}

#endif
