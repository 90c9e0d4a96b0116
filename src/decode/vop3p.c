/*
 * vop3p.c -- decoder and printer of the VOP3P family of gfx942/gfx950:
 * packed math (v_pk_*), mixed-precision FMA (v_fma_mix*), dot products and
 * the MAI instructions (MFMA, SMFMAC, v_accvgpr_read/write), plus gfx950's
 * v_mfma_ld_scale_b32 and the 128-bit VOP3PX2 scaled MFMAs.  Text is what
 * llvm-objdump-22 prints, including LLVM's notes on operands outside their
 * register class ("/ *Invalid register, operand has 'X' register class* /")
 * and on constants where none is allowed ("/ *Invalid immediate* /").
 *
 * Everything per instruction comes from the SIG column of
 * src/decode/isa/vop3p.def (grammar in its header, generated from LLVM 22 by
 * tools/isagen/vop3p.py); the rules here are per operand kind:
 *
 *  - 9-bit sources (LLVM AMDGPUDisassembler::decodeSrcOp): 256+ VGPR, or
 *    AGPR for AGPR-capable operands (acc bits of MAI A/B, acc_cd for C/D,
 *    v_accvgpr_read); SGPR/TTMP tuples are aligned down (2 regs: even, 3+
 *    regs: multiple of 4; createSRegOperand) and must exist (SGPRs s0..s105,
 *    TTMPs ttmp0..15); AGPR tuples must end below a256, VGPR tuples print
 *    past v255 as LLVM does; special registers only where a register of that
 *    width exists; 32-bit literal (255) only on gfx950 (FeatureVOP3Literal;
 *    LLVM 22 crashes on it for gfx942, we call it invalid).
 *  - AMDGPUInstPrinter::printRegularOperand notes: a register outside the
 *    operand's class (SGPRs in VGPR/AGPR-only MAI operands, odd starts of
 *    _Align2 tuples) gets the class name; inline values (null, src_*) never.
 *  - printPackedModifier: op_sel/op_sel_hi/neg_lo/neg_hi print when not all
 *    default (op_sel_hi defaults to 1 for packed ops), one entry per source.
 *
 * The scaled pair (AMDGPUDisassembler tries DecoderTableGFX940128 first on
 * gfx950 when 16 bytes remain): v_mfma_ld_scale_b32 followed by
 * v_mfma_f32_{16x16x128,32x32x64}_f8f6f4 with abid == 1; when the pair does
 * not decode, the first 8 bytes decode alone.
 *
 * Records (what the simulator reads; operands in LLVM print order):
 *   MFMA      vdst = D, src0 = A, src1 = B, src2 = C (C may be a constant)
 *   SMFMAC    vdst = D and C (tied), src0 = A (sparse), src1 = B,
 *             src2 = the sparsity index VGPR
 *   scaled    as MFMA, then GCN_FLD_SCALE_SRC0/1 (scale VGPRs of A/B);
 *             m.op_sel / m.op_sel_hi hold the byte selects of the scales
 *   m.cbsz/abid/blgp/acc_cd as encoded (f64 MFMAs: blgp = neg bits); A/B
 *   are AGPRs when their acc bit is set, C/D when acc_cd is.  nregs of an
 *   f8f6f4 A/B follows its format (cbsz for A, blgp for B).  A 32-bit
 *   literal of an f64 operand is the high half: op.imm = literal << 32.
 *   Mixed FMA sources carry GCN_OPF_NEG/ABS; packed ops keep m.neg_lo/hi.
 */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode_int.h"

/* ------------------------------------------------------------ SIG model */

enum { C_VALU, C_LDSCALE, C_ACCR, C_ACCW, C_MFMA, C_SMFMAC, C_MFMASCALE };
enum { K_V, K_A, K_VS, K_AG, K_AV, K_CD, K_AVD, K_VI };
enum {                       /* mods= letters */
    M_OPSEL = 1 << 0, M_OPSELHI = 1 << 1, M_PACKED = 1 << 2, M_NEGLO = 1 << 3,
    M_NEGHI = 1 << 4, M_ABSNEG = 1 << 5, M_CLAMP = 1 << 6, M_CBSZ = 1 << 7,
    M_ABID = 1 << 8, M_BLGP = 1 << 9, M_BLGPNEG = 1 << 10,
};

typedef struct v3p_opspec {
    /* for decoding a 64-bit instruction (set_fast), first (what dec64
     * reads, in 32 bytes): the 9-bit encoding is bits [lo, lo + 9) of the
     * instruction (vdst: bits [0, 8) + 256, i.e. mask 0xff, add 256); 256+
     * is an AGPR when always_a or a bit of acc_mask is set, and then the
     * operand is reg[agpr] (its first 8 bytes; imm 0) with reg set (nregs
     * != 0) */
    uint64_t reg[2];
    uint64_t acc_mask;
    uint16_t mask, add;
    uint8_t lo, always_a, strict;
    uint8_t nregs;      /* 0: f8f6f4 format-dependent */
    uint8_t field;      /* gcn_field */
    uint8_t kind;       /* K_* */
    uint8_t dtype;      /* gcn_dtype */
    char imm;           /* constant print class (0 when none) */
    char type[8];       /* element type name from the SIG */
} v3p_opspec;

