/* Text built without malloc or stdio, for messages written from a signal handler or a dying
 * process: each appends to buf (of size bytes) from index at, keeps room for a final NUL
 * (not written), and returns the new index. */
#ifndef GELUCHECK_SIG_TEXT_H
#define GELUCHECK_SIG_TEXT_H

#include <stddef.h>
#include <stdint.h>

static inline size_t sig_put(char *buf, size_t at, size_t size, const char *s)
{
    while (*s && at + 1 < size) buf[at++] = *s++;
    return at;
}

/* v in hexadecimal, digits digits (leading zeros). */
static inline size_t sig_put_hex(char *buf, size_t at, size_t size, uint64_t v, int digits)
{
    for (int i = digits - 1; i >= 0 && at + 1 < size; i--)
        buf[at++] = "0123456789abcdef"[(v >> (4 * i)) & 15];
    return at;
}

static inline size_t sig_put_dec(char *buf, size_t at, size_t size, uint64_t v)
{
    char t[24];
    int k = 0;
    do t[k++] = (char)('0' + v % 10);
    while ((v /= 10) && k < 24);
    while (k > 0 && at + 1 < size) buf[at++] = t[--k];
    return at;
}

#endif
