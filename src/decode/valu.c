/*
 * valu.c -- decoder and printer of the vector ALU families VOP1, VOP2, VOPC
 * and VOP3 (VOP3a/VOP3b, VOP3-only and the e64 forms of VOP1/2/C), with the
 * DPP (src0 = 0xFA) and SDWA (src0 = 0xF9) variants, for gfx942 / gfx950.
 *
 * Table driven: every row of isa/valu.def carries an operand signature (its
 * grammar is documented at the top of valu.def) derived from LLVM 22 by
 * tools/isagen/valu.py: which forms exist, the operand template LLVM prints
 * for each form, operand widths / classes / types, and what every modifier
 * bit of the VOP3, SDWA and DPP encodings does (invalid, ignored, printed).
 * The signatures are parsed once into vop_info[], at a row's first use.
 *
 * What makes it fast (a code object mixes rows at random, so the hot path
 * is a few table reads and stores, and what it reads must stay in the
 * cache): an opcode finds its parsed row in one load (info_by_op), and
 * the printer finds it the same way; what decoding and printing a form
 * reads (row id, steps, name) is one cache line per form (vop_form); each
 * e32/e64 template item is a step (shared by all rows) that reads its
 * field through a table of the operand each encoding decodes to (tables
 * made by running the operand code below on every encoding, shared by all
 * kinds of operand that agree); the printer copies the mnemonic with its
 * form's suffix as one padded string and prints plain registers and
 * constants through a cursor.
 *
 * Encodings (LLVM VOP1/VOP2/VOPC/VOP3Instructions.td, VOPInstructions.td,
 * *_vi and *_gfx9 encoding classes; AMD CDNA3 ISA "Microcode formats"):
 *   VOP1  [31:25]=0x3F vdst[24:17] op[16:9] src0[8:0]
 *   VOP2  [31]=0 op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]
 *   VOPC  [31:25]=0x3E op[24:17] vsrc1[16:9] src0[8:0]
 *   VOP3  [31:26]=0x34 op[25:16] clamp[15] op_sel[14:11] abs[10:8] vdst[7:0]
 *         neg[63:61] omod[60:59] src2[58:50] src1[49:41] src0[40:32]
 *         (VOP3b: sdst[14:8] instead of op_sel/abs)
 *   SDWA  second dword: src0[7:0] dst_sel[10:8] dst_unused[12:11] clamp[13]
 *         omod[15:14] src0_sel[18:16] src0_sext[19] src0_neg[20] src0_abs[21]
 *         s0[23] src1_sel[26:24] src1_sext[27] src1_neg[28] src1_abs[29] s1[31]
 *         (VOPC: sdst[14:8] sd[15] instead of dst_sel/dst_unused/clamp/omod)
 *   DPP   second dword: src0[7:0] dpp_ctrl[16:8] bound_ctrl[19] src0_neg[20]
 *         src0_abs[21] src1_neg[22] src1_abs[23] bank_mask[27:24] row_mask[31:28]
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode_int.h"

enum { R_D, R_SD, R_S0, R_S1, R_S2, R_N };
enum { F_E32, F_E64, F_SDWA, F_DPP, F_N };

typedef struct vop_od {
    uint8_t present;
    char cls;           /* v a s c */
    uint8_t n;          /* registers */
    uint8_t dt;         /* gcn_dtype */
    uint8_t lds_ok;     /* class VRegOrLds_32: lds_direct gets no note */
} vop_od;

/* One operand of a form's template, ready for decoding (the steps are
 * shared by all rows, in vsteps[], so that the few a code object uses stay
 * in the cache): its field is bits [lo, lo + width) of the instruction's
 * first two dwords (mask = 2^width - 1); tab[field] (tab points 0 or 256
 * entries into a table of encodings, see optab_get()) is the
 * operand it decodes to, field, dtype and role aside (head), or 0 when the
 * item's own code must decode it (a literal, an invalid encoding, the K
 * constant). */
typedef struct vop_step {
    _Alignas(32) uint64_t head;     /* field, dtype and the DST / SRC flag (the first
                                     * 8 bytes of a gcn_opnd) */
    const uint64_t *tab;
    uint16_t mask;
    uint8_t lo;
    uint16_t lit;       /* a 9-bit source: flags | nregs << 8 of its literal; else 0 */
} vop_step;

#define VOP_MAX_STEPS 5 /* the longest template: D,SD,S0,S1,S2 */
#define VOP_NAME_PAD 40 /* VALU mnemonics have at most 31 characters, suffixes 5 */

/* What decoding and printing one form of a row reads, in one cache line:
 * the decoder reads the row's id and its steps, the printer its name. */
typedef struct vop_form {
    _Alignas(64) char name[VOP_NAME_PAD];   /* mnemonic and suffix, padded */
    uint16_t id;        /* the row */
    uint16_t step[VOP_MAX_STEPS];   /* indices into vsteps[] (e32 / e64) */
    uint8_t name_len;
    uint8_t ok;         /* the form exists */
    uint8_t nsteps;     /* operands of the e32 / e64 template */
    uint8_t bitop3;     /* e64: neg/abs/omod hold the bitop3 value */
    uint16_t v3_bad, v3_keep;   /* e64: VOP3 modifier bits (v3_bits()) */
} vop_form;
_Static_assert(sizeof(vop_form) == 64, "a form is one cache line");

/* The VOP3 modifier bits in 13 bits: bits 8-15 of dword 0 (abs0-2,
 * op_sel0-3, clamp) and bits 59-63 (omod0-1, neg0-2). */
static inline unsigned v3_bits(uint64_t q)
{
    return (unsigned)((q >> 8) & 0xff) | (unsigned)((q >> 51) & 0x1f00);
}

/* Forms first (by GCN_SUB_*, one line each); the rest is read by the
 * SDWA / DPP decoders, the modifier printer and the notes. */
typedef struct vop_info {
    vop_form fl[GCN_SUB_SDWA + 1];
    uint8_t ok;
    uint16_t id;        /* the row */
    uint8_t fmt;        /* the row's native family */
    uint8_t form[F_N];
    uint8_t os;         /* op_sel entries */
    uint8_t nosuf32, nosuf64, nosufdpp, nosufsdwa, bitop3, v3fi, dpalu, sdwanodst;
    uint8_t vop3b;      /* the e64 form has an sdst (VOP3b) */
    uint8_t k_then_1;   /* e32: the K constant precedes vsrc1 (fmamk: vsrc1 is the addend) */
    /* The bit maps below as masks (info_build): bits that make the word
     * invalid when set, bits LLVM prints, bits it ignores. */
    uint64_t v3_bad, v3_keep;   /* VOP3 dwords 0-1 */
    uint32_t sw_bad, sw_clear;  /* SDWA second dword */
    uint32_t dp_bad, dp_clear;  /* DPP second dword */
    vop_od od[R_N];
    char tmpl[F_N][8];  /* D E(sdst) 0 1 2 K V(vcc src) W(vcc dst) */
    char rc[R_N][28];   /* register class named in comments, "" if none */
    char v3[14];        /* VOP3 modifier bit map */
    char sw[14];        /* SDWA bit map */
    char dp[8];         /* DPP bit map, bits 17..23 */
} vop_info;

/* [target index][id], each parsed at its first use */
static vop_info infos[2][GCN_ID_COUNT];
static gcn_once infos_once[2][GCN_ID_COUNT];

static gcn_dtype dtype_from(const char *s, size_t n)
{
    static const struct { const char *name; gcn_dtype dt; } tab[] = {
        {"b16", GCN_DT_B16}, {"i16", GCN_DT_I16}, {"u16", GCN_DT_U16}, {"f16", GCN_DT_F16},
        {"bf16", GCN_DT_BF16}, {"b32", GCN_DT_B32}, {"i32", GCN_DT_I32}, {"u32", GCN_DT_U32},
        {"f32", GCN_DT_F32}, {"b64", GCN_DT_B64}, {"i64", GCN_DT_I64}, {"u64", GCN_DT_U64},
        {"f64", GCN_DT_F64}, {"b128", GCN_DT_B128}, {"any", GCN_DT_ANY},
        {"v2f16", GCN_DT_V2F16}, {"v2i16", GCN_DT_V2I16}, {"v2bf16", GCN_DT_V2BF16},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strlen(tab[i].name) == n && !memcmp(tab[i].name, s, n))
            return tab[i].dt;
    return GCN_DT_ANY;
}

static int role_index(const char *s, size_t n)
{
    if (n == 1 && s[0] == 'D') return R_D;
    if (n == 2 && s[0] == 'S' && s[1] == 'D') return R_SD;
    if (n == 2 && s[0] == 'S' && s[1] >= '0' && s[1] <= '2') return R_S0 + (s[1] - '0');
    return -1;
}