#define V3P_NAME_PAD 40    /* VOP3P mnemonics have at most 33 characters */
_Static_assert(offsetof(gcn_opnd, reg) == 6 && offsetof(gcn_opnd, imm) == 8,
               "an operand's reg in the first 8 bytes, then imm");

/* What decoding and printing read first, in as few cache lines as can be
 * (a code object mixes rows at random): the first line holds what dec64
 * and the printer read but the operands, which follow. */
typedef struct v3p_sig {
    _Alignas(64) uint64_t zero;
    unsigned mods;
    uint8_t valid, cls, nops, nsrc;
    uint16_t id;                /* the row */
    uint8_t all, hi_dflt;       /* bits of the sources; op_sel_hi when default */
    uint8_t name_len;
    char name[V3P_NAME_PAD];    /* the mnemonic, padded (a constant-size copy) */
    v3p_opspec op[6];
    uint16_t shape[4];  /* M N K blocks */
    uint8_t passes950;  /* gfx950 pass count when it differs (else 0) */
} v3p_sig;

static v3p_sig sigs[GCN_ID_COUNT];      /* each parsed at its first use */
static gcn_once sigs_once[GCN_ID_COUNT];

static gcn_dtype dtype_of(const char *t, unsigned kind, unsigned nregs)
{
    int packed = kind == K_VS && nregs == 1;
    if (!strcmp(t, "f16")) return packed || kind == K_AV || kind == K_AVD ? GCN_DT_V2F16 : GCN_DT_F16;
    if (!strcmp(t, "bf16")) return GCN_DT_V2BF16;
    if (!strcmp(t, "i16") || !strcmp(t, "u16") || !strcmp(t, "b16")) return GCN_DT_V2I16;
    if (!strcmp(t, "mix")) return GCN_DT_F16;
    if (!strcmp(t, "f32") || !strcmp(t, "xf32"))
        return kind == K_VS && nregs == 2 ? GCN_DT_V2F32 : GCN_DT_F32;
    if (!strcmp(t, "f64")) return GCN_DT_F64;
    if (!strcmp(t, "i32")) return GCN_DT_I32;
    if (!strcmp(t, "u32")) return GCN_DT_U32;
    if (!strcmp(t, "b32")) return kind == K_VS && nregs == 2 ? GCN_DT_V2B32 : GCN_DT_B32;
    return GCN_DT_B32;   /* i8 u8 i4 u4 fp8 bf8 f8f6f4: packed in dwords */
}

static int strict_class(const v3p_opspec *o);

/* The decoding shortcuts of operand o (see v3p_opspec): where its field
 * is in a 64-bit instruction and which bits make 256+ an AGPR (dec64:
 * MAI A/B by their acc bits in w1 27/28, MAI C/D by acc_cd in w0 15). */
static void set_fast(const v3p_sig *s, v3p_opspec *o)
{
    int mai = s->cls == C_MFMA || s->cls == C_SMFMAC;
    unsigned si = o->field - GCN_FLD_SRC0;
    o->lo = o->field == GCN_FLD_VDST ? 0 : si < 3 ? (uint8_t)(32 + 9 * si) : 0;
    o->mask = o->field == GCN_FLD_VDST ? 0xff : 0x1ff;
    o->add = o->field == GCN_FLD_VDST ? 256 : 0;
    o->always_a = o->field == GCN_FLD_VDST ? o->kind == K_A : o->kind == K_AG;
    o->acc_mask = 0;
    if (mai && (o->kind == K_CD || (o->kind == K_AVD && o->field == GCN_FLD_VDST)))
        o->acc_mask = 1ull << 15;
    else if (o->kind == K_AV && si < 3 && o->field != GCN_FLD_VDST)
        o->acc_mask = 1ull << (59 + si);
    o->strict = (uint8_t)strict_class(o);
    for (int a = 0; a < 2; a++) {
        gcn_opnd r;
        memset(&r, 0, sizeof r);
        r.kind = a ? GCN_OPND_AGPR : GCN_OPND_VGPR;
        r.field = o->field;
        r.flags = o->field == GCN_FLD_VDST ? GCN_OPF_DST : GCN_OPF_SRC;
        r.nregs = o->nregs;
        r.dtype = o->dtype;
        memcpy(&o->reg[a], &r, sizeof o->reg[a]);
    }
}

