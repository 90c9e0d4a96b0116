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
 */
#include <assert.h>
#include <pthread.h>
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
        sspec s = {0, 0, SR_NONE};
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

/* The parsed SIG of every scalar row, built once. */
static sspec spec_tab[GCN_ID_COUNT][MAX_SPECS];
static uint8_t spec_count[GCN_ID_COUNT];
static pthread_once_t spec_once = PTHREAD_ONCE_INIT;

static void specs_build(void)
{
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        const gcn_isa_row *r = gcn_isa_row_of(id);
        if (r->fmt >= GCN_FMT_SOP2 && r->fmt <= GCN_FMT_SMEM)
            spec_count[id] = (uint8_t)parse_sig(r->sig, spec_tab[id]);
    }
}

static unsigned specs_of(unsigned id, const sspec **sp)
{
    pthread_once(&spec_once, specs_build);
    *sp = spec_tab[id < GCN_ID_COUNT ? id : 0];
    return id < GCN_ID_COUNT ? spec_count[id] : 0;
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

/* ---- decoding ------------------------------------------------------------ */

/* A 7-bit scalar register encoding v as nregs registers (the register part
 * of LLVM's decodeSrcOp for SReg classes). */
static gcn_opnd *dec_sreg(gcn_insn *in, gcn_field fld, unsigned flags, unsigned v,
                          unsigned nregs, gcn_dtype dt)
{
    unsigned align = nregs >= 4 ? 4 : nregs;
    if (v <= 101) {
        unsigned base = v / align * align;
        if (base + nregs > 106)
            return NULL;
        return gcn_add_opnd(in, GCN_OPND_SGPR, fld, flags, base, nregs, dt);
    }
    if (v >= 108 && v <= 123) {
        unsigned base = (v - 108) / align * align;
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

static unsigned opcode_of(gcn_fmt fmt, uint32_t w0)
{
    switch (fmt) {
    case GCN_FMT_SOP2: return gcn_bits(w0, 23, 7);
    case GCN_FMT_SOPK: return gcn_bits(w0, 23, 5);
    case GCN_FMT_SOP1: return gcn_bits(w0, 8, 8);
    case GCN_FMT_SOPC: case GCN_FMT_SOPP: return gcn_bits(w0, 16, 7);
    case GCN_FMT_SMEM: return gcn_bits(w0, 18, 8);
    default: return 0;
    }
}

static size_t dec_smem_tail(gcn_insn *in, const uint32_t *w)
{
    unsigned imm = gcn_bits(w[0], 17, 1), soe = gcn_bits(w[0], 14, 1);
    in->m.imm_offset_mode = (uint8_t)imm;
    in->m.soe = (uint8_t)soe;
    if (soe || !imm) {
        unsigned s = soe ? gcn_bits(w[1], 25, 7) : gcn_bits(w[1], 0, 7);
        if (!dec_sreg(in, GCN_FLD_SOFFSET, GCN_OPF_SRC, s, 1, GCN_DT_U32))
            return 0;
    }
    if (imm) {
        int32_t off = (int32_t)gcn_bits(w[1], 0, 21);
        if (off & 0x100000)
            off -= 0x200000;
        in->m.offset = off;
        gcn_opnd *o = gcn_add_opnd(in, GCN_OPND_IMM, GCN_FLD_OFFSET, GCN_OPF_SRC, 0, 0,
                                   GCN_DT_I32);
        if (!o)
            return 0;
        o->imm = off;
    }
    return 8;
}

size_t gcn_dec_salu(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw,
                    gcn_insn *out)
{
    unsigned op = opcode_of(fmt, w[0]);
    unsigned id = gcn_isa_lookup(d->target, fmt, op);
    if (id == GCN_ID_INVALID)
        return 0;
    out->id = (uint16_t)id;
    out->enc = (uint8_t)fmt;
    out->sub = GCN_SUB_NONE;
    out->opcode = (uint16_t)op;

    size_t size = 4;
    if (fmt == GCN_FMT_SMEM) {
        if (nw < 2)
            return 0;
        size = 8;
        out->m.glc = (uint8_t)gcn_bits(w[0], 16, 1);
        out->m.nt = (uint8_t)gcn_bits(w[0], 15, 1);   /* nv bit, as encoded */
    }

    const sspec *sp;
    unsigned ns = specs_of(id, &sp);
    for (unsigned i = 0; i < ns; i++) {
        const sspec *s = &sp[i];
        unsigned flags = role_flags(s->role);
        gcn_field fld = sfield_tag(s->field);
        gcn_opnd *o = NULL;
        switch (s->field) {
        case SF_SDST:
            o = dec_sreg(out, fld, flags, gcn_bits(w[0], 16, 7), class_nregs(s->cls),
                         class_dtype(s->cls));
            break;
        case SF_SSRC0: case SF_SSRC1: {
            unsigned v = gcn_bits(w[0], s->field == SF_SSRC0 ? 0 : 8, 8);
            if (s->cls == SC_GPRIDX) {
                o = gcn_add_opnd(out, GCN_OPND_IMM, fld, GCN_OPF_SRC, 0, 0, GCN_DT_U32);
                if (o)
                    o->imm = v;
            } else {
                o = dec_ssrc(out, fld, flags, v, class_nregs(s->cls), class_dtype(s->cls),
                             w, nw, &size);
            }
            break;
        }
        case SF_SIMM16: {
            unsigned k = gcn_bits(w[0], 0, 16);
            if (s->cls == SC_ZERO) {
                if (k != 0)
                    return 0;
                continue;
            }
            if (s->cls == SC_LABEL) {
                o = gcn_add_opnd(out, GCN_OPND_LABEL, fld, GCN_OPF_SRC, 0, 0, GCN_DT_I16);
                if (o)
                    o->imm = (int16_t)k;
            } else {
                o = gcn_add_opnd(out, GCN_OPND_IMM, fld, GCN_OPF_SRC, 0, 0, GCN_DT_U16);
                if (o)
                    o->imm = k;
            }
            break;
        }
        case SF_LITERAL:
            if (nw < 2)
                return 0;
            o = gcn_add_opnd(out, GCN_OPND_LITERAL, fld, GCN_OPF_SRC, 255, 1, GCN_DT_B32);
            if (o)
                o->imm = w[1];
            out->literal = w[1];
            out->has_literal = 1;
            size = 8;
            break;
        case SF_SDATA:
            if (s->cls == SC_IMM7) {
                o = gcn_add_opnd(out, GCN_OPND_IMM, fld, 0, 0, 0, GCN_DT_U32);
                if (o)
                    o->imm = gcn_bits(w[0], 6, 7);
                break;
            }
            if (s->role == SR_DS && !out->m.glc)
                flags = GCN_OPF_SRC;            /* atomic without return */
            o = dec_sreg(out, fld, flags, gcn_bits(w[0], 6, 7), class_nregs(s->cls),
                         class_dtype(s->cls));
            break;
        case SF_SBASE:
            o = dec_sreg(out, fld, GCN_OPF_SRC, 2 * gcn_bits(w[0], 0, 6), class_nregs(s->cls),
                         class_dtype(s->cls));
            break;
        case SF_OFFSET:
            if (!dec_smem_tail(out, w))
                return 0;
            continue;
        case SF_IMMBIT:
            if (gcn_bits(w[0], 17, 1))
                return 0;
            continue;
        case SF_CPOL:
            continue;
        default:
            return 0;
        }
        if (!o)
            return 0;
    }
    return size;
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
        gcn_sb_printf(sb, "%d", s);
    else if ((f = f32_inline_bits(v)) != 0)
        gcn_sb_puts(sb, txt[f - 1]);
    else
        gcn_sb_printf(sb, "0x%x", v);
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
        gcn_print_reg(sb, (gcn_opnd_kind)o->kind, o->reg, o->nregs);
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
            gcn_sb_printf(sb, inl ? "lit(0x%x)" : "0x%x", v);
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
        gcn_sb_printf(sb, "%u", id);
    if (off != 0 || size != 32)
        gcn_sb_printf(sb, ", %u, %u", off, size);
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

void gcn_waitcnt_fields(const gcn_insn *in, unsigned *vmcnt, unsigned *expcnt,
                        unsigned *lgkmcnt)
{
    unsigned v = 0xffff;   /* no wait */
    if (in->id == GCN_ID_S_WAITCNT) {
        const gcn_opnd *o = gcn_insn_field(in, GCN_FLD_SIMM16);
        if (o)
            v = (unsigned)o->imm & 0xffff;
    }
    /* GFX9 s_waitcnt simm16 (LLVM AMDGPUBaseInfo decodeWaitcnt):
     * vmcnt [3:0] and [15:14], expcnt [6:4], lgkmcnt [11:8]. */
    if (vmcnt)
        *vmcnt = (v & 15) | ((v >> 14) & 3) << 4;
    if (expcnt)
        *expcnt = (v >> 4) & 7;
    if (lgkmcnt)
        *lgkmcnt = (v >> 8) & 15;
}

static void print_waitcnt(gcn_strbuf *sb, const gcn_insn *in)
{
    unsigned vm, exp, lgkm;
    gcn_waitcnt_fields(in, &vm, &exp, &lgkm);
    int all = vm == 63 && exp == 7 && lgkm == 15;   /* all default: print all */
    const char *sep = "";
    if (vm != 63 || all) {
        gcn_sb_printf(sb, "vmcnt(%u)", vm);
        sep = " ";
    }
    if (exp != 7 || all) {
        gcn_sb_printf(sb, "%sexpcnt(%u)", sep, exp);
        sep = " ";
    }
    if (lgkm != 15 || all)
        gcn_sb_printf(sb, "%slgkmcnt(%u)", sep, lgkm);
}

/* LLVM printVGPRIndexMode. */
static void print_gpridx(gcn_strbuf *sb, unsigned v)
{
    static const char *const n[4] = {"SRC0", "SRC1", "SRC2", "DST"};
    if (v & ~15u) {
        gcn_sb_printf(sb, "0x%x", v);
        return;
    }
    gcn_sb_puts(sb, "gpr_idx(");
    const char *sep = "";
    for (unsigned i = 0; i < 4; i++)
        if (v & (1u << i)) {
            gcn_sb_printf(sb, "%s%s", sep, n[i]);
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
    gcn_sb_printf(sb, "%u", v);
}

static void print_imm_field(const gcn_decoder *d, gcn_strbuf *sb, const gcn_insn *in,
                            const gcn_opnd *o, unsigned cls)
{
    unsigned v = (unsigned)o->imm & 0xffff;
    switch (cls) {
    case SC_K16: gcn_sb_printf(sb, "0x%x", v); break;
    case SC_U16: gcn_sb_printf(sb, v <= 64 ? "%u" : "0x%x", v); break;
    case SC_LABEL: print_label(d, sb, in, v); break;
    case SC_HWREG: print_hwreg(sb, v); break;
    case SC_SENDMSG: print_sendmsg(sb, v); break;
    case SC_WAITCNT: print_waitcnt(sb, in); break;
    case SC_GPRIDX: print_gpridx(sb, v); break;
    case SC_IMM7: print_imm32(sb, (uint32_t)o->imm); break;
    default: gcn_sb_printf(sb, "%lld", (long long)o->imm); break;
    }
}

static void print_offset(gcn_strbuf *sb, int32_t off)
{
    if (off < 0)
        gcn_sb_printf(sb, "-0x%x", (unsigned)-off);
    else
        gcn_sb_printf(sb, "0x%x", (unsigned)off);
}

void gcn_print_salu(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb)
{
    const gcn_isa_row *row = gcn_isa_row_of(in->id);
    const sspec *sp;
    unsigned ns = specs_of(in->id, &sp);
    gcn_sb_puts(sb, row->mnem);
    const char *sep = " ";
    for (unsigned i = 0; i < ns; i++) {
        const sspec *s = &sp[i];
        const gcn_opnd *o;
        switch (s->field) {
        case SF_IMMBIT:
            continue;
        case SF_CPOL:
            if (in->m.glc)
                gcn_sb_puts(sb, " glc");
            continue;
        case SF_OFFSET: {
            const gcn_opnd *so = gcn_insn_field(in, GCN_FLD_SOFFSET);
            gcn_sb_puts(sb, sep);
            if (so) {
                print_reg_opnd(sb, so, SC_S32);
                if (in->m.imm_offset_mode) {
                    gcn_sb_puts(sb, " offset:");
                    print_offset(sb, in->m.offset);
                }
            } else {
                print_offset(sb, in->m.offset);
            }
            sep = ", ";
            continue;
        }
        case SF_SIMM16:
            if (s->cls == SC_ZERO)
                continue;
            o = gcn_insn_field(in, GCN_FLD_SIMM16);
            if (!o)
                continue;
            if (s->cls == SC_ENDPGM) {
                if (o->imm != 0)
                    gcn_sb_printf(sb, " %u", (unsigned)o->imm & 0xffff);
                continue;
            }
            gcn_sb_puts(sb, sep);
            print_imm_field(d, sb, in, o, s->cls);
            sep = ", ";
            continue;
        default:
            break;
        }
        o = gcn_insn_field(in, sfield_tag(s->field));
        if (!o)
            continue;
        gcn_sb_puts(sb, sep);
        sep = ", ";
        if (o->kind == GCN_OPND_IMM)
            print_imm_field(d, sb, in, o, s->cls);
        else
            print_reg_opnd(sb, o, s->cls);
    }
}
