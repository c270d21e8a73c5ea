/* Partial result files: writer and strict reader (see partial.h); the result invariants are
 * result_check.c's. */
#include "partial.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gelucheck_config.h"
#include "gelucheck_version.h"

static const char format_line[] = "gelucheck-partial";
/* The weighted sums in the data (metrics.h, weights.h): their distributions and unit. */
#define DIST_KEY "normal(0,1) uniform[-10,10) weight=2^-70 ulp=2^-27"

static size_t row_bytes(void);
static size_t metrics_bytes(void);

/* What the data's bytes depend on: the architecture's byte order and the structures' sizes. */
static void data_layout(char *buf, size_t size)
{
#if defined(__x86_64__)
    const char *arch = "x86_64";
#elif defined(__aarch64__)
    const char *arch = "aarch64";
#else
    const char *arch = "other";
#endif
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    snprintf(buf, size, "%s-%s refs=%zu row=%zu metrics=%zu extras=%zu", arch, first ? "le" : "be",
             2 * sizeof(((scan_result *)0)->refs), row_bytes(), metrics_bytes(), sizeof(impl_extras));
}

/* The near-tie lists' key: their capacity, MPFR budget, and "outputs" since the entries carry the
 * output the scan judged (near.h; files before that kept a zero there and are refused); then
 * the x buckets' lists' capacity and budget ("buckets=2 256"; files before them are refused). */
static void near_key(char *buf, size_t size)
{
    snprintf(buf, size, "%d %d outputs buckets=%d %d", NEAR_MAX, NEAR_BUDGET, NEAR_BUCKET_MAX,
             NEAR_BUCKET_BUDGET);
}

/* The data: refs, fallbacks; per implementation its metrics as bytes but the x buckets' lists
 * (each row written up to x_near, then the monotonicity and sign counters; an implementation
 * whose target is exact GELU has its own rows as its rows against exact GELU, scan.h, and
 * those are not written twice); per implementation its extras; then every x bucket's list
 * (per row written, kind and bucket), as only what it holds (most lists are untouched or hold
 * one entry): a tag byte, 0 for a list never touched, else XTAG_USED | n | the flags below,
 * then the floor (double) unless it is the first entry's lower bound, the dropped bound
 * (double) unless −inf, the resolved count (uint32) unless 0, and the n entries: lower, upper
 * (doubles), position, input, output (uint32 each: a position is below 2^32). A list takes 29
 * bytes where it holds one entry, 1 where untouched. */
enum { ROWS = REF_KINDS * DIR_COUNT, XLISTS_PER_ROW = X_KINDS * X_BUCKETS };
enum { XTAG_COUNT = 0x3, XTAG_FLOOR = 0x4, XTAG_DROPPED = 0x8, XTAG_RESOLVED = 0x10, XTAG_USED = 0x80 };
#define ROW_BYTES offsetof(error_metrics, x_near)
#define TAIL_BYTES (sizeof(impl_metrics) - offsetof(impl_metrics, mono))
#define XENTRY_BYTES (2 * sizeof(double) + 3 * sizeof(uint32_t))
#define XMAX_BYTES (1 + 2 * sizeof(double) + sizeof(uint32_t) + NEAR_BUCKET_MAX * XENTRY_BYTES)
_Static_assert((int)NEAR_BUCKET_MAX <= (int)XTAG_COUNT, "a bucket list's count fits its tag");

/* data.layout's sizes: a row's bytes, and an implementation's after its rows */
static size_t row_bytes(void) { return ROW_BYTES; }
static size_t metrics_bytes(void) { return TAIL_BYTES; }

/* Whether the file holds the rows against reference ref of impl (not a copy of its own). */
static bool row_written(const gelu_impl *impl, int ref)
{
    return ref == REF_OWN || impl->target != GELU_TARGET_EXACT;
}

