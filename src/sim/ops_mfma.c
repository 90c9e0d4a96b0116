/*
 * ops_mfma.c -- the simulator's bodies for the matrix-core (MAI) rows: every
 * v_mfma_*, v_smfmac_* and gfx950 v_mfma_scale_* row of the ISA table runs one
 * body, sim_mfma_body (table.c gives it to every row with GCN_F_MFMA), which reads the operands named by the pre-decoded record from
 * the wave's register file and calls the parameterised implementation
 * gcn_mfma_run (src/sim/mfma.c; layouts and numerics in docs/mfma.md).
 *
 * Operands (src/decode/vop3p.c, "Records"): vdst = D, src0 = A, src1 = B, src2 = C
 * (MFMA) or the sparsity index VGPR (SMFMAC, whose D is also its accumulator C);
 * the 128-bit scaled forms add GCN_FLD_SCALE_SRC0/1 (scale VGPRs of A and B).
 * VGPR and AGPR operands are rows of the unified register file (AGPR aN is row
 * accum_offset + N, already resolved by prog.c), so a tuple of R registers is
 * R consecutive rows of 64 lanes: exactly the lane-major layout gcn_mfma_run
 * takes, passed without copying.  A constant C is expanded into every lane of
 * every register (f64: low word in even, high word in odd registers);
 * SGPR operands (outside the MAI register classes, LLVM prints an "Invalid
 * register" note) are read as the same value in every lane.
 *
 * EXEC is ignored: all 64 lanes of D are written (AMD CDNA4 ISA 7.1.5, see
 * gcn_mfma.h).  v_accvgpr_read/write/mov are plain moves in ops_vop3p.c.
 */
#include <stdio.h>
#include <string.h>
#include "sim_body.h"
#include "gcn_mfma.h"

/* Scratch rows for operands that are not VGPR/AGPR tuples (constants, SGPRs);
 * the simulator runs one instruction at a time per thread. */
static _Thread_local uint32_t mfma_tmp[4][16 * NL];

/* Rows of operand o holding n registers, or the operand expanded into slot `k`
 * of the scratch.  Returns NULL (after a fault) when the tuple leaves the
 * register file. */
static const uint32_t *mfma_src(sim_x *x, const sim_opnd *o, unsigned n, unsigned k,
                                const char *what)
{
    if (o->kind == OK_V) {
        if ((unsigned)o->r + n > x->w->nvrows) {
            sim_fault(x, "%s %s: registers %u..%u are beyond the wave's %u VGPR/AGPR rows",
                      x->i->text, what, o->r, o->r + n - 1, x->w->nvrows);
            return NULL;
        }
        return x->w->v[o->r];
    }
    if (n > 16)
        n = 16;
    uint32_t *t = mfma_tmp[k];
    int wide = o->dt == GCN_DT_F64 || o->dt == GCN_DT_B64 || o->dt == GCN_DT_I64 ||
               o->dt == GCN_DT_U64;
    for (unsigned r = 0; r < n; r++) {
        uint32_t v;
        if (o->kind == OK_C)
            v = (uint32_t)(wide ? o->c >> (32 * (r & 1)) : o->c);
        else if (o->kind == OK_S)
            v = x->w->s[(o->r + r) & 127];
        else
            v = rs32(x, o);
        for (unsigned l = 0; l < NL; l++)
            t[r * NL + l] = v;
    }
    return t;
}

/* Scale operand of a v_mfma_scale_* (field f): a VGPR row, or a constant in every
 * lane (gcn_mfma_run reads a constant's float exponent). */
static const uint32_t *mfma_scale(sim_x *x, gcn_field f, unsigned k)
{
    const gcn_opnd *op = gcn_insn_field(&x->i->raw, f);
    if (!op)
        return NULL;
    if (op->kind == GCN_OPND_VGPR) {
        if (op->reg >= x->w->nvrows) {
            sim_fault(x, "%s: scale operand v%u is beyond the kernel's VGPRs "
                      "(%u allocated)", x->i->text, op->reg, x->w->nvrows);
            return NULL;
        }
        return x->w->v[op->reg];
    }
    uint32_t v = 0;
    if (op->kind == GCN_OPND_INLINE)
        v = (uint32_t)gcn_inline_value(op->reg, op->dtype);
    else if (op->kind == GCN_OPND_LITERAL)
        v = (uint32_t)op->imm;
    else if (op->kind == GCN_OPND_SGPR)
        v = x->w->s[op->reg & 127];
    uint32_t *t = mfma_tmp[k];
    for (unsigned l = 0; l < NL; l++)
        t[l] = v;
    return t;
}

/* The body of every MFMA/SMFMAC row: table.c gives it to each row with GCN_F_MFMA. */
void sim_mfma_body(sim_x *x)
{
    const sim_insn *si = x->i;
    gcn_target t = sim_target(x);
    gcn_mfma_info I;
    char err[256];
    if (gcn_mfma_info_get(&si->raw, t, &I, err, sizeof err)) {
        sim_fault(x, "%s: %s", si->text, err);
        return;
    }
    if (si->d.kind != OK_V) {
        sim_fault(x, "%s: the destination is not a VGPR/AGPR tuple", si->text);
        return;
    }
    gcn_mfma_operands ops = {0};
    if (!(ops.a = mfma_src(x, &si->s[0], I.regs_a, 0, "A (src0)")) ||
        !(ops.b = mfma_src(x, &si->s[1], I.regs_b, 1, "B (src1)")))
        return;
    if (I.sparse) {
        if (!(ops.idx = mfma_src(x, &si->s[2], 1, 2, "index (src2)")) ||
            !(ops.c = mfma_src(x, &si->d, I.regs_d, 3, "C/D (vdst)")))
            return;
    } else if (!(ops.c = mfma_src(x, &si->s[2], I.regs_c, 2, "C (src2)"))) {
        return;
    }
    if (I.scaled) {
        ops.scale_a = mfma_scale(x, GCN_FLD_SCALE_SRC0, 0);
        if (sim_faulted(x))
            return;
        ops.scale_b = mfma_scale(x, GCN_FLD_SCALE_SRC1, 1);
        if (sim_faulted(x))
            return;
    }
    if ((unsigned)si->d.r + I.regs_d > x->w->nvrows) {
        sim_fault(x, "%s: D registers %u..%u are beyond the wave's %u VGPR/AGPR rows",
                  si->text, si->d.r, si->d.r + I.regs_d - 1, x->w->nvrows);
        return;
    }
    ops.d = x->w->v[si->d.r];
    if (gcn_mfma_run(&si->raw, t, &ops, err, sizeof err))
        sim_fault(x, "%s: %s", si->text, err);
}