/* Parse one signature (grammar: top of isa/valu.def) for target index ti. */
static void parse_sig(vop_info *vi, const char *sig, int ti)
{
    const char *p = sig;
    vi->ok = 1;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        if (e - p > 4 && p[3] == ':' && (!memcmp(p, "942", 3) || !memcmp(p, "950", 3))) {
            if ((ti == 0) != !memcmp(p, "942", 3)) {
                p = e;              /* a token for the other target */
                continue;
            }
            p += 4;
        }
        size_t len = (size_t)(e - p);
        const char *eq = memchr(p, '=', len);
        const char *co = memchr(p, ':', len);
        if (eq && (!co || eq < co)) {
            size_t kl = (size_t)(eq - p);
            const char *v = eq + 1;
            size_t vl = (size_t)(e - v);
            int f = -1;
            if (kl == 3 && !memcmp(p, "e32", 3)) f = F_E32;
            else if (kl == 3 && !memcmp(p, "e64", 3)) f = F_E64;
            else if (kl == 4 && !memcmp(p, "sdwa", 4)) f = F_SDWA;
            else if (kl == 3 && !memcmp(p, "dpp", 3)) f = F_DPP;
            if (f >= 0) {
                vi->form[f] = 1;
                size_t k = 0;
                const char *q = v;
                while (q < e && k < sizeof vi->tmpl[f] - 1) {
                    const char *c = q;
                    while (c < e && *c != ',')
                        c++;
                    size_t il = (size_t)(c - q);
                    char code = 0;
                    if (il == 1 && *q == 'D') code = 'D';
                    else if (il == 2 && !memcmp(q, "SD", 2)) code = 'E';
                    else if (il == 2 && q[0] == 'S') code = q[1];
                    else if (il == 1 && *q == 'K') code = 'K';
                    else if (il == 3 && !memcmp(q, "VCC", 3)) code = 'V';
                    else if (il == 4 && !memcmp(q, "VCCD", 4)) code = 'W';
                    else if (il)
                        vi->ok = 0;
                    if (code)
                        vi->tmpl[f][k++] = code;
                    q = c < e ? c + 1 : c;
                }
                vi->tmpl[f][k] = 0;
            } else if (kl == 2 && !memcmp(p, "v3", 2) && vl < sizeof vi->v3) {
                memcpy(vi->v3, v, vl);
            } else if (kl == 2 && !memcmp(p, "os", 2)) {
                vi->os = (uint8_t)atoi(v);
            } else if (kl == 2 && !memcmp(p, "sw", 2) && vl < sizeof vi->sw) {
                memcpy(vi->sw, v, vl);
            } else if (kl == 2 && !memcmp(p, "dp", 2) && vl < sizeof vi->dp) {
                memcpy(vi->dp, v, vl);
            }
        } else if (co) {
            int r = role_index(p, (size_t)(co - p));
            if (r >= 0) {
                vop_od *o = &vi->od[r];
                const char *q = co + 1;
                o->present = 1;
                o->cls = *q++;
                o->n = (uint8_t)strtoul(q, (char **)&q, 10);
                if (*q == ':')
                    q++;
                const char *d = q;
                while (q < e && *q != ':')
                    q++;
                o->dt = (uint8_t)dtype_from(d, (size_t)(q - d));
                if (q < e && *q == ':') {
                    q++;
                    size_t rl = (size_t)(e - q);
                    if (rl >= sizeof vi->rc[r])
                        rl = sizeof vi->rc[r] - 1;
                    memcpy(vi->rc[r], q, rl);
                    vi->rc[r][rl] = 0;
                    o->lds_ok = !strcmp(vi->rc[r], "VRegOrLds_32");
                }
            }
        } else {
            if (len == 7 && !memcmp(p, "nosuf32", 7)) vi->nosuf32 = 1;
            else if (len == 7 && !memcmp(p, "nosuf64", 7)) vi->nosuf64 = 1;
            else if (len == 6 && !memcmp(p, "bitop3", 6)) vi->bitop3 = 1;
            else if (len == 4 && !memcmp(p, "v3fi", 4)) vi->v3fi = 1;
            else if (len == 9 && !memcmp(p, "sdwanodst", 9)) vi->sdwanodst = 1;
            else if (len == 8 && !memcmp(p, "nosufdpp", 8)) vi->nosufdpp = 1;
            else if (len == 9 && !memcmp(p, "nosufsdwa", 9)) vi->nosufsdwa = 1;
        }
        p = e;
    }
    /* DP ALU DPP: an instruction with a 64-bit VGPR operand in its DPP form
     * only takes row_newbcast (LLVM AMDGPU::isDPALU_DPP). */
    for (const char *t = vi->tmpl[F_DPP]; *t; t++) {
        int r = *t == 'D' ? R_D : (*t >= '0' && *t <= '2') ? R_S0 + (*t - '0') : -1;
        if (r >= 0 && vi->od[r].n >= 2)
            vi->dpalu = 1;
    }
    vi->vop3b = strchr(vi->tmpl[F_E64], 'E') != NULL;
    const char *k = strchr(vi->tmpl[F_E32], 'K'), *one = strchr(vi->tmpl[F_E32], '1');
    vi->k_then_1 = k && one && k < one;
}

/* The letter of a bit map entry; a missing entry means invalid. */
static char map_letter(const char *map, size_t i)
{
    return map[i] ? map[i] : 'X';
}

/* VOP3 modifier bit of v3 map position b (abs0-2, op_sel0-3, clamp, omod0-1,
 * neg0-2). */
static const uint8_t v3_bitpos[13] = {8, 9, 10, 11, 12, 13, 14, 15, 59, 60, 61, 62, 63};

/* Turn the v3 / sw / dp letter maps into masks.  In VOP3b bits 8-14 are the
 * sdst field, no modifiers.  The SDWA map lists the second-dword bits below
 * (VOPC: without 13/14, which it does not check); other bits are printed
 * fields. */
static void build_masks(vop_info *vi, unsigned fmt)
{
    for (size_t b = 0; b < sizeof v3_bitpos; b++) {
        if (vi->vop3b && b < 7)
            continue;
        char c = map_letter(vi->v3, b);
        if (c == 'X')
            vi->v3_bad |= 1ull << v3_bitpos[b];
        else if (c == 'p')
            vi->v3_keep |= 1ull << v3_bitpos[b];
    }
    static const uint8_t b2[] = {13, 14, 15, 19, 20, 21, 22, 23, 27, 28, 29, 30, 31};
    static const uint8_t bc[] = {15, 19, 20, 21, 22, 23, 27, 28, 29, 30, 31};
    const uint8_t *tab = fmt == GCN_FMT_VOPC ? bc : b2;
    size_t n = fmt == GCN_FMT_VOPC ? sizeof bc : sizeof b2;
    for (size_t i = 0; i < n; i++) {
        char c = map_letter(vi->sw, i);
        if (c == 'X')
            vi->sw_bad |= 1u << tab[i];
        else if (c == '=')
            vi->sw_clear |= 1u << tab[i];
    }
    for (unsigned b = 17; b <= 23; b++) {
        char c = map_letter(vi->dp, b - 17);
        if (c == 'X')
            vi->dp_bad |= 1u << b;
        else if (c == '=')
            vi->dp_clear |= 1u << b;
    }
}

static void build_steps(vop_info *vi, int f);
static void set_names(vop_info *vi, unsigned id);

/* Parse row id's SIG for target index ti (rows of other families stay
 * !ok). */
static void info_build(vop_info *vi, int ti, unsigned id)
{
    const gcn_isa_row *r = gcn_isa_row_of(id);
    if (r->fmt == GCN_FMT_VOP1 || r->fmt == GCN_FMT_VOP2 || r->fmt == GCN_FMT_VOPC ||
        r->fmt == GCN_FMT_VOP3) {
        vi->id = (uint16_t)id;
        parse_sig(vi, r->sig, ti);
        build_masks(vi, r->fmt);
        build_steps(vi, F_E32);
        build_steps(vi, F_E64);
        vi->fmt = r->fmt;
        set_names(vi, id);
        static const uint8_t f_of_sub[GCN_SUB_SDWA + 1] = {
            [GCN_SUB_NONE] = F_N, [GCN_SUB_E32] = F_E32, [GCN_SUB_E64] = F_E64,
            [GCN_SUB_DPP] = F_DPP, [GCN_SUB_SDWA] = F_SDWA};
        for (unsigned i = 0; i <= GCN_SUB_SDWA; i++) {
            vop_form *fm = &vi->fl[i];
            fm->id = (uint16_t)id;
            fm->ok = f_of_sub[i] < F_N && vi->form[f_of_sub[i]];
            fm->bitop3 = vi->bitop3;
        }
        vi->fl[GCN_SUB_E64].v3_bad = (uint16_t)v3_bits(vi->v3_bad);
        vi->fl[GCN_SUB_E64].v3_keep = (uint16_t)v3_bits(vi->v3_keep);
    }
}

/* [target][id]: the row's data once made, when the row is one of ours
 * (NULL until then, and for other rows and targets): the decoder's and
 * printer's lookup is one load. */
static const vop_info *_Atomic info_ptr[GCN_TARGET_GFX950 + 1][GCN_ID_COUNT];

/* info_of() for a row not looked up yet (or of no VALU family). */
static GCN_COLD const vop_info *info_slow(const gcn_decoder *d, unsigned id)
{
    int ti = gcn_isa_target_index(d->target);
    if (ti < 0 || id == 0 || id >= GCN_ID_COUNT)
        return NULL;
    if (!gcn_once_ready(&infos_once[ti][id]) && gcn_once_claim(&infos_once[ti][id])) {
        info_build(&infos[ti][id], ti, id);
        if (infos[ti][id].ok)
            atomic_store_explicit(&info_ptr[d->target][id], &infos[ti][id],
                                  memory_order_release);
        gcn_once_done(&infos_once[ti][id]);
    }
    const vop_info *vi = &infos[ti][id];
    return vi->ok ? vi : NULL;
}

/* [target][family - VOP2][opcode]: the parsed row an opcode of VOP2, VOP1,
 * VOPC or VOP3 decodes to, once looked up (NULL before, and for opcodes
 * of no row): the decoder's lookup is one load. */
static const vop_info *_Atomic info_by_op[GCN_TARGET_GFX950 + 1][4][1024];
_Static_assert(GCN_FMT_VOP1 == GCN_FMT_VOP2 + 1 && GCN_FMT_VOPC == GCN_FMT_VOP2 + 2 &&
               GCN_FMT_VOP3 == GCN_FMT_VOP2 + 3, "the VALU families are consecutive");

static inline const vop_info *info_of(const gcn_decoder *d, unsigned id);

/* The row this thread's decoder found last, and for which target (the
 * printer's first guess, see info_of_insn()). */
static _Thread_local const vop_info *last_info;
static _Thread_local uint8_t last_target;

/* The row opcode op of family fmt (VOP2, VOP1, VOPC, VOP3) decodes to on
 * the decoder's target, or NULL. */
static GCN_COLD const vop_info *info_by_op_slow(const gcn_decoder *d, gcn_fmt fmt, unsigned op)
{
    int ti = gcn_isa_target_index(d->target);
    unsigned f = (unsigned)fmt - GCN_FMT_VOP2;
    if (ti < 0 || f >= 4)
        return NULL;
    const vop_info *vi = info_of(d, gcn_isa_find(ti, fmt, op));
    if (vi)
        atomic_store_explicit(&info_by_op[d->target][f][op], vi, memory_order_release);
    return vi;
}

