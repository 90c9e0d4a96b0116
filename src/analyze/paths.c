/*
 * paths.c -- scalar facts that decide SCC branches along a path (paths.h).
 *
 * Two parts:
 *  1. A static analysis over the CFG (once per kernel): per block entry the
 *     known bits of s0..s105 and a zone over up to PT_MAX compared SGPRs
 *     (z[i][j] bounds x_i - x_j; index 0 is the constant 0).  Edges of an
 *     SCC branch after s_cmp add the compare's outcome as a bound; an edge
 *     whose bounds contradict is dead.  From it, per edge into a join block,
 *     the facts that the edge knows and the join loses ("births"), and per
 *     block the SGPRs whose value may still decide a branch (live).
 *  2. The path facts (gcn_pstate) that the exploration carries: evaluated
 *     through mov/add/sub/and/or/shifts, killed by any other write, dropped
 *     where dead, used to decide compares.
 * Facts come from LLVM-independent arithmetic only; the instruction classes
 * (GCN_LA_*) come from the facts table, never from mnemonics.
 */
#include <stdlib.h>
#include <string.h>
#include "paths.h"
#include "idiv.h"
#include "relate.h"
#include "gcn_isa.h"

#define NS 106u                 /* s0..s105 */
#define PT_MAX 16u              /* registers in the zone */
#define ZINF 0x3FFFFFFF         /* no bound */
#define VISIT_WIDEN 3u          /* block visits before a changing bound widens */

typedef struct kbits { uint32_t m, v; } kbits;

/* an operand: a constant, an SGPR, or neither */
typedef struct popnd { int kind; int reg; int64_t k; } popnd;
enum { PO_NONE = 0, PO_CONST, PO_SGPR };

/* the compare that sets SCC for a block's branch */
typedef struct pcmp {
    bool ok;
    bool uns;                   /* s_cmp_*_u32: both operands taken as non-negative */
    uint8_t op;                 /* GCN_LA_S_CMP_* - GCN_LA_S_CMP_LT */
    popnd a, b;
} pcmp;

typedef struct pedge {
    bool dead;
    uint8_t thru;               /* bit s: no path takes this edge and then the
                                 * target's successor s (the target's own
                                 * branch decided by what this edge knows) */
    uint8_t nbirth;
    gcn_pfact birth[GCN_PF_MAX];
} pedge;

struct gcn_paths {
    const gcn_cfg *cfg;
    unsigned nt;                /* tracked registers; zone dimension nt + 1 */
    int8_t tix[NS];             /* SGPR -> zone index (1..nt), or 0 */
    uint8_t treg[PT_MAX + 1];
    uint64_t (*live)[2];        /* per block: SGPRs whose value may still decide a branch */
    uint64_t (*varies)[2];      /* per loop header: SGPRs written in its loop (else 0) */
    pedge **edge;               /* per block, per successor (into edge_pool) */
    pedge *edge_pool;           /* every block's edges, one allocation */
    int32_t *zs;                /* scratch: two zones (s_cselect) */
    uint8_t *rem;               /* per instruction: the s_sub computes n mod rem[i] (idiv.h) */
};

/* ---- operands ------------------------------------------------------------ */

static popnd opnd_of(const gcn_opnd *o)
{
    popnd r = {PO_NONE, -1, 0};
    if (!o || (o->flags & (GCN_OPF_NEG | GCN_OPF_ABS)))
        return r;
    switch (o->kind) {
    case GCN_OPND_SGPR:
        if (o->reg < NS && o->nregs <= 1) {
            r.kind = PO_SGPR;
            r.reg = o->reg;
        }
        break;
    case GCN_OPND_INLINE:
        if (o->reg >= 128 && o->reg <= 208) {      /* the integers -16..64 */
            r.kind = PO_CONST;
            r.k = (int32_t)gcn_inline_value(o->reg, GCN_DT_I32);
        }
        break;
    case GCN_OPND_LITERAL:
        r.kind = PO_CONST;
        r.k = (int32_t)(uint32_t)o->imm;
        break;
    default:
        break;
    }
    return r;
}

static int dst_sgpr(const gcn_insn *in)
{
    const gcn_opnd *d = gcn_insn_field(in, GCN_FLD_SDST);
    if (!d || d->kind != GCN_OPND_SGPR || d->reg >= NS || d->nregs > 1)
        return -1;
    return d->reg;
}

static int64_t simm16(const gcn_insn *in)
{
    const gcn_opnd *im = gcn_insn_field(in, GCN_FLD_SIMM16);
    return im ? (int16_t)(uint16_t)im->imm : 0;
}

/* The scalar operands of instruction i: src0, src1 and the SGPR destination. */
typedef struct pins {
    const gcn_insn *in;
    const gcn_lfacts *f;
    unsigned alu;
    popnd a, b;
    int d;
} pins;

static pins pins_of(const gcn_cfg *cfg, unsigned i)
{
    pins p;
    p.in = &cfg->insn[i];
    p.f = &cfg->facts[i];
    p.alu = p.f->alu;
    p.a = opnd_of(gcn_insn_field(p.in, GCN_FLD_SSRC0));
    p.b = opnd_of(gcn_insn_field(p.in, GCN_FLD_SSRC1));
    p.d = dst_sgpr(p.in);
    return p;
}

static bool is_cmp(unsigned alu) { return alu >= GCN_LA_S_CMP_LT && alu <= GCN_LA_S_CMP_NE; }

/* ---- known bits ------------------------------------------------------------ */

static kbits kb_const(int64_t k) { return (kbits){0xFFFFFFFFu, (uint32_t)k}; }
static kbits kb_top(void) { return (kbits){0, 0}; }
static unsigned kb_low(kbits a)         /* contiguous known low bits */
{
    return a.m == 0xFFFFFFFFu ? 32u : (unsigned)__builtin_ctz(~a.m);
}
static kbits kb_add(kbits a, kbits b)
{
    unsigned t = kb_low(a) < kb_low(b) ? kb_low(a) : kb_low(b);
    uint32_t m = t >= 32 ? 0xFFFFFFFFu : (1u << t) - 1u;
    return (kbits){m, (a.v + b.v) & m};
}
static kbits kb_and(kbits a, kbits b)
{
    uint32_t z = (a.m & ~a.v) | (b.m & ~b.v);     /* known zero in either */
    uint32_t m = (a.m & b.m) | z;
    return (kbits){m, a.v & b.v & m};
}
static kbits kb_or(kbits a, kbits b)
{
    uint32_t o = (a.m & a.v) | (b.m & b.v);       /* known one in either */
    uint32_t m = (a.m & b.m) | o;
    return (kbits){m, (a.v | b.v) & m};
}
static kbits kb_shl(kbits a, unsigned s)
{
    s &= 31;
    return (kbits){a.m << s | ((1u << s) - 1u), a.v << s};
}
static kbits kb_shr(kbits a, unsigned s)
{
    s &= 31;
    uint32_t top = s ? ~(0xFFFFFFFFu >> s) : 0;
    return (kbits){a.m >> s | top, a.v >> s};
}
static kbits kb_join(kbits a, kbits b)
{
    uint32_t m = a.m & b.m & ~(a.v ^ b.v);
    return (kbits){m, a.v & m};
}

/* ---- residues ---------------------------------------------------------------- */

/* A value modulo m: m = 0 the exact value r, m = 1 nothing known, else
 * r in [0, m) with m <= CG_MAX (what a gcn_pfact can hold). */
typedef struct cong { uint32_t m; int64_t r; } cong;
#define CG_MAX 255u

static const cong CG_NONE = {1, 0};

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int64_t mod_pos(int64_t a, uint32_t m) { int64_t r = a % m; return r < 0 ? r + m : r; }

