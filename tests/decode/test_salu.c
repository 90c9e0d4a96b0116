/*
 * test_salu.c -- checks of the scalar decoder (salu.c) that the simulator
 * and the linter rely on: decoded operand kinds, registers, fields, roles
 * and modifier fields, row flags, sizes, and gcn_waitcnt_fields().
 *
 * Words are built from their fields with the GFX9 encoding layout (LLVM
 * SOPInstructions.td / SMInstructions.td), so every expectation is the
 * input read back; the printed text is compared with LLVM 22 by
 * tests/decode/sweep.py, not here.
 *
 * Also: the compiled value and text tables (src/decode/salu_tabs.inc) against what salu.c's
 * tabs_build() makes; `tests/decode/test_salu --write-tabs FILE` writes that file anew
 * (after a change of dec_ssrc() or print_reg_opnd()).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>
#include "gcn_decode.h"

static const gcn_target targets[2] = {GCN_TARGET_GFX942, GCN_TARGET_GFX950};

/* encoders (field layout only) */
static uint32_t sop2(unsigned op, unsigned sdst, unsigned s0, unsigned s1)
{
    return 0x80000000u | op << 23 | sdst << 16 | s1 << 8 | s0;
}
static uint32_t sop1(unsigned op, unsigned sdst, unsigned s0)
{
    return 0xBE800000u | sdst << 16 | op << 8 | s0;
}
static uint32_t sopk(unsigned op, unsigned sdst, unsigned k)
{
    return 0xB0000000u | op << 23 | sdst << 16 | k;
}
static uint32_t sopp(unsigned op, unsigned k)
{
    return 0xBF800000u | op << 16 | k;
}
static uint32_t smem0(unsigned op, unsigned sdata, unsigned sbase_reg, unsigned imm,
                      unsigned soe, unsigned glc)
{
    return 0xC0000000u | op << 18 | imm << 17 | glc << 16 | soe << 14 | sdata << 6 |
           sbase_reg / 2;
}

static size_t decode(gcn_target t, const uint32_t *w, size_t nw, gcn_insn *in)
{
    uint8_t b[16];
    for (size_t i = 0; i < nw; i++)
        for (int j = 0; j < 4; j++)
            b[4 * i + j] = (uint8_t)(w[i] >> (8 * j));
    gcn_decoder d = {t};
    return gcn_decode_one(&d, b, 4 * nw, 0x100, in);
}

static unsigned opcode_of(gcn_target t, unsigned id)
{
    return gcn_isa_row_of(id)->op[t == GCN_TARGET_GFX942 ? 0 : 1];
}

static void expect_reg(const gcn_insn *in, gcn_field f, gcn_opnd_kind kind, unsigned reg,
                       unsigned nregs, unsigned flags)
{
    const gcn_opnd *o = gcn_insn_field(in, f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_EQUAL(o->kind, kind);
    CU_ASSERT_EQUAL(o->reg, reg);
    CU_ASSERT_EQUAL(o->nregs, nregs);
    CU_ASSERT_EQUAL(o->flags & (GCN_OPF_DST | GCN_OPF_SRC), flags);
}

/* s_waitcnt: every (vmcnt, expcnt, lgkmcnt) encoded with the GFX9 layout
 * reads back through gcn_waitcnt_fields(). */
static void test_waitcnt_fields(void)
{
    for (int ti = 0; ti < 2; ti++) {
        unsigned op = opcode_of(targets[ti], GCN_ID_S_WAITCNT);
        CU_ASSERT_FATAL(op != NONE);
        for (unsigned vm = 0; vm < 64; vm++)
            for (unsigned exp = 0; exp < 8; exp++)
                for (unsigned lgkm = 0; lgkm < 16; lgkm++) {
                    unsigned k = (vm & 15) | (vm >> 4) << 14 | exp << 4 | lgkm << 8;
                    uint32_t w = sopp(op, k);
                    gcn_insn in;
                    CU_ASSERT_EQUAL(decode(targets[ti], &w, 1, &in), 4);
                    CU_ASSERT_EQUAL(in.id, GCN_ID_S_WAITCNT);
                    unsigned a = 99, b = 99, c = 99;
                    gcn_waitcnt_fields(&in, &a, &b, &c);
                    if (a != vm || b != exp || c != lgkm) {
                        fprintf(stderr, "waitcnt 0x%04x: got %u %u %u\n", k, a, b, c);
                        CU_FAIL("waitcnt fields");
                        return;
                    }
                }
        /* the unused bits 7, 12, 13 do not change the counters */
        uint32_t w = sopp(op, 0x3080 | 0x0f7f);
        gcn_insn in;
        decode(targets[ti], &w, 1, &in);
        unsigned a, b, c;
        gcn_waitcnt_fields(&in, &a, &b, &c);
        CU_ASSERT(a == 15 && b == 7 && c == 15);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_WAITCNT);
        /* another instruction: no wait */
        w = sopp(opcode_of(targets[ti], GCN_ID_S_NOP), 0);
        decode(targets[ti], &w, 1, &in);
        gcn_waitcnt_fields(&in, &a, &b, &c);
        CU_ASSERT(a == 63 && b == 7 && c == 15);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_NOP);
    }
}

