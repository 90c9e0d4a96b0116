/*
 * operand.c -- operand helpers shared by the family modules: adding operands
 * to a record, decoding 9-bit source operands, and printing registers,
 * special registers, inline constants and literals exactly as LLVM 22's
 * AMDGPUInstPrinter does for each operand type.
 *
 * 9-bit scalar source encoding (AMD CDNA3 ISA, "Scalar operands"; LLVM
 * SIDefines.h / AMDGPUDisassembler.cpp decodeSrcOp): 0-101 SGPRs, 102/103
 * flat_scratch, 104/105 xnack_mask, 106/107 vcc, 108-123 ttmp0-15, 124 m0,
 * 125 null, 126/127 exec, 128 zero, 129-192 1..64, 193-208 -1..-16, 230/231
 * src_flat_scratch_base_lo/hi, 235-239 shared/private apertures and
 * pops_exiting_wave_id, 240-248 float inline constants, 249 SDWA, 250 DPP,
 * 251 vccz, 252 execz, 253 scc, 254 lds_direct, 255 literal, 256-511 VGPRs.
 *
 * Facts checked against llvm-mc-22 (gfx942/gfx950), operand by operand:
 *  - a 64-bit (or wider) SGPR / ttmp operand whose encoding is not aligned
 *    is printed aligned down (s1 -> s[0:1], s5 as 128-bit -> s[4:7]);
 *  - 64-bit operands cannot be the odd halves 103/105/107/127, m0, 231 or
 *    lds_direct (invalid encodings); 209-229 and 232-234 are never valid;
 *  - inline float constants print as 0.5 ... 4.0 and 0.15915494 (64-bit:
 *    0.15915494309189532); for 16-bit integer operands they print as the
 *    hex f16 bit pattern (0x3c00);
 *  - a literal whose value (as the operand type would see it) equals an
 *    inline constant prints as lit(0x...), see print_literal(): f16 / bf16
 *    look at the low half (and print only it when not inlinable, f16), 16-bit
 *    integers and 32-bit types at the whole value, packed v2f16 / v2bf16 at
 *    the 32-bit integer or the zero-extended half constant, f64 never (the
 *    literal is the high half, printed as the double when inlinable), 64-bit
 *    integers at the zero-extended value.
 */
#include "decode_int.h"

const char gcn_reg_prefix[GCN_OPND_TTMP + 1][4] = {
    [GCN_OPND_NONE] = "s", [GCN_OPND_SGPR] = "s", [GCN_OPND_VGPR] = "v",
    [GCN_OPND_AGPR] = "a", [GCN_OPND_TTMP] = {'t', 't', 'm', 'p'},
};
const uint8_t gcn_reg_prefix_len[GCN_OPND_TTMP + 1] = {1, 1, 1, 1, 4};

void gcn_print_reg(gcn_strbuf *sb, gcn_opnd_kind kind, unsigned reg, unsigned nregs)
{
    gcn_put_reg(sb, kind, reg, nregs);
}

