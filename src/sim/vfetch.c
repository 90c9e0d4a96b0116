/*
 * vfetch.c -- vector operand fetch and result write-back for VALU bodies:
 * whole 64-lane vectors (a VGPR row, or a scalar broadcast), DPP lane
 * permutation of src0 with row/bank masks and bound_ctrl, SDWA operand
 * selection and destination placement, float input/output modifiers
 * (neg, abs, omod, clamp) and the MODE register's denormal flushing.
 *
 * DPP (GFX9 DPP_CTRL, LLVM SIDefines.h DppCtrl): quad_perm 0x00-0xff,
 * row_shl 0x101-0x10f, row_shr 0x111-0x11f, row_ror 0x121-0x12f,
 * wave_shl 0x130, wave_rol 0x134, wave_shr 0x138, wave_ror 0x13c,
 * row_mirror 0x140, row_half_mirror 0x141, row_bcast:15 0x142,
 * row_bcast:31 0x143, row_newbcast 0x150-0x15f (gfx90a+ DPP64).  A source
 * lane that is out of range or has EXEC off is invalid: with bound_ctrl the
 * source reads 0, without it the lane is not written.  row_mask/bank_mask
 * disable writes of rows (16 lanes) / banks (lanes 4k..4k+3 of each row).
 * SDWA (GFX9): sel 0-3 BYTE_n, 4/5 WORD_n, 6 DWORD; dst_unused 0 pad with
 * zeros, 1 sign-extend, 2 preserve.
 */
#include <math.h>
#include "valu_int.h"

static inline int flush32_in(const sim_x *x)
{
    return (x->i->flags & GCN_F_RD_MODE) && !(x->w->hw_mode >> 4 & 1);
}
static inline int flush32_out(const sim_x *x)
{
    return (x->i->flags & GCN_F_RD_MODE) && !(x->w->hw_mode >> 5 & 1);
}
static inline int flush64_in(const sim_x *x)
{
    return (x->i->flags & GCN_F_RD_MODE) && !(x->w->hw_mode >> 6 & 1);
}
static inline int flush64_out(const sim_x *x)
{
    return (x->i->flags & GCN_F_RD_MODE) && !(x->w->hw_mode >> 7 & 1);
}

/* ---- SDWA ------------------------------------------------------------------ */
static uint32_t sdwa_extract(uint32_t v, unsigned sel, int sext)
{
    switch (sel) {
    case 0: case 1: case 2: case 3: {
        uint32_t b = (v >> (8 * sel)) & 0xff;
        return sext ? (uint32_t)(int32_t)(int8_t)b : b;
    }
    case 4: case 5: {
        uint32_t h = (v >> (16 * (sel - 4))) & 0xffff;
        return sext ? (uint32_t)(int32_t)(int16_t)h : h;
    }
    default:
        return v;
    }
}

static const uint32_t *sdwa_src(sim_x *x, unsigned k, const uint32_t *p)
{
    const gcn_mods *m = &x->i->mods;
    unsigned sel = k == 0 ? m->src0_sel : m->src1_sel;
    int sext = (x->i->s[k].mods & OM_SEXT) != 0;
    if (sel == 6 && !sext)
        return p;
    uint32_t *t = x->t[k][0];
    for (unsigned l = 0; l < NL; l++)
        t[l] = sdwa_extract(p[l], sel, sext);
    return t;
}

/* ---- fetch ------------------------------------------------------------------ */
const uint32_t *sim_vsrc(sim_x *x, unsigned k)
{
    const sim_insn *i = x->i;
    const sim_opnd *o = &i->s[k];
    const uint32_t *p;
    if (k == 0 && i->sub == GCN_SUB_DPP)
        return x->dpp_src0[0];
    if (o->kind == OK_V) {
        p = x->w->v[o->r];
    } else {
        uint32_t c = rs32(x, o);
        uint32_t *t = x->t[k][0];
        for (unsigned l = 0; l < NL; l++)
            t[l] = c;
        p = t;
    }
    if (i->sub == GCN_SUB_SDWA && k < 2)
        p = sdwa_src(x, k, p);
    return p;
}

const uint32_t *sim_vsrc_f32(sim_x *x, unsigned k)
{
    const uint32_t *p = sim_vsrc(x, k);
    unsigned mods = x->i->s[k].mods & (OM_NEG | OM_ABS);
    int fl = flush32_in(x);
    if (!mods && !fl)
        return p;
    uint32_t *t = x->t[k][1];
    uint32_t andm = (mods & OM_ABS) ? 0x7fffffffu : 0xffffffffu;
    uint32_t xorm = (mods & OM_NEG) ? 0x80000000u : 0;
    if (fl) {
        for (unsigned l = 0; l < NL; l++)
            t[l] = (f32_flush(p[l]) & andm) ^ xorm;
    } else {
        for (unsigned l = 0; l < NL; l++)
            t[l] = (p[l] & andm) ^ xorm;
    }
    return t;
}

