/* The run manifest (see manifest.h): collected from this build and machine, written as JSON,
 * read back by a strict parser of the JSON subset it needs (objects, strings, integers; arrays,
 * true, false and null are accepted and skipped under keys it does not know). */
#include "manifest.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gmp.h>
#include <gsl/gsl_version.h>
#include <mpfr.h>

#include "atomic_file.h"
#include "bench.h"
#include "gelu_impl.h"
#include "gelucheck_config.h"
#include "gelucheck_version.h"
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif
#if GELUCHECK_HAVE_SLEEF
#include <sleef.h>
#endif
#if GELUCHECK_HAVE_DNNL
#include <oneapi/dnnl/dnnl_version.h>
#endif

/* The one list of fields: JSON path, where the value lives, its buffer size. */
#define FIELD(path, member) {path, offsetof(run_manifest, member), sizeof(((run_manifest *)0)->member)}
static const struct {
    const char *path;
    size_t offset, size;
} fields[] = {
    FIELD("gelucheck.version", version),  FIELD("gelucheck.commit", commit),
    FIELD("build.compiler", compiler),    FIELD("build.flags", flags),
    FIELD("cpu.model", cpu_model),        FIELD("cpu.features", cpu_features),
    FIELD("libraries.glibc", glibc),      FIELD("libraries.mpfr", mpfr),
    FIELD("libraries.gmp", gmp),          FIELD("libraries.gsl", gsl),
    FIELD("libraries.sleef", sleef),      FIELD("libraries.dnnl", dnnl),
    FIELD("run.command", command),        FIELD("run.created", created),
};
enum { NFIELDS = sizeof fields / sizeof fields[0] };

size_t manifest_field_count(void) { return NFIELDS; }
const char *manifest_field_name(size_t i) { return i < NFIELDS ? fields[i].path : NULL; }
const char *manifest_field_value(const run_manifest *m, size_t i)
{
    return i < NFIELDS ? (const char *)m + fields[i].offset : NULL;
}
static char *field_buf(run_manifest *m, size_t i) { return (char *)m + fields[i].offset; }

void manifest_collect(run_manifest *m, const char *command)
{
    memset(m, 0, sizeof *m);
    m->schema = MANIFEST_SCHEMA;
    snprintf(m->version, sizeof m->version, "%s", GELUCHECK_VERSION);
    snprintf(m->commit, sizeof m->commit, "%s", GELUCHECK_COMMIT);
    snprintf(m->compiler, sizeof m->compiler, "%s", GELUCHECK_COMPILER);
    snprintf(m->flags, sizeof m->flags, "%s; %s", GELUCHECK_CFLAGS, GELUCHECK_ISA_CFLAGS);
    bench_cpu_model(m->cpu_model, sizeof m->cpu_model);
    cpu_features_string(cpu_features(), m->cpu_features, sizeof m->cpu_features);
#if defined(__GLIBC__)
    snprintf(m->glibc, sizeof m->glibc, "%s", gnu_get_libc_version());
#else
    snprintf(m->glibc, sizeof m->glibc, "absent");
#endif
    snprintf(m->mpfr, sizeof m->mpfr, "%s", mpfr_get_version());
    snprintf(m->gmp, sizeof m->gmp, "%s", gmp_version);
    snprintf(m->gsl, sizeof m->gsl, "%s", gsl_version);
#if GELUCHECK_HAVE_SLEEF /* SLEEF has no run-time version call: the headers' */
    snprintf(m->sleef, sizeof m->sleef, "%d.%d.%d", SLEEF_VERSION_MAJOR, SLEEF_VERSION_MINOR,
             SLEEF_VERSION_PATCHLEVEL);
#else
    snprintf(m->sleef, sizeof m->sleef, "absent");
#endif
#if GELUCHECK_HAVE_DNNL /* the headers' version, that the oneDNN peer (peers/) was built with */
    snprintf(m->dnnl, sizeof m->dnnl, "%d.%d.%d", DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR,
             DNNL_VERSION_PATCH);
#else
    snprintf(m->dnnl, sizeof m->dnnl, "absent");
#endif
    snprintf(m->command, sizeof m->command, "%s", command ? command : "");
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(m->created, sizeof m->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- writing ---- */

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
                 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || len > n || (len == 2 && s[0] < 0xc2)) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    return len;
}

