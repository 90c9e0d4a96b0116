/*
 * relate.c -- linear relations between scalar values that refute a pair of
 * SCC branch outcomes (relate.h), for the path facts of paths.c.
 *
 * A query: the edge from block b into block t (b's compare C1 with outcome
 * need1) and then t's compare C2 with outcome need2.  Each compare operand
 * is evaluated backwards through its reaching definition into a linear form
 * over atoms:
 *   - an SGPR's value at kernel entry, or a result the evaluation does not
 *     follow (a load, a join of different definitions): a free atom;
 *   - q = floor(x / y) for `s_lshr_b32 q, x, k` (y = 2^k) and for the
 *     quotient of LLVM's 32-bit division sequence (idiv.h): an atom with
 *     y*q <= x <= y*q + y - 1 and q >= 0;
 *   - adds, subtracts, moves, multiplies and shifts left by constants;
 *   - s_cselect_b32: a case split, each case with its compare's outcome;
 *   - a register that a loop header joins (a different definition around
 *     the back edge): a case split, the first iteration (the value from
 *     before the loop) or a later one (the back edge's definition, its own
 *     header values then atoms within the zone's bounds at the header).
 * Definitions outside loops run at most once, so one atom serves every use
 * in a case; a definition inside a loop is evaluated again at each use.
 * Each case's inequalities are refuted by Fourier-Motzkin elimination over
 * the integers (each derived row divided by the gcd of its coefficients,
 * the bound rounded down), in two orders: exact eliminations first (the
 * Omega test's: an atom with coefficients +-1 on one side), then the fewest
 * new rows; a case that neither refutes proves nothing.
 */
#include <stdlib.h>
#include <string.h>
#include "relate.h"
#include "idiv.h"
#include "gcn_isa.h"

#define NS 106u                 /* s0..s105 */
#define RA 24u                  /* atoms per case */
#define RC 64u                  /* inequalities per case (more are dropped: weaker) */
#define RM 64u                  /* remembered values per case */
#define RCH 16u                 /* case splits per case */
#define RH 8u                   /* loop headers split per case */
#define FM_ROWS 384u            /* Fourier-Motzkin rows before giving up */
#define QUERY_CASES 64u
#define KERNEL_CASES 4096u
#define DEPTH 48
#define BIG (1ll << 40)

#define RD_UNSET INT32_MIN
#define RD_ENTRY (-1)
#define RD_MULTI (-2)
#define RD_PHI(h) (-3 - (int32_t)(h))
#define RNONE 0xFFFFFFFFu

/* sum c[a] * atom_a + c[RA] */
typedef struct lin { int64_t c[RA + 1]; } lin;

enum { MK_DEF = 1, MK_ENTRY, MK_PHI };
typedef struct memo { uint8_t kind, level; uint16_t reg; unsigned key; lin v; } memo;

typedef struct rop { int kind; unsigned reg; int64_t k; } rop;
enum { RO_NONE = 0, RO_CONST, RO_SGPR };

struct gcn_relate {
    const gcn_cfg *cfg;
    gcn_relate_bound_fn bound;
    void *ctx;
    bool built, failed;
    unsigned budget;
    int32_t *rin, *rout;        /* per block, per SGPR: reaching definition at entry / exit */
    uint8_t *rem;
    gcn_idiv_quot *quot;
    lin *fm;                    /* 2 * FM_ROWS rows */
    /* the query */
    unsigned kb, tb, c2;
    bool via;                   /* evaluating in C2's visit of t */
    /* the case */
    unsigned natoms, ncons, nmemo, nh;
    lin cons[RC];
    memo mm[RM];
    unsigned hh[RH];
    uint8_t hc[RH];
    uint8_t seq[RCH];
    unsigned len, pos;
    unsigned curh;
    int depth;
    bool abort;
};

/* ---- small helpers --------------------------------------------------------- */

static bool writes(const gcn_cfg *cfg, unsigned i, unsigned r)
{
    gcn_regset w = cfg->facts[i].defs;
    gcn_rs_or(&w, &cfg->facts[i].adefs);
    return (w.s[r >> 6] >> (r & 63)) & 1u;
}

static rop rop_of(const gcn_opnd *o)
{
    rop r = {RO_NONE, 0, 0};
    if (!o || (o->flags & (GCN_OPF_NEG | GCN_OPF_ABS)))
        return r;
    if (o->kind == GCN_OPND_SGPR && o->reg < NS && o->nregs <= 1) {
        r.kind = RO_SGPR;
        r.reg = o->reg;
    } else if (o->kind == GCN_OPND_INLINE && o->reg >= 128 && o->reg <= 208) {
        r.kind = RO_CONST;
        r.k = (int32_t)gcn_inline_value(o->reg, GCN_DT_I32);
    } else if (o->kind == GCN_OPND_LITERAL) {
        r.kind = RO_CONST;
        r.k = (int32_t)(uint32_t)o->imm;
    }
    return r;
}

