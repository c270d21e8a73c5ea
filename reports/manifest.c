/* The run manifest (see manifest.h): collected from this build and machine, written as JSON,
 * read back by a strict parser of the JSON subset it needs (objects, strings, integers; arrays,
 * true, false and null are accepted and skipped under keys it does not know). */
#include "manifest.h"
#include "input_file.h"

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

#include <unistd.h>

#include "atomic_file.h"
#include "bench.h"
#include "gelu_cr16.h"
#include "gelu_f64.h"
#include "gelu_fpenv.h"
#include "gelu_impl.h"
#include "json.h"
#include "sha256.h"
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

/* The one list of fields: JSON path, where the value lives, its buffer size, and whether a file
 * may lack it (added after the first files: "" then). */
#define FIELD(path, member) {path, offsetof(run_manifest, member), sizeof(((run_manifest *)0)->member), false}
#define LATER(path, member) {path, offsetof(run_manifest, member), sizeof(((run_manifest *)0)->member), true}
static const struct {
    const char *path;
    size_t offset, size;
    bool optional;
} fields[] = {
    FIELD("gelucheck.version", version),  FIELD("gelucheck.commit", commit),
    FIELD("build.compiler", compiler),    FIELD("build.flags", flags),
    FIELD("cpu.model", cpu_model),        FIELD("cpu.features", cpu_features),
    FIELD("libraries.glibc", glibc),      FIELD("libraries.mpfr", mpfr),
    FIELD("libraries.gmp", gmp),          FIELD("libraries.gsl", gsl),
    FIELD("libraries.sleef", sleef),      FIELD("libraries.dnnl", dnnl),
    FIELD("run.command", command),        FIELD("run.created", created),
    LATER("run.directory", directory),    LATER("run.fpenv", fpenv),
    LATER("run.reproduce", reproduce),
};
enum { NFIELDS = sizeof fields / sizeof fields[0] };

/* The objects of strings, all optional; "run.environment" is written inside "run". */
static const struct {
    const char *path;
    size_t offset;
} maps[] = {
    {"run.environment", offsetof(run_manifest, environment)},
    {"plugins", offsetof(run_manifest, plugins)},
    {"exec", offsetof(run_manifest, exec)},
    {"sources", offsetof(run_manifest, sources)},
};
enum { NMAPS = sizeof maps / sizeof maps[0] };
static manifest_map *map_of(run_manifest *m, size_t i) { return (manifest_map *)((char *)m + maps[i].offset); }

/* The environment variables that change results: the ISA caps of oneDNN (DNNL_*, and
 * ONEDNN_* as PyTorch's bundled oneDNN reads them), ATen's and XLA's, OpenMP's threads, and
 * gelucheck's own (GELUCHECK_PLUGINS, GELUCHECK_NO_DEFAULT_PEERS, GELUCHECK_NO_FP16, ...).
 * A name ending in '_' is a prefix. */
static const char *const result_variables[] = {
    "DNNL_", "ONEDNN_", "ATEN_CPU_CAPABILITY", "XLA_FLAGS", "OMP_NUM_THREADS",
    "TF_ENABLE_ONEDNN_OPTS", "GELUCHECK_",
};

const char *manifest_map_get(const manifest_map *map, const char *key)
{
    for (size_t i = 0; i < map->n; i++)
        if (strcmp(map->pair[i].key, key) == 0) return map->pair[i].value;
    return NULL;
}

/* Adds key = value unless the key is there already or the map is full. */
static void map_put(manifest_map *map, const char *key, const char *value)
{
    if (manifest_map_get(map, key) || map->n == MANIFEST_MAP_MAX) return;
    snprintf(map->pair[map->n].key, sizeof map->pair[0].key, "%s", key);
    snprintf(map->pair[map->n].value, sizeof map->pair[0].value, "%s", value);
    map->n++;
}