static size_t rows_written(const scan_result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nimpls; i++)
        for (int ref = 0; ref < REF_KINDS; ref++) n += row_written(r->impls[i], ref) ? DIR_COUNT : 0;
    return n;
}

/* The bytes of the data before the x buckets' lists (r's implementations known). */
static size_t fixed_bytes(const scan_result *r)
{
    return 2 * sizeof(r->refs) + rows_written(r) * ROW_BYTES + r->nimpls * (TAIL_BYTES + sizeof(impl_extras));
}

/* Whether two doubles have the same bits (a floor equal to an entry's bound is left out). */
static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* A list's tag byte (0: untouched). */
static unsigned xlist_tag(const near_bucket *l)
{
    if (l->floor == -INFINITY && l->dropped == -INFINITY && l->n == 0 && l->resolved == 0) return 0;
    bool floor_is_first = l->n > 0 && same_bits(l->floor, l->e[0].lower);
    return XTAG_USED | (l->n & XTAG_COUNT) | (floor_is_first ? 0 : XTAG_FLOOR) |
           (l->dropped == -INFINITY ? 0 : XTAG_DROPPED) | (l->resolved == 0 ? 0 : XTAG_RESOLVED);
}

/* The bytes of a list of tag t after its tag. */
static size_t xlist_bytes(unsigned t)
{
    return (t & XTAG_FLOOR ? sizeof(double) : 0) + (t & XTAG_DROPPED ? sizeof(double) : 0) +
           (t & XTAG_RESOLVED ? sizeof(uint32_t) : 0) + (t & XTAG_COUNT) * XENTRY_BYTES;
}

/* The x buckets' lists of r's rows written, in the file's order: calls f on each. */
static int each_xlist(const scan_result *r, int (*f)(near_bucket *l, void *arg), void *arg)
{
    for (size_t i = 0; i < r->nimpls; i++)
        for (int ref = 0; ref < REF_KINDS; ref++)
            for (int d = 0; d < DIR_COUNT && row_written(r->impls[i], ref); d++)
                for (int k = 0; k < X_KINDS; k++)
                    for (int b = 0; b < X_BUCKETS; b++)
                        if (f(&r->metrics[i].err[ref][d].x_near[k][b], arg) != 0) return -1;
    return 0;
}

static int add_xlist_bytes(near_bucket *l, void *arg)
{
    *(size_t *)arg += 1 + xlist_bytes(xlist_tag(l));
    return 0;
}

static size_t data_bytes(const scan_result *r)
{
    size_t n = fixed_bytes(r);
    each_xlist(r, add_xlist_bytes, &n);
    return n;
}

static void contract_text(const gelu_contract *c, char *buf, size_t size)
{
    snprintf(buf, size, "max_ulp=%a max_abs=%a monotone=%d specials=%d grad_max_ulp=%a grad_max_abs=%a",
             c->max_ulp, c->max_abs, c->monotone ? 1 : 0, c->specials ? 1 : 0, c->grad_max_ulp,
             c->grad_max_abs);
}

void partial_domain_text(const scan_domain *d, char *buf, size_t size)
{
    switch (d->kind) {
    case DOMAIN_ALL: snprintf(buf, size, "all"); break;
    case DOMAIN_RANGE:
        snprintf(buf, size, "range 0x%08x 0x%08x", float_bits(d->lo), float_bits(d->hi));
        break;
    case DOMAIN_SAMPLE:
        snprintf(buf, size, "sample %llu %llu", (unsigned long long)d->n, (unsigned long long)d->seed);
        break;
    case DOMAIN_LIST: /* never written (scan.h): named for messages only, and refused on reading */
        snprintf(buf, size, "list %llu", (unsigned long long)d->n);
        break;
    }
}

/* ---- writing */

typedef struct {
    FILE *f;
    uLong crc;
    bool ok;
} crc_writer;

static void put_bytes(crc_writer *w, const void *p, size_t n)
{
    if (n == 0) return;
    w->ok = w->ok && fwrite(p, 1, n, w->f) == n;
    w->crc = crc32(w->crc, p, (uInt)n); /* n < 4 GiB: a partial is a few MiB */
}

