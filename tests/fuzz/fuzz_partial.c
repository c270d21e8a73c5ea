/* libFuzzer target: the partial-file reader (scan/partial.c) on any bytes, and the invariant
 * check on what it accepts. A crash, a sanitizer report or a leak is a failure. */
#include <stdint.h>
#include <stdlib.h>

#include "partial.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static scan_result r; /* large: not on the stack */
    char err[512];
    if (partial_parse(&r, data, size, err, sizeof err) != 0) return 0;
    /* a sample domain is drawn and sorted to be checked: keep those small */
    if (r.domain.kind == DOMAIN_SAMPLE && r.domain.n > 100000) return 0;
    scan_result_check(&r, false, err, sizeof err);
    scan_result_check(&r, true, err, sizeof err);
    return 0;
}
