/* The page's make_moons section (html_moons.c). */
#ifndef GELUCHECK_HTML_MOONS_H
#define GELUCHECK_HTML_MOONS_H

#include <stdio.h>

#include "html_page.h"

void html_moons_section(FILE *f, const html_moons *mo);

#endif