static cong cg_make(uint64_t m, int64_t r)
{
    if (m == 0)
        return (cong){0, r};
    if (m < 2 || m > CG_MAX)
        return CG_NONE;
    return (cong){(uint32_t)m, mod_pos(r, (uint32_t)m)};
}

static cong cg_join(cong a, cong b)
{
    if (a.m == 1 || b.m == 1)
        return CG_NONE;
    int64_t d = a.r - b.r;
    uint64_t g = gcd64(gcd64(a.m, b.m), (uint64_t)(d < 0 ? -d : d));
    return g == 0 ? a : cg_make(g, a.r);
}

static cong cg_add(cong a, int64_t k)
{
    return a.m == 1 ? a : cg_make(a.m, a.r + k);
}

static cong cg_neg(cong a) { return a.m == 1 ? a : cg_make(a.m, -a.r); }

static cong cg_sum(cong a, cong b)
{
    if (a.m == 0)
        return cg_add(b, a.r);
    if (b.m == 0)
        return cg_add(a, b.r);
    return cg_make(gcd64(a.m, b.m), a.r + b.r);
}

/* a * k for a constant k */
static cong cg_mulk(cong a, int64_t k)
{
    uint64_t ak = (uint64_t)(k < 0 ? -k : k);
    if (a.m == 0)
        return (cong){0, a.r * k};
    if (k == 0)
        return (cong){0, 0};
    if (a.m >= 2 && a.m * ak <= CG_MAX)
        return cg_make(a.m * ak, a.r * k);
    return cg_make(ak, 0);
}

/* ---- the zone -------------------------------------------------------------- */

static inline int32_t zadd(int32_t a, int32_t b)
{
    if (a >= ZINF || b >= ZINF)
        return ZINF;
    int64_t s = (int64_t)a + b;
    return s >= ZINF ? ZINF : s <= -ZINF ? -ZINF + 1 : (int32_t)s;
}

static void z_top(int32_t *z, unsigned n)
{
    for (unsigned i = 0; i < n * n; i++)
        z[i] = ZINF;
    for (unsigned i = 0; i < n; i++)
        z[i * n + i] = 0;
}

static void z_forget(int32_t *z, unsigned n, unsigned x)
{
    for (unsigned j = 0; j < n; j++)
        if (j != x)
            z[x * n + j] = z[j * n + x] = ZINF;
}

/* x := y + k (y may be 0, the constant) */
static void z_assign(int32_t *z, unsigned n, unsigned x, unsigned y, int64_t k)
{
    z_forget(z, n, x);
    if (k >= ZINF || k <= -ZINF || x == y)
        return;
    for (unsigned j = 0; j < n; j++) {
        if (j == x)
            continue;
        z[x * n + j] = zadd((int32_t)k, z[y * n + j]);
        z[j * n + x] = zadd(z[j * n + y], (int32_t)-k);
    }
    z[x * n + y] = (int32_t)k;
    z[y * n + x] = (int32_t)-k;
}

/* x := x + k */
static void z_shift(int32_t *z, unsigned n, unsigned x, int64_t k)
{
    if (k >= ZINF || k <= -ZINF) {
        z_forget(z, n, x);
        return;
    }
    for (unsigned j = 0; j < n; j++) {
        if (j == x)
            continue;
        z[x * n + j] = zadd(z[x * n + j], (int32_t)k);
        z[j * n + x] = zadd(z[j * n + x], (int32_t)-k);
    }
}

/* x := y + [lo, hi] (y may be x itself: x moves by an amount in [lo, hi]) */
static void z_assign_range(int32_t *z, unsigned n, unsigned x, unsigned y, int64_t lo, int64_t hi)
{
    if (lo <= -ZINF || hi >= ZINF) {
        z_forget(z, n, x);
        return;
    }
    if (x == y) {
        for (unsigned j = 0; j < n; j++) {
            if (j == x)
                continue;
            z[x * n + j] = zadd(z[x * n + j], (int32_t)hi);
            z[j * n + x] = zadd(z[j * n + x], (int32_t)-lo);
        }
        return;
    }
    z_forget(z, n, x);
    for (unsigned j = 0; j < n; j++) {
        if (j == x)
            continue;
        z[x * n + j] = zadd((int32_t)hi, z[y * n + j]);
        z[j * n + x] = zadd(z[j * n + y], (int32_t)-lo);
    }
    z[x * n + y] = (int32_t)hi;
    z[y * n + x] = (int32_t)-lo;
}

/* s_and_b32 d, y, K with K's bit 31 set (a high-bit mask, K = ~(2^k - 1)
 * say): d = y - (y & ~K), and y & ~K lies in [0, ~K], below 2^31.  Clearing
 * bits below bit 31 subtracts their value in both readings of the 32 bits
 * (signed and unsigned alike: bit 31 stays), so d - y lies in [-(~K), 0]
 * exactly, with no wrap and no assumption.  The operand that is the
 * register, or NULL. */
static const popnd *and_high_mask(const popnd *a, const popnd *b, uint32_t *low)
{
    const popnd *r = a->kind == PO_SGPR && b->kind == PO_CONST ? a :
                     b->kind == PO_SGPR && a->kind == PO_CONST ? b : NULL;
    if (!r)
        return NULL;
    uint32_t k = (uint32_t)(r == a ? b->k : a->k);
    if (!(k & 0x80000000u))
        return NULL;
    *low = ~k;
    return r;
}

/* add x_i - x_j <= c and close; false when it contradicts */
static bool z_guard(int32_t *z, unsigned n, unsigned i, unsigned j, int64_t c)
{
    if (c >= ZINF)
        return true;
    if (c <= -ZINF)
        c = -ZINF + 1;
    if (i == j)
        return c >= 0;
    if (c >= z[i * n + j])
        return true;
    if (zadd(z[j * n + i], (int32_t)c) < 0)
        return false;
    for (unsigned p = 0; p < n; p++) {
        int32_t pi = z[p * n + i];
        if (pi >= ZINF)
            continue;
        for (unsigned q = 0; q < n; q++) {
            int32_t v = zadd(zadd(pi, (int32_t)c), z[j * n + q]);
            if (v < z[p * n + q])
                z[p * n + q] = v;
        }
    }
    return true;
}

/* ---- the static state -------------------------------------------------------- */

typedef struct sstate {
    kbits k[NS];
    uint8_t cm[NS], cr[NS];     /* residues (cm 0: none); exact values are in k */
    pcmp cmp;                   /* the compare SCC holds (a branch may be in a later
                                 * block: `s_cmp; s_branch L` to `L: s_cbranch_scc0`) */
    int32_t *z;
} sstate;

static bool pcmp_eq(const pcmp *a, const pcmp *b)
{
    if (!a->ok || !b->ok)
        return a->ok == b->ok;
    return a->uns == b->uns && a->op == b->op && a->a.kind == b->a.kind && a->a.reg == b->a.reg &&
           a->a.k == b->a.k && a->b.kind == b->b.kind && a->b.reg == b->b.reg && a->b.k == b->b.k;
}

static void ss_copy(sstate *d, const sstate *s, unsigned n)
{
    d->cmp = s->cmp;
    memcpy(d->k, s->k, sizeof d->k);
    memcpy(d->cm, s->cm, sizeof d->cm);
    memcpy(d->cr, s->cr, sizeof d->cr);
    memcpy(d->z, s->z, sizeof(int32_t) * n * n);
}

static cong cg_raw(kbits k, uint8_t cm, uint8_t cr)
{
    if (k.m == 0xFFFFFFFFu)
        return (cong){0, (int32_t)k.v};
    return cm >= 2 ? (cong){cm, cr} : CG_NONE;
}

static void cg_set(sstate *s, unsigned r, cong c)
{
    bool keep = c.m >= 2;
    s->cm[r] = keep ? (uint8_t)c.m : 0;
    s->cr[r] = keep ? (uint8_t)c.r : 0;
}

