/* JSON for the files gelucheck writes and reads back (answer.json, docs/answer-json.md): a
 * string writer (escaped, valid UTF-8) and a reader of the whole grammar (RFC 8259) into a tree.
 * Numbers are read as doubles; a string holding "\u0000" is refused (C strings). Library code:
 * errors returned as text. */
#ifndef GELUCHECK_JSON_H
#define GELUCHECK_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* s as a JSON string: quotes, backslashes and control characters escaped; a byte that is not
 * part of valid UTF-8 becomes '?' (JSON text is Unicode). */
void json_put_string(FILE *f, const char *s);
/* A finite v as a number with the fewest digits (15 to 17) that read back as v; a NaN
 * as null, an infinity as the string "inf" or "-inf". */
void json_put_number(FILE *f, double v);

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json_node {
    json_kind kind;
    char *key;     /* an object member's key; NULL elsewhere */
    char *text;    /* JSON_STRING: the value, unescaped */
    double number; /* JSON_NUMBER */
    bool boolean;  /* JSON_BOOL */
    struct json_node *child, *next; /* an array's or object's first element; the next sibling */
} json_node;

/* Parses text[0..len) (one value, whitespace around it). The tree (json_free), or NULL with err
 * saying what is wrong at which byte. Nesting deeper than 32 is refused. */
json_node *json_parse(const char *text, size_t len, char *err, size_t errsize);
void json_free(json_node *n);

/* The member `key` of an object (the first of that key), NULL when absent or n is no object. */
const json_node *json_get(const json_node *n, const char *key);
/* Typed members: the string (NULL when absent or not a string); the number (false when absent
 * or not a number; "inf" and "-inf" strings read as infinities, null as NaN). */
const char *json_get_string(const json_node *n, const char *key);
bool json_get_number(const json_node *n, const char *key, double *v);

#endif