/* The parsed row id on the decoder's target, or NULL when it is no row
 * of these families. */
static inline const vop_info *info_of(const gcn_decoder *d, unsigned id)
{
    unsigned t = (unsigned)d->target;
    if (t <= GCN_TARGET_GFX950 && id < GCN_ID_COUNT) {
        const vop_info *vi = atomic_load_explicit(&info_ptr[t][id], memory_order_acquire);
        if (vi)
            return vi;
    }
    return info_slow(d, id);
}

/* ---- operand construction ------------------------------------------------ */

#define OPF_BADREG GCN_OPF_BADREG
#define OPF_BADIMM GCN_OPF_BADIMM
#define OPF_ALIGN  GCN_OPF_MISALIGN


/* The register kind of a vector-register class. */
static inline gcn_opnd_kind vgpr_kind(const vop_od *o)
{
    return o->cls == 'a' ? GCN_OPND_AGPR : GCN_OPND_VGPR;
}

static inline gcn_opnd *add_vgpr(gcn_insn *in, gcn_field f, unsigned flags, unsigned reg,
                                 const vop_od *o, gcn_opnd_kind kind)
{
    gcn_opnd *op = gcn_add_opnd(in, kind, f, flags, reg, o->n, (gcn_dtype)o->dt);
    if (op && o->n >= 2 && (reg & 1))
        op->flags |= OPF_ALIGN;
    return op;
}

/* A 9-bit source for an operand of class cls.  Returns NULL when invalid. */
static gcn_opnd *add_src(gcn_insn *in, gcn_field f, unsigned enc, const vop_od *o,
                         int have_lit, uint32_t lit, int *used_lit)
{
    if (enc >= 256 && (o->cls == 'v' || o->cls == 'c')) {   /* a VGPR where one belongs */
        gcn_opnd *op = gcn_add_opnd(in, GCN_OPND_VGPR, f, GCN_OPF_SRC, enc - 256,
                                    o->n ? o->n : 1, (gcn_dtype)o->dt);
        if (op && o->n >= 2 && (enc & 1))
            op->flags |= OPF_ALIGN;
        return op;
    }
    gcn_opnd *op = gcn_dec_src9(in, f, enc, o->n, (gcn_dtype)o->dt, have_lit, lit, used_lit);
    if (!op)
        return NULL;
    int vonly = o->cls == 'v' || o->cls == 'a';
    switch (op->kind) {
    case GCN_OPND_VGPR:
        if (o->cls == 'a')
            op->kind = GCN_OPND_AGPR;
        if (o->n >= 2 && (op->reg & 1) && o->cls != 'r')
            op->flags |= OPF_ALIGN;
        if (o->cls == 's')
            op->flags |= OPF_BADREG;
        break;
    case GCN_OPND_SGPR: case GCN_OPND_TTMP:
        if (vonly)
            op->flags |= OPF_BADREG;
        break;
    case GCN_OPND_SPECIAL:
        /* LLVM prints no comment for its "inline values" (null, src_*), nor
         * for lds_direct in a VRegOrLds class */
        if (vonly && !(enc == 125 || (enc >= 230 && enc <= 239) || (enc >= 251 && enc <= 253) ||
                       (enc == 254 && o->lds_ok)))
            op->flags |= OPF_BADREG;
        if (o->cls == 's' && enc == 254)
            op->flags |= OPF_BADREG;    /* lds_direct is no SReg_32 */
        break;
    default:   /* constants */
        if (vonly || o->cls == 'r')
            op->flags |= OPF_BADIMM;
        break;
    }
    return op;
}

/* A scalar destination (VOPC e64 sdst in vdst, readlane/readfirstlane vdst,
 * VOP3b sdst): decoded like a source; constants print with a comment. */
static gcn_opnd *add_sdst(gcn_insn *in, gcn_field f, unsigned enc, const vop_od *o)
{
    gcn_opnd *op = gcn_dec_src9(in, f, enc, o->n, (gcn_dtype)o->dt, 0, 0, NULL);
    if (!op)
        return NULL;
    op->flags = GCN_OPF_DST;
    if (op->kind == GCN_OPND_INLINE)
        op->flags |= OPF_BADIMM;
    else if (f == GCN_FLD_SDST && o->n == 1 && (enc == 124 || enc == 254))
        op->flags |= OPF_BADREG;        /* SReg_32_XM0: no m0, no lds_direct */
    return op;
}

/* The mnemonic of row id with the form suffixes LLVM prints after it, by
 * GCN_SUB_*, padded to a fixed size (printing one is a constant-size
 * copy). */
static void set_names(vop_info *vi, unsigned id)
{
    const char *mnem = gcn_isa_row_of(id)->mnem;
    size_t ml = strlen(mnem);
    const char *t[GCN_SUB_SDWA + 1] = {
        [GCN_SUB_E32] = vi->nosuf32 ? "" : "_e32",
        [GCN_SUB_E64] = vi->fmt == GCN_FMT_VOP3 || vi->nosuf64 ? "" : "_e64",
        [GCN_SUB_SDWA] = vi->nosufsdwa ? "" : "_sdwa",
        [GCN_SUB_DPP] = vi->nosufdpp ? "" : "_dpp",
    };
    for (unsigned i = 0; i <= GCN_SUB_SDWA; i++) {
        const char *x = t[i] ? t[i] : "";
        size_t xl = strlen(x);
        assert(ml + xl < VOP_NAME_PAD);
        memcpy(vi->fl[i].name, mnem, ml);
        memcpy(vi->fl[i].name + ml, x, xl);
        vi->fl[i].name_len = (uint8_t)(ml + xl);
    }
}

/* The role of a template letter (-1: no operand definition). */
static int tmpl_role(char c)
{
    switch (c) {
    case 'D': return R_D;
    case 'E': return R_SD;
    case '0': return R_S0;
    case '1': return R_S1;
    case '2': return R_S2;
    default: return -1;
    }
}

/* ---- operand tables --------------------------------------------------------
 * How an operand field decodes depends on the field (a 9-bit source, an
 * 8-bit vector-register field, a scalar destination) and on the class,
 * width and register-class notes of the row's operand, not on the row
 * itself.  For each such kind, optab_get() tabulates the operand every
 * encoding 0..511 decodes to, by running the code above (add_src, add_vgpr,
 * add_sdst) on it: decoding a template item is then a table read, and the
 * table cannot disagree with that code.  An entry is the first 8 bytes of
 * the gcn_opnd with field and dtype 0 (the step's head supplies them), or 0
 * where the item's own code decides (a literal needs the instruction's
 * next dword; invalid encodings).  The tables are shared between rows; those
 * of the rows' kinds are compiled in (valu_tabs.inc, generated from this
 * code) and filled at their first use, others made then, under vstep_lock. */

enum { T_SRC = 1, T_VDST, T_VSRC, T_SDST, T_SDST3B, T_VCCSRC, T_VCCDST };

/* The tables (table 0 is all zero: items decode by their code). */
#define OPTAB_MAX 64
static uint64_t optabs[OPTAB_MAX][512];
static uint8_t optab_claimed[OPTAB_MAX][512];  /* the entries some kind reads */
static unsigned optab_count = 1;

_Static_assert(offsetof(gcn_opnd, imm) == 8, "a gcn_opnd is 8 bytes and the immediate");
_Static_assert(offsetof(gcn_opnd, kind) == 0 && offsetof(gcn_opnd, flags) == 2 &&
               offsetof(gcn_opnd, nregs) == 3 && offsetof(gcn_opnd, reg) == 6,
               "the layout a step's literal assumes");

/* The operand encoding enc decodes to as a table entry (see above); tmp is
 * a scratch record. */
static uint64_t optab_entry(gcn_insn *tmp, unsigned kind, const vop_od *o, unsigned enc)
{
    gcn_opnd *op = NULL;
    tmp->nopnds = 0;
    switch (kind) {
    case T_SRC:
        op = add_src(tmp, GCN_FLD_NONE, enc, o, 0, 0, NULL);
        break;
    case T_VDST: case T_VSRC:
        op = add_vgpr(tmp, GCN_FLD_NONE, kind == T_VDST ? GCN_OPF_DST : GCN_OPF_SRC, enc - 256,
                      o, vgpr_kind(o));
        break;
    case T_SDST:
        op = add_sdst(tmp, GCN_FLD_SDST, enc, o);
        break;
    case T_SDST3B:
        op = add_sdst(tmp, GCN_FLD_SDST_VOP3B, enc, o);
        break;
    default:                    /* the implicit vcc of VOP2/VOPC e32 forms */
        op = gcn_add_opnd(tmp, GCN_OPND_SPECIAL, GCN_FLD_NONE,
                          kind == T_VCCDST ? GCN_OPF_DST : GCN_OPF_SRC, 106, 2, GCN_DT_NONE);
        break;
    }
    if (!op || op->kind == GCN_OPND_LITERAL)
        return 0;
    assert(op->kind != GCN_OPND_NONE && op->imm == 0);
    op->field = GCN_FLD_NONE;
    uint64_t e;
    memcpy(&e, op, sizeof e);
    return e;
}

/* The flag of an operand of kind: destination or source. */
static unsigned role_flag(unsigned kind)
{
    return kind == T_VDST || kind == T_SDST || kind == T_SDST3B || kind == T_VCCDST
               ? GCN_OPF_DST : GCN_OPF_SRC;
}

/* The table of an operand kind for operand definition o (dtype aside),
 * table 0 when the tables are full (the items then decode by their code);
 * the caller holds vstep_lock.  Only the encodings the kind's field can
 * hold are filled: all for a 9-bit source, 256..511 for a vector-register
 * field, 0..255 / 0..127 for the scalar destinations, 0 for the implicit
 * vcc (a field of no bits).  The entries leave out the kind's DST / SRC
 * flag (the step's head has it), and a kind gets the first table whose
 * entries in its range are its own or not yet claimed by another kind:
 * the kinds a code object uses then share a few tables (the VGPRs of
 * vector destinations, vector sources and 9-bit sources are alike; the
 * low half of a table holds one kind's scalar encodings). */
