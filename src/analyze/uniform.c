/*
 * uniform.c -- which conditional branches go the same way in every wave of a
 * work-group (work-group-uniform branches), for the sibling pairs of the
 * cross-wave LDS check (xwave.c).
 *
 * A scalar register is uniform at a point when every wave of the work-group
 * that reaches that point (at the same dynamic instance: the waves leave
 * each barrier together) holds the same value in it.  A forward dataflow
 * keeps, per block, the scalar registers (SGPRs, VCC, M0, EXEC, SCC) that may
 * differ between waves (non-uniform: NU); the join is the union.
 *
 *   - At the entry every SGPR is uniform (the dispatch SGPRs: kernel
 *     argument pointer, work-group ids ..., the same assumption as values.c's
 *     SGPR0+i symbols); EXEC is not (a work-group's last wave may be
 *     partial), nor is SCC (not set yet).
 *   - An instruction's scalar results (also an SMEM load's) are NU when it
 *     reads a VGPR or AGPR (v_readfirstlane of a wave-index value, v_cmp: no
 *     VGPR is taken as uniform), reads an NU scalar register (EXEC too: a
 *     VALU result depends on it), is a source of per-wave values (s_getreg:
 *     the hardware wave id; s_memtime, s_memrealtime, s_sendmsg_rtn) or a
 *     scalar atomic (each wave gets another value back); else uniform.
 *     Scalar loads from uniform addresses are taken as uniform: they read
 *     memory the work-group does not write while it runs (kernel arguments
 *     and tables).
 *   - Control dependence: a conditional branch is NU when its condition
 *     (SCC, VCC or EXEC, as the branch tests it) is NU at the branch; any
 *     other block with two successors (an indirect jump) is NU.  Waves may
 *     then take different sides, so registers written on one side (or in a
 *     loop whose exit is the NU branch) differ after the sides meet again,
 *     even when each side writes a constant.  For an NU branch X with
 *     immediate post-dominator J, its region is the blocks reached from X's
 *     successors without passing J; every block of the region or J that two
 *     different successors reach (a join) gets every scalar register written
 *     in the region as NU on entry.  A register of the region that no join
 *     receives is read only by waves that all took one side.
 *   - A branch found NU adds its joins; the dataflow is repeated until no
 *     branch changes (NU only grows: the fixpoint is reached).
 *
 * Post-dominators (Cooper, Harvey and Kennedy's iterative algorithm on the
 * reversed graph) use a virtual exit that every block without a successor
 * leads to, and also every block that cannot reach one (an endless loop):
 * such a block's region then runs to the exit, which only makes more
 * registers NU.  Anything not understood is NU: a wrong guess can only keep
 * a sibling pair, never drop one.
 */
#include <stdlib.h>
#include <string.h>
#include "lint.h"

typedef struct urs { uint64_t s[2]; } urs;     /* scalar register bits, gcn_regset.s */

static void u_or(urs *d, const urs *a)
{
    d->s[0] |= a->s[0];
    d->s[1] |= a->s[1];
}

static bool u_meets(const urs *a, const uint64_t *b)
{
    return (a->s[0] & b[0]) || (a->s[1] & b[1]);
}

static void u_set(urs *d, unsigned r, unsigned n)
{
    for (unsigned k = r; k < r + n && k < 128; k++)
        d->s[k >> 6] |= 1ull << (k & 63);
}

/* Does the instruction make values that may differ between waves whatever
 * its operands? */
static bool u_source(const gcn_lfacts *f, unsigned id)
{
    if (id == GCN_ID_S_GETREG_B32 || id == GCN_ID_S_MEMTIME || id == GCN_ID_S_MEMREALTIME)
        return true;
    if (f->mnem && !strncmp(f->mnem, "s_sendmsg_rtn", 13))
        return true;
    if (f->mem == GCN_LM_SMEM && (f->flags & GCN_F_ATOMIC))
        return true;
    return false;
}

/* NU bits through instruction k */
static void u_step(const gcn_cfg *cfg, unsigned k, urs *nu)
{
    const gcn_lfacts *f = &cfg->facts[k];
    urs d = {{f->defs.s[0] | f->adefs.s[0], f->defs.s[1] | f->adefs.s[1]}};
    if (!d.s[0] && !d.s[1])
        return;
    uint64_t vuse = 0;
    for (unsigned w = 0; w < 8; w++)
        vuse |= f->uses.v[w];
    bool varying = vuse || u_meets(nu, f->uses.s) || u_source(f, cfg->insn[k].id);
    if (varying) {
        u_or(nu, &d);
    } else {
        nu->s[0] &= ~d.s[0];
        nu->s[1] &= ~d.s[1];
    }
}

/* Is the branch ending block b taken alike by every wave, given the NU bits
 * before its last instruction?  Blocks with fewer than two distinct
 * successors are not branches (false). */
