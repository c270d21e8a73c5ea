/* The page's tables and the sections made of them (html_tables.c): binary32's summary, the other
 * formats' sections, the ftz,daz section. */
#ifndef GELUCHECK_HTML_TABLES_H
#define GELUCHECK_HTML_TABLES_H

#include <stdio.h>

#include "html_page.h"

void html_summary(FILE *f, const results_set *s);
void html_formats16_section(FILE *f, const html_report *h);
void html_binary64_section(FILE *f, const html_report *h);
void html_ftz_daz_section(FILE *f, const html_report *h);

#endif
