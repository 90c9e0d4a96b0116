/*
 * salu.c -- decoder and printer of the scalar families SOP2, SOPK, SOP1,
 * SOPC, SOPP and SMEM (gfx942, gfx950), driven by the SIG column of
 * isa/salu.def (grammar at the top of that file).
 *
 * Encodings (LLVM SOPInstructions.td SOP*_Real*, SMInstructions.td
 * SMEM_Real_vi; AMD CDNA3 ISA "Microcode formats"):
 *   SOP2  [31:30]=2 op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0]
 *   SOPK  [31:28]=0xb op[27:23] sdst[22:16] simm16[15:0]
 *   SOP1  [31:23]=0x17d sdst[22:16] op[15:8] ssrc0[7:0]
 *   SOPC  [31:23]=0x17e op[22:16] ssrc1[15:8] ssrc0[7:0]
 *   SOPP  [31:23]=0x17f op[22:16] simm16[15:0]
 *   SMEM  [31:26]=0x30 op[25:18] imm[17] glc[16] nv[15] soe[14]
 *         sdata[12:6] sbase[5:0] (register / 2);
 *         second dword: soffset[31:25] offset[20:0] (signed on GFX9+)
 * An 8-bit scalar source of 255 takes the following dword as a 32-bit
 * literal (both sources of a SOP2/SOPC share it).
 *
 * How LLVM 22 decodes and prints these operands (checked against the
 * installed disassembler by tools/isagen/salu.py and tests/decode/sweep.py):
 *   - tuples of SGPRs/ttmps are aligned down (2 for 64 bits, 4 above) and
 *     must lie in s0..s105 / ttmp0..15; null (125) fits any width;
 *   - register-only classes (SReg_32/SReg_64) still decode constants and
 *     literals but print them with an invalid-immediate comment;
 *   - m0/exec in SMEM data (SReg_32_XM0_XEXEC, SReg_64_XEXEC) and
 *     src_lds_direct in a 32-bit source print with an invalid-register
 *     comment;
 *   - a literal equal to an inline constant prints as lit(0x...); in a
 *     64-bit operand the literal is zero-extended.
 *
 * Decoded operands (gcn_insn.op[], in LLVM's printing order) carry their
 * encoding field and role (GCN_OPF_DST/SRC from the SIG): SDST, SSRC0,
 * SSRC1 for SOP registers and constants (s_cmpk_*, s_setreg_b32 and
 * s_cbranch_i_fork read their SDST; the 32-bit literal of
 * s_setreg_imm32_b32 is tagged SSRC0); SIMM16 for 16-bit immediates
 * (branch targets are GCN_OPND_LABEL with imm = the signed word offset;
 * the target is addr + 4 + 4 * imm), the gpr_idx mode of
 * s_set_gpr_idx_on is an SSRC1 immediate.  SMEM: SDATA (written by loads,
 * read by stores, read and written by atomics with glc, only read without;
 * s_atc_probe's is an immediate), SBASE, SOFFSET (a register, when the
 * soe bit or a clear imm bit selects one) and OFFSET (the signed 21-bit
 * byte offset, also in m.offset); m.glc, m.imm_offset_mode, m.soe and
 * m.nt (the nv bit) hold the SMEM bits as encoded.
 *
 * Speed: a row's SIG is parsed once, at the row's first use, into a decode
 * plan (per operand: field position, a table of what each field value
 * decodes to, the operand's fixed members) and a print plan (per operand:
 * how its class prints).  The value tables and the operand texts are
 * made from dec_ssrc() and print_reg_opnd() (tabs_build), which stay the
 * statement of LLVM's rules, and compiled in (salu_tabs.inc, generated);
 * operands the tables do not cover (literals equal to a constant, notes,
 * symbols) print through those functions.
 * The bench mixes families, rows and registers at random, so what is read
 * per instruction is kept to few cache lines: a plan is two lines (the
 * printer's with the mnemonic, the decoder's), the value tables hold 2
 * bytes per value, and registers and integer constants print through
 * gcn_cur_reg() / gcn_cur_inline_int() rather than from a table of texts
 * (a miss costs more than computing the text).
 */
#include <assert.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode_int.h"

/* ---- the SIG grammar ---------------------------------------------------- */

enum sfield {
    SF_NONE, SF_SDST, SF_SSRC0, SF_SSRC1, SF_SIMM16, SF_LITERAL, SF_SDATA, SF_SBASE,
    SF_OFFSET, SF_IMMBIT, SF_CPOL,
};

enum sclass {
    SC_NONE,
    SC_S32, SC_S64, SC_SS32, SC_SS64, SC_X32, SC_X64, SC_S128, SC_S256, SC_S512,
    SC_K16, SC_U16, SC_LABEL, SC_ENDPGM, SC_ZERO, SC_HWREG, SC_SENDMSG, SC_WAITCNT,
    SC_GPRIDX, SC_IMM32, SC_IMM7, SC_SMEM, SC_GLC,
};

enum srole { SR_NONE = 0, SR_S = 1, SR_D = 2, SR_DS = 3 };

typedef struct sspec {
    uint8_t field, cls, role;
    /* derived once from the above (spec_derive) */
    uint8_t tag;        /* gcn_field of the operand */
    uint8_t flags;      /* GCN_OPF_SRC / DST from the role */
    uint8_t nregs;      /* registers of the class */
    uint8_t dtype;      /* gcn_dtype of the class */
} sspec;

#define MAX_SPECS 6

static const struct { const char *name; uint8_t v; } field_names[] = {
    {"sdst", SF_SDST}, {"ssrc0", SF_SSRC0}, {"ssrc1", SF_SSRC1}, {"simm16", SF_SIMM16},
    {"literal", SF_LITERAL}, {"sdata", SF_SDATA}, {"sbase", SF_SBASE}, {"offset", SF_OFFSET},
    {"!imm", SF_IMMBIT}, {"cpol", SF_CPOL},
};

static const struct { const char *name; uint8_t v; } class_names[] = {
    {"S32", SC_S32}, {"S64", SC_S64}, {"SS32", SC_SS32}, {"SS64", SC_SS64},
    {"X32", SC_X32}, {"X64", SC_X64}, {"S128", SC_S128}, {"S256", SC_S256},
    {"S512", SC_S512}, {"k16", SC_K16}, {"u16", SC_U16}, {"label", SC_LABEL},
    {"endpgm", SC_ENDPGM}, {"zero", SC_ZERO}, {"hwreg", SC_HWREG},
    {"sendmsg", SC_SENDMSG}, {"waitcnt", SC_WAITCNT}, {"gpridx", SC_GPRIDX},
    {"imm32", SC_IMM32}, {"imm7", SC_IMM7}, {"smem", SC_SMEM}, {"glc", SC_GLC},
};

static unsigned lookup_name(const char *s, size_t n, const void *tab, size_t count)
{
    const struct { const char *name; uint8_t v; } *t = tab;
    for (size_t i = 0; i < count; i++)
        if (strlen(t[i].name) == n && !memcmp(t[i].name, s, n))
            return t[i].v;
    return 0;
}