const char *gcn_special_name(unsigned enc, unsigned nregs)
{
    if (nregs > 2)                      /* wider operands: only null decodes */
        return enc == 125 ? "null" : NULL;
    if (nregs == 2) {
        switch (enc) {
        case 102: return nregs == 2 ? "flat_scratch" : NULL;
        case 104: return nregs == 2 ? "xnack_mask" : NULL;
        case 106: return nregs == 2 ? "vcc" : NULL;
        case 125: return "null";
        case 126: return nregs == 2 ? "exec" : NULL;
        case 230: return "src_flat_scratch_base_lo";
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

/* A scalar register tuple as LLVM decodes it: it indexes the tuple class, so
 * the encoding is rounded down (64-bit: to 2, 128-bit and wider: to 4); a
 * 192-bit operand is decoded with LLVM's SGPR_160 / TTMP_256 classes and
 * wider ones with the 512-bit classes (printed 5, 8 and 16 registers).
 * Returns 0 when the tuple does not exist (too close to the end). */
static int sreg_tuple(int ttmp, unsigned idx, unsigned nregs, unsigned *reg, unsigned *n)
{
    unsigned a = nregs >= 4 ? 4 : nregs == 2 ? 2 : 1;
    unsigned pn = nregs, last = ttmp ? 15 : 101;
    if (nregs == 6)
        pn = ttmp ? 8 : 5;
    else if (nregs > 8)
        pn = 16;
    *reg = idx & ~(a - 1);                   /* a is 1, 2 or 4 */
    *n = pn;
    if (ttmp)
        return *reg + pn - 1 <= last;
    if (nregs == 6)
        return *reg <= 100;          /* s[100:104] is printed by LLVM */
    if (pn == 16)
        return *reg + 15 <= 103;
    return *reg + pn - 1 <= (pn >= 4 ? 103 : last);
}

gcn_opnd *gcn_dec_src9(gcn_insn *in, gcn_field field, unsigned enc, unsigned nregs,
                       gcn_dtype dt, int have_lit, uint32_t lit, int *used_lit)
{
    gcn_opnd_kind kind;
    unsigned reg = enc;
    if (nregs == 0)
        nregs = 1;
    if (enc >= 256) {
        kind = GCN_OPND_VGPR;
        reg = enc - 256;
    } else if (enc <= 101) {
        kind = GCN_OPND_SGPR;
        if (!sreg_tuple(0, enc, nregs, &reg, &nregs))
            return NULL;
    } else if (enc >= 108 && enc <= 123) {
        kind = GCN_OPND_TTMP;
        if (!sreg_tuple(1, enc - 108, nregs, &reg, &nregs))
            return NULL;
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
    } else if (gcn_special_name(enc, nregs)) {
        kind = GCN_OPND_SPECIAL;
    } else {
        return NULL;   /* 209-229, 232-234, 249/250, odd halves for 64-bit ... */
    }
    return gcn_add_opnd(in, kind, field, GCN_OPF_SRC, reg, nregs, dt);
}

/* 16-bit integer operands (a packed v2i16 operand prints like a 32-bit one) */
static int dt_is_int16(gcn_dtype dt)
{
    return dt == GCN_DT_B16 || dt == GCN_DT_I16 || dt == GCN_DT_U16;
}

static int dt_is64(gcn_dtype dt)
{
    return dt == GCN_DT_B64 || dt == GCN_DT_I64 || dt == GCN_DT_U64 || dt == GCN_DT_F64;
}

static const char *const inl_float_text[8] = {"0.5", "-0.5", "1.0", "-1.0",
                                              "2.0", "-2.0", "4.0", "-4.0"};
/* f16 / bf16 / f32 / f64(high half) bit patterns of the inline constants 240..248 */
static const uint16_t inl_f16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000,
                                    0x4400, 0xc400, 0x3118};
static const uint16_t inl_bf16[9] = {0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000,
                                     0x4080, 0xc080, 0x3e22};
static const uint32_t inl_f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000,
                                    0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
                                    0x3e22f983};
static const uint32_t inl_f64hi[8] = {0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000,
                                      0x40000000, 0xc0000000, 0x40100000, 0xc0100000};

/* The float inline constants' text padded for a constant-size copy: [enc
 * - 240] for 240..248, [9] the 64-bit 1/(2*pi). */
static const char inl_text[10][20] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0",
                                      "-4.0", "0.15915494", "0.15915494309189532"};
static const uint8_t inl_text_len[10] = {3, 4, 3, 4, 3, 4, 3, 4, 10, 19};

/* Operand types of 16 bits, packed ones included (their inline floats are f16/bf16). */
static int dt_is16(gcn_dtype dt)
{
    return dt == GCN_DT_B16 || dt == GCN_DT_I16 || dt == GCN_DT_U16 || dt == GCN_DT_F16 ||
           dt == GCN_DT_BF16 || dt == GCN_DT_V2F16 || dt == GCN_DT_V2I16 || dt == GCN_DT_V2BF16;
}

uint64_t gcn_inline_value(unsigned enc, gcn_dtype dt)
{
    /* packed operands: the constant is replicated into every element */
    if (dt == GCN_DT_V2F16 || dt == GCN_DT_V2I16 || dt == GCN_DT_V2BF16) {
        uint64_t h = gcn_inline_value(enc, dt == GCN_DT_V2BF16 ? GCN_DT_BF16 :
                                           dt == GCN_DT_V2F16 ? GCN_DT_F16 : GCN_DT_I16);
        return (h & 0xffff) | (h & 0xffff) << 16;
    }
    if (dt == GCN_DT_V2F32 || dt == GCN_DT_V2B32) {
        uint64_t v = gcn_inline_value(enc, dt == GCN_DT_V2F32 ? GCN_DT_F32 : GCN_DT_B32) &
                     0xffffffffu;
        return v | v << 32;
    }
    if (gcn_inline_is_int(enc)) {
        int64_t v = enc <= 192 ? (int64_t)enc - 128 : 192 - (int64_t)enc;
        if (dt_is64(dt))
            return (uint64_t)v;
        if (dt_is16(dt))
            return (uint32_t)v & 0xffffu;
        return (uint32_t)v;
    }
    if (enc < 240 || enc > 248)
        return 0;
    unsigned i = enc - 240;
    if (dt_is64(dt))
        return i < 8 ? (uint64_t)inl_f64hi[i] << 32 : 0x3fc45f306dc9c882ull;
    if (dt == GCN_DT_BF16)
        return inl_bf16[i];
    if (dt_is16(dt))
        return inl_f16[i];
    return inl_f32[i];
}