/* 16-bit source: VOP3 op_sel bit k picks the high half; result in bits 15:0. */
const uint32_t *sim_vsrc_f16(sim_x *x, unsigned k)
{
    const uint32_t *p = sim_vsrc(x, k);
    const sim_insn *i = x->i;
    unsigned mods = i->s[k].mods & (OM_NEG | OM_ABS);
    int hi = i->enc == GCN_FMT_VOP3 && (i->mods.op_sel >> k & 1);
    int fl = flush64_in(x);
    if (!mods && !hi && !fl)
        return p;
    uint32_t *t = x->t[k][1];
    uint16_t andm = (mods & OM_ABS) ? 0x7fff : 0xffff;
    uint16_t xorm = (mods & OM_NEG) ? 0x8000 : 0;
    for (unsigned l = 0; l < NL; l++) {
        uint16_t h = (uint16_t)(hi ? p[l] >> 16 : p[l]);
        if (fl)
            h = f16_flush(h);
        t[l] = (uint16_t)((h & andm) ^ xorm);
    }
    return t;
}

GCN_HOT void sim_vsrc64(sim_x *x, unsigned k, uint64_t *out, int fmods)
{
    const sim_insn *i = x->i;
    const sim_opnd *o = &i->s[k];
    if (k == 0 && i->sub == GCN_SUB_DPP) {
        for (unsigned l = 0; l < NL; l++)
            out[l] = (uint64_t)x->dpp_src0[0][l] | (uint64_t)x->dpp_src0[1][l] << 32;
    } else if (o->kind == OK_V) {
        const uint32_t *lo = x->w->v[o->r];
        const uint32_t *hi = x->w->v[(unsigned)o->r + 1 < x->w->nvrows ? o->r + 1u : o->r];
        for (unsigned l = 0; l < NL; l++)
            out[l] = (uint64_t)lo[l] | (uint64_t)hi[l] << 32;
    } else {
        uint64_t c = o->n >= 2 || o->kind == OK_C ? rs64(x, o) : rs32(x, o);
        for (unsigned l = 0; l < NL; l++)
            out[l] = c;
    }
    if (fmods) {
        unsigned mods = o->mods & (OM_NEG | OM_ABS);
        int fl = flush64_in(x);
        if (mods || fl) {
            uint64_t andm = (mods & OM_ABS) ? 0x7fffffffffffffffull : ~0ull;
            uint64_t xorm = (mods & OM_NEG) ? 0x8000000000000000ull : 0;
            for (unsigned l = 0; l < NL; l++)
                out[l] = ((fl ? f64_flush(out[l]) : out[l]) & andm) ^ xorm;
        }
    }
}

/* ---- write-back --------------------------------------------------------------- */
static void sdwa_dst(sim_x *x, uint32_t *d, const uint32_t *r, uint64_t m)
{
    const gcn_mods *md = &x->i->mods;
    unsigned sel = md->dst_sel, un = md->dst_unused;
    for (unsigned l = 0; l < NL; l++) {
        if (!(m >> l & 1))
            continue;
        uint32_t v = r[l], old = d[l], out;
        switch (sel) {
        case 0: case 1: case 2: case 3: {
            unsigned sh = 8 * sel;
            uint32_t f = (v & 0xff) << sh, mask = 0xffu << sh;
            if (un == 2)
                out = (old & ~mask) | f;
            else if (un == 1)
                out = (uint32_t)((int32_t)(f << (24 - sh)) >> (24 - sh)) & (0xffffffffu << sh);
            else
                out = f;
            break;
        }
        case 4: case 5: {
            unsigned sh = 16 * (sel - 4);
            uint32_t f = (v & 0xffff) << sh, mask = 0xffffu << sh;
            if (un == 2)
                out = (old & ~mask) | f;
            else if (un == 1)
                out = (uint32_t)((int32_t)(f << (16 - sh)) >> (16 - sh)) & (0xffffffffu << sh);
            else
                out = f;
            break;
        }
        default:
            out = v;
        }
        d[l] = out;
    }
}

