/*
 * regs.c -- which registers a decoded instruction reads and writes, shared by
 * the simulator and the linter, and the small register-set type it answers in.
 *
 * Explicit registers come from the decoded operands (their DST/SRC flags and
 * register kinds); implicit EXEC/VCC/SCC/M0 accesses from the row flags
 * (gcn_insn_implicit, which the simulator's pre-decode uses too).  Two row flags add
 * registers the printed operands do not show as such: GCN_F_WR_SRC0 (swaps write their
 * source, and read their destination, which goes to the source) and GCN_F_RD_DST (the destination is read too: the accumulator of an SMFMAC,
 * LLVM VOP3PInstructions.td SMFMACInst "$vdst = $src2"; src2 tied to vdst of v_fmac,
 * v_mac, v_dot*c, v_pk_fmac, VOP2Instructions.td "$vdst = $src2").  The
 * destination registers of memory instructions (loads, returning atomics,
 * s_memtime) are written only when the memory counter retires the operation:
 * those are reported as async_defs, not defs.  LDS-DMA loads
 * (buffer_load_* ... lds, global_load_lds_*) write LDS, not registers.
 * Scalar encodings follow the 9-bit source operand map (LLVM SIDefines.h,
 * AMD CDNA3 ISA "Scalar operands"): 251 src_vccz reads vcc, 252 src_execz
 * reads exec, 253 src_scc reads SCC, 254 src_lds_direct reads M0.
 */
#include "gcn_decode.h"

void gcn_rs_clear(gcn_regset *rs)
{
    for (unsigned i = 0; i < 2; i++)
        rs->s[i] = 0;
    for (unsigned i = 0; i < 8; i++)
        rs->v[i] = 0;
}

void gcn_rs_add_s(gcn_regset *rs, unsigned first, unsigned n)
{
    for (unsigned i = first; i < first + n && i < 128; i++)
        rs->s[i >> 6] |= 1ull << (i & 63);
}

void gcn_rs_add_v(gcn_regset *rs, unsigned first, unsigned n)
{
    for (unsigned i = first; i < first + n && i < 512; i++)
        rs->v[i >> 6] |= 1ull << (i & 63);
}

void gcn_rs_or(gcn_regset *dst, const gcn_regset *a)
{
    for (unsigned i = 0; i < 2; i++)
        dst->s[i] |= a->s[i];
    for (unsigned i = 0; i < 8; i++)
        dst->v[i] |= a->v[i];
}

void gcn_rs_and(gcn_regset *dst, const gcn_regset *a, const gcn_regset *b)
{
    for (unsigned i = 0; i < 2; i++)
        dst->s[i] = a->s[i] & b->s[i];
    for (unsigned i = 0; i < 8; i++)
        dst->v[i] = a->v[i] & b->v[i];
}

void gcn_rs_andnot(gcn_regset *dst, const gcn_regset *a)
{
    for (unsigned i = 0; i < 2; i++)
        dst->s[i] &= ~a->s[i];
    for (unsigned i = 0; i < 8; i++)
        dst->v[i] &= ~a->v[i];
}

bool gcn_rs_empty(const gcn_regset *rs)
{
    uint64_t x = rs->s[0] | rs->s[1];
    for (unsigned i = 0; i < 8; i++)
        x |= rs->v[i];
    return x == 0;
}

bool gcn_rs_intersects(const gcn_regset *a, const gcn_regset *b)
{
    uint64_t x = (a->s[0] & b->s[0]) | (a->s[1] & b->s[1]);
    for (unsigned i = 0; i < 8; i++)
        x |= a->v[i] & b->v[i];
    return x != 0;
}

bool gcn_rs_equal(const gcn_regset *a, const gcn_regset *b)
{
    uint64_t x = (a->s[0] ^ b->s[0]) | (a->s[1] ^ b->s[1]);
    for (unsigned i = 0; i < 8; i++)
        x |= a->v[i] ^ b->v[i];
    return x == 0;
}

bool gcn_rs_has_s(const gcn_regset *rs, unsigned i)
{
    return i < 128 && (rs->s[i >> 6] >> (i & 63) & 1);
}

bool gcn_rs_has_v(const gcn_regset *rs, unsigned i)
{
    return i < 512 && (rs->v[i >> 6] >> (i & 63) & 1);
}

static void fmt_range(gcn_strbuf *sb, int *first, const char *p, unsigned lo, unsigned hi)
{
    gcn_sb_puts(sb, *first ? "" : ", ");
    *first = 0;
    if (lo == hi)
        gcn_sb_printf(sb, "%s%u", p, lo);
    else
        gcn_sb_printf(sb, "%s[%u:%u]", p, lo, hi);
}