/* Parse a SIG string into specs; returns their number. */
static unsigned parse_sig(const char *sig, sspec *sp)
{
    unsigned n = 0;
    const char *p = sig;
    while (*p && n < MAX_SPECS) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *tok = p;
        while (*p && *p != ' ')
            p++;
        const char *part[3] = {tok, NULL, NULL};
        size_t len[3] = {0, 0, 0};
        unsigned np = 0;
        const char *q = tok;
        for (;;) {
            if (q == p || *q == ':') {
                len[np] = (size_t)(q - part[np]);
                np++;
                if (q == p || np == 3)
                    break;
                part[np] = q + 1;
            }
            q++;
        }
        sspec s = {0};
        s.field = (uint8_t)lookup_name(part[0], len[0], field_names,
                                       sizeof field_names / sizeof field_names[0]);
        if (np > 1)
            s.cls = (uint8_t)lookup_name(part[1], len[1], class_names,
                                         sizeof class_names / sizeof class_names[0]);
        if (np > 2)
            s.role = len[2] == 2 ? SR_DS : part[2][0] == 'd' ? SR_D : SR_S;
        assert(s.field != SF_NONE && s.cls != SC_NONE);
        sp[n++] = s;
    }
    return n;
}

static unsigned class_nregs(unsigned cls)
{
    switch (cls) {
    case SC_S64: case SC_SS64: case SC_X64: return 2;
    case SC_S128: return 4;
    case SC_S256: return 8;
    case SC_S512: return 16;
    default: return 1;
    }
}

static gcn_dtype class_dtype(unsigned cls)
{
    switch (class_nregs(cls)) {
    case 1: return GCN_DT_B32;
    case 2: return GCN_DT_B64;
    case 4: return GCN_DT_B128;
    default: return GCN_DT_ANY;
    }
}

static int class_regonly(unsigned cls)
{
    return cls == SC_S32 || cls == SC_S64;
}

static unsigned role_flags(unsigned role)
{
    return (role & SR_S ? GCN_OPF_SRC : 0) | (role & SR_D ? GCN_OPF_DST : 0);
}

static gcn_field sfield_tag(unsigned f)
{
    switch (f) {
    case SF_SDST: return GCN_FLD_SDST;
    case SF_SSRC0: case SF_LITERAL: return GCN_FLD_SSRC0;
    case SF_SSRC1: return GCN_FLD_SSRC1;
    case SF_SIMM16: return GCN_FLD_SIMM16;
    case SF_SDATA: return GCN_FLD_SDATA;
    case SF_SBASE: return GCN_FLD_SBASE;
    default: return GCN_FLD_NONE;
    }
}

/* Fill the derived members of a parsed spec. */
static void spec_derive(sspec *s)
{
    s->tag = (uint8_t)sfield_tag(s->field);
    s->flags = (uint8_t)role_flags(s->role);
    s->nregs = (uint8_t)class_nregs(s->cls);
    s->dtype = (uint8_t)class_dtype(s->cls);
}

/* ---- decoding ------------------------------------------------------------ */

/* A 7-bit scalar register encoding v as nregs registers (the register part
 * of LLVM's decodeSrcOp for SReg classes). */
static inline gcn_opnd *dec_sreg(gcn_insn *in, gcn_field fld, unsigned flags, unsigned v,
                                 unsigned nregs, gcn_dtype dt)
{
    unsigned align = nregs >= 4 ? 4 : nregs;
    if (v <= 101) {
        unsigned base = v & ~(align - 1);          /* align is 1, 2 or 4 */
        if (base + nregs > 106)
            return NULL;
        return gcn_add_opnd(in, GCN_OPND_SGPR, fld, flags, base, nregs, dt);
    }
    if (v >= 108 && v <= 123) {
        unsigned base = (v - 108) & ~(align - 1);
        if (base + nregs > 16)
            return NULL;
        return gcn_add_opnd(in, GCN_OPND_TTMP, fld, flags, base, nregs, dt);
    }
    if (v == 125 || nregs == 1 ||
        (nregs == 2 && (v == 102 || v == 104 || v == 106 || v == 126)))
        return gcn_add_opnd(in, GCN_OPND_SPECIAL, fld, flags, v, nregs, dt);
    return NULL;
}

/* An 8-bit scalar source.  Returns NULL for an invalid encoding or a
 * literal that is missing (nw < 2). */
static gcn_opnd *dec_ssrc(gcn_insn *in, gcn_field fld, unsigned flags, unsigned v,
                          unsigned nregs, gcn_dtype dt, const uint32_t *w, size_t nw,
                          size_t *size)
{
    if (v < 128)
        return dec_sreg(in, fld, flags, v, nregs, dt);
    if (v <= 208 || (v >= 240 && v <= 248))
        return gcn_add_opnd(in, GCN_OPND_INLINE, fld, flags, v, nregs, dt);
    if (v == 255) {
        if (nw < 2)
            return NULL;
        gcn_opnd *o = gcn_add_opnd(in, GCN_OPND_LITERAL, fld, flags, v, nregs, dt);
        if (o)
            o->imm = w[1];
        in->literal = w[1];
        in->has_literal = 1;
        *size = 8;
        return o;
    }
    if (v == 230 || (v >= 235 && v <= 239) || (v >= 251 && v <= 253) ||
        (nregs == 1 && (v == 231 || v == 254)))
        return gcn_add_opnd(in, GCN_OPND_SPECIAL, fld, flags, v, nregs, dt);
    return NULL;
}


/* The opcode field of each scalar format: SOP2 [29:23], SOPK [27:23], SOP1
 * [15:8], SOPC/SOPP [22:16], SMEM [25:18].  From tables, not a switch: the
 * formats mix at random in code. */
static unsigned opcode_of(gcn_fmt fmt, uint32_t w0)
{
    static const uint8_t lo[GCN_FMT_COUNT] = {
        [GCN_FMT_SOP2] = 23, [GCN_FMT_SOPK] = 23, [GCN_FMT_SOP1] = 8, [GCN_FMT_SOPC] = 16,
        [GCN_FMT_SOPP] = 16, [GCN_FMT_SMEM] = 18};
    static const uint8_t mask[GCN_FMT_COUNT] = {
        [GCN_FMT_SOP2] = 0x7f, [GCN_FMT_SOPK] = 0x1f, [GCN_FMT_SOP1] = 0xff,
        [GCN_FMT_SOPC] = 0x7f, [GCN_FMT_SOPP] = 0x7f, [GCN_FMT_SMEM] = 0xff};
    return (w0 >> lo[fmt]) & mask[fmt];
}


/* ---- printing ------------------------------------------------------------ */

static const char *special_name(unsigned v, unsigned nregs)
{
    static const char *const lo[] = {
        "flat_scratch_lo", "flat_scratch_hi", "xnack_mask_lo", "xnack_mask_hi",
        "vcc_lo", "vcc_hi"};                                  /* 102..107 */
    static const char *const apert[] = {
        "src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit",
        "src_pops_exiting_wave_id"};                          /* 235..239 */
    static const char *const cond[] = {"src_vccz", "src_execz", "src_scc"};  /* 251..253 */
    if (v == 125)
        return "null";
    if (v >= 235 && v <= 239)
        return apert[v - 235];
    if (v >= 251 && v <= 253)
        return cond[v - 251];
    if (v == 230)
        return "src_flat_scratch_base_lo";
    if (nregs == 2) {
        switch (v) {
        case 102: return "flat_scratch";
        case 104: return "xnack_mask";
        case 106: return "vcc";
        case 126: return "exec";
        default: return "?";
        }
    }
    if (v >= 102 && v <= 107)
        return lo[v - 102];
    switch (v) {
    case 124: return "m0";
    case 126: return "exec_lo";
    case 127: return "exec_hi";
    case 231: return "src_flat_scratch_base_hi";
    case 254: return "src_lds_direct";
    default: return "?";
    }
}