static void test_smem_load(void)
{
    for (int ti = 0; ti < 2; ti++) {
        gcn_insn in;
        unsigned op = opcode_of(targets[ti], GCN_ID_S_LOAD_DWORDX4);
        /* s_load_dwordx4 s[8:11], s[4:5], 0x10 */
        uint32_t w[2] = {smem0(op, 8, 4, 1, 0, 0), 0x10};
        CU_ASSERT_EQUAL(decode(targets[ti], w, 2, &in), 8);
        CU_ASSERT_EQUAL(in.id, GCN_ID_S_LOAD_DWORDX4);
        CU_ASSERT_EQUAL(in.enc, GCN_FMT_SMEM);
        uint64_t f = gcn_isa_row_of(in.id)->flags;
        CU_ASSERT((f & (GCN_F_LGKMCNT | GCN_F_SMEM_OOO)) == (GCN_F_LGKMCNT | GCN_F_SMEM_OOO));
        CU_ASSERT(f & GCN_F_LOAD);
        CU_ASSERT(!(f & (GCN_F_STORE | GCN_F_VMCNT)));
        CU_ASSERT_EQUAL(gcn_isa_row_of(in.id)->unit, GCN_UNIT_SMEM);
        expect_reg(&in, GCN_FLD_SDATA, GCN_OPND_SGPR, 8, 4, GCN_OPF_DST);
        expect_reg(&in, GCN_FLD_SBASE, GCN_OPND_SGPR, 4, 2, GCN_OPF_SRC);
        const gcn_opnd *o = gcn_insn_field(&in, GCN_FLD_OFFSET);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        CU_ASSERT_EQUAL(o->imm, 0x10);
        CU_ASSERT_EQUAL(in.m.offset, 0x10);
        CU_ASSERT_PTR_NULL(gcn_insn_field(&in, GCN_FLD_SOFFSET));

        /* negative 21-bit offset, soffset from the second dword (soe) */
        w[0] = smem0(op, 8, 4, 1, 1, 1);
        w[1] = 20u << 25 | 0x1ffff0;
        CU_ASSERT_EQUAL(decode(targets[ti], w, 2, &in), 8);
        CU_ASSERT_EQUAL(in.m.offset, -16);
        CU_ASSERT_EQUAL(in.m.glc, 1);
        expect_reg(&in, GCN_FLD_SOFFSET, GCN_OPND_SGPR, 20, 1, GCN_OPF_SRC);

        /* soffset in offset[6:0] (imm = 0, soe = 0) */
        w[0] = smem0(op, 8, 4, 0, 0, 0);
        w[1] = 0x7c;                     /* m0 */
        CU_ASSERT_EQUAL(decode(targets[ti], w, 2, &in), 8);
        expect_reg(&in, GCN_FLD_SOFFSET, GCN_OPND_SPECIAL, 124, 1, GCN_OPF_SRC);
        CU_ASSERT_PTR_NULL(gcn_insn_field(&in, GCN_FLD_OFFSET));

        /* an SMEM word without its second dword is no instruction */
        CU_ASSERT_EQUAL(decode(targets[ti], w, 1, &in), 4);
        CU_ASSERT_EQUAL(in.id, GCN_ID_INVALID);

        /* buffer loads: 128-bit base, aligned down to 4 */
        op = opcode_of(targets[ti], GCN_ID_S_BUFFER_LOAD_DWORD);
        w[0] = smem0(op, 3, 6, 1, 0, 0);
        w[1] = 0;
        CU_ASSERT_EQUAL(decode(targets[ti], w, 2, &in), 8);
        expect_reg(&in, GCN_FLD_SBASE, GCN_OPND_SGPR, 4, 4, GCN_OPF_SRC);
        expect_reg(&in, GCN_FLD_SDATA, GCN_OPND_SGPR, 3, 1, GCN_OPF_DST);
    }
}

