/* A plugin's description (include/gelucheck/plugin.h) as text: what gelucheck-plugin-host
 * --describe writes (plugin_host.c), so that gelucheck learns a plugin's rows without loading
 * its code (plugin_describe.c). One list of the fields of gelucheck_impl_v1, read by the
 * writer and by the parser; tests/test_plugin_fields.c holds it to the struct's layout.
 *
 * The text, one line each ("KEY VALUE", VALUE's bytes below 0x20, 0x7f and '%' as %XX):
 *
 *   gelucheck-plugin-description 1
 *   abi A
 *   count N
 *   row                        N times: the row's fields, in the list's order, each only when
 *   size S                     the row's size covers it and (a text, a kernel, a call) it is
 *   name NAME                  not NULL; a kernel as "1"; a call (dispatched_isa) as its answer
 *   ...
 *   end
 *   left_out TEXT              gelucheck_plugin_left_out_v1's answer, when it has one
 *   done
 */
#ifndef GELUCHECK_PLUGIN_FIELDS_H
#define GELUCHECK_PLUGIN_FIELDS_H

#include <stddef.h>
#include <stdio.h>

#include "gelucheck/plugin.h"

typedef enum {
    PLUGIN_FIELD_TEXT,   /* const char *: the text */
    PLUGIN_FIELD_KERNEL, /* a kernel pointer: "1" when set */
    PLUGIN_FIELD_DOUBLE, /* a bound: "%a" (inf, nan as such) */
    PLUGIN_FIELD_INT,    /* an int flag: "%d" */
    PLUGIN_FIELD_CALL,   /* const char *(*)(void): its answer, called by the writer */
} plugin_field_kind;

typedef struct {
    const char *key;
    plugin_field_kind kind;
    size_t offset, size; /* in gelucheck_impl_v1 */
} plugin_field;

extern const plugin_field plugin_fields[];
extern const size_t plugin_field_count;

enum { PLUGIN_DESCRIPTION_VERSION = 1, PLUGIN_TEXT_MAX = 4096 };

/* Writes p's description (and left_out when not NULL) to f in the text above. 0, or −1 on a
 * write error. Reads every field the way gelucheck would: a bad pointer in the plugin's
 * description faults here, in the host's process. */
int plugin_description_write(FILE *f, const gelucheck_plugin_info_v1 *p, const char *left_out);

/* s with the bytes below 0x20, 0x7f and '%' as %XX, to f. */
void plugin_text_put(FILE *f, const char *s);
/* The reverse, in place; −1 for a malformed %XX or a %00. */
int plugin_text_unescape(char *s);

#endif