static int f32_inline_bits(uint32_t v)
{
    static const uint32_t f[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
    if ((v & 0xffff) && v != f[8])
        return 0;                       /* (all but 1/(2*pi) end in 16 zero bits) */
    for (unsigned i = 0; i < 9; i++)
        if (v == f[i])
            return (int)i + 1;
    return 0;
}

/* LLVM's printImmediate32. */
static void print_imm32(gcn_strbuf *sb, uint32_t v)
{
    static const char *const txt[9] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0",
                                       "4.0", "-4.0", "0.15915494"};
    int32_t s = (int32_t)v;
    int f;
    if (s >= -16 && s <= 64)
        gcn_sb_puti(sb, s);
    else if ((f = f32_inline_bits(v)) != 0)
        gcn_sb_puts(sb, txt[f - 1]);
    else
        gcn_sb_put0x(sb, v);
}

/* The value of an inline constant encoding as a 32-bit pattern. */
static uint32_t inline_value32(unsigned enc)
{
    static const uint32_t f[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
    if (enc <= 192)
        return enc - 128;
    if (enc <= 208)
        return (uint32_t)(192 - (int)enc);
    return f[enc - 240];
}

static void print_reg_opnd(gcn_strbuf *sb, const gcn_opnd *o, unsigned cls)
{
    switch (o->kind) {
    case GCN_OPND_SGPR: case GCN_OPND_TTMP:
        gcn_put_reg(sb, o->kind, o->reg, o->nregs);
        return;
    case GCN_OPND_SPECIAL:
        gcn_sb_puts(sb, special_name(o->reg, o->nregs));
        if (o->reg == 254)
            gcn_sb_puts(sb, "/*Invalid register, operand has 'SReg_32' register class*/");
        else if (cls == SC_X32 && (o->reg == 124 || o->reg == 126 || o->reg == 127))
            gcn_sb_puts(sb, "/*Invalid register, operand has 'SReg_32_XM0_XEXEC' "
                            "register class*/");
        else if (cls == SC_X64 && o->reg == 126)
            gcn_sb_puts(sb, "/*Invalid register, operand has 'SReg_64_XEXEC' register class*/");
        return;
    case GCN_OPND_INLINE:
        if (class_regonly(cls)) {
            print_imm32(sb, inline_value32(o->reg));
            gcn_sb_puts(sb, "/*Invalid immediate*/");
        } else {
            gcn_print_inline(sb, o->reg, (gcn_dtype)o->dtype);
        }
        return;
    case GCN_OPND_LITERAL: {
        uint32_t v = (uint32_t)o->imm;
        if (class_regonly(cls)) {
            print_imm32(sb, v);
            gcn_sb_puts(sb, "/*Invalid immediate*/");
        } else if (cls == SC_IMM32) {
            print_imm32(sb, v);
        } else {
            int32_t s = (int32_t)v;
            int inl = o->nregs == 2 ? v <= 64
                                    : (s >= -16 && s <= 64) || f32_inline_bits(v);
            if (inl)
                gcn_sb_puts(sb, "lit(");
            gcn_sb_put0x(sb, v);
            if (inl)
                gcn_sb_putc(sb, ')');
        }
        return;
    }
    default:
        gcn_sb_puts(sb, "<?>");
        return;
    }
}

/* hwreg names of GFX9 / gfx940 (LLVM Utils/AMDGPUAsmUtils.cpp, Hwreg::Operands). */
static const char *hwreg_name(unsigned id)
{
    static const char *const n[25] = {
        NULL, "HW_REG_MODE", "HW_REG_STATUS", "HW_REG_TRAPSTS", "HW_REG_HW_ID",
        "HW_REG_GPR_ALLOC", "HW_REG_LDS_ALLOC", "HW_REG_IB_STS", NULL, NULL, NULL, NULL,
        NULL, NULL, NULL, "HW_REG_SH_MEM_BASES", "HW_REG_TBA_LO", "HW_REG_TBA_HI",
        "HW_REG_TMA_LO", "HW_REG_TMA_HI", "HW_REG_XCC_ID", "HW_REG_SQ_PERF_SNAPSHOT_DATA",
        "HW_REG_SQ_PERF_SNAPSHOT_DATA1", "HW_REG_SQ_PERF_SNAPSHOT_PC_LO",
        "HW_REG_SQ_PERF_SNAPSHOT_PC_HI"};
    return id < 25 ? n[id] : NULL;
}

/* hwreg(id, offset, size): id [5:0], offset [10:6], size-1 [15:11]
 * (LLVM AMDGPUInstPrinter::printHwreg; offset 0 / size 32 are omitted). */
static void print_hwreg(gcn_strbuf *sb, unsigned v)
{
    unsigned id = v & 63, off = (v >> 6) & 31, size = ((v >> 11) & 31) + 1;
    const char *name = hwreg_name(id);
    gcn_sb_puts(sb, "hwreg(");
    if (name)
        gcn_sb_puts(sb, name);
    else
        gcn_sb_putu(sb, id);
    if (off != 0 || size != 32) {
        gcn_sb_puts(sb, ", ");
        gcn_sb_putu(sb, off);
        gcn_sb_puts(sb, ", ");
        gcn_sb_putu(sb, size);
    }
    gcn_sb_putc(sb, ')');
}

/* s_sendmsg simm16 on GFX9: message [3:0], operation [6:4], stream [9:8]
 * (LLVM AMDGPUInstPrinter::printSendMsg, SendMsg tables of AMDGPUAsmUtils.cpp
 * restricted to GFX9: names only for messages and operations valid there). */
static void print_sendmsg(gcn_strbuf *sb, unsigned v)
{
    static const char *const msg[16] = {
        NULL, "MSG_INTERRUPT", "MSG_GS", "MSG_GS_DONE", "MSG_SAVEWAVE", "MSG_STALL_WAVE_GEN",
        "MSG_HALT_WAVES", "MSG_ORDERED_PS_DONE", "MSG_EARLY_PRIM_DEALLOC", "MSG_GS_ALLOC_REQ",
        "MSG_GET_DOORBELL", NULL, NULL, NULL, NULL, "MSG_SYSMSG"};
    static const char *const sysop[5] = {NULL, "SYSMSG_OP_ECC_ERR_INTERRUPT",
                                         "SYSMSG_OP_REG_RD", NULL, "SYSMSG_OP_TTRACE_PC"};
    static const char *const gsop[4] = {"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT",
                                        "GS_OP_EMIT_CUT"};
    unsigned id = v & 15, op = (v >> 4) & 7, st = (v >> 8) & 3;
    if (msg[id]) {
        if (id == 15) {
            if (op < 5 && sysop[op] && st == 0) {
                gcn_sb_printf(sb, "sendmsg(%s, %s)", msg[id], sysop[op]);
                return;
            }
        } else if (id == 2 || id == 3) {
            /* MSG_GS needs an operation; GS_OP_NOP takes no stream */
            if (op <= 3 && !(id == 2 && op == 0) && (op != 0 || st == 0)) {
                if (op == 0)
                    gcn_sb_printf(sb, "sendmsg(%s, %s)", msg[id], gsop[op]);
                else
                    gcn_sb_printf(sb, "sendmsg(%s, %s, %u)", msg[id], gsop[op], st);
                return;
            }
        } else if (op == 0 && st == 0) {
            gcn_sb_printf(sb, "sendmsg(%s)", msg[id]);
            return;
        }
    }
    if ((v & ~0x37fu) == 0)    /* the fields re-encode to v (bit 7 is no field) */
        gcn_sb_printf(sb, "sendmsg(%u, %u, %u)", id, op, st);
    else
        gcn_sb_printf(sb, "%u", v);
}

/* The counters of a GFX9 s_waitcnt simm16 (LLVM AMDGPUBaseInfo
 * decodeWaitcnt): vmcnt [3:0] and [15:14], expcnt [6:4], lgkmcnt [11:8]. */
static inline void waitcnt_split(unsigned v, unsigned *vmcnt, unsigned *expcnt,
                                 unsigned *lgkmcnt)
{
    *vmcnt = (v & 15) | ((v >> 14) & 3) << 4;
    *expcnt = (v >> 4) & 7;
    *lgkmcnt = (v >> 8) & 15;
}

void gcn_waitcnt_fields(const gcn_insn *in, unsigned *vmcnt, unsigned *expcnt,
                        unsigned *lgkmcnt)
{
    unsigned v = 0xffff;   /* no wait */
    if (in->id == GCN_ID_S_WAITCNT) {
        const gcn_opnd *o = gcn_field_opnd(in, GCN_FLD_SIMM16);
        if (o)
            v = (unsigned)o->imm & 0xffff;
    }
    unsigned vm, exp, lgkm;
    waitcnt_split(v, &vm, &exp, &lgkm);
    if (vmcnt)
        *vmcnt = vm;
    if (expcnt)
        *expcnt = exp;
    if (lgkmcnt)
        *lgkmcnt = lgkm;
}

/* The counters of an s_waitcnt simm16 v: those not at their maximum (all
 * of them when all are). */
static char *cur_waitcnt(char *p, unsigned v)
{
    unsigned vm, exp, lgkm;
    waitcnt_split(v, &vm, &exp, &lgkm);
    int all = vm == 63 && exp == 7 && lgkm == 15;   /* all default: print all */
    char *p0 = p;
    if (vm != 63 || all) {
        p = GCN_CUR_LIT(p, "vmcnt(");
        p = gcn_put_dec(p, vm);
        *p++ = ')';
    }
    if (exp != 7 || all) {
        if (p != p0)
            *p++ = ' ';
        p = GCN_CUR_LIT(p, "expcnt(");
        p = gcn_put_dec(p, exp);
        *p++ = ')';
    }
    if (lgkm != 15 || all) {
        if (p != p0)
            *p++ = ' ';
        p = GCN_CUR_LIT(p, "lgkmcnt(");
        p = gcn_put_dec(p, lgkm);
        *p++ = ')';
    }
    return p;
}

/* LLVM printVGPRIndexMode. */
static void print_gpridx(gcn_strbuf *sb, unsigned v)
{
    static const char *const n[4] = {"SRC0", "SRC1", "SRC2", "DST"};
    if (v & ~15u) {
        gcn_sb_put0x(sb, v);
        return;
    }
    gcn_sb_puts(sb, "gpr_idx(");
    const char *sep = "";
    for (unsigned i = 0; i < 4; i++)
        if (v & (1u << i)) {
            gcn_sb_puts(sb, sep);
            gcn_sb_puts(sb, n[i]);
            sep = ",";
        }
    gcn_sb_putc(sb, ')');
}

static void print_label(const gcn_decoder *d, gcn_strbuf *sb, const gcn_insn *in, unsigned v)
{
    if (d && d->label_name) {
        uint64_t target = in->addr + 4 + (uint64_t)((int64_t)(int16_t)v * 4);
        const char *name = d->label_name(d->label_ctx, target);
        if (name) {
            gcn_sb_puts(sb, name);
            return;
        }
    }
    gcn_sb_putu(sb, v);
}

static void print_imm_field(const gcn_decoder *d, gcn_strbuf *sb, const gcn_insn *in,
                            const gcn_opnd *o, unsigned cls)
{
    unsigned v = (unsigned)o->imm & 0xffff;
    switch (cls) {
    case SC_K16: gcn_sb_put0x(sb, v); break;
    case SC_U16:
        if (v <= 64)
            gcn_sb_putu(sb, v);
        else
            gcn_sb_put0x(sb, v);
        break;
    case SC_LABEL: print_label(d, sb, in, v); break;
    case SC_HWREG: print_hwreg(sb, v); break;
    case SC_SENDMSG: print_sendmsg(sb, v); break;
    case SC_WAITCNT: gcn_sb_commit(sb, cur_waitcnt(gcn_sb_room(sb, 64), v)); break;
    case SC_GPRIDX: print_gpridx(sb, v); break;
    case SC_IMM7: print_imm32(sb, (uint32_t)o->imm); break;
    default: gcn_sb_puti(sb, o->imm); break;
    }
}

/* Lower-case hex of a 32-bit value with "0x" (gcn_cur_hex() two digits at
 * a time, from a table). */
static char *cur_hex32(char *p, uint32_t v)
{
    static const char hex2[256][2] = {
#define H1(i) {"0123456789abcdef"[(i) >> 4], "0123456789abcdef"[(i) & 15]}
#define H4(i) H1(i), H1((i) + 1), H1((i) + 2), H1((i) + 3)
#define H16(i) H4(i), H4((i) + 4), H4((i) + 8), H4((i) + 12)
#define H64(i) H16(i), H16((i) + 16), H16((i) + 32), H16((i) + 48)
        H64(0), H64(64), H64(128), H64(192)
#undef H1
#undef H4
#undef H16
#undef H64
    };
    unsigned n = v ? (unsigned)(32 - __builtin_clz(v) + 3) / 4 : 1;
    char *e = p + 2 + n;
    /* pairs of digits from the end; with an odd count the last pair's
     * leading 0 lands on the 'x', written after */
    for (char *q = e; q > p + 2; q -= 2, v >>= 8)
        memcpy(q - 2, hex2[v & 0xff], 2);
    p[0] = '0';
    p[1] = 'x';
    return e;
}

/* An SMEM offset: signed hex. */
static char *cur_offset(char *p, int32_t off)
{
    if (off < 0) {
        *p++ = '-';
        return cur_hex32(p, (unsigned)-off);
    }
    return cur_hex32(p, (unsigned)off);
}


/* ---- per-row plans ------------------------------------------------------
 * A row's SIG becomes, at the row's first use, a decode plan and a print
 * plan, so that decoding an instruction is a loop of table reads and
 * stores and printing follows a list of steps, without walking the SIG's
 * fields and classes again.  The plans and the tables below are derived
 * from the functions above (dec_ssrc, print_reg_opnd), which stay the
 * statement of LLVM's rules. */

/* What an 8-bit scalar field value decodes to, for an operand of 1, 2, 4,
 * 8 or 16 registers (dec_ssrc: the register part aligned, constants,
 * specials, the literal): kind | reg << 8 (kind NONE: invalid; every reg
 * is below 256), 2 bytes, so that the tables stay in the L1 cache
 * (vt_head() makes the operand's first 8 bytes of it).  VT_IMM: nothing
 * (immediates); VT_LIT: always the literal. */
enum { VT_R1, VT_R2, VT_R4, VT_R8, VT_R16, VT_IMM, VT_LIT, VT_COUNT };

/* The text of every special and inline constant operand by the operand's
 * register count (WC_*: 1, 2, 4, 8, 16) and encoding, as print_reg_opnd()
 * prints it in a register-or-constant class; padded, so that printing one
 * is a fixed-size copy; len 0: none (printed by print_reg_opnd()).
 * Registers print through gcn_cur_reg(): a table of their texts (32 bytes
 * for each of 118 registers and 5 sizes) read at random would not stay in
 * the L1 data cache, and a miss costs more than computing the text. */
typedef struct stext {
    char s[31];
    uint8_t len;
} stext;

enum { WC_1, WC_2, WC_4, WC_8, WC_16, WC_COUNT, WC_NONE = WC_COUNT };

#define SC_COUNT (SC_GLC + 1)

/* The tables as tabs_build() makes them. */
typedef struct salu_tabs {
    uint16_t vtab[VT_COUNT][256];
    stext stexts[WC_COUNT + 1][256];    /* [WC_NONE]: no texts */
    uint8_t wc_of[256];                 /* WC_* of an operand's nregs */
    /* per class: the special / inline encodings whose text is not the plain
     * one (invalid-register or invalid-immediate notes) */
    uint64_t slow_bits[SC_COUNT][4];
} salu_tabs;

/* The tables the decoder and printer read: made by tabs_build() when the tree is built
 * (tests/decode/test_salu --write-tabs FILE, committed; the test fails when they differ from
 * what tabs_build() makes), not at the first decode of a process (a tenth of a short
 * simulation's host instructions). */
#include "salu_tabs.inc"

_Static_assert(offsetof(gcn_opnd, imm) == 8, "gcn_opnd: 8 bytes before imm");
_Static_assert(offsetof(gcn_opnd, kind) == 0 && offsetof(gcn_opnd, reg) == 6,
               "gcn_opnd: kind in byte 0, reg in bytes 6-7");

/* The kind and reg of a vtab entry as the first 8 bytes of a gcn_opnd
 * (little-endian, as gcn_load_le32 and the rest of the decoder assume). */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "vt_head: a little-endian host");