static void put_line(crc_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put_line(crc_writer *w, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1) {
        w->ok = false;
        errno = EOVERFLOW;
        return;
    }
    line[n] = '\n';
    put_bytes(w, line, (size_t)n + 1);
}

/* A bucket's list as only what it holds (the data's layout, above). */
static int put_xlist(near_bucket *l, void *arg)
{
    crc_writer *w = arg;
    unsigned char tag = (unsigned char)xlist_tag(l);
    put_bytes(w, &tag, 1);
    if (tag & XTAG_FLOOR) put_bytes(w, &l->floor, sizeof l->floor);
    if (tag & XTAG_DROPPED) put_bytes(w, &l->dropped, sizeof l->dropped);
    if (tag & XTAG_RESOLVED) put_bytes(w, &l->resolved, sizeof l->resolved);
    for (size_t k = 0; k < l->n; k++) {
        const near_entry *e = &l->e[k];
        uint32_t seq = (uint32_t)e->seq; /* positions are below 2^32 */
        put_bytes(w, &e->lower, sizeof e->lower);
        put_bytes(w, &e->upper, sizeof e->upper);
        put_bytes(w, &seq, sizeof seq);
        put_bytes(w, &e->bits, sizeof e->bits);
        put_bytes(w, &e->out, sizeof e->out);
    }
    return 0;
}

int partial_write(const scan_result *r, FILE *f)
{
    crc_writer w = {f, crc32(0, Z_NULL, 0), true};
    char text[512];
    put_line(&w, "%s %d", format_line, PARTIAL_FORMAT);
    put_line(&w, "gelucheck.version=%s", GELUCHECK_VERSION);
    put_line(&w, "gelucheck.commit=%s", GELUCHECK_COMMIT);
    partial_domain_text(&r->domain, text, sizeof text);
    put_line(&w, "domain=%s", text);
    put_line(&w, "grad=%d", r->grad ? 1 : 0);
    put_line(&w, "shard=%u/%u", r->shard_k + 1, r->shard_n);
    if (r->fpenv != GELU_FPENV_IEEE) put_line(&w, "fpenv=%s", gelu_fpenv_name(r->fpenv));
    put_line(&w, "inputs=%llu", (unsigned long long)r->inputs);
    put_line(&w, "extras=%d", r->has_extras ? 1 : 0);
    put_line(&w, "impls=%zu", r->nimpls);
    for (size_t i = 0; i < r->nimpls; i++) {
        put_line(&w, "impl.%zu.name=%s", i + 1, r->impls[i]->name);
        put_line(&w, "impl.%zu.target=%s", i + 1, gelu_target_name(r->impls[i]->target));
        contract_text(&r->impls[i]->contract, text, sizeof text);
        put_line(&w, "impl.%zu.contract=%s", i + 1, text);
    }
    char near[32];
    near_key(near, sizeof near);
    put_line(&w, "near=%s", near);
    put_line(&w, "dist=%s", DIST_KEY);
    data_layout(text, sizeof text);
    put_line(&w, "data.layout=%s", text);
    put_line(&w, "data.bytes=%zu", data_bytes(r));
    put_line(&w, "end");
    put_bytes(&w, r->refs, sizeof r->refs);
    put_bytes(&w, r->fallbacks, sizeof r->fallbacks);
    for (size_t i = 0; i < r->nimpls; i++) {
        const impl_metrics *m = &r->metrics[i];
        for (int ref = 0; ref < REF_KINDS; ref++)
            for (int d = 0; d < DIR_COUNT && row_written(r->impls[i], ref); d++)
                put_bytes(&w, &m->err[ref][d], ROW_BYTES);
        put_bytes(&w, &m->mono, TAIL_BYTES);
    }
    put_bytes(&w, r->extras, r->nimpls * sizeof r->extras[0]);
    each_xlist(r, put_xlist, &w);
    uLong crc = w.crc;
    put_line(&w, "crc32=%08lx", crc);
    return w.ok && !ferror(f) ? 0 : -1;
}

