/*
 * ops_salu.c -- semantics of the scalar ALU (SOP2, SOPK, SOP1, SOPC) and
 * program-control (SOPP) instructions of gfx942/gfx950, one small body each,
 * among them the setters of VGPR index mode and VSKIP (idxmode.c runs the
 * instructions under them) and the debugger and fork/join branches.
 *
 * Semantics and SCC rules: AMD Instinct MI300 (CDNA3) ISA reference,
 * chapter "Scalar ALU operations"; LLVM SOPInstructions.td for the operand
 * shapes.  S0/S1 are src0/src1, D the destination; SCC is x->w->scc.
 * hwreg ids for s_getreg/s_setreg (LLVM SIDefines.h Hwreg::Id, gfx9):
 * 1 MODE, 2 STATUS, 3 TRAPSTS, 4 HW_ID, 5 GPR_ALLOC, 6 LDS_ALLOC, 7 IB_STS;
 * simm16 = id [5:0] | offset [10:6] | (size-1) [15:11].
 */
#include "sim_body.h"

#define D (&x->i->d)
#define S0 (&x->i->s[0])
#define S1 (&x->i->s[1])
#define SCC (x->w->scc)

static inline uint32_t a32(const sim_x *x) { return rs32(x, S0); }
static inline uint32_t b32(const sim_x *x) { return rs32(x, S1); }
static inline uint64_t a64(const sim_x *x) { return rs64(x, S0); }
static inline uint64_t b64(const sim_x *x) { return rs64(x, S1); }

/* ---- SOP2 -------------------------------------------------------------- */
BODY(S_ADD_U32) { uint64_t r = (uint64_t)a32(x) + b32(x); ws32(x, D, (uint32_t)r); SCC = r >> 32; }
BODY(S_SUB_U32) { uint32_t a = a32(x), b = b32(x); ws32(x, D, a - b); SCC = b > a; }
BODY(S_ADD_I32)
{
    int32_t a = (int32_t)a32(x), b = (int32_t)b32(x);
    uint32_t r = (uint32_t)a + (uint32_t)b;
    ws32(x, D, r);
    SCC = ((a >= 0) == (b >= 0)) && (((int32_t)r >= 0) != (a >= 0));
}
BODY(S_SUB_I32)
{
    int32_t a = (int32_t)a32(x), b = (int32_t)b32(x);
    uint32_t r = (uint32_t)a - (uint32_t)b;
    ws32(x, D, r);
    SCC = ((a >= 0) != (b >= 0)) && (((int32_t)r >= 0) != (a >= 0));
}
BODY(S_ADDC_U32) { uint64_t r = (uint64_t)a32(x) + b32(x) + SCC; ws32(x, D, (uint32_t)r); SCC = r >> 32; }
BODY(S_SUBB_U32)
{
    uint64_t a = a32(x), b = (uint64_t)b32(x) + SCC;
    ws32(x, D, (uint32_t)(a - b));
    SCC = b > a;
}
BODY(S_MIN_I32) { int32_t a = (int32_t)a32(x), b = (int32_t)b32(x); SCC = a < b; ws32(x, D, (uint32_t)(a < b ? a : b)); }
BODY(S_MIN_U32) { uint32_t a = a32(x), b = b32(x); SCC = a < b; ws32(x, D, a < b ? a : b); }
BODY(S_MAX_I32) { int32_t a = (int32_t)a32(x), b = (int32_t)b32(x); SCC = a > b; ws32(x, D, (uint32_t)(a > b ? a : b)); }
BODY(S_MAX_U32) { uint32_t a = a32(x), b = b32(x); SCC = a > b; ws32(x, D, a > b ? a : b); }
BODY(S_CSELECT_B32) { ws32(x, D, SCC ? a32(x) : b32(x)); }
BODY(S_CSELECT_B64) { ws64(x, D, SCC ? a64(x) : b64(x)); }

#define LOGIC(ID32, ID64, OP) \
    BODY(ID32) { uint32_t a = a32(x), b = b32(x); uint32_t r = (OP); ws32(x, D, r); SCC = r != 0; } \
    BODY(ID64) { uint64_t a = a64(x), b = b64(x); uint64_t r = (OP); ws64(x, D, r); SCC = r != 0; }
LOGIC(S_AND_B32, S_AND_B64, a & b)
LOGIC(S_OR_B32, S_OR_B64, a | b)
LOGIC(S_XOR_B32, S_XOR_B64, a ^ b)
LOGIC(S_ANDN2_B32, S_ANDN2_B64, a & ~b)
LOGIC(S_ORN2_B32, S_ORN2_B64, a | ~b)
LOGIC(S_NAND_B32, S_NAND_B64, ~(a & b))
LOGIC(S_NOR_B32, S_NOR_B64, ~(a | b))
LOGIC(S_XNOR_B32, S_XNOR_B64, ~(a ^ b))

