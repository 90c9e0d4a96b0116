/*
 * classify.c -- per-instruction facts for the analyzer: control-flow kind,
 * counters incremented and whether they return in order, LDS accesses,
 * s_waitcnt / s_nop operands, branch targets and register def/use.
 *
 * The ISA row flags (gcn_isa.h) are the primary source; the encoding family
 * fills in counters when a row carries none (every SMEM/DS/MUBUF/MTBUF/FLAT
 * access is counted).  Facts used here (LLVM SIInsertWaitcnts.cpp, AMD CDNA3
 * ISA "Data dependency resolution"): vector memory ops of one wave retire in
 * issue order in vmcnt; LDS ops in order in lgkmcnt; SMEM and messages may
 * return out of order; FLAT ops count in both counters and, since they may
 * go to either memory, in order in neither (LLVM forces vmcnt(0)/lgkmcnt(0)
 * for pending FLAT on GFX9, "hasFlatLgkmVMemCountInOrder" is false before
 * GFX10).  SOPP branch targets are pc + 4 + simm16 * 4.
 */
#include <pthread.h>
#include <string.h>
#include "lint.h"

void gcn_waitcnt_decode(uint16_t s, unsigned *vm, unsigned *exp, unsigned *lgkm)
{
    if (vm) *vm = (s & 0xFu) | ((s >> 14) & 0x3u) << 4;
    if (exp) *exp = (s >> 4) & 0x7u;
    if (lgkm) *lgkm = (s >> 8) & 0xFu;
}

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static bool eq(const char *s, const char *p)
{
    return strcmp(s, p) == 0;
}

