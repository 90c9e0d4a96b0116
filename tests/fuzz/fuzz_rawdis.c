/*
 * fuzz_rawdis.c -- libFuzzer target for the decoder and the instruction
 * printers on arbitrary words: each input's first 4 KiB are decoded and
 * printed once as a raw instruction stream (gcn_raw_print_opt, one thread,
 * as `gcndis --raw` prints it), for gfx942 or gfx950 and in one of the three
 * line formats, both picked by the input's size (so an input always runs the
 * same way, and mutations that change the size take the others): mode 0
 * (address and words), 1 (text alone) or 2 (offset and size).  Beyond the
 * sanitizers the text is checked against the bytes: one line per
 * instruction, none empty; in mode 2 the offsets run on without gap or
 * overlap from 0 to the length, each size 4, 8, 12 or 16 bytes but for a
 * last piece of 1-3 trailing bytes; in mode 0 the addresses rise by whole
 * dwords from 0, the words shown are the stream's words there, and the text
 * starts in column 38 (where mode 1's line begins: fuzz_textpar compares
 * the two).
 *
 * Until session 10 fuzz_codeobj printed every input this way twice (gfx942
 * mode 0 and gfx950 mode 2: the same decoder and printers, the tables aside)
 * besides reading it as a code object; the threaded printer is
 * fuzz_textpar's.  The seeds are fuzz_codeobj's (code objects as words) and
 * the code of a few of kernels/.  Built by tests/fuzz/build.sh.
 */
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The checks of the text are the harness's, not code under test: no
 * coverage or comparison tracing (they compare every byte of the text: a
 * quarter of a run, and features of the text rather than of the code). */
#define CHECK_FN static FUZZ_NOCOV

CHECK_FN unsigned hexval(const char *p, unsigned n, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < n; i++) {
        char c = p[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 16;
        if (d == 16)
            return 0;
        x = x << 4 | d;
    }
    *v = x;
    return 1;
}

/* A decimal number at *p ending at stop; advances *p past stop. */
CHECK_FN uint64_t decval(const char **p, const char *end, char stop)
{
    uint64_t x = 0;
    const char *q = *p;
    if (q >= end || *q < '0' || *q > '9')
        abort();
    while (q < end && *q >= '0' && *q <= '9')
        x = x * 10 + (uint64_t)(*q++ - '0');
    if (q >= end || *q != stop)
        abort();
    *p = q + 1;
    return x;
}

CHECK_FN uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The text of data[0..rl) in mode must be as the comment at the top says. */
CHECK_FN void check_text(const membuf *text, const uint8_t *data, size_t rl, int mode)
{
    const char *b = text->b, *end = text->b + text->n;
    if ((rl == 0) != (text->n == 0) || (text->n && end[-1] != '\n'))
        abort();
    uint64_t pos = 0;            /* where the next instruction must start (mode 2), or where
                                    the previous line's starts (mode 0) */
    unsigned last_nw = 0;        /* words the previous line showed (mode 0) */
    int first = 1;
    while (b < end) {
        const char *nl = memchr(b, '\n', (size_t)(end - b));
        if (!nl)
            abort();
        const char *insn = b;
        if (mode == 2) {
            const char *p = b;
            uint64_t off = decval(&p, nl, '\t'), n = decval(&p, nl, '\t');
            int trailing = rl - pos < 4 && n == rl - pos;
            if (off != pos || pos >= rl || n > rl - pos ||
                !(trailing || n == 4 || n == 8 || n == 12 || n == 16))
                abort();
            pos += n;
            insn = p;
        } else if (mode == 0) {
            uint64_t a, v;
            if (nl - b < 39 || !hexval(b, 8, &a) || b[8] != ':' || b[9] != ' ' || a >= rl)
                abort();
            /* the previous instruction's size: its words shown, or 16 bytes
             * with three shown */
            if (first ? a != 0 : !(a - pos == 4 * last_nw || (last_nw == 3 && a - pos == 16)))
                abort();
            /* the words, each the stream's; then blanks to column 38 */
            const char *p = b + 10;
            unsigned nw = 0;
            while (nw < 3 && p + 8 <= b + 38 && hexval(p, 8, &v)) {
                if (a + 4 * nw + 4 > rl || v != le32(data + a + 4 * nw))
                    abort();
                nw++;
                p += 8;
                if (*p == ' ')
                    p++;
            }
            for (; p < b + 38; p++)
                if (*p != ' ')
                    abort();
            /* no word: only the trailing bytes under a dword */
            if (nw == 0 && rl - a >= 4)
                abort();
            pos = a;
            last_nw = nw;
            insn = b + 38;
        }
        if (insn >= nl)
            abort();             /* every line has its instruction's text */
        first = 0;
        b = nl + 1;
    }
    /* every byte is in a line: mode 2's sizes add up to the length; mode
     * 0's last line takes what is left (its words, or 16 bytes with three
     * shown, or the trailing bytes) */
    if (mode == 2 && pos != rl)
        abort();
    if (mode == 0 && rl &&
        !(rl - pos == 4 * last_nw || (last_nw == 3 && rl - pos == 16) || (last_nw == 0 && rl - pos < 4)))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static membuf text;
    size_t rl = size < FUZZ_RAW_MAX ? size : FUZZ_RAW_MAX;
    uint32_t h = (uint32_t)size * 2654435761u;
    gcn_target t = (h >> 31) ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942;
    int mode = (int)(((h >> 28) & 3) % 3);      /* 0 on two sizes in four */
    struct fuzz_raw w = {t, mode, data, rl};
    if (fuzz_print_raw(&w, mb_open(&text), NULL) != 0)
        abort();
    check_text(&text, data, rl, mode);
    return 0;
}