BODY(S_LSHL_B32) { uint32_t r = a32(x) << (b32(x) & 31); ws32(x, D, r); SCC = r != 0; }
BODY(S_LSHL_B64) { uint64_t r = a64(x) << (b32(x) & 63); ws64(x, D, r); SCC = r != 0; }
BODY(S_LSHR_B32) { uint32_t r = a32(x) >> (b32(x) & 31); ws32(x, D, r); SCC = r != 0; }
BODY(S_LSHR_B64) { uint64_t r = a64(x) >> (b32(x) & 63); ws64(x, D, r); SCC = r != 0; }
BODY(S_ASHR_I32) { uint32_t r = (uint32_t)((int32_t)a32(x) >> (b32(x) & 31)); ws32(x, D, r); SCC = r != 0; }
BODY(S_ASHR_I64) { uint64_t r = (uint64_t)((int64_t)a64(x) >> (b32(x) & 63)); ws64(x, D, r); SCC = r != 0; }
BODY(S_BFM_B32) { uint32_t w = a32(x) & 31, o = b32(x) & 31; ws32(x, D, ((1u << w) - 1) << o); }
BODY(S_BFM_B64) { uint32_t w = a32(x) & 63, o = b32(x) & 63; ws64(x, D, ((1ull << w) - 1) << o); }
BODY(S_MUL_I32) { ws32(x, D, a32(x) * b32(x)); }
BODY(S_MUL_HI_U32) { ws32(x, D, (uint32_t)(((uint64_t)a32(x) * b32(x)) >> 32)); }
BODY(S_MUL_HI_I32) { ws32(x, D, (uint32_t)((uint64_t)((int64_t)(int32_t)a32(x) * (int32_t)b32(x)) >> 32)); }

static uint32_t bfe32(uint32_t v, uint32_t ctl, int sgn)
{
    unsigned off = ctl & 31, w = (ctl >> 16) & 0x7f;
    if (w == 0)
        return 0;
    uint64_t t = (uint64_t)v >> off;
    if (w >= 32)
        return (uint32_t)(sgn ? (uint64_t)((int64_t)(int32_t)v >> off) : t);
    uint32_t r = (uint32_t)t & ((1u << w) - 1);
    if (sgn && (r >> (w - 1) & 1))
        r |= ~0u << w;
    return r;
}
static uint64_t bfe64(uint64_t v, uint32_t ctl, int sgn)
{
    unsigned off = ctl & 63, w = (ctl >> 16) & 0x7f;
    if (w == 0)
        return 0;
    uint64_t t = v >> off;
    if (w >= 64)
        return sgn ? (uint64_t)((int64_t)v >> off) : t;
    uint64_t r = t & ((1ull << w) - 1);
    if (sgn && (r >> (w - 1) & 1))
        r |= ~0ull << w;
    return r;
}
BODY(S_BFE_U32) { uint32_t r = bfe32(a32(x), b32(x), 0); ws32(x, D, r); SCC = r != 0; }
BODY(S_BFE_I32) { uint32_t r = bfe32(a32(x), b32(x), 1); ws32(x, D, r); SCC = r != 0; }
BODY(S_BFE_U64) { uint64_t r = bfe64(a64(x), b32(x), 0); ws64(x, D, r); SCC = r != 0; }
BODY(S_BFE_I64) { uint64_t r = bfe64(a64(x), b32(x), 1); ws64(x, D, r); SCC = r != 0; }
BODY(S_ABSDIFF_I32)
{
    int64_t d = (int64_t)(int32_t)a32(x) - (int32_t)b32(x);
    uint32_t r = (uint32_t)(d < 0 ? -d : d);
    ws32(x, D, r);
    SCC = r != 0;
}
#define LSHLADD(ID, N) \
    BODY(ID) { uint64_t r = ((uint64_t)a32(x) << (N)) + b32(x); ws32(x, D, (uint32_t)r); SCC = (r >> 32) != 0; }
LSHLADD(S_LSHL1_ADD_U32, 1)
LSHLADD(S_LSHL2_ADD_U32, 2)
LSHLADD(S_LSHL3_ADD_U32, 3)
LSHLADD(S_LSHL4_ADD_U32, 4)
BODY(S_PACK_LL_B32_B16) { ws32(x, D, (a32(x) & 0xffff) | b32(x) << 16); }
BODY(S_PACK_LH_B32_B16) { ws32(x, D, (a32(x) & 0xffff) | (b32(x) & 0xffff0000u)); }
BODY(S_PACK_HH_B32_B16) { ws32(x, D, (a32(x) >> 16) | (b32(x) & 0xffff0000u)); }

/* ---- SOPK (imm16 in x->i->imm; D is also a source for addk/mulk/cmovk) ---- */
static inline int32_t simm(const sim_x *x) { return (int32_t)(int16_t)x->i->imm; }
static inline uint32_t uimm(const sim_x *x) { return (uint32_t)(uint16_t)x->i->imm; }
/* SOPK compare operand: src0 if the decoder gave one, else the sdst field */
static inline uint32_t k_src(const sim_x *x) { return S0->kind != OK_NONE ? a32(x) : rs32(x, D); }