static uint8_t alu_of(const char *m)
{
    static const struct { const char *m; uint8_t a; } t[] = {
        {"s_mov_b32", GCN_LA_S_MOV}, {"s_mov_b64", GCN_LA_S_MOV64},
        {"s_add_u32", GCN_LA_S_ADD}, {"s_add_i32", GCN_LA_S_ADD},
        {"s_addc_u32", GCN_LA_S_ADDC},
        {"s_sub_u32", GCN_LA_S_SUB}, {"s_sub_i32", GCN_LA_S_SUB},
        {"s_subb_u32", GCN_LA_S_SUBB},
        {"s_lshl_b32", GCN_LA_S_LSHL}, {"s_mul_i32", GCN_LA_S_MUL},
        {"v_mov_b32", GCN_LA_V_MOV},
        {"v_add_u32", GCN_LA_V_ADD}, {"v_add_co_u32", GCN_LA_V_ADD}, {"v_add_i32", GCN_LA_V_ADD},
        {"v_sub_u32", GCN_LA_V_SUB}, {"v_sub_co_u32", GCN_LA_V_SUB}, {"v_sub_i32", GCN_LA_V_SUB},
        {"v_subrev_u32", GCN_LA_V_SUBREV}, {"v_subrev_co_u32", GCN_LA_V_SUBREV},
        {"v_lshlrev_b32", GCN_LA_V_LSHLREV},
        {"v_lshl_add_u32", GCN_LA_V_LSHL_ADD}, {"v_add_lshl_u32", GCN_LA_V_ADD_LSHL},
        {"v_mul_lo_u32", GCN_LA_V_MUL}, {"v_mul_u32_u24", GCN_LA_V_MUL},
        {"v_mul_i32_i24", GCN_LA_V_MUL}, {"v_mul_lo_i32", GCN_LA_V_MUL},
        {"v_mad_i32_i24", GCN_LA_V_MAD},
        {"v_mad_u32_u24", GCN_LA_V_MAD}, {"v_add3_u32", GCN_LA_V_ADD3},
        {"v_readfirstlane_b32", GCN_LA_V_READFIRSTLANE},
        {"s_and_b32", GCN_LA_S_AND}, {"s_or_b32", GCN_LA_S_OR}, {"s_xor_b32", GCN_LA_S_XOR},
        {"s_lshr_b32", GCN_LA_S_LSHR}, {"s_ashr_i32", GCN_LA_S_ASHR},
        {"s_bfe_u32", GCN_LA_S_BFE_U32},
        {"s_lshl1_add_u32", GCN_LA_S_LSHL1_ADD}, {"s_lshl2_add_u32", GCN_LA_S_LSHL2_ADD},
        {"s_lshl3_add_u32", GCN_LA_S_LSHL3_ADD}, {"s_lshl4_add_u32", GCN_LA_S_LSHL4_ADD},
        {"s_movk_i32", GCN_LA_S_MOVK}, {"s_addk_i32", GCN_LA_S_ADDK},
        {"s_mulk_i32", GCN_LA_S_MULK},
        {"v_and_b32", GCN_LA_V_AND}, {"v_or_b32", GCN_LA_V_OR}, {"v_xor_b32", GCN_LA_V_XOR},
        {"v_lshrrev_b32", GCN_LA_V_LSHRREV}, {"v_ashrrev_i32", GCN_LA_V_ASHRREV},
        {"v_bfe_u32", GCN_LA_V_BFE_U32}, {"v_lshl_or_b32", GCN_LA_V_LSHL_OR},
        {"v_and_or_b32", GCN_LA_V_AND_OR}, {"v_or3_b32", GCN_LA_V_OR3},
        {"v_mbcnt_lo_u32_b32", GCN_LA_V_MBCNT_LO}, {"v_mbcnt_hi_u32_b32", GCN_LA_V_MBCNT_HI},
        {"v_readlane_b32", GCN_LA_V_READLANE},
        {"v_cmp_lt_u32", GCN_LA_V_CMP_LT}, {"v_cmpx_lt_u32", GCN_LA_V_CMP_LT},
        {"s_cmp_lt_u32", GCN_LA_S_CMP_LT},
        {"v_cmp_lt_i32", GCN_LA_V_CMP_LT}, {"v_cmpx_lt_i32", GCN_LA_V_CMP_LT},
        {"s_cmp_lt_i32", GCN_LA_S_CMP_LT},
        {"v_cmp_le_u32", GCN_LA_V_CMP_LE}, {"v_cmpx_le_u32", GCN_LA_V_CMP_LE},
        {"s_cmp_le_u32", GCN_LA_S_CMP_LE},
        {"v_cmp_le_i32", GCN_LA_V_CMP_LE}, {"v_cmpx_le_i32", GCN_LA_V_CMP_LE},
        {"s_cmp_le_i32", GCN_LA_S_CMP_LE},
        {"v_cmp_gt_u32", GCN_LA_V_CMP_GT}, {"v_cmpx_gt_u32", GCN_LA_V_CMP_GT},
        {"s_cmp_gt_u32", GCN_LA_S_CMP_GT},
        {"v_cmp_gt_i32", GCN_LA_V_CMP_GT}, {"v_cmpx_gt_i32", GCN_LA_V_CMP_GT},
        {"s_cmp_gt_i32", GCN_LA_S_CMP_GT},
        {"v_cmp_ge_u32", GCN_LA_V_CMP_GE}, {"v_cmpx_ge_u32", GCN_LA_V_CMP_GE},
        {"s_cmp_ge_u32", GCN_LA_S_CMP_GE},
        {"v_cmp_ge_i32", GCN_LA_V_CMP_GE}, {"v_cmpx_ge_i32", GCN_LA_V_CMP_GE},
        {"s_cmp_ge_i32", GCN_LA_S_CMP_GE},
        {"v_cmp_eq_u32", GCN_LA_V_CMP_EQ}, {"v_cmpx_eq_u32", GCN_LA_V_CMP_EQ},
        {"s_cmp_eq_u32", GCN_LA_S_CMP_EQ},
        {"v_cmp_eq_i32", GCN_LA_V_CMP_EQ}, {"v_cmpx_eq_i32", GCN_LA_V_CMP_EQ},
        {"s_cmp_eq_i32", GCN_LA_S_CMP_EQ},
        {"v_cmp_ne_u32", GCN_LA_V_CMP_NE}, {"v_cmpx_ne_u32", GCN_LA_V_CMP_NE},
        {"s_cmp_lg_u32", GCN_LA_S_CMP_NE},
        {"v_cmp_ne_i32", GCN_LA_V_CMP_NE}, {"v_cmpx_ne_i32", GCN_LA_V_CMP_NE},
        {"s_cmp_lg_i32", GCN_LA_S_CMP_NE},
        {"s_and_b64", GCN_LA_S_AND64}, {"s_or_b64", GCN_LA_S_OR64},
        {"s_and_saveexec_b64", GCN_LA_S_AND_SAVEEXEC},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        if (eq(m, t[i].m))
            return t[i].a;
    return GCN_LA_NONE;
}

static uint8_t kind_of(const char *m)
{
    if (eq(m, "s_branch")) return GCN_LK_BRANCH;
    if (starts(m, "s_cbranch_")) return GCN_LK_CBRANCH;
    if (eq(m, "s_setpc_b64")) return GCN_LK_SETPC;
    if (eq(m, "s_swappc_b64")) return GCN_LK_SWAPPC;
    if (eq(m, "s_call_b64")) return GCN_LK_CALL;
    if (eq(m, "s_getpc_b64")) return GCN_LK_GETPC;
    if (starts(m, "s_endpgm") || eq(m, "s_rfe_b64")) return GCN_LK_ENDPGM;
    if (eq(m, "s_waitcnt")) return GCN_LK_WAITCNT;
    if (eq(m, "s_barrier")) return GCN_LK_BARRIER;
    if (eq(m, "s_nop")) return GCN_LK_NOP;
    return GCN_LK_OTHER;
}

/* kind_of and alu_of of every ISA row's mnemonic, computed once. */
static uint8_t id_kind[GCN_ID_COUNT], id_alu[GCN_ID_COUNT];
static pthread_once_t id_once = PTHREAD_ONCE_INIT;

static void id_init(void)
{
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        const char *m = gcn_isa_row_of(id)->mnem;
        id_kind[id] = kind_of(m);
        id_alu[id] = alu_of(m);
    }
}

