/*
 * idxmode.c -- the two MODE bits that change how later instructions run:
 * VGPR index mode (MODE.GPR_IDX_EN, bit 27) and VSKIP (MODE.VSKIP, bit 28),
 * with the instructions that set them.
 *
 * Facts (AMD GCN3/Vega and CDNA ISA guides, "SOPC/SOP1/SOPP instructions";
 * LLVM's AMDGPU operand syntax page "imask"; LLVM uses this mode for dynamic
 * vector indexing on GFX9 with -amdgpu-vgpr-index-mode):
 * - s_set_gpr_idx_on S0, imask: MODE.GPR_IDX_EN = 1; M0[7:0] = S0[7:0];
 *   M0[15:12] = imask (bit 0 src0, 1 src1, 2 src2, 3 dst); other M0 bits kept.
 * - s_set_gpr_idx_idx S0: M0[7:0] = S0[7:0].   s_set_gpr_idx_mode imask:
 *   M0[15:12] = imask.   s_set_gpr_idx_off: MODE.GPR_IDX_EN = 0 (ops_salu.c).
 * - While GPR_IDX_EN is set, the VALU instructions' VGPR and AGPR operands
 *   that the mask selects address register (n + M0[7:0]) of their kind.
 *   AGPRs: AITER's gfx950 f4gemm_bf16_per1x32Fp4_noBpreShuffle_256x256 reads
 *   its accumulator tiles with v_accvgpr_read_b32 v, aN under gpr_idx(SRC0)
 *   and an index stepping by 4, and is checked against torch on hardware
 *   (docs/gcnsim.md).  Modelling assumption: an indexed register beyond the
 *   kernel's architectural VGPRs (or AGPRs) is a fault (the AMD guides do not
 *   say; an unofficial GCN description has the hardware read v0 instead);
 *   SGPRs and constants are not indexed.
 * - s_setvskip S0, S1: MODE.VSKIP = S0[S1[4:0]].  While VSKIP is set, vector
 *   instructions (VALU, DS, buffer, flat/global/scratch) are not issued: the
 *   simulator steps over them (assumption: they count as one wait state for
 *   the hazard checks, like an s_nop 0, and as a wave-instruction for the
 *   instruction budget).
 *
 * The run loop calls sim_mode_insn() only while one of the two bits is set;
 * the indexed or skipped variant of an instruction is pre-decoded once per
 * (instruction, index, mask) and kept with the program (findings and tickets
 * may point at it), so the common path pays nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"

static void body_vskipped(sim_x *x) { (void)x; }

static int is_valu(unsigned enc)
{
    return enc == GCN_FMT_VOP1 || enc == GCN_FMT_VOP2 || enc == GCN_FMT_VOPC ||
           enc == GCN_FMT_VOP3 || enc == GCN_FMT_VOP3P;
}

static int is_vector(unsigned enc)
{
    return is_valu(enc) || enc == GCN_FMT_DS || enc == GCN_FMT_MUBUF || enc == GCN_FMT_MTBUF ||
           enc == GCN_FMT_FLAT || enc == GCN_FMT_GLOBAL || enc == GCN_FMT_SCRATCH;
}

/* The operand fields index mode can select, by mask bit. */
static int mask_bit(unsigned field)
{
    switch (field) {
    case GCN_FLD_SRC0: return 0;
    case GCN_FLD_SRC1: return 1;
    case GCN_FLD_SRC2: return 2;
    case GCN_FLD_VDST: return 3;
    default: return -1;
    }
}

/* Build the variant of si for key (vskip << 12 | mask << 8 | idx). */
static int make_variant(sim_prog *p, const sim_insn *si, unsigned key, sim_insn *out)
{
    gcn_insn in = si->raw;
    int skip = key >> 12 & 1;
    unsigned mask = key >> 8 & 0xf, idx = key & 0xff;
    if (!skip) {
        for (unsigned k = 0; k < in.nopnds && k < GCN_MAX_OPNDS; k++) {
            gcn_opnd *o = &in.op[k];
            int b = mask_bit(o->field);
            if ((o->kind == GCN_OPND_VGPR || o->kind == GCN_OPND_AGPR) && b >= 0 &&
                (mask >> b & 1))
                o->reg = (uint16_t)(o->reg + idx);
        }
    }
    sim_predecode_sb(out, &in, &p->dec, p->accum, p->nvrows, &p->sb);
    char buf[64];
    if (skip)
        snprintf(buf, sizeof buf, " (not issued: MODE.VSKIP)");
    else
        snprintf(buf, sizeof buf, " (VGPR index mode: +%u)", idx);
    size_t n = strlen(si->text) + strlen(buf) + 1;
    char *t = malloc(n);
    if (!t)
        return -1;
    snprintf(t, n, "%s%s", si->text, buf);
    free(out->text);
    out->text = t;
    out->where = si->where ? strdup(si->where) : NULL;
    out->file = si->file ? strdup(si->file) : NULL;
    out->sym = si->sym ? strdup(si->sym) : NULL;
    out->nsi = si->nsi;
    out->tsi = si->tsi;
    if (skip) {
        /* not issued: no body, no register reads or writes; for the hazard
         * checks one wait state, as s_nop 0 */
        gcn_insn nop;
        memset(&nop, 0, sizeof nop);
        nop.id = GCN_ID_S_NOP;
        nop.enc = GCN_FMT_SOPP;
        nop.size = 4;
        nop.addr = si->pc;
        gcn_hz_analyze(&p->dec, &nop, &out->hz);
        gcn_hz_roles(&out->hz, &out->hz_cons, &out->hz_prod);
        out->hz_ws = out->hz.ws;
        out->fn = body_vskipped;
        out->fn2 = NULL;
        out->bad = 0;
        out->nrd = out->nwr = 0;
        out->vfast = 0;
    }
    sim_hz_groups(out, p->hz_pgcons);
    p->hz_cons |= out->hz_cons;         /* (run_wave regroups when this grew it) */
    return 0;
}

sim_insn *sim_mode_insn(gcn_sim *s, sim_x *x, sim_insn *si)
{
    uint32_t mode = x->w->hw_mode, m0 = x->w->s[SR_M0];
    unsigned key;
    if ((mode & MODE_VSKIP) && is_vector(si->enc))
        key = 1u << 12;
    else if ((mode & MODE_GPR_IDX_EN) && is_valu(si->enc) && (m0 >> 12 & 0xf))
        key = (m0 >> 12 & 0xf) << 8 | (m0 & 0xff);
    else
        return si;
    sim_prog *p = s->prog;
    for (uint32_t i = 0; i < p->nix; i++)
        if (p->ix[i].base == si && p->ix[i].key == key)
            return p->ix[i].v;
    if (p->nix == p->capix) {
        uint32_t cap = p->capix ? 2 * p->capix : 16;
        struct sim_ixent *n = realloc(p->ix, cap * sizeof *n);
        if (!n)
            goto oom;
        p->ix = n;
        p->capix = cap;
    }
    sim_insn *v = calloc(1, sizeof *v);
    if (!v)
        goto oom;
    if (make_variant(p, si, key, v)) {
        free(v->text);
        free(v);
        goto oom;
    }
    p->ix[p->nix++] = (struct sim_ixent){si, key, v};
    return v;
oom:
    x->i = si;
    sim_fault(x, "out of memory");
    return NULL;
}