static struct { unsigned key; const uint64_t *tab; } seen[OPTAB_MAX * 2];
static unsigned nseen;

/* The range of encodings [*lo, *hi) a kind's field can hold. */
static void kind_range(unsigned kind, unsigned *lo, unsigned *hi)
{
    *lo = kind == T_VDST || kind == T_VSRC ? 256 : 0;
    *hi = kind == T_SRC || *lo ? 512 : kind == T_SDST ? 256 : kind == T_SDST3B ? 128 : 1;
}

/* The tables of every kind the rows of both targets use, as optab_get() makes them when
 * the rows are parsed in id order (gfx942, then gfx950): generated by
 * `tests/decode/test_valu --write-tabs FILE` (gcn_valu_tabs_write), committed; test_valu
 * checks them against optab_entry() (gcn_valu_tabs_check).  They are loaded at the first
 * optab_get() (a few thousand stores) instead of made by the operand code there (a tenth of
 * the host instructions of a short simulation); a kind they lack is still made as below. */
typedef struct optab_key { unsigned key; uint8_t tab; } optab_key;
typedef struct optab_run { uint8_t tab, stride; uint16_t lo, n; uint64_t first, step; } optab_run;
#include "valu_tabs.inc"
static int optab_loaded;
static int optab_off;           /* gcn_valu_tabs_write: every kind made by optab_get() */
static unsigned optab_misses;   /* kinds optab_get() made (not in the compiled tables) */

static uint8_t optab_filled[OPTAB_MAX];    /* compiled table t is in optabs[t] */

/* Compiled table t into optabs[t] (the caller holds vstep_lock). */
static void optab_fill(unsigned t)
{
    optab_filled[t] = 1;
    for (size_t r = 0; r < sizeof optab_runs / sizeof optab_runs[0]; r++) {
        const optab_run *R = &optab_runs[r];
        if (R->tab != t)
            continue;
        uint64_t e = R->first;
        for (unsigned i = 0; i < R->n; i++, e += R->step)
            optabs[t][R->lo + i * R->stride] = e;
    }
}

/* The compiled kinds into seen (their tables are filled at their first use); the caller
 * holds vstep_lock. */
static void optab_load(void)
{
    optab_loaded = 1;
    if (optab_off)
        return;
    for (size_t k = 0; k < sizeof optab_keys / sizeof optab_keys[0]; k++) {
        seen[nseen].key = optab_keys[k].key;
        seen[nseen++].tab = optabs[optab_keys[k].tab];
        if (optab_keys[k].tab >= optab_count)
            optab_count = optab_keys[k].tab + 1u;
    }
}

static const uint64_t *optab_get(unsigned kind, const vop_od *o)
{
    if (!optab_loaded)
        optab_load();
    vop_od od = *o;
    od.dt = GCN_DT_NONE;
    unsigned key = kind << 24 | (uint8_t)od.cls << 16 | od.n << 8 | od.lds_ok;
    for (unsigned i = 0; i < nseen; i++)
        if (seen[i].key == key) {
            unsigned t = (unsigned)((seen[i].tab - optabs[0]) / 512);
            if (!optab_off && !optab_filled[t])
                optab_fill(t);
            return seen[i].tab;
        }
    if (!optab_off && !optab_misses) {
        /* a kind the compiled tables lack: it may share their tables, so all of them
         * are filled and their kinds' entries claimed first */
        for (size_t k = 0; k < sizeof optab_keys / sizeof optab_keys[0]; k++) {
            unsigned t = optab_keys[k].tab, lo, hi;
            if (!optab_filled[t])
                optab_fill(t);
            kind_range(optab_keys[k].key >> 24, &lo, &hi);
            memset(&optab_claimed[t][lo], 1, hi - lo);
        }
    }
    optab_misses++;
    unsigned lo, hi;
    kind_range(kind, &lo, &hi);
    uint64_t want[512] = {0};
    uint64_t role = (uint64_t)role_flag(kind) << 16;
    uint64_t roles = (uint64_t)(GCN_OPF_DST | GCN_OPF_SRC) << 16;
    gcn_insn tmp;
    memset(&tmp, 0, sizeof tmp);
    for (unsigned enc = lo; enc < hi; enc++) {
        uint64_t e = optab_entry(&tmp, kind, &od, enc);
        want[enc] = (e & roles) == role ? e & ~roles : 0;  /* 0: by the item's code */
    }
    unsigned i = 1;
    for (; i < optab_count; i++) {
        unsigned enc = lo;
        while (enc < hi && (!optab_claimed[i][enc] || optabs[i][enc] == want[enc]))
            enc++;
        if (enc == hi)
            break;
    }
    if (i == optab_count) {
        if (i >= OPTAB_MAX)
            return optabs[0];
        optab_count++;
    }
    for (unsigned enc = lo; enc < hi; enc++)    /* entries no reader of the table reads yet */
        if (!optab_claimed[i][enc]) {
            optabs[i][enc] = want[enc];
            optab_claimed[i][enc] = 1;
        }
    if (nseen < sizeof seen / sizeof seen[0]) {
        seen[nseen].key = key;
        seen[nseen++].tab = optabs[i];
    }
    return optabs[i];
}

/* The literal (encoding 255) of a 9-bit source of definition o, made by
 * add_src like the tables (value-independent but for op.imm), as its
 * flags | nregs << 8; 0 when it is no plain literal. */
static uint16_t lit_entry(const vop_od *o)
{
    vop_od od = *o;
    od.dt = GCN_DT_NONE;
    gcn_insn tmp;
    memset(&tmp, 0, sizeof tmp);
    gcn_opnd *op = add_src(&tmp, GCN_FLD_NONE, 255, &od, 1, 0, NULL);
    if (!op || op->kind != GCN_OPND_LITERAL)
        return 0;
    if (op->reg != 255 || op->field || op->dtype)
        return 0;
    return (uint16_t)(op->flags | op->nregs << 8);
}

/* no_od: the definition of an operand that has none (the implicit vcc). */
static const vop_od no_od;

/* The head of a step: an operand's field and dtype as table-entry bits. */
static uint64_t step_head(gcn_field f, unsigned dt)
{
    gcn_opnd op;
    memset(&op, 0, sizeof op);
    op.field = (uint8_t)f;
    op.dtype = (uint8_t)dt;
    uint64_t h;
    memcpy(&h, &op, sizeof h);
    return h;
}

/* All rows' steps, each once (index 0: the step of an item that always
 * decodes by its code); added under a lock at a row's first use. */
#define VSTEP_MAX 4096
static vop_step vsteps[VSTEP_MAX] = {[0] = {.tab = optabs[0]}};
static unsigned vstep_count = 1;
static pthread_mutex_t vstep_lock = PTHREAD_MUTEX_INITIALIZER;

static uint16_t step_index(const vop_step *st)
{
    unsigned i = 1;
    while (i < vstep_count && memcmp(&vsteps[i], st, sizeof *st))
        i++;
    if (i == vstep_count) {
        if (i < VSTEP_MAX) {
            vsteps[i] = *st;
            vstep_count++;
        } else {
            i = 0;
        }
    }
    return (uint16_t)i;
}

/* One step: the field at bits [lo, lo + width) plus add, decoded by kind
 * for operand definition o; returns its index. */
static uint16_t set_step(unsigned kind, const vop_od *o, unsigned lo, unsigned width,
                         unsigned add, gcn_field f, unsigned dt)
{
    vop_step st;
    memset(&st, 0, sizeof st);
    st.head = step_head(f, dt) | (uint64_t)role_flag(kind) << 16;
    st.lo = (uint8_t)lo;
    st.mask = (uint16_t)((1u << width) - 1);
    pthread_mutex_lock(&vstep_lock);
    st.tab = optab_get(kind, o) + add;
    if (kind == T_SRC)
        st.lit = lit_entry(o);
    uint16_t i = step_index(&st);
    pthread_mutex_unlock(&vstep_lock);
    return i;
}

/* The steps of the e32 (f = F_E32: fields of dword 0) or e64 (F_E64:
 * dwords 0-1) template into the form's line; items without a step keep
 * step 0. */
static void build_steps(vop_info *vi, int f)
{
    const vop_od *od = vi->od;
    vop_form *fm = &vi->fl[f == F_E32 ? GCN_SUB_E32 : GCN_SUB_E64];
    unsigned n = 0;
    for (const char *t = vi->tmpl[f]; *t; t++) {
        assert(n < VOP_MAX_STEPS);
        uint16_t *st = &fm->step[n++];
        *st = 0;
        int r = tmpl_role(*t);
        const vop_od *o = r >= 0 ? &od[r] : NULL;
        switch (*t) {
        case 'D': {
            unsigned lo = f == F_E32 ? 17 : 0;
            if (o->cls == 's')
                *st = set_step(T_SDST, o, lo, 8, 0, GCN_FLD_SDST, o->dt);
            else
                *st = set_step(T_VDST, o, lo, 8, 256, GCN_FLD_VDST, o->dt);
            break;
        }
        case 'E':
            if (f == F_E64)
                *st = set_step(T_SDST3B, o, 8, 7, 0, GCN_FLD_SDST_VOP3B, o->dt);
            break;
        case '0': case '1': case '2': {
            unsigned i = (unsigned)(*t - '0');
            if (f == F_E64)
                *st = set_step(T_SRC, o, 32 + 9 * i, 9, 0, (gcn_field)(GCN_FLD_SRC0 + i), o->dt);
            else if (i == 0)
                *st = set_step(T_SRC, o, 0, 9, 0, GCN_FLD_SRC0, o->dt);
            else if (i == 1)    /* vsrc1: for fmamk the addend (see e32_item) */
                *st = set_step(T_VSRC, o, 9, 8, 256,
                               vi->k_then_1 ? GCN_FLD_SRC2 : GCN_FLD_SRC1, o->dt);
            break;
        }
        case 'V': case 'W':
            if (f == F_E32)
                *st = set_step(*t == 'V' ? T_VCCSRC : T_VCCDST, &no_od, 0, 0, 0,
                               GCN_FLD_VCC_IMPLICIT, GCN_DT_B64);
            break;
        default:                /* K: the literal */
            break;
        }
    }
    fm->nsteps = (uint8_t)n;
}