/* A JSON string: quotes, backslashes and control characters escaped; a byte that is not part
 * of valid UTF-8 becomes '?' (JSON text is Unicode). */
static void put_string(FILE *f, const char *s)
{
    size_t n = strlen(s);
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = utf8_len((const unsigned char *)s + i, n - i);
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else if (len == 0)
            fputc('?', f);
        else
            fwrite(s + i, 1, len, f);
        i += len ? len : 1;
    }
    fputc('"', f);
}

int manifest_write(FILE *f, const run_manifest *m)
{
    fprintf(f, "{\n  \"schema\": %d", m->schema);
    char group[32] = "";
    for (size_t i = 0; i < NFIELDS; i++) {
        const char *dot = strchr(fields[i].path, '.');
        size_t glen = (size_t)(dot - fields[i].path);
        if (strlen(group) != glen || strncmp(group, fields[i].path, glen) != 0) {
            fprintf(f, "%s,\n  \"%.*s\": {", group[0] ? "}" : "", (int)glen, fields[i].path);
            snprintf(group, sizeof group, "%.*s", (int)glen, fields[i].path);
        } else {
            fputc(',', f);
        }
        fprintf(f, "\n    \"%s\": ", dot + 1);
        put_string(f, manifest_field_value(m, i));
    }
    fprintf(f, "}\n}\n");
    return ferror(f) ? -1 : 0;
}

int manifest_write_file(const char *path, const run_manifest *m)
{
    atomic_file a;
    char err[512];
    if (atomic_file_open(&a, path, err, sizeof err) != 0) return -1;
    if (manifest_write(a.f, m) != 0) {
        int e = errno;
        atomic_file_abort(&a);
        errno = e;
        return -1;
    }
    return atomic_file_commit(&a, err, sizeof err);
}

/* ---- reading ---- */

enum { MAX_DEPTH = 8 };

typedef struct {
    const char *p, *start, *end;
    run_manifest *m;
    bool seen[NFIELDS], have_schema;
    long long schema;
    char *err;
    size_t errsize;
} parser;

static int fail(parser *ps, const char *what)
{
    snprintf(ps->err, ps->errsize, "%s at byte %zu", what, (size_t)(ps->p - ps->start));
    return -1;
}

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int hex4(parser *ps, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++, ps->p++) {
        if (ps->p >= ps->end) return fail(ps, "unterminated \\u escape");
        char c = *ps->p;
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d == 16) return fail(ps, "bad \\u escape");
        *v = *v * 16 + d;
    }
    return 0;
}

/* A string into out[size] (out may be NULL: skipped). Fails when it does not fit. */
static int parse_string(parser *ps, char *out, size_t size)
{
    if (ps->p >= ps->end || *ps->p != '"') return fail(ps, "expected a string");
    ps->p++;
    size_t n = 0;
    for (;;) {
        if (ps->p >= ps->end) return fail(ps, "unterminated string");
        unsigned char c = (unsigned char)*ps->p++;
        char buf[4];
        size_t len = 1;
        if (c == '"') break;
        if (c < 0x20) return fail(ps, "control character in a string");
        buf[0] = (char)c;
        if (c == '\\') {
            if (ps->p >= ps->end) return fail(ps, "unterminated string");
            char e = *ps->p++;
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *k = strchr(from, e);
            if (e == 'u') {
                unsigned u;
                if (hex4(ps, &u) != 0) return -1;
                if (u == 0 || (u >= 0xd800 && u <= 0xdfff))
                    return fail(ps, "\\u0000 or a surrogate in a string");
                if (u < 0x80) {
                    buf[0] = (char)u;
                } else if (u < 0x800) {
                    buf[0] = (char)(0xc0 | (u >> 6));
                    buf[1] = (char)(0x80 | (u & 0x3f));
                    len = 2;
                } else {
                    buf[0] = (char)(0xe0 | (u >> 12));
                    buf[1] = (char)(0x80 | ((u >> 6) & 0x3f));
                    buf[2] = (char)(0x80 | (u & 0x3f));
                    len = 3;
                }
            } else if (e != '\0' && k) {
                buf[0] = to[k - from];
            } else {
                return fail(ps, "bad escape in a string");
            }
        }
        if (out) {
            if (n + len >= size) return fail(ps, "string too long");
            memcpy(out + n, buf, len);
        }
        n += len;
    }
    if (out) out[n] = '\0';
    return 0;
}