static void test_smem_store_atomic_time(void)
{
    for (int ti = 0; ti < 2; ti++) {
        gcn_insn in;
        uint32_t w[2] = {smem0(opcode_of(targets[ti], GCN_ID_S_STORE_DWORDX2), 10, 2, 1, 0, 0),
                         8};
        CU_ASSERT_EQUAL(decode(targets[ti], w, 2, &in), 8);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_STORE);
        expect_reg(&in, GCN_FLD_SDATA, GCN_OPND_SGPR, 10, 2, GCN_OPF_SRC);

        /* atomics return data only with glc */
        unsigned op = opcode_of(targets[ti], GCN_ID_S_ATOMIC_ADD);
        w[0] = smem0(op, 5, 2, 1, 0, 0);
        CU_ASSERT_EQUAL(decode(targets[ti], w, 2, &in), 8);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_ATOMIC);
        expect_reg(&in, GCN_FLD_SDATA, GCN_OPND_SGPR, 5, 1, GCN_OPF_SRC);
        w[0] = smem0(op, 5, 2, 1, 0, 1);
        CU_ASSERT_EQUAL(decode(targets[ti], w, 2, &in), 8);
        expect_reg(&in, GCN_FLD_SDATA, GCN_OPND_SGPR, 5, 1, GCN_OPF_SRC | GCN_OPF_DST);

        /* s_memtime: no address, imm must be 0 */
        op = opcode_of(targets[ti], GCN_ID_S_MEMTIME);
        w[0] = smem0(op, 12, 0, 0, 0, 0);
        CU_ASSERT_EQUAL(decode(targets[ti], w, 2, &in), 8);
        CU_ASSERT_EQUAL(in.id, GCN_ID_S_MEMTIME);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_LGKMCNT);
        expect_reg(&in, GCN_FLD_SDATA, GCN_OPND_SGPR, 12, 2, GCN_OPF_DST);
        w[0] = smem0(op, 12, 0, 1, 0, 0);
        decode(targets[ti], w, 2, &in);
        CU_ASSERT_EQUAL(in.id, GCN_ID_INVALID);
    }
}