/* ---- reading: the header as a table of key=value lines */

/* A partial lists each implementation of this build at most once (three keys each). */
enum { MAX_LINE = 1024 };
static size_t max_impls(void) { return gelu_impl_count(); }
static size_t max_keys(void) { return 16 + 3 * max_impls(); }
static size_t max_header(void) { return max_keys() * MAX_LINE; }

typedef struct {
    char key[64];
    const char *value; /* into the header copy, NUL-terminated */
    bool used;
} header_entry;

typedef struct {
    char *text; /* the header's lines, NULs in place of '\n' and '=' */
    header_entry *e; /* max_keys() of them */
    size_t n;
    char *err;
    size_t errsize;
} header;

int partial_fail(char *err, size_t errsize, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsize, fmt, ap);
    va_end(ap);
    return -1;
}

static bool key_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_'; }

/* Splits lines[0..len) (the lines between the format line and "end", each ending in '\n'). */
static int header_split(header *h, char *lines, size_t len)
{
    h->text = lines;
    h->n = 0;
    size_t lineno = 2;
    for (char *p = lines, *end = lines + len; p < end; lineno++) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        *nl = '\0';
        char *eq = strchr(p, '=');
        if (!eq || eq == p || (size_t)(eq - p) >= sizeof h->e[0].key)
            return partial_fail(h->err, h->errsize, "header line %zu is not KEY=VALUE", lineno);
        for (char *c = p; c < eq; c++)
            if (!key_char(*c))
                return partial_fail(h->err, h->errsize, "header line %zu: bad character in the key", lineno);
        for (char *c = eq + 1; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
                return partial_fail(h->err, h->errsize, "header line %zu: non-printable byte in the value", lineno);
        *eq = '\0';
        for (size_t i = 0; i < h->n; i++)
            if (strcmp(h->e[i].key, p) == 0)
                return partial_fail(h->err, h->errsize, "key '%s' appears twice", p);
        if (h->n == max_keys()) return partial_fail(h->err, h->errsize, "more than %zu header lines", max_keys());
        snprintf(h->e[h->n].key, sizeof h->e[0].key, "%s", p);
        h->e[h->n].value = eq + 1;
        h->e[h->n].used = false;
        h->n++;
        p = nl + 1;
    }
    return 0;
}

static const char *header_get(header *h, const char *key)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->e[i].key, key) == 0) {
            h->e[i].used = true;
            return h->e[i].value;
        }
    partial_fail(h->err, h->errsize, "key '%s' is missing", key);
    return NULL;
}

/* The optional key fpenv= (absent: IEEE, as in files that do not write it). */
static int get_fpenv(header *h, gelu_fpenv *out)
{
    *out = GELU_FPENV_IEEE;
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->e[i].key, "fpenv") == 0) {
            h->e[i].used = true;
            if (!gelu_fpenv_parse(h->e[i].value, out))
                return partial_fail(h->err, h->errsize, "key 'fpenv': '%s' is not ieee, ftz, daz or ftz,daz",
                            h->e[i].value);
        }
    return 0;
}

/* A decimal integer in [min, max]: digits only, no leading zero (but "0"). */
static bool decimal(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **rest)
{
    uint64_t v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9')) return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (rest) *rest = p;
    else if (*p) return false;
    if (v < min || v > max) return false;
    *out = v;
    return true;
}

static int get_u64(header *h, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
    const char *v = header_get(h, key);
    if (!v) return -1;
    if (!decimal(v, min, max, out, NULL))
        return partial_fail(h->err, h->errsize, "key '%s': '%s' is not an integer from %llu to %llu", key, v,
                    (unsigned long long)min, (unsigned long long)max);
    return 0;
}