static int64_t simm16_of(const gcn_insn *in)
{
    const gcn_opnd *im = gcn_insn_field(in, GCN_FLD_SIMM16);
    return im ? (int16_t)(uint16_t)im->imm : 0;
}

static void l_const(lin *x, int64_t k)
{
    memset(x, 0, sizeof *x);
    x->c[RA] = k;
}

static bool l_isconst(const lin *x)
{
    for (unsigned a = 0; a < RA; a++)
        if (x->c[a])
            return false;
    return true;
}

/* x = x + m * y; false when a coefficient grows past BIG */
static bool l_addm(lin *x, const lin *y, int64_t m)
{
    for (unsigned a = 0; a <= RA; a++) {
        int64_t v = x->c[a] + m * y->c[a];
        if (v > BIG || v < -BIG)
            return false;
        x->c[a] = v;
    }
    return true;
}

static bool l_scale(lin *x, int64_t m)
{
    for (unsigned a = 0; a <= RA; a++) {
        int64_t v = x->c[a] * m;
        if (v > BIG || v < -BIG)
            return false;
        x->c[a] = v;
    }
    return true;
}

static void new_atom(gcn_relate *R, lin *out)
{
    l_const(out, 0);
    if (R->natoms >= RA) {
        R->abort = true;
        return;
    }
    out->c[R->natoms++] = 1;
}

/* x <= 0 (dropped when the case has too many: a weaker case) */
static void add_le0(gcn_relate *R, const lin *x)
{
    if (R->ncons < RC)
        R->cons[R->ncons++] = *x;
}

/* lo <= x <= hi */
static void add_range(gcn_relate *R, const lin *x, int64_t lo, int64_t hi)
{
    lin t = *x;
    if (hi < BIG) {
        t.c[RA] -= hi;
        add_le0(R, &t);
    }
    t = *x;
    if (lo > -BIG && l_scale(&t, -1)) {
        t.c[RA] += lo;
        add_le0(R, &t);
    }
}

static int choose(gcn_relate *R)
{
    if (R->pos < R->len)
        return R->seq[R->pos++];
    if (R->len >= RCH) {
        R->abort = true;
        return 0;
    }
    R->seq[R->len++] = 0;
    R->pos++;
    return 0;
}

static memo *memo_find(gcn_relate *R, uint8_t kind, unsigned key, unsigned reg, uint8_t level)
{
    for (unsigned m = 0; m < R->nmemo; m++)
        if (R->mm[m].kind == kind && R->mm[m].key == key && R->mm[m].reg == reg &&
            R->mm[m].level == level)
            return &R->mm[m];
    return NULL;
}

static void memo_put(gcn_relate *R, uint8_t kind, unsigned key, unsigned reg, uint8_t level,
                     const lin *v)
{
    if (R->nmemo < RM)
        R->mm[R->nmemo++] = (memo){kind, level, (uint16_t)reg, key, *v};
    else
        R->abort = true;        /* a second, different atom would lose the equality */
}

/* ---- reaching definitions ------------------------------------------------------
 * Per block entry and SGPR: the one instruction whose result every path
 * brings (an index), RD_ENTRY (the value at kernel entry on every path),
 * RD_PHI(h) (loop header h joins different values: the value at h),
 * RD_MULTI (another join of different values) or RD_UNSET (not reached).
 * At a header, the back edges count only when they bring something other
 * than the header's own value or a definition outside the loop that the
 * entry also brings; so a definition inside a loop that reaches a use
 * without a header join in between ran in the use's iteration. */

/* True when every cycle of the CFG passes a natural loop's header: each
 * edge into a block on the depth-first stack goes to a block that
 * dominates its source.  Otherwise a block outside all loops may run more
 * than once, and its definitions cannot be one atom. */