static void test_sop(void)
{
    for (int ti = 0; ti < 2; ti++) {
        gcn_target t = targets[ti];
        gcn_insn in;
        /* s_add_u32 s10, s40, 0x12345678 */
        uint32_t w[2] = {sop2(opcode_of(t, GCN_ID_S_ADD_U32), 10, 40, 255), 0x12345678};
        CU_ASSERT_EQUAL(decode(t, w, 2, &in), 8);
        CU_ASSERT_EQUAL(in.id, GCN_ID_S_ADD_U32);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_WR_SCC);
        expect_reg(&in, GCN_FLD_SDST, GCN_OPND_SGPR, 10, 1, GCN_OPF_DST);
        expect_reg(&in, GCN_FLD_SSRC0, GCN_OPND_SGPR, 40, 1, GCN_OPF_SRC);
        const gcn_opnd *o = gcn_insn_field(&in, GCN_FLD_SSRC1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        CU_ASSERT_EQUAL(o->kind, GCN_OPND_LITERAL);
        CU_ASSERT_EQUAL(o->imm, 0x12345678);
        CU_ASSERT(in.has_literal && in.literal == 0x12345678);
        /* the literal dword missing: invalid */
        CU_ASSERT_EQUAL(decode(t, w, 1, &in), 4);
        CU_ASSERT_EQUAL(in.id, GCN_ID_INVALID);

        /* s_and_b64 s[10:11] from an unaligned sdst 11, inline constant -1, exec */
        w[0] = sop2(opcode_of(t, GCN_ID_S_AND_B64), 11, 193, 126);
        CU_ASSERT_EQUAL(decode(t, w, 1, &in), 4);
        expect_reg(&in, GCN_FLD_SDST, GCN_OPND_SGPR, 10, 2, GCN_OPF_DST);
        expect_reg(&in, GCN_FLD_SSRC0, GCN_OPND_INLINE, 193, 2, GCN_OPF_SRC);
        expect_reg(&in, GCN_FLD_SSRC1, GCN_OPND_SPECIAL, 126, 2, GCN_OPF_SRC);
        /* odd halves of 64-bit specials are invalid */
        w[0] = sop2(opcode_of(t, GCN_ID_S_AND_B64), 10, 107, 0);
        decode(t, w, 1, &in);
        CU_ASSERT_EQUAL(in.id, GCN_ID_INVALID);

        /* s_and_saveexec_b64 s[4:5], s[6:7] */
        w[0] = sop1(opcode_of(t, GCN_ID_S_AND_SAVEEXEC_B64), 4, 6);
        CU_ASSERT_EQUAL(decode(t, w, 1, &in), 4);
        uint64_t f = gcn_isa_row_of(in.id)->flags;
        CU_ASSERT((f & (GCN_F_RD_EXEC | GCN_F_WR_EXEC | GCN_F_WR_SCC)) ==
                  (GCN_F_RD_EXEC | GCN_F_WR_EXEC | GCN_F_WR_SCC));
        expect_reg(&in, GCN_FLD_SDST, GCN_OPND_SGPR, 4, 2, GCN_OPF_DST);
        expect_reg(&in, GCN_FLD_SSRC0, GCN_OPND_SGPR, 6, 2, GCN_OPF_SRC);

        /* s_movk_i32 ttmp3, 0x8000; s_cmpk_lt_i32 reads its sdst */
        w[0] = sopk(opcode_of(t, GCN_ID_S_MOVK_I32), 111, 0x8000);
        CU_ASSERT_EQUAL(decode(t, w, 1, &in), 4);
        expect_reg(&in, GCN_FLD_SDST, GCN_OPND_TTMP, 3, 1, GCN_OPF_DST);
        o = gcn_insn_field(&in, GCN_FLD_SIMM16);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        CU_ASSERT_EQUAL(o->imm, 0x8000);
        w[0] = sopk(opcode_of(t, GCN_ID_S_CMPK_LT_I32), 3, 7);
        CU_ASSERT_EQUAL(decode(t, w, 1, &in), 4);
        expect_reg(&in, GCN_FLD_SDST, GCN_OPND_SGPR, 3, 1, GCN_OPF_SRC);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_WR_SCC);

        /* s_setreg_imm32_b32 takes a second dword */
        w[0] = sopk(opcode_of(t, GCN_ID_S_SETREG_IMM32_B32), 0, 0x0801);
        w[1] = 0xdeadbeef;
        CU_ASSERT_EQUAL(decode(t, w, 2, &in), 8);
        o = gcn_insn_field(&in, GCN_FLD_SSRC0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        CU_ASSERT_EQUAL(o->kind, GCN_OPND_LITERAL);
        CU_ASSERT_EQUAL((uint32_t)o->imm, 0xdeadbeefu);
    }
}

