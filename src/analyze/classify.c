/*
 * classify.c -- per-instruction facts for the analyzer: control-flow kind,
 * counters incremented and whether they return in order, LDS accesses,
 * s_waitcnt / s_nop operands, branch targets and register def/use.
 *
 * Every fact comes from the ISA row: its flags, format and unit (gcn_isa.h)
 * and its generated facts (src/decode/isa/facts.def, gcn_facts.h: control
 * kind, ALU class, LDS access, element bytes); no mnemonic is tested here.
 * The encoding family fills in counters when a row carries none (every
 * SMEM/DS/MUBUF/MTBUF/FLAT access is counted).  Facts used here (LLVM SIInsertWaitcnts.cpp, AMD CDNA3
 * ISA "Data dependency resolution"): vector memory ops of one wave retire in
 * issue order in vmcnt; LDS ops in order in lgkmcnt; SMEM and messages may
 * return out of order; FLAT ops count in both counters and, since they may
 * go to either memory, in order in neither (LLVM forces vmcnt(0)/lgkmcnt(0)
 * for pending FLAT on GFX9, "hasFlatLgkmVMemCountInOrder" is false before
 * GFX10).  SOPP branch targets are pc + 4 + simm16 * 4.
 */
#include <string.h>
#include "lint.h"

void gcn_waitcnt_decode(uint16_t s, unsigned *vm, unsigned *exp, unsigned *lgkm)
{
    if (vm) *vm = (s & 0xFu) | ((s >> 14) & 0x3u) << 4;
    if (exp) *exp = (s >> 4) & 0x7u;
    if (lgkm) *lgkm = (s >> 8) & 0xFu;
}

/* The generated per-row facts (src/decode/isa/facts.def, tools/isagen/facts.py). */
typedef struct row_facts {
    uint8_t kind, alu, lds, ebytes, fx;
} row_facts;

static const row_facts row_fact[GCN_ID_COUNT] = {
#define FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ) \
    [GCN_ID_##ID] = { GCN_LK_##CTL, GCN_LA_##ALU, (LDS), (EBYTES), (MEMX) },
#include "isa/facts.def"
#undef FACT
};

enum {
    N_FACTS = 0
#define FACT(ID, CTL, ALU, LDS, EBYTES, MEMX, HZ) + 1
#include "isa/facts.def"
#undef FACT
};
_Static_assert(N_FACTS == GCN_ID_COUNT - 1, "facts.def is stale: one FACT row per INSN row");

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
    unsigned id = in->id > GCN_ID_INVALID && in->id < GCN_ID_COUNT &&
                  m == gcn_isa_row_of(in->id)->mnem ? in->id : gcn_isa_find_mnem(m);
    const row_facts *rf = &row_fact[id];
    const gcn_isa_row *row = gcn_isa_row_of(id);
    o->kind = rf->kind;
    o->alu = rf->alu;
    o->fx = rf->fx;
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
    uint64_t c = gcn_insn_counters(f);
    unsigned ctr = ((c & GCN_F_VMCNT) ? GCN_LC_VM : 0u) | ((c & GCN_F_LGKMCNT) ? GCN_LC_LGKM : 0u);
    o->ctr = (uint8_t)ctr;
    if (ctr == (GCN_LC_VM | GCN_LC_LGKM)) {
        o->mem = GCN_LM_FLAT;
        o->vm_ooo = o->lgkm_ooo = 1;
    } else if (ctr == GCN_LC_VM) {
        o->mem = GCN_LM_VMEM;
    } else if (ctr == GCN_LC_LGKM) {
        if (in->enc == GCN_FMT_DS || row->fmt == GCN_FMT_DS) {
            o->mem = GCN_LM_LDS;
        } else if (in->enc == GCN_FMT_SMEM || (f & GCN_F_SMEM_OOO) ||
                   row->unit == GCN_UNIT_SMEM) {
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
        if (rf->lds & GCN_FX_LDS_R) o->lds |= GCN_LL_READ;
        if (rf->lds & GCN_FX_LDS_W) o->lds |= GCN_LL_WRITE;
        o->lds_bytes = rf->ebytes;
    }
    /* MUBUF rows allow the lds bit (flag LDS_DMA); the instance decides */
    bool mubuf = in->enc == GCN_FMT_MUBUF || in->enc == GCN_FMT_MTBUF;
    if (mubuf ? in->m.lds != 0 : (f & GCN_F_LDS_DMA) != 0) {
        o->lds |= GCN_LL_DMA;
        o->lds_bytes = rf->ebytes;
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