static inline uint64_t vt_head(uint16_t e)
{
    return (uint64_t)(e & 0xff) | (uint64_t)(e >> 8) << 48;
}

static uint64_t opnd_head(const gcn_opnd *o)
{
    uint64_t h;
    memcpy(&h, o, sizeof h);
    return h;
}

/* slow_bits: the encodings that print_reg_opnd() prints in class cls with
 * a note: constants in the register-only classes, src_lds_direct, m0 and
 * exec in SMEM data. */
static void slow_bits_build(salu_tabs *t)
{
    for (unsigned cls = 0; cls < SC_COUNT; cls++) {
        uint64_t *b = t->slow_bits[cls];
        for (unsigned v = 128; class_regonly(cls) && v <= 248; v++)
            if (v <= 208 || v >= 240)
                b[v >> 6] |= 1ull << (v & 63);
        b[254 >> 6] |= 1ull << (254 & 63);
        if (cls == SC_X32)
            b[124 >> 6] |= 1ull << (124 & 63) | 1ull << (126 & 63) | 1ull << (127 & 63);
        if (cls == SC_X64)
            b[126 >> 6] |= 1ull << (126 & 63);
    }
}

static int src_note(const salu_tabs *t, unsigned cls, unsigned v)
{
    return t->slow_bits[cls][v >> 6] >> (v & 63) & 1;
}