static void test_sopp_branch(void)
{
    for (int ti = 0; ti < 2; ti++) {
        gcn_target t = targets[ti];
        gcn_insn in;
        /* s_cbranch_scc1 -3 words: label operand is the signed offset */
        uint32_t w = sopp(opcode_of(t, GCN_ID_S_CBRANCH_SCC1), 0xfffd);
        CU_ASSERT_EQUAL(decode(t, &w, 1, &in), 4);
        uint64_t f = gcn_isa_row_of(in.id)->flags;
        CU_ASSERT((f & (GCN_F_BRANCH | GCN_F_RD_SCC)) == (GCN_F_BRANCH | GCN_F_RD_SCC));
        const gcn_opnd *o = gcn_insn_field(&in, GCN_FLD_SIMM16);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        CU_ASSERT_EQUAL(o->kind, GCN_OPND_LABEL);
        CU_ASSERT_EQUAL(o->imm, -3);

        w = sopp(opcode_of(t, GCN_ID_S_CBRANCH_VCCZ), 1);
        decode(t, &w, 1, &in);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_RD_VCC);
        w = sopp(opcode_of(t, GCN_ID_S_CBRANCH_EXECNZ), 1);
        decode(t, &w, 1, &in);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_RD_EXEC);

        /* s_endpgm, s_barrier (no operand; non-zero simm16 is invalid) */
        w = sopp(opcode_of(t, GCN_ID_S_ENDPGM), 0);
        decode(t, &w, 1, &in);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_ENDPGM);
        w = sopp(opcode_of(t, GCN_ID_S_BARRIER), 0);
        decode(t, &w, 1, &in);
        CU_ASSERT_EQUAL(in.id, GCN_ID_S_BARRIER);
        CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_BARRIER);
        CU_ASSERT_EQUAL(in.nopnds, 0);
        w = sopp(opcode_of(t, GCN_ID_S_BARRIER), 1);
        decode(t, &w, 1, &in);
        CU_ASSERT_EQUAL(in.id, GCN_ID_INVALID);

        /* s_sendmsg reads m0 and counts in lgkmcnt */
        w = sopp(opcode_of(t, GCN_ID_S_SENDMSG), 3);
        decode(t, &w, 1, &in);
        f = gcn_isa_row_of(in.id)->flags;
        CU_ASSERT((f & (GCN_F_LGKMCNT | GCN_F_RD_M0)) == (GCN_F_LGKMCNT | GCN_F_RD_M0));
        CU_ASSERT_EQUAL(gcn_isa_row_of(in.id)->unit, GCN_UNIT_MSG);
    }
}

/* Every row decodes from its own opcode and prints its mnemonic with no
 * unknown operand ("?"); whether the text is LLVM's is sweep.py's job. */
static void test_print_every_row(void)
{
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    for (int ti = 0; ti < 2; ti++) {
        gcn_decoder d = {targets[ti]};
        for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
            const gcn_isa_row *r = gcn_isa_row_of(id);
            unsigned op = r->op[ti];
            if (op == NONE || r->fmt < GCN_FMT_SOP2 || r->fmt > GCN_FMT_SMEM)
                continue;
            uint32_t w[2] = {0, 0};
            switch (r->fmt) {
            case GCN_FMT_SOP2: w[0] = sop2(op, 2, 4, 6); break;
            case GCN_FMT_SOP1: w[0] = sop1(op, 2, 4); break;
            case GCN_FMT_SOPK: w[0] = sopk(op, 2, 0); break;
            case GCN_FMT_SOPC: w[0] = 0xBF000000u | op << 16 | 4 << 8 | 2; break;
            case GCN_FMT_SOPP: w[0] = sopp(op, 0); break;
            default: w[0] = smem0(op, 8, 4, 0, 0, 0); break;
            }
            gcn_insn in;
            uint8_t b[8];
            for (int i = 0; i < 8; i++)
                b[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
            gcn_decode_one(&d, b, 8, 0, &in);
            if (in.id != id) {
                fprintf(stderr, "%s on %s: decoded as %u\n", r->id_name,
                        gcn_target_name(targets[ti]), in.id);
                CU_FAIL("row does not decode");
                continue;
            }
            gcn_sb_reset(&sb);
            gcn_print_insn(&d, &in, &sb);
            CU_ASSERT(strncmp(sb.buf, r->mnem, strlen(r->mnem)) == 0);
            CU_ASSERT(strchr(sb.buf, '?') == NULL);
        }
    }
    gcn_sb_free(&sb);
}

/* salu_tabs.inc is what tabs_build() makes */
static void test_compiled_tabs(void)
{
    CU_ASSERT_EQUAL(gcn_salu_tabs_check(stderr), 0);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write-tabs")) {
        FILE *f = fopen(argv[2], "w");
        if (!f || gcn_salu_tabs_write(f) || fclose(f)) {
            fprintf(stderr, "test_salu: cannot write %s\n", argv[2]);
            return 1;
        }
        return 0;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("salu", NULL, NULL);
    CU_add_test(s, "s_waitcnt fields", test_waitcnt_fields);
    CU_add_test(s, "SMEM loads", test_smem_load);
    CU_add_test(s, "SMEM stores, atomics, s_memtime", test_smem_store_atomic_time);
    CU_add_test(s, "SOP2/SOP1/SOPK operands", test_sop);
    CU_add_test(s, "SOPP branches and control", test_sopp_branch);
    CU_add_test(s, "every row decodes and prints", test_print_every_row);
    CU_add_test(s, "compiled tables", test_compiled_tabs);
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