static unsigned zix(const gcn_paths *P, const popnd *o)
{
    return o->kind == PO_SGPR ? (unsigned)P->tix[o->reg] : 0;
}

static kbits opnd_kb(const sstate *s, const popnd *o)
{
    if (o->kind == PO_CONST)
        return kb_const(o->k);
    if (o->kind == PO_SGPR)
        return s->k[o->reg];
    return kb_top();
}

/* the known bits of SGPR r, with a constant from the zone */
static kbits reg_kb(const gcn_paths *P, const sstate *s, unsigned r)
{
    unsigned x = P->tix[r], n = P->nt + 1;
    if (x && s->z[x * n] < ZINF && s->z[x * n] == -s->z[x])
        return kb_const(s->z[x * n]);
    return s->k[r];
}

static cong reg_cg(const gcn_paths *P, const sstate *s, unsigned r)
{
    return cg_raw(reg_kb(P, s, r), s->cm[r], s->cr[r]);
}

static cong opnd_cg(const gcn_paths *P, const sstate *s, const popnd *o)
{
    if (o->kind == PO_CONST)
        return (cong){0, o->k};
    if (o->kind == PO_SGPR)
        return reg_cg(P, s, (unsigned)o->reg);
    return CG_NONE;
}

static bool s_cond(const gcn_paths *P, sstate *s, const pcmp *c, bool holds);

/* the static transfer of instruction i; *cmp tracks the SCC compare */
static void s_step(const gcn_paths *P, sstate *s, unsigned i, pcmp *cmp)
{
    const pins pi = pins_of(P->cfg, i);
    const gcn_insn *in = pi.in;
    const gcn_lfacts *f = pi.f;
    unsigned n = P->nt + 1, alu = pi.alu;
    popnd a = pi.a, b = pi.b;
    int d = pi.d;
    kbits r = kb_top();
    bool have = false;
    /* the zone: d := y + k where possible */
    int zy = -1;
    int64_t zk = 0;
    bool zdone = false;
    cong rc = CG_NONE;          /* the residue of the result */
    switch (alu) {
    case GCN_LA_S_MOV:
        rc = opnd_cg(P, s, &a);
        r = opnd_kb(s, &a); have = true;
        if (a.kind == PO_CONST) { zy = 0; zk = a.k; }
        else if (a.kind == PO_SGPR && P->tix[a.reg]) { zy = P->tix[a.reg]; zk = 0; }
        break;
    case GCN_LA_S_MOVK:
        r = kb_const(simm16(in)); have = true; zy = 0; zk = simm16(in);
        break;
    case GCN_LA_S_ADDK:
        if (d >= 0) {
            rc = cg_add(reg_cg(P, s, (unsigned)d), simm16(in));
            r = kb_add(s->k[d], kb_const(simm16(in))); have = true;
            if (P->tix[d]) { zy = P->tix[d]; zk = simm16(in); }
        }
        break;
    case GCN_LA_S_ADD: case GCN_LA_S_SUB: {
        bool sub = alu == GCN_LA_S_SUB;
        kbits ka = opnd_kb(s, &a), kb = opnd_kb(s, &b);
        if (sub)
            kb = kb.m == 0xFFFFFFFFu ? kb_const(-(int64_t)kb.v) : kb_top();
        r = kb_add(ka, kb); have = true;
        cong cb = opnd_cg(P, s, &b);
        rc = cg_sum(opnd_cg(P, s, &a), sub ? cg_neg(cb) : cb);
        if (sub && P->rem[i]) {
            /* n mod c (idiv.h): exact when n's residue is known, else in [0, c) */
            cong ca = opnd_cg(P, s, &a);
            unsigned c = P->rem[i];
            if (ca.m != 1 && ca.m % c == 0)
                r = kb_const(mod_pos(ca.r, c));
            else
                r = (kbits){~(0xFFFFFFFFu >> __builtin_clz(c - 1)), 0};
            rc = CG_NONE;
        }
        if (a.kind == PO_CONST && b.kind == PO_CONST) { zy = 0; zk = sub ? a.k - b.k : a.k + b.k; }
        else if (a.kind == PO_SGPR && P->tix[a.reg] && b.kind == PO_CONST) {
            zy = P->tix[a.reg]; zk = sub ? -b.k : b.k;
        } else if (!sub && b.kind == PO_SGPR && P->tix[b.reg] && a.kind == PO_CONST) {
            zy = P->tix[b.reg]; zk = a.k;
        }
        break;
    }
    case GCN_LA_S_AND: {
        r = kb_and(opnd_kb(s, &a), opnd_kb(s, &b)); have = true;
        uint32_t low;
        const popnd *y = and_high_mask(&a, &b, &low);
        if (d >= 0 && P->tix[d] && y && P->tix[y->reg]) {
            z_assign_range(s->z, n, P->tix[d], P->tix[y->reg], -(int64_t)low, 0);
            zdone = true;
        }
        break;
    }
    case GCN_LA_S_OR: r = kb_or(opnd_kb(s, &a), opnd_kb(s, &b)); have = true; break;
    case GCN_LA_S_LSHL:
        if (b.kind == PO_CONST) {
            r = kb_shl(opnd_kb(s, &a), (unsigned)b.k); have = true;
            if (b.k >= 0 && b.k < 8)
                rc = cg_mulk(opnd_cg(P, s, &a), 1ll << b.k);
        }
        break;
    case GCN_LA_S_MUL:
        /* only the residue: a * k */
        if (b.kind == PO_CONST)
            rc = cg_mulk(opnd_cg(P, s, &a), b.k);
        else if (a.kind == PO_CONST)
            rc = cg_mulk(opnd_cg(P, s, &b), a.k);
        break;
    case GCN_LA_S_LSHR:
        if (b.kind == PO_CONST) { r = kb_shr(opnd_kb(s, &a), (unsigned)b.k); have = true; }
        break;
    case GCN_LA_S_CSELECT:
        /* d = SCC ? a : b: each side under its outcome of the compare, joined */
        if (d < 0)
            break;
        r = kb_join(opnd_kb(s, &a), opnd_kb(s, &b));
        have = true;
        rc = cg_join(opnd_cg(P, s, &a), opnd_cg(P, s, &b));
        if (P->tix[d]) {
            unsigned x = P->tix[d];
            bool ok[2];
            for (unsigned side = 0; side < 2; side++) {
                sstate t;
                t.z = P->zs + side * n * n;
                ss_copy(&t, s, n);
                ok[side] = !cmp->ok || s_cond(P, &t, cmp, side == 0);
                const popnd *o = side == 0 ? &a : &b;
                if (o->kind == PO_CONST)
                    z_assign(t.z, n, x, 0, o->k);
                else if (o->kind == PO_SGPR && P->tix[o->reg])
                    z_assign(t.z, n, x, P->tix[o->reg], 0);
                else
                    z_forget(t.z, n, x);
            }
            const int32_t *z0 = P->zs, *z1 = P->zs + n * n;
            for (unsigned e = 0; e < n * n; e++)
                s->z[e] = !ok[1] ? z0[e] : !ok[0] ? z1[e] : z0[e] > z1[e] ? z0[e] : z1[e];
            zdone = true;
        }
        break;
    default:
        break;
    }
    if (f->flags & GCN_F_WR_SCC) {
        cmp->ok = false;
        if (is_cmp(alu) && a.kind != PO_NONE && b.kind != PO_NONE) {
            cmp->ok = true;
            cmp->uns = (f->fx & GCN_FX_UNSIGNED) != 0;
            cmp->op = (uint8_t)(alu - GCN_LA_S_CMP_LT);
            cmp->a = a;
            cmp->b = b;
        }
    }
    /* every written SGPR loses what it had; then the result is set */
    gcn_regset w = f->defs;
    gcn_rs_or(&w, &f->adefs);
    for (unsigned k = 0; k < 2; k++)
        for (uint64_t x = w.s[k]; x; x &= x - 1) {
            unsigned reg = k * 64 + (unsigned)__builtin_ctzll(x);
            if (reg >= NS)
                continue;
            s->cm[reg] = 0;
            if ((int)reg == d && have)
                continue;
            s->k[reg] = kb_top();
            if (P->tix[reg])
                z_forget(s->z, n, P->tix[reg]);
            /* a compare whose operand changes no longer describes SCC's registers */
            if (cmp->ok && ((cmp->a.kind == PO_SGPR && cmp->a.reg == (int)reg) ||
                            (cmp->b.kind == PO_SGPR && cmp->b.reg == (int)reg)))
                cmp->ok = false;
        }
    if (d >= 0)
        cg_set(s, (unsigned)d, rc);
    if (d >= 0 && have) {
        s->k[d] = r;
        if (cmp->ok && ((cmp->a.kind == PO_SGPR && cmp->a.reg == d) ||
                        (cmp->b.kind == PO_SGPR && cmp->b.reg == d)))
            cmp->ok = false;
        unsigned x = P->tix[d];
        if (x && !zdone) {
            if (zy == (int)x)
                z_shift(s->z, n, x, zk);
            else if (zy >= 0)
                z_assign(s->z, n, x, (unsigned)zy, zk);
            else
                z_forget(s->z, n, x);
        }
    }
}