/* The tables made from dec_ssrc() and print_reg_opnd() into t (zeroed by the caller). */
static void tabs_build(salu_tabs *t)
{
    slow_bits_build(t);
    static const uint8_t nregs[VT_IMM] = {1, 2, 4, 8, 16};
    gcn_insn ti;
    gcn_opnd z;
    memset(&z, 0, sizeof z);
    const uint32_t lit[2] = {0, 0};
    memset(&ti, 0, sizeof ti);
    for (unsigned c = 0; c < VT_IMM; c++)
        for (unsigned v = 0; v < 256; v++) {
            size_t size = 4;
            ti.nopnds = 0;
            gcn_opnd *o = dec_ssrc(&ti, GCN_FLD_NONE, 0, v, nregs[c], GCN_DT_NONE, lit, 2, &size);
            assert(!o || o->reg < 256);
            t->vtab[c][v] = o ? (uint16_t)(o->kind | o->reg << 8) : GCN_OPND_NONE;
        }
    for (unsigned v = 0; v < 256; v++) {
        t->vtab[VT_IMM][v] = 0;
        t->vtab[VT_LIT][v] = GCN_OPND_LITERAL | 255 << 8;
    }
    static const uint8_t wc_dtype[WC_COUNT] = {GCN_DT_B32, GCN_DT_B64, GCN_DT_B128, GCN_DT_ANY,
                                               GCN_DT_ANY};
    gcn_strbuf sb;
    gcn_sb_init(&sb);
    memset(t->wc_of, WC_NONE, sizeof t->wc_of);
    for (unsigned w = 0; w < WC_COUNT; w++) {
        t->wc_of[nregs[w]] = (uint8_t)w;
        for (unsigned v = 0; v < 256; v++) {
            gcn_opnd o = z;
            o.reg = (uint16_t)v;
            o.nregs = nregs[w];
            o.dtype = wc_dtype[w];
            /* (an entry left empty prints through print_reg_opnd: the
             * wide classes have no constants, only null as a special) */
            if (v <= 101 || (v >= 108 && v <= 123))
                continue;                       /* registers: gcn_cur_reg() */
            if ((v >= 128 && v <= 208) || (v >= 240 && v <= 248))
                o.kind = GCN_OPND_INLINE;
            else if (strcmp(special_name(v, o.nregs), "?") != 0 &&
                     !src_note(t, SC_SS32, v))
                o.kind = GCN_OPND_SPECIAL;      /* src_lds_direct: always with its note */
            else
                continue;
            if (w > WC_2 && v != 125)
                continue;
            gcn_sb_reset(&sb);
            print_reg_opnd(&sb, &o, w == WC_2 ? SC_SS64 : SC_SS32);
            assert(sb.len < sizeof t->stexts[w][v].s);
            memcpy(t->stexts[w][v].s, sb.buf, sb.len);
            t->stexts[w][v].len = (uint8_t)sb.len;
        }
    }
    gcn_sb_free(&sb);
}

/* The tables tabs_build() makes against the compiled ones (salu_tabs.inc): the number of
 * entries that differ, each named on rep. */
unsigned gcn_salu_tabs_check(FILE *rep)
{
    salu_tabs *t = calloc(1, sizeof *t);
    if (!t)
        return 1;
    tabs_build(t);
    unsigned bad = 0;
    for (unsigned c = 0; c < VT_COUNT; c++)
        for (unsigned v = 0; v < 256; v++)
            if (t->vtab[c][v] != vtab[c][v]) {
                if (rep)
                    fprintf(rep, "vtab[%u][%u]: 0x%04x made, 0x%04x compiled\n", c, v,
                            t->vtab[c][v], vtab[c][v]);
                bad++;
            }
    for (unsigned w = 0; w <= WC_COUNT; w++)
        for (unsigned v = 0; v < 256; v++)
            if (memcmp(&t->stexts[w][v], &stexts[w][v], sizeof(stext))) {
                if (rep)
                    fprintf(rep, "stexts[%u][%u]: \"%.31s\" made, \"%.31s\" compiled\n", w, v,
                            t->stexts[w][v].s, stexts[w][v].s);
                bad++;
            }
    for (unsigned v = 0; v < 256; v++)
        if (t->wc_of[v] != wc_of[v]) {
            if (rep)
                fprintf(rep, "wc_of[%u]: %u made, %u compiled\n", v, t->wc_of[v], wc_of[v]);
            bad++;
        }
    for (unsigned c = 0; c < SC_COUNT; c++)
        for (unsigned k = 0; k < 4; k++)
            if (t->slow_bits[c][k] != slow_bits[c][k]) {
                if (rep)
                    fprintf(rep, "slow_bits[%u][%u]: 0x%016llx made, 0x%016llx compiled\n", c, k,
                            (unsigned long long)t->slow_bits[c][k],
                            (unsigned long long)slow_bits[c][k]);
                bad++;
            }
    free(t);
    return bad;
}

/* The tables tabs_build() makes, as the C text of salu_tabs.inc, on out; -1 when out of
 * memory. */
