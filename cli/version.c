/* gelucheck --version: this build's version, commit, compiler and flags, and the versions of the
 * libraries that produce its numbers — the facts a run manifest records (reports/manifest.c),
 * taken from the same list, less the run's own (CPU, command, time). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "manifest.h"

void print_version(FILE *f)
{
    run_manifest m;
    manifest_collect(&m, "");
    fprintf(f, "gelucheck %s\n", m.version);
    const char *sep = "libraries: ";
    for (size_t i = 0; i < manifest_field_count(); i++) {
        const char *name = manifest_field_name(i), *value = manifest_field_value(&m, i);
        if (strncmp(name, "libraries.", 10) == 0) {
            fprintf(f, "%s%s %s", sep, name + 10, value);
            sep = ", ";
        } else if (strncmp(name, "gelucheck.", 10) == 0 && strcmp(name, "gelucheck.version") != 0) {
            fprintf(f, "%s: %s\n", name + 10, value);
        } else if (strncmp(name, "build.", 6) == 0) {
            fprintf(f, "%s: %s\n", name + 6, value);
        }
    }
    fprintf(f, "\n");
}