/* The outcome of compare op on (a, b) as bounds; false when contradictory. */
static bool s_cond(const gcn_paths *P, sstate *s, const pcmp *c, bool holds)
{
    unsigned n = P->nt + 1;
    /* (x_i + ka) OP (x_j + kb)  ->  x_i - x_j OP kb - ka */
    unsigned i = zix(P, &c->a), j = zix(P, &c->b);
    if ((c->a.kind == PO_SGPR && !i) || (c->b.kind == PO_SGPR && !j)) {
        /* an untracked register: equality with a constant still gives its bits */
        if (holds && c->op == GCN_LA_S_CMP_EQ - GCN_LA_S_CMP_LT) {
            if (c->a.kind == PO_SGPR && c->b.kind == PO_CONST)
                s->k[c->a.reg] = kb_const(c->b.k);
            else if (c->b.kind == PO_SGPR && c->a.kind == PO_CONST)
                s->k[c->b.reg] = kb_const(c->a.k);
        }
        return true;
    }
    int64_t ka = c->a.kind == PO_CONST ? c->a.k : 0, kb = c->b.kind == PO_CONST ? c->b.k : 0;
    int64_t k = kb - ka;
    /* an unsigned compare: its registers hold values in [0, 2^31) (the
     * no-wrap assumption of paths.h); a negative constant is a large one */
    if (c->uns) {
        if ((c->a.kind == PO_CONST && c->a.k < 0) || (c->b.kind == PO_CONST && c->b.k < 0))
            return true;
        if ((i && !z_guard(s->z, n, 0, i, 0)) || (j && !z_guard(s->z, n, 0, j, 0)))
            return false;
    }
    unsigned op = c->op + GCN_LA_S_CMP_LT;
    if (!holds) {
        switch (op) {       /* the negation */
        case GCN_LA_S_CMP_LT: op = GCN_LA_S_CMP_GE; break;
        case GCN_LA_S_CMP_LE: op = GCN_LA_S_CMP_GT; break;
        case GCN_LA_S_CMP_GT: op = GCN_LA_S_CMP_LE; break;
        case GCN_LA_S_CMP_GE: op = GCN_LA_S_CMP_LT; break;
        case GCN_LA_S_CMP_EQ: op = GCN_LA_S_CMP_NE; break;
        default: op = GCN_LA_S_CMP_EQ; break;
        }
    }
    bool ok = true;
    switch (op) {
    case GCN_LA_S_CMP_LT: ok = z_guard(s->z, n, i, j, k - 1); break;
    case GCN_LA_S_CMP_LE: ok = z_guard(s->z, n, i, j, k); break;
    case GCN_LA_S_CMP_GT: ok = z_guard(s->z, n, j, i, -k - 1); break;
    case GCN_LA_S_CMP_GE: ok = z_guard(s->z, n, j, i, -k); break;
    case GCN_LA_S_CMP_EQ:
        ok = z_guard(s->z, n, i, j, k) && z_guard(s->z, n, j, i, -k);
        if (ok && c->a.kind == PO_SGPR && c->b.kind == PO_CONST)
            s->k[c->a.reg] = kb_const(c->b.k);
        else if (ok && c->b.kind == PO_SGPR && c->a.kind == PO_CONST)
            s->k[c->b.reg] = kb_const(c->a.k);
        break;
    case GCN_LA_S_CMP_NE:
        /* x_i - x_j != k: it tightens a bound that sits exactly at k */
        if (i == j)
            ok = k != 0;
        else if (s->z[i * n + j] == k && s->z[j * n + i] == -k)
            ok = false;
        else if (s->z[i * n + j] == k)
            ok = z_guard(s->z, n, i, j, k - 1);
        else if (s->z[j * n + i] == -k)
            ok = z_guard(s->z, n, j, i, -k - 1);
        break;
    default:
        break;
    }
    return ok;
}

/* The edge to successor t of block b: which outcome of SCC it needs
 * (1 or 0), or -1 when it is not a two-way SCC branch. */
static int edge_scc(const gcn_cfg *cfg, unsigned b, unsigned t)
{
    const gcn_block *blk = &cfg->blocks[b];
    const gcn_insn *li = &cfg->insn[blk->last];
    const gcn_lfacts *lf = &cfg->facts[blk->last];
    if (lf->kind != GCN_LK_CBRANCH || blk->nsucc != 2 || blk->succ[0] == blk->succ[1] ||
        (li->id != GCN_ID_S_CBRANCH_SCC0 && li->id != GCN_ID_S_CBRANCH_SCC1))
        return -1;
    bool taken = cfg->insn[cfg->blocks[t].first].addr == (uint64_t)lf->target;
    return taken == (li->id == GCN_ID_S_CBRANCH_SCC1) ? 1 : 0;
}

/* ---- liveness: SGPRs whose value may still decide a branch ------------------ */

static void live_step(const gcn_cfg *cfg, unsigned i, uint64_t L[2])
{
    const pins pi = pins_of(cfg, i);
    const gcn_lfacts *f = pi.f;
    unsigned alu = pi.alu;
    popnd a = pi.a, b = pi.b;
    int d = pi.d;
    bool dlive = d >= 0 && (L[d >> 6] >> (d & 63) & 1);
    bool eval = alu == GCN_LA_S_MOV || alu == GCN_LA_S_ADD || alu == GCN_LA_S_SUB ||
                alu == GCN_LA_S_AND || alu == GCN_LA_S_OR || alu == GCN_LA_S_LSHL ||
                alu == GCN_LA_S_LSHR || alu == GCN_LA_S_ADDK;
    gcn_regset w = f->defs;
    gcn_rs_or(&w, &f->adefs);
    L[0] &= ~w.s[0];
    L[1] &= ~w.s[1];
    if ((eval && dlive) || is_cmp(alu)) {
        if (a.kind == PO_SGPR)
            L[a.reg >> 6] |= 1ull << (a.reg & 63);
        if (b.kind == PO_SGPR)
            L[b.reg >> 6] |= 1ull << (b.reg & 63);
        if (alu == GCN_LA_S_ADDK && d >= 0)
            L[d >> 6] |= 1ull << (d & 63);
    }
}

