/*
 * handmade.h -- a tiny builder of hand-made instruction streams for the
 * analyzer's unit tests: records with operands, field tags and row flags as
 * the decoder and the ISA table will give them, so CFG and dataflow tests do
 * not depend on the decoders.
 */
#ifndef GCN_TEST_HANDMADE_H
#define GCN_TEST_HANDMADE_H

#include <string.h>
#include "lint.h"

#define HM_MAX 512

typedef struct hm_prog {
    gcn_insn in[HM_MAX];
    gcn_lfacts f[HM_MAX];
    const char *mnem[HM_MAX];
    uint64_t flags[HM_MAX];
    int label_of[HM_MAX];     /* branch -> label index, -1 */
    uint64_t label[64];
    unsigned n;
    uint64_t pc;
} hm_prog;

static inline void hm_init(hm_prog *p)
{
    memset(p, 0, sizeof *p);
    for (unsigned i = 0; i < HM_MAX; i++)
        p->label_of[i] = -1;
    p->pc = 0x1000;
}

static inline gcn_insn *hm_add(hm_prog *p, const char *mnem, uint64_t flags, gcn_fmt enc,
                               unsigned size)
{
    gcn_insn *in = &p->in[p->n];
    memset(in, 0, sizeof *in);
    in->addr = p->pc;
    in->size = (uint8_t)size;
    in->enc = (uint8_t)enc;
    in->id = GCN_ID_INVALID;
    p->mnem[p->n] = mnem;
    p->flags[p->n] = flags;
    p->n++;
    p->pc += size;
    return in;
}

static inline gcn_opnd *hm_op(gcn_insn *in, gcn_opnd_kind k, gcn_field fld, unsigned fl,
                              unsigned reg, unsigned n)
{
    gcn_opnd *o = &in->op[in->nopnds++];
    memset(o, 0, sizeof *o);
    o->kind = (uint8_t)k;
    o->field = (uint8_t)fld;
    o->flags = (uint8_t)fl;
    o->reg = (uint16_t)reg;
    o->nregs = (uint8_t)n;
    return o;
}

static inline void hm_lit(gcn_insn *in, gcn_field fld, uint32_t v)
{
    gcn_opnd *o = hm_op(in, GCN_OPND_LITERAL, fld, GCN_OPF_SRC, 255, 1);
    o->imm = v;
    in->literal = v;
    in->has_literal = 1;
}

/* inline integer constant 0..64 */
static inline void hm_ic(gcn_insn *in, gcn_field fld, unsigned v)
{
    hm_op(in, GCN_OPND_INLINE, fld, GCN_OPF_SRC, 128 + v, 1);
}

static inline void hm_label(hm_prog *p, unsigned l)
{
    p->label[l] = p->pc;
}

static inline void hm_waitcnt(hm_prog *p, unsigned vm, unsigned lgkm)
{
    gcn_insn *in = hm_add(p, "s_waitcnt", GCN_F_WAITCNT, GCN_FMT_SOPP, 4);
    unsigned s = (vm & 0xF) | ((vm >> 4) & 3) << 14 | 7u << 4 | (lgkm & 0xF) << 8;
    in->words[0] = 0xBF8C0000u | s;
}

static inline void hm_branch(hm_prog *p, const char *mnem, unsigned l, uint64_t flags)
{
    hm_add(p, mnem, GCN_F_BRANCH | flags, GCN_FMT_SOPP, 4);
    p->label_of[p->n - 1] = (int)l;
}

static inline void hm_simple(hm_prog *p, const char *mnem, uint64_t flags)
{
    gcn_insn *in = hm_add(p, mnem, flags, GCN_FMT_SOPP, 4);
    if (!strcmp(mnem, "s_nop"))
        in->words[0] = 0xBF800000u;
}

/* global_load_dword vdst, vaddr, off */
static inline void hm_vload(hm_prog *p, unsigned vdst, unsigned n, unsigned vaddr)
{
    gcn_insn *in = hm_add(p, n == 1 ? "global_load_dword" : "global_load_dwordx2",
                          GCN_F_VMCNT | GCN_F_LOAD | GCN_F_RD_EXEC, GCN_FMT_GLOBAL, 8);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VDST, GCN_OPF_DST, vdst, n);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VADDR, GCN_OPF_SRC, vaddr, 2);
}

static inline void hm_vstore(hm_prog *p, unsigned vaddr, unsigned vdata)
{
    gcn_insn *in = hm_add(p, "global_store_dword", GCN_F_VMCNT | GCN_F_STORE | GCN_F_RD_EXEC,
                          GCN_FMT_GLOBAL, 8);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VADDR, GCN_OPF_SRC, vaddr, 2);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VDATA, GCN_OPF_SRC, vdata, 1);
}

static inline void hm_flat_load(hm_prog *p, unsigned vdst, unsigned vaddr)
{
    gcn_insn *in = hm_add(p, "flat_load_dword",
                          GCN_F_VMCNT | GCN_F_LGKMCNT | GCN_F_LOAD | GCN_F_RD_EXEC, GCN_FMT_FLAT, 8);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VDST, GCN_OPF_DST, vdst, 1);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VADDR, GCN_OPF_SRC, vaddr, 2);
}