BODY(S_MOVK_I32) { ws32(x, D, (uint32_t)simm(x)); }
BODY(S_CMOVK_I32) { if (SCC) ws32(x, D, (uint32_t)simm(x)); }
BODY(S_ADDK_I32)
{
    int32_t a = (int32_t)rs32(x, D), b = simm(x);
    uint32_t r = (uint32_t)a + (uint32_t)b;
    ws32(x, D, r);
    SCC = ((a >= 0) == (b >= 0)) && (((int32_t)r >= 0) != (a >= 0));
}
BODY(S_MULK_I32) { ws32(x, D, rs32(x, D) * (uint32_t)simm(x)); }
#define CMPK(ID, T, IMM, OP) BODY(ID) { T a = (T)k_src(x), b = (T)IMM(x); SCC = a OP b; }
CMPK(S_CMPK_EQ_I32, int32_t, simm, ==)
CMPK(S_CMPK_LG_I32, int32_t, simm, !=)
CMPK(S_CMPK_GT_I32, int32_t, simm, >)
CMPK(S_CMPK_GE_I32, int32_t, simm, >=)
CMPK(S_CMPK_LT_I32, int32_t, simm, <)
CMPK(S_CMPK_LE_I32, int32_t, simm, <=)
CMPK(S_CMPK_EQ_U32, uint32_t, uimm, ==)
CMPK(S_CMPK_LG_U32, uint32_t, uimm, !=)
CMPK(S_CMPK_GT_U32, uint32_t, uimm, >)
CMPK(S_CMPK_GE_U32, uint32_t, uimm, >=)
CMPK(S_CMPK_LT_U32, uint32_t, uimm, <)
CMPK(S_CMPK_LE_U32, uint32_t, uimm, <=)

/* hwreg fields */
static uint32_t *hwreg(sim_x *x, unsigned id)
{
    switch (id) {
    case 1: return &x->w->hw_mode;
    case 2: return &x->w->hw_status;
    case 3: return &x->w->hw_trapsts;
    default: return NULL;
    }
}

static uint32_t hwreg_read(sim_x *x, unsigned id)
{
    uint32_t *p = hwreg(x, id);
    if (p)
        return *p;
    switch (id) {
    case 4:                                   /* HW_ID: wave id [3:0], ... */
        return x->w->idx & 15;
    case 5:                                   /* GPR_ALLOC: vgpr size [13:8], sgpr [27:24] */
        return ((x->w->nvrows / 8 - 1) & 0x3f) << 8;
    case 6:                                   /* LDS_ALLOC: size [20:12] in 128-dword units */
        return ((x->g ? x->g->lds_size : 0) / 512) << 12;
    default:
        return 0;
    }
}

static void getreg(sim_x *x, uint32_t simm16)
{
    unsigned id = simm16 & 63, off = (simm16 >> 6) & 31, size = ((simm16 >> 11) & 31) + 1;
    uint32_t v = hwreg_read(x, id) >> off;
    if (size < 32)
        v &= (1u << size) - 1;
    ws32(x, D, v);
}

static void setreg(sim_x *x, uint32_t simm16, uint32_t val)
{
    unsigned id = simm16 & 63, off = (simm16 >> 6) & 31, size = ((simm16 >> 11) & 31) + 1;
    uint32_t *p = hwreg(x, id);
    if (!p)
        return;                               /* read-only or unmodelled: ignored as on hardware */
    uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << off;
    *p = (*p & ~mask) | ((val << off) & mask);
}

BODY(S_GETREG_B32) { getreg(x, (uint32_t)x->i->imm); }
BODY(S_SETREG_B32) { setreg(x, (uint32_t)x->i->imm, rs32(x, D->kind != OK_NONE && S0->kind == OK_NONE ? D : S0)); }
BODY(S_SETREG_IMM32_B32)
{
    /* operands: simm16 hwreg, 32-bit literal */
    const sim_insn *i = x->i;
    uint32_t v = i->raw.has_literal ? i->raw.literal : (uint32_t)i->s[0].c;
    setreg(x, (uint32_t)i->imm, v);
}
BODY(S_CALL_B64)
{
    uint64_t ret = x->i->pc + 4;
    ws64(x, D, ret);
    x->branch_taken = 1;
    x->branch_pc = x->i->target;
}