static bool hex32(const char *s, uint32_t *out)
{
    if (strncmp(s, "0x", 2) != 0 || strlen(s) != 10) return false;
    uint32_t v = 0;
    for (s += 2; *s; s++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
        if (d < 0) return false;
        v = v * 16 + (uint32_t)d;
    }
    *out = v;
    return true;
}

static int get_domain(header *h, scan_domain *d)
{
    const char *v = header_get(h, "domain");
    if (!v) return -1;
    memset(d, 0, sizeof *d);
    char a[16], b[32];
    uint32_t lo, hi;
    if (strcmp(v, "all") == 0) {
        d->kind = DOMAIN_ALL;
        return 0;
    }
    if (sscanf(v, "range %11s %11s", a, b) == 2 && strlen(v) == 6 + strlen(a) + 1 + strlen(b) &&
        hex32(a, &lo) && hex32(b, &hi)) {
        d->kind = DOMAIN_RANGE;
        d->lo = float_from_bits(lo);
        d->hi = float_from_bits(hi);
        /* the order of encodings, -0 below +0, as scan_run walks them */
        int64_t olo = (lo & 0x80000000u) ? -(int64_t)(lo & 0x7fffffffu) - 1 : (int64_t)lo;
        int64_t ohi = (hi & 0x80000000u) ? -(int64_t)(hi & 0x7fffffffu) - 1 : (int64_t)hi;
        if (isnan(d->lo) || isnan(d->hi) || olo > ohi)
            return partial_fail(h->err, h->errsize, "key 'domain': '%s' is not a range LO <= HI without NaN", v);
        return 0;
    }
    const char *rest;
    if (strncmp(v, "sample ", 7) == 0 && decimal(v + 7, 1, UINT64_C(1) << 32, &d->n, &rest) &&
        rest[0] == ' ' && decimal(rest + 1, 0, UINT64_MAX, &d->seed, NULL)) {
        d->kind = DOMAIN_SAMPLE;
        return 0;
    }
    return partial_fail(h->err, h->errsize,
                "key 'domain': '%s' is not 'all', 'range 0xLO 0xHI' or 'sample N SEED'", v);
}

static int get_shard(header *h, scan_result *r)
{
    const char *v = header_get(h, "shard");
    if (!v) return -1;
    uint64_t k, n;
    const char *rest;
    if (!decimal(v, 1, 1u << 20, &k, &rest) || *rest != '/' || !decimal(rest + 1, 1, 1u << 20, &n, NULL) ||
        k > n)
        return partial_fail(h->err, h->errsize, "key 'shard': '%s' is not K/N with 1 <= K <= N <= 2^20", v);
    r->shard_k = (unsigned)k - 1;
    r->shard_n = (unsigned)n;
    return 0;
}

static int get_impls(header *h, scan_result *r)
{
    uint64_t n;
    if (get_u64(h, "impls", 1, max_impls(), &n) != 0) return -1;
    if (scan_result_alloc(r, (size_t)n) != 0) return partial_fail(h->err, h->errsize, "out of memory");
    for (size_t i = 0; i < r->nimpls; i++) {
        char key[64], want[512];
        snprintf(key, sizeof key, "impl.%zu.name", i + 1);
        const char *name = header_get(h, key);
        if (!name) return -1;
        const gelu_impl *m = gelu_impl_find(name);
        if (!m) return partial_fail(h->err, h->errsize, "key '%s': '%s' is not an implementation of this build", key, name);
        for (size_t j = 0; j < i; j++)
            if (r->impls[j] == m) return partial_fail(h->err, h->errsize, "key '%s': '%s' is listed twice", key, name);
        r->impls[i] = m;
        snprintf(key, sizeof key, "impl.%zu.target", i + 1);
        const char *target = header_get(h, key);
        if (!target) return -1;
        if (strcmp(target, gelu_target_name(m->target)) != 0)
            return partial_fail(h->err, h->errsize, "key '%s': '%s', but %s's target in this build is '%s'",
                        key, target, name, gelu_target_name(m->target));
        snprintf(key, sizeof key, "impl.%zu.contract", i + 1);
        const char *contract = header_get(h, key);
        if (!contract) return -1;
        contract_text(&m->contract, want, sizeof want);
        if (strcmp(contract, want) != 0)
            return partial_fail(h->err, h->errsize, "key '%s': '%s', but %s's contract in this build is '%s'",
                        key, contract, name, want);
    }
    return 0;
}

