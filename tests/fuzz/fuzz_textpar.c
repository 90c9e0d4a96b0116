/*
 * fuzz_textpar.c -- libFuzzer target for the threaded one-instruction-per-
 * line printer (textpar.c) on raw instruction streams: each input's first
 * 4 KiB are printed on one thread, into a buffer kept from input to input,
 * and again on three threads with parts down to 4 bytes (so chunk
 * boundaries fall inside instructions, and the chains must fall into step
 * as one thread decodes); the two texts must be the same
 * (fuzz_text.h: the threads' options come from the input's size, so every
 * option is taken and an input always runs the same way).  Two forms, by
 * the size: offsets and sizes (mode 2) on both; or the addressed lines
 * (mode 0) on one thread and the text alone (mode 1) on three, which must
 * be the addressed lines without their first 38 bytes (address and words,
 * "%08llx: " and the words padded to 28), so the two formats are checked
 * against each other too.  gfx942 or gfx950 by another bit of the size.
 * fuzz_all.sh and run.sh give it inputs of up to 2 KiB (-max_len=2048):
 * the at most 36 chunks are cut inside instructions there already, and
 * longer streams add decoding, which is fuzz_rawdis's (per CPU second 1.4x
 * the executions of 4 KiB, the same coverage in the same time).
 *
 * Until session 10 fuzz_codeobj did this on half its inputs besides reading
 * them as code objects and printing them twice more; the code object's
 * threaded text is still checked there, on every accepted object.  The
 * seeds are fuzz_rawdis's, and the inputs that found the two bugs of the
 * threaded printer (textpar_*).  Built by tests/fuzz/build.sh.
 */
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ref's lines without their first 38 bytes (address and words), into cut;
 * each line must have them.  The harness's, not code under test: no
 * coverage or comparison tracing. */
static FUZZ_NOCOV void cut_prefix(const membuf *ref, membuf *cut)
{
    mb_open(cut);
    for (size_t i = 0; i < ref->n;) {
        const char *nl = memchr(ref->b + i, '\n', ref->n - i);
        size_t e = nl ? (size_t)(nl - ref->b) + 1 : ref->n;
        if (e - i < 39 || ref->b[i + 8] != ':')
            abort();
        mb_write(cut, ref->b + i + 38, e - i - 38);
        i = e;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static membuf ref, cut;
    size_t rl = size < FUZZ_RAW_MAX ? size : FUZZ_RAW_MAX;
    gcn_target t = (((uint32_t)size * 2654435761u) >> 31) ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942;
    if ((size >> 2) & 1) {
        struct fuzz_raw w = {t, 2, data, rl};
        if (fuzz_print_raw(&w, mb_open(&ref), NULL) != 0)
            abort();
        fuzz_same_text(fuzz_print_raw, &w, size, 1, &ref);
        return 0;
    }
    struct fuzz_raw w0 = {t, 0, data, rl}, w1 = {t, 1, data, rl};
    if (fuzz_print_raw(&w0, mb_open(&ref), NULL) != 0)
        abort();
    cut_prefix(&ref, &cut);
    fuzz_same_text(fuzz_print_raw, &w1, size, 1, &cut);
    return 0;
}