static void parse_sig(v3p_sig *s, const char *sig)
{
    static const char *const cls[] = {"valu", "ldscale", "accr", "accw", "mfma", "smfmac",
                                      "mfmascale"};
    static const char *const kinds[] = {"v", "a", "vs", "ag", "av", "cd", "avd", "vi"};
    char buf[512];
    snprintf(buf, sizeof buf, "%s", sig);
    char *save = NULL;
    char *tok = strtok_r(buf, " ", &save);
    for (unsigned i = 0; i < sizeof cls / sizeof cls[0]; i++)
        if (tok && !strcmp(tok, cls[i]))
            s->cls = (uint8_t)i;
    while ((tok = strtok_r(NULL, " ", &save))) {
        if (!strncmp(tok, "mods=", 5)) {
            for (const char *p = tok + 5; *p; p++) {
                const char *L = "ohplnacCABN";
                const char *q = strchr(L, *p);
                if (q)
                    s->mods |= 1u << (q - L);
            }
        } else if (!strncmp(tok, "zero=", 5)) {
            s->zero = strtoull(tok + 5, NULL, 16);
        } else if (!strncmp(tok, "shape=", 6)) {
            unsigned a = 0, b = 0, c = 0, d = 0;
            sscanf(tok + 6, "%ux%ux%ux%u", &a, &b, &c, &d);
            s->shape[0] = (uint16_t)a; s->shape[1] = (uint16_t)b;
            s->shape[2] = (uint16_t)c; s->shape[3] = (uint16_t)d;
        } else if (!strncmp(tok, "passes950=", 10)) {
            s->passes950 = (uint8_t)atoi(tok + 10);
        } else {
            /* FIELD:KINDNREGS:TYPE[:IMM] */
            char *f = tok, *k = strchr(f, ':');
            if (!k || s->nops >= 6)
                continue;
            *k++ = 0;
            char *t = strchr(k, ':');
            if (!t)
                continue;
            *t++ = 0;
            char *imm = strchr(t, ':');
            if (imm)
                *imm++ = 0;
            v3p_opspec *o = &s->op[s->nops++];
            o->field = !strcmp(f, "vdst") ? GCN_FLD_VDST : !strcmp(f, "src0") ? GCN_FLD_SRC0
                     : !strcmp(f, "src1") ? GCN_FLD_SRC1 : !strcmp(f, "src2") ? GCN_FLD_SRC2
                     : !strcmp(f, "scale0") ? GCN_FLD_SCALE_SRC0 : GCN_FLD_SCALE_SRC1;
            size_t kl = strcspn(k, "0123456789f");
            for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
                if (strlen(kinds[i]) == kl && !strncmp(k, kinds[i], kl))
                    o->kind = (uint8_t)i;
            o->nregs = k[kl] == 'f' ? 0 : (uint8_t)atoi(k + kl);
            snprintf(o->type, sizeof o->type, "%s", t);
            o->dtype = (uint8_t)dtype_of(t, o->kind, o->nregs);
            o->imm = imm ? imm[0] : 0;
            if (o->field >= GCN_FLD_SRC0 && o->field <= GCN_FLD_SRC2)
                s->nsrc++;
        }
    }
    for (unsigned i = 0; i < s->nops; i++)
        set_fast(s, &s->op[i]);
    s->all = (uint8_t)((1u << s->nsrc) - 1);
    s->hi_dflt = s->mods & M_PACKED ? s->all : 0;
    s->valid = 1;
}

/* [id]: the row's parsed signature once made, for VOP3P rows (NULL until
 * then, and for other rows): the lookup is one load. */
static const v3p_sig *_Atomic sig_ptr[GCN_ID_COUNT];

/* sig_of() for a row not looked up yet (or of another family). */
static GCN_COLD const v3p_sig *sig_slow(unsigned id)
{
    if (id == 0 || id >= GCN_ID_COUNT)
        return NULL;
    if (!gcn_once_ready(&sigs_once[id]) && gcn_once_claim(&sigs_once[id])) {
        const gcn_isa_row *r = gcn_isa_row_of(id);
        if (r->fmt == GCN_FMT_VOP3P || r->fmt == GCN_FMT_VOP3PX2) {
            parse_sig(&sigs[id], r->sig);
            sigs[id].id = (uint16_t)id;
            size_t ml = strlen(r->mnem);
            assert(ml < V3P_NAME_PAD);
            memcpy(sigs[id].name, r->mnem, ml);
            sigs[id].name_len = (uint8_t)ml;
            atomic_store_explicit(&sig_ptr[id], &sigs[id], memory_order_release);
        }
        gcn_once_done(&sigs_once[id]);
    }
    return sigs[id].valid ? &sigs[id] : NULL;
}

static inline const v3p_sig *sig_of(unsigned id)
{
    const v3p_sig *s = id < GCN_ID_COUNT
                     ? atomic_load_explicit(&sig_ptr[id], memory_order_acquire) : NULL;
    return s ? s : sig_slow(id);
}

/* The row this thread's decoder found last (the printer's first guess: a
 * listing prints each instruction right after decoding it). */
static _Thread_local const v3p_sig *last_sig;

/* sig_of() for the printer. */
static inline const v3p_sig *sig_of_insn(const gcn_insn *in)
{
    const v3p_sig *s = last_sig;
    return s && s->id == in->id ? s : sig_of(in->id);
}

/* [target][opcode]: the signature a VOP3P opcode decodes to, once looked
 * up (NULL before, and for opcodes of no row). */
static const v3p_sig *_Atomic sig_by_op[GCN_TARGET_GFX950 + 1][128];

static GCN_COLD const v3p_sig *sig_by_op_slow(const gcn_decoder *d, unsigned op)
{
    int ti = gcn_isa_target_index(d->target);
    if (ti < 0)
        return NULL;
    const v3p_sig *s = sig_of(gcn_isa_find(ti, GCN_FMT_VOP3P, op));
    if (s)
        atomic_store_explicit(&sig_by_op[d->target][op], s, memory_order_release);
    return s;
}

/* ------------------------------------------------------------ operands */

/* Registers of an f8f6f4 matrix operand by format (cbsz for A, blgp for B):
 * fp8/bf8 8, fp6/bf6 6, fp4 4, reserved formats 8 (LLVM MFMAScaleFormats;
 * probed with the oracle by tools/isagen/vop3p.py). */
