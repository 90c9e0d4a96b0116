/*
 * idiv.c -- find `n mod c` computed through LLVM's 32-bit unsigned division
 * expansion (idiv.h).
 *
 * One forward pass per block over a small symbolic state: what each VGPR
 * and VCC hold in terms of the expansion's steps (tags below), a value
 * number per SGPR (a copy keeps its source's number, any other write gets a
 * fresh one) and the SGPRs that hold a constant.  The steps, as
 * AMDGPUCodeGenPrepare.cpp (expandDivRem32) builds them for x / y:
 *     f1 = cvt_f32_u32(y)   f2 = rcp_iflag(f1)   f3 = f2 * 0x4f7ffffe
 *     z0 = cvt_u32_f32(f3)  e = (-y) * z0        h = mulhi(z0, e)
 *     z = z0 + h            q0 = mulhi(x, z)     p = q0 * y
 *     r0 = x - p            c1 = (r0 >= y)       q1 = c1 ? q0 + 1 : q0
 *     r1 = c1 ? r0 - y : r0 c2 = (r1 >= y)       q2 = c2 ? q1 + 1 : q1
 * q2 = floor(x / y) for every 32-bit x and y != 0.  Here y must be a
 * constant; x an SGPR, the same value (value number) in q0 and r0.  Then
 * `s = readfirstlane(q2)`, `t = s * y` (s_mul_i32) and `s_sub r, x', t` with
 * x' the same value as x mark the s_sub.  Any other write of a register
 * drops what it held; a write of EXEC drops every VGPR tag.  Only the plain
 * forms are taken (VOP1/VOP2/VOPC e32, or VOP3 without neg/abs/clamp/omod).
 */
#include <string.h>
#include "idiv.h"
#include "gcn_isa.h"

enum { T_NONE = 0, T_F1, T_F2, T_F3, T_Z0, T_E, T_H, T_Z, T_Q0, T_P, T_R0, T_Q0P1, T_R0MY,
       T_C1, T_Q1, T_R1, T_Q1P1, T_C2, T_Q2 };

typedef struct tag {
    uint8_t kind;
    uint32_t y;             /* the divisor (a constant) */
    uint32_t x;             /* value number of the dividend (from T_Q0 on) */
} tag;

#define NV 256u             /* VGPRs tracked (v0..v255) */
#define NSG 106u            /* s0..s105 */
#define SK_QUOT 1u          /* SGPR holds floor(x / y) */
#define SK_MULQ 2u          /* SGPR holds floor(x / y) * y */

typedef struct ist {
    tag v[NV];
    tag vcc;
    uint32_t vn[NSG];       /* value numbers */
    uint32_t next;
    bool isk[NSG];          /* SGPR holds the constant k[] */
    uint32_t k[NSG];
    tag sk[NSG];            /* SK_* with y and x */
    bool negy[NSG];         /* SGPR holds -negy_of[] */
    uint32_t negy_of[NSG];
} ist;

/* an operand: a constant, an SGPR (with its value number), a VGPR, VCC */
typedef struct iop { int kind; unsigned reg; uint32_t k; } iop;
enum { IO_NONE = 0, IO_K, IO_S, IO_V, IO_VCC };

static iop iop_of(const ist *s, const gcn_opnd *o)
{
    iop r = {IO_NONE, 0, 0};
    if (!o || (o->flags & (GCN_OPF_NEG | GCN_OPF_ABS)) || o->nregs > 1)
        return r;
    switch (o->kind) {
    case GCN_OPND_SGPR:
        if (o->reg < NSG) {
            r.kind = IO_S;
            r.reg = o->reg;
            if (s->isk[o->reg]) {
                r.kind = IO_K;
                r.k = s->k[o->reg];
            }
        }
        break;
    case GCN_OPND_VGPR:
        if (o->reg < NV) {
            r.kind = IO_V;
            r.reg = o->reg;
        }
        break;
    case GCN_OPND_SPECIAL:
        if (o->reg == GCN_RS_VCC)
            r.kind = IO_VCC;
        break;
    case GCN_OPND_INLINE:
        if (o->reg >= 128 && o->reg <= 208) {      /* the integers -16..64 */
            r.kind = IO_K;
            r.k = (uint32_t)gcn_inline_value(o->reg, GCN_DT_I32);
        }
        break;
    case GCN_OPND_LITERAL:
        r.kind = IO_K;
        r.k = (uint32_t)o->imm;
        break;
    default:
        break;
    }
    return r;
}

static tag vtag(const ist *s, iop o)
{
    return o.kind == IO_V ? s->v[o.reg] : (tag){0, 0, 0};
}