/* ---- SOP1 ------------------------------------------------------------------- */
BODY(S_MOV_B32)
{
    /* (an SGPR into an SGPR first, without rs32's switch; then ws32 of a32 as always) */
    const sim_opnd *d = D, *a = S0;
    if (a->kind == OK_S && d->kind == OK_S && d->r != SR_NULL) {
        x->w->s[d->r] = x->w->s[a->r];
        return;
    }
    ws32(x, D, a32(x));
}
BODY(S_MOV_B64) { ws64(x, D, a64(x)); }
BODY(S_CMOV_B32) { if (SCC) ws32(x, D, a32(x)); }
BODY(S_CMOV_B64) { if (SCC) ws64(x, D, a64(x)); }
BODY(S_NOT_B32) { uint32_t r = ~a32(x); ws32(x, D, r); SCC = r != 0; }
BODY(S_NOT_B64) { uint64_t r = ~a64(x); ws64(x, D, r); SCC = r != 0; }
static uint64_t wqm(uint64_t v, unsigned n)
{
    uint64_t r = 0;
    for (unsigned q = 0; q < n; q += 4)
        if (v >> q & 0xf)
            r |= 0xfull << q;
    return r;
}
BODY(S_WQM_B32) { uint32_t r = (uint32_t)wqm(a32(x), 32); ws32(x, D, r); SCC = r != 0; }
BODY(S_WQM_B64) { uint64_t r = wqm(a64(x), 64); ws64(x, D, r); SCC = r != 0; }
static uint32_t brev32(uint32_t v)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((v >> i) & 1) << (31 - i);
    return r;
}
BODY(S_BREV_B32) { ws32(x, D, brev32(a32(x))); }
BODY(S_BREV_B64) { uint64_t v = a64(x); ws64(x, D, (uint64_t)brev32((uint32_t)v) << 32 | brev32((uint32_t)(v >> 32))); }
BODY(S_BCNT0_I32_B32) { uint32_t r = 32 - (uint32_t)__builtin_popcount(a32(x)); ws32(x, D, r); SCC = r != 0; }
BODY(S_BCNT0_I32_B64) { uint32_t r = 64 - (uint32_t)__builtin_popcountll(a64(x)); ws32(x, D, r); SCC = r != 0; }
BODY(S_BCNT1_I32_B32) { uint32_t r = (uint32_t)__builtin_popcount(a32(x)); ws32(x, D, r); SCC = r != 0; }
BODY(S_BCNT1_I32_B64) { uint32_t r = (uint32_t)__builtin_popcountll(a64(x)); ws32(x, D, r); SCC = r != 0; }
BODY(S_FF0_I32_B32) { uint32_t v = ~a32(x); ws32(x, D, v ? (uint32_t)__builtin_ctz(v) : ~0u); }
BODY(S_FF0_I32_B64) { uint64_t v = ~a64(x); ws32(x, D, v ? (uint32_t)__builtin_ctzll(v) : ~0u); }
BODY(S_FF1_I32_B32) { uint32_t v = a32(x); ws32(x, D, v ? (uint32_t)__builtin_ctz(v) : ~0u); }
BODY(S_FF1_I32_B64) { uint64_t v = a64(x); ws32(x, D, v ? (uint32_t)__builtin_ctzll(v) : ~0u); }
BODY(S_FLBIT_I32_B32) { uint32_t v = a32(x); ws32(x, D, v ? (uint32_t)__builtin_clz(v) : ~0u); }
BODY(S_FLBIT_I32_B64) { uint64_t v = a64(x); ws32(x, D, v ? (uint32_t)__builtin_clzll(v) : ~0u); }
BODY(S_FLBIT_I32)
{
    uint32_t v = a32(x);
    if ((int32_t)v < 0)
        v = ~v;
    ws32(x, D, v ? (uint32_t)__builtin_clz(v) : ~0u);
}
BODY(S_FLBIT_I32_I64)
{
    uint64_t v = a64(x);
    if ((int64_t)v < 0)
        v = ~v;
    ws32(x, D, v ? (uint32_t)__builtin_clzll(v) : ~0u);
}
BODY(S_SEXT_I32_I8) { ws32(x, D, (uint32_t)(int32_t)(int8_t)a32(x)); }
BODY(S_SEXT_I32_I16) { ws32(x, D, (uint32_t)(int32_t)(int16_t)a32(x)); }
BODY(S_BITSET0_B32) { ws32(x, D, rs32(x, D) & ~(1u << (a32(x) & 31))); }
BODY(S_BITSET0_B64) { ws64(x, D, rs64(x, D) & ~(1ull << (a32(x) & 63))); }
BODY(S_BITSET1_B32) { ws32(x, D, rs32(x, D) | (1u << (a32(x) & 31))); }
BODY(S_BITSET1_B64) { ws64(x, D, rs64(x, D) | (1ull << (a32(x) & 63))); }
BODY(S_GETPC_B64) { ws64(x, D, x->i->pc + 4); }
BODY(S_SETPC_B64) { x->branch_taken = 1; x->branch_pc = a64(x); }
BODY(S_SWAPPC_B64)
{
    uint64_t t = a64(x);
    ws64(x, D, x->i->pc + 4);
    x->branch_taken = 1;
    x->branch_pc = t;
}
BODY(S_ABS_I32)
{
    int32_t a = (int32_t)a32(x);
    uint32_t r = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
    ws32(x, D, r);
    SCC = r != 0;
}
BODY(S_QUADMASK_B32)
{
    uint32_t v = a32(x), r = 0;
    for (int q = 0; q < 8; q++)
        if (v >> (4 * q) & 0xf)
            r |= 1u << q;
    ws32(x, D, r);
    SCC = r != 0;
}
BODY(S_QUADMASK_B64)
{
    uint64_t v = a64(x), r = 0;
    for (int q = 0; q < 16; q++)
        if (v >> (4 * q) & 0xf)
            r |= 1ull << q;
    ws64(x, D, r);
    SCC = r != 0;
}
BODY(S_BITREPLICATE_B64_B32)
{
    uint32_t v = a32(x);
    uint64_t r = 0;
    for (int i = 0; i < 32; i++)
        if (v >> i & 1)
            r |= 3ull << (2 * i);
    ws64(x, D, r);
}