void sim_vdst(sim_x *x, const uint32_t *r)
{
    const sim_opnd *o = &x->i->d;
    if (o->kind != OK_V)
        return;
    uint32_t *d = x->w->v[o->r];
    uint64_t m = x->wmask;
    if (__builtin_expect(x->i->sub == GCN_SUB_SDWA, 0)) {
        sdwa_dst(x, d, r, m);
        return;
    }
    if (m == ~0ull) {
        if (d != r)
            memcpy(d, r, NL * 4);
        return;
    }
    for (unsigned l = 0; l < NL; l++)
        d[l] = (m >> l & 1) ? r[l] : d[l];
}

void sim_vdst_f32(sim_x *x, const uint32_t *r)
{
    const sim_insn *i = x->i;
    unsigned omod = i->mods.omod, clamp = i->mods.clamp;
    int fl = flush32_out(x);
    if (!omod && !clamp && !fl) {
        sim_vdst(x, r);
        return;
    }
    uint32_t *t = x->r[3];
    int dx10 = x->w->hw_mode >> 8 & 1;
    for (unsigned l = 0; l < NL; l++) {
        uint32_t u = r[l];
        if (omod) {
            float f = u2f(u);
            f = omod == 1 ? f * 2.0f : omod == 2 ? f * 4.0f : f * 0.5f;
            u = f2u(f);
        }
        if (clamp) {
            if (f32_is_nan(u))
                u = dx10 ? 0 : f32_quiet(u);
            else if ((int32_t)u < 0)
                u = 0;                       /* negative (incl. -0) -> +0 */
            else if (u > 0x3f800000u)
                u = 0x3f800000u;
        }
        if (fl)
            u = f32_flush(u);
        t[l] = u;
    }
    sim_vdst(x, t);
}

/* 16-bit result in bits 15:0 of r.  GFX9: the high half is zeroed, except
 * for instructions that preserve it (v_fmac_f16/v_mac_f16/madak/madmk,
 * LLVM GCNSubtarget::zeroesHigh16BitsOfDest) and VOP3 op_sel[3] writes the
 * high half keeping the low one. */
static void vdst16(sim_x *x, const uint32_t *r, int preserve)
{
    const sim_insn *i = x->i;
    const sim_opnd *o = &i->d;
    if (o->kind != OK_V)
        return;
    if (i->sub == GCN_SUB_SDWA) {
        sim_vdst(x, r);
        return;
    }
    uint32_t *d = x->w->v[o->r];
    uint64_t m = x->wmask;
    int hi = i->enc == GCN_FMT_VOP3 && (i->mods.op_sel >> 3 & 1);
    for (unsigned l = 0; l < NL; l++) {
        if (!(m >> l & 1))
            continue;
        uint32_t v = r[l] & 0xffff;
        if (hi)
            d[l] = (d[l] & 0xffff) | v << 16;
        else if (preserve)
            d[l] = (d[l] & 0xffff0000u) | v;
        else
            d[l] = v;
    }
}

void sim_vdst16(sim_x *x, const uint32_t *r, int preserve)
{
    vdst16(x, r, preserve);
}

void sim_vdst_f16p(sim_x *x, const uint32_t *r, int preserve)
{
    const sim_insn *i = x->i;
    unsigned omod = i->mods.omod, clamp = i->mods.clamp;
    int fl = flush64_out(x);
    if (!omod && !clamp && !fl) {
        vdst16(x, r, preserve);
        return;
    }
    uint32_t *t = x->r[3];
    int dx10 = x->w->hw_mode >> 8 & 1;
    int rm = (x->w->hw_mode >> 2) & 3;
    for (unsigned l = 0; l < NL; l++) {
        uint16_t u = (uint16_t)r[l];
        if (omod) {
            float f = fp_h2f(u);
            f = omod == 1 ? f * 2.0f : omod == 2 ? f * 4.0f : f * 0.5f;
            u = fp_f2h(f, rm);
        }
        if (clamp) {
            if (f16_is_nan(u))
                u = dx10 ? 0 : f16_quiet(u);
            else if (u & 0x8000)
                u = 0;
            else if (u > 0x3c00)
                u = 0x3c00;
        }
        if (fl)
            u = f16_flush(u);
        t[l] = u;
    }
    vdst16(x, t, preserve);
}

void sim_vdst_f16(sim_x *x, const uint32_t *r)
{
    sim_vdst_f16p(x, r, 0);
}

