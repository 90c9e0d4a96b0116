/*
 * fuzz_codeobj.c -- libFuzzer target for the code-object reader, decoder and
 * printers: each input is read as a code object or offload bundle (as gcndis
 * reads a file: ELF, descriptors, metadata note, .debug_line, bundle
 * headers), every listing of an accepted object is printed, and the same
 * bytes are decoded and printed as a raw instruction stream for gfx942 and
 * gfx950.  The one-instruction-per-line printers run a second time on
 * three threads with parts down to 4 bytes (textpar.c): their text must be
 * the same, whether the threads take each other's chunks over at once or
 * wait, and whether they keep their text in the default blocks or the
 * smallest (a block boundary every few lines): the input's size picks, so
 * the same input always runs the same way.  (A crew of threads kept for
 * every input is cheaper to hand texts to, but its idle threads spin for
 * a while after each text: with a process per core they took the CPU the
 * fuzzing needs.)
 * Built by tests/fuzz/build.sh (clang-22 -fsanitize=fuzzer,address,
 * undefined,float-cast-overflow).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The text print (one of the printers below) writes with options o. */
static char *text_of(int (*print)(const void *, FILE *, const gcn_text_opts *), const void *arg,
                     const gcn_text_opts *o, size_t *n)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, n);
    if (!f || print(arg, f, o) != 0)
        abort();
    fclose(f);
    return buf;
}

/* Threaded text must equal one thread's.  which: 0 for the code object's
 * text, 1 for the raw stream's; with the input's size it picks the options. */
static void same_text(int (*print)(const void *, FILE *, const gcn_text_opts *), const void *arg,
                      size_t size, unsigned which)
{
    gcn_text_opts three = {.jobs = 3, .min_part = 4,
                           .steal_ns = ((size ^ which) & 1) ? -1 : 0,
                           .block = ((size >> 1) & 1) ? 1 : 0};
    size_t n1, n3;
    char *one = text_of(print, arg, NULL, &n1), *par = text_of(print, arg, &three, &n3);
    if (n1 != n3 || memcmp(one, par, n1))
        abort();
    free(one);
    free(par);
}

static int print_co(const void *co, FILE *f, const gcn_text_opts *o)
{
    return gcn_co_print_llvm_text_opt(co, f, o);
}

struct raw { const uint8_t *b; size_t n; };
static int print_raw(const void *r, FILE *f, const gcn_text_opts *o)
{
    const struct raw *w = r;
    return gcn_raw_print_opt(GCN_TARGET_GFX942, w->b, w->n, 1, f, o);
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
        if (gcn_co_print_llvm_text(co, out) != 0 || gcn_co_print_listing(co, NULL, out) != 0)
            abort();
        same_text(print_co, co, size, 0);
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
    if (gcn_raw_print(GCN_TARGET_GFX942, data, rl, 0, out) != 0 ||
        gcn_raw_print(GCN_TARGET_GFX950, data, rl, 2, out) != 0)
        abort();
    same_text(print_raw, &(struct raw){data, rl}, size, 1);
    return 0;
}