static bool is_k(iop o, uint32_t k) { return o.kind == IO_K && o.k == k; }

/* the step that instruction (id, a, b) makes, or T_NONE; *out gets the tag */
static bool vstep(const ist *s, unsigned id, iop a, iop b, iop c, tag *out)
{
    tag ta = vtag(s, a), tb = vtag(s, b);
    *out = (tag){0, 0, 0};
    switch (id) {
    case GCN_ID_V_CVT_F32_U32:
        if (a.kind == IO_K && a.k != 0) {
            *out = (tag){T_F1, a.k, 0};
            return true;
        }
        return false;
    case GCN_ID_V_RCP_IFLAG_F32:
        if (ta.kind == T_F1) {
            *out = (tag){T_F2, ta.y, 0};
            return true;
        }
        return false;
    case GCN_ID_V_MUL_F32:
        if (is_k(a, 0x4f7ffffeu) && tb.kind == T_F2)
            *out = (tag){T_F3, tb.y, 0};
        else if (is_k(b, 0x4f7ffffeu) && ta.kind == T_F2)
            *out = (tag){T_F3, ta.y, 0};
        return out->kind != T_NONE;
    case GCN_ID_V_CVT_U32_F32:
        if (ta.kind == T_F3)
            *out = (tag){T_Z0, ta.y, 0};
        return out->kind != T_NONE;
    case GCN_ID_V_MUL_LO_U32: {
        /* e = (-y) * z0, or p = q0 * y */
        for (unsigned sw = 0; sw < 2; sw++) {
            iop u = sw ? b : a, w = sw ? a : b;
            tag tw = vtag(s, w);
            bool negy = (u.kind == IO_K && tw.kind == T_Z0 && u.k == (uint32_t)-tw.y) ||
                        (u.kind == IO_S && tw.kind == T_Z0 && s->negy[u.reg] &&
                         s->negy_of[u.reg] == tw.y);
            if (negy) {
                *out = (tag){T_E, tw.y, 0};
                return true;
            }
            if (tw.kind == T_Q0 && is_k(u, tw.y)) {
                *out = (tag){T_P, tw.y, tw.x};
                return true;
            }
        }
        return false;
    }
    case GCN_ID_V_MUL_HI_U32:
        for (unsigned sw = 0; sw < 2; sw++) {
            iop u = sw ? b : a, w = sw ? a : b;
            tag tu = vtag(s, u), tw = vtag(s, w);
            if (tu.kind == T_Z0 && tw.kind == T_E && tu.y == tw.y) {
                *out = (tag){T_H, tu.y, 0};
                return true;
            }
            if (u.kind == IO_S && tw.kind == T_Z) {
                *out = (tag){T_Q0, tw.y, s->vn[u.reg]};
                return true;
            }
        }
        return false;
    case GCN_ID_V_ADD_U32:
        for (unsigned sw = 0; sw < 2; sw++) {
            iop u = sw ? b : a, w = sw ? a : b;
            tag tu = vtag(s, u), tw = vtag(s, w);
            if (tu.kind == T_Z0 && tw.kind == T_H && tu.y == tw.y) {
                *out = (tag){T_Z, tu.y, 0};
                return true;
            }
            if (is_k(u, 1) && (tw.kind == T_Q0 || tw.kind == T_Q1)) {
                *out = (tag){tw.kind == T_Q0 ? T_Q0P1 : T_Q1P1, tw.y, tw.x};
                return true;
            }
        }
        return false;
    case GCN_ID_V_SUB_U32: case GCN_ID_V_SUBREV_U32: {
        iop u = id == GCN_ID_V_SUB_U32 ? a : b, w = id == GCN_ID_V_SUB_U32 ? b : a;   /* u - w */
        tag tu = vtag(s, u), tw = vtag(s, w);
        if (u.kind == IO_S && tw.kind == T_P && s->vn[u.reg] == tw.x)
            *out = (tag){T_R0, tw.y, tw.x};
        else if (tu.kind == T_R0 && is_k(w, tu.y))
            *out = (tag){T_R0MY, tu.y, tu.x};
        return out->kind != T_NONE;
    }
    case GCN_ID_V_CMP_LE_U32: case GCN_ID_V_CMP_GE_U32: {
        iop yk = id == GCN_ID_V_CMP_LE_U32 ? a : b, r = id == GCN_ID_V_CMP_LE_U32 ? b : a;
        tag tr = vtag(s, r);
        if ((tr.kind == T_R0 || tr.kind == T_R1) && is_k(yk, tr.y))
            *out = (tag){tr.kind == T_R0 ? T_C1 : T_C2, tr.y, tr.x};
        return out->kind != T_NONE;
    }
    case GCN_ID_V_CNDMASK_B32: {
        /* vcc ? b : a */
        tag tc = c.kind == IO_VCC ? s->vcc : (tag){0, 0, 0};
        if (tc.kind == T_C1 && ta.kind == T_Q0 && tb.kind == T_Q0P1 && ta.x == tc.x && tb.x == tc.x)
            *out = (tag){T_Q1, tc.y, tc.x};
        else if (tc.kind == T_C1 && ta.kind == T_R0 && tb.kind == T_R0MY && ta.x == tc.x && tb.x == tc.x)
            *out = (tag){T_R1, tc.y, tc.x};
        else if (tc.kind == T_C2 && ta.kind == T_Q1 && tb.kind == T_Q1P1 && ta.x == tc.x && tb.x == tc.x)
            *out = (tag){T_Q2, tc.y, tc.x};
        if (out->kind && (ta.y != tc.y || tb.y != tc.y))
            out->kind = T_NONE;
        return out->kind != T_NONE;
    }
    default:
        return false;
    }
}

