/*
 * test_mem.c -- checks of the decoded fields of vector memory instructions
 * (DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH): the operands the simulator
 * reads (by field tag), the modifier bits, the instance flags
 * (gcn_insn_flags) and the printed text.
 *
 * The instruction bytes come from LLVM: each case is assembled with
 * llvm-mc-22 (LLVM_MC) at test time, and the decoded text must print back
 * exactly as LLVM canonicalizes it.  The one hand-written encoding (the LDS
 * DMA load of the seeds, 0xE0511000 0x80010001) is checked against LLVM's
 * assembler as well.
 *
 * Also: the compiled scalar operand tables (src/decode/mem_tabs.inc) against what mem.c's
 * functions make; `tests/decode/test_mem --write-tabs FILE` writes that file anew.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gcn_decode.h"

/* Assemble one line with llvm-mc; returns the number of bytes (0 on error). */
static size_t assemble(const char *mcpu, const char *text, uint8_t *out, size_t cap)
{
    const char *mc = getenv("LLVM_MC");
    if (!mc || !*mc)
        mc = "llvm-mc-22";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "echo '%s' | %s -triple=amdgcn-amd-amdhsa -mcpu=%s --show-encoding"
             " 2>/dev/null", text, mc, mcpu);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[1024];
    size_t n = 0;
    while (fgets(line, sizeof line, p)) {
        char *e = strstr(line, "encoding: [");
        if (!e)
            continue;
        e += strlen("encoding: [");
        while (*e && *e != ']' && n < cap) {
            out[n++] = (uint8_t)strtoul(e, &e, 0);
            while (*e == ',')
                e++;
        }
    }
    pclose(p);
    return n;
}

typedef struct dec {
    gcn_decoder d;
    gcn_insn in;
    char text[256];
} dec;

/* Assemble TEXT for TARGET, decode it and print it back. */
static int asm_dec(dec *x, gcn_target t, const char *text)
{
    uint8_t b[16];
    memset(x, 0, sizeof *x);
    x->d.target = t;
    size_t n = assemble(gcn_target_name(t), text, b, sizeof b);
    if (n == 0) {
        fprintf(stderr, "llvm-mc could not assemble '%s'\n", text);
        return 0;
    }
    size_t got = gcn_decode_one(&x->d, b, n, 0, &x->in);
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_print_insn(&x->d, &x->in, &sb);
    snprintf(x->text, sizeof x->text, "%s", sb.buf);
    gcn_sb_free(&sb);
    if (got != n || strcmp(x->text, text) != 0) {
        fprintf(stderr, "'%s': decoded %zu of %zu bytes as '%s'\n", text, got, n, x->text);
        return 0;
    }
    return 1;
}

static void dec_words(dec *x, gcn_target t, const uint32_t *w, size_t nw)
{
    uint8_t b[16];
    for (size_t i = 0; i < nw; i++)
        for (int k = 0; k < 4; k++)
            b[4 * i + k] = (uint8_t)(w[i] >> (8 * k));
    memset(x, 0, sizeof *x);
    x->d.target = t;
    gcn_decode_one(&x->d, b, 4 * nw, 0, &x->in);
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    gcn_print_insn(&x->d, &x->in, &sb);
    snprintf(x->text, sizeof x->text, "%s", sb.buf);
    gcn_sb_free(&sb);
}

static int reg_is(const gcn_insn *in, gcn_field f, gcn_opnd_kind kind, unsigned reg, unsigned n)
{
    const gcn_opnd *o = gcn_insn_field(in, f);
    return o && o->kind == kind && o->reg == reg && o->nregs == n;
}

static const gcn_target both[2] = {GCN_TARGET_GFX942, GCN_TARGET_GFX950};