static unsigned f8f6f4_regs(unsigned fmt)
{
    return fmt == 2 || fmt == 3 ? 6 : fmt == 4 ? 4 : 8;
}

/* Does the scalar-side encoding enc (0..254) name a register or constant
 * for an operand of *nregs registers?  Sets kind and reg; SGPR/TTMP tuples
 * are at most 16 registers wide (LLVM has no wider scalar class: a 1024-bit
 * operand decodes as SGPR_512), so *nregs may shrink. */
static int scalar_src(unsigned enc, unsigned *nregsp, gcn_opnd_kind *kind, unsigned *reg)
{
    unsigned nregs = *nregsp;
    unsigned al = nregs == 1 ? 0 : nregs == 2 ? 1 : 3;
    if ((enc <= 101 || (enc >= 108 && enc <= 123)) && nregs > 16)
        *nregsp = nregs = 16;
    if (enc <= 101) {
        unsigned base = enc & ~al;
        if (base + nregs > 106)
            return 0;
        *kind = GCN_OPND_SGPR;
        *reg = base;
        return 1;
    }
    if (enc >= 108 && enc <= 123) {
        unsigned base = (enc - 108) & ~al;
        if (base + nregs > 16)
            return 0;
        *kind = GCN_OPND_TTMP;
        *reg = base;
        return 1;
    }
    if ((enc >= 128 && enc <= 208) || (enc >= 240 && enc <= 248)) {
        *kind = GCN_OPND_INLINE;
        *reg = enc;
        return 1;
    }
    *kind = GCN_OPND_SPECIAL;
    *reg = enc;
    if (enc == 125)
        return 1;                                   /* null: any width */
    if (nregs > 2)
        return 0;
    return gcn_special_name(enc, nregs) != NULL;
}

/* Inline values (LLVM isInlineValue): never flagged as out-of-class. */
static int inline_value(unsigned enc)
{
    return enc == 125 || enc == 230 || enc == 231 || (enc >= 235 && enc <= 239) ||
           (enc >= 251 && enc <= 253);
}

typedef struct dec_ctx {
    const gcn_decoder *d;
    const uint32_t *lit_w;     /* literal dword, or NULL when absent */
    int used_lit;
} dec_ctx;

/* Decode a 9-bit source of spec o; agpr: 256+ means an AGPR.  An f8f6f4
 * matrix operand (spec nregs 0) is first decoded as 8 registers (its widest
 * class) and then narrowed, so its tuple must exist at 8 registers. */
static int dec_src9(dec_ctx *c, gcn_insn *in, const v3p_opspec *o, unsigned enc,
                    unsigned nregs, int agpr)
{
    gcn_opnd_kind kind;
    unsigned reg, check = o->nregs ? nregs : 8;
    if (enc >= 256) {
        reg = enc - 256;
        if (agpr) {
            if (reg + check > 256)
                return 0;
            kind = GCN_OPND_AGPR;
        } else {
            kind = GCN_OPND_VGPR;
        }
    } else if (enc == 255) {
        if (c->d->target != GCN_TARGET_GFX950 || !c->lit_w)
            return 0;
        gcn_opnd *op = gcn_add_opnd(in, GCN_OPND_LITERAL, (gcn_field)o->field, GCN_OPF_SRC,
                                    255, nregs, (gcn_dtype)o->dtype);
        if (!op)
            return 0;
        uint32_t v = *c->lit_w;
        op->imm = o->imm == 'd' ? (int64_t)((uint64_t)v << 32) : (int64_t)v;
        in->literal = v;
        in->has_literal = 1;
        c->used_lit = 1;
        return 1;
    } else {
        if (!scalar_src(enc, &check, &kind, &reg))
            return 0;
        if (check < nregs)
            nregs = check;
    }
    return gcn_add_opnd(in, kind, (gcn_field)o->field, GCN_OPF_SRC, reg, nregs,
                        (gcn_dtype)o->dtype) != NULL;
}

/* 8-bit vdst field. */
static int dec_vdst(gcn_insn *in, const v3p_opspec *o, unsigned reg, unsigned nregs, int agpr)
{
    if (agpr && reg + nregs > 256)
        return 0;
    return gcn_add_opnd(in, agpr ? GCN_OPND_AGPR : GCN_OPND_VGPR, GCN_FLD_VDST, GCN_OPF_DST,
                        reg, nregs, (gcn_dtype)o->dtype) != NULL;
}

/* ------------------------------------------------------------ decoding */

/* Decode one 64-bit VOP3P instruction (w0, w1) of signature s; lit is the dword
 * after it or NULL.  Returns the size (8 or 12) or 0. */
