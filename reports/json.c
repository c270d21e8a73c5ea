/* JSON writer helpers and reader (see json.h). */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void json_put_string(FILE *f, const char *s)
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

void json_put_number(FILE *f, double v)
{
    if (isnan(v)) fputs("null", f);
    else if (isinf(v)) fputs(v > 0 ? "\"inf\"" : "\"-inf\"", f);
    else {
        char buf[32]; /* the shortest of 15 to 17 digits that reads back as v */
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(buf, sizeof buf, "%.*g", digits, v);
            if (strtod(buf, NULL) == v) break;
        }
        fputs(buf, f);
    }
}

/* ---- reading */

enum { MAX_DEPTH = 32 };

typedef struct {
    const char *p, *start, *end;
    char *err;
    size_t errsize;
} reader;

static json_node *fail(reader *r, const char *what)
{
    if (r->err[0] == '\0')
        snprintf(r->err, r->errsize, "%s at byte %zu", what, (size_t)(r->p - r->start));
    return NULL;
}

static void skip_ws(reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static bool hex4(reader *r, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++, r->p++) {
        if (r->p >= r->end) return false;
        char c = *r->p;
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d == 16) return false;
        *v = *v * 16 + d;
    }
    return true;
}

/* Appends code point u as UTF-8 to out at *n (room checked by the caller: 4 bytes). */
static void put_utf8(char *out, size_t *n, unsigned u)
{
    if (u < 0x80) {
        out[(*n)++] = (char)u;
    } else if (u < 0x800) {
        out[(*n)++] = (char)(0xc0 | (u >> 6));
        out[(*n)++] = (char)(0x80 | (u & 0x3f));
    } else if (u < 0x10000) {
        out[(*n)++] = (char)(0xe0 | (u >> 12));
        out[(*n)++] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[(*n)++] = (char)(0x80 | (u & 0x3f));
    } else {
        out[(*n)++] = (char)(0xf0 | (u >> 18));
        out[(*n)++] = (char)(0x80 | ((u >> 12) & 0x3f));
        out[(*n)++] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[(*n)++] = (char)(0x80 | (u & 0x3f));
    }
}

/* A string at r->p ('"'), unescaped into a new buffer; NULL on an error. Its decoded length is
 * at most its encoded length (an escape is never shorter than what it stands for). */
static char *read_string(reader *r)
{
    const char *open = r->p++;
    const char *close = open + 1;
    while (close < r->end && *close != '"') close += *close == '\\' ? 2 : 1;
    if (close >= r->end) return (char *)fail(r, "unterminated string");
    char *out = malloc((size_t)(close - open) + 1);
    size_t n = 0;
    if (!out) return (char *)fail(r, "out of memory");
    while (r->p < close) {
        unsigned char c = (unsigned char)*r->p++;
        if (c < 0x20) {
            free(out);
            return (char *)fail(r, "control character in a string");
        }
        if (c != '\\') {
            out[n++] = (char)c;
            continue;
        }
        char e = *r->p++;
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *k = e ? strchr(from, e) : NULL;
        unsigned u, lo;
        if (k) {
            out[n++] = to[k - from];
        } else if (e == 'u' && hex4(r, &u) && u != 0 && !(u >= 0xdc00 && u <= 0xdfff)) {
            if (u >= 0xd800 && u <= 0xdbff) { /* a surrogate pair */
                if (r->p + 6 > close || r->p[0] != '\\' || r->p[1] != 'u' ||
                    (r->p += 2, !hex4(r, &lo)) || lo < 0xdc00 || lo > 0xdfff) {
                    free(out);
                    return (char *)fail(r, "bad surrogate pair in a string");
                }
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            }
            put_utf8(out, &n, u);
        } else {
            free(out);
            return (char *)fail(r, "bad escape in a string");
        }
    }
    r->p = close + 1;
    out[n] = '\0';
    return out;
}

static json_node *new_node(reader *r, json_kind kind)
{
    json_node *n = calloc(1, sizeof *n);
    if (!n) return fail(r, "out of memory");
    n->kind = kind;
    return n;
}

static json_node *read_value(reader *r, int depth);