static bool reducible(const gcn_cfg *cfg)
{
    unsigned nb = cfg->nblocks;
    unsigned *stk = malloc(sizeof *stk * (nb ? nb : 1)), *next = calloc(nb ? nb : 1, sizeof *next);
    uint8_t *st = calloc(nb ? nb : 1, 1);       /* 1 on the stack, 2 done */
    bool ok = stk && next && st;
    unsigned n = 0;
    if (ok && nb) {
        stk[n++] = 0;
        st[0] = 1;
    }
    while (ok && n) {
        unsigned b = stk[n - 1];
        if (next[b] < cfg->blocks[b].nsucc) {
            unsigned s = cfg->blocks[b].succ[next[b]++];
            if (st[s] == 1 && !gcn_cfg_dominates(cfg, s, b))
                ok = false;
            else if (!st[s]) {
                st[s] = 1;
                stk[n++] = s;
            }
        } else {
            st[b] = 2;
            n--;
        }
    }
    free(stk);
    free(next);
    free(st);
    return ok;
}

static int rd_build(gcn_relate *R)
{
    const gcn_cfg *cfg = R->cfg;
    unsigned nb = cfg->nblocks;
    if (!reducible(cfg))
        return -1;
    size_t sz = (size_t)nb * NS;
    int32_t *last = malloc(sizeof *last * (sz ? sz : 1));
    R->rin = malloc(sizeof *R->rin * (sz ? sz : 1));
    R->rout = malloc(sizeof *R->rout * (sz ? sz : 1));
    if (!last || !R->rin || !R->rout) {
        free(last);
        return -1;
    }
    for (size_t k = 0; k < sz; k++)
        last[k] = R->rin[k] = R->rout[k] = RD_UNSET;
    for (unsigned b = 0; b < nb; b++)
        for (unsigned i = cfg->blocks[b].first; i <= cfg->blocks[b].last; i++) {
            gcn_regset w = cfg->facts[i].defs;
            gcn_rs_or(&w, &cfg->facts[i].adefs);
            for (unsigned k = 0; k < 2; k++)
                for (uint64_t m = w.s[k]; m; m &= m - 1) {
                    unsigned r = k * 64 + (unsigned)__builtin_ctzll(m);
                    if (r < NS)
                        last[(size_t)b * NS + r] = (int32_t)i;
                }
        }
    bool changed = true;
    for (unsigned sweep = 0; changed; sweep++) {
        if (sweep > 64) {
            free(last);
            return -1;
        }
        changed = false;
        for (unsigned b = 0; b < nb; b++) {
            const gcn_block *blk = &cfg->blocks[b];
            if (!blk->reachable)
                continue;
            for (unsigned r = 0; r < NS; r++) {
                int32_t v0 = b == 0 ? RD_ENTRY : RD_UNSET;
                bool phi = false;
                for (unsigned p = 0; p < blk->npred; p++) {
                    unsigned q = blk->pred[p];
                    if (blk->header && gcn_cfg_dominates(cfg, b, q))
                        continue;
                    int32_t v = R->rout[(size_t)q * NS + r];
                    if (v == RD_UNSET)
                        continue;
                    if (v0 == RD_UNSET)
                        v0 = v;
                    else if (v0 != v)
                        v0 = RD_MULTI;
                }
                if (blk->header)
                    for (unsigned p = 0; p < blk->npred && !phi; p++) {
                        unsigned q = blk->pred[p];
                        if (!gcn_cfg_dominates(cfg, b, q))
                            continue;
                        int32_t v = R->rout[(size_t)q * NS + r];
                        if (v == RD_UNSET || v == RD_PHI(b))
                            continue;
                        if (v == v0 && (v0 < 0 || !gcn_cfg_dominates(cfg, b, cfg->block_of[v0])))
                            continue;
                        phi = true;
                    }
                int32_t in = phi ? RD_PHI(b) : v0;
                size_t x = (size_t)b * NS + r;
                int32_t out = last[x] != RD_UNSET ? last[x] : in;
                if (in != R->rin[x] || out != R->rout[x]) {
                    R->rin[x] = in;
                    R->rout[x] = out;
                    changed = true;
                }
            }
        }
    }
    free(last);
    return 0;
}

/* ---- symbolic evaluation ------------------------------------------------------- */

static void eval_reg(gcn_relate *R, unsigned r, unsigned b, unsigned i, uint8_t level, lin *out);
static void cond(gcn_relate *R, unsigned j, uint8_t level, bool holds);

static void eval_op(gcn_relate *R, const rop *o, unsigned b, unsigned i, uint8_t level, lin *out)
{
    if (o->kind == RO_CONST)
        l_const(out, o->k);
    else if (o->kind == RO_SGPR)
        eval_reg(R, o->reg, b, i, level, out);
    else
        new_atom(R, out);
}