/* Bytes per lane of a memory data element, from the mnemonic suffix. */
static unsigned elem_bytes(const char *m)
{
    static const struct { const char *suf; unsigned b; } t[] = {
        {"dwordx4", 16}, {"dwordx3", 12}, {"dwordx2", 8}, {"dword", 4},
        {"b128", 16}, {"b96", 12}, {"b64", 8}, {"b32", 4}, {"b16", 2}, {"b8", 1},
        {"u16", 2}, {"i16", 2}, {"short", 2}, {"u8", 1}, {"i8", 1}, {"byte", 1},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strstr(m, t[i].suf))
            return t[i].b;
    return 16;
}

void gcn_lint_classify_as(const gcn_insn *in, const char *mnem, uint64_t f, gcn_lfacts *o)
{
    memset(o, 0, sizeof *o);
    o->flags = f;
    o->mnem = mnem ? mnem : "<invalid>";
    o->target = -1;
    o->wait_vm = o->wait_lgkm = o->wait_exp = GCN_WAIT_NONE;
    if (!mnem) {
        o->kind = GCN_LK_INVALID;
        return;
    }
    const char *m = o->mnem;
    if (in->id > GCN_ID_INVALID && in->id < GCN_ID_COUNT && m == gcn_isa_row_of(in->id)->mnem) {
        pthread_once(&id_once, id_init);
        o->kind = id_kind[in->id];
        o->alu = id_alu[in->id];
    } else {
        o->kind = kind_of(m);
        o->alu = alu_of(m);
    }
    uint32_t w0 = in->words[0];
    switch (o->kind) {
    case GCN_LK_BRANCH: case GCN_LK_CBRANCH: case GCN_LK_CALL:
        o->target = (int64_t)in->addr + 4 + 4 * (int64_t)(int16_t)(w0 & 0xFFFF);
        break;
    case GCN_LK_WAITCNT: {
        unsigned vm, exp, lgkm;
        gcn_waitcnt_decode((uint16_t)(w0 & 0xFFFF), &vm, &exp, &lgkm);
        o->wait_vm = vm >= GCN_VMCNT_MAX ? GCN_WAIT_NONE : (uint8_t)vm;
        o->wait_lgkm = lgkm >= GCN_LGKMCNT_MAX ? GCN_WAIT_NONE : (uint8_t)lgkm;
        o->wait_exp = exp >= GCN_EXPCNT_MAX ? GCN_WAIT_NONE : (uint8_t)exp;
        break;
    }
    case GCN_LK_NOP:
        o->nop_states = (uint8_t)((w0 & 0xF) + 1);
        break;
    default:
        break;
    }

    /* counters */
    unsigned ctr = 0;
    if (f & GCN_F_VMCNT) ctr |= GCN_LC_VM;
    if (f & GCN_F_LGKMCNT) ctr |= GCN_LC_LGKM;
    if (!ctr) {
        switch (in->enc) {
        case GCN_FMT_SMEM: case GCN_FMT_DS: ctr = GCN_LC_LGKM; break;
        case GCN_FMT_MUBUF: case GCN_FMT_MTBUF: case GCN_FMT_GLOBAL: case GCN_FMT_SCRATCH:
            ctr = GCN_LC_VM; break;
        case GCN_FMT_FLAT: ctr = GCN_LC_VM | GCN_LC_LGKM; break;
        default: break;
        }
    }
    o->ctr = (uint8_t)ctr;
    if (ctr == (GCN_LC_VM | GCN_LC_LGKM)) {
        o->mem = GCN_LM_FLAT;
        o->vm_ooo = o->lgkm_ooo = 1;
    } else if (ctr == GCN_LC_VM) {
        o->mem = GCN_LM_VMEM;
    } else if (ctr == GCN_LC_LGKM) {
        if (in->enc == GCN_FMT_DS || starts(m, "ds_")) {
            o->mem = GCN_LM_LDS;
        } else if (in->enc == GCN_FMT_SMEM || (f & GCN_F_SMEM_OOO) || starts(m, "s_load") ||
                   starts(m, "s_buffer") || starts(m, "s_store") || starts(m, "s_dcache") ||
                   starts(m, "s_mem") || starts(m, "s_atc") || starts(m, "s_scratch") ||
                   starts(m, "s_atomic")) {
            o->mem = GCN_LM_SMEM;
            o->lgkm_ooo = 1;
        } else {
            o->mem = GCN_LM_MSG;           /* s_sendmsg & co. */
            o->lgkm_ooo = 1;
        }
    }
    if (f & GCN_F_SMEM_OOO)
        o->lgkm_ooo = 1;

    /* LDS; GDS operations are another event type in lgkmcnt, so mixed with
     * LDS ones they complete in no guaranteed order (LLVM GDS_ACCESS) */
    bool gds = (f & GCN_F_GDS) || in->m.gds;
    if (o->mem == GCN_LM_LDS && gds)
        o->lgkm_ooo = 1;
    if (o->mem == GCN_LM_LDS && !gds) {
        bool pure_read = starts(m, "ds_read") || starts(m, "ds_swizzle") ||
                         starts(m, "ds_permute") || starts(m, "ds_bpermute") || eq(m, "ds_nop");
        bool no_mem = starts(m, "ds_swizzle") || starts(m, "ds_permute") ||
                      starts(m, "ds_bpermute") || eq(m, "ds_nop") || starts(m, "ds_gws");
        if (!no_mem) {
            o->lds |= GCN_LL_READ;
            if (!pure_read)
                o->lds |= GCN_LL_WRITE;
            if (starts(m, "ds_write") && !strstr(m, "rtn"))
                o->lds &= (uint8_t)~GCN_LL_READ;
        }
        o->lds_bytes = (uint16_t)elem_bytes(m);
    }
    /* MUBUF rows allow the lds bit (flag LDS_DMA); the instance decides */
    bool mubuf = in->enc == GCN_FMT_MUBUF || in->enc == GCN_FMT_MTBUF;
    if (mubuf ? in->m.lds != 0 : ((f & GCN_F_LDS_DMA) || strstr(m, "load_lds"))) {
        o->lds |= GCN_LL_DMA;
        o->lds_bytes = (uint16_t)elem_bytes(m);
    }

    gcn_insn_regs_flags(in, f, &o->uses, &o->defs, &o->adefs);
}

void gcn_lint_classify(const gcn_insn *in, gcn_target t, gcn_lfacts *out)
{
    (void)t;
    if (in->id == GCN_ID_INVALID) {
        gcn_lint_classify_as(in, NULL, 0, out);
        return;
    }
    const gcn_isa_row *r = gcn_isa_row_of(in->id);
    gcn_lint_classify_as(in, r->mnem, gcn_insn_flags(in), out);
}