/* s_load_dwordxN sdst, s[base:base+1], offset */
static inline void hm_sload(hm_prog *p, unsigned sdst, unsigned n, unsigned sbase)
{
    gcn_insn *in = hm_add(p, n == 1 ? "s_load_dword" : n == 2 ? "s_load_dwordx2" : "s_load_dwordx4",
                          GCN_F_LGKMCNT | GCN_F_LOAD | GCN_F_SMEM_OOO, GCN_FMT_SMEM, 8);
    hm_op(in, GCN_OPND_SGPR, GCN_FLD_SDATA, GCN_OPF_DST, sdst, n);
    hm_op(in, GCN_OPND_SGPR, GCN_FLD_SBASE, GCN_OPF_SRC, sbase, 2);
}

/* ds_read_b32 vdst, vaddr offset:off */
static inline void hm_ds_read(hm_prog *p, unsigned vdst, unsigned vaddr, unsigned off)
{
    gcn_insn *in = hm_add(p, "ds_read_b32", GCN_F_LGKMCNT | GCN_F_LOAD | GCN_F_RD_EXEC,
                          GCN_FMT_DS, 8);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VDST, GCN_OPF_DST, vdst, 1);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_ADDR, GCN_OPF_SRC, vaddr, 1);
    in->m.offset = (int32_t)off;
}

static inline void hm_ds_write(hm_prog *p, unsigned vaddr, unsigned vdata, unsigned off)
{
    gcn_insn *in = hm_add(p, "ds_write_b32", GCN_F_LGKMCNT | GCN_F_STORE | GCN_F_RD_EXEC,
                          GCN_FMT_DS, 8);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_ADDR, GCN_OPF_SRC, vaddr, 1);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_DATA0, GCN_OPF_SRC, vdata, 1);
    in->m.offset = (int32_t)off;
}

/* buffer_load_dword vaddr, s[srsrc:+3], 0 offen lds */
static inline void hm_dma(hm_prog *p, unsigned vaddr, unsigned srsrc)
{
    gcn_insn *in = hm_add(p, "buffer_load_dword",
                          GCN_F_VMCNT | GCN_F_LOAD | GCN_F_LDS_DMA | GCN_F_RD_M0 | GCN_F_RD_EXEC,
                          GCN_FMT_MUBUF, 8);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VADDR, GCN_OPF_SRC, vaddr, 1);
    hm_op(in, GCN_OPND_SGPR, GCN_FLD_SRSRC, GCN_OPF_SRC, srsrc, 4);
    in->m.offen = 1;
    in->m.lds = 1;
}

/* VALU with VGPR dst and up to three VGPR/inline sources (src < 0: inline -src-1) */
static inline gcn_insn *hm_valu(hm_prog *p, const char *mnem, unsigned vdst, int s0, int s1)
{
    gcn_insn *in = hm_add(p, mnem, GCN_F_RD_EXEC, GCN_FMT_VOP2, 4);
    hm_op(in, GCN_OPND_VGPR, GCN_FLD_VDST, GCN_OPF_DST, vdst, 1);
    if (s0 >= 0) hm_op(in, GCN_OPND_VGPR, GCN_FLD_SRC0, GCN_OPF_SRC, (unsigned)s0, 1);
    else hm_ic(in, GCN_FLD_SRC0, (unsigned)(-s0 - 1));
    if (s1 >= 0) hm_op(in, GCN_OPND_VGPR, GCN_FLD_SRC1, GCN_OPF_SRC, (unsigned)s1, 1);
    else if (s1 != -1000) hm_ic(in, GCN_FLD_SRC1, (unsigned)(-s1 - 1));
    return in;
}

/* SALU sdst = op(ssrc0, ssrc1); sources: SGPR index, or literal when lit set */
static inline gcn_insn *hm_salu(hm_prog *p, const char *mnem, gcn_opnd_kind dk, unsigned sdst,
                                int s0, int s1_is_lit, uint32_t s1, uint64_t flags)
{
    gcn_insn *in = hm_add(p, mnem, flags, GCN_FMT_SOP2, s1_is_lit ? 8 : 4);
    hm_op(in, dk, GCN_FLD_SDST, GCN_OPF_DST, sdst, 1);
    if (s0 >= 0)
        hm_op(in, GCN_OPND_SGPR, GCN_FLD_SSRC0, GCN_OPF_SRC, (unsigned)s0, 1);
    if (s1_is_lit)
        hm_lit(in, GCN_FLD_SSRC1, s1);
    else if (s1 != 0xFFFFFFFFu)
        hm_op(in, GCN_OPND_SGPR, GCN_FLD_SSRC1, GCN_OPF_SRC, s1, 1);
    return in;
}

/* Resolve labels, classify; build the CFG. */
static inline int hm_finish(hm_prog *p, gcn_cfg *cfg)
{
    for (unsigned i = 0; i < p->n; i++) {
        if (p->label_of[i] >= 0) {
            int64_t d = ((int64_t)p->label[p->label_of[i]] - (int64_t)p->in[i].addr - 4) / 4;
            p->in[i].words[0] = 0xBF820000u | ((uint32_t)d & 0xFFFF);
        }
        gcn_lint_classify_as(&p->in[i], p->mnem[i], p->flags[i], &p->f[i]);
    }
    char err[128];
    return gcn_cfg_build_list(cfg, GCN_TARGET_GFX942, p->in, p->f, p->n, 0x1000, err, sizeof err);
}

#endif