/* q = floor(x / y) */
static void fdiv(gcn_relate *R, const lin *x, int64_t y, lin *out)
{
    if (l_isconst(x)) {
        /* a constant: the instruction's own 32-bit result */
        l_const(out, (int64_t)((uint32_t)x->c[RA] / (uint64_t)y));
        return;
    }
    new_atom(R, out);
    if (R->abort)
        return;
    lin t = *out;               /* y*q - x <= 0 */
    if (!l_scale(&t, y) || !l_addm(&t, x, -1))
        return;
    add_le0(R, &t);
    t = *x;                     /* x - y*q - (y - 1) <= 0 */
    if (!l_addm(&t, out, -y))
        return;
    t.c[RA] -= y - 1;
    add_le0(R, &t);
    t = *out;                   /* -q <= 0 */
    l_scale(&t, -1);
    add_le0(R, &t);
}

static void eval_def(gcn_relate *R, unsigned d, unsigned r, uint8_t level, lin *out)
{
    const gcn_cfg *cfg = R->cfg;
    unsigned bd = cfg->block_of[d];
    bool once = cfg->blocks[bd].loop == GCN_NOBLOCK;
    if (once) {
        memo *m = memo_find(R, MK_DEF, d, r, 0);
        if (m) {
            *out = m->v;
            return;
        }
    }
    const gcn_insn *in = &cfg->insn[d];
    const gcn_lfacts *f = &cfg->facts[d];
    const gcn_opnd *dst = f->alu == GCN_LA_V_READFIRSTLANE ? (in->nopnds ? &in->op[0] : NULL)
                                                          : gcn_insn_field(in, GCN_FLD_SDST);
    rop a = rop_of(gcn_insn_field(in, GCN_FLD_SSRC0)), b = rop_of(gcn_insn_field(in, GCN_FLD_SSRC1));
    lin x, y;
    bool single = dst && dst->kind == GCN_OPND_SGPR && dst->reg == r && dst->nregs <= 1;
    if (!single || R->depth >= DEPTH) {
        new_atom(R, out);
        goto done;
    }
    R->depth++;
    switch (f->alu) {
    case GCN_LA_S_MOV:
        eval_op(R, &a, bd, d, level, out);
        break;
    case GCN_LA_S_MOVK:
        l_const(out, simm16_of(in));
        break;
    case GCN_LA_S_ADD: case GCN_LA_S_SUB:
        eval_op(R, &a, bd, d, level, &x);
        eval_op(R, &b, bd, d, level, &y);
        *out = x;
        if (!l_addm(out, &y, f->alu == GCN_LA_S_SUB ? -1 : 1))
            new_atom(R, out);
        break;
    case GCN_LA_S_ADDK: case GCN_LA_S_MULK:
        eval_reg(R, r, bd, d, level, out);
        if (f->alu == GCN_LA_S_ADDK)
            out->c[RA] += simm16_of(in);
        else if (!l_scale(out, simm16_of(in)))
            new_atom(R, out);
        break;
    case GCN_LA_S_MUL:
        if (a.kind == RO_CONST || b.kind == RO_CONST) {
            const rop *v = a.kind == RO_CONST ? &b : &a;
            eval_op(R, v, bd, d, level, out);
            if (!l_scale(out, a.kind == RO_CONST ? a.k : b.k))
                new_atom(R, out);
        } else {
            new_atom(R, out);
        }
        break;
    case GCN_LA_S_LSHL:
        if (b.kind == RO_CONST && b.k >= 0 && b.k <= 30) {
            eval_op(R, &a, bd, d, level, out);
            if (!l_scale(out, 1ll << b.k))
                new_atom(R, out);
        } else {
            new_atom(R, out);
        }
        break;
    case GCN_LA_S_LSHR:
        if (b.kind == RO_CONST && b.k >= 1 && b.k <= 30) {
            if (a.kind == RO_CONST) {
                l_const(out, (int64_t)((uint32_t)a.k >> b.k));
                break;
            }
            eval_op(R, &a, bd, d, level, &x);
            fdiv(R, &x, 1ll << b.k, out);
        } else {
            new_atom(R, out);
        }
        break;
    case GCN_LA_V_READFIRSTLANE:
        if (R->quot && R->quot[d].y >= 2 && R->quot[d].y < (1u << 30)) {
            eval_reg(R, R->quot[d].src, bd, d, level, &x);
            fdiv(R, &x, R->quot[d].y, out);
        } else {
            new_atom(R, out);
        }
        break;
    case GCN_LA_S_CSELECT: {
        /* SCC ? a : b, SCC from the compare before it in the block */
        int j = -1;
        for (unsigned k = d; k-- > cfg->blocks[bd].first;)
            if (cfg->facts[k].flags & GCN_F_WR_SCC) {
                j = (int)k;
                break;
            }
        int c = choose(R);
        if (j >= 0 && !R->abort)
            cond(R, (unsigned)j, level, c == 1);
        eval_op(R, c == 1 ? &a : &b, bd, d, level, out);
        break;
    }
    default:
        new_atom(R, out);
        break;
    }
    R->depth--;
done:
    if (once && !R->abort)
        memo_put(R, MK_DEF, d, r, 0, out);
}