/* Characters sh takes literally in a word. */
static bool shell_plain(const char *w)
{
    if (*w == '\0') return false;
    for (; *w; w++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%", *w))
            return false;
    return true;
}

/* Appends w, quoted for sh where it needs it, to buf[size] at *used. */
static void put_word(char *buf, size_t size, size_t *used, const char *w)
{
    if (*used >= size) return;
    if (shell_plain(w)) {
        *used += (size_t)snprintf(buf + *used, size - *used, "%s", w);
        return;
    }
    *used += (size_t)snprintf(buf + *used, size - *used, "'");
    for (; *w && *used < size; w++)
        *used += (size_t)snprintf(buf + *used, size - *used, *w == '\'' ? "'\\''" : "%c", *w);
    if (*used < size) *used += (size_t)snprintf(buf + *used, size - *used, "'");
}

const char *manifest_command(char *buf, size_t size, int argc, char *const *argv)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used < size; i++) {
        if (i) used += (size_t)snprintf(buf + used, size - used, " ");
        put_word(buf, size, &used, argv[i]);
    }
    return buf;
}

static void collect_environment(run_manifest *m)
{
    extern char **environ;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq) continue;
        for (size_t i = 0; i < sizeof result_variables / sizeof result_variables[0]; i++) {
            const char *v = result_variables[i];
            size_t n = strlen(v), len = (size_t)(eq - *e);
            if (v[n - 1] == '_' ? strncmp(*e, v, n) == 0 : (len == n && strncmp(*e, v, n) == 0)) {
                char key[MANIFEST_KEY];
                snprintf(key, sizeof key, "%.*s", (int)len, *e);
                map_put(&m->environment, key, eq + 1);
                break;
            }
        }
    }
}

/* The text between "<kind> '" and the last "'" of a source, into out; false when another kind. */
static bool source_arg(const char *source, const char *kind, char *out, size_t size)
{
    size_t n = strlen(kind);
    const char *end = strrchr(source, '\'');
    if (strncmp(source, kind, n) != 0 || strncmp(source + n, " '", 2) != 0 || !end ||
        end < source + n + 2)
        return false;
    snprintf(out, size, "%.*s", (int)(end - (source + n + 2)), source + n + 2);
    return true;
}

/* An implementation that came from a plugin, a default peer or an exec child: its source, its
 * plugin's path and SHA-256, its child's command. */
static void collect_source(run_manifest *m, const gelu_impl *impl)
{
    const char *src = impl ? gelu_impl_source(impl) : NULL;
    char arg[MANIFEST_VALUE];
    if (!src) return;
    if (source_arg(src, "plugin", arg, sizeof arg) || source_arg(src, "default peer", arg, sizeof arg)) {
        char hex[65];
        if (!manifest_map_get(&m->plugins, arg))
            map_put(&m->plugins, arg, sha256_file(arg, hex) == 0 ? hex : "unreadable");
    } else if (source_arg(src, "exec child", arg, sizeof arg)) {
        map_put(&m->exec, impl->name, arg);
    } else {
        return;
    }
    map_put(&m->sources, impl->name, src);
}

static void collect_sources(run_manifest *m)
{
    for (int f = 0; f < GELU_FORMAT_COUNT; f++)
        for (size_t i = 0; i < gelu_impl_count_in((gelu_format_id)f); i++)
            collect_source(m, gelu_impl_at_in((gelu_format_id)f, i));
}

/* cd DIR && VAR=value ... COMMAND */
static void collect_reproduce(run_manifest *m)
{
    size_t used = 0, size = sizeof m->reproduce;
    char *buf = m->reproduce;
    if (m->directory[0]) {
        used += (size_t)snprintf(buf, size, "cd ");
        put_word(buf, size, &used, m->directory);
        if (used < size) used += (size_t)snprintf(buf + used, size - used, " && ");
    }
    for (size_t i = 0; i < m->environment.n && used < size; i++) {
        char assign[MANIFEST_KEY + MANIFEST_VALUE + 2];
        snprintf(assign, sizeof assign, "%s=%s", m->environment.pair[i].key,
                 m->environment.pair[i].value);
        put_word(buf, size, &used, assign);
        if (used < size) used += (size_t)snprintf(buf + used, size - used, " ");
    }
    if (used < size) snprintf(buf + used, size - used, "%s", m->command);
}

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
    if (!getcwd(m->directory, sizeof m->directory)) m->directory[0] = '\0';
    snprintf(m->fpenv, sizeof m->fpenv, "%s", gelu_fpenv_name(gelu_fpenv_current()));
    collect_environment(m);
    collect_sources(m);
    collect_reproduce(m);
}

