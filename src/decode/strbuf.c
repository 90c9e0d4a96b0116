/*
 * strbuf.c -- a growable text buffer used by the printers and tools, and the
 * two error-message setters of the library (gcn_seterr, gcn_co_fail).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"
#include "codeobj_int.h"

/* The table behind gcn_put_dec(): entry n holds the digits of n left-aligned
 * and their count in byte 3, built by the preprocessor. */
#define DEC3_D(n) ((n) >= 100 ? 3 : (n) >= 10 ? 2 : 1)
#define DEC3_E(n)                                                                   \
    {(char)('0' + ((n) >= 100 ? (n) / 100 : (n) >= 10 ? (n) / 10 : (n))),            \
     (char)((n) >= 100 ? '0' + (n) / 10 % 10 : (n) >= 10 ? '0' + (n) % 10 : 0),      \
     (char)((n) >= 100 ? '0' + (n) % 10 : 0), (char)DEC3_D(n)}
#define DEC3_10(n) DEC3_E(n), DEC3_E(n + 1), DEC3_E(n + 2), DEC3_E(n + 3), DEC3_E(n + 4), \
                   DEC3_E(n + 5), DEC3_E(n + 6), DEC3_E(n + 7), DEC3_E(n + 8), DEC3_E(n + 9)
#define DEC3_100(n) DEC3_10(n), DEC3_10(n + 10), DEC3_10(n + 20), DEC3_10(n + 30),       \
                    DEC3_10(n + 40), DEC3_10(n + 50), DEC3_10(n + 60), DEC3_10(n + 70),  \
                    DEC3_10(n + 80), DEC3_10(n + 90)
const char gcn_dec3_tab[1000][4] = {
    DEC3_100(0), DEC3_100(100), DEC3_100(200), DEC3_100(300), DEC3_100(400),
    DEC3_100(500), DEC3_100(600), DEC3_100(700), DEC3_100(800), DEC3_100(900),
};

void gcn_sb_init(gcn_strbuf *sb) { sb->buf = NULL; sb->len = sb->cap = 0; }
void gcn_sb_free(gcn_strbuf *sb) { free(sb->buf); gcn_sb_init(sb); }
void gcn_sb_reset(gcn_strbuf *sb) { sb->len = 0; if (sb->buf) sb->buf[0] = 0; }

void gcn_sb_grow(gcn_strbuf *sb, size_t need)
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

void gcn_sb_printf(gcn_strbuf *sb, const char *fmt, ...)
{
    /* Format straight into the free space; only when it does not fit, grow
     * and format again (one vsnprintf per call in the common case). */
    if (sb->cap < sb->len + 64)
        gcn_sb_grow(sb, 64);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    if (n <= 0) {
        sb->buf[sb->len] = 0;
        return;
    }
    if ((size_t)n >= sb->cap - sb->len) {
        gcn_sb_grow(sb, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    sb->len += (size_t)n;
}

void gcn_seterr(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

/* The code-object reader's messages (codeobj_int.h): "NAME: problem" in err->msg. */
int gcn_co_fail(gcn_co_err *err, int code, const char *name, const char *fmt, ...)
{
    if (err) {
        int n = snprintf(err->msg, sizeof err->msg, "%s: ", name ? name : "(memory)");
        if (n < 0 || (size_t)n >= sizeof err->msg)
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}