int gcn_salu_tabs_write(FILE *out)
{
    salu_tabs *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    tabs_build(t);
    fprintf(out, "/* salu_tabs.inc -- GENERATED by tests/decode/test_salu --write-tabs from salu.c's\n"
                 " * tabs_build() (dec_ssrc() and print_reg_opnd()); do not edit by hand.  The value\n"
                 " * tables, operand texts, register-count classes and note bits of salu.c (see\n"
                 " * there); tests/decode/test_salu fails when they differ from what\n"
                 " * tabs_build() makes. */\n");
    fprintf(out, "static const uint16_t vtab[VT_COUNT][256] = {\n");
    for (unsigned c = 0; c < VT_COUNT; c++) {
        fprintf(out, "    {");
        for (unsigned v = 0; v < 256; v++)
            fprintf(out, "%s0x%04x", v ? v % 10 ? ", " : ",\n     " : "", t->vtab[c][v]);
        fprintf(out, "},\n");
    }
    fprintf(out, "};\n");
    fprintf(out, "static const stext stexts[WC_COUNT + 1][256] = {\n");
    for (unsigned w = 0; w <= WC_COUNT; w++)
        for (unsigned v = 0; v < 256; v++) {
            const stext *e = &t->stexts[w][v];
            if (!e->len)
                continue;
            fprintf(out, "    [%u][%u] = {\"", w, v);
            for (unsigned i = 0; i < e->len; i++) {
                unsigned char ch = (unsigned char)e->s[i];
                if (ch == '"' || ch == '\\')
                    fprintf(out, "\\%c", ch);
                else if (ch < 32 || ch > 126)
                    fprintf(out, "\\%03o", ch);
                else
                    fputc(ch, out);
            }
            fprintf(out, "\", %u},\n", e->len);
        }
    fprintf(out, "};\n");
    fprintf(out, "static const uint8_t wc_of[256] = {\n    ");
    for (unsigned v = 0; v < 256; v++)
        fprintf(out, "%s%u", v ? v % 16 ? ", " : ",\n    " : "", t->wc_of[v]);
    fprintf(out, "};\n");
    fprintf(out, "static const uint64_t slow_bits[SC_COUNT][4] = {\n");
    for (unsigned c = 0; c < SC_COUNT; c++)
        fprintf(out, "    {0x%016llxull, 0x%016llxull, 0x%016llxull, 0x%016llxull},\n",
                (unsigned long long)t->slow_bits[c][0], (unsigned long long)t->slow_bits[c][1],
                (unsigned long long)t->slow_bits[c][2], (unsigned long long)t->slow_bits[c][3]);
    fprintf(out, "};\n");
    free(t);
    return 0;
}

/* One operand of the decode loop: field value v = (w0 >> lo & mask) << shl;
 * the operand's first 8 bytes are head | vt[v], its imm the literal (kind
 * LITERAL) or 0.  The immediate of a row (at most one) is set after the
 * loop (salu_plan.imm_step). */
typedef struct dstep {
    uint64_t head;          /* field, flags, nregs, dtype; kind of immediates */
    uint8_t vt;             /* vtab[VT_*] */
    uint8_t mask, lo, shl;
} dstep;

/* Print steps: the operand at index opi (the decoder's order) printed by
 * its class, or the SMEM tail, or a cache-policy bit. */
enum {
    PK_SRC,         /* registers, specials, constants, literals (print_reg_opnd) */
    PK_K16, PK_U16, PK_WAITCNT,     /* immediates printed at the cursor */
    PK_LABEL,       /* branch target: a symbol name or the number */
    PK_IMM,         /* other immediates (print_imm_field) */
    PK_ENDPGM,      /* " N" unless 0 */
    PK_SMEM_TAIL,   /* soffset, offset: ... */
    PK_GLC,         /* " glc" */
};

typedef struct pstep {
    uint8_t pk, cls, opi, field;
} pstep;

/* A row's plan: two cache lines, the first what the printer reads (with
 * the mnemonic), the second what the decoder reads, so that decoding and
 * printing an instruction each touch one line of per-row data (the bench
 * mixes rows at random; a plan spread over more lines misses more). */
#define SALU_MNEM 32        /* the longest scalar mnemonic has 26 characters */
#define SALU_DSTEPS 3       /* the most decode steps of a row (SOP2) */

typedef struct salu_plan {
    /* the printer's line */
    char mnem[SALU_MNEM];   /* the mnemonic, NUL-padded: printed as one fixed-size copy */
    uint8_t mnem_len;
    uint8_t np;             /* print steps */
    uint8_t nsrc;           /* the leading print steps i < nsrc print operand i (PK_SRC) */
    uint8_t pnd;            /* = nd: the SMEM tail's first operand */
    pstep p[MAX_SPECS];
    /* the decoder's line */
    alignas(64) uint8_t nd; /* decode steps */
    uint8_t smem;           /* an SMEM row (8 bytes, glc and nv bits) */
    uint8_t tail;           /* the SMEM offset tail follows the steps */
    uint8_t rtn_step;       /* sdata read and written only with glc (0xff: none) */
    uint8_t imm_step;       /* the step of an immediate (0xff: none) */
    uint8_t imm_lo, imm_signed;     /* its field (w0 >> imm_lo & imm_mask); a label is signed */
    uint16_t imm_mask;
    uint32_t zero_mask;     /* bits of the first dword that must be 0 */
    dstep d[SALU_DSTEPS];
} salu_plan;

_Static_assert(sizeof(salu_plan) == 128, "salu_plan: two cache lines");

static salu_plan plans[GCN_ID_COUNT];
static gcn_once plans_once[GCN_ID_COUNT];

static void plan_steps(salu_plan *pl, unsigned id);

/* The decode step of spec s (a field that makes one operand). */
static dstep plan_dstep(const sspec *s)
{
    static const struct { uint8_t lo, width, shl; } pos[] = {
        [SF_SDST] = {16, 7, 0}, [SF_SSRC0] = {0, 8, 0}, [SF_SSRC1] = {8, 8, 0},
        [SF_SIMM16] = {0, 16, 0}, [SF_LITERAL] = {0, 0, 0}, [SF_SDATA] = {6, 7, 0},
        [SF_SBASE] = {0, 6, 1},
    };
    gcn_opnd o;
    memset(&o, 0, sizeof o);
    o.field = s->tag;
    o.flags = s->flags;
    o.nregs = s->nregs;
    o.dtype = s->dtype;
    dstep d = {0};
    d.lo = pos[s->field].lo;
    d.mask = (uint8_t)((1u << pos[s->field].width) - 1);
    d.shl = pos[s->field].shl;
    unsigned vt = s->nregs >= 16 ? VT_R16 : s->nregs >= 8 ? VT_R8 : s->nregs >= 4 ? VT_R4
                : s->nregs == 2 ? VT_R2 : VT_R1;
    if (s->field == SF_LITERAL) {           /* s_setreg_imm32_b32's 32-bit literal */
        vt = VT_LIT;
        o.nregs = 1;
        o.dtype = GCN_DT_B32;
        o.flags = GCN_OPF_SRC;
    } else if (s->field == SF_SBASE) {
        o.flags = GCN_OPF_SRC;
    } else if (s->cls == SC_GPRIDX || s->field == SF_SIMM16 || s->cls == SC_IMM7) {
        vt = VT_IMM;                        /* no table entry: mask 0 */
        d.mask = 0;
        o.nregs = 0;
        o.kind = s->cls == SC_LABEL ? GCN_OPND_LABEL : GCN_OPND_IMM;
        o.flags = s->cls == SC_IMM7 ? 0 : GCN_OPF_SRC;
        o.dtype = s->cls == SC_LABEL ? GCN_DT_I16 : s->field == SF_SIMM16 ? GCN_DT_U16
                : GCN_DT_U32;
    }
    d.vt = (uint8_t)vt;
    d.head = opnd_head(&o);
    return d;
}

