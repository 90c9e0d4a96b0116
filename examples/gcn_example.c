/*
 * gcn_example.c -- a small program using the installed gcnsim library (libgcn,
 * docs/library.md): it reads an AMDGPU code object, counts the instructions of each
 * kernel with the decoder, and runs one MFMA through the matrix-core model, checking
 * its result against a plain C matrix product.
 *
 *   cc gcn_example.c $(pkg-config --cflags --libs gcnsim) -o gcn_example
 *   ./gcn_example FILE.hsaco              summary and the MFMA check
 *   ./gcn_example --llvm-text FILE.hsaco  the disassembly, as `gcndis --llvm-text` prints it
 *
 * Exit status: 0 ok, 1 usage, 2 the file is unreadable or no code object, 3 the MFMA
 * result differs from the C product.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gcn_codeobj.h>
#include <gcn_decode.h>
#include <gcn_mfma.h>

/* v_mfma_f32_16x16x4_f32 v[0:3], v4, v5, v[0:3] (llvm-mc-22 -mcpu=gfx942 -show-encoding) */
static const uint8_t mfma_bytes[8] = {0x00, 0x00, 0xc5, 0xd3, 0x04, 0x0b, 0x02, 0x04};

static float get_f32(const uint32_t *regs, const gcn_mfma_place *p)
{
    float f;
    uint32_t w = regs[p->reg * 64 + p->lane];
    memcpy(&f, &w, sizeof f);
    return f;
}

static void set_f32(uint32_t *regs, const gcn_mfma_place *p, float f)
{
    memcpy(&regs[p->reg * 64 + p->lane], &f, sizeof f);
}

/* Run the MFMA on small integers (exact in f32) and compare D with A*B + C computed
 * here; prints one line; returns the number of elements that differ, -1 on error. */
static int mfma_check(void)
{
    gcn_decoder d = {.target = GCN_TARGET_GFX942};
    gcn_insn in;
    gcn_decode_one(&d, mfma_bytes, sizeof mfma_bytes, 0, &in);
    gcn_strbuf text;
    gcn_sb_init(&text);
    gcn_print_insn(&d, &in, &text);
    gcn_mfma_info mi;
    char err[256];
    if (gcn_mfma_info_get(&in, d.target, &mi, err, sizeof err)) {
        fprintf(stderr, "gcn_example: %s\n", err);
        gcn_sb_free(&text);
        return -1;
    }
    uint32_t *a = calloc(mi.regs_a * 64, 4), *b = calloc(mi.regs_b * 64, 4);
    uint32_t *c = calloc(mi.regs_c * 64, 4), *dd = calloc(mi.regs_d * 64, 4);
    int bad = 0, n = 0;
    gcn_mfma_place p;
    for (unsigned blk = 0; blk < mi.blocks; blk++) {
        for (unsigned i = 0; i < mi.m; i++)
            for (unsigned k = 0; k < mi.k; k++)
                if (!gcn_mfma_layout(&in, d.target, 'A', blk, i, k, &p))
                    set_f32(a, &p, (float)((int)i - 2 * (int)k + (int)blk));
        for (unsigned k = 0; k < mi.k; k++)
            for (unsigned j = 0; j < mi.n; j++)
                if (!gcn_mfma_layout(&in, d.target, 'B', blk, k, j, &p))
                    set_f32(b, &p, (float)((int)j + (int)k - 3));
        for (unsigned i = 0; i < mi.m; i++)
            for (unsigned j = 0; j < mi.n; j++)
                if (!gcn_mfma_layout(&in, d.target, 'C', blk, i, j, &p))
                    set_f32(c, &p, (float)(i * j));
    }
    if (gcn_mfma_exec(&in, d.target, a, b, c, dd, ~0ull)) {
        fprintf(stderr, "gcn_example: gcn_mfma_exec failed\n");
        bad = -1;
    } else {
        for (unsigned blk = 0; blk < mi.blocks; blk++)
            for (unsigned i = 0; i < mi.m; i++)
                for (unsigned j = 0; j < mi.n; j++) {
                    float want = (float)(i * j);
                    for (unsigned k = 0; k < mi.k; k++)
                        want += (float)((int)i - 2 * (int)k + (int)blk) * (float)((int)j + (int)k - 3);
                    if (gcn_mfma_layout(&in, d.target, 'D', blk, i, j, &p) || get_f32(dd, &p) != want)
                        bad++;
                    n++;
                }
        printf("mfma %s: %ux%ux%u, %u block(s): %d of %d elements of D = A*B + C equal to the C product\n",
               text.buf, mi.m, mi.n, mi.k, mi.blocks, n - bad, n);
    }
    free(a), free(b), free(c), free(dd);
    gcn_sb_free(&text);
    return bad;
}

int main(int argc, char **argv)
{
    int llvm_text = argc == 3 && !strcmp(argv[1], "--llvm-text");
    if (argc != 2 + llvm_text || argv[1 + llvm_text][0] == '-') {
        fprintf(stderr, "usage: gcn_example [--llvm-text] FILE.hsaco\n");
        return 1;
    }
    const char *path = argv[1 + llvm_text];
    gcn_codeobj *co;
    gcn_co_err e;
    if (gcn_co_open(path, &co, &e)) {
        fprintf(stderr, "gcn_example: %s\n", e.msg);
        return 2;
    }
    if (llvm_text) {
        int rc = gcn_co_print_llvm_text(co, stdout);
        gcn_co_close(co);
        return rc ? 2 : 0;
    }
    printf("%s: %s, code object v%u, %u kernel(s)\n", path, gcn_target_name(co->target),
           co->code_object_version, co->nkernels);
    gcn_decoder d = {.target = co->target};
    for (unsigned i = 0; i < co->nkernels; i++) {
        const gcn_kernel *k = &co->kernels[i];
        uint64_t off = k->entry_addr - co->text_addr, end = off + k->code_size;
        unsigned n = 0, invalid = 0;
        while (k->code_size && off < end && end <= co->text_size) {
            gcn_insn in;
            off += gcn_decode_one(&d, co->text + off, end - off, co->text_addr + off, &in);
            n++;
            invalid += in.id == GCN_ID_INVALID;
        }
        printf("  kernel %s: %llu bytes of code, %u instructions (%u invalid), %u arguments\n",
               k->name, (unsigned long long)k->code_size, n, invalid, k->nargs);
    }
    gcn_co_close(co);
    int bad = mfma_check();
    return bad == 0 ? 0 : bad < 0 ? 2 : 3;
}