/* a plain VALU form: no DPP/SDWA, no VOP3 modifiers */
static bool plain(const gcn_insn *in)
{
    if (in->sub == GCN_SUB_DPP || in->sub == GCN_SUB_SDWA)
        return false;
    if (in->sub == GCN_SUB_E64 && (in->m.clamp || in->m.omod))
        return false;
    return true;
}

static void sgpr_written(ist *s, unsigned r)
{
    s->vn[r] = s->next++;
    s->isk[r] = false;
    s->sk[r].kind = 0;
    s->negy[r] = false;
}

static void block_pass(const gcn_cfg *cfg, const gcn_block *blk, ist *s, uint8_t *rem,
                       unsigned *nmark, gcn_idiv_quot *quot)
{
    memset(s->v, 0, sizeof s->v);
    s->vcc.kind = 0;
    for (unsigned r = 0; r < NSG; r++) {
        s->vn[r] = r;
        s->isk[r] = false;
        s->sk[r].kind = 0;
        s->negy[r] = false;
    }
    s->next = NSG;
    for (unsigned i = blk->first; i <= blk->last; i++) {
        const gcn_insn *in = &cfg->insn[i];
        const gcn_lfacts *f = &cfg->facts[i];
        gcn_regset w = f->defs;
        gcn_rs_or(&w, &f->adefs);
        iop a = iop_of(s, gcn_insn_field(in, GCN_FLD_SSRC0));
        iop b = iop_of(s, gcn_insn_field(in, GCN_FLD_SSRC1));
        const gcn_opnd *sd = f->alu == GCN_LA_V_READFIRSTLANE
                             ? (in->nopnds ? &in->op[0] : NULL) : gcn_insn_field(in, GCN_FLD_SDST);
        int d = sd && sd->kind == GCN_OPND_SGPR && sd->reg < NSG && sd->nregs <= 1 ? sd->reg : -1;
        /* scalar results worth keeping, computed before the writes */
        bool keep = false;
        bool nk = false, nneg = false;
        uint32_t kv = 0, negof = 0, vn = 0;
        tag nsk = {0, 0, 0};
        if (d >= 0) {
            switch (f->alu) {
            case GCN_LA_S_MOV:
                if (a.kind == IO_K) { keep = nk = true; kv = a.k; vn = s->next++; }
                else if (a.kind == IO_S) {
                    keep = true; vn = s->vn[a.reg]; nsk = s->sk[a.reg];
                    nneg = s->negy[a.reg]; negof = s->negy_of[a.reg];
                }
                break;
            case GCN_LA_S_MOVK:
                break;
            case GCN_LA_S_SUB:
                /* -y; or x' - floor(x / y) * y */
                if (is_k(a, 0) && b.kind == IO_K) {
                    keep = nneg = true; negof = b.k; vn = s->next++;
                } else if (a.kind == IO_S && b.kind == IO_S && s->sk[b.reg].kind == SK_MULQ &&
                           s->sk[b.reg].x == s->vn[a.reg] && s->sk[b.reg].y >= 2 &&
                           s->sk[b.reg].y <= 255 && !rem[i]) {
                    rem[i] = (uint8_t)s->sk[b.reg].y;
                    ++*nmark;
                }
                break;
            case GCN_LA_S_MUL:
                for (unsigned sw = 0; sw < 2; sw++) {
                    iop u = sw ? b : a, t = sw ? a : b;
                    if (u.kind == IO_S && s->sk[u.reg].kind == SK_QUOT && is_k(t, s->sk[u.reg].y)) {
                        keep = true; vn = s->next++;
                        nsk = (tag){SK_MULQ, s->sk[u.reg].y, s->sk[u.reg].x};
                        break;
                    }
                }
                break;
            case GCN_LA_V_READFIRSTLANE: {
                iop v = iop_of(s, gcn_insn_field(in, GCN_FLD_SRC0));
                tag tv = vtag(s, v);
                if (tv.kind == T_Q2) {
                    keep = true; vn = s->next++;
                    nsk = (tag){SK_QUOT, tv.y, tv.x};
                    /* the quotient, for the relations (relate.c): an SGPR
                     * that still holds the dividend here */
                    for (unsigned r = 0; quot && r < NSG; r++)
                        if (s->vn[r] == tv.x && !s->isk[r]) {
                            quot[i] = (gcn_idiv_quot){tv.y, (uint8_t)r};
                            break;
                        }
                }
                break;
            }
            default:
                break;
            }
        }
        /* the vector steps */
        tag vt = {0, 0, 0};
        int vd = -1;
        bool vccd = false;
        if ((f->alu == GCN_LA_V_READFIRSTLANE) || !plain(in)) {
            /* no vector result */
        } else {
            const gcn_opnd *dv = gcn_insn_field(in, GCN_FLD_VDST);
            iop s0 = iop_of(s, gcn_insn_field(in, GCN_FLD_SRC0));
            iop s1 = iop_of(s, gcn_insn_field(in, GCN_FLD_SRC1));
            iop s2 = iop_of(s, gcn_insn_field(in, GCN_FLD_SRC2));
            if (in->id == GCN_ID_V_CNDMASK_B32 && in->sub != GCN_SUB_E64)
                s2.kind = IO_VCC;
            if (vstep(s, in->id, s0, s1, s2, &vt)) {
                if (vt.kind == T_C1 || vt.kind == T_C2) {
                    /* the compare must write VCC */
                    const gcn_opnd *cd = in->nopnds ? &in->op[0] : NULL;
                    vccd = in->sub == GCN_SUB_E32 ||
                           (cd && cd->kind == GCN_OPND_SPECIAL && cd->reg == GCN_RS_VCC);
                } else if (dv && dv->kind == GCN_OPND_VGPR && dv->reg < NV && dv->nregs <= 1) {
                    vd = dv->reg;
                }
            }
        }
        /* writes drop what the registers held */
        if (w.s[GCN_RS_EXEC >> 6] >> (GCN_RS_EXEC & 63) & 1)
            memset(s->v, 0, sizeof s->v);
        if (w.s[GCN_RS_VCC >> 6] >> (GCN_RS_VCC & 63) & 3)
            s->vcc.kind = 0;
        for (unsigned k = 0; k < 4; k++)
            for (uint64_t m = w.v[k]; m; m &= m - 1)
                s->v[k * 64 + (unsigned)__builtin_ctzll(m)].kind = 0;
        for (unsigned k = 0; k < 2; k++)
            for (uint64_t m = w.s[k]; m; m &= m - 1) {
                unsigned r = k * 64 + (unsigned)__builtin_ctzll(m);
                if (r < NSG)
                    sgpr_written(s, r);
            }
        if (vd >= 0)
            s->v[vd] = vt;
        if (vccd)
            s->vcc = vt;
        if (keep && d >= 0) {
            s->vn[d] = vn;
            s->isk[d] = nk;
            s->k[d] = kv;
            s->sk[d] = nsk;
            s->negy[d] = nneg;
            s->negy_of[d] = negof;
        }
    }
}

unsigned gcn_idiv_mark(const gcn_cfg *cfg, uint8_t *rem)
{
    return gcn_idiv_scan(cfg, rem, NULL);
}

unsigned gcn_idiv_scan(const gcn_cfg *cfg, uint8_t *rem, gcn_idiv_quot *quot)
{
    static const unsigned need[] = {GCN_ID_V_CVT_F32_U32, GCN_ID_V_RCP_IFLAG_F32};
    unsigned nmark = 0;
    ist s;
    memset(rem, 0, cfg->ninsn);
    if (quot)
        memset(quot, 0, sizeof *quot * cfg->ninsn);
    for (unsigned b = 0; b < cfg->nblocks; b++) {
        const gcn_block *blk = &cfg->blocks[b];
        /* only blocks that hold the expansion's first two steps */
        bool has[2] = {false, false};
        for (unsigned i = blk->first; i <= blk->last; i++)
            for (unsigned k = 0; k < 2; k++)
                has[k] |= cfg->insn[i].id == need[k];
        if (has[0] && has[1])
            block_pass(cfg, blk, &s, rem, &nmark, quot);
    }
    return nmark;
}