/* saveexec: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0 */
#define SAVEEXEC(ID, EXPR) \
    BODY(ID) { uint64_t s = a64(x), e = sim_exec(x->w); uint64_t n = (EXPR); \
               ws64(x, D, e); sim_set_exec(x->w, n); SCC = n != 0; }
SAVEEXEC(S_AND_SAVEEXEC_B64, s & e)
SAVEEXEC(S_OR_SAVEEXEC_B64, s | e)
SAVEEXEC(S_XOR_SAVEEXEC_B64, s ^ e)
SAVEEXEC(S_ANDN2_SAVEEXEC_B64, s & ~e)
SAVEEXEC(S_ORN2_SAVEEXEC_B64, s | ~e)
SAVEEXEC(S_NAND_SAVEEXEC_B64, ~(s & e))
SAVEEXEC(S_NOR_SAVEEXEC_B64, ~(s | e))
SAVEEXEC(S_XNOR_SAVEEXEC_B64, ~(s ^ e))
SAVEEXEC(S_ANDN1_SAVEEXEC_B64, ~s & e)
SAVEEXEC(S_ORN1_SAVEEXEC_B64, ~s | e)
/* wrexec: EXEC = f(S0, EXEC); D = new EXEC */
#define WREXEC(ID, EXPR) \
    BODY(ID) { uint64_t s = a64(x), e = sim_exec(x->w); uint64_t n = (EXPR); \
               sim_set_exec(x->w, n); ws64(x, D, n); SCC = n != 0; }
WREXEC(S_ANDN1_WREXEC_B64, ~s & e)
WREXEC(S_ANDN2_WREXEC_B64, s & ~e)

/* M0-relative SGPR moves */
BODY(S_MOVRELS_B32)
{
    unsigned r = S0->r + x->w->s[SR_M0];
    ws32(x, D, r < 128 ? x->w->s[r] : 0);
}
BODY(S_MOVRELS_B64)
{
    unsigned r = S0->r + x->w->s[SR_M0];
    ws64(x, D, r + 1 < 128 ? (uint64_t)x->w->s[r] | (uint64_t)x->w->s[r + 1] << 32 : 0);
}
BODY(S_MOVRELD_B32)
{
    unsigned r = D->r + x->w->s[SR_M0];
    if (r < 102)
        x->w->s[r] = a32(x);
}
BODY(S_MOVRELD_B64)
{
    unsigned r = D->r + x->w->s[SR_M0];
    uint64_t v = a64(x);
    if (r + 1 < 102) {
        x->w->s[r] = (uint32_t)v;
        x->w->s[r + 1] = (uint32_t)(v >> 32);
    }
}

/* ---- SOPC -------------------------------------------------------------------- */
#define CMP(ID, T, OP) BODY(ID) { T a = (T)a32(x), b = (T)b32(x); SCC = a OP b; }
CMP(S_CMP_EQ_I32, int32_t, ==)
CMP(S_CMP_LG_I32, int32_t, !=)
CMP(S_CMP_GT_I32, int32_t, >)
CMP(S_CMP_GE_I32, int32_t, >=)
CMP(S_CMP_LT_I32, int32_t, <)
CMP(S_CMP_LE_I32, int32_t, <=)
CMP(S_CMP_EQ_U32, uint32_t, ==)
CMP(S_CMP_LG_U32, uint32_t, !=)
CMP(S_CMP_GT_U32, uint32_t, >)
CMP(S_CMP_GE_U32, uint32_t, >=)
CMP(S_CMP_LT_U32, uint32_t, <)
CMP(S_CMP_LE_U32, uint32_t, <=)
BODY(S_CMP_EQ_U64) { SCC = a64(x) == b64(x); }
BODY(S_CMP_LG_U64) { SCC = a64(x) != b64(x); }
BODY(S_BITCMP0_B32) { SCC = !(a32(x) >> (b32(x) & 31) & 1); }
BODY(S_BITCMP1_B32) { SCC = a32(x) >> (b32(x) & 31) & 1; }
BODY(S_BITCMP0_B64) { SCC = !(a64(x) >> (b32(x) & 63) & 1); }
BODY(S_BITCMP1_B64) { SCC = a64(x) >> (b32(x) & 63) & 1; }