/* An array or object at r->p; its elements as children (an object's with their keys). */
static json_node *read_container(reader *r, int depth, bool object)
{
    if (depth > MAX_DEPTH) return fail(r, "nested too deep");
    json_node *n = new_node(r, object ? JSON_OBJECT : JSON_ARRAY), **tail;
    if (!n) return NULL;
    tail = &n->child;
    r->p++;
    skip_ws(r);
    if (r->p < r->end && *r->p == (object ? '}' : ']')) {
        r->p++;
        return n;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(r);
        if (object) {
            if (r->p >= r->end || *r->p != '"' || !(key = read_string(r)))
                return json_free(n), fail(r, "expected a key");
            skip_ws(r);
            if (r->p >= r->end || *r->p != ':') return free(key), json_free(n), fail(r, "expected ':'");
            r->p++;
        }
        json_node *v = read_value(r, depth + 1);
        if (!v) return free(key), json_free(n), NULL;
        v->key = key;
        *tail = v;
        tail = &v->next;
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == (object ? '}' : ']')) {
            r->p++;
            return n;
        }
        json_free(n);
        return fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static json_node *read_number(reader *r)
{
    const char *s = r->p;
    if (r->p < r->end && *r->p == '-') r->p++;
    const char *digits = r->p;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    if (r->p == digits || (*digits == '0' && r->p - digits > 1)) return fail(r, "bad number");
    if (r->p < r->end && *r->p == '.') {
        const char *frac = ++r->p;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
        if (r->p == frac) return fail(r, "bad number");
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-')) r->p++;
        const char *exp = r->p;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
        if (r->p == exp) return fail(r, "bad number");
    }
    char buf[64];
    if (r->p - s >= (long)sizeof buf) return fail(r, "number too long");
    memcpy(buf, s, (size_t)(r->p - s));
    buf[r->p - s] = '\0';
    json_node *n = new_node(r, JSON_NUMBER);
    if (n) n->number = strtod(buf, NULL);
    return n;
}

static json_node *read_value(reader *r, int depth)
{
    skip_ws(r);
    if (r->p >= r->end) return fail(r, "expected a value");
    char c = *r->p;
    if (c == '{' || c == '[') return read_container(r, depth, c == '{');
    if (c == '"') {
        char *s = read_string(r);
        json_node *n = s ? new_node(r, JSON_STRING) : NULL;
        if (n) n->text = s;
        else free(s);
        return n;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return read_number(r);
    static const struct {
        const char *word;
        json_kind kind;
        bool value;
    } literals[] = {{"true", JSON_BOOL, true}, {"false", JSON_BOOL, false}, {"null", JSON_NULL, false}};
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        size_t len = strlen(literals[i].word);
        if ((size_t)(r->end - r->p) >= len && memcmp(r->p, literals[i].word, len) == 0) {
            r->p += len;
            json_node *n = new_node(r, literals[i].kind);
            if (n) n->boolean = literals[i].value;
            return n;
        }
    }
    return fail(r, "expected a value");
}

json_node *json_parse(const char *text, size_t len, char *err, size_t errsize)
{
    reader r = {text, text, text + len, err, errsize};
    if (errsize) err[0] = '\0';
    json_node *n = read_value(&r, 0);
    skip_ws(&r);
    if (n && r.p != r.end) {
        json_free(n);
        return fail(&r, "text after the value");
    }
    return n;
}

void json_free(json_node *n)
{
    while (n) {
        json_node *next = n->next;
        json_free(n->child);
        free(n->key);
        free(n->text);
        free(n);
        n = next;
    }
}

const json_node *json_get(const json_node *n, const char *key)
{
    if (!n || n->kind != JSON_OBJECT) return NULL;
    for (const json_node *c = n->child; c; c = c->next)
        if (strcmp(c->key, key) == 0) return c;
    return NULL;
}

const char *json_get_string(const json_node *n, const char *key)
{
    const json_node *v = json_get(n, key);
    return v && v->kind == JSON_STRING ? v->text : NULL;
}

bool json_get_number(const json_node *n, const char *key, double *v)
{
    const json_node *m = json_get(n, key);
    if (!m) return false;
    if (m->kind == JSON_NUMBER) *v = m->number;
    else if (m->kind == JSON_NULL) *v = NAN;
    else if (m->kind == JSON_STRING && strcmp(m->text, "inf") == 0) *v = INFINITY;
    else if (m->kind == JSON_STRING && strcmp(m->text, "-inf") == 0) *v = -INFINITY;
    else return false;
    return true;
}