static int get_exact(header *h, const char *key, const char *want, const char *why)
{
    const char *v = header_get(h, key);
    if (!v) return -1;
    if (strcmp(v, want) != 0)
        return partial_fail(h->err, h->errsize, "key '%s': '%s', but this gelucheck has '%s' (%s)", key, v, want, why);
    return 0;
}

static int parse_header(header *h, scan_result *r, uint64_t *data_bytes_out)
{
    char layout[128];
    uint64_t v;
    data_layout(layout, sizeof layout);
    if (get_domain(h, &r->domain) || get_u64(h, "grad", 0, 1, &v))
        return -1;
    r->grad = v;
    if (get_shard(h, r) || get_fpenv(h, &r->fpenv) ||
        get_u64(h, "inputs", 1, UINT64_C(1) << 32, &r->inputs) ||
        get_u64(h, "extras", 0, 1, &v))
        return -1;
    r->has_extras = v;
    if (r->has_extras != (r->shard_k == 0))
        return partial_fail(h->err, h->errsize, "key 'extras': %d, but shard %u/%u %s", (int)v,
                    r->shard_k + 1, r->shard_n, r->shard_k == 0 ? "has them" : "does not have them");
    char near[32];
    near_key(near, sizeof near);
    if (get_impls(h, r) ||
        get_exact(h, "near", near, "the near-tie lists' capacity, MPFR budget and entries") ||
        get_exact(h, "dist", DIST_KEY, "the weighted sums' distributions and fixed point") ||
        get_exact(h, "data.layout", layout, "written by a build with another data layout") ||
        get_u64(h, "data.bytes", fixed_bytes(r) + rows_written(r) * XLISTS_PER_ROW,
                fixed_bytes(r) + rows_written(r) * XLISTS_PER_ROW * XMAX_BYTES, data_bytes_out) ||
        /* last, so that a file from another build is first checked field by field */
        get_exact(h, "gelucheck.version", GELUCHECK_VERSION, "merge with the gelucheck that wrote it") ||
        get_exact(h, "gelucheck.commit", GELUCHECK_COMMIT, "merge with the gelucheck that wrote it"))
        return -1;
    for (size_t i = 0; i < h->n; i++)
        if (!h->e[i].used) return partial_fail(h->err, h->errsize, "unknown key '%s'", h->e[i].key);
    return 0;
}

/* The reading of the x buckets' lists: the bytes left, where the first error goes. */
typedef struct {
    const unsigned char *p, *end;
    char *err;
    size_t errsize;
} xlist_reader;

/* One bucket's list (the data's layout, above): its tag and count within their ranges, its bytes
 * within the data. Its invariants are scan_result_check's. */
