/* The results read back, as asked of (see results_row.h). */
#include "results_row.h"

#include <stdio.h>
#include <string.h>

const results_row *results_find(const results_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->rows[i].name, name) == 0) return &s->rows[i];
    return NULL;
}

long long results_not_correctly_rounded(const results_error *e)
{
    return e->present && e->correctly_rounded >= 0 && e->inputs > 0
               ? (long long)e->inputs - e->correctly_rounded
               : -1;
}

bool results_all_correctly_rounded(const results_error *e)
{
    if (!e->present) return false;
    return e->correctly_rounded >= 0 ? (uint64_t)e->correctly_rounded == e->inputs
                                     : e->cr_fraction >= 1;
}

const results_speed *results_speed_at(const results_row *r, const char *size)
{
    for (size_t i = 0; i < r->nspeeds; i++)
        if (strcmp(r->speed[i].size, size) == 0) return &r->speed[i];
    return NULL;
}

const char *results_file_name(char *buf, size_t size, const char *stem, gelu_format_id f)
{
    if (f == GELU_FORMAT_BINARY32) snprintf(buf, size, "%s.csv", stem);
    else snprintf(buf, size, "%s_%s.csv", stem, gelu_format_of(f)->name);
    return buf;
}