static size_t dec64(const gcn_decoder *d, const v3p_sig *s, uint32_t w0, uint32_t w1,
                    const uint32_t *lit, gcn_insn *out)
{
    uint64_t w = (uint64_t)w0 | ((uint64_t)w1 << 32);
    if (w & s->zero)
        return 0;
    out->id = s->id;
    out->enc = GCN_FMT_VOP3P;
    out->sub = GCN_SUB_NONE;
    out->opcode = (uint16_t)gcn_bits(w0, 16, 7);
    gcn_mods *m = &out->m;
    int mai = s->cls == C_MFMA || s->cls == C_SMFMAC;
    if (mai) {
        m->cbsz = (uint8_t)gcn_bits(w0, 8, 3);
        m->abid = (uint8_t)gcn_bits(w0, 11, 4);
        m->acc_cd = (uint8_t)gcn_bits(w0, 15, 1);
        m->blgp = (uint8_t)gcn_bits(w1, 29, 3);
    } else {
        m->neg_hi = (uint8_t)gcn_bits(w0, 8, 3);
        m->op_sel = (uint8_t)gcn_bits(w0, 11, 3);
        m->op_sel_hi = (uint8_t)(gcn_bits(w1, 27, 2) | (gcn_bits(w0, 14, 1) << 2));
        m->clamp = (uint8_t)gcn_bits(w0, 15, 1);
        m->neg_lo = (uint8_t)gcn_bits(w1, 29, 3);
    }
    const v3p_opspec *o = s->op, *end = s->op + s->nops;
    gcn_opnd *op = out->op;             /* the record has no operands yet */
    for (; o < end; o++, op++) {
        int agpr = o->always_a | ((w & o->acc_mask) != 0);
        unsigned enc = (unsigned)(w >> o->lo & o->mask) + o->add;
        unsigned n = o->nregs;
        if (enc >= 256 && n) {          /* a VGPR or AGPR tuple: the common case */
            if (agpr && enc - 256 + n > 256)
                return 0;
            uint64_t e = o->reg[agpr] | (uint64_t)(enc - 256) << 48;
            memcpy(op, &e, sizeof e);
            op->imm = 0;
            continue;
        }
        if (!n)
            n = f8f6f4_regs(o->field == GCN_FLD_SRC0 ? m->cbsz : m->blgp);
        int dst = o->field == GCN_FLD_VDST;
        out->nopnds = (uint8_t)(op - out->op);  /* the helpers append op */
        dec_ctx c = {d, lit, 0};
        int ok = dst ? dec_vdst(out, o, enc - 256, n, agpr) : dec_src9(&c, out, o, enc, n, agpr);
        if (!ok)
            return 0;
    }
    out->nopnds = (uint8_t)(op - out->op);
    if ((s->mods & M_ABSNEG) && (m->neg_lo | m->neg_hi)) {
        for (gcn_opnd *q = out->op; q < op; q++) {     /* the sources' neg / abs */
            unsigned si = (unsigned)q->field - GCN_FLD_SRC0;
            if (si < 3)
                q->flags |= (uint8_t)(((m->neg_lo >> si) & 1) * GCN_OPF_NEG |
                                      ((m->neg_hi >> si) & 1) * GCN_OPF_ABS);
        }
    }
    return out->has_literal ? 12 : 8;   /* set by dec_src9 when it took the literal */
}

/* The gfx950 128-bit scaled MFMA: w[0..1] v_mfma_ld_scale_b32, w[2..3] the
 * f8f6f4 MFMA (abid == 1).  Returns 16 or 0. */
static size_t dec_scaled(const gcn_decoder *d, const uint32_t *w, gcn_insn *out)
{
    if ((w[2] >> 23) != 0x1A7 || gcn_bits(w[2], 11, 4) != 1)
        return 0;
    unsigned id = gcn_isa_find(gcn_isa_target_index(d->target), GCN_FMT_VOP3PX2, gcn_bits(w[2], 16, 7));
    const v3p_sig *s = sig_of(id);
    if (!s)
        return 0;
    dec_ctx c = {d, NULL, 0};     /* no literal in the pair (LLVM 22 crashes on one) */
    out->id = (uint16_t)id;
    out->enc = GCN_FMT_VOP3P;
    out->sub = GCN_SUB_NONE;
    out->opcode = (uint16_t)gcn_bits(w[2], 16, 7);
    gcn_mods *m = &out->m;
    m->cbsz = (uint8_t)gcn_bits(w[2], 8, 3);
    m->abid = (uint8_t)gcn_bits(w[2], 11, 4);
    m->acc_cd = (uint8_t)gcn_bits(w[2], 15, 1);
    m->blgp = (uint8_t)gcn_bits(w[3], 29, 3);
    m->op_sel = (uint8_t)gcn_bits(w[0], 11, 2);            /* scale byte selects */
    m->op_sel_hi = (uint8_t)gcn_bits(w[1], 27, 2);
    for (unsigned i = 0; i < s->nops; i++) {
        const v3p_opspec *o = &s->op[i];
        unsigned n = o->nregs;
        if (!n)
            n = f8f6f4_regs(o->field == GCN_FLD_SRC0 ? m->cbsz : m->blgp);
        int ok;
        if (o->field == GCN_FLD_VDST) {
            ok = dec_vdst(out, o, gcn_bits(w[2], 0, 8), n, m->acc_cd);
        } else if (o->field == GCN_FLD_SCALE_SRC0 || o->field == GCN_FLD_SCALE_SRC1) {
            unsigned enc = gcn_bits(w[1], o->field == GCN_FLD_SCALE_SRC0 ? 0 : 9, 9);
            ok = dec_src9(&c, out, o, enc, n, 0);
        } else {
            unsigned si = o->field - GCN_FLD_SRC0;
            unsigned enc = gcn_bits(w[3], 9 * si, 9);
            int agpr = (o->kind == K_AV && gcn_bits(w[3], 27 + si, 1)) ||
                       (o->kind == K_CD && m->acc_cd);
            ok = dec_src9(&c, out, o, enc, n, agpr);
        }
        if (!ok)
            return 0;
    }
    return 16;
}