static bool same_out(gcn_relate *R, unsigned h, unsigned r, bool back, unsigned *from)
{
    const gcn_cfg *cfg = R->cfg;
    const gcn_block *hb = &cfg->blocks[h];
    int32_t v = RD_UNSET;
    *from = RNONE;
    for (unsigned p = 0; p < hb->npred; p++) {
        unsigned q = hb->pred[p];
        if (gcn_cfg_dominates(cfg, h, q) != back)
            continue;
        int32_t w = R->rout[(size_t)q * NS + r];
        if (w == RD_UNSET)
            continue;
        if (w == RD_MULTI || (v != RD_UNSET && w != v))
            return false;
        v = w;
        *from = q;
    }
    return *from != RNONE;
}

/* The constant an SGPR holds after instruction d (s_mov / s_movk of one). */
static bool def_const(const gcn_relate *R, int32_t d, unsigned r, int64_t *k)
{
    if (d < 0)
        return false;
    const gcn_insn *in = &R->cfg->insn[d];
    const gcn_opnd *dst = gcn_insn_field(in, GCN_FLD_SDST);
    if (!dst || dst->kind != GCN_OPND_SGPR || dst->reg != r || dst->nregs > 1)
        return false;
    if (R->cfg->facts[d].alu == GCN_LA_S_MOVK) {
        *k = simm16_of(in);
        return true;
    }
    rop a = rop_of(gcn_insn_field(in, GCN_FLD_SSRC0));
    if (R->cfg->facts[d].alu != GCN_LA_S_MOV || a.kind != RO_CONST)
        return false;
    *k = a.k;
    return true;
}

/* A counter at header h: a constant c on entry, and every back edge brings
 * one `s_addk_i32 r, k` (or s_add of a constant) of the header's own value,
 * k of one sign: r >= c (k > 0) or r <= c (k < 0) in every iteration (the
 * no-wrap assumption).  For registers the zone does not track. */
static bool iv_bound(const gcn_relate *R, unsigned h, unsigned r, int64_t *lo, int64_t *hi)
{
    const gcn_cfg *cfg = R->cfg;
    const gcn_block *hb = &cfg->blocks[h];
    int64_t c = 0;
    bool have_c = false, up = false, down = false;
    for (unsigned p = 0; p < hb->npred; p++) {
        unsigned q = hb->pred[p];
        int32_t v = R->rout[(size_t)q * NS + r];
        if (v == RD_UNSET)
            continue;
        if (!gcn_cfg_dominates(cfg, h, q)) {
            int64_t k;
            if (!def_const(R, v, r, &k) || (have_c && k != c))
                return false;
            c = k;
            have_c = true;
            continue;
        }
        if (v == RD_PHI(h))
            continue;
        if (v < 0)
            return false;
        const gcn_insn *in = &cfg->insn[v];
        const gcn_lfacts *f = &cfg->facts[v];
        const gcn_opnd *dst = gcn_insn_field(in, GCN_FLD_SDST);
        if (!dst || dst->kind != GCN_OPND_SGPR || dst->reg != r || dst->nregs > 1)
            return false;
        int64_t step;
        if (f->alu == GCN_LA_S_ADDK) {
            step = simm16_of(in);
        } else if (f->alu == GCN_LA_S_ADD) {
            rop a = rop_of(gcn_insn_field(in, GCN_FLD_SSRC0)), b = rop_of(gcn_insn_field(in, GCN_FLD_SSRC1));
            if (a.kind == RO_SGPR && a.reg == r && b.kind == RO_CONST)
                step = b.k;
            else if (b.kind == RO_SGPR && b.reg == r && a.kind == RO_CONST)
                step = a.k;
            else
                return false;
        } else {
            return false;
        }
        /* its input: the header's value (no other write of r before it) */
        unsigned bv = cfg->block_of[v];
        for (unsigned j = (unsigned)v; j-- > cfg->blocks[bv].first;)
            if (writes(cfg, j, r))
                return false;
        if (R->rin[(size_t)bv * NS + r] != RD_PHI(h))
            return false;
        up |= step > 0;
        down |= step < 0;
    }
    if (!have_c || up == down)
        return false;
    *lo = up ? c : INT64_MIN;
    *hi = up ? INT64_MAX : c;
    return true;
}