/* The items' code gets lit, the literal dword the instruction may use
 * (NULL when there is none); an operand that takes it sets
 * out->has_literal, which gives the size. */
static GCN_COLD gcn_opnd *e32_item(const vop_info *vi, const char *t, uint32_t w0,
                                   const uint32_t *lit, gcn_insn *out);
static GCN_COLD gcn_opnd *e64_item(const vop_info *vi, char item, uint64_t q,
                                   const uint32_t *lit, gcn_insn *out);

/* Decode the operands of form fm (e32 / e64: f = F_E32 / F_E64) from the
 * instruction's dwords 0-1 (q) into a record without operands: per item a
 * table read; the item's code where the table has no entry.  Returns 0
 * when an operand is invalid. */
static inline __attribute__((always_inline)) int
dec_steps(const vop_info *vi, const vop_form *fm, int f, uint64_t q, const uint32_t *lit,
          gcn_insn *out)
{
    unsigned n = fm->nsteps;
    gcn_opnd *op = out->op;
    for (unsigned i = 0; i < n; i++, op++) {
        const vop_step *st = &vsteps[fm->step[i]];
        unsigned x = (unsigned)(q >> st->lo) & st->mask;
        uint64_t e = st->tab[x];
        if (__builtin_expect(e != 0, 1)) {
            e |= st->head;
            memcpy(op, &e, sizeof e);
            op->imm = 0;
            continue;
        }
        if (st->lit && x == 255 && lit) {       /* a literal source */
            e = GCN_OPND_LITERAL | (uint64_t)st->lit << 16 | 255ull << 48 | st->head;
            memcpy(op, &e, sizeof e);
            op->imm = *lit;
            out->literal = *lit;
            out->has_literal = 1;
            continue;
        }
        out->nopnds = (uint8_t)i;       /* the item's code appends op[i] */
        if (!(f == F_E32 ? e32_item(vi, &vi->tmpl[F_E32][i], (uint32_t)q, lit, out)
                         : e64_item(vi, vi->tmpl[F_E64][i], q, lit, out)))
            return 0;
    }
    out->nopnds = (uint8_t)n;
    return 1;
}

/* ---- e32 --------------------------------------------------------------- */

/* The vdst field: an SGPR or VGPR as the row's class says; a literal there
 * (255, an SGPR class) is LLVM's invalid-immediate form of nregs registers. */
static gcn_opnd *dec_vdst(const vop_info *vi, unsigned vdst, int have, uint32_t val,
                          unsigned nregs, gcn_insn *out)
{
    const vop_od *o = &vi->od[R_D];
    if (o->cls == 's' && vdst == 255) {
        gcn_opnd *op = gcn_dec_src9(out, GCN_FLD_SDST, 255, nregs, GCN_DT_B32, have, val, NULL);
        if (op)
            op->flags = GCN_OPF_DST | OPF_BADIMM;
        return op;
    }
    if (o->cls == 's')
        return add_sdst(out, GCN_FLD_SDST, vdst, o);
    return add_vgpr(out, GCN_FLD_VDST, GCN_OPF_DST, vdst, o, vgpr_kind(o));
}

/* Decode template item *t of the e32 form by its code (items the tables do
 * not cover). */
static GCN_COLD gcn_opnd *e32_item(const vop_info *vi, const char *t, uint32_t w0,
                                   const uint32_t *lit, gcn_insn *out)
{
    int have = lit != NULL;
    uint32_t val = lit ? *lit : 0;
    unsigned vdst = gcn_bits(w0, 17, 8);
    const vop_od *o;
    gcn_opnd *op;
    switch (*t) {
    case 'D':
        return dec_vdst(vi, vdst, have, val, 1, out);
    case '0':
        return add_src(out, GCN_FLD_SRC0, gcn_bits(w0, 0, 9), &vi->od[R_S0], have, val, NULL);
    case '1':
        /* the vsrc1 field: a VGPR; for fmamk the multiplier K comes first
         * and vsrc1 is the addend (tagged SRC2: D = SRC0 * SRC1 + SRC2) */
        o = &vi->od[R_S1];
        return add_vgpr(out, vi->k_then_1 ? GCN_FLD_SRC2 : GCN_FLD_SRC1, GCN_OPF_SRC,
                        gcn_bits(w0, 9, 8), o, vgpr_kind(o));
    case 'K': {
        /* madmk/fmamk: D = S0 * K + S1;  madak/fmaak: D = S0 * S1 + K */
        if (!have)
            return NULL;
        int kfirst = t[1] != 0;
        const vop_od *so = &vi->od[R_S0];
        /* reg 0 marks the K constant: LLVM prints it as plain hex */
        op = gcn_add_opnd(out, GCN_OPND_LITERAL, kfirst ? GCN_FLD_SRC1 : GCN_FLD_SRC2,
                          GCN_OPF_SRC, 0, 1, (gcn_dtype)so->dt);
        if (op)
            op->imm = val;
        out->literal = val;
        out->has_literal = 1;
        return op;
    }
    case 'V':
        return gcn_add_opnd(out, GCN_OPND_SPECIAL, GCN_FLD_VCC_IMPLICIT, GCN_OPF_SRC, 106, 2,
                            GCN_DT_B64);
    case 'W':
        return gcn_add_opnd(out, GCN_OPND_SPECIAL, GCN_FLD_VCC_IMPLICIT, GCN_OPF_DST, 106, 2,
                            GCN_DT_B64);
    default:
        return NULL;
    }
}

static size_t dec_e32(const vop_info *vi, unsigned fmt, const uint32_t *w, size_t nw,
                      gcn_insn *out)
{
    const vop_form *fm = &vi->fl[GCN_SUB_E32];
    out->sub = GCN_SUB_E32;
    if (!fm->ok)
        return 0;
    if (!fm->nsteps) {           /* v_nop, v_clrexcp: no operands, src0 ignored */
        if (fmt == GCN_FMT_VOP1 && gcn_bits(w[0], 17, 8) != 0)
            return 0;
        return 4;
    }
    if (!dec_steps(vi, fm, F_E32, w[0], nw >= 2 ? &w[1] : NULL, out))
        return 0;
    return out->has_literal ? 8 : 4;
}

/* ---- VOP3 (e64) ------------------------------------------------------ */

/* Decode template item of the e64 form by its code (items the tables do
 * not cover).  Sources get their neg/abs bits in dec_e64. */
static GCN_COLD gcn_opnd *e64_item(const vop_info *vi, char item, uint64_t q,
                                   const uint32_t *lit, gcn_insn *out)
{
    int have = lit != NULL;
    uint32_t val = lit ? *lit : 0;
    unsigned vdst = gcn_bits(q, 0, 8);
    switch (item) {
    case '0': case '1': case '2': {
        unsigned i = (unsigned)(item - '0');
        unsigned enc = gcn_bits(q, 32 + 9 * i, 9);
        if (enc == 255 && !have)
            return NULL;
        return add_src(out, (gcn_field)(GCN_FLD_SRC0 + i), enc, &vi->od[R_S0 + i], have, val,
                       NULL);
    }
    case 'D':
        if (vi->od[R_D].cls == 's' && vdst == 255 && !have)
            return NULL;                /* a literal dst needs the literal */
        return dec_vdst(vi, vdst, have, val, vi->od[R_D].n, out);
    case 'E':
        return add_sdst(out, GCN_FLD_SDST_VOP3B, gcn_bits(q, 8, 7), &vi->od[R_SD]);
    default:
        return NULL;
    }
}

/* gfx950 accepts a 32-bit literal in VOP3 sources (LLVM FeatureVOP3Literal on
 * gfx950; on gfx942 LLVM has none and crashes on such words). */
static size_t dec_e64(const gcn_decoder *d, const vop_info *vi, const uint32_t *w, size_t nw,
                      gcn_insn *out)
{
    const vop_form *fm = &vi->fl[GCN_SUB_E64];
    if (nw < 2 || !fm->ok)
        return 0;
    uint64_t q = (uint64_t)w[0] | (uint64_t)w[1] << 32;
    out->sub = GCN_SUB_E64;
    unsigned v3 = v3_bits(q);
    if (v3 & fm->v3_bad)
        return 0;
    unsigned mb = v3 & fm->v3_keep;     /* the modifier bits LLVM prints (v3_bits) */
    unsigned absb = mb & 7, negb = mb >> 10;
    unsigned omod = (mb >> 8) & 3;
    if (!fm->nsteps && gcn_bits(q, 0, 8) != 0)
        return 0;                       /* v_nop / v_clrexcp: vdst must be 0 */
    int litok = d->target == GCN_TARGET_GFX950;
    if (!dec_steps(vi, fm, F_E64, q, litok && nw >= 3 ? &w[2] : NULL, out))
        return 0;
    out->m.clamp = (uint8_t)((mb >> 7) & 1);
    out->m.omod = (uint8_t)omod;
    out->m.op_sel = (uint8_t)((mb >> 3) & 15);
    if (fm->bitop3) {   /* LLVM VOP3 bitop3: neg -> [2:0], abs -> [5:3], omod -> [7:6] */
        out->m.neg_lo = (uint8_t)(negb | absb << 3 | omod << 6);
        out->m.omod = 0;
    } else if (negb | absb) {           /* the sources' neg / abs */
        for (unsigned k = 0; k < out->nopnds; k++) {
            gcn_opnd *op = &out->op[k];
            unsigned i = (unsigned)op->field - GCN_FLD_SRC0;
            if (i < 3)
                op->flags |= (uint8_t)(((negb >> i) & 1) * GCN_OPF_NEG |
                                       ((absb >> i) & 1) * GCN_OPF_ABS);
        }
    }
    return out->has_literal ? 12 : 8;
}