size_t gcn_dec_vop3p(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw, gcn_insn *out)
{
    (void)fmt;
    if (nw < 2)
        return 0;
    unsigned t = (unsigned)d->target, op = gcn_bits(w[0], 16, 7);
    const v3p_sig *s = t <= GCN_TARGET_GFX950
                     ? atomic_load_explicit(&sig_by_op[t][op], memory_order_acquire) : NULL;
    if (!s && !(s = sig_by_op_slow(d, op)))
        return 0;
    last_sig = s;
    if (s->cls == C_LDSCALE && nw >= 4 && d->target == GCN_TARGET_GFX950) {
        gcn_insn tmp = *out;
        size_t n = dec_scaled(d, w, &tmp);
        if (n) {
            *out = tmp;
            return n;
        }
    }
    return dec64(d, s, w[0], w[1], nw >= 3 ? &w[2] : NULL, out);
}

/* ------------------------------------------------------------ printing */

static const char *const FNAME[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"};
static const uint16_t INL_F16[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400,
                                   0xc400, 0x3118};
static const uint16_t INL_BF16[] = {0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080,
                                    0xc080, 0x3e22};
static const uint32_t INL_F32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                   0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
static const uint32_t INL_F64HI[] = {0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000,
                                     0x40000000, 0xc0000000, 0x40100000, 0xc0100000};

static int in16(uint32_t v, const uint16_t *t)
{
    for (unsigned i = 0; i < 9; i++)
        if (v == t[i])
            return 1;
    return 0;
}

static int f32_index(uint32_t v)
{
    for (int i = 0; i < 9; i++)
        if (v == INL_F32[i])
            return i;
    return -1;
}

static void print_inline(gcn_strbuf *sb, unsigned enc, char cls)
{
    if (enc <= 192) {
        gcn_sb_putu(sb, enc - 128);
    } else if (enc <= 208) {
        gcn_sb_putc(sb, '-');
        gcn_sb_putu(sb, enc - 192);
    }
    else if (enc < 248)
        gcn_sb_puts(sb, FNAME[enc - 240]);
    else
        gcn_sb_puts(sb, cls == 'd' ? "0.15915494309189532" : "0.15915494");
    if (cls == 'x')
        gcn_sb_puts(sb, "/*Invalid immediate*/");
}

/* Whether LLVM 22 prints literal v of constant class cls as lit(v): values
 * an assembler would otherwise encode as inline constants. */
static int lit_marked(uint32_t v, char cls)
{
    int32_t sv = (int32_t)v;
    int small = sv >= -16 && sv <= 64;
    switch (cls) {
    case 'x': case 'd': return 0;
    case 'm': {
        int16_t slo = (int16_t)(v & 0xffff);
        return (slo >= -16 && slo <= 64) || in16(v & 0xffff, INL_F16);
    }
    case 'h': return small || in16(v, INL_F16);
    case 'b': return small || in16(v, INL_BF16);
    case 'n': return small || (f32_index(v) >= 0 && v != 0x3e22f983);
    default: return small || f32_index(v) >= 0;
    }
}

static void print_lit_marked(gcn_strbuf *sb, uint32_t v)
{
    gcn_sb_puts(sb, "lit(");
    gcn_sb_put0x(sb, v);
    gcn_sb_putc(sb, ')');
}

/* A 32-bit literal v as LLVM 22 prints it for constant class cls. */
static void print_literal(gcn_strbuf *sb, uint32_t v, char cls)
{
    int32_t sv = (int32_t)v;
    int small = sv >= -16 && sv <= 64;
    switch (cls) {
    case 'x': {
        int fi = f32_index(v);
        if (small)
            gcn_sb_puti(sb, sv);
        else if (fi >= 0)
            gcn_sb_puts(sb, fi == 8 ? "0.15915494" : FNAME[fi]);
        else
            gcn_sb_put0x(sb, v);
        gcn_sb_puts(sb, "/*Invalid immediate*/");
        return;
    }
    case 'd':
        if (v == 0) {
            gcn_sb_puts(sb, "0");
            return;
        }
        for (int i = 0; i < 8; i++)
            if (v == INL_F64HI[i]) {
                gcn_sb_puts(sb, FNAME[i]);
                return;
            }
        gcn_sb_put0x(sb, v);
        return;
    case 'm':
        if (lit_marked(v, cls))
            print_lit_marked(sb, v);
        else
            gcn_sb_put0x(sb, v & 0xffff);           /* 16-bit operand */
        return;
    default:
        if (lit_marked(v, cls))
            print_lit_marked(sb, v);
        else
            gcn_sb_put0x(sb, v);
        return;
    }
}

/* PRE_<bits>_Align2, or single for one register. */
static void tuple_class(gcn_strbuf *sb, const char *pre, const char *single, unsigned nregs)
{
    if (nregs == 1 && single) {
        gcn_sb_puts(sb, single);
        return;
    }
    gcn_sb_puts(sb, pre);
    gcn_sb_putc(sb, '_');
    gcn_sb_putu(sb, 32 * nregs);
    gcn_sb_puts(sb, "_Align2");
}

/* Register class LLVM names in its out-of-class note for operand spec o. */
static void class_name(gcn_strbuf *sb, const v3p_opspec *o, unsigned nregs, int acc_cd)
{
    switch (o->kind) {
    case K_VS: tuple_class(sb, "VS", "VS_32", nregs); break;
    case K_V: tuple_class(sb, "VReg", "VGPR_32", nregs); break;
    case K_A: case K_AG: gcn_sb_puts(sb, "AGPR_32"); break;
    case K_VI: gcn_sb_puts(sb, "VGPR_32"); break;
    case K_AV: case K_AVD: tuple_class(sb, "AV", "AV_32", nregs); break;
    default: tuple_class(sb, acc_cd ? "AReg" : "VReg", NULL, nregs); break;
    }
}

/* Register classes without SGPRs. */
static int strict_class(const v3p_opspec *o)
{
    return o->kind == K_AG || o->kind == K_AV || o->kind == K_CD || o->kind == K_AVD ||
           o->kind == K_VI;
}

static void print_operand(gcn_strbuf *sb, const gcn_insn *in, const gcn_opnd *op,
                          const v3p_opspec *o)
{
    int strict = strict_class(o);
    int note = 0;
    switch (op->kind) {
    case GCN_OPND_VGPR: case GCN_OPND_AGPR:
        gcn_put_reg(sb, op->kind, op->reg, op->nregs);
        note = op->nregs > 1 && (op->reg & 1);
        break;
    case GCN_OPND_SGPR: case GCN_OPND_TTMP:
        gcn_put_reg(sb, op->kind, op->reg, op->nregs);
        note = strict;
        break;
    case GCN_OPND_SPECIAL:
        gcn_sb_puts(sb, gcn_special_name(op->reg, op->nregs));
        note = strict && !inline_value(op->reg);
        break;
    case GCN_OPND_INLINE: case GCN_OPND_LITERAL:
        if (o->nregs == 0 && op->nregs != 8) {
            /* f8f6f4 A/B in a 6- or 4-register format: LLVM 22 re-creates
             * the operand for the narrower class and prints a constant as 0
             * (negative and float constants crash it). */
            gcn_sb_puts(sb, "0/*Invalid immediate*/");
        } else if (op->kind == GCN_OPND_INLINE) {
            print_inline(sb, op->reg, o->imm);
        } else {
            print_literal(sb, in->literal, o->imm);
        }
        return;
    default:
        gcn_sb_puts(sb, "<none>");
        return;
    }
    if (note) {
        gcn_sb_puts(sb, "/*Invalid register, operand has '");
        class_name(sb, o, o->nregs ? o->nregs : op->nregs, in->m.acc_cd);
        gcn_sb_puts(sb, "' register class*/");
    }
}

/* "b0,b1,...": the low n bits of bits, low bit first. */
static void print_bits(gcn_strbuf *sb, unsigned bits, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (i)
            gcn_sb_putc(sb, ',');
        gcn_sb_putc(sb, (char)('0' + ((bits >> i) & 1)));
    }
}