static void test_buffer_lds_dma(void)
{
    static const uint32_t w[2] = {0xE0511000, 0x80010001};
    for (int ti = 0; ti < 2; ti++) {
        uint8_t b[16];
        CU_ASSERT_EQUAL(assemble(gcn_target_name(both[ti]), "buffer_load_dword v1, s[4:7], 0 offen lds",
                                 b, sizeof b), 8);
        CU_ASSERT(memcmp(b, "\x00\x10\x51\xe0\x01\x00\x01\x80", 8) == 0);
        dec x;
        dec_words(&x, both[ti], w, 2);
        const gcn_insn *in = &x.in;
        CU_ASSERT_EQUAL(in->id, GCN_ID_BUFFER_LOAD_DWORD);
        CU_ASSERT_EQUAL(in->enc, GCN_FMT_MUBUF);
        CU_ASSERT_EQUAL(in->size, 8);
        CU_ASSERT_STRING_EQUAL(x.text, "buffer_load_dword v1, s[4:7], 0 offen lds");
        CU_ASSERT_EQUAL(in->m.lds, 1);
        CU_ASSERT_EQUAL(in->m.offen, 1);
        CU_ASSERT_EQUAL(in->m.idxen, 0);
        CU_ASSERT_EQUAL(in->m.offset, 0);
        CU_ASSERT(reg_is(in, GCN_FLD_VADDR, GCN_OPND_VGPR, 1, 1));
        CU_ASSERT(reg_is(in, GCN_FLD_SRSRC, GCN_OPND_SGPR, 4, 4));
        const gcn_opnd *so = gcn_insn_field(in, GCN_FLD_SOFFSET);
        CU_ASSERT(so && so->kind == GCN_OPND_INLINE && so->reg == 128);
        CU_ASSERT_PTR_NULL(gcn_insn_field(in, GCN_FLD_VDATA));     /* data goes to LDS */
        uint64_t f = gcn_insn_flags(in);
        CU_ASSERT((f & (GCN_F_VMCNT | GCN_F_LDS_DMA | GCN_F_RD_M0)) ==
                  (GCN_F_VMCNT | GCN_F_LDS_DMA | GCN_F_RD_M0));
        CU_ASSERT((f & GCN_F_LGKMCNT) == 0);
    }
}

