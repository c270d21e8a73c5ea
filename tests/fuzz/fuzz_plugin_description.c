/* libFuzzer target: the reader of a plugin's description as its host writes it
 * (plugins/plugin_describe.c) on any bytes; what it accepts is written back
 * (plugins/plugin_fields.c) and must read back with the same rows. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_describe.h"
#include "plugin_fields.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_text(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static plugin_description d, back;
    char err[512];
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    int rc = plugin_description_parse(text, &d, err, sizeof err);
    free(text);
    if (rc != 0) return 0;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f) abort();
    if (plugin_description_write(f, &d.info, d.left_out) != 0) abort();
    fclose(f);
    if (plugin_description_parse(out, &back, err, sizeof err) != 0) abort(); /* what it writes, it reads */
    if (back.info.count != d.info.count || back.info.abi != d.info.abi) abort();
    for (uint32_t i = 0; d.info.impls && i < d.info.count && i < 64; i++) {
        const gelucheck_impl_v1 *a = &d.rows[i], *b = &back.rows[i];
        if (a->size != b->size || !same_text(a->name, b->name) || !same_text(a->origin, b->origin) ||
            !same_text(a->known_as, b->known_as) || (a->forward == NULL) != (b->forward == NULL))
            abort();
    }
    if (!same_text(d.left_out, back.left_out)) abort();
    free(out);
    plugin_description_free(&d);
    plugin_description_free(&back);
    return 0;
}
