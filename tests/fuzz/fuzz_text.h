/*
 * fuzz_text.h -- what the three targets of the reader, decoder and printers
 * share (fuzz_codeobj: code objects and bundles; fuzz_rawdis: raw
 * instruction streams; fuzz_textpar: the threaded one-instruction-per-line
 * printer against one thread's text): a FILE that appends to a buffer kept
 * from input to input, the crews of threads kept for the process, and the
 * comparison of a threaded print with the one-thread text.
 */
#ifndef FUZZ_TEXT_H
#define FUZZ_TEXT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "gcn_codeobj.h"
#include "gcn_decode.h"

/* /dev/null, opened once. */
static FILE *fuzz_sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    if (!f)
        abort();
    return f;
}

/* The harness's own helpers that go over every byte of a text: no coverage
 * or comparison tracing (they are not code under test). */
#define FUZZ_NOCOV __attribute__((no_sanitize("coverage")))

/* A FILE that appends to a buffer kept from input to input (no
 * allocation once it has grown to the largest text). */
typedef struct membuf {
    char *b;
    size_t n, cap;
    FILE *f;
} membuf;

static FUZZ_NOCOV ssize_t mb_write(void *c, const char *p, size_t n)
{
    membuf *m = c;
    if (n == 0)
        return 0;
    if (m->n + n > m->cap) {
        size_t cap = m->cap ? m->cap : 1 << 16;
        while (cap < m->n + n)
            cap *= 2;
        char *b = realloc(m->b, cap);
        if (!b)
            abort();
        m->b = b;
        m->cap = cap;
    }
    memcpy(m->b + m->n, p, n);
    m->n += n;
    return (ssize_t)n;
}

/* m's FILE (unbuffered: the printers write whole blocks), emptied. */
static FILE *mb_open(membuf *m)
{
    if (!m->f) {
        m->f = fopencookie(m, "w", (cookie_io_functions_t){.write = mb_write});
        if (!m->f || setvbuf(m->f, NULL, _IONBF, 0) != 0)
            abort();
    }
    clearerr(m->f);
    m->n = 0;
    return m->f;
}

/* The threads of the threaded prints: crews of 2 and 3 (jobs) kept for the
 * process, their idle threads asleep (spin 0), so that they take no CPU
 * between inputs (starting and joining threads twice per input was a third
 * of a run under AddressSanitizer). */
static gcn_text_crew *fuzz_crew(unsigned jobs)
{
    static gcn_text_crew *c[4];
    if (!c[jobs] && !(c[jobs] = gcn_text_crew_start_opt(jobs, 0)))
        abort();
    return c[jobs];
}

/* The text of print on three threads, with parts down to 4 bytes, must be
 * ref, the text one thread printed.  which: 0 for the code object's text, 1
 * for a raw stream's; with the input's size it picks the options, so the
 * same input always runs the same way: whether the threads take each
 * other's chunks over at once or wait, whether they keep their text in the
 * default blocks or the smallest (a block boundary every few lines), and
 * whose threads: the printer's own (three, started and ended for the text,
 * as without a crew) on one input in eight, else a kept crew of two, three
 * on one input in four. */
static void fuzz_same_text(int (*print)(const void *, FILE *, const gcn_text_opts *),
                           const void *arg, size_t size, unsigned which, const membuf *ref)
{
    static membuf par;
    int own = ((size >> 3) & 7) == which;
    gcn_text_opts three = {.jobs = 3, .min_part = 4,
                           .steal_ns = ((size ^ which) & 1) ? -1 : 0,
                           .block = ((size >> 1) & 1) ? 1 : 0,
                           .crew = own ? NULL : fuzz_crew(((size >> 6) & 3) == 0 ? 3 : 2)};
    if (print(arg, mb_open(&par), &three) != 0)
        abort();
    if (par.n != ref->n || (ref->n && memcmp(par.b, ref->b, ref->n)))
        abort();
}

/* A raw stream to print (gcn_raw_print_opt's arguments). */
struct fuzz_raw { gcn_target t; int mode; const uint8_t *b; size_t n; };

static int fuzz_print_raw(const void *r, FILE *f, const gcn_text_opts *o)
{
    const struct fuzz_raw *w = r;
    return gcn_raw_print_opt(w->t, w->b, w->n, w->mode, f, o);
}

/* Raw streams are read up to their first 4 KiB: enough for every encoding,
 * and keeps runs fast. */
#define FUZZ_RAW_MAX 4096

#endif