static int get_xlist(near_bucket *l, void *arg)
{
    xlist_reader *x = arg;
    near_bucket_init(l);
    if (x->p == x->end) return partial_fail(x->err, x->errsize, "the x buckets' near-tie lists end early (key 'data.bytes')");
    unsigned tag = *x->p++;
    if (tag == 0) return 0;
    unsigned n = tag & XTAG_COUNT;
    if (!(tag & XTAG_USED) || (tag & ~(XTAG_USED | XTAG_COUNT | XTAG_FLOOR | XTAG_DROPPED | XTAG_RESOLVED)) ||
        n > NEAR_BUCKET_MAX || (n == 0 && !(tag & XTAG_FLOOR)))
        return partial_fail(x->err, x->errsize, "an x bucket's near-tie list with the tag 0x%02x", tag);
    if ((size_t)(x->end - x->p) < xlist_bytes(tag))
        return partial_fail(x->err, x->errsize, "the x buckets' near-tie lists end early (key 'data.bytes')");
    const unsigned char *p = x->p, *floor_at = tag & XTAG_FLOOR ? p : NULL;
    p += floor_at ? sizeof(double) : 0;
    if (tag & XTAG_DROPPED) memcpy(&l->dropped, p, sizeof l->dropped);
    p += tag & XTAG_DROPPED ? sizeof(double) : 0;
    if (tag & XTAG_RESOLVED) memcpy(&l->resolved, p, sizeof l->resolved);
    p += tag & XTAG_RESOLVED ? sizeof(uint32_t) : 0;
    for (unsigned k = 0; k < n; k++, p += XENTRY_BYTES) {
        near_entry *e = &l->e[k];
        uint32_t seq;
        memcpy(&e->lower, p, sizeof e->lower);
        memcpy(&e->upper, p + 8, sizeof e->upper);
        memcpy(&seq, p + 16, sizeof seq);
        memcpy(&e->bits, p + 20, sizeof e->bits);
        memcpy(&e->out, p + 24, sizeof e->out);
        e->seq = seq;
    }
    l->n = n;
    if (floor_at) memcpy(&l->floor, floor_at, sizeof l->floor);
    else l->floor = l->e[0].lower;
    x->p = p;
    return 0;
}

/* The x buckets' lists from [p, end), the data's last part: exactly that many bytes. The rows
 * not written (row_written) are then copied. */
static int parse_xlists(scan_result *r, const unsigned char *p, const unsigned char *end, char *err,
                        size_t errsize)
{
    xlist_reader x = {p, end, err, errsize};
    if (each_xlist(r, get_xlist, &x) != 0) return -1;
    if (x.p != end) return partial_fail(err, errsize, "bytes after the x buckets' near-tie lists (key 'data.bytes')");
    for (size_t i = 0; i < r->nimpls; i++)
        for (int d = 0; d < DIR_COUNT && !row_written(r->impls[i], REF_EXACT); d++)
            r->metrics[i].err[REF_EXACT][d] = r->metrics[i].err[REF_OWN][d];
    return 0;
}