static void test_buffer_plain(void)
{
    dec x;
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX942,
                            "buffer_load_dword v5, v[2:3], s[8:11], s2 idxen offen offset:16 sc0 nt"));
    const gcn_insn *in = &x.in;
    CU_ASSERT(reg_is(in, GCN_FLD_VDATA, GCN_OPND_VGPR, 5, 1));
    CU_ASSERT(gcn_insn_field(in, GCN_FLD_VDATA)->flags & GCN_OPF_DST);
    CU_ASSERT(reg_is(in, GCN_FLD_VADDR, GCN_OPND_VGPR, 2, 2));
    CU_ASSERT(reg_is(in, GCN_FLD_SRSRC, GCN_OPND_SGPR, 8, 4));
    CU_ASSERT(reg_is(in, GCN_FLD_SOFFSET, GCN_OPND_SGPR, 2, 1));
    CU_ASSERT(in->m.idxen == 1 && in->m.offen == 1 && in->m.offset == 16);
    CU_ASSERT(in->m.sc0 == 1 && in->m.nt == 1 && in->m.sc1 == 0 && in->m.lds == 0);
    const gcn_opnd *off = gcn_insn_field(in, GCN_FLD_OFFSET);
    CU_ASSERT(off && off->kind == GCN_OPND_IMM && off->imm == 16);
    uint64_t f = gcn_insn_flags(in);
    CU_ASSERT(f & GCN_F_LOAD);
    CU_ASSERT((f & (GCN_F_LDS_DMA | GCN_F_RD_M0)) == 0);           /* no lds bit */

    /* x3/x4 LDS DMA loads exist on gfx950 only */
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX950, "buffer_load_dwordx4 v1, s[4:7], 0 offen lds"));
    uint32_t w[2] = {x.in.words[0], x.in.words[1]};
    CU_ASSERT(gcn_insn_flags(&x.in) & GCN_F_LDS_DMA);
    dec y;
    dec_words(&y, GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(y.in.id, GCN_ID_INVALID);

    /* an atomic returns data only with sc0 */
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX942, "buffer_atomic_cmpswap v[4:5], off, s[0:3], 0 sc0"));
    CU_ASSERT(gcn_insn_flags(&x.in) & GCN_F_LOAD);
    CU_ASSERT(gcn_insn_field(&x.in, GCN_FLD_VDATA)->flags & GCN_OPF_DST);
    CU_ASSERT_PTR_NULL(gcn_insn_field(&x.in, GCN_FLD_VADDR));
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX942, "buffer_atomic_cmpswap v[4:5], off, s[0:3], 0"));
    CU_ASSERT((gcn_insn_flags(&x.in) & GCN_F_LOAD) == 0);
    CU_ASSERT(gcn_insn_flags(&x.in) & GCN_F_ATOMIC);

    /* gfx950 (disassembler only): soffset 255 takes a literal, 12 bytes; cut
     * short, or on gfx942, the word is invalid */
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX950, "buffer_store_dword v1, v2, s[4:7], 0 offen"));
    uint32_t w3[3] = {x.in.words[0], (x.in.words[1] & 0x00FFFFFFu) | 0xFF000000u, 0x12345};
    dec_words(&y, GCN_TARGET_GFX950, w3, 3);
    CU_ASSERT_EQUAL(y.in.id, GCN_ID_BUFFER_STORE_DWORD);
    CU_ASSERT_EQUAL(y.in.size, 12);
    const gcn_opnd *lit = gcn_insn_field(&y.in, GCN_FLD_SOFFSET);
    CU_ASSERT(lit && lit->kind == GCN_OPND_LITERAL && lit->imm == 0x12345);
    CU_ASSERT(reg_is(&y.in, GCN_FLD_VDATA, GCN_OPND_VGPR, 1, 1));
    CU_ASSERT(gcn_insn_field(&y.in, GCN_FLD_VDATA)->flags & GCN_OPF_SRC);
    dec_words(&y, GCN_TARGET_GFX950, w3, 2);
    CU_ASSERT_EQUAL(y.in.id, GCN_ID_INVALID);
    dec_words(&y, GCN_TARGET_GFX942, w3, 3);
    CU_ASSERT_EQUAL(y.in.id, GCN_ID_INVALID);
}

static void test_mtbuf(void)
{
    dec x;
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX942,
        "tbuffer_load_format_xy v[2:3], off, s[8:11], s3 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offset:4"));
    CU_ASSERT(x.in.m.dfmt == 4 && x.in.m.nfmt == 7 && x.in.m.offset == 4);
    CU_ASSERT(reg_is(&x.in, GCN_FLD_VDATA, GCN_OPND_VGPR, 2, 2));
    CU_ASSERT_PTR_NULL(gcn_insn_field(&x.in, GCN_FLD_VADDR));
    CU_ASSERT(gcn_insn_flags(&x.in) & GCN_F_VMCNT);
}