static bool u_is_nu_branch(const gcn_cfg *cfg, unsigned b, const urs *nu)
{
    const gcn_block *blk = &cfg->blocks[b];
    if (blk->nsucc < 2)
        return false;
    bool distinct = false;
    for (unsigned s = 1; s < blk->nsucc; s++)
        distinct |= blk->succ[s] != blk->succ[0];
    if (!distinct)
        return false;
    unsigned id = cfg->insn[blk->last].id;
    urs c = {{0, 0}};
    if (id == GCN_ID_S_CBRANCH_SCC0 || id == GCN_ID_S_CBRANCH_SCC1)
        u_set(&c, GCN_RS_SCC, 1);
    else if (id == GCN_ID_S_CBRANCH_VCCZ || id == GCN_ID_S_CBRANCH_VCCNZ)
        u_set(&c, GCN_RS_VCC, 2);
    else if (id == GCN_ID_S_CBRANCH_EXECZ || id == GCN_ID_S_CBRANCH_EXECNZ)
        u_set(&c, GCN_RS_EXEC, 2);
    else
        return true;                        /* another condition, or an indirect jump */
    return u_meets(nu, c.s);
}

/* Immediate post-dominators into ipd[0..nb) (nb: the virtual exit). */
static int u_postdom(const gcn_cfg *cfg, unsigned *ipd)
{
    const unsigned nb = cfg->nblocks, X = nb;
    unsigned *order = malloc(sizeof *order * (nb + 1)), *po = malloc(sizeof *po * (nb + 1));
    unsigned *stack = malloc(sizeof *stack * (nb + 1)), *it = calloc(nb + 1, sizeof *it);
    unsigned char *toexit = calloc(nb + 1, 1), *vis = calloc(nb + 1, 1);
    int rc = -1;
    if (!order || !po || !stack || !it || !toexit || !vis)
        goto out;
    /* blocks that reach a block without successors */
    unsigned sp = 0;
    for (unsigned b = 0; b < nb; b++)
        if (!cfg->blocks[b].nsucc) {
            toexit[b] = 1;
            stack[sp++] = b;
        }
    while (sp) {
        const gcn_block *blk = &cfg->blocks[stack[--sp]];
        for (unsigned p = 0; p < blk->npred; p++)
            if (!toexit[blk->pred[p]]) {
                toexit[blk->pred[p]] = 1;
                stack[sp++] = blk->pred[p];
            }
    }
    /* exits[b]: b leads to the virtual exit (no successor, or no way to one) */
#define U_EXITS(b) (!cfg->blocks[b].nsucc || !toexit[b])
    /* postorder of the reversed graph from the exit: its successors are the
     * blocks that lead to the exit, a block's are its CFG predecessors */
    unsigned n = 0;
    sp = 0;
    stack[sp++] = X;
    vis[X] = 1;
    while (sp) {
        unsigned v = stack[sp - 1];
        unsigned nxt = ~0u;
        if (v == X) {
            while (it[v] < nb && nxt == ~0u) {
                unsigned b = it[v]++;
                if (U_EXITS(b) && !vis[b])
                    nxt = b;
            }
        } else {
            const gcn_block *blk = &cfg->blocks[v];
            while (it[v] < blk->npred && nxt == ~0u) {
                unsigned q = blk->pred[it[v]++];
                if (!vis[q])
                    nxt = q;
            }
        }
        if (nxt == ~0u) {
            po[v] = n;
            order[n++] = v;
            sp--;
        } else {
            vis[nxt] = 1;
            stack[sp++] = nxt;
        }
    }
    for (unsigned b = 0; b <= nb; b++)
        ipd[b] = ~0u;
    ipd[X] = X;
    for (bool ch = true; ch;) {
        ch = false;
        for (unsigned r = n; r-- > 0;) {        /* reverse postorder, the exit first */
            unsigned b = order[r];
            if (b == X)
                continue;
            const gcn_block *blk = &cfg->blocks[b];
            unsigned nw = ~0u;
            for (unsigned s = 0; s <= blk->nsucc; s++) {
                unsigned t = s < blk->nsucc ? blk->succ[s] : (U_EXITS(b) ? X : ~0u);
                if (t == ~0u || ipd[t] == ~0u)
                    continue;
                if (nw == ~0u) {
                    nw = t;
                    continue;
                }
                unsigned x = t, y = nw;
                while (x != y) {
                    while (po[x] < po[y])
                        x = ipd[x];
                    while (po[y] < po[x])
                        y = ipd[y];
                }
                nw = x;
            }
            if (nw != ipd[b]) {
                ipd[b] = nw;
                ch = true;
            }
        }
    }
    for (unsigned b = 0; b < nb; b++)
        if (ipd[b] == ~0u)
            ipd[b] = X;                         /* not reached (cannot happen): the exit */
#undef U_EXITS
    rc = 0;
out:
    free(order); free(po); free(stack); free(it); free(toexit); free(vis);
    return rc;
}