/* ---- SDWA ------------------------------------------------------------ */

static size_t dec_sdwa(const vop_info *vi, unsigned fmt, const uint32_t *w, size_t nw,
                       gcn_insn *out)
{
    if (nw < 2 || !vi->form[F_SDWA])
        return 0;
    uint32_t w0 = w[0], s = w[1];
    out->sub = GCN_SUB_SDWA;
    if (s & vi->sw_bad)                 /* bits LLVM rejects / ignores */
        return 0;
    uint32_t eff = s & ~vi->sw_clear;
    unsigned dst_sel = gcn_bits(eff, 8, 3), dst_unused = gcn_bits(eff, 11, 2);
    unsigned src0_sel = gcn_bits(eff, 16, 3), src1_sel = gcn_bits(eff, 24, 3);
    if (fmt != GCN_FMT_VOPC) {
        if (dst_sel > 6 || (vi->sdwanodst && dst_sel != 6))
            return 0;
        if (dst_unused == 3 || vi->sdwanodst)
            dst_unused = 0;             /* LLVM prints UNUSED_PAD / nothing */
        out->m.clamp = (uint8_t)gcn_bits(eff, 13, 1);
        out->m.omod = (uint8_t)gcn_bits(eff, 14, 2);
    }
    if (src0_sel > 6)
        return 0;
    if (fmt == GCN_FMT_VOP1) {
        if (src1_sel != 0)
            return 0;
    } else if (src1_sel > 6) {
        return 0;
    }
    out->m.dst_sel = (uint8_t)dst_sel;
    out->m.dst_unused = (uint8_t)dst_unused;
    out->m.src0_sel = (uint8_t)src0_sel;
    out->m.src1_sel = (uint8_t)src1_sel;
    for (const char *t = vi->tmpl[F_SDWA]; *t; t++) {
        int r = tmpl_role(*t);
        const vop_od *o = r >= 0 ? &vi->od[r] : NULL;
        gcn_opnd *op = NULL;
        switch (*t) {
        case 'D':
            op = add_vgpr(out, GCN_FLD_VDST, GCN_OPF_DST, gcn_bits(w0, 17, 8), o, GCN_OPND_VGPR);
            break;
        case 'W':
            if (fmt == GCN_FMT_VOPC && gcn_bits(s, 15, 1)) {
                vop_od sd = {1, 's', 2, GCN_DT_B64, 0};
                op = add_sdst(out, GCN_FLD_SDST, gcn_bits(s, 8, 7), &sd);
            } else {
                op = gcn_add_opnd(out, GCN_OPND_SPECIAL, GCN_FLD_VCC_IMPLICIT, GCN_OPF_DST, 106,
                                  2, GCN_DT_B64);
            }
            break;
        case 'V':
            op = gcn_add_opnd(out, GCN_OPND_SPECIAL, GCN_FLD_VCC_IMPLICIT, GCN_OPF_SRC, 106, 2,
                              GCN_DT_B64);
            break;
        case '0': case '1': {
            int i = *t - '0';
            unsigned reg = i == 0 ? gcn_bits(s, 0, 8) : gcn_bits(w0, 9, 8);
            unsigned sbit = gcn_bits(eff, i == 0 ? 23 : 31, 1);
            if (sbit) {
                if (reg == 255)
                    return 0;
                op = add_src(out, i ? GCN_FLD_SRC1 : GCN_FLD_SRC0, reg, o, 0, 0, NULL);
            } else {
                op = add_vgpr(out, i ? GCN_FLD_SRC1 : GCN_FLD_SRC0, GCN_OPF_SRC, reg, o,
                              GCN_OPND_VGPR);
            }
            if (op) {
                unsigned mb = i == 0 ? 19 : 27;
                if (gcn_bits(eff, mb, 1)) op->flags |= GCN_OPF_SEXT;
                if (gcn_bits(eff, mb + 1, 1)) op->flags |= GCN_OPF_NEG;
                if (gcn_bits(eff, mb + 2, 1)) op->flags |= GCN_OPF_ABS;
            }
            break;
        }
        default:
            return 0;
        }
        if (!op)
            return 0;
    }
    return 8;
}

/* ---- DPP ------------------------------------------------------------- */

static size_t dec_dpp(const vop_info *vi, const uint32_t *w, size_t nw, gcn_insn *out)
{
    if (nw < 2 || !vi->form[F_DPP])
        return 0;
    uint32_t w0 = w[0], s = w[1];
    out->sub = GCN_SUB_DPP;
    if (!vi->tmpl[F_DPP][0] && gcn_bits(w0, 17, 8) != 0)
        return 0;                       /* v_nop_dpp: vdst must be 0 */
    if (s & vi->dp_bad)                 /* bits LLVM rejects / ignores */
        return 0;
    uint32_t eff = s & ~vi->dp_clear;
    out->m.dpp_ctrl = (uint16_t)gcn_bits(eff, 8, 9);
    out->m.bound_ctrl = (uint8_t)gcn_bits(eff, 19, 1);
    out->m.fi = (uint8_t)gcn_bits(eff, 18, 1);
    out->m.bank_mask = (uint8_t)gcn_bits(eff, 24, 4);
    out->m.row_mask = (uint8_t)gcn_bits(eff, 28, 4);
    for (const char *t = vi->tmpl[F_DPP]; *t; t++) {
        int r = tmpl_role(*t);
        const vop_od *o = r >= 0 ? &vi->od[r] : NULL;
        gcn_opnd *op = NULL;
        switch (*t) {
        case 'D':
            op = add_vgpr(out, GCN_FLD_VDST, GCN_OPF_DST, gcn_bits(w0, 17, 8), o, GCN_OPND_VGPR);
            break;
        case 'W':
            op = gcn_add_opnd(out, GCN_OPND_SPECIAL, GCN_FLD_VCC_IMPLICIT, GCN_OPF_DST, 106, 2,
                              GCN_DT_B64);
            break;
        case 'V':
            op = gcn_add_opnd(out, GCN_OPND_SPECIAL, GCN_FLD_VCC_IMPLICIT, GCN_OPF_SRC, 106, 2,
                              GCN_DT_B64);
            break;
        case '0': case '1': {
            int i = *t - '0';
            unsigned reg = i == 0 ? gcn_bits(s, 0, 8) : gcn_bits(w0, 9, 8);
            op = add_vgpr(out, i ? GCN_FLD_SRC1 : GCN_FLD_SRC0, GCN_OPF_SRC, reg, o,
                          GCN_OPND_VGPR);
            if (op) {
                unsigned mb = i == 0 ? 20 : 22;
                if (gcn_bits(eff, mb, 1)) op->flags |= GCN_OPF_NEG;
                if (gcn_bits(eff, mb + 1, 1)) op->flags |= GCN_OPF_ABS;
            }
            break;
        }
        default:
            return 0;
        }
        if (!op)
            return 0;
    }
    return 8;
}

size_t gcn_dec_valu(const gcn_decoder *d, gcn_fmt fmt, const uint32_t *w, size_t nw, gcn_insn *out)
{
    /* the opcode field: VOP1 [16:9], VOP2 [30:25], VOPC [24:17], VOP3
     * [25:16] (from tables: the formats mix at random) */
    static const uint8_t op_lo[GCN_FMT_COUNT] = {
        [GCN_FMT_VOP1] = 9, [GCN_FMT_VOP2] = 25, [GCN_FMT_VOPC] = 17, [GCN_FMT_VOP3] = 16};
    static const uint16_t op_mask[GCN_FMT_COUNT] = {
        [GCN_FMT_VOP1] = 0xff, [GCN_FMT_VOP2] = 0x3f, [GCN_FMT_VOPC] = 0xff,
        [GCN_FMT_VOP3] = 0x3ff};
    uint32_t w0 = w[0];
    unsigned op = (w0 >> op_lo[fmt]) & op_mask[fmt];
    unsigned t = (unsigned)d->target, f = (unsigned)fmt - GCN_FMT_VOP2;
    const vop_info *vi = NULL;
    if (t <= GCN_TARGET_GFX950 && f < 4)
        vi = atomic_load_explicit(&info_by_op[t][f][op], memory_order_acquire);
    if (!vi && !(vi = info_by_op_slow(d, fmt, op)))
        return 0;
    out->id = vi->fl[fmt == GCN_FMT_VOP3 ? GCN_SUB_E64 : GCN_SUB_E32].id;
    last_info = vi;
    last_target = (uint8_t)t;
    out->enc = (uint8_t)fmt;
    out->opcode = (uint16_t)op;
    size_t n;
    if (fmt == GCN_FMT_VOP3) {
        n = dec_e64(d, vi, w, nw, out);
    } else {
        /* SDWA / DPP by src0; when that form does not decode, LLVM tries the
         * 32-bit form, where 0xF9/0xFA are no source (only the operand-less
         * v_nop / v_clrexcp, which ignore src0, decode then) */
        unsigned src0 = gcn_bits(w0, 0, 9);
        n = 0;
        if (src0 == 0xF9 || src0 == 0xFA) {
            n = src0 == 0xF9 ? dec_sdwa(vi, fmt, w, nw, out) : dec_dpp(vi, w, nw, out);
            if (n == 0) {               /* undo what the attempt filled in */
                out->nopnds = 0;
                out->has_literal = 0;
                out->literal = 0;
                memset(&out->m, 0, sizeof out->m);
            }
        }
        if (n == 0)
            n = dec_e32(vi, fmt, w, nw, out);
    }
    if (n == 0)
        out->id = GCN_ID_INVALID;
    return n;
}

/* ---- printing -------------------------------------------------------- */

static int field_role(const gcn_opnd *o)
{
    switch (o->field) {
    case GCN_FLD_VDST: case GCN_FLD_SDST: return R_D;
    case GCN_FLD_SDST_VOP3B: return R_SD;
    case GCN_FLD_SRC0: return R_S0;
    case GCN_FLD_SRC1: return R_S1;
    case GCN_FLD_SRC2: return R_S2;
    default: return -1;
    }
}