static uint8_t plan_pk(const sspec *s)
{
    switch (s->cls) {
    case SC_K16: return PK_K16;
    case SC_U16: return PK_U16;
    case SC_WAITCNT: return PK_WAITCNT;
    case SC_LABEL: return PK_LABEL;
    case SC_HWREG: case SC_SENDMSG: case SC_GPRIDX: case SC_IMM7: return PK_IMM;
    default: return PK_SRC;
    }
}

static void plan_build(salu_plan *pl, unsigned id)
{
    plan_steps(pl, id);
    pl->pnd = pl->nd;
    while (pl->nsrc < pl->np && pl->p[pl->nsrc].pk == PK_SRC && pl->p[pl->nsrc].opi == pl->nsrc)
        pl->nsrc++;
}

static void plan_steps(salu_plan *pl, unsigned id)
{
    sspec sp[MAX_SPECS];
    unsigned ns = parse_sig(gcn_isa_row_of(id)->sig, sp);
    memset(pl, 0, sizeof *pl);
    pl->rtn_step = 0xff;
    pl->imm_step = 0xff;
    pl->smem = gcn_isa_row_of(id)->fmt == GCN_FMT_SMEM;
    const char *mnem = gcn_isa_row_of(id)->mnem;
    size_t len = strlen(mnem);
    assert(len < SALU_MNEM);
    if (len >= SALU_MNEM)
        len = SALU_MNEM - 1;
    memcpy(pl->mnem, mnem, len);
    pl->mnem_len = (uint8_t)len;
    for (unsigned i = 0; i < ns; i++) {
        sspec *s = &sp[i];
        spec_derive(s);
        pstep ps = {PK_SRC, s->cls, pl->nd, s->tag};
        switch (s->field) {
        case SF_IMMBIT:
            pl->zero_mask |= 1u << 17;      /* valid only with imm = 0 */
            continue;
        case SF_CPOL:
            ps.pk = PK_GLC;
            break;
        case SF_OFFSET:
            assert(pl->smem);
            ps.pk = PK_SMEM_TAIL;
            pl->tail = 1;
            break;
        case SF_SIMM16:
            if (s->cls == SC_ZERO) {
                pl->zero_mask |= 0xffff;
                continue;
            }
            if (s->cls == SC_ENDPGM)
                ps.pk = PK_ENDPGM;
            /* fall through */
        default:
            if (ps.pk == PK_SRC)
                ps.pk = plan_pk(s);
            /* the SMEM tail's operands follow those of the steps */
            assert(!pl->tail);
            if (s->field == SF_SDATA && s->role == SR_DS)
                pl->rtn_step = pl->nd;
            if (s->field == SF_SIMM16 || s->cls == SC_GPRIDX || s->cls == SC_IMM7) {
                assert(pl->imm_step == 0xff);
                pl->imm_step = pl->nd;
                pl->imm_lo = s->field == SF_SSRC1 ? 8 : s->field == SF_SDATA ? 6 : 0;
                pl->imm_mask = s->field == SF_SIMM16 ? 0xffff : s->field == SF_SDATA ? 0x7f : 0xff;
                pl->imm_signed = s->cls == SC_LABEL;
            }
            assert(pl->nd < SALU_DSTEPS);
            if (pl->nd < SALU_DSTEPS)
                pl->d[pl->nd++] = plan_dstep(s);
            break;
        }
        pl->p[pl->np++] = ps;
    }
}

static GCN_COLD void plan_build_once(unsigned id)
{
    if (gcn_once_claim(&plans_once[id])) {
        plan_build(&plans[id], id);
        gcn_once_done(&plans_once[id]);
    }
}

static inline const salu_plan *plan_of(unsigned id)
{
    if (id >= GCN_ID_COUNT)
        id = 0;
    if (!gcn_once_ready(&plans_once[id]))
        plan_build_once(id);
    return &plans[id];
}

/* ---- decoding ------------------------------------------------------------ */

/* The SMEM address tail after the steps' operands: soffset (a register,
 * when the soe bit or a clear imm bit selects one) and the signed 21-bit
 * offset (imm bit). */
static size_t dec_smem_tail(gcn_insn *in, const uint32_t *w)
{
    static const gcn_opnd soff = {.field = GCN_FLD_SOFFSET, .flags = GCN_OPF_SRC, .nregs = 1,
                                  .dtype = GCN_DT_U32};
    static const gcn_opnd offs = {.kind = GCN_OPND_IMM, .field = GCN_FLD_OFFSET,
                                  .flags = GCN_OPF_SRC, .dtype = GCN_DT_I32};
    uint32_t w0 = w[0], w1 = w[1];
    unsigned imm = gcn_bits(w0, 17, 1), soe = gcn_bits(w0, 14, 1);
    in->m.imm_offset_mode = (uint8_t)imm;
    in->m.soe = (uint8_t)soe;
    gcn_opnd *o = &in->op[in->nopnds];
    if (soe || !imm) {
        /* (the 7-bit register part of an 8-bit source: vtab) */
        uint64_t h = opnd_head(&soff) |
                     vt_head(vtab[VT_R1][soe ? gcn_bits(w1, 25, 7) : gcn_bits(w1, 0, 7)]);
        memcpy(o, &h, sizeof h);
        o->imm = 0;
        if (o->kind == GCN_OPND_NONE)
            return 0;
        o++;
    }
    if (imm) {
        int32_t off = (int32_t)gcn_bits(w1, 0, 21);
        if (off & 0x100000)
            off -= 0x200000;
        in->m.offset = off;
        *o = offs;
        o->imm = off;
        o++;
    }
    in->nopnds = (uint8_t)(o - in->op);
    return 8;
}

size_t gcn_dec_salu(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw,
                    gcn_insn *out)
{
    unsigned op = opcode_of(fmt, w[0]);
    unsigned id = gcn_isa_find(gcn_isa_target_index(d->target), fmt, op);
    if (id == GCN_ID_INVALID)
        return 0;
    out->id = (uint16_t)id;
    out->enc = (uint8_t)fmt;
    out->sub = GCN_SUB_NONE;
    out->opcode = (uint16_t)op;

    const salu_plan *pl = plan_of(id);
    uint32_t w0 = w[0];
    unsigned n = pl->nd, kinds = 0;     /* bit k: an operand of kind k */
    for (unsigned i = 0; i < n; i++) {
        const dstep *st = &pl->d[i];
        uint64_t h = st->head | vt_head(vtab[st->vt][((w0 >> st->lo) & st->mask) << st->shl]);
        gcn_opnd *o = &out->op[i];
        memcpy(o, &h, sizeof h);
        o->imm = 0;
        kinds |= 1u << o->kind;
    }
    out->nopnds = (uint8_t)n;
    if (pl->imm_step != 0xff) {
        uint32_t v = (w0 >> pl->imm_lo) & pl->imm_mask;
        out->op[pl->imm_step].imm = pl->imm_signed ? (int16_t)v : (int64_t)v;
    }
    if ((w0 & pl->zero_mask) || (kinds & 1u << GCN_OPND_NONE))
        return 0;
    if (pl->smem) {
        if (nw < 2)
            return 0;
        out->m.glc = (uint8_t)gcn_bits(w0, 16, 1);
        out->m.nt = (uint8_t)gcn_bits(w0, 15, 1);     /* nv bit, as encoded */
        if (pl->rtn_step != 0xff && !out->m.glc)
            out->op[pl->rtn_step].flags = GCN_OPF_SRC;  /* atomic without return */
        return pl->tail ? dec_smem_tail(out, w) : 8;
    }
    if (!(kinds & 1u << GCN_OPND_LITERAL))
        return 4;
    if (nw < 2)
        return 0;
    out->literal = w[1];
    out->has_literal = 1;
    for (unsigned i = 0; i < n; i++)
        if (out->op[i].kind == GCN_OPND_LITERAL)
            out->op[i].imm = w[1];
    return 8;
}

