/* A plugin's description as text (plugin_fields.h). */
#include "plugin_fields.h"

#include <stdint.h>
#include <string.h>

#define F(key, kind, member)                                                                       \
    {key, PLUGIN_FIELD_##kind, offsetof(gelucheck_impl_v1, member),                               \
     sizeof(((gelucheck_impl_v1 *)0)->member)}

/* Every member of gelucheck_impl_v1 after size, in the struct's order. */
const plugin_field plugin_fields[] = {
    F("name", TEXT, name),
    F("target", TEXT, target),
    F("format", TEXT, format),
    F("cpu_features", TEXT, cpu_features),
    F("forward", KERNEL, forward),
    F("derivative", KERNEL, derivative),
    F("max_ulp", DOUBLE, contract.max_ulp),
    F("max_abs", DOUBLE, contract.max_abs),
    F("grad_max_ulp", DOUBLE, contract.grad_max_ulp),
    F("grad_max_abs", DOUBLE, contract.grad_max_abs),
    F("monotone", INT, contract.monotone),
    F("specials", INT, contract.specials),
    F("correctly_rounded", INT, contract.correctly_rounded),
    F("origin", TEXT, origin),
    F("own_threads", INT, own_threads),
    F("method", TEXT, method),
    F("isa", TEXT, isa),
    F("dispatched_isa", CALL, dispatched_isa),
    F("forward_binary64", KERNEL, forward_binary64),
    F("derivative_binary64", KERNEL, derivative_binary64),
    F("forward_u16", KERNEL, forward_u16),
    F("derivative_u16", KERNEL, derivative_u16),
    F("family", TEXT, family),
    F("known_as", TEXT, known_as),
};
const size_t plugin_field_count = sizeof plugin_fields / sizeof plugin_fields[0];

void plugin_text_put(FILE *f, const char *s)
{
    size_t n = strnlen(s, PLUGIN_TEXT_MAX);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == '%') fprintf(f, "%%%02X", c);
        else fputc(c, f);
    }
}

static int hex(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

int plugin_text_unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r != '%') {
            *w++ = *r;
            continue;
        }
        int a = hex(r[1]), b = a < 0 ? -1 : hex(r[2]);
        if (a < 0 || b < 0 || (a == 0 && b == 0)) return -1;
        *w++ = (char)(a * 16 + b);
        r += 2;
    }
    *w = '\0';
    return 0;
}

static void field_put(FILE *f, const gelucheck_impl_v1 *d, const plugin_field *pf)
{
    const unsigned char *at = (const unsigned char *)d + pf->offset;
    switch (pf->kind) {
    case PLUGIN_FIELD_TEXT: {
        const char *s;
        memcpy(&s, at, sizeof s);
        if (!s) return;
        fprintf(f, "%s ", pf->key);
        plugin_text_put(f, s);
        fputc('\n', f);
        return;
    }
    case PLUGIN_FIELD_KERNEL: {
        void (*k)(void);
        memcpy(&k, at, sizeof k);
        if (k) fprintf(f, "%s 1\n", pf->key);
        return;
    }
    case PLUGIN_FIELD_DOUBLE: {
        double v;
        memcpy(&v, at, sizeof v);
        fprintf(f, "%s %a\n", pf->key, v);
        return;
    }
    case PLUGIN_FIELD_INT: {
        int v;
        memcpy(&v, at, sizeof v);
        fprintf(f, "%s %d\n", pf->key, v);
        return;
    }
    case PLUGIN_FIELD_CALL: {
        const char *(*call)(void);
        memcpy(&call, at, sizeof call);
        if (!call) return;
        const char *s = call();
        fprintf(f, "%s ", pf->key);
        plugin_text_put(f, s ? s : "");
        fputc('\n', f);
        return;
    }
    }
}

int plugin_description_write(FILE *f, const gelucheck_plugin_info_v1 *p, const char *left_out)
{
    fprintf(f, "gelucheck-plugin-description %d\nabi %u\ncount %u\n", PLUGIN_DESCRIPTION_VERSION,
            p->abi, p->count);
    for (uint32_t i = 0; p->impls && i < p->count && i < 64; i++) {
        const gelucheck_impl_v1 *d = &p->impls[i];
        fprintf(f, "row\nsize %u\n", d->size);
        for (size_t k = 0; k < plugin_field_count; k++)
            if (d->size >= plugin_fields[k].offset + plugin_fields[k].size)
                field_put(f, d, &plugin_fields[k]);
        fprintf(f, "end\n");
    }
    if (left_out) {
        fprintf(f, "left_out ");
        plugin_text_put(f, left_out);
        fputc('\n', f);
    }
    fprintf(f, "done\n");
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
