/*
 * test_valu.c -- checks of the decoded operand records of VOP1/VOP2/VOPC/
 * VOP3/SDWA/DPP instructions: field tags, register kinds and counts, data
 * types, modifiers and sizes, which the simulator reads (the printed text is
 * checked against LLVM by tests/decode/sweep.py).  The words are encoded by
 * hand from the GFX9/CDNA encodings; the comments give LLVM 22's text for
 * each (llvm-mc-22 --disassemble).
 *
 * Also: the compiled operand tables (src/decode/valu_tabs.inc) against what valu.c's
 * operand code makes, and every row's kinds in them; `tests/decode/test_valu --write-tabs
 * FILE` writes that file anew (after a change of the operand code or of the rows).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>
#include "gcn_decode.h"

static gcn_insn dec(gcn_target t, const uint32_t *w, size_t nw)
{
    uint8_t b[16];
    for (size_t i = 0; i < nw; i++)
        for (int k = 0; k < 4; k++)
            b[4 * i + k] = (uint8_t)(w[i] >> (8 * k));
    gcn_decoder d = {.target = t};
    gcn_insn in;
    gcn_decode_one(&d, b, 4 * nw, 0, &in);
    return in;
}

static const gcn_opnd *fld(const gcn_insn *in, gcn_field f)
{
    return gcn_insn_field(in, f);
}

static void check_reg(const gcn_opnd *o, gcn_opnd_kind kind, unsigned reg, unsigned n,
                      gcn_dtype dt)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_EQUAL(o->kind, kind);
    CU_ASSERT_EQUAL(o->reg, reg);
    CU_ASSERT_EQUAL(o->nregs, n);
    CU_ASSERT_EQUAL(o->dtype, dt);
}

/* v_add_f32_e32 v1, s2, v3 */
static void test_vop2_e32(void)
{
    const uint32_t w[] = {0x02020602};
    gcn_insn in = dec(GCN_TARGET_GFX942, w, 1);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_ADD_F32);
    CU_ASSERT_EQUAL(in.enc, GCN_FMT_VOP2);
    CU_ASSERT_EQUAL(in.sub, GCN_SUB_E32);
    CU_ASSERT_EQUAL(in.size, 4);
    CU_ASSERT_EQUAL(in.nopnds, 3);
    check_reg(fld(&in, GCN_FLD_VDST), GCN_OPND_VGPR, 1, 1, GCN_DT_F32);
    check_reg(fld(&in, GCN_FLD_SRC0), GCN_OPND_SGPR, 2, 1, GCN_DT_F32);
    check_reg(fld(&in, GCN_FLD_SRC1), GCN_OPND_VGPR, 3, 1, GCN_DT_F32);
    CU_ASSERT(fld(&in, GCN_FLD_VDST)->flags & GCN_OPF_DST);
    CU_ASSERT(fld(&in, GCN_FLD_SRC0)->flags & GCN_OPF_SRC);
    CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_RD_MODE);
}

/* v_fma_f64 v[2:3], -|v[4:5]|, s[6:7], 1.0 clamp mul:2 */
static void test_vop3_mods(void)
{
    const uint32_t w[] = {0xd1cc8102, 0x2bc80d04};
    gcn_insn in = dec(GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_FMA_F64);
    CU_ASSERT_EQUAL(in.enc, GCN_FMT_VOP3);
    CU_ASSERT_EQUAL(in.sub, GCN_SUB_E64);
    CU_ASSERT_EQUAL(in.size, 8);
    check_reg(fld(&in, GCN_FLD_VDST), GCN_OPND_VGPR, 2, 2, GCN_DT_F64);
    check_reg(fld(&in, GCN_FLD_SRC0), GCN_OPND_VGPR, 4, 2, GCN_DT_F64);
    check_reg(fld(&in, GCN_FLD_SRC1), GCN_OPND_SGPR, 6, 2, GCN_DT_F64);
    const gcn_opnd *s2 = fld(&in, GCN_FLD_SRC2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s2);
    CU_ASSERT_EQUAL(s2->kind, GCN_OPND_INLINE);
    CU_ASSERT_EQUAL(s2->reg, 242);
    CU_ASSERT_EQUAL(fld(&in, GCN_FLD_SRC0)->flags & (GCN_OPF_NEG | GCN_OPF_ABS),
                    GCN_OPF_NEG | GCN_OPF_ABS);
    CU_ASSERT_EQUAL(fld(&in, GCN_FLD_SRC1)->flags & (GCN_OPF_NEG | GCN_OPF_ABS), 0);
    CU_ASSERT_EQUAL(in.m.clamp, 1);
    CU_ASSERT_EQUAL(in.m.omod, 1);
    /* the same word cut short is no instruction */
    gcn_insn t = dec(GCN_TARGET_GFX942, w, 1);
    CU_ASSERT_EQUAL(t.id, GCN_ID_INVALID);
    CU_ASSERT_EQUAL(t.size, 4);
}

