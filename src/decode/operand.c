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

const char *gcn_special_name(unsigned enc, unsigned nregs)
{
    if (nregs >= 2) {
        switch (enc) {
        case 102: return nregs == 2 ? "flat_scratch" : NULL;
        case 104: return nregs == 2 ? "xnack_mask" : NULL;
        case 106: return nregs == 2 ? "vcc" : NULL;
        case 125: return "null";
        case 126: return nregs == 2 ? "exec" : NULL;
        case 235: return "src_shared_base";
        case 236: return "src_shared_limit";
        case 237: return "src_private_base";
        case 238: return "src_private_limit";
        case 239: return "src_pops_exiting_wave_id";
        case 251: return "src_vccz";
        case 252: return "src_execz";
        case 253: return "src_scc";
        default: return NULL;
        }
    }
    switch (enc) {
    case 102: return "flat_scratch_lo";
    case 103: return "flat_scratch_hi";
    case 104: return "xnack_mask_lo";
    case 105: return "xnack_mask_hi";
    case 106: return "vcc_lo";
    case 107: return "vcc_hi";
    case 124: return "m0";
    case 125: return "null";
    case 126: return "exec_lo";
    case 127: return "exec_hi";
    case 230: return "src_flat_scratch_base_lo";
    case 231: return "src_flat_scratch_base_hi";
    case 235: return "src_shared_base";
    case 236: return "src_shared_limit";
    case 237: return "src_private_base";
    case 238: return "src_private_limit";
    case 239: return "src_pops_exiting_wave_id";
    case 251: return "src_vccz";
    case 252: return "src_execz";
    case 253: return "src_scc";
    case 254: return "src_lds_direct";
    default: return NULL;
    }
}

gcn_opnd *gcn_dec_src9(gcn_insn *in, gcn_field field, unsigned enc, unsigned nregs,
                       gcn_dtype dt, int have_lit, uint32_t lit, int *used_lit)
{
    gcn_opnd_kind kind;
    unsigned reg = enc;
    if (enc >= 256) {
        kind = GCN_OPND_VGPR;
        reg = enc - 256;
    } else if (enc <= 101) {
        kind = GCN_OPND_SGPR;
    } else if (enc >= 108 && enc <= 123) {
        kind = GCN_OPND_TTMP;
        reg = enc - 108;
    } else if ((enc >= 128 && enc <= 208) || (enc >= 240 && enc <= 248)) {
        kind = GCN_OPND_INLINE;
    } else if (enc == 255) {
        if (!have_lit)
            return NULL;
        gcn_opnd *o = gcn_add_opnd(in, GCN_OPND_LITERAL, field, GCN_OPF_SRC, 255, nregs, dt);
        if (o)
            o->imm = lit;
        in->literal = lit;
        in->has_literal = 1;
        if (used_lit)
            *used_lit = 1;
        return o;
    } else {
        kind = GCN_OPND_SPECIAL;
    }
    return gcn_add_opnd(in, kind, field, GCN_OPF_SRC, reg, nregs, dt);
}

static int dt_is16(gcn_dtype dt)
{
    return dt == GCN_DT_B16 || dt == GCN_DT_I16 || dt == GCN_DT_U16 || dt == GCN_DT_F16 ||
           dt == GCN_DT_BF16 || dt == GCN_DT_V2F16 || dt == GCN_DT_V2I16 || dt == GCN_DT_V2BF16;
}

static int dt_is64(gcn_dtype dt)
{
    return dt == GCN_DT_B64 || dt == GCN_DT_I64 || dt == GCN_DT_U64 || dt == GCN_DT_F64;
}

void gcn_print_inline(gcn_strbuf *sb, unsigned enc, gcn_dtype dt)
{
    if (enc >= 128 && enc <= 192) {
        gcn_sb_printf(sb, "%u", enc - 128);
        return;
    }
    if (enc >= 193 && enc <= 208) {
        gcn_sb_printf(sb, "-%u", enc - 192);
        return;
    }
    static const char *const f[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"};
    static const uint16_t h[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118};
    if (enc >= 240 && enc <= 248) {
        if (dt == GCN_DT_I16 || dt == GCN_DT_U16 || dt == GCN_DT_B16 || dt == GCN_DT_V2I16) {
            gcn_sb_printf(sb, "0x%x", h[enc - 240]);
            return;
        }
        if (enc == 248)
            gcn_sb_puts(sb, dt_is64(dt) ? "0.15915494309189532" : "0.15915494");
        else
            gcn_sb_puts(sb, f[enc - 240]);
        return;
    }
    gcn_sb_printf(sb, "<bad inline %u>", enc);
}

int gcn_literal_is_inlinable(uint32_t v, gcn_dtype dt)
{
    if (dt_is16(dt)) {
        int16_t s = (int16_t)(v & 0xffff);
        if ((v >> 16) != 0 && dt != GCN_DT_V2F16 && dt != GCN_DT_V2I16 && dt != GCN_DT_V2BF16)
            return 0;
        if (s >= -16 && s <= 64)
            return 1;
        static const uint16_t h[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118};
        for (unsigned i = 0; i < 9; i++)
            if ((v & 0xffff) == h[i])
                return dt == GCN_DT_F16 || dt == GCN_DT_V2F16;
        return 0;
    }
    int32_t s = (int32_t)v;
    if (s >= -16 && s <= 64)
        return 1;
    if (dt_is64(dt))
        return 0;
    static const uint32_t f[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
    for (unsigned i = 0; i < 9; i++)
        if (v == f[i])
            return 1;
    return 0;
}

void gcn_print_opnd(gcn_strbuf *sb, const gcn_insn *in, const gcn_opnd *o)
{
    const char *name;
    switch (o->kind) {
    case GCN_OPND_SGPR: case GCN_OPND_VGPR: case GCN_OPND_AGPR: case GCN_OPND_TTMP:
        gcn_print_reg(sb, (gcn_opnd_kind)o->kind, o->reg, o->nregs);
        break;
    case GCN_OPND_SPECIAL:
        name = gcn_special_name(o->reg, o->nregs);
        if (name)
            gcn_sb_puts(sb, name);
        else
            gcn_sb_printf(sb, "<special %u>", o->reg);
        break;
    case GCN_OPND_INLINE:
        gcn_print_inline(sb, o->reg, (gcn_dtype)o->dtype);
        break;
    case GCN_OPND_LITERAL:
        if (gcn_literal_is_inlinable((uint32_t)o->imm, (gcn_dtype)o->dtype))
            gcn_sb_printf(sb, "lit(0x%x)", (uint32_t)o->imm);
        else
            gcn_sb_printf(sb, "0x%x", (uint32_t)o->imm);
        break;
    case GCN_OPND_IMM:
    case GCN_OPND_LABEL:
        gcn_sb_printf(sb, "%lld", (long long)o->imm);
        break;
    default:
        gcn_sb_puts(sb, "<none>");
        break;
    }
}