static void test_global_saddr(void)
{
    for (int ti = 0; ti < 2; ti++) {
        dec x;
        CU_ASSERT_FATAL(asm_dec(&x, both[ti], "global_load_dwordx4 v[8:11], v2, s[4:5] offset:-16"));
        const gcn_insn *in = &x.in;
        CU_ASSERT_EQUAL(in->id, GCN_ID_GLOBAL_LOAD_DWORDX4);
        CU_ASSERT_EQUAL(in->enc, GCN_FMT_GLOBAL);
        CU_ASSERT(reg_is(in, GCN_FLD_VDST, GCN_OPND_VGPR, 8, 4));
        CU_ASSERT(reg_is(in, GCN_FLD_VADDR, GCN_OPND_VGPR, 2, 1));     /* 32-bit offset */
        CU_ASSERT(reg_is(in, GCN_FLD_SADDR, GCN_OPND_SGPR, 4, 2));
        CU_ASSERT_EQUAL(in->m.offset, -16);
        uint64_t f = gcn_insn_flags(in);
        CU_ASSERT((f & (GCN_F_VMCNT | GCN_F_LGKMCNT | GCN_F_LOAD)) == (GCN_F_VMCNT | GCN_F_LOAD));

        CU_ASSERT_FATAL(asm_dec(&x, both[ti], "global_load_dwordx4 a[4:7], v[2:3], off sc0 nt sc1"));
        CU_ASSERT(reg_is(in, GCN_FLD_VDST, GCN_OPND_AGPR, 4, 4));
        CU_ASSERT(reg_is(in, GCN_FLD_VADDR, GCN_OPND_VGPR, 2, 2));     /* 64-bit address */
        CU_ASSERT_PTR_NULL(gcn_insn_field(in, GCN_FLD_SADDR));
        CU_ASSERT(in->m.sc0 && in->m.nt && in->m.sc1);

        CU_ASSERT_FATAL(asm_dec(&x, both[ti], "global_load_lds_dword v2, s[6:7] offset:8"));
        CU_ASSERT(gcn_insn_flags(in) & GCN_F_LDS_DMA);
        CU_ASSERT(gcn_insn_flags(in) & GCN_F_RD_M0);
        CU_ASSERT_PTR_NULL(gcn_insn_field(in, GCN_FLD_VDST));
    }
}

static void test_flat_scratch(void)
{
    dec x;
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX942, "flat_atomic_add v0, v[2:3], v4 offset:12 sc0"));
    CU_ASSERT(reg_is(&x.in, GCN_FLD_VDST, GCN_OPND_VGPR, 0, 1));
    CU_ASSERT(reg_is(&x.in, GCN_FLD_VADDR, GCN_OPND_VGPR, 2, 2));
    CU_ASSERT(reg_is(&x.in, GCN_FLD_VDATA, GCN_OPND_VGPR, 4, 1));
    uint64_t f = gcn_insn_flags(&x.in);
    CU_ASSERT((f & (GCN_F_VMCNT | GCN_F_LGKMCNT | GCN_F_LOAD | GCN_F_ATOMIC)) ==
              (GCN_F_VMCNT | GCN_F_LGKMCNT | GCN_F_LOAD | GCN_F_ATOMIC));
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX942, "flat_atomic_add v[2:3], v4 offset:12"));
    CU_ASSERT_PTR_NULL(gcn_insn_field(&x.in, GCN_FLD_VDST));
    CU_ASSERT((gcn_insn_flags(&x.in) & GCN_F_LOAD) == 0);

    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX950, "scratch_store_dword off, v2, s3 offset:-4"));
    CU_ASSERT_EQUAL(x.in.enc, GCN_FMT_SCRATCH);
    CU_ASSERT_PTR_NULL(gcn_insn_field(&x.in, GCN_FLD_VADDR));
    CU_ASSERT(reg_is(&x.in, GCN_FLD_VDATA, GCN_OPND_VGPR, 2, 1));
    CU_ASSERT(reg_is(&x.in, GCN_FLD_SADDR, GCN_OPND_SGPR, 3, 1));
    CU_ASSERT_EQUAL(x.in.m.offset, -4);
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX950, "scratch_load_dwordx2 v[4:5], v7, off"));
    CU_ASSERT(reg_is(&x.in, GCN_FLD_VADDR, GCN_OPND_VGPR, 7, 1));
    CU_ASSERT_PTR_NULL(gcn_insn_field(&x.in, GCN_FLD_SADDR));
}