int partial_parse(scan_result *r, const unsigned char *buf, size_t len, char *err, size_t errsize)
{
    scan_result_release(r);
    memset(r, 0, sizeof *r);
    /* the format line */
    char want[32];
    int wn = snprintf(want, sizeof want, "%s %d\n", format_line, PARTIAL_FORMAT);
    size_t flen = sizeof format_line - 1;
    if (len < flen + 1 || memcmp(buf, format_line, flen) != 0 || buf[flen] != ' ')
        return partial_fail(err, errsize, "not a gelucheck partial result (no 'gelucheck-partial' line)");
    if (len < (size_t)wn || memcmp(buf, want, (size_t)wn) != 0) {
        const unsigned char *nl = memchr(buf, '\n', len < 64 ? len : 64);
        return partial_fail(err, errsize, "partial format '%.*s', this gelucheck reads format %d",
                    nl ? (int)(nl - buf - flen - 1) : 8, (const char *)buf + flen + 1, PARTIAL_FORMAT);
    }
    /* the header, up to its "end" line */
    size_t hstart = (size_t)wn, hend = hstart;
    for (;;) {
        if (hend - hstart > max_header()) return partial_fail(err, errsize, "header longer than %zu bytes", max_header());
        const unsigned char *nl = memchr(buf + hend, '\n', len - hend);
        if (!nl) return partial_fail(err, errsize, "truncated header (no 'end' line)");
        size_t next = (size_t)(nl - buf) + 1;
        if (next - hend == 4 && memcmp(buf + hend, "end\n", 4) == 0) break;
        if (next - hend > MAX_LINE) return partial_fail(err, errsize, "header line longer than %d bytes", MAX_LINE);
        hend = next;
    }
    char *lines = malloc(hend - hstart + 1);
    if (!lines) return partial_fail(err, errsize, "out of memory");
    memcpy(lines, buf + hstart, hend - hstart);
    lines[hend - hstart] = '\0';
    header h = {.err = err, .errsize = errsize, .e = calloc(max_keys(), sizeof *h.e)};
    int rc = h.e ? header_split(&h, lines, hend - hstart) : partial_fail(err, errsize, "out of memory");
    uint64_t nbytes = 0;
    if (rc == 0) rc = parse_header(&h, r, &nbytes);
    free(h.e);
    free(lines);
    if (rc != 0) return -1;
    /* the data and the checksum line after it */
    size_t data = hend + 4;
    static const char crc_key[] = "crc32=";
    size_t crc_line = sizeof crc_key - 1 + 8 + 1;
    if (len - data != nbytes + crc_line)
        return partial_fail(err, errsize, "data of %zu bytes where key 'data.bytes' says %llu (truncated, or bytes after it)",
                    len - data < crc_line ? 0 : len - data - crc_line, (unsigned long long)nbytes);
    const unsigned char *tail = buf + data + nbytes;
    uint32_t recorded = 0;
    char hex[11] = "0x";
    memcpy(hex + 2, tail + sizeof crc_key - 1, 8);
    hex[10] = '\0';
    if (memcmp(tail, crc_key, sizeof crc_key - 1) != 0 || tail[crc_line - 1] != '\n' || !hex32(hex, &recorded))
        return partial_fail(err, errsize, "no 'crc32=' line after the data");
    uLong crc = crc32(crc32(0, Z_NULL, 0), buf, (uInt)(data + nbytes));
    if (crc != recorded)
        return partial_fail(err, errsize, "checksum mismatch: crc32 recorded %08x, computed %08lx (the file is damaged)",
                    recorded, crc);
    const unsigned char *p = buf + data, *end = p + nbytes;
    memcpy(r->refs, p, sizeof r->refs);
    p += sizeof r->refs;
    memcpy(r->fallbacks, p, sizeof r->fallbacks);
    p += sizeof r->fallbacks;
    for (size_t i = 0; i < r->nimpls; i++) {
        impl_metrics *m = &r->metrics[i];
        for (int ref = 0; ref < REF_KINDS; ref++)
            for (int d = 0; d < DIR_COUNT && row_written(r->impls[i], ref); d++, p += ROW_BYTES)
                memcpy(&m->err[ref][d], p, ROW_BYTES);
        memcpy(&m->mono, p, TAIL_BYTES);
        p += TAIL_BYTES;
    }
    memcpy(r->extras, p, r->nimpls * sizeof r->extras[0]);
    p += r->nimpls * sizeof r->extras[0];
    return parse_xlists(r, p, end, err, errsize);
}

int partial_read(scan_result *r, FILE *f, char *err, size_t errsize)
{
    /* every implementation of this build, each with all its rows */
    size_t cap = max_header() + 64 + 2 * sizeof r->refs +
                 max_impls() * (ROWS * (ROW_BYTES + XLISTS_PER_ROW * XMAX_BYTES) + TAIL_BYTES +
                                sizeof(impl_extras)) + 32;
    unsigned char *buf = malloc(cap + 1);
    if (!buf) return partial_fail(err, errsize, "out of memory");
    size_t len = fread(buf, 1, cap + 1, f);
    int rc;
    if (ferror(f)) rc = partial_fail(err, errsize, "cannot read: %s", strerror(errno));
    else if (len > cap) rc = partial_fail(err, errsize, "larger than any partial result (%zu bytes)", cap);
    else rc = partial_parse(r, buf, len, err, errsize);
    free(buf);
    if (rc == 0) rc = scan_result_check(r, false, err, errsize);
    return rc;
}