/* ---- writing ---- */

static void put_map(FILE *f, const manifest_map *map, const char *indent)
{
    fputc('{', f);
    for (size_t i = 0; i < map->n; i++) {
        fprintf(f, "%s\n%s  ", i ? "," : "", indent);
        json_put_string(f, map->pair[i].key);
        fputs(": ", f);
        json_put_string(f, map->pair[i].value);
    }
    fputs(map->n ? "}" : "}", f);
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
        json_put_string(f, manifest_field_value(m, i));
    }
    fputs(",\n    \"environment\": ", f); /* the last group is "run" */
    put_map(f, &m->environment, "    ");
    fputs("}", f);
    for (size_t k = 1; k < NMAPS; k++) {
        fprintf(f, ",\n  \"%s\": ", maps[k].path);
        put_map(f, map_of((run_manifest *)m, k), "  ");
    }
    fprintf(f, "\n}\n");
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
    int mk = -1; /* an object of strings (maps) */
    for (size_t i = 0; i < NMAPS; i++)
        if (strcmp(maps[i].path, path) == 0) mk = (int)i;
    for (;;) {
        char key[MANIFEST_KEY], sub[MANIFEST_KEY + 64];
        skip_ws(ps);
        if (parse_string(ps, key, sizeof key) != 0) return -1;
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
        skip_ws(ps);
        if (ps->p >= ps->end || *ps->p != ':') return fail(ps, "expected ':'");
        ps->p++;
        skip_ws(ps);
        manifest_map *map = mk >= 0 ? map_of(ps->m, (size_t)mk) : NULL;
        if (map && ps->p < ps->end && *ps->p == '"') {
            if (manifest_map_get(map, key)) return fail(ps, "duplicate key");
            if (map->n == MANIFEST_MAP_MAX) return fail(ps, "too many members in an object");
            snprintf(map->pair[map->n].key, sizeof map->pair[0].key, "%s", key);
            if (parse_string(ps, map->pair[map->n].value, sizeof map->pair[0].value) != 0) return -1;
            map->n++;
        } else if (parse_value(ps, sub, depth + 1) != 0)
            return -1;
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
        if (!ps.seen[i] && !fields[i].optional) {
            snprintf(err, errsize, "no \"%s\" key", fields[i].path);
            return MANIFEST_EFORMAT;
        }
    return MANIFEST_OK;
}

enum { MANIFEST_MAX_BYTES = 1 << 16 }; /* a manifest is ~1 KB; refuse anything far larger */

int manifest_read(const char *path, run_manifest *m, char *err, size_t errsize)
{
    FILE *f = input_open(path);
    if (!f) {
        snprintf(err, errsize, "%s: cannot read: %s", path, input_strerror(errno));
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

int manifest_reload_hint(const run_manifest *m, const char *impl, char *pass, size_t passsize,
                         char *what, size_t whatsize)
{
    const char *src = manifest_map_get(&m->sources, impl);
    char arg[MANIFEST_VALUE], word[2 * MANIFEST_VALUE + 16];
    size_t used = 0;
    if (!src) return -1;
    if (source_arg(src, "plugin", arg, sizeof arg) || source_arg(src, "default peer", arg, sizeof arg)) {
        const char *hash = manifest_map_get(&m->plugins, arg);
        put_word(word, sizeof word, &used, arg);
        snprintf(pass, passsize, "--plugin %s", word);
        snprintf(what, whatsize, "%s, SHA-256 %s", src, hash ? hash : "not recorded");
        return 0;
    }
    if (source_arg(src, "exec child", arg, sizeof arg)) {
        char spec[MANIFEST_VALUE + MANIFEST_KEY];
        snprintf(spec, sizeof spec, "%s=%s", impl, arg);
        put_word(word, sizeof word, &used, spec);
        snprintf(pass, passsize, "--exec %s", word);
        snprintf(what, whatsize, "%s", src);
        return 0;
    }
    return -1;
}