static void test_ds(void)
{
    for (int ti = 0; ti < 2; ti++) {
        dec x;
        CU_ASSERT_FATAL(asm_dec(&x, both[ti], "ds_read2_b32 v[4:5], v1 offset0:3 offset1:7"));
        const gcn_insn *in = &x.in;
        CU_ASSERT_EQUAL(in->id, GCN_ID_DS_READ2_B32);
        CU_ASSERT(reg_is(in, GCN_FLD_VDST, GCN_OPND_VGPR, 4, 2));
        CU_ASSERT(reg_is(in, GCN_FLD_ADDR, GCN_OPND_VGPR, 1, 1));
        CU_ASSERT(in->m.offset0 == 3 && in->m.offset1 == 7);
        uint64_t f = gcn_insn_flags(in);
        CU_ASSERT((f & (GCN_F_LGKMCNT | GCN_F_VMCNT | GCN_F_LOAD)) == (GCN_F_LGKMCNT | GCN_F_LOAD));
        CU_ASSERT((f & GCN_F_RD_M0) == 0);

        CU_ASSERT_FATAL(asm_dec(&x, both[ti], "ds_write2_b64 v1, a[2:3], a[6:7] offset1:255"));
        CU_ASSERT(reg_is(in, GCN_FLD_DATA0, GCN_OPND_AGPR, 2, 2));
        CU_ASSERT(reg_is(in, GCN_FLD_DATA1, GCN_OPND_AGPR, 6, 2));
        CU_ASSERT(in->m.offset0 == 0 && in->m.offset1 == 255);

        CU_ASSERT_FATAL(asm_dec(&x, both[ti], "ds_add_rtn_u64 v[2:3], v1, v[4:5] offset:65535"));
        CU_ASSERT_EQUAL(in->m.offset, 65535);
        CU_ASSERT(gcn_insn_flags(in) & GCN_F_ATOMIC);

        CU_ASSERT_FATAL(asm_dec(&x, both[ti], "ds_append v3"));
        CU_ASSERT(gcn_insn_flags(in) & GCN_F_RD_M0);
    }
    dec x;
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX950, "ds_read_b64_tr_b16 v[2:3], v1 offset:8"));
    CU_ASSERT(reg_is(&x.in, GCN_FLD_VDST, GCN_OPND_VGPR, 2, 2));
    uint32_t w[2] = {x.in.words[0], x.in.words[1]};
    dec y;
    dec_words(&y, GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(y.in.id, GCN_ID_INVALID);                       /* gfx950 only */
    CU_ASSERT_FATAL(asm_dec(&x, GCN_TARGET_GFX942,
                            "ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,\"01pip\")"));
    /* a DS word whose unused field is not zero is no instruction (LLVM agrees) */
    w[0] = x.in.words[0];
    w[1] = x.in.words[1] | (7u << 8);                               /* data0 = v7 */
    dec_words(&y, GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(y.in.id, GCN_ID_INVALID);
}

/* mem_tabs.inc is what the operand functions make */
static void test_compiled_tabs(void)
{
    CU_ASSERT_EQUAL(gcn_mem_tabs_check(stderr), 0);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write-tabs")) {
        FILE *f = fopen(argv[2], "w");
        if (!f || gcn_mem_tabs_write(f) || fclose(f)) {
            fprintf(stderr, "test_mem: cannot write %s\n", argv[2]);
            return 1;
        }
        return 0;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("mem", NULL, NULL);
    CU_add_test(s, "MUBUF LDS DMA load (seed encoding)", test_buffer_lds_dma);
    CU_add_test(s, "MUBUF fields, atomics, gfx950 forms", test_buffer_plain);
    CU_add_test(s, "MTBUF format", test_mtbuf);
    CU_add_test(s, "GLOBAL saddr / off / lds", test_global_saddr);
    CU_add_test(s, "FLAT atomics, SCRATCH forms", test_flat_scratch);
    CU_add_test(s, "DS offsets, acc, gfx950 forms", test_ds);
    CU_add_test(s, "compiled tables", test_compiled_tabs);
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