/* v_add_co_u32_e64 v2, s[4:5], v2, v3 (VOP3b) */
static void test_vop3b(void)
{
    const uint32_t w[] = {0xd1190402, 0x00020702};
    gcn_insn in = dec(GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_ADD_CO_U32);
    CU_ASSERT_EQUAL(in.enc, GCN_FMT_VOP3);
    check_reg(fld(&in, GCN_FLD_VDST), GCN_OPND_VGPR, 2, 1, GCN_DT_U32);
    const gcn_opnd *sd = fld(&in, GCN_FLD_SDST_VOP3B);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sd);
    CU_ASSERT_EQUAL(sd->kind, GCN_OPND_SGPR);
    CU_ASSERT_EQUAL(sd->reg, 4);
    CU_ASSERT_EQUAL(sd->nregs, 2);
    CU_ASSERT(sd->flags & GCN_OPF_DST);
    CU_ASSERT_EQUAL(sd->flags & (GCN_OPF_NEG | GCN_OPF_ABS), 0);
    check_reg(fld(&in, GCN_FLD_SRC1), GCN_OPND_VGPR, 3, 1, GCN_DT_U32);
    /* e32 form: vcc is a printed implicit destination */
    const uint32_t e32[] = {(0x19u << 25) | (1u << 17) | (3u << 9) | 0x102};
    gcn_insn i2 = dec(GCN_TARGET_GFX942, e32, 1);
    CU_ASSERT_EQUAL(i2.id, GCN_ID_V_ADD_CO_U32);
    const gcn_opnd *vcc = fld(&i2, GCN_FLD_VCC_IMPLICIT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(vcc);
    CU_ASSERT(vcc->flags & GCN_OPF_DST);
    CU_ASSERT(gcn_isa_row_of(i2.id)->flags & GCN_F_WR_VCC);
}

/* v_cmp_eq_u32_e32 vcc, 0x1234, v5 ; v_cndmask_b32_e32 v1, v2, v3, vcc */
static void test_vopc_literal_and_vcc(void)
{
    const uint32_t w[] = {0x7d940aff, 0x00001234};
    gcn_insn in = dec(GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_CMP_EQ_U32);
    CU_ASSERT_EQUAL(in.size, 8);
    CU_ASSERT(in.has_literal);
    CU_ASSERT_EQUAL(in.literal, 0x1234);
    const gcn_opnd *s0 = fld(&in, GCN_FLD_SRC0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s0);
    CU_ASSERT_EQUAL(s0->kind, GCN_OPND_LITERAL);
    CU_ASSERT_EQUAL(s0->imm, 0x1234);
    CU_ASSERT_EQUAL(in.op[0].field, GCN_FLD_VCC_IMPLICIT);
    CU_ASSERT(in.op[0].flags & GCN_OPF_DST);
    /* without the literal dword the word is invalid */
    gcn_insn t = dec(GCN_TARGET_GFX942, w, 1);
    CU_ASSERT_EQUAL(t.id, GCN_ID_INVALID);

    const uint32_t c[] = {0x00020702};
    gcn_insn cm = dec(GCN_TARGET_GFX942, c, 1);
    CU_ASSERT_EQUAL(cm.id, GCN_ID_V_CNDMASK_B32);
    CU_ASSERT_EQUAL(cm.nopnds, 4);
    CU_ASSERT_EQUAL(cm.op[3].field, GCN_FLD_VCC_IMPLICIT);
    CU_ASSERT(cm.op[3].flags & GCN_OPF_SRC);
    CU_ASSERT(gcn_isa_row_of(cm.id)->flags & GCN_F_RD_VCC);
}

/* v_add_u16_sdwa v1, sext(v2), v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE
 *                 src0_sel:BYTE_0 src1_sel:WORD_0 */
static void test_sdwa(void)
{
    const uint32_t w[] = {0x4c0206f9, 0x04081502};
    gcn_insn in = dec(GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_ADD_U16);
    CU_ASSERT_EQUAL(in.sub, GCN_SUB_SDWA);
    CU_ASSERT_EQUAL(in.size, 8);
    check_reg(fld(&in, GCN_FLD_SRC0), GCN_OPND_VGPR, 2, 1, GCN_DT_U16);
    CU_ASSERT(fld(&in, GCN_FLD_SRC0)->flags & GCN_OPF_SEXT);
    check_reg(fld(&in, GCN_FLD_SRC1), GCN_OPND_VGPR, 3, 1, GCN_DT_U16);
    CU_ASSERT_EQUAL(in.m.dst_sel, 5);
    CU_ASSERT_EQUAL(in.m.dst_unused, 2);
    CU_ASSERT_EQUAL(in.m.src0_sel, 0);
    CU_ASSERT_EQUAL(in.m.src1_sel, 4);
}