/* " name:[a,b,c]" for per-source modifier bits, unless all are default. */
static void print_packed_list(gcn_strbuf *sb, const char *name, unsigned bits, unsigned nsrc);

/* (the check inline: most instructions print none of these lists) */
static inline void print_packed(gcn_strbuf *sb, const char *name, unsigned bits, unsigned nsrc,
                                int dflt)
{
    unsigned all = (1u << nsrc) - 1;
    if ((bits & all) != (dflt ? all : 0))
        print_packed_list(sb, name, bits, nsrc);
}

static void print_packed_list(gcn_strbuf *sb, const char *name, unsigned bits, unsigned nsrc)
{
    gcn_sb_putc(sb, ' ');
    gcn_sb_puts(sb, name);
    gcn_sb_puts(sb, ":[");
    print_bits(sb, bits, nsrc);
    gcn_sb_putc(sb, ']');
}

static inline int plain_reg(const gcn_opnd *op, const v3p_opspec *o);
static __attribute__((noinline)) void print_modified(gcn_strbuf *sb, const gcn_insn *in,
                                                     const gcn_opnd *op, const v3p_opspec *o);
static void print_mods(gcn_strbuf *sb, const gcn_insn *in, const v3p_sig *s);

void gcn_print_vop3p(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb)
{
    (void)d;
    const gcn_isa_row *r = gcn_isa_row_of(in->id);
    const v3p_sig *s = sig_of_insn(in);
    if (!s) {
        gcn_sb_puts(sb, r->mnem);
        return;
    }
    /* mnemonic and plain registers through a cursor, the rest through the
     * appenders */
    char *p = gcn_sb_room(sb, GCN_LINE_MAX);
    memcpy(p, s->name, V3P_NAME_PAD);
    p += s->name_len;
    unsigned n = in->nopnds < s->nops ? in->nopnds : s->nops;
    const gcn_opnd *op = in->op, *end = in->op + n;
    const v3p_opspec *o = s->op;
    if (op < end) {
        *p++ = ' ';
        for (;;) {
            if (plain_reg(op, o)) {
                p = gcn_cur_reg(p, op->kind, op->reg, op->nregs);
            } else {
                gcn_sb_commit(sb, p);
                print_modified(sb, in, op, o);
                p = gcn_sb_room(sb, GCN_LINE_MAX);
            }
            o++;
            if (++op == end)
                break;
            p = GCN_CUR_LIT(p, ", ");
        }
    }
    gcn_sb_commit(sb, p);
    print_mods(sb, in, s);
}