/* ---- SOPP --------------------------------------------------------------------- */
static inline void jump(sim_x *x) { x->branch_taken = 1; x->branch_pc = x->i->target; }
BODY(S_NOP) { (void)x; }
BODY(S_ENDPGM) { x->ended = 1; }
BODY(S_ENDPGM_SAVED) { x->ended = 1; }
BODY(S_BRANCH) { jump(x); }
BODY(S_CBRANCH_SCC0) { if (!SCC) jump(x); }
BODY(S_CBRANCH_SCC1) { if (SCC) jump(x); }
BODY(S_CBRANCH_VCCZ) { if (!sim_vcc(x->w)) jump(x); }
BODY(S_CBRANCH_VCCNZ) { if (sim_vcc(x->w)) jump(x); }
BODY(S_CBRANCH_EXECZ) { if (!sim_exec(x->w)) jump(x); }
BODY(S_CBRANCH_EXECNZ) { if (sim_exec(x->w)) jump(x); }
/* S_WAITCNT: sim_waitcnt_insn (fifo.c), registered below as the body itself */
BODY(S_BARRIER)
{
    sim_tk_barrier(x);
    x->waiting = 1;
}
/* hints and no-ops in a functional model */
BODY(S_SLEEP) { (void)x; }
BODY(S_SETPRIO) { (void)x; }
BODY(S_WAKEUP) { (void)x; }
BODY(S_ICACHE_INV) { (void)x; }
BODY(S_INCPERFLEVEL) { (void)x; }
BODY(S_DECPERFLEVEL) { (void)x; }
BODY(S_TTRACEDATA) { (void)x; }
BODY(S_SETKILL) { (void)x; }
BODY(S_SETHALT)
{
    if (x->i->imm & 1)
        sim_fault(x, "s_sethalt halts the wave (it would never end)");
}
BODY(S_TRAP) { sim_fault(x, "s_trap %lld: the wave traps (no trap handler is simulated)", (long long)x->i->imm); }
BODY(S_SENDMSG)
{
    /* MSG_DEALLOC_VGPRS / MSG_SAVEWAVE / GS messages have no effect on a compute
     * wave's results; ids per LLVM SIDefines.h SendMsg */
    unsigned id = (unsigned)x->i->imm & 0xf;
    if (id == 1 || id == 2 || id == 3)        /* interrupt, GS, GS_DONE */
        return;
    (void)x;
}
BODY(S_SENDMSGHALT) { sim_fault(x, "s_sendmsghalt halts the wave"); }

/* ---- VGPR index mode and VSKIP: the MODE bits idxmode.c acts on -------------
 * (AMD GCN3/Vega and CDNA ISA guides, "SOPC/SOP1/SOPP instructions")
 * - s_set_gpr_idx_on S0, imask: MODE.GPR_IDX_EN = 1; M0[7:0] = S0[7:0];
 *   M0[15:12] = imask (bit 0 src0, 1 src1, 2 src2, 3 dst); other M0 bits kept.
 * - s_set_gpr_idx_idx S0: M0[7:0] = S0[7:0].   s_set_gpr_idx_mode imask:
 *   M0[15:12] = imask.   s_set_gpr_idx_off: MODE.GPR_IDX_EN = 0.
 * - s_setvskip S0, S1: MODE.VSKIP = S0[S1[4:0]]. */
BODY(S_SET_GPR_IDX_ON)
{
    sim_wave *w = x->w;
    uint32_t idx = rs32(x, &x->i->s[0]) & 0xff, mask = rs32(x, &x->i->s[1]) & 0xf;
    w->s[SR_M0] = (w->s[SR_M0] & ~0xf0ffu) | idx | mask << 12;
    w->hw_mode |= MODE_GPR_IDX_EN;
}
BODY(S_SET_GPR_IDX_IDX)
{
    sim_wave *w = x->w;
    w->s[SR_M0] = (w->s[SR_M0] & ~0xffu) | (rs32(x, &x->i->s[0]) & 0xff);
}
BODY(S_SET_GPR_IDX_MODE)
{
    sim_wave *w = x->w;
    w->s[SR_M0] = (w->s[SR_M0] & ~0xf000u) | ((uint32_t)x->i->imm & 0xf) << 12;
}
BODY(S_SETVSKIP)
{
    uint32_t v = rs32(x, &x->i->s[0]), bit = rs32(x, &x->i->s[1]) & 31;
    if (v >> bit & 1)
        x->w->hw_mode |= MODE_VSKIP;
    else
        x->w->hw_mode &= ~MODE_VSKIP;
}
BODY(S_SET_GPR_IDX_OFF) { x->w->hw_mode &= ~MODE_GPR_IDX_EN; }

/* ---- the debugger branches S_CBRANCH_CDBG* and the fork/join stack
 * S_CBRANCH_G_FORK, S_CBRANCH_I_FORK, S_CBRANCH_JOIN --------------------------
 *
 * Semantics: AMD CDNA4 ISA reference (also CDNA3), "SOP1/SOP2/SOPK/SOPP
 * Instructions" pseudo-code.
 * - S_CBRANCH_CDBG*: branch on STATUS.COND_DBG_USER (bit 20) /
 *   COND_DBG_SYS (bit 21).  The simulator has no debugger attached, so
 *   both bits are 0 (STATUS starts at 0 and s_setreg cannot set them) and
 *   the branches fall through; the bits are read all the same.
 * - Fork/join: MODE.CSP (bits 31:29) indexes a stack of 128-bit entries in
 *   SGPRs: entry k is s[4k..4k+3] = { mask (s[4k], s[4k+1]), PC (s[4k+2],
 *   s[4k+3]) }.  A fork runs the side with fewer lanes first (EXEC = that
 *   mask) and pushes the other side; JOIN with a saved CSP different from
 *   the current one pops an entry into { PC, EXEC }, else falls through.
 */