/* the value of r at loop header h (a join of different definitions) */
static void eval_phi(gcn_relate *R, unsigned h, unsigned r, uint8_t level, lin *out)
{
    const gcn_cfg *cfg = R->cfg;
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    bool bounded = R->bound && R->bound(R->ctx, h, r, &lo, &hi);
    int64_t ilo, ihi;
    if (iv_bound(R, h, r, &ilo, &ihi)) {
        lo = bounded && lo > ilo ? lo : ilo;
        hi = bounded && hi < ihi ? hi : ihi;
        bounded = true;
    }
    if (level >= 1) {
        /* inside a later iteration's back edge: the header's value of the
         * iteration before, known only by the zone's bounds */
        memo *m = h == R->curh ? memo_find(R, MK_PHI, h, r, 1) : NULL;
        if (m) {
            *out = m->v;
            return;
        }
        new_atom(R, out);
        if (bounded && !R->abort)
            add_range(R, out, lo, hi);
        if (h == R->curh && !R->abort)
            memo_put(R, MK_PHI, h, r, 1, out);
        return;
    }
    memo *m = memo_find(R, MK_PHI, h, r, 0);
    if (m) {
        *out = m->v;
        return;
    }
    /* which iteration of h this case is in: one choice per header */
    int c = -1;
    for (unsigned k = 0; k < R->nh; k++)
        if (R->hh[k] == h)
            c = R->hc[k];
    if (c < 0) {
        if (R->nh >= RH) {
            R->abort = true;
            return;
        }
        c = choose(R);
        R->hh[R->nh] = h;
        R->hc[R->nh++] = (uint8_t)c;
    }
    unsigned from;
    if (!same_out(R, h, r, c == 1, &from) || (c == 1 && R->curh != RNONE)) {
        new_atom(R, out);
    } else if (c == 0) {
        eval_reg(R, r, from, cfg->blocks[from].last + 1, 0, out);
    } else {
        R->curh = h;
        eval_reg(R, r, from, cfg->blocks[from].last + 1, 1, out);
        R->curh = RNONE;
    }
    if (bounded && !R->abort)
        add_range(R, out, lo, hi);
    if (!R->abort)
        memo_put(R, MK_PHI, h, r, 0, out);
}

/* the value of SGPR r before instruction i of block b */
static void eval_reg(gcn_relate *R, unsigned r, unsigned b, unsigned i, uint8_t level, lin *out)
{
    const gcn_cfg *cfg = R->cfg;
    if (R->abort) {
        l_const(out, 0);
        return;
    }
    const gcn_block *blk = &cfg->blocks[b];
    for (unsigned j = i; j-- > blk->first;)
        if (writes(cfg, j, r)) {
            eval_def(R, j, r, level, out);
            return;
        }
    if (level == 0 && R->via && b == R->tb && i <= R->c2) {
        /* t's visit that C2 is in, as entered from b: what b's end holds
         * (an older visit of t, reached back from there, is not) */
        R->via = false;
        eval_reg(R, r, R->kb, cfg->blocks[R->kb].last + 1, 0, out);
        R->via = true;
        return;
    }
    int32_t v = R->rin[(size_t)b * NS + r];
    if (v >= 0) {
        eval_def(R, (unsigned)v, r, level, out);
    } else if (v == RD_ENTRY) {
        memo *m = memo_find(R, MK_ENTRY, 0, r, 0);
        if (m) {
            *out = m->v;
            return;
        }
        new_atom(R, out);
        if (!R->abort)
            memo_put(R, MK_ENTRY, 0, r, 0, out);
    } else if (v <= -3 && v != RD_UNSET) {
        eval_phi(R, (unsigned)(-3 - v), r, level, out);
    } else {
        new_atom(R, out);
    }
}