/* Name of a scalar index that is not an ordinary SGPR; pairs are named when
 * both halves are present (vcc, exec, flat_scratch, xnack_mask). */
static unsigned fmt_special(gcn_strbuf *sb, int *first, const gcn_regset *rs, unsigned i)
{
    static const struct { unsigned idx; const char *pair, *lo, *hi; } sp[] = {
        {102, "flat_scratch", "flat_scratch_lo", "flat_scratch_hi"},
        {104, "xnack_mask", "xnack_mask_lo", "xnack_mask_hi"},
        {106, "vcc", "vcc_lo", "vcc_hi"},
        {126, "exec", "exec_lo", "exec_hi"},
    };
    for (unsigned k = 0; k < sizeof sp / sizeof sp[0]; k++) {
        if (i == sp[k].idx) {
            gcn_sb_puts(sb, *first ? "" : ", ");
            *first = 0;
            if (gcn_rs_has_s(rs, i + 1)) {
                gcn_sb_puts(sb, sp[k].pair);
                return 2;
            }
            gcn_sb_puts(sb, sp[k].lo);
            return 1;
        }
        if (i == sp[k].idx + 1) {
            gcn_sb_puts(sb, *first ? "" : ", ");
            *first = 0;
            gcn_sb_puts(sb, sp[k].hi);
            return 1;
        }
    }
    gcn_sb_puts(sb, *first ? "" : ", ");
    *first = 0;
    gcn_sb_puts(sb, i == GCN_RS_M0 ? "m0" : "?");
    return 1;
}

void gcn_rs_format(const gcn_regset *rs, gcn_strbuf *sb)
{
    int first = 1;
    /* vector, then accumulation registers, in ranges */
    for (unsigned base = 0; base < 512; base += 256) {
        const char *p = base ? "a" : "v";
        unsigned i = base;
        while (i < base + 256) {
            if (!gcn_rs_has_v(rs, i)) {
                i++;
                continue;
            }
            unsigned j = i;
            while (j + 1 < base + 256 && gcn_rs_has_v(rs, j + 1))
                j++;
            fmt_range(sb, &first, p, i - base, j - base);
            i = j + 1;
        }
    }
    unsigned i = 0;
    while (i < 128) {
        if (!gcn_rs_has_s(rs, i) || i == GCN_RS_SCC) {
            i++;
            continue;
        }
        if (i <= 101) {
            unsigned j = i;
            while (j + 1 <= 101 && gcn_rs_has_s(rs, j + 1))
                j++;
            fmt_range(sb, &first, "s", i, j);
            i = j + 1;
        } else if (i >= GCN_RS_TTMP0 && i < GCN_RS_TTMP0 + 16) {
            unsigned j = i;
            while (j + 1 < GCN_RS_TTMP0 + 16 && gcn_rs_has_s(rs, j + 1))
                j++;
            fmt_range(sb, &first, "ttmp", i - GCN_RS_TTMP0, j - GCN_RS_TTMP0);
            i = j + 1;
        } else {
            i += fmt_special(sb, &first, rs, i);
        }
    }
    if (gcn_rs_has_s(rs, GCN_RS_SCC)) {   /* SCC last, like a flag */
        gcn_sb_puts(sb, first ? "scc" : ", scc");
        first = 0;
    }
}

/* The registers one operand names, added to rs. */
static void opnd_regs(const gcn_opnd *o, gcn_regset *rs)
{
    unsigned n = o->nregs ? o->nregs : 1;
    switch (o->kind) {
    case GCN_OPND_SGPR:
        gcn_rs_add_s(rs, o->reg, n);
        break;
    case GCN_OPND_TTMP:
        gcn_rs_add_s(rs, GCN_RS_TTMP0 + o->reg, n);
        break;
    case GCN_OPND_VGPR:
        gcn_rs_add_v(rs, o->reg, n);
        break;
    case GCN_OPND_AGPR:
        gcn_rs_add_v(rs, GCN_RS_AGPR0 + o->reg, n);
        break;
    case GCN_OPND_SPECIAL:
        if (o->reg < 128 && o->reg != GCN_RS_SCC)
            gcn_rs_add_s(rs, o->reg, n);
        else if (o->reg == 251)            /* src_vccz */
            gcn_rs_add_s(rs, GCN_RS_VCC, 2);
        else if (o->reg == 252)            /* src_execz */
            gcn_rs_add_s(rs, GCN_RS_EXEC, 2);
        else if (o->reg == 253)            /* src_scc */
            gcn_rs_add_s(rs, GCN_RS_SCC, 1);
        else if (o->reg == 254)            /* src_lds_direct: address in M0 */
            gcn_rs_add_s(rs, GCN_RS_M0, 1);
        break;
    default:
        break;
    }
}