static int live_build(gcn_paths *P)
{
    const gcn_cfg *cfg = P->cfg;
    unsigned nb = cfg->nblocks;
    P->live = calloc(nb, sizeof *P->live);
    unsigned *wl = malloc(sizeof *wl * nb);
    bool *inwl = calloc(nb, sizeof *inwl);
    if (!P->live || !wl || !inwl) {
        free(wl); free(inwl);
        return -1;
    }
    unsigned nw = 0;
    for (unsigned k = 0; k < nb; k++) {
        wl[nw++] = k;
        inwl[k] = true;
    }
    while (nw) {
        unsigned k = wl[--nw];
        inwl[k] = false;
        const gcn_block *blk = &cfg->blocks[k];
        uint64_t L[2] = {0, 0};
        for (unsigned s = 0; s < blk->nsucc; s++) {
            L[0] |= P->live[blk->succ[s]][0];
            L[1] |= P->live[blk->succ[s]][1];
        }
        for (unsigned i = blk->last + 1; i-- > blk->first;)
            live_step(cfg, i, L);
        if (L[0] != P->live[k][0] || L[1] != P->live[k][1]) {
            P->live[k][0] = L[0];
            P->live[k][1] = L[1];
            for (unsigned p = 0; p < blk->npred; p++)
                if (!inwl[blk->pred[p]]) {
                    inwl[blk->pred[p]] = true;
                    wl[nw++] = blk->pred[p];
                }
        }
    }
    free(wl); free(inwl);
    return 0;
}

static bool live_has(const gcn_paths *P, unsigned b, unsigned r)
{
    return P->live[b][r >> 6] >> (r & 63) & 1;
}

/* Per loop header, the SGPRs its loop writes: facts on them are dropped on
 * every edge into the header, so that no fact changes from one iteration to
 * the next (the exploration's states then repeat, and it converges). */
static int varies_build(gcn_paths *P)
{
    const gcn_cfg *cfg = P->cfg;
    unsigned nb = cfg->nblocks;
    P->varies = calloc(nb, sizeof *P->varies);
    unsigned *stk = malloc(sizeof *stk * nb), *mark = malloc(sizeof *mark * nb);
    if (!P->varies || !stk || !mark) {
        free(stk); free(mark);
        return -1;
    }
    for (unsigned k = 0; k < nb; k++)
        mark[k] = ~0u;
    for (unsigned h = 0; h < nb; h++) {
        const gcn_block *hb = &cfg->blocks[h];
        if (!hb->header)
            continue;
        unsigned ns = 0;
        mark[h] = h;
        for (unsigned p = 0; p < hb->npred; p++) {
            unsigned b = hb->pred[p];
            if (mark[b] != h && gcn_cfg_dominates(cfg, h, b)) {
                mark[b] = h;
                stk[ns++] = b;
            }
        }
        uint64_t W[2] = {0, 0};
        /* the header's own writes count too */
        for (unsigned i = hb->first; i <= hb->last; i++) {
            W[0] |= cfg->facts[i].defs.s[0] | cfg->facts[i].adefs.s[0];
            W[1] |= cfg->facts[i].defs.s[1] | cfg->facts[i].adefs.s[1];
        }
        while (ns) {
            unsigned b = stk[--ns];
            const gcn_block *bb = &cfg->blocks[b];
            for (unsigned i = bb->first; i <= bb->last; i++) {
                W[0] |= cfg->facts[i].defs.s[0] | cfg->facts[i].adefs.s[0];
                W[1] |= cfg->facts[i].defs.s[1] | cfg->facts[i].adefs.s[1];
            }
            for (unsigned p = 0; p < bb->npred; p++)
                if (mark[bb->pred[p]] != h) {
                    mark[bb->pred[p]] = h;
                    stk[ns++] = bb->pred[p];
                }
        }
        P->varies[h][0] = W[0];
        P->varies[h][1] = W[1];
    }
    free(stk); free(mark);
    return 0;
}

static bool varies_in(const gcn_paths *P, unsigned h, unsigned r)
{
    return P->cfg->blocks[h].header && (P->varies[h][r >> 6] >> (r & 63) & 1);
}

/* ---- births ---------------------------------------------------------------- */

/* The best fact that state s gives for SGPR r: its known bits, or (when they
 * say less) x_a + [lo, hi] for a tracked register a with known low bits. */
static bool best_fact(const gcn_paths *P, const sstate *s, unsigned r, gcn_pfact *out)
{
    kbits k = reg_kb(P, s, r);
    cong c = reg_cg(P, s, r);
    *out = (gcn_pfact){(uint8_t)r, 0, 0, 0, k.m, k.v, 0, 0};
    if (k.m == 0xFFFFFFFFu)
        return true;
    if (c.m >= 2) {
        out->cm = (uint8_t)c.m;
        out->cr = (uint8_t)c.r;
    }
    unsigned x = P->tix[r], n = P->nt + 1;
    unsigned bestlow = kb_low(k);
    bool bestcg = c.m >= 2;
    bool rel = false;
    if (x)
        for (unsigned y = 1; y < n; y++) {
            if (y == x)
                continue;
            int32_t hi = s->z[x * n + y], nlo = s->z[y * n + x];
            if (hi >= ZINF || nlo >= ZINF)
                continue;
            int64_t lo = -(int64_t)nlo;
            kbits ky = reg_kb(P, s, P->treg[y]);
            cong cy = reg_cg(P, s, P->treg[y]);
            unsigned low = kb_low(ky);
            bool lowok = low && !(low < 32 && (int64_t)hi - lo >= (1ll << low));
            bool cgok = cy.m >= 2 && hi == lo;      /* the residue of r is known */
            if (!lowok && !cgok)
                continue;
            if (!lowok)
                low = 0;
            if (low > bestlow || (low == bestlow && cgok && !bestcg) ||
                (rel && low == bestlow && cgok == bestcg && hi - lo < out->hi - out->lo)) {
                bestlow = low;
                bestcg = cgok;
                rel = true;
                *out = (gcn_pfact){(uint8_t)r, cgok ? (uint8_t)cy.m : 0, cgok ? (uint8_t)cy.r : 0, 0,
                                   ky.m, ky.v, (int32_t)lo, hi};
            }
        }
    return rel || k.m != 0 || c.m >= 2;
}

static bool fact_eq(const gcn_pfact *a, const gcn_pfact *b)
{
    return a->reg == b->reg && a->m == b->m && a->v == b->v && a->lo == b->lo && a->hi == b->hi &&
           a->cm == b->cm && a->cr == b->cr;
}

/* ---- building ----------------------------------------------------------------- */

static void pick_tracked(gcn_paths *P)
{
    const gcn_cfg *cfg = P->cfg;
    P->nt = 0;
    memset(P->tix, 0, sizeof P->tix);
    /* compare operands first, then (repeatedly) the sources they are copied from */
    for (unsigned pass = 0; pass < 3 && P->nt < PT_MAX; pass++)
        for (unsigned i = 0; i < cfg->ninsn && P->nt < PT_MAX; i++) {
            const gcn_insn *in = &cfg->insn[i];
            unsigned alu = cfg->facts[i].alu;
            popnd a = opnd_of(gcn_insn_field(in, GCN_FLD_SSRC0));
            popnd b = opnd_of(gcn_insn_field(in, GCN_FLD_SSRC1));
            int cand[2] = {-1, -1};
            if (pass == 0 && is_cmp(alu)) {
                cand[0] = a.kind == PO_SGPR ? a.reg : -1;
                cand[1] = b.kind == PO_SGPR ? b.reg : -1;
            } else if (pass > 0 && (alu == GCN_LA_S_MOV || alu == GCN_LA_S_ADD ||
                                    alu == GCN_LA_S_SUB || alu == GCN_LA_S_AND)) {
                int d = dst_sgpr(in);
                uint32_t low;
                const popnd *y = alu == GCN_LA_S_AND ? and_high_mask(&a, &b, &low) : NULL;
                if (d >= 0 && P->tix[d]) {
                    if (alu == GCN_LA_S_AND)
                        cand[0] = y ? y->reg : -1;
                    else if (a.kind == PO_SGPR && (b.kind == PO_CONST || alu == GCN_LA_S_MOV))
                        cand[0] = a.reg;
                    else if (alu == GCN_LA_S_ADD && b.kind == PO_SGPR && a.kind == PO_CONST)
                        cand[0] = b.reg;
                }
            }
            for (unsigned c = 0; c < 2; c++)
                if (cand[c] >= 0 && !P->tix[cand[c]] && P->nt < PT_MAX) {
                    P->tix[cand[c]] = (int8_t)++P->nt;
                    P->treg[P->nt] = (uint8_t)cand[c];
                }
        }
}