/* A JSON number; *v its value when it is an integer that fits, *is_int false otherwise. */
static int parse_number(parser *ps, long long *v, bool *is_int)
{
    const char *s = ps->p;
    if (ps->p < ps->end && *ps->p == '-') ps->p++;
    const char *digits = ps->p;
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    if (ps->p == digits || (*digits == '0' && ps->p - digits > 1)) return fail(ps, "bad number");
    *is_int = true;
    if (ps->p < ps->end && *ps->p == '.') {
        *is_int = false;
        const char *frac = ++ps->p;
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
        if (ps->p == frac) return fail(ps, "bad number");
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        *is_int = false;
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) ps->p++;
        const char *exp = ps->p;
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
        if (ps->p == exp) return fail(ps, "bad number");
    }
    *v = 0;
    if (*is_int) {
        for (const char *d = digits; d < ps->p; d++) {
            if (*v > (LLONG_MAX - 9) / 10) {
                *is_int = false;
                break;
            }
            *v = *v * 10 + (*d - '0');
        }
        if (*s == '-') *v = -*v;
    }
    return 0;
}

static int parse_value(parser *ps, const char *path, int depth);

static int parse_object(parser *ps, const char *path, int depth)
{
    if (depth > MAX_DEPTH) return fail(ps, "objects nested too deep");
    ps->p++; /* '{' */
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        return 0;
    }
    for (;;) {
        char key[64], sub[160];
        skip_ws(ps);
        if (parse_string(ps, key, sizeof key) != 0) return -1;
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
        skip_ws(ps);
        if (ps->p >= ps->end || *ps->p != ':') return fail(ps, "expected ':'");
        ps->p++;
        skip_ws(ps);
        if (parse_value(ps, sub, depth + 1) != 0) return -1;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            return 0;
        }
        return fail(ps, "expected ',' or '}'");
    }
}

static int parse_array(parser *ps, const char *path, int depth)
{
    if (depth > MAX_DEPTH) return fail(ps, "arrays nested too deep");
    ps->p++; /* '[' */
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        return 0;
    }
    for (;;) {
        skip_ws(ps);
        if (parse_value(ps, path, depth + 1) != 0) return -1;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            return 0;
        }
        return fail(ps, "expected ',' or ']'");
    }
}

static int find_field(const char *path)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (strcmp(fields[i].path, path) == 0) return (int)i;
    return -1;
}

