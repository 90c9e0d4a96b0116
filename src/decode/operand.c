/*
 * operand.c -- operand helpers shared by the family modules: adding operands
 * to a record and printing register ranges the way LLVM's AMDGPUInstPrinter
 * does (v1, v[2:3], s[4:7], a[0:15], ttmp[4:5], vcc, exec, ...).
 *
 * 9-bit scalar source encoding (AMD CDNA3 ISA, "Scalar operands"; LLVM
 * SIDefines.h / AMDGPUDisassembler.cpp): 0-101 SGPRs, 102/103 flat_scratch,
 * 104/105 xnack_mask, 106/107 vcc, 108-123 ttmp0-15, 124 m0, 126/127 exec,
 * 128 zero, 129-192 1..64, 193-208 -1..-16, 235-239 shared/private apertures,
 * 240-248 float inline constants, 249 SDWA, 250 DPP, 251 vccz, 252 execz,
 * 253 scc, 254 lds_direct, 255 literal, 256-511 VGPRs.
 */
#include "decode_int.h"

gcn_opnd *gcn_add_opnd(gcn_insn *in, gcn_opnd_kind kind, gcn_field field,
                       unsigned flags, unsigned reg, unsigned nregs, gcn_dtype dt)
{
    if (in->nopnds >= GCN_MAX_OPNDS)
        return NULL;
    gcn_opnd *o = &in->op[in->nopnds++];
    o->kind = (uint8_t)kind;
    o->field = (uint8_t)field;
    o->flags = (uint8_t)flags;
    o->reg = (uint16_t)reg;
    o->nregs = (uint8_t)nregs;
    o->dtype = (uint8_t)dt;
    o->imm = 0;
    return o;
}

void gcn_print_reg(gcn_strbuf *sb, gcn_opnd_kind kind, unsigned reg, unsigned nregs)
{
    const char *p = kind == GCN_OPND_VGPR ? "v" : kind == GCN_OPND_AGPR ? "a"
                  : kind == GCN_OPND_TTMP ? "ttmp" : "s";
    if (nregs <= 1)
        gcn_sb_printf(sb, "%s%u", p, reg);
    else
        gcn_sb_printf(sb, "%s[%u:%u]", p, reg, reg + nregs - 1);
}