/* state -> entry of t; true when t's entry changed */
static bool s_join(const gcn_paths *P, sstate *dst, bool *seen, const sstate *src, bool widen)
{
    unsigned n = P->nt + 1;
    if (!*seen) {
        ss_copy(dst, src, n);
        *seen = true;
        return true;
    }
    bool ch = false;
    if (dst->cmp.ok && !pcmp_eq(&dst->cmp, &src->cmp)) {
        dst->cmp.ok = false;
        ch = true;
    }
    for (unsigned r = 0; r < NS; r++) {
        kbits j = kb_join(dst->k[r], src->k[r]);
        if (widen && j.m != dst->k[r].m)
            j = kb_top();
        cong c0 = cg_raw(dst->k[r], dst->cm[r], dst->cr[r]);
        cong cj = cg_join(c0, cg_raw(src->k[r], src->cm[r], src->cr[r]));
        if (widen && (cj.m != c0.m || cj.r != c0.r))
            cj = CG_NONE;
        if (j.m != dst->k[r].m || j.v != dst->k[r].v) {
            dst->k[r] = j;
            ch = true;
        }
        uint8_t cm = cj.m >= 2 ? (uint8_t)cj.m : 0, cr = cj.m >= 2 ? (uint8_t)cj.r : 0;
        if (cm != dst->cm[r] || cr != dst->cr[r]) {
            dst->cm[r] = cm;
            dst->cr[r] = cr;
            ch = true;
        }
    }
    for (unsigned e = 0; e < n * n; e++) {
        int32_t v = src->z[e] > dst->z[e] ? src->z[e] : dst->z[e];
        if (widen && v > dst->z[e])
            v = ZINF;
        if (v != dst->z[e]) {
            dst->z[e] = v;
            ch = true;
        }
    }
    return ch;
}

/* The successors of join block t that a path entering it with state *et
 * cannot take: t's instructions run from that state alone, and the outcome
 * of t's SCC branch each successor needs is added (tt, ut: scratch).  A
 * fall-through chain of loop parts, entered where a counter has reached a
 * bound, leaves at the next part's test on every path from the part
 * before; the join at that test's block forgets it, this does not. */
static void thru_build(const gcn_paths *P, unsigned t, const sstate *et, sstate *tt, sstate *ut,
                       uint8_t *thru)
{
    const gcn_cfg *cfg = P->cfg;
    const gcn_block *tb = &cfg->blocks[t];
    unsigned n = P->nt + 1;
    *thru = 0;
    if (tb->nsucc != 2 || edge_scc(cfg, t, tb->succ[0]) < 0)
        return;
    ss_copy(tt, et, n);
    for (unsigned i = tb->first; i <= tb->last; i++)
        s_step(P, tt, i, &tt->cmp);
    if (!tt->cmp.ok)
        return;
    for (unsigned s2 = 0; s2 < 2; s2++) {
        ss_copy(ut, tt, n);
        if (!s_cond(P, ut, &tt->cmp, edge_scc(cfg, t, tb->succ[s2]) == 1))
            *thru |= (uint8_t)(1u << s2);
    }
}

/* Bounds of SGPR r on entry to block h from the fixpoint's zone (relate.h). */
typedef struct zbound { const gcn_paths *P; const sstate *in; const bool *seen; } zbound;

static bool zone_bound(void *ctx, unsigned h, unsigned r, int64_t *lo, int64_t *hi)
{
    const zbound *zb = ctx;
    unsigned x = r < NS ? (unsigned)zb->P->tix[r] : 0, n = zb->P->nt + 1;
    if (!x || !zb->seen[h])
        return false;
    const int32_t *z = zb->in[h].z;
    *hi = z[x * n] < ZINF ? z[x * n] : INT64_MAX;
    *lo = z[x] < ZINF ? -(int64_t)z[x] : INT64_MIN;
    return z[x * n] < ZINF || z[x] < ZINF;
}

gcn_paths *gcn_paths_build(const gcn_cfg *cfg)
{
    unsigned nb = cfg->nblocks;
    gcn_paths *P = calloc(1, sizeof *P);
    if (!P)
        return NULL;
    P->cfg = cfg;
    P->rem = malloc(cfg->ninsn ? cfg->ninsn : 1);
    if (!P->rem) {
        free(P);
        return NULL;
    }
    gcn_idiv_mark(cfg, P->rem);
    pick_tracked(P);
    unsigned n = P->nt + 1;
    sstate *in = calloc(nb, sizeof *in);
    bool *seen = calloc(nb, sizeof *seen), *inwl = calloc(nb, sizeof *inwl);
    unsigned *visits = calloc(nb, sizeof *visits), *wl = malloc(sizeof *wl * (nb + 1));
    int32_t *zpool = malloc(sizeof(int32_t) * n * n * (nb + 4));
    P->edge = calloc(nb, sizeof *P->edge);
    P->zs = malloc(sizeof(int32_t) * n * n * 2);
    if (!P->zs || !in || !seen || !inwl || !visits || !wl || !zpool || !P->edge || live_build(P) < 0 ||
        varies_build(P) < 0)
        goto fail;
    /* the edges of all blocks in one allocation (one per block was as many
     * allocations as blocks, on every kernel) */
    size_t ne = 0;
    for (unsigned k = 0; k < nb; k++)
        ne += cfg->blocks[k].nsucc;
    if (!(P->edge_pool = calloc(ne ? ne : 1, sizeof(pedge))))
        goto fail;
    ne = 0;
    for (unsigned k = 0; k < nb; k++) {
        in[k].z = zpool + (size_t)n * n * k;
        P->edge[k] = P->edge_pool + ne;
        ne += cfg->blocks[k].nsucc;
    }
    sstate st, et, tt, ut;
    st.z = zpool + (size_t)n * n * nb;
    et.z = zpool + (size_t)n * n * (nb + 1);
    tt.z = zpool + (size_t)n * n * (nb + 2);
    ut.z = zpool + (size_t)n * n * (nb + 3);
    /* entry: SGPRs hold unknown kernel values */
    for (unsigned r = 0; r < NS; r++)
        st.k[r] = kb_top();
    memset(st.cm, 0, sizeof st.cm);
    memset(st.cr, 0, sizeof st.cr);
    memset(&st.cmp, 0, sizeof st.cmp);
    z_top(st.z, n);
    s_join(P, &in[0], &seen[0], &st, false);
    unsigned nw = 0;
    wl[nw++] = 0;
    inwl[0] = true;
    /* relations the zone cannot hold, for the back edges (relate.h) */
    zbound zb = {P, in, seen};
    gcn_relate *R = gcn_relate_new(cfg, zone_bound, &zb);
    /* the fixpoint, then one more pass that records the edges */
    for (unsigned pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            nw = 0;
            for (unsigned k = nb; k-- > 0;)
                if (seen[k])
                    wl[nw++] = k;
        }
        while (nw) {
            unsigned k = wl[--nw];
            inwl[k] = false;
            const gcn_block *blk = &cfg->blocks[k];
            ss_copy(&st, &in[k], n);
            for (unsigned i = blk->first; i <= blk->last; i++)
                s_step(P, &st, i, &st.cmp);
            const pcmp cmp = st.cmp;
            for (unsigned s = 0; s < blk->nsucc; s++) {
                unsigned t = blk->succ[s];
                ss_copy(&et, &st, n);
                int need = edge_scc(cfg, k, t);
                bool ok = true;
                if (need >= 0 && cmp.ok)
                    ok = s_cond(P, &et, &cmp, need == 1);
                if (pass == 0) {
                    if (!ok)
                        continue;
                    bool widen = cfg->blocks[t].header && ++visits[t] > VISIT_WIDEN;
                    if (s_join(P, &in[t], &seen[t], &et, widen) && !inwl[t]) {
                        inwl[t] = true;
                        wl[nw++] = t;
                    }
                    continue;
                }
                pedge *E = &P->edge[k][s];
                E->dead = !ok;
                if (!ok || cfg->blocks[t].npred < 2 || !seen[t])
                    continue;
                thru_build(P, t, &et, &tt, &ut, &E->thru);
                /* a back edge out of t that the zone leaves open: the
                 * relations between this edge's compare and t's */
                const gcn_block *tb = &cfg->blocks[t];
                for (unsigned s2 = 0; s2 < tb->nsucc && s2 < 8; s2++) {
                    unsigned h = tb->succ[s2];
                    if ((E->thru >> s2) & 1u || !cfg->blocks[h].header ||
                        !gcn_cfg_dominates(cfg, h, t))
                        continue;
                    if (gcn_relate_refute(R, k, t, need, edge_scc(cfg, t, h)))
                        E->thru |= (uint8_t)(1u << s2);
                }
                /* births: what this edge knows of the SGPRs that decide later
                 * branches, where the join at t forgets it */
                for (unsigned r = 0; r < NS && E->nbirth < GCN_PF_MAX; r++) {
                    if (!live_has(P, t, r) || varies_in(P, t, r))
                        continue;
                    gcn_pfact fe, fj;
                    if (!best_fact(P, &et, r, &fe))
                        continue;
                    if (best_fact(P, &in[t], r, &fj) && fact_eq(&fe, &fj))
                        continue;
                    E->birth[E->nbirth++] = fe;
                }
            }
        }
    }
    gcn_relate_free(R);
    free(in); free(seen); free(inwl); free(visits); free(wl); free(zpool);
    return P;