/* v_mov_b32_dpp v1, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1 */
static void test_dpp(void)
{
    const uint32_t w[] = {0x7e0202fa, 0xff090102};
    gcn_insn in = dec(GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_MOV_B32);
    CU_ASSERT_EQUAL(in.sub, GCN_SUB_DPP);
    check_reg(fld(&in, GCN_FLD_SRC0), GCN_OPND_VGPR, 2, 1, GCN_DT_B32);
    CU_ASSERT_EQUAL(in.m.dpp_ctrl, 0x101);
    CU_ASSERT_EQUAL(in.m.row_mask, 0xf);
    CU_ASSERT_EQUAL(in.m.bank_mask, 0xf);
    CU_ASSERT_EQUAL(in.m.bound_ctrl, 1);
    CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_DPP_OK);
}

/* v_fmamk_f32 v5, lit(0x40000000), 0x40000000, v3: D = SRC0 * SRC1(K) + SRC2 */
static void test_fmamk(void)
{
    const uint32_t w[] = {0x2e0a06ff, 0x40000000};
    gcn_insn in = dec(GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_FMAMK_F32);
    CU_ASSERT_EQUAL(in.size, 8);
    CU_ASSERT_EQUAL(fld(&in, GCN_FLD_SRC0)->kind, GCN_OPND_LITERAL);
    CU_ASSERT_EQUAL(fld(&in, GCN_FLD_SRC1)->kind, GCN_OPND_LITERAL);
    CU_ASSERT_EQUAL(fld(&in, GCN_FLD_SRC1)->imm, 0x40000000);
    check_reg(fld(&in, GCN_FLD_SRC2), GCN_OPND_VGPR, 3, 1, GCN_DT_F32);
}

/* v_readlane_b32 s5, v1, s2 */
static void test_readlane(void)
{
    const uint32_t w[] = {0xd2890005, 0x00000501};
    gcn_insn in = dec(GCN_TARGET_GFX942, w, 2);
    CU_ASSERT_EQUAL(in.id, GCN_ID_V_READLANE_B32);
    const gcn_opnd *d = fld(&in, GCN_FLD_SDST);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->kind, GCN_OPND_SGPR);
    CU_ASSERT_EQUAL(d->reg, 5);
    CU_ASSERT_EQUAL(fld(&in, GCN_FLD_SRC0)->kind, GCN_OPND_VGPR);
    CU_ASSERT_EQUAL(fld(&in, GCN_FLD_SRC1)->kind, GCN_OPND_SGPR);
    CU_ASSERT(gcn_isa_row_of(in.id)->flags & GCN_F_RD_LANESEL);
}

/* v_prng_b32_e32 v2, v3 exists on gfx950 only; v_exp_f32 is transcendental */
static void test_targets_and_flags(void)
{
    const uint32_t w[] = {0x7e04b103};
    CU_ASSERT_EQUAL(dec(GCN_TARGET_GFX950, w, 1).id, GCN_ID_V_PRNG_B32);
    CU_ASSERT_EQUAL(dec(GCN_TARGET_GFX942, w, 1).id, GCN_ID_INVALID);
    const gcn_isa_row *r = gcn_isa_row_of(GCN_ID_V_EXP_F32);
    CU_ASSERT(r->flags & GCN_F_TRANS);
    CU_ASSERT_EQUAL(r->unit, GCN_UNIT_TRANS);
    CU_ASSERT(gcn_isa_row_of(GCN_ID_V_CMPX_EQ_U32)->flags & GCN_F_WR_EXEC);
    CU_ASSERT(gcn_isa_row_of(GCN_ID_V_DIV_FMAS_F32)->flags & GCN_F_RD_VCC);
    /* every row is VALU work reading EXEC */
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        const gcn_isa_row *x = gcn_isa_row_of(id);
        if (x->fmt == GCN_FMT_VOP1 || x->fmt == GCN_FMT_VOP2 || x->fmt == GCN_FMT_VOPC ||
            x->fmt == GCN_FMT_VOP3)
            CU_ASSERT(x->flags & GCN_F_RD_EXEC);
    }
}

/* valu_tabs.inc is what the operand code makes, for every kind the rows use */
static void test_compiled_tabs(void)
{
    CU_ASSERT_EQUAL(gcn_valu_tabs_check(stderr), 0);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write-tabs")) {
        FILE *f = fopen(argv[2], "w");
        if (!f || gcn_valu_tabs_write(f) || fclose(f)) {
            fprintf(stderr, "test_valu: cannot write %s\n", argv[2]);
            return 1;
        }
        return 0;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 99;
    CU_pSuite s = CU_add_suite("valu", NULL, NULL);
    CU_add_test(s, "VOP2 e32 operands", test_vop2_e32);
    CU_add_test(s, "VOP3 modifiers", test_vop3_mods);
    CU_add_test(s, "VOP3b sdst and e32 vcc", test_vop3b);
    CU_add_test(s, "VOPC literal, cndmask vcc", test_vopc_literal_and_vcc);
    CU_add_test(s, "SDWA selectors", test_sdwa);
    CU_add_test(s, "DPP controls", test_dpp);
    CU_add_test(s, "fmamk K constant", test_fmamk);
    CU_add_test(s, "readlane", test_readlane);
    CU_add_test(s, "compiled tables", test_compiled_tabs);
    CU_add_test(s, "targets and flags", test_targets_and_flags);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