/* the inequalities of compare j's outcome */
static void cond(gcn_relate *R, unsigned j, uint8_t level, bool holds)
{
    const gcn_cfg *cfg = R->cfg;
    const gcn_insn *in = &cfg->insn[j];
    const gcn_lfacts *f = &cfg->facts[j];
    if (f->alu < GCN_LA_S_CMP_LT || f->alu > GCN_LA_S_CMP_NE)
        return;
    rop a = rop_of(gcn_insn_field(in, GCN_FLD_SSRC0)), b = rop_of(gcn_insn_field(in, GCN_FLD_SSRC1));
    if (a.kind == RO_NONE || b.kind == RO_NONE)
        return;
    bool uns = (f->fx & GCN_FX_UNSIGNED) != 0;
    if (uns && ((a.kind == RO_CONST && a.k < 0) || (b.kind == RO_CONST && b.k < 0)))
        return;
    unsigned bj = cfg->block_of[j];
    lin x, y, t;
    eval_op(R, &a, bj, j, level, &x);
    eval_op(R, &b, bj, j, level, &y);
    if (R->abort)
        return;
    if (uns) {
        /* the no-wrap assumption: both in [0, 2^31) */
        add_range(R, &x, 0, 0x7FFFFFFF);
        add_range(R, &y, 0, 0x7FFFFFFF);
    }
    unsigned op = f->alu;
    if (!holds) {
        switch (op) {
        case GCN_LA_S_CMP_LT: op = GCN_LA_S_CMP_GE; break;
        case GCN_LA_S_CMP_LE: op = GCN_LA_S_CMP_GT; break;
        case GCN_LA_S_CMP_GT: op = GCN_LA_S_CMP_LE; break;
        case GCN_LA_S_CMP_GE: op = GCN_LA_S_CMP_LT; break;
        case GCN_LA_S_CMP_EQ: op = GCN_LA_S_CMP_NE; break;
        default: op = GCN_LA_S_CMP_EQ; break;
        }
    }
    if (op == GCN_LA_S_CMP_NE)      /* x < y or x > y */
        op = choose(R) ? GCN_LA_S_CMP_GT : GCN_LA_S_CMP_LT;
    t = x;                          /* t = x - y */
    if (!l_addm(&t, &y, -1))
        return;
    switch (op) {
    case GCN_LA_S_CMP_LT: t.c[RA] += 1; add_le0(R, &t); break;
    case GCN_LA_S_CMP_LE: add_le0(R, &t); break;
    case GCN_LA_S_CMP_GT: l_scale(&t, -1); t.c[RA] += 1; add_le0(R, &t); break;
    case GCN_LA_S_CMP_GE: l_scale(&t, -1); add_le0(R, &t); break;
    case GCN_LA_S_CMP_EQ: add_le0(R, &t); l_scale(&t, -1); add_le0(R, &t); break;
    default: break;
    }
}

/* ---- Fourier-Motzkin ------------------------------------------------------------ */

static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int64_t floor_div(int64_t a, int64_t b)     /* b > 0 */
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Divide the row by the gcd of its coefficients (the bound rounded down:
 * exact over the integers).  -1: the row alone is false; 1: always true;
 * 0: a real row. */
static int row_norm(lin *x, unsigned na)
{
    int64_t g = 0;
    for (unsigned a = 0; a < na; a++)
        g = gcd64(g, x->c[a]);
    if (!g)
        return x->c[RA] > 0 ? -1 : 1;
    if (g > 1) {
        for (unsigned a = 0; a < na; a++)
            x->c[a] /= g;
        x->c[RA] = -floor_div(-x->c[RA], g);
    }
    return 0;
}

/* false when the case's inequalities have no integer solution, by
 * eliminating atoms in one order: exact_first prefers an atom whose
 * coefficients on one side (all its lower bounds, or all its upper
 * bounds) are +-1, where the rational shadow is the integer one (the
 * Omega test's exact elimination: each lower bound L_i is an integer, so
 * max L_i <= U_j / b_j for all j leaves an integer between), so no
 * integer fact of the atom (e.g. s2 >= 0 from 0 <= q <= 3*s2 + 2) is lost
 * before its rows combine; otherwise, and among those, the atom with the
 * fewest new rows. */