#define COND_DBG_USER (1u << 20)
#define COND_DBG_SYS (1u << 21)

static inline void take(sim_x *x, uint64_t pc)
{
    x->branch_taken = 1;
    x->branch_pc = pc;
}
BODY(S_CBRANCH_CDBGSYS) { if (x->w->hw_status & COND_DBG_SYS) take(x, x->i->target); }
BODY(S_CBRANCH_CDBGUSER) { if (x->w->hw_status & COND_DBG_USER) take(x, x->i->target); }
BODY(S_CBRANCH_CDBGSYS_OR_USER)
{
    if (x->w->hw_status & (COND_DBG_SYS | COND_DBG_USER))
        take(x, x->i->target);
}
BODY(S_CBRANCH_CDBGSYS_AND_USER)
{
    if ((x->w->hw_status & (COND_DBG_SYS | COND_DBG_USER)) == (COND_DBG_SYS | COND_DBG_USER))
        take(x, x->i->target);
}

static inline unsigned csp(const sim_x *x) { return x->w->hw_mode >> 29; }
static inline void set_csp(sim_x *x, unsigned v)
{
    x->w->hw_mode = (x->w->hw_mode & 0x1fffffffu) | (v & 7u) << 29;
}
static void push(sim_x *x, uint64_t mask, uint64_t pc)
{
    unsigned k = csp(x) * 4;
    sim_wave *w = x->w;
    w->s[k] = (uint32_t)mask;
    w->s[k + 1] = (uint32_t)(mask >> 32);
    w->s[k + 2] = (uint32_t)pc;
    w->s[k + 3] = (uint32_t)(pc >> 32);
    set_csp(x, csp(x) + 1);
}
static void fork_br(sim_x *x, uint64_t cond, uint64_t target)
{
    uint64_t exec = sim_exec(x->w), pass = cond & exec, fail = ~cond & exec;
    uint64_t next = x->i->pc + x->i->size;
    if (pass == exec) {
        take(x, target);
    } else if (fail == exec) {
        /* fall through */
    } else if (__builtin_popcountll(fail) < __builtin_popcountll(pass)) {
        sim_set_exec(x->w, fail);
        push(x, pass, target);
    } else {
        sim_set_exec(x->w, pass);
        push(x, fail, next);
        take(x, target);
    }
}
BODY(S_CBRANCH_G_FORK) { fork_br(x, rs64(x, &x->i->s[0]), rs64(x, &x->i->s[1])); }
BODY(S_CBRANCH_I_FORK)
{
    const sim_opnd *m = x->i->d.kind != OK_NONE ? &x->i->d : &x->i->s[0];
    fork_br(x, rs64(x, m), x->i->target);
}
BODY(S_CBRANCH_JOIN)
{
    unsigned saved = rs32(x, &x->i->s[0]);
    if (csp(x) == (saved & 7))
        return;
    set_csp(x, csp(x) - 1);
    unsigned k = csp(x) * 4;
    sim_wave *w = x->w;
    sim_set_exec(w, (uint64_t)w->s[k] | (uint64_t)w->s[k + 1] << 32);
    take(x, (uint64_t)w->s[k + 2] | (uint64_t)w->s[k + 3] << 32);
}