char *gcn_cur_inline(char *p, unsigned enc, gcn_dtype dt)
{
    if (gcn_inline_is_int(enc))
        return gcn_cur_inline_int(p, enc);
    if (enc < 240 || enc > 248)
        return NULL;
    if (dt_is_int16(dt))               /* printImmediateInt16 of the f16 pattern */
        return gcn_cur_hex(p, inl_f16[enc - 240]);
    unsigned i = enc == 248 && dt_is64(dt) ? 9 : enc - 240;
    memcpy(p, inl_text[i], sizeof inl_text[i]);
    return p + inl_text_len[i];
}

void gcn_print_inline(gcn_strbuf *sb, unsigned enc, gcn_dtype dt)
{
    char *end = gcn_cur_inline(gcn_sb_room(sb, GCN_CUR_INLINE_MAX), enc, dt);
    if (end)
        gcn_sb_commit(sb, end);
    else
        gcn_sb_printf(sb, "<bad inline %u>", enc);
}

static int int_inline(int64_t v)
{
    return v >= -16 && v <= 64;
}

static int f32_inline(uint32_t v)
{
    if (int_inline((int32_t)v))
        return 1;
    if ((v & 0x7ffff) && v != 0x3e22f983)
        return 0;                       /* the others end in 19 zero bits */
    for (unsigned i = 0; i < 9; i++)
        if (v == inl_f32[i])
            return 1;
    return 0;
}

static int h16_inline(uint16_t v, const uint16_t *tab)
{
    if (int_inline((int16_t)v))
        return 1;
    for (unsigned i = 0; i < 9; i++)
        if (v == tab[i])
            return 1;
    return 0;
}

/* packed 16-bit float: a 32-bit integer constant, or the zero-extended
 * 16-bit float constant (LLVM getInlineEncodingV2F16 / V2BF16) */
static int v2h_inline(uint32_t v, const uint16_t *tab)
{
    if (int_inline((int32_t)v))
        return 1;
    for (unsigned i = 0; i < 9; i++)
        if (v == tab[i])
            return 1;
    return 0;
}

int gcn_literal_is_inlinable(uint32_t v, gcn_dtype dt)
{
    if (dt == GCN_DT_F16)
        return h16_inline((uint16_t)v, inl_f16);
    if (dt == GCN_DT_BF16)
        return h16_inline((uint16_t)v, inl_bf16);
    if (dt == GCN_DT_V2F16)
        return v2h_inline(v, inl_f16);
    if (dt == GCN_DT_V2BF16)
        return v2h_inline(v, inl_bf16);
    if (dt == GCN_DT_F64)
        return 0;                       /* printed as the f64 value instead */
    if (dt_is64(dt))
        return v <= 64;                 /* zero-extended to 64 bits */
    return f32_inline(v);               /* 32-bit, and 16-bit integer types */
}

/* A 32-bit literal as LLVM prints it for an operand type. */
static void print_literal(gcn_strbuf *sb, uint32_t v, gcn_dtype dt)
{
    if (dt == GCN_DT_F64) {
        /* the literal is the high half of the f64 (printImmediate64) */
        if (v == 0) {
            gcn_sb_puts(sb, "0");
            return;
        }
        for (unsigned i = 0; i < 8; i++)
            if (v == inl_f64hi[i]) {
                gcn_sb_puts(sb, inl_float_text[i]);
                return;
            }
        gcn_sb_put0x(sb, v);
        return;
    }
    if (gcn_literal_is_inlinable(v, dt)) {
        gcn_sb_puts(sb, "lit(");
        gcn_sb_put0x(sb, v);
        gcn_sb_putc(sb, ')');
        return;
    }
    if (dt == GCN_DT_F16 || dt_is_int16(dt))
        gcn_sb_put0x(sb, v & 0xffff);
    else
        gcn_sb_put0x(sb, v);
}

void gcn_print_opnd(gcn_strbuf *sb, const gcn_insn *in, const gcn_opnd *o)
{
    const char *name;
    (void)in;
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
        print_literal(sb, (uint32_t)o->imm, (gcn_dtype)o->dtype);
        break;
    case GCN_OPND_IMM:
    case GCN_OPND_LABEL:
        gcn_sb_puti(sb, o->imm);
        break;
    default:
        gcn_sb_puts(sb, "<none>");
        break;
    }
}