fail:
    free(in); free(seen); free(inwl); free(visits); free(wl); free(zpool);
    gcn_paths_free(P);
    return NULL;
}

void gcn_paths_free(gcn_paths *P)
{
    if (!P)
        return;
    free(P->edge_pool);
    free(P->edge);
    free(P->live);
    free(P->varies);
    free(P->zs);
    free(P->rem);
    free(P);
}

/* ---- path facts ---------------------------------------------------------------- */

static gcn_pfact *pf_get(gcn_pstate *ps, unsigned r)
{
    for (unsigned k = 0; k < ps->n; k++)
        if (ps->f[k].reg == r)
            return &ps->f[k];
    return NULL;
}

static void pf_del(gcn_pstate *ps, unsigned r)
{
    for (unsigned k = 0; k < ps->n; k++)
        if (ps->f[k].reg == r) {
            memmove(&ps->f[k], &ps->f[k + 1], sizeof(gcn_pfact) * (ps->n - k - 1));
            ps->n--;
            return;
        }
}

static void pf_set(gcn_pstate *ps, const gcn_pfact *f)
{
    pf_del(ps, f->reg);
    if (ps->n >= GCN_PF_MAX)
        return;
    unsigned k = ps->n;
    while (k > 0 && ps->f[k - 1].reg > f->reg) {
        ps->f[k] = ps->f[k - 1];
        k--;
    }
    ps->f[k] = *f;
    ps->n++;
}

/* x + [lo, hi] as known bits: the bits that every value of the set shares.
 * For each t up to the known low bits of x, write x = H * 2^t + L (L known):
 * when L + lo and L + hi fall in one block [q * 2^t, (q + 1) * 2^t), the
 * value is (H + q) * 2^t + (L + d - q * 2^t), whose low t bits share the
 * range's common prefix and whose high bits are H + q (known as far as H's
 * low bits are).  Every t gives true bits; they are combined. */
static kbits pf_norm(const gcn_pfact *f)
{
    kbits k = {f->m, f->v};
    if (f->lo == 0 && f->hi == 0)
        return k;
    kbits res = kb_top();
    for (unsigned t = kb_low(k); t > 0; t--) {
        int64_t span = 1ll << t;
        int64_t L = (int64_t)(k.v & (uint32_t)(span - 1));
        int64_t a = L + f->lo, b = L + f->hi;
        int64_t qa = a >= 0 ? a / span : -((-a + span - 1) / span);
        int64_t qb = b >= 0 ? b / span : -((-b + span - 1) / span);
        if (qa != qb)
            continue;
        uint64_t ra = (uint64_t)(a - qa * span), rb = (uint64_t)(b - qa * span);
        uint64_t diff = ra ^ rb;
        uint32_t lm = (uint32_t)((span - 1) & (diff ? ~((2ull << (63 - __builtin_clzll(diff))) - 1) : ~0ull));
        kbits lo_part = {lm, (uint32_t)ra & lm};
        kbits hi_part = kb_top();
        if (t < 32) {
            kbits H = {k.m >> t, k.v >> t};       /* bits t.. of x (top t bits unknown) */
            H.m &= 0xFFFFFFFFu >> t;
            H = kb_add(H, kb_const(qa));
            hi_part = (kbits){H.m << t, H.v << t};
        }
        kbits c = {lo_part.m | hi_part.m, lo_part.v | hi_part.v};
        res = (kbits){res.m | c.m, res.v | (c.v & ~res.m)};
    }
    return res;
}

static bool pf_opnd(gcn_pstate *ps, const popnd *o, gcn_pfact *out)
{
    if (o->kind == PO_CONST) {
        *out = (gcn_pfact){0, 0, 0, 0, 0xFFFFFFFFu, (uint32_t)o->k, 0, 0};
        return true;
    }
    if (o->kind == PO_SGPR) {
        gcn_pfact *f = pf_get(ps, (unsigned)o->reg);
        if (f) {
            *out = *f;
            return true;
        }
    }
    return false;
}

static bool pf_kb(gcn_pstate *ps, const popnd *o, kbits *out)
{
    gcn_pfact f;
    if (!pf_opnd(ps, o, &f))
        return false;
    *out = pf_norm(&f);
    return out->m != 0;
}

/* 1 / 0 when every value pair gives that outcome, signed and unsigned; -1 */
static int pf_cmp(unsigned op, kbits a, kbits b)
{
    int res = -2;
    for (unsigned sgn = 0; sgn < 2; sgn++) {
        int64_t alo, ahi, blo, bhi;
        uint32_t au = a.v & a.m, ao = a.v | ~a.m, bu = b.v & b.m, bo = b.v | ~b.m;
        if (!sgn) {
            alo = au; ahi = ao; blo = bu; bhi = bo;
        } else {
            /* signed: the sign bit must be known for a range */
            if (!(a.m & b.m & 0x80000000u))
                return -1;
            alo = (int32_t)au; ahi = (int32_t)ao; blo = (int32_t)bu; bhi = (int32_t)bo;
        }
        int r;
        switch (op) {
        case GCN_LA_S_CMP_LT: r = ahi < blo ? 1 : alo >= bhi ? 0 : -1; break;
        case GCN_LA_S_CMP_LE: r = ahi <= blo ? 1 : alo > bhi ? 0 : -1; break;
        case GCN_LA_S_CMP_GT: r = alo > bhi ? 1 : ahi <= blo ? 0 : -1; break;
        case GCN_LA_S_CMP_GE: r = alo >= bhi ? 1 : ahi < blo ? 0 : -1; break;
        case GCN_LA_S_CMP_EQ: case GCN_LA_S_CMP_NE: {
            uint32_t km = a.m & b.m;
            if ((a.v & km) != (b.v & km))
                r = 0;
            else if (a.m == 0xFFFFFFFFu && b.m == 0xFFFFFFFFu)
                r = 1;
            else
                r = -1;
            if (op == GCN_LA_S_CMP_NE && r >= 0)
                r = !r;
            break;
        }
        default: r = -1; break;
        }
        if (r < 0 || (res != -2 && r != res))
            return -1;
        res = r;
    }
    return res;
}