GCN_HOT void sim_vdst64(sim_x *x, const uint64_t *r)
{
    const sim_opnd *o = &x->i->d;
    if (o->kind != OK_V)
        return;
    uint32_t *lo = x->w->v[o->r];
    uint32_t *hi = x->w->v[(unsigned)o->r + 1 < x->w->nvrows ? o->r + 1u : o->r];
    uint64_t m = x->wmask;
    if (m == ~0ull && lo != hi) {
        for (unsigned l = 0; l < NL; l++) {
            lo[l] = (uint32_t)r[l];
            hi[l] = (uint32_t)(r[l] >> 32);
        }
        return;
    }
    for (unsigned l = 0; l < NL; l++) {     /* branch-free: vectorises */
        uint32_t k = 0 - (uint32_t)(m >> l & 1);
        lo[l] = (lo[l] & ~k) | ((uint32_t)r[l] & k);
        hi[l] = (hi[l] & ~k) | ((uint32_t)(r[l] >> 32) & k);
    }
}

void sim_vdst_f64(sim_x *x, const uint64_t *r)
{
    const sim_insn *i = x->i;
    unsigned omod = i->mods.omod, clamp = i->mods.clamp;
    int fl = flush64_out(x);
    if (!omod && !clamp && !fl) {
        sim_vdst64(x, r);
        return;
    }
    uint64_t t[NL];
    int dx10 = x->w->hw_mode >> 8 & 1;
    for (unsigned l = 0; l < NL; l++) {
        uint64_t u = r[l];
        if (omod) {
            double f = u2d(u);
            f = omod == 1 ? f * 2.0 : omod == 2 ? f * 4.0 : f * 0.5;
            u = d2u(f);
        }
        if (clamp) {
            if (f64_is_nan(u))
                u = dx10 ? 0 : f64_quiet(u);
            else if ((int64_t)u < 0)
                u = 0;
            else if (u > 0x3ff0000000000000ull)
                u = 0x3ff0000000000000ull;
        }
        if (fl)
            u = f64_flush(u);
        t[l] = u;
    }
    sim_vdst64(x, t);
}

/* ---- DPP --------------------------------------------------------------------- */
/* Source lane for DPP control ctl and lane l, or -1 when out of range. */
static int dpp_src_lane(unsigned ctl, int l)
{
    int row = l & ~15, il = l & 15;
    if (ctl <= 0xff)
        return (l & ~3) + (int)((ctl >> (2 * (l & 3))) & 3);
    if (ctl >= 0x101 && ctl <= 0x10f) {
        int s = il + (int)(ctl - 0x100);
        return s < 16 ? row + s : -1;
    }
    if (ctl >= 0x111 && ctl <= 0x11f) {
        int s = il - (int)(ctl - 0x110);
        return s >= 0 ? row + s : -1;
    }
    if (ctl >= 0x121 && ctl <= 0x12f)
        return row + ((il - (int)(ctl - 0x120)) & 15);
    switch (ctl) {
    case 0x130: return l + 1 < 64 ? l + 1 : -1;
    case 0x134: return (l + 1) & 63;
    case 0x138: return l - 1;
    case 0x13c: return (l - 1) & 63;
    case 0x140: return row + 15 - il;
    case 0x141: return (l & ~7) + 7 - (l & 7);
    case 0x142: return row > 0 ? row - 1 : -1;
    case 0x143: return l >= 32 ? 31 : -1;
    default: break;
    }
    if (ctl >= 0x150 && ctl <= 0x15f)
        return row + (int)(ctl - 0x150);
    return -2;   /* unknown control */
}

/* Wrapper installed for DPP instructions: permute src0, mask the writes. */
void sim_dpp_body(sim_x *x);
void sim_dpp_body(sim_x *x)
{
    const sim_insn *i = x->i;
    const gcn_mods *m = &i->mods;
    const sim_opnd *o = &i->s[0];
    unsigned nd = o->n >= 2 ? 2 : 1;
    uint64_t exec = x->exec, wm = exec;
    for (int l = 0; l < NL; l++) {
        int sl = dpp_src_lane(m->dpp_ctrl, l);
        if (sl == -2) {
            sim_fault(x, "DPP control 0x%x not simulated", m->dpp_ctrl);
            return;
        }
        int valid = sl >= 0 && (exec >> sl & 1);
        for (unsigned k = 0; k < nd; k++) {
            uint32_t v = 0;
            if (valid)
                v = o->kind == OK_V ? x->w->v[o->r + k][sl] : (uint32_t)(rs64(x, o) >> (32 * k));
            x->dpp_src0[k][l] = v;
        }
        if (!valid && !m->bound_ctrl)
            wm &= ~(1ull << l);
        if (!(m->row_mask >> (l >> 4) & 1) || !(m->bank_mask >> ((l & 15) >> 2) & 1))
            wm &= ~(1ull << l);
    }
    x->wmask = wm;
    i->fn2(x);
}