static int parse_value(parser *ps, const char *path, int depth)
{
    if (ps->p >= ps->end) return fail(ps, "expected a value");
    int k = depth == 1 && strcmp(path, "schema") == 0 ? -2 : find_field(path);
    char c = *ps->p;
    if (c == '{') {
        if (k != -1) return fail(ps, "an object where a known key needs a value");
        return parse_object(ps, path, depth);
    }
    if (c == '[') {
        if (k != -1) return fail(ps, "an array where a known key needs a value");
        return parse_array(ps, path, depth);
    }
    if (c == '"') {
        if (k == -2) return fail(ps, "\"schema\" is not an integer");
        if (k >= 0) {
            if (ps->seen[k]) return fail(ps, "duplicate key");
            ps->seen[k] = true;
            return parse_string(ps, field_buf(ps->m, (size_t)k), fields[k].size);
        }
        return parse_string(ps, NULL, 0);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        long long v;
        bool is_int;
        if (parse_number(ps, &v, &is_int) != 0) return -1;
        if (k >= 0) return fail(ps, "a number where a string is expected");
        if (k == -2) {
            if (!is_int) return fail(ps, "\"schema\" is not an integer");
            if (ps->have_schema) return fail(ps, "duplicate key");
            ps->have_schema = true;
            ps->schema = v;
        }
        return 0;
    }
    static const char *const literals[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t len = strlen(literals[i]);
        if ((size_t)(ps->end - ps->p) >= len && memcmp(ps->p, literals[i], len) == 0) {
            if (k != -1) return fail(ps, "a literal where a known key needs a value");
            ps->p += len;
            return 0;
        }
    }
    return fail(ps, "expected a value");
}

int manifest_parse(const char *text, size_t len, run_manifest *m, char *err, size_t errsize)
{
    memset(m, 0, sizeof *m);
    parser ps = {text, text, text + len, m, {false}, false, 0, err, errsize};
    skip_ws(&ps);
    if (ps.p >= ps.end || *ps.p != '{') {
        fail(&ps, "not a JSON object");
        return MANIFEST_EFORMAT;
    }
    if (parse_object(&ps, "", 0) != 0) return MANIFEST_EFORMAT;
    skip_ws(&ps);
    if (ps.p != ps.end) {
        fail(&ps, "text after the object");
        return MANIFEST_EFORMAT;
    }
    if (!ps.have_schema) {
        snprintf(err, errsize, "no \"schema\" key");
        return MANIFEST_EFORMAT;
    }
    if (ps.schema != MANIFEST_SCHEMA) {
        m->schema = ps.schema < INT_MIN ? INT_MIN : ps.schema > INT_MAX ? INT_MAX : (int)ps.schema;
        snprintf(err, errsize, "manifest schema %lld, this gelucheck reads schema %d", ps.schema,
                 MANIFEST_SCHEMA);
        return MANIFEST_ESCHEMA;
    }
    m->schema = MANIFEST_SCHEMA;
    for (size_t i = 0; i < NFIELDS; i++)
        if (!ps.seen[i]) {
            snprintf(err, errsize, "no \"%s\" key", fields[i].path);
            return MANIFEST_EFORMAT;
        }
    return MANIFEST_OK;
}

enum { MANIFEST_MAX_BYTES = 1 << 16 }; /* a manifest is ~1 KB; refuse anything far larger */

int manifest_read(const char *path, run_manifest *m, char *err, size_t errsize)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsize, "%s: cannot read: %s", path, strerror(errno));
        return MANIFEST_EIO;
    }
    char *buf = malloc(MANIFEST_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        snprintf(err, errsize, "%s: out of memory", path);
        return MANIFEST_EIO;
    }
    size_t n = fread(buf, 1, MANIFEST_MAX_BYTES + 1, f);
    int rerr = ferror(f) ? errno : 0;
    fclose(f);
    if (rerr) {
        snprintf(err, errsize, "%s: cannot read: %s", path, strerror(rerr));
        free(buf);
        return MANIFEST_EIO;
    }
    if (n > MANIFEST_MAX_BYTES) {
        snprintf(err, errsize, "%s: larger than %d bytes: not a manifest", path,
                 MANIFEST_MAX_BYTES);
        free(buf);
        return MANIFEST_EFORMAT;
    }
    char why[256];
    int rc = manifest_parse(buf, n, m, why, sizeof why);
    free(buf);
    if (rc != MANIFEST_OK) snprintf(err, errsize, "%s: %s", path, why);
    return rc;
}