/* ---- printing at a cursor ------------------------------------------------ */

/* A 32-bit literal of a register-or-constant source (SSrc_b32 / SSrc_b64):
 * lit(...) when its value equals an inline constant (a 64-bit operand sees
 * the zero-extended value). */
static char *cur_literal(char *p, uint32_t v, unsigned nregs)
{
    int32_t s = (int32_t)v;
    int inl = nregs == 2 ? v <= 64 : (s >= -16 && s <= 64) || f32_inline_bits(v);
    if (inl)
        p = GCN_CUR_LIT(p, "lit(");
    p = cur_hex32(p, v);
    if (inl)
        *p++ = ')';
    return p;
}

/* print_reg_opnd() through the appenders, then a cursor again. */
static GCN_COLD char *slow_src(gcn_strbuf *sb, char *p, const gcn_opnd *o, unsigned cls)
{
    gcn_sb_commit(sb, p);
    print_reg_opnd(sb, o, cls);
    return gcn_sb_room(sb, GCN_LINE_MAX);
}

/* A register-or-constant operand of class cls. */
static inline __attribute__((always_inline)) char *cur_src(gcn_strbuf *sb, char *p,
                                                           const gcn_opnd *o, unsigned cls)
{
    unsigned k = o->kind, v = o->reg;
    if (k == GCN_OPND_SGPR || k == GCN_OPND_TTMP)
        return gcn_cur_reg(p, k, v, o->nregs);
    if ((k == GCN_OPND_SPECIAL || k == GCN_OPND_INLINE) && v < 256 &&
        (v < 124 || !(slow_bits[cls][v >> 6] >> (v & 63) & 1))) {
        /* (no register class has notes below m0, 124) */
        if (gcn_inline_is_int(v))
            return gcn_cur_inline_int(p, v);    /* (not from the table: 81 lines) */
        /* (the texts are those of the operands as the decoder makes them,
         * a float constant with the dtype of its size) */
        const char *t = stexts[wc_of[o->nregs]][v].s;
        unsigned len = (uint8_t)t[offsetof(stext, len)];
        if (len) {
            memcpy(p, t, sizeof(stext));
            return p + len;
        }
    }
    if (o->kind == GCN_OPND_LITERAL && !class_regonly(cls) && cls != SC_IMM32)
        return cur_literal(p, (uint32_t)o->imm, o->nregs);
    return slow_src(sb, p, o, cls);
}

/* print_imm_field() / print_reg_opnd() through the appenders. */
static GCN_COLD char *slow_other(const gcn_decoder *d, gcn_strbuf *sb, char *p,
                                 const gcn_insn *in, const gcn_opnd *o, unsigned cls)
{
    gcn_sb_commit(sb, p);
    if (o->kind == GCN_OPND_IMM || o->kind == GCN_OPND_LABEL)
        print_imm_field(d, sb, in, o, cls);
    else
        print_reg_opnd(sb, o, cls);
    return gcn_sb_room(sb, GCN_LINE_MAX);
}

/* A branch target (print_label()): the symbol's name through the
 * appenders, else the number. */
static char *cur_label(const gcn_decoder *d, gcn_strbuf *sb, char *p, const gcn_insn *in,
                       unsigned v)
{
    if (d && d->label_name) {
        uint64_t target = in->addr + 4 + (uint64_t)((int64_t)(int16_t)v * 4);
        const char *name = d->label_name(d->label_ctx, target);
        if (name) {
            gcn_sb_commit(sb, p);
            gcn_sb_puts(sb, name);
            return gcn_sb_room(sb, GCN_LINE_MAX);
        }
    }
    return gcn_cur_udec(p, v);
}

/* The operand at index i if it is of field f (the decoder's order), else
 * the record's operand of field f (records made elsewhere), or NULL. */
static inline const gcn_opnd *opnd_at(const gcn_insn *in, unsigned i, unsigned f)
{
    if (i < in->nopnds && in->op[i].field == f)
        return &in->op[i];
    return gcn_field_opnd(in, (gcn_field)f);
}

/* The SMEM address tail: soffset, soffset + offset, or the offset. */
static char *cur_smem_tail(gcn_strbuf *sb, char *p, const gcn_insn *in, unsigned i)
{
    const gcn_opnd *so = opnd_at(in, i, GCN_FLD_SOFFSET);
    if (so) {
        p = cur_src(sb, p, so, SC_S32);
        if (!in->m.imm_offset_mode)
            return p;
        p = GCN_CUR_LIT(p, " offset:");
    }
    return cur_offset(p, in->m.offset);
}

void gcn_print_salu(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb)
{
    const salu_plan *pl = plan_of(in->id);
    /* through a cursor; labels, hwreg, sendmsg and notes through the
     * appenders (commit, append, reserve again) */
    char *p = gcn_sb_room(sb, GCN_LINE_MAX);
    memcpy(p, pl->mnem, SALU_MNEM);
    p += pl->mnem_len;
    unsigned np = pl->np, ns = pl->nsrc, i = 0, nout = 0;
    if (ns && in->nopnds >= ns) {
        /* the leading registers and constants, the operands in the
         * decoder's order (records made otherwise take the general walk) */
        if (in->op[0].field == pl->p[0].field && in->op[ns - 1].field == pl->p[ns - 1].field) {
            *p++ = ' ';
            p = cur_src(sb, p, &in->op[0], pl->p[0].cls);
            for (i = 1; i < ns; i++) {
                p = GCN_CUR_LIT(p, ", ");
                p = cur_src(sb, p, &in->op[i], pl->p[i].cls);
            }
            nout = ns;
            if (ns == np) {
                gcn_sb_commit(sb, p);
                return;
            }
        }
    }
    for (; i < np; i++) {
        const pstep *ps = &pl->p[i];
        const gcn_opnd *o;
        if (ps->pk == PK_SRC) {
            if (!(o = opnd_at(in, ps->opi, ps->field)))
                continue;
            p = gcn_cur_sep(p, nout++);
            p = cur_src(sb, p, o, ps->cls);
            continue;
        }
        switch (ps->pk) {
        case PK_GLC:
            if (in->m.glc)
                p = GCN_CUR_LIT(p, " glc");
            continue;
        case PK_SMEM_TAIL:
            p = gcn_cur_sep(p, nout++);
            p = cur_smem_tail(sb, p, in, pl->pnd);
            continue;
        case PK_ENDPGM:
            if ((o = opnd_at(in, ps->opi, ps->field)) && o->imm != 0) {
                *p++ = ' ';
                p = gcn_put_dec(p, (unsigned)o->imm & 0xffff);
            }
            continue;
        default:
            break;
        }
        if (!(o = opnd_at(in, ps->opi, ps->field)))
            continue;
        p = gcn_cur_sep(p, nout++);
        unsigned v = (unsigned)o->imm & 0xffff;
        if (ps->pk == PK_LABEL && o->kind == GCN_OPND_LABEL)
            p = cur_label(d, sb, p, in, v);
        else if (o->kind != GCN_OPND_IMM)
            p = slow_other(d, sb, p, in, o, ps->cls);
        else if (ps->pk == PK_K16 || (ps->pk == PK_U16 && v > 64))
            p = cur_hex32(p, v);
        else if (ps->pk == PK_U16)
            p = gcn_put_dec(p, v);
        else if (ps->pk == PK_WAITCNT)
            p = cur_waitcnt(p, v);
        else
            p = slow_other(d, sb, p, in, o, ps->cls);
    }
    gcn_sb_commit(sb, p);
}
