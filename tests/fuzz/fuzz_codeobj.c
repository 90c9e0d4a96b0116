/*
 * fuzz_codeobj.c -- libFuzzer target for the code-object reader and its
 * printers: each input is read as a code object or offload bundle (as
 * gcndis reads a file: ELF, descriptors, metadata note, .debug_line, bundle
 * headers); a refusal must name the input; every listing of an accepted
 * object is printed (its text, the whole listing, each kernel's), its
 * kernels, symbols and lines looked up, and its text printed again on three
 * threads with parts down to 4 bytes must be the one thread's
 * (fuzz_text.h: the input's size picks the threads' options).  The bundle
 * reader lists the entries of every input.
 *
 * The same bytes as a raw instruction stream (decoder and printers on
 * arbitrary words) are fuzz_rawdis's, and the threaded printer on raw
 * streams fuzz_textpar's: until session 10 this target did all three on
 * every input (two raw prints of 4 KiB, a threaded one on half the inputs),
 * which was nine tenths of its time, for 5% of inputs accepted as objects.
 * Their seeds include this target's.  Built by tests/fuzz/build.sh
 * (clang-22 -fsanitize=fuzzer,address,undefined,float-cast-overflow).
 */
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int print_co(const void *co, FILE *f, const gcn_text_opts *o)
{
    return gcn_co_print_llvm_text_opt(co, f, o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *out = fuzz_sink();
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
        fuzz_same_text(print_co, co, size, 0, &text);
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
    return 0;
}