const sim_body_ent sim_bodies_salu[] = {
    B(S_ADD_U32), B(S_SUB_U32), B(S_ADD_I32), B(S_SUB_I32), B(S_ADDC_U32), B(S_SUBB_U32),
    B(S_MIN_I32), B(S_MIN_U32), B(S_MAX_I32), B(S_MAX_U32), B(S_CSELECT_B32), B(S_CSELECT_B64),
    B(S_AND_B32), B(S_AND_B64), B(S_OR_B32), B(S_OR_B64), B(S_XOR_B32), B(S_XOR_B64),
    B(S_ANDN2_B32), B(S_ANDN2_B64), B(S_ORN2_B32), B(S_ORN2_B64), B(S_NAND_B32), B(S_NAND_B64),
    B(S_NOR_B32), B(S_NOR_B64), B(S_XNOR_B32), B(S_XNOR_B64),
    B(S_LSHL_B32), B(S_LSHL_B64), B(S_LSHR_B32), B(S_LSHR_B64), B(S_ASHR_I32), B(S_ASHR_I64),
    B(S_BFM_B32), B(S_BFM_B64), B(S_MUL_I32), B(S_MUL_HI_U32), B(S_MUL_HI_I32),
    B(S_BFE_U32), B(S_BFE_I32), B(S_BFE_U64), B(S_BFE_I64), B(S_ABSDIFF_I32),
    B(S_LSHL1_ADD_U32), B(S_LSHL2_ADD_U32), B(S_LSHL3_ADD_U32), B(S_LSHL4_ADD_U32),
    B(S_PACK_LL_B32_B16), B(S_PACK_LH_B32_B16), B(S_PACK_HH_B32_B16),
    B(S_MOVK_I32), B(S_CMOVK_I32), B(S_ADDK_I32), B(S_MULK_I32),
    B(S_CMPK_EQ_I32), B(S_CMPK_LG_I32), B(S_CMPK_GT_I32), B(S_CMPK_GE_I32), B(S_CMPK_LT_I32),
    B(S_CMPK_LE_I32), B(S_CMPK_EQ_U32), B(S_CMPK_LG_U32), B(S_CMPK_GT_U32), B(S_CMPK_GE_U32),
    B(S_CMPK_LT_U32), B(S_CMPK_LE_U32),
    B(S_GETREG_B32), B(S_SETREG_B32), B(S_SETREG_IMM32_B32), B(S_CALL_B64),
    B(S_MOV_B32), B(S_MOV_B64), B(S_CMOV_B32), B(S_CMOV_B64), B(S_NOT_B32), B(S_NOT_B64),
    B(S_WQM_B32), B(S_WQM_B64), B(S_BREV_B32), B(S_BREV_B64),
    B(S_BCNT0_I32_B32), B(S_BCNT0_I32_B64), B(S_BCNT1_I32_B32), B(S_BCNT1_I32_B64),
    B(S_FF0_I32_B32), B(S_FF0_I32_B64), B(S_FF1_I32_B32), B(S_FF1_I32_B64),
    B(S_FLBIT_I32_B32), B(S_FLBIT_I32_B64), B(S_FLBIT_I32), B(S_FLBIT_I32_I64),
    B(S_SEXT_I32_I8), B(S_SEXT_I32_I16), B(S_BITSET0_B32), B(S_BITSET0_B64), B(S_BITSET1_B32),
    B(S_BITSET1_B64), B(S_GETPC_B64), B(S_SETPC_B64), B(S_SWAPPC_B64), B(S_ABS_I32),
    B(S_QUADMASK_B32), B(S_QUADMASK_B64), B(S_BITREPLICATE_B64_B32),
    B(S_AND_SAVEEXEC_B64), B(S_OR_SAVEEXEC_B64), B(S_XOR_SAVEEXEC_B64), B(S_ANDN2_SAVEEXEC_B64),
    B(S_ORN2_SAVEEXEC_B64), B(S_NAND_SAVEEXEC_B64), B(S_NOR_SAVEEXEC_B64), B(S_XNOR_SAVEEXEC_B64),
    B(S_ANDN1_SAVEEXEC_B64), B(S_ORN1_SAVEEXEC_B64), B(S_ANDN1_WREXEC_B64), B(S_ANDN2_WREXEC_B64),
    B(S_MOVRELS_B32), B(S_MOVRELS_B64), B(S_MOVRELD_B32), B(S_MOVRELD_B64),
    B(S_CMP_EQ_I32), B(S_CMP_LG_I32), B(S_CMP_GT_I32), B(S_CMP_GE_I32), B(S_CMP_LT_I32),
    B(S_CMP_LE_I32), B(S_CMP_EQ_U32), B(S_CMP_LG_U32), B(S_CMP_GT_U32), B(S_CMP_GE_U32),
    B(S_CMP_LT_U32), B(S_CMP_LE_U32), B(S_CMP_EQ_U64), B(S_CMP_LG_U64),
    B(S_BITCMP0_B32), B(S_BITCMP1_B32), B(S_BITCMP0_B64), B(S_BITCMP1_B64),
    B(S_NOP), B(S_ENDPGM), B(S_ENDPGM_SAVED), B(S_BRANCH), B(S_CBRANCH_SCC0), B(S_CBRANCH_SCC1),
    B(S_CBRANCH_VCCZ), B(S_CBRANCH_VCCNZ), B(S_CBRANCH_EXECZ), B(S_CBRANCH_EXECNZ),
    {"S_WAITCNT", sim_waitcnt_insn, GCN_ID_S_WAITCNT}, B(S_BARRIER), B(S_SLEEP), B(S_SETPRIO),
    B(S_WAKEUP), B(S_ICACHE_INV),
    B(S_INCPERFLEVEL), B(S_DECPERFLEVEL), B(S_TTRACEDATA), B(S_SETKILL), B(S_SET_GPR_IDX_OFF),
    B(S_SETHALT), B(S_TRAP), B(S_SENDMSG), B(S_SENDMSGHALT),
    B(S_SET_GPR_IDX_ON), B(S_SET_GPR_IDX_IDX), B(S_SET_GPR_IDX_MODE), B(S_SETVSKIP),
    B(S_CBRANCH_CDBGSYS), B(S_CBRANCH_CDBGUSER), B(S_CBRANCH_CDBGSYS_OR_USER),
    B(S_CBRANCH_CDBGSYS_AND_USER), B(S_CBRANCH_G_FORK), B(S_CBRANCH_I_FORK), B(S_CBRANCH_JOIN),
    {NULL, NULL, 0}
};