/* A register class name: single for one register, else PRE_<bits>_Align2. */
static void print_tuple_class(gcn_strbuf *sb, const char *pre, const char *single,
                              unsigned nregs)
{
    if (nregs <= 1) {
        gcn_sb_puts(sb, single);
        return;
    }
    gcn_sb_puts(sb, pre);
    gcn_sb_putc(sb, '_');
    gcn_sb_putu(sb, 32u * nregs);
    gcn_sb_puts(sb, "_Align2");
}

/* LLVM register class name printed in "Invalid register" comments. */
static void print_rc_comment(gcn_strbuf *sb, const vop_info *vi, const gcn_insn *in,
                             const gcn_opnd *o)
{
    int r = field_role(o);
    if (r < 0)
        return;
    const vop_od *od = &vi->od[r];
    gcn_sb_puts(sb, "/*Invalid register, operand has '");
    if ((o->flags & OPF_BADREG) && o->field == GCN_FLD_SDST) {
        gcn_sb_puts(sb, "SReg_32_XM0");
    } else if ((o->flags & OPF_BADREG) && vi->rc[r][0] && vi->rc[r][0] != '!') {
        gcn_sb_puts(sb, vi->rc[r]);
    } else if (od->cls == 'a') {
        print_tuple_class(sb, "AReg", "AGPR_32", o->nregs);
    } else {
        /* a VGPR field (vdst, vsrc1, SDWA/DPP sources) or a VGPR-only class */
        int vfield = r == R_D || in->sub == GCN_SUB_SDWA || in->sub == GCN_SUB_DPP ||
                     (in->sub == GCN_SUB_E32 && r != R_S0) || od->cls == 'v';
        int agpr = o->kind == GCN_OPND_AGPR;
        print_tuple_class(sb, agpr ? "AReg" : vfield ? "VReg" : "VS",
                          agpr ? "AGPR_32" : "VGPR_32", o->nregs);
    }
    gcn_sb_puts(sb, "' register class*/");
}

/* LLVM printImmediate32 (no lit() marking) */
static void print_imm32(gcn_strbuf *sb, uint32_t v)
{
    static const uint32_t f[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
    static const char *const t[9] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0",
                                     "-4.0", "0.15915494"};
    if ((int32_t)v >= -16 && (int32_t)v <= 64) {
        gcn_sb_puti(sb, (int32_t)v);
        return;
    }
    for (int i = 0; i < 9; i++)
        if (v == f[i]) {
            gcn_sb_puts(sb, t[i]);
            return;
        }
    gcn_sb_put0x(sb, v);
}

/* Operand flags that print around or after the operand. */
#define SRC_DECOR (GCN_OPF_NEG | GCN_OPF_ABS | GCN_OPF_SEXT | OPF_BADREG | OPF_ALIGN | OPF_BADIMM)

static void print_src(gcn_strbuf *sb, const vop_info *vi, const gcn_insn *in, const gcn_opnd *o)
{
    if (!(o->flags & SRC_DECOR) && !(o->kind == GCN_OPND_LITERAL && o->reg == 0)) {
        gcn_put_opnd(sb, in, o);        /* the common case: no modifiers, no notes */
        return;
    }
    /* neg of a constant prints as neg(...), except for a lit(...) literal,
     * which LLVM 22 holds as an expression, not an immediate */
    int isimm = o->kind == GCN_OPND_INLINE ||
                (o->kind == GCN_OPND_LITERAL &&
                 ((o->flags & OPF_BADIMM) || o->reg == 0 ||
                  !gcn_literal_is_inlinable((uint32_t)o->imm, (gcn_dtype)o->dtype)));
    int neg = (o->flags & GCN_OPF_NEG) != 0, abs_ = (o->flags & GCN_OPF_ABS) != 0;
    int negmn = neg && !abs_ && isimm;
    if (o->flags & GCN_OPF_SEXT)
        gcn_sb_puts(sb, "sext(");
    if (neg)
        gcn_sb_puts(sb, negmn ? "neg(" : "-");
    if (abs_)
        gcn_sb_putc(sb, '|');
    if (o->kind == GCN_OPND_LITERAL && o->reg == 0)
        gcn_sb_put0x(sb, (uint32_t)o->imm);              /* fmamk/fmaak K */
    else if (o->kind == GCN_OPND_LITERAL && (o->flags & OPF_BADIMM))
        print_imm32(sb, (uint32_t)o->imm);   /* a literal in a register-only field */
    else if (o->kind == GCN_OPND_INLINE && (o->flags & OPF_BADIMM))
        gcn_print_inline(sb, o->reg, GCN_DT_B32);   /* printed by printImmediate32 */
    else
        gcn_print_opnd(sb, in, o);
    if (o->flags & (OPF_BADREG | OPF_ALIGN))
        print_rc_comment(sb, vi, in, o);
    if (o->flags & OPF_BADIMM)
        gcn_sb_puts(sb, "/*Invalid immediate*/");
    if (abs_)
        gcn_sb_putc(sb, '|');
    if (negmn)
        gcn_sb_putc(sb, ')');
    if (o->flags & GCN_OPF_SEXT)
        gcn_sb_putc(sb, ')');
}

/* An SDWA operand select at a cursor (names padded: a constant-size copy). */
static char *cur_sdwa_sel(char *p, unsigned s)
{
    static const char n[8][8] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1",
                                 "DWORD", "?"};
    static const uint8_t len[8] = {6, 6, 6, 6, 6, 6, 5, 1};
    if (s > 7)
        s = 7;
    memcpy(p, n[s], sizeof n[s]);
    return p + len[s];
}

/* The output modifier at a cursor (nothing for 0). */
static char *cur_omod(char *p, unsigned omod)
{
    static const char t[4][8] = {"", " mul:2", " mul:4", " div:2"};
    if (omod > 3)
        omod = 0;
    memcpy(p, t[omod], sizeof t[omod]);
    return p + (omod ? 6 : 0);
}

static void print_omod(gcn_strbuf *sb, unsigned omod)
{
    gcn_sb_commit(sb, cur_omod(gcn_sb_room(sb, 8), omod));
}

static void print_dpp_ctrl(gcn_strbuf *sb, const vop_info *vi, unsigned c)
{
    /* LLVM AMDGPUInstPrinter::printDPPCtrl (DppCtrl values from SIDefines.h) */
    if (vi->dpalu && !(c >= 0x150 && c <= 0x15F)) {
        gcn_sb_puts(sb, " /* DP ALU dpp only supports row_newbcast */");
        return;
    }
    if (c <= 0xFF) {
        char q[] = "quad_perm:[0,0,0,0]";
        for (unsigned i = 0; i < 4; i++)
            q[11 + 2 * i] = (char)('0' + ((c >> (2 * i)) & 3));
        gcn_sb_putn(sb, q, sizeof q - 1);
    } else if (c >= 0x101 && c <= 0x10F) {
        gcn_sb_puts(sb, "row_shl:");
        gcn_sb_putu(sb, c & 0xF);
    } else if (c >= 0x111 && c <= 0x11F) {
        gcn_sb_puts(sb, "row_shr:");
        gcn_sb_putu(sb, c & 0xF);
    } else if (c >= 0x121 && c <= 0x12F) {
        gcn_sb_puts(sb, "row_ror:");
        gcn_sb_putu(sb, c & 0xF);
    }
    else if (c == 0x130)
        gcn_sb_puts(sb, "wave_shl:1");
    else if (c == 0x134)
        gcn_sb_puts(sb, "wave_rol:1");
    else if (c == 0x138)
        gcn_sb_puts(sb, "wave_shr:1");
    else if (c == 0x13C)
        gcn_sb_puts(sb, "wave_ror:1");
    else if (c == 0x140)
        gcn_sb_puts(sb, "row_mirror");
    else if (c == 0x141)
        gcn_sb_puts(sb, "row_half_mirror");
    else if (c == 0x142)
        gcn_sb_puts(sb, "row_bcast:15");
    else if (c == 0x143)
        gcn_sb_puts(sb, "row_bcast:31");
    else if (c >= 0x150 && c <= 0x15F) {
        gcn_sb_puts(sb, "row_newbcast:");
        gcn_sb_putu(sb, c & 0xF);
    }
    else if (c >= 0x160 && c <= 0x16F)
        gcn_sb_puts(sb, "/* row_xmask is not supported on ASICs earlier than GFX10 */");
    else
        gcn_sb_puts(sb, "/* Invalid dpp_ctrl value */");
}

static __attribute__((noinline)) void print_mods(gcn_strbuf *sb, const vop_info *vi,
                                                 const gcn_insn *in);

/* Operand o of a record at cursor p when it is no plain register: vcc and
 * inline constants through the cursor, the others through the appenders
 * (print_src).  Returns the cursor. */
static __attribute__((noinline)) char *cur_other(char *p, gcn_strbuf *sb, const vop_info *vi,
                                                 const gcn_insn *in, const gcn_opnd *o)
{
    if (o->field == GCN_FLD_VCC_IMPLICIT && o->kind == GCN_OPND_SPECIAL)
        return GCN_CUR_LIT(p, "vcc");
    if (o->kind == GCN_OPND_INLINE && !(o->flags & SRC_DECOR)) {
        char *end = gcn_cur_inline(p, o->reg, (gcn_dtype)o->dtype);
        if (end)
            return end;
    }
    gcn_sb_commit(sb, p);
    print_src(sb, vi, in, o);
    return gcn_sb_room(sb, GCN_LINE_MAX);
}

/* The parsed row of a record, or NULL: the row this thread decoded last
 * when it is the record's (a listing prints each instruction right after
 * decoding it: no lookup, and the form line the decoder has just read),
 * else by id. */
static inline const vop_info *info_of_insn(const gcn_decoder *d, const gcn_insn *in,
                                           unsigned sub)
{
    const vop_info *vi = last_info;
    if (vi && last_target == d->target && vi->fl[sub].id == in->id)
        return vi;
    return info_of(d, in->id);
}

