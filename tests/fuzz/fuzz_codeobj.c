/*
 * fuzz_codeobj.c -- libFuzzer target for the code-object reader, decoder and
 * printers: each input is read as a code object or offload bundle (as gcndis
 * reads a file: ELF, descriptors, metadata note, .debug_line, bundle
 * headers), every listing of an accepted object is printed, and the same
 * bytes are decoded and printed as a raw instruction stream for gfx942
 * (addresses and words) and gfx950 (offsets and sizes).  The
 * one-instruction-per-line printers run a second time on three threads
 * with parts down to 4 bytes (textpar.c): the object's text, and one of the
 * two raw texts (the input's size picks which); their text must be the one
 * thread's, whether the threads take each other's chunks over at once or
 * wait, and whether they keep their text in the default blocks or the
 * smallest (a block boundary every few lines): the input's size picks, so
 * the same input always runs the same way.  Each text is printed once on
 * one thread, into a buffer kept from input to input, and the threaded
 * print is compared with that (the one-thread text used to be printed again
 * for the comparison: five to seven prints of an input became three to
 * four); the gfx942 text alone (mode 1) is its addressed lines (mode 0)
 * without their prefix.  The threads are crews kept for the process whose
 * idle threads sleep at once (gcn_text_crew_start_opt, spin 0), so that
 * they take no CPU between inputs; on one input in eight per text the
 * printer starts and ends threads of its own instead, as it does without a
 * crew (starting and joining threads twice per input was a third of a run
 * under AddressSanitizer).  The threaded prints run on one input size in
 * two (bit 31 of size * 2654435761, independent of the bits that pick their
 * options, so every option is still taken): they were a third of a run, and
 * the threads' printers are the one-thread printers on parts of the text.
 * Built by tests/fuzz/build.sh (clang-22 -fsanitize=fuzzer,address,
 * undefined,float-cast-overflow).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "gcn_codeobj.h"
#include "gcn_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    if (!f)
        abort();
    return f;
}

/* A FILE that appends to a buffer kept from input to input (no
 * allocation once it has grown to the largest text). */
typedef struct membuf {
    char *b;
    size_t n, cap;
    FILE *f;
} membuf;

static ssize_t mb_write(void *c, const char *p, size_t n)
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
 * process, their idle threads asleep (spin 0). */
static gcn_text_crew *crew(unsigned jobs)
{
    static gcn_text_crew *c[4];
    if (!c[jobs] && !(c[jobs] = gcn_text_crew_start_opt(jobs, 0)))
        abort();
    return c[jobs];
}

/* The text of print on three threads must be ref, the text one thread
 * printed.  which: 0 for the code object's text, 1 for a raw stream's;
 * with the input's size it picks the options. */
static void same_text(int (*print)(const void *, FILE *, const gcn_text_opts *), const void *arg,
                      size_t size, unsigned which, const membuf *ref)
{
    static membuf par;
    if (((uint32_t)size * 2654435761u) >> 31)
        return;
    /* threads of the printer's own (three) on one input in eight, else a
     * kept crew: two threads, three on one input in four (each thread more
     * costs about a print: under load, waits for threads the host has
     * taken the CPU from, and chunks done twice) */
    int own = ((size >> 3) & 7) == which;
    gcn_text_opts three = {.jobs = 3, .min_part = 4,
                           .steal_ns = ((size ^ which) & 1) ? -1 : 0,
                           .block = ((size >> 1) & 1) ? 1 : 0,
                           .crew = own ? NULL : crew(((size >> 6) & 3) == 0 ? 3 : 2)};
    if (print(arg, mb_open(&par), &three) != 0)
        abort();
    if (par.n != ref->n || (ref->n && memcmp(par.b, ref->b, ref->n)))
        abort();
}

static int print_co(const void *co, FILE *f, const gcn_text_opts *o)
{
    return gcn_co_print_llvm_text_opt(co, f, o);
}

struct raw { gcn_target t; int mode; const uint8_t *b; size_t n; };
static int print_raw(const void *r, FILE *f, const gcn_text_opts *o)
{
    const struct raw *w = r;
    return gcn_raw_print_opt(w->t, w->b, w->n, w->mode, f, o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *out = sink();
    gcn_codeobj *co = NULL;
    gcn_co_err err;
    static const char *const arches[] = {NULL, "gfx950", "1"};
    for (int a = 0; a < 3; a++) {
        if (a && !gcn_bundle_is(data, size))
            break;
        err.msg[0] = 0;
        if (gcn_co_open_mem_arch("fuzz.hsaco", data, size, arches[a], &co, &err) != 0) {
            /* Refusals must say what is wrong, naming the input. */
            if (strncmp(err.msg, "fuzz.hsaco", 10) != 0)
                abort();
            continue;
        }
        static membuf text;
        if (gcn_co_print_llvm_text(co, mb_open(&text)) != 0 ||
            gcn_co_print_listing(co, NULL, out) != 0)
            abort();
        same_text(print_co, co, size, 0, &text);
        for (unsigned i = 0; i < co->nkernels; i++) {
            const gcn_kernel *k = &co->kernels[i];
            if (gcn_co_kernel(co, k->name) == NULL)
                abort();
            (void)gcn_co_line(co, k->entry_addr);
            (void)gcn_co_symbol_at(co, k->entry_addr);
            if (gcn_co_print_listing(co, k->name, out) != 0)
                abort();
        }
        for (unsigned i = 0; i < co->nlines; i++)
            (void)gcn_co_line(co, co->lines[i].addr + 1);
        gcn_co_close(co);
    }
    gcn_bundle_entry *e;
    unsigned n;
    if (gcn_bundle_list("fuzz.bundle", data, size, &e, &n, &err) == 0) {
        char p[64];
        for (unsigned i = 0; i < n; i++) {
            if (e[i].offset > size || e[i].size > size - e[i].offset)
                abort();
            gcn_bundle_processor(e[i].triple, p, sizeof p);
        }
        gcn_bundle_free(e, n);
    }
    /* The bytes as a raw stream: decoder and printer on arbitrary words
     * (the first 4 KiB: enough for every encoding, and keeps runs fast). */
    size_t rl = size < 4096 ? size : 4096;
    static membuf r942, r950, t942;
    struct raw w942 = {GCN_TARGET_GFX942, 0, data, rl}, w950 = {GCN_TARGET_GFX950, 2, data, rl},
               t = {GCN_TARGET_GFX942, 1, data, rl};
    if (print_raw(&w942, mb_open(&r942), NULL) != 0 || print_raw(&w950, mb_open(&r950), NULL) != 0)
        abort();
    if ((size >> 2) & 1) {
        same_text(print_raw, &w950, size, 1, &r950);
    } else {
        /* the text alone (mode 1) is the gfx942 lines without their first 38
         * bytes, address and words ("%08llx: " and the words padded to 28) */
        mb_open(&t942);
        for (size_t i = 0; i < r942.n;) {
            const char *nl = memchr(r942.b + i, '\n', r942.n - i);
            size_t e = nl ? (size_t)(nl - r942.b) + 1 : r942.n;
            if (e - i < 39 || r942.b[i + 8] != ':')
                abort();
            mb_write(&t942, r942.b + i + 38, e - i - 38);
            i = e;
        }
        same_text(print_raw, &t, size, 1, &t942);
    }
    return 0;
}