static bool feasible_order(gcn_relate *R, bool exact_first)
{
    unsigned na = R->natoms, n = 0;
    lin *rows = R->fm, *next = R->fm + FM_ROWS;
    for (unsigned k = 0; k < R->ncons; k++) {
        lin x = R->cons[k];
        int s = row_norm(&x, na);
        if (s < 0)
            return false;
        if (s == 0)
            rows[n++] = x;
    }
    bool gone[RA] = {false};
    for (unsigned step = 0; step < na; step++) {
        /* the atom with the fewest new rows */
        unsigned best = RNONE;
        uint64_t cost = UINT64_MAX;
        for (unsigned a = 0; a < na; a++) {
            if (gone[a])
                continue;
            uint64_t p = 0, q = 0;
            bool up1 = true, lo1 = true;
            for (unsigned k = 0; k < n; k++) {
                p += rows[k].c[a] > 0;
                q += rows[k].c[a] < 0;
                up1 &= rows[k].c[a] <= 1;
                lo1 &= rows[k].c[a] >= -1;
            }
            uint64_t c = p * q;
            if (exact_first && !up1 && !lo1)
                c += (uint64_t)FM_ROWS * FM_ROWS;
            if (c < cost) {
                cost = c;
                best = a;
            }
        }
        if (best == RNONE)
            break;
        gone[best] = true;
        unsigned m = 0;
        for (unsigned k = 0; k < n; k++)
            if (rows[k].c[best] == 0)
                next[m++] = rows[k];
        for (unsigned p = 0; p < n; p++) {
            if (rows[p].c[best] <= 0)
                continue;
            for (unsigned q = 0; q < n; q++) {
                if (rows[q].c[best] >= 0)
                    continue;
                if (m >= FM_ROWS)
                    return true;            /* too many: not refuted */
                lin x = rows[p];
                if (!l_scale(&x, -rows[q].c[best]) || !l_addm(&x, &rows[q], rows[p].c[best]))
                    return true;
                x.c[best] = 0;
                int s = row_norm(&x, na);
                if (s < 0)
                    return false;
                if (s == 0)
                    next[m++] = x;
            }
        }
        lin *sw = rows;
        rows = next;
        next = sw;
        n = m;
    }
    return true;
}

/* false when some elimination order refutes the case: the exact-first one,
 * then the fewest-rows one (each sound: a combined row follows from its two
 * rows, and rounding its bound is exact over the integers) */
static bool feasible(gcn_relate *R)
{
    return feasible_order(R, true) && feasible_order(R, false);
}

/* ---- the query --------------------------------------------------------------------- */

gcn_relate *gcn_relate_new(const gcn_cfg *cfg, gcn_relate_bound_fn bound, void *ctx)
{
    gcn_relate *R = calloc(1, sizeof *R);
    if (!R)
        return NULL;
    R->cfg = cfg;
    R->bound = bound;
    R->ctx = ctx;
    R->budget = KERNEL_CASES;
    return R;
}

void gcn_relate_free(gcn_relate *R)
{
    if (!R)
        return;
    free(R->rin);
    free(R->rout);
    free(R->rem);
    free(R->quot);
    free(R->fm);
    free(R);
}

/* the compare that sets SCC for block b's branch, in b; else RNONE */
static unsigned cmp_of(const gcn_cfg *cfg, unsigned b)
{
    const gcn_block *blk = &cfg->blocks[b];
    for (unsigned k = blk->last; k-- > blk->first;)
        if (cfg->facts[k].flags & GCN_F_WR_SCC)
            return cfg->facts[k].alu >= GCN_LA_S_CMP_LT && cfg->facts[k].alu <= GCN_LA_S_CMP_NE
                   ? k : RNONE;
    return RNONE;
}

bool gcn_relate_refute(gcn_relate *R, unsigned b, unsigned t, int need1, int need2)
{
    if (!R || R->failed || !R->budget || need1 < 0 || need2 < 0)
        return false;
    const gcn_cfg *cfg = R->cfg;
    if (cfg->blocks[t].header || t == b)
        return false;
    unsigned c1 = cmp_of(cfg, b), c2 = cmp_of(cfg, t);
    if (c1 == RNONE || c2 == RNONE)
        return false;
    if (!R->built) {
        R->built = true;
        R->rem = malloc(cfg->ninsn ? cfg->ninsn : 1);
        R->quot = malloc(sizeof *R->quot * (cfg->ninsn ? cfg->ninsn : 1));
        R->fm = malloc(sizeof *R->fm * FM_ROWS * 2);
        if (!R->rem || !R->quot || !R->fm || rd_build(R) < 0) {
            R->failed = true;
            return false;
        }
        gcn_idiv_scan(cfg, R->rem, R->quot);
    }
    R->kb = b;
    R->tb = t;
    R->c2 = c2;
    R->len = 0;
    for (unsigned cases = 0;; cases++) {
        if (cases >= QUERY_CASES || !R->budget)
            return false;
        R->budget--;
        R->natoms = R->ncons = R->nmemo = R->nh = 0;
        R->pos = 0;
        R->curh = RNONE;
        R->depth = 0;
        R->abort = false;
        R->via = false;
        cond(R, c1, 0, need1 == 1);
        R->via = true;
        if (!R->abort)
            cond(R, c2, 0, need2 == 1);
        if (R->abort || feasible(R))
            return false;
        /* the next case: the last choice not yet taken both ways */
        while (R->len && R->seq[R->len - 1])
            R->len--;
        if (!R->len)
            return true;
        R->seq[R->len - 1] = 1;
    }
}