void gcn_print_valu(const gcn_decoder *d, const gcn_insn *in, gcn_strbuf *sb)
{
    unsigned sub = in->sub <= GCN_SUB_SDWA ? in->sub : GCN_SUB_NONE;
    const vop_info *vi = info_of_insn(d, in, sub);
    if (!vi) {
        gcn_sb_puts(sb, gcn_isa_row_of(in->id)->mnem);
        return;
    }
    /* mnemonic with suffix, and operands through a cursor (plain registers,
     * the common case, inline) */
    const vop_form *fm = &vi->fl[sub];
    char *p = gcn_sb_room(sb, GCN_LINE_MAX);
    memcpy(p, fm->name, VOP_NAME_PAD);
    p += fm->name_len;
    const gcn_opnd *o = in->op, *end = in->op + in->nopnds;
    if (o < end) {
        *p++ = ' ';
        for (;;) {
            unsigned kind = o->kind, flags = o->flags;
            if (gcn_kind_is_reg(kind) && !(flags & SRC_DECOR))
                p = gcn_cur_reg(p, kind, o->reg, o->nregs);
            else
                p = cur_other(p, sb, vi, in, o);
            if (++o == end)
                break;
            p = GCN_CUR_LIT(p, ", ");
        }
    }
    gcn_sb_commit(sb, p);
    /* modifiers: none for e32 forms, and most e64 ones have none set */
    const gcn_mods *m = &in->m;
    if (sub == GCN_SUB_E32 || (sub == GCN_SUB_E64 && !(m->clamp | m->omod | m->op_sel | m->neg_lo)))
        return;
    print_mods(sb, vi, in);
}

/* The modifiers after the operands. */
static __attribute__((noinline)) void print_mods(gcn_strbuf *sb, const vop_info *vi,
                                                 const gcn_insn *in)
{
    const gcn_mods *m = &in->m;
    switch (in->sub) {
    case GCN_SUB_E64:
        if (vi->bitop3 && m->neg_lo) {
            gcn_sb_puts(sb, " bitop3:");
            if (m->neg_lo <= 10)
                gcn_sb_putu(sb, m->neg_lo);
            else
                gcn_sb_put0x(sb, m->neg_lo);
        }
        if (vi->v3fi) {
            if (m->op_sel & 2)
                gcn_sb_puts(sb, " bound_ctrl:1");
            if (m->op_sel & 1)
                gcn_sb_puts(sb, " fi:1");
        } else if (vi->os && m->op_sel) {
            gcn_sb_puts(sb, " op_sel:[");
            for (unsigned i = 0; i < vi->os; i++) {
                unsigned bit = i + 1 == vi->os ? 3 : i;   /* last entry: dst (op_sel[3]) */
                if (i)
                    gcn_sb_putc(sb, ',');
                gcn_sb_putc(sb, (char)('0' + ((m->op_sel >> bit) & 1)));
            }
            gcn_sb_putc(sb, ']');
        }
        if (m->clamp)
            gcn_sb_puts(sb, " clamp");
        print_omod(sb, m->omod);
        break;
    case GCN_SUB_SDWA: {
        char *p = gcn_sb_room(sb, 128);
        if (m->clamp)
            p = GCN_CUR_LIT(p, " clamp");
        p = cur_omod(p, m->omod);
        if (vi->fmt != GCN_FMT_VOPC && !vi->sdwanodst) {
            p = cur_sdwa_sel(GCN_CUR_LIT(p, " dst_sel:"), m->dst_sel);
            if (m->dst_unused == 0)
                p = GCN_CUR_LIT(p, " dst_unused:UNUSED_PAD");
            else if (m->dst_unused == 1)
                p = GCN_CUR_LIT(p, " dst_unused:UNUSED_SEXT");
            else
                p = GCN_CUR_LIT(p, " dst_unused:UNUSED_PRESERVE");
        }
        p = cur_sdwa_sel(GCN_CUR_LIT(p, " src0_sel:"), m->src0_sel);
        if (vi->fmt != GCN_FMT_VOP1)
            p = cur_sdwa_sel(GCN_CUR_LIT(p, " src1_sel:"), m->src1_sel);
        gcn_sb_commit(sb, p);
        break;
    }
    case GCN_SUB_DPP: {
        gcn_sb_putc(sb, ' ');
        print_dpp_ctrl(sb, vi, m->dpp_ctrl);
        char *p = gcn_sb_room(sb, 64);
        p = gcn_cur_hex(GCN_CUR_LIT(p, " row_mask:"), m->row_mask);
        p = gcn_cur_hex(GCN_CUR_LIT(p, " bank_mask:"), m->bank_mask);
        if (m->bound_ctrl)
            p = GCN_CUR_LIT(p, " bound_ctrl:1");
        gcn_sb_commit(sb, p);
        break;
    }
    default:
        break;
    }
}

/* ---- the compiled operand tables (valu_tabs.inc) ------------------------- */

/* Every row of both targets parsed (their kinds' tables made or looked up). */
static void parse_all_rows(void)
{
    gcn_decoder d;
    memset(&d, 0, sizeof d);
    for (int t = 0; t < 2; t++) {
        d.target = t ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942;
        for (unsigned id = 1; id < GCN_ID_COUNT; id++)
            info_slow(&d, id);
    }
}

int gcn_valu_tabs_write(FILE *out)
{
    pthread_mutex_lock(&vstep_lock);
    int fresh = !optab_loaded;
    optab_loaded = optab_off = 1;
    pthread_mutex_unlock(&vstep_lock);
    if (!fresh)
        return -1;      /* (only before the process decodes its first VALU row) */
    parse_all_rows();
    fprintf(out, "/* valu_tabs.inc -- GENERATED by tests/decode/test_valu --write-tabs from valu.c's\n"
                 " * optab_get() (the rows of both targets parsed in id order, gfx942 then gfx950);\n"
                 " * do not edit by hand.  optab_keys: each kind's table; optab_runs: the non-zero\n"
                 " * entries {table, stride, lo, n, first, step}: entry lo + i * stride is first +\n"
                 " * i * step (i < n).  tests/decode/test_valu fails\n"
                 " * when they differ from what optab_entry() makes or a row's kind is missing. */\n");
    fprintf(out, "static const optab_key optab_keys[] = {\n");
    for (unsigned i = 0; i < nseen; i++)
        fprintf(out, "    {0x%08x, %u},\n", seen[i].key,
                (unsigned)((seen[i].tab - optabs[0]) / 512));
    fprintf(out, "};\n");
    fprintf(out, "static const optab_run optab_runs[] = {\n");
    for (unsigned t = 1; t < optab_count; t++) {
        /* each run the longest of strides 1, 2 and 4 from the first entry not yet in one */
        const uint64_t *e = optabs[t];
        uint8_t done[512] = {0};
        for (unsigned i = 0; i < 512; i++) {
            if (!e[i] || done[i])
                continue;
            unsigned best_n = 1, best_s = 1;
            uint64_t best_step = 0;
            for (unsigned st = 1; st <= 4; st *= 2) {
                unsigned j = i + st;
                if (j >= 512 || !e[j] || done[j])
                    continue;
                uint64_t step = e[j] - e[i];
                unsigned n = 2;
                while (j + st < 512 && e[j + st] && !done[j + st] && e[j + st] - e[j] == step)
                    j += st, n++;
                if (n > best_n)
                    best_n = n, best_s = st, best_step = step;
            }
            for (unsigned k = 0; k < best_n; k++)
                done[i + k * best_s] = 1;
            fprintf(out, "    {%u, %u, %u, %u, 0x%016llxull, 0x%016llxull},\n", t, best_s, i, best_n,
                    (unsigned long long)e[i], (unsigned long long)best_step);
        }
    }
    fprintf(out, "};\n");
    return 0;
}

unsigned gcn_valu_tabs_check(FILE *rep)
{
    uint64_t (*tab)[512] = calloc(OPTAB_MAX, sizeof *tab);
    if (!tab)
        return 1;
    unsigned bad = 0;
    for (size_t r = 0; r < sizeof optab_runs / sizeof optab_runs[0]; r++) {
        const optab_run *R = &optab_runs[r];
        uint64_t e = R->first;
        for (unsigned i = 0; i < R->n && R->tab < OPTAB_MAX && R->lo + i * R->stride < 512;
             i++, e += R->step)
            tab[R->tab][R->lo + i * R->stride] = e;
    }
    gcn_insn tmp;
    memset(&tmp, 0, sizeof tmp);
    for (size_t k = 0; k < sizeof optab_keys / sizeof optab_keys[0]; k++) {
        unsigned key = optab_keys[k].key, kind = key >> 24, lo, hi;
        vop_od od;
        memset(&od, 0, sizeof od);
        od.present = 1;
        od.cls = (char)(key >> 16 & 0xff);
        od.n = (uint8_t)(key >> 8);
        od.lds_ok = (uint8_t)key;
        kind_range(kind, &lo, &hi);
        uint64_t role = (uint64_t)role_flag(kind) << 16;
        uint64_t roles = (uint64_t)(GCN_OPF_DST | GCN_OPF_SRC) << 16;
        for (unsigned enc = lo; enc < hi; enc++) {
            uint64_t e = optab_entry(&tmp, kind, &od, enc);
            uint64_t want = (e & roles) == role ? e & ~roles : 0;
            if (optab_keys[k].tab >= OPTAB_MAX || tab[optab_keys[k].tab][enc] != want) {
                if (rep)
                    fprintf(rep, "kind 0x%08x, encoding %u: 0x%016llx made, compiled not\n", key,
                            enc, (unsigned long long)want);
                bad++;
            }
        }
    }
    free(tab);
    parse_all_rows();       /* (a kind any row of this process used, and missed, counts) */
    pthread_mutex_lock(&vstep_lock);
    unsigned misses = optab_misses;
    pthread_mutex_unlock(&vstep_lock);
    if (misses) {
        if (rep)
            fprintf(rep, "%u kinds of the rows are not in the compiled tables\n", misses);
        bad += misses;
    }
    return bad;
}
