/*
 * strbuf.c -- a growable text buffer used by the printers and tools.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"

void gcn_sb_init(gcn_strbuf *sb) { sb->buf = NULL; sb->len = sb->cap = 0; }
void gcn_sb_free(gcn_strbuf *sb) { free(sb->buf); gcn_sb_init(sb); }
void gcn_sb_reset(gcn_strbuf *sb) { sb->len = 0; if (sb->buf) sb->buf[0] = 0; }

static void sb_grow(gcn_strbuf *sb, size_t need)
{
    if (sb->len + need + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 128;
    while (cap < sb->len + need + 1)
        cap *= 2;
    char *p = realloc(sb->buf, cap);
    if (!p)
        abort(); /* out of memory: nothing sensible to report */
    sb->buf = p;
    sb->cap = cap;
}

void gcn_sb_puts(gcn_strbuf *sb, const char *s)
{
    size_t n = strlen(s);
    sb_grow(sb, n);
    memcpy(sb->buf + sb->len, s, n + 1);
    sb->len += n;
}

void gcn_sb_putc(gcn_strbuf *sb, char c)
{
    sb_grow(sb, 1);
    sb->buf[sb->len++] = c;
    sb->buf[sb->len] = 0;
}

void gcn_sb_printf(gcn_strbuf *sb, const char *fmt, ...)
{
    /* Format straight into the free space; only when it does not fit, grow
     * and format again (one vsnprintf per call in the common case). */
    if (sb->cap < sb->len + 64)
        sb_grow(sb, 64);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    if (n <= 0) {
        sb->buf[sb->len] = 0;
        return;
    }
    if ((size_t)n >= sb->cap - sb->len) {
        sb_grow(sb, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    sb->len += (size_t)n;
}

void gcn_sb_putu(gcn_strbuf *sb, uint64_t v)
{
    char b[24];
    int i = 23;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sb_grow(sb, (size_t)(23 - i));
    memcpy(sb->buf + sb->len, b + i, (size_t)(24 - i));
    sb->len += (size_t)(23 - i);
}

void gcn_sb_puti(gcn_strbuf *sb, int64_t v)
{
    if (v < 0) {
        gcn_sb_putc(sb, '-');
        gcn_sb_putu(sb, (uint64_t)0 - (uint64_t)v);
    } else {
        gcn_sb_putu(sb, (uint64_t)v);
    }
}

void gcn_sb_puthex(gcn_strbuf *sb, uint64_t v, unsigned mindigits)
{
    static const char hex[] = "0123456789abcdef";
    char b[20];
    int i = 19;
    b[i] = 0;
    do {
        b[--i] = hex[v & 15];
        v >>= 4;
    } while ((v || 19 - i < (int)mindigits) && i > 1);
    sb_grow(sb, (size_t)(19 - i));
    memcpy(sb->buf + sb->len, b + i, (size_t)(20 - i));
    sb->len += (size_t)(19 - i);
}