void gcn_paths_step(const gcn_paths *P, gcn_pstate *ps, unsigned i, int *scc)
{
    const pins pi = pins_of(P->cfg, i);
    const gcn_insn *in = pi.in;
    const gcn_lfacts *f = pi.f;
    unsigned alu = pi.alu;
    popnd a = pi.a, b = pi.b;
    int d = pi.d;
    gcn_pfact r, x, y;
    bool have = false;
    kbits ka, kb;
    switch (alu) {
    case GCN_LA_S_MOV:
        /* a copy keeps the fact; a constant needs none (the static part has
         * it, and the few fact slots are kept for what it loses) */
        have = a.kind == PO_SGPR && pf_opnd(ps, &a, &r);
        break;
    case GCN_LA_S_ADDK: case GCN_LA_S_ADD: case GCN_LA_S_SUB: {
        if (alu == GCN_LA_S_SUB && P->rem[i]) {
            /* n mod c (idiv.h), from what the facts say of n modulo c */
            unsigned c = P->rem[i];
            if (d >= 0 && pf_opnd(ps, &a, &x) && x.lo == x.hi) {
                int64_t res = -1;
                if (x.m == 0xFFFFFFFFu)
                    res = mod_pos((int64_t)(int32_t)x.v + x.lo, c);
                else if (x.cm >= 2 && x.cm % c == 0)
                    res = mod_pos((int64_t)x.cr + x.lo, c);
                if (res >= 0) {
                    r = (gcn_pfact){0, 0, 0, 0, 0xFFFFFFFFu, (uint32_t)res, 0, 0};
                    have = true;
                }
            }
            break;
        }
        popnd dd = {PO_SGPR, d, 0}, kk = {PO_CONST, -1, simm16(in)};
        const popnd *pa = alu == GCN_LA_S_ADDK ? &dd : &a, *pb = alu == GCN_LA_S_ADDK ? &kk : &b;
        bool sub = alu == GCN_LA_S_SUB;
        if (d < 0 || !pf_opnd(ps, pa, &x) || !pf_opnd(ps, pb, &y))
            break;
        /* x + const: the offset moves */
        if (y.m == 0xFFFFFFFFu && y.lo == 0 && y.hi == 0 && (x.m != 0xFFFFFFFFu || x.lo || x.hi)) {
            int64_t c = sub ? -(int64_t)(int32_t)y.v : (int64_t)(int32_t)y.v;
            int64_t lo = x.lo + c, hi = x.hi + c;
            if (lo > -ZINF && hi < ZINF) {
                r = x;
                r.lo = (int32_t)lo;
                r.hi = (int32_t)hi;
                have = true;
            }
        } else if (!sub && x.m == 0xFFFFFFFFu && x.lo == 0 && x.hi == 0) {
            int64_t c = (int32_t)x.v, lo = y.lo + c, hi = y.hi + c;
            if (lo > -ZINF && hi < ZINF) {
                r = y;
                r.lo = (int32_t)lo;
                r.hi = (int32_t)hi;
                have = true;
            }
        } else {
            kbits k1 = pf_norm(&x), k2 = pf_norm(&y);
            if (sub)
                k2 = k2.m == 0xFFFFFFFFu ? kb_const(-(int64_t)k2.v) : kb_top();
            kbits s = kb_add(k1, k2);
            r = (gcn_pfact){0, 0, 0, 0, s.m, s.v, 0, 0};
            have = s.m != 0;
        }
        break;
    }
    case GCN_LA_S_AND: case GCN_LA_S_OR:
        if (pf_kb(ps, &a, &ka) || pf_kb(ps, &b, &kb)) {
            if (!pf_kb(ps, &a, &ka))
                ka = a.kind == PO_CONST ? kb_const(a.k) : kb_top();
            if (!pf_kb(ps, &b, &kb))
                kb = b.kind == PO_CONST ? kb_const(b.k) : kb_top();
            kbits s = alu == GCN_LA_S_AND ? kb_and(ka, kb) : kb_or(ka, kb);
            r = (gcn_pfact){0, 0, 0, 0, s.m, s.v, 0, 0};
            have = s.m != 0;
        }
        break;
    case GCN_LA_S_LSHL: case GCN_LA_S_LSHR:
        if (b.kind == PO_CONST && pf_opnd(ps, &a, &x)) {
            unsigned sh = (unsigned)b.k & 31;
            kbits s = kb_top();
            kbits k = pf_norm(&x);
            s = alu == GCN_LA_S_LSHL ? kb_shl(k, sh) : kb_shr(k, sh);
            r = (gcn_pfact){0, 0, 0, 0, s.m, s.v, 0, 0};
            have = s.m != 0;
        }
        break;
    case GCN_LA_S_CSELECT: {
        const popnd *o = scc && *scc == 1 ? &a : scc && *scc == 0 ? &b : NULL;
        have = o && o->kind == PO_SGPR && pf_opnd(ps, o, &r);
        break;
    }
    default:
        break;
    }
    if (scc && (f->flags & GCN_F_WR_SCC)) {
        *scc = -1;
        if (is_cmp(alu) && pf_kb(ps, &a, &ka) && pf_kb(ps, &b, &kb))
            *scc = pf_cmp(alu, ka, kb);
        else if ((alu == GCN_LA_S_AND || alu == GCN_LA_S_OR) && have) {
            /* SCC = result != 0 */
            if (r.m & r.v)
                *scc = 1;
            else if (r.m == 0xFFFFFFFFu && r.lo == 0 && r.hi == 0)
                *scc = r.v != 0;
        }
    }
    gcn_regset w = f->defs;
    gcn_rs_or(&w, &f->adefs);
    for (unsigned k = 0; k < 2; k++)
        for (uint64_t m = w.s[k]; m; m &= m - 1) {
            unsigned reg = k * 64 + (unsigned)__builtin_ctzll(m);
            if (reg < NS)
                pf_del(ps, reg);
        }
    if (have && d >= 0) {
        r.reg = (uint8_t)d;
        pf_set(ps, &r);
    }
}

bool gcn_paths_edge_dead(const gcn_paths *P, unsigned b, unsigned s)
{
    return P->edge[b][s].dead;
}

unsigned gcn_paths_edge_thru(const gcn_paths *P, unsigned b, unsigned s)
{
    return P->edge[b][s].thru;
}

bool gcn_paths_edge(const gcn_paths *P, unsigned b, unsigned s, const gcn_pstate *ps,
                    int scc, gcn_pstate *out)
{
    const pedge *E = &P->edge[b][s];
    if (E->dead)
        return false;
    unsigned t = P->cfg->blocks[b].succ[s];
    if (scc >= 0) {
        int need = edge_scc(P->cfg, b, t);
        if (need >= 0 && need != scc)
            return false;
    }
    out->n = 0;
    for (unsigned k = 0; k < ps->n; k++)
        if (live_has(P, t, ps->f[k].reg) && !varies_in(P, t, ps->f[k].reg))
            out->f[out->n++] = ps->f[k];
    for (unsigned k = 0; k < E->nbirth; k++)
        if (!pf_get(out, E->birth[k].reg))
            pf_set(out, &E->birth[k]);
    return true;
}