/* The joins of NU branch x: add the registers its region writes to jm[] of
 * each block of the region (or its post-dominator) that two of its
 * successors reach. */
static void u_joins(const gcn_cfg *cfg, unsigned x, const unsigned *ipd, urs *jm,
                    unsigned char *col, unsigned *stack)
{
    const unsigned nb = cfg->nblocks, J = ipd[x];
    const gcn_block *xb = &cfg->blocks[x];
    memset(col, 0, nb);
    urs defs = {{0, 0}};
    for (unsigned s = 0; s < xb->nsucc; s++) {
        unsigned char bit = (unsigned char)(1u << (s < 7 ? s : 7));
        unsigned t0 = xb->succ[s], sp = 0;
        if (col[t0] & bit)
            continue;
        col[t0] |= bit;
        stack[sp++] = t0;
        while (sp) {
            unsigned b = stack[--sp];
            if (b == J)
                continue;                       /* the region ends at J */
            const gcn_block *blk = &cfg->blocks[b];
            for (unsigned s2 = 0; s2 < blk->nsucc; s2++) {
                unsigned t = blk->succ[s2];
                if (!(col[t] & bit)) {
                    col[t] |= bit;
                    stack[sp++] = t;
                }
            }
        }
    }
    for (unsigned b = 0; b < nb; b++) {
        if (!col[b] || b == J)
            continue;
        for (unsigned k = cfg->blocks[b].first; k <= cfg->blocks[b].last; k++) {
            defs.s[0] |= cfg->facts[k].defs.s[0] | cfg->facts[k].adefs.s[0];
            defs.s[1] |= cfg->facts[k].defs.s[1] | cfg->facts[k].adefs.s[1];
        }
    }
    for (unsigned b = 0; b < nb; b++)
        if (col[b] & (col[b] - 1))              /* two successors' colours */
            u_or(&jm[b], &defs);
}

int gcn_lint_uniform_branches(const gcn_cfg *cfg, unsigned char *nub)
{
    const unsigned nb = cfg->nblocks;
    memset(nub, 0, nb);
    if (!nb)
        return 0;
    unsigned *ipd = malloc(sizeof *ipd * (nb + 1)), *stack = malloc(sizeof *stack * (nb + 1));
    urs *in = calloc(nb, sizeof *in), *jm = calloc(nb, sizeof *jm);
    unsigned char *col = malloc(nb);
    int rc = -1;
    if (!ipd || !stack || !in || !jm || !col || u_postdom(cfg, ipd) < 0)
        goto out;
    for (bool more = true; more;) {
        /* the dataflow under the joins known so far */
        memset(in, 0, sizeof *in * nb);
        unsigned char *dirty = col;             /* col is free between rounds */
        memset(dirty, 1, nb);
        for (bool ch = true; ch;) {
            ch = false;
            for (unsigned b = 0; b < nb; b++) {
                if (!dirty[b])
                    continue;
                dirty[b] = 0;
                urs s = in[b];
                if (b == 0) {
                    u_set(&s, GCN_RS_EXEC, 2);
                    u_set(&s, GCN_RS_SCC, 1);
                }
                u_or(&s, &jm[b]);
                in[b] = s;
                for (unsigned k = cfg->blocks[b].first; k <= cfg->blocks[b].last; k++)
                    u_step(cfg, k, &s);
                for (unsigned t = 0; t < cfg->blocks[b].nsucc; t++) {
                    unsigned c = cfg->blocks[b].succ[t];
                    urs o = in[c];
                    u_or(&o, &s);
                    if (memcmp(&o, &in[c], sizeof o)) {
                        in[c] = o;
                        dirty[c] = 1;
                        ch = true;
                    }
                }
            }
        }
        /* the branches: the state before each block's last instruction */
        more = false;
        for (unsigned b = 0; b < nb; b++) {
            if (nub[b])
                continue;
            urs s = in[b];
            for (unsigned k = cfg->blocks[b].first; k < cfg->blocks[b].last; k++)
                u_step(cfg, k, &s);
            if (u_is_nu_branch(cfg, b, &s))
                nub[b] = 2;                     /* new: its joins below */
        }
        for (unsigned b = 0; b < nb; b++)
            if (nub[b] == 2) {
                nub[b] = 1;
                u_joins(cfg, b, ipd, jm, col, stack);
                more = true;
            }
    }
    rc = 0;
out:
    if (rc < 0)
        for (unsigned b = 0; b < nb; b++)
            nub[b] = cfg->blocks[b].nsucc > 1;  /* unknown: every branch */
    free(ipd); free(stack); free(in); free(jm); free(col);
    return rc;
}