/* A register operand without modifiers that gets no class note. */
static inline int plain_reg(const gcn_opnd *op, const v3p_opspec *o)
{
    unsigned kind = op->kind;
    if (op->flags & (GCN_OPF_NEG | GCN_OPF_ABS))
        return 0;
    if (kind == GCN_OPND_VGPR || kind == GCN_OPND_AGPR)
        return !(op->nregs > 1 && (op->reg & 1));
    return (kind == GCN_OPND_SGPR || kind == GCN_OPND_TTMP) && !o->strict;
}

/* An operand with its neg/abs modifiers. */
static __attribute__((noinline)) void print_modified(gcn_strbuf *sb, const gcn_insn *in,
                                                     const gcn_opnd *op, const v3p_opspec *o)
{
    int neg = (op->flags & GCN_OPF_NEG) != 0, abs = (op->flags & GCN_OPF_ABS) != 0;
    /* printOperandAndFPInputMods: neg(...) around an immediate; a literal
     * printed as lit(...) is an expression and gets '-'. */
    int negf = neg && !abs && (op->kind == GCN_OPND_INLINE ||
                               (op->kind == GCN_OPND_LITERAL && !lit_marked(in->literal, o->imm)));
    if (neg)
        gcn_sb_puts(sb, negf ? "neg(" : "-");
    if (abs)
        gcn_sb_putc(sb, '|');
    print_operand(sb, in, op, o);
    if (abs)
        gcn_sb_putc(sb, '|');
    if (negf)
        gcn_sb_putc(sb, ')');
}

/* The modifiers after the operands. */
static void print_mods(gcn_strbuf *sb, const gcn_insn *in, const v3p_sig *s)
{
    const gcn_mods *m = &in->m;
    /* the common case: every field at its default, nothing prints */
    if (s->cls != C_MFMASCALE && !((m->op_sel | m->neg_lo | m->neg_hi) & s->all) &&
        (m->op_sel_hi & s->all) == s->hi_dflt && !(m->clamp | m->cbsz | m->abid | m->blgp))
        return;
    if (s->cls == C_MFMASCALE) {
        print_packed(sb, "op_sel", m->op_sel, 3, 0);
        gcn_sb_puts(sb, " op_sel_hi:[");
        print_bits(sb, m->op_sel_hi, 2);
        gcn_sb_puts(sb, ",0]");
    }
    unsigned ns = s->nsrc;
    if (s->mods & M_OPSEL)
        print_packed(sb, "op_sel", m->op_sel, ns, 0);
    if (s->mods & M_OPSELHI)
        print_packed(sb, "op_sel_hi", m->op_sel_hi, ns, (s->mods & M_PACKED) != 0);
    if (s->mods & M_NEGLO)
        print_packed(sb, "neg_lo", m->neg_lo, ns, 0);
    if (s->mods & M_NEGHI)
        print_packed(sb, "neg_hi", m->neg_hi, ns, 0);
    if ((s->mods & M_CLAMP) && m->clamp)
        gcn_sb_puts(sb, " clamp");
    if ((s->mods & M_CBSZ) && m->cbsz) {
        gcn_sb_puts(sb, " cbsz:");
        gcn_sb_putu(sb, m->cbsz);
    }
    if ((s->mods & M_ABID) && m->abid) {
        gcn_sb_puts(sb, " abid:");
        gcn_sb_putu(sb, m->abid);
    }
    if ((s->mods & M_BLGP) && m->blgp) {
        gcn_sb_puts(sb, " blgp:");
        gcn_sb_putu(sb, m->blgp);
    }
    if ((s->mods & M_BLGPNEG) && m->blgp) {
        gcn_sb_puts(sb, " neg:[");
        print_bits(sb, m->blgp, 3);
        gcn_sb_putc(sb, ']');
    }
}

/* ------------------------------------------------------------ MAI queries */

int gcn_mfma_shape(const gcn_insn *in, unsigned *m, unsigned *n, unsigned *k, unsigned *blocks)
{
    const v3p_sig *s = sig_of(in->id);
    if (!s || !s->shape[0])
        return -1;
    if (m) *m = s->shape[0];
    if (n) *n = s->shape[1];
    if (k) *k = s->shape[2];
    if (blocks) *blocks = s->shape[3];
    return 0;
}

unsigned gcn_mfma_passes(const gcn_decoder *d, const gcn_insn *in)
{
    const gcn_isa_row *r = gcn_isa_row_of(in->id);
    const v3p_sig *s = sig_of(in->id);
    if (!s || !(r->flags & GCN_F_MFMA))
        return 0;
    if (d && d->target == GCN_TARGET_GFX950 && s->passes950)
        return s->passes950;
    /* SISchedule.td WriteMFMAScale_*_F8F6F4: the column holds the fp8/bf8
     * count; with neither matrix in fp8/bf8 (format > 1) it is half. */
    if (s->op[1].nregs == 0 && in->m.cbsz > 1 && in->m.blgp > 1)
        return r->passes / 2;
    return r->passes;
}