/* MUBUF rows carry LDS_DMA (and RD_M0) when the lds bit is allowed; an instance is
 * LDS-DMA only with the bit set.  Other rows (global_load_lds_*) always are. */
static bool is_lds_dma(const gcn_insn *in, uint64_t f)
{
    bool mubuf = in->enc == GCN_FMT_MUBUF || in->enc == GCN_FMT_MTBUF;
    return mubuf ? in->m.lds != 0 : (f & GCN_F_LDS_DMA) != 0;
}

unsigned gcn_insn_implicit(const gcn_insn *in, uint64_t f, gcn_implicit *out)
{
    bool mubuf = in->enc == GCN_FMT_MUBUF || in->enc == GCN_FMT_MTBUF;
    bool lds_dma = is_lds_dma(in, f);
    if (mubuf && !lds_dma)
        f &= ~(uint64_t)GCN_F_RD_M0;
    if (lds_dma)
        f |= GCN_F_RD_M0;
    static const struct { uint64_t rd, wr; uint8_t reg, n; } imp[4] = {
        {GCN_F_RD_VCC, GCN_F_WR_VCC, GCN_RS_VCC, 2}, {GCN_F_RD_M0, GCN_F_WR_M0, GCN_RS_M0, 1},
        {GCN_F_RD_EXEC, GCN_F_WR_EXEC, GCN_RS_EXEC, 2}, {GCN_F_RD_SCC, GCN_F_WR_SCC, GCN_RS_SCC, 1},
    };
    unsigned n = 0;
    for (unsigned w = 0; w < 2; w++)
        for (unsigned k = 0; k < 4; k++)
            if (f & (w ? imp[k].wr : imp[k].rd))
                out[n++] = (gcn_implicit){(uint8_t)w, imp[k].reg, imp[k].n};
    return n;
}

void gcn_insn_regs_flags(const gcn_insn *in, uint64_t f, gcn_regset *uses,
                         gcn_regset *defs, gcn_regset *async_defs)
{
    gcn_regset u, d, a;
    gcn_rs_clear(&u);
    gcn_rs_clear(&d);
    gcn_rs_clear(&a);
    bool counted = gcn_insn_counters(f) != 0;
    bool lds_dma = is_lds_dma(in, f);
    bool swap = (f & GCN_F_WR_SRC0) != 0;  /* v_swap_b32, v_permlane{16,32}_swap */
    gcn_implicit imp[GCN_IMPLICIT_MAX];
    unsigned nimp = gcn_insn_implicit(in, f, imp);
    for (unsigned i = 0; i < in->nopnds && i < GCN_MAX_OPNDS; i++) {
        const gcn_opnd *o = &in->op[i];
        if (o->flags & GCN_OPF_SRC) {
            opnd_regs(o, &u);
            if (f & GCN_F_WR_SRC0) {       /* swaps write their source too */
                opnd_regs(o, &d);
                f &= ~(uint64_t)GCN_F_WR_SRC0;   /* only the first source */
            }
        }
        if (o->flags & GCN_OPF_DST) {
            if (lds_dma && (o->kind == GCN_OPND_VGPR || o->kind == GCN_OPND_AGPR))
                continue;                  /* data goes to LDS, not to the register */
            opnd_regs(o, counted ? &a : &d);
            if ((f & GCN_F_RD_DST) && o->field == GCN_FLD_VDST)
                opnd_regs(o, &u);          /* tied: SMFMAC's accumulator, v_fmac's src2 */
            else if (swap && o->field == GCN_FLD_VDST)
                opnd_regs(o, &u);          /* a swap reads its vdst: it goes to src0 */
        }
    }
    for (unsigned k = 0; k < nimp; k++)
        gcn_rs_add_s(imp[k].write ? &d : &u, imp[k].reg, imp[k].n);
    if (uses) *uses = u;
    if (defs) *defs = d;
    if (async_defs) *async_defs = a;
}

void gcn_insn_regs(const gcn_insn *in, gcn_regset *uses, gcn_regset *defs,
                   gcn_regset *async_defs)
{
    gcn_insn_regs_flags(in, gcn_insn_flags(in), uses, defs, async_defs);
}
