/*
 * uniform.c -- which conditional branches go the same way in every wave of a
 * work-group (work-group-uniform branches), for the sibling pairs of the
 * cross-wave LDS check (xwave.c).
 *
 * A register is uniform at a point when every wave of the work-group that
 * reaches that point (at the same dynamic instance: the waves leave each
 * barrier together) holds the same value in it.  A forward dataflow keeps,
 * per block, the registers that may differ between waves (non-uniform: NU);
 * the join is the union.
 *
 *   - At the entry every SGPR is uniform (the dispatch SGPRs: kernel
 *     argument pointer, work-group ids ..., the assumption behind values.c's
 *     SGPR0+i symbols); EXEC is not (a work-group's last wave may be
 *     partial), nor SCC (not set yet), nor any VGPR (the work-item ids, and
 *     undefined values).
 *   - Scalar instructions (SALU, SMEM): their results are NU when they read
 *     an NU register or any VGPR, are sources of per-wave values (s_getreg:
 *     the hardware wave id; s_memtime, s_memrealtime, odd
 *     special operands such as src_pops_exiting_wave_id), or are scalar
 *     atomics; else uniform.  Scalar loads from uniform addresses are taken
 *     as uniform: they read memory the work-group does not write while it
 *     runs (kernel arguments and tables).
 *   - VALU, as long as EXEC is the entry's (never written on the way: it
 *     has a lane in every wave): an instruction that only reads uniform
 *     SGPRs, constants and uniform VGPRs gives the same value in every
 *     active lane of every wave, so its VGPR results are uniform, and so is
 *     v_readfirstlane of such a VGPR (LLVM's division expansion, a count
 *     through v_rcp, v_mul_hi and v_readfirstlane, stays uniform).  A lane
 *     mask it writes (v_cmp to VCC or an SGPR pair, a carry) has the same
 *     bit in every active lane: NU as a value, but a "mask" that
 *     v_cndmask and the carry-in reads may use, and that s_cbranch_vccz
 *     tests alike in every wave.  Lane-dependent operations (v_mbcnt,
 *     v_readlane/v_writelane, DPP, the permlane swaps) and partial writes
 *     (SDWA, op_sel to the high half) of NU registers are NU; after any
 *     write of EXEC every VALU result is NU.  Memory loads into VGPRs are NU.
 *   - Control dependence: a conditional branch is NU when its condition
 *     (SCC, VCC or EXEC, as the branch tests it) is NU at the branch; any
 *     other block with two successors (an indirect jump) is NU.  Waves may
 *     then take different sides, so registers written on one side (or in a
 *     loop whose exit is the NU branch) differ after the sides meet again,
 *     even when each side writes a constant.  For an NU branch X with
 *     immediate post-dominator J, its region is the blocks reached from X's
 *     successors without passing J; every block of the region or J that two
 *     different successors reach (a join) gets every register written in the
 *     region as NU on entry (EXEC included), but a register with one value
 *     on every path (a single scalar write of the kernel from such values or
 *     entry SGPRs, which dominates the join: a kernel argument reloaded in a
 *     loop whose exit parts the waves).  A register of the region that no
 *     join receives is read only by waves that all took one side.
 *   - A branch found NU adds its joins; the dataflow is repeated until no
 *     branch changes (NU only grows: the fixpoint is reached).
 *
 * Post-dominators (Cooper, Harvey and Kennedy's iterative algorithm on the
 * reversed graph) use a virtual exit that every block without a successor
 * leads to, and also every block that cannot reach one (an endless loop):
 * such a block's region then runs to the exit, which only makes more
 * registers NU.  Anything not understood is NU: a wrong guess can only keep
 * a sibling pair, never drop one.  Not modelled: waves that leave one
 * s_barrier at different dynamic instances (roles that run different
 * numbers of barriers), which the barrier-interval model of xwave.c does not
 * follow either.
 */
#include <stdlib.h>
#include <string.h>
#include "lint.h"

/* The dataflow state: s, scalar registers that may differ between waves
 * (gcn_regset.s numbering); m, those of them that hold a lane mask with the
 * same bit in every active lane of every wave (a VALU compare of uniform
 * values: it differs between waves only through EXEC); v, VGPRs and AGPRs
 * that may differ between two lanes or two waves; x, EXEC may have been
 * written since the entry. */
typedef struct urs { uint64_t s[2], m[2], v[8]; uint64_t x; } urs;

/* the join: NU wherever a path has it; a mask stays one where every path
 * that has the register NU has a mask there */
static void u_or(urs *d, const urs *a)
{
    for (unsigned w = 0; w < 2; w++) {
        uint64_t m = (d->m[w] | ~d->s[w]) & (a->m[w] | ~a->s[w]);
        d->s[w] |= a->s[w];
        d->m[w] = m & d->s[w];
    }
    for (unsigned w = 0; w < 8; w++)
        d->v[w] |= a->v[w];
    d->x |= a->x;
}

/* registers written in a region: NU on entry to its joins */
static void u_or_defs(urs *d, const urs *defs)
{
    for (unsigned w = 0; w < 2; w++) {
        d->s[w] |= defs->s[w];
        d->m[w] &= ~defs->s[w];
    }
    for (unsigned w = 0; w < 8; w++)
        d->v[w] |= defs->v[w];
    d->x |= defs->x;
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
    if (f->mem == GCN_LM_SMEM && (f->flags & GCN_F_ATOMIC))
        return true;
    return false;
}

static bool u_valu(unsigned enc)
{
    return enc == GCN_FMT_VOP1 || enc == GCN_FMT_VOP2 || enc == GCN_FMT_VOPC ||
           enc == GCN_FMT_VOP3 || enc == GCN_FMT_VOP3P || enc == GCN_FMT_VOP3PX2;
}

/* an explicit source operand whose value may differ between waves whatever
 * the dataflow says: EXEC read as a value (VALU: its implicit read is the
 * lane mask), the other special sources but the apertures (shared/private
 * base and limit, 235..238) and the registers the regset holds */
static bool u_odd_source(const gcn_insn *in, bool valu)
{
    for (unsigned o = 0; o < in->nopnds && o < GCN_MAX_OPNDS; o++) {
        const gcn_opnd *op = &in->op[o];
        if (!(op->flags & GCN_OPF_SRC))
            continue;
        unsigned r = op->reg, e = r + (op->nregs ? op->nregs : 1);
        if (op->kind == GCN_OPND_SGPR || op->kind == GCN_OPND_SPECIAL) {
            if (valu && r < GCN_RS_EXEC + 2 && e > GCN_RS_EXEC)
                return true;
            if (op->kind == GCN_OPND_SPECIAL && !(r >= 102 && r <= 107) && r != GCN_RS_M0 &&
                r != GCN_RS_EXEC && r != GCN_RS_EXEC + 1 && r != 253 && !(r >= 235 && r <= 238))
                return true;
        }
    }
    return false;
}

/* NU bits through instruction k */
static void u_step(const gcn_cfg *cfg, unsigned k, urs *nu)
{
    const gcn_lfacts *f = &cfg->facts[k];
    const gcn_insn *in = &cfg->insn[k];
    uint64_t ds[2] = {f->defs.s[0] | f->adefs.s[0], f->defs.s[1] | f->adefs.s[1]};
    uint64_t dv[8], anyv = 0, vuse = 0;
    for (unsigned w = 0; w < 8; w++) {
        dv[w] = f->defs.v[w] | f->adefs.v[w];
        anyv |= dv[w];
        vuse |= f->uses.v[w] & nu->v[w];
    }
    const bool valu = u_valu(in->enc);
    if (valu && (in->sub == GCN_SUB_SDWA || (in->m.op_sel & 8)))
        for (unsigned w = 0; w < 8; w++)        /* a part of the destination: the rest stays */
            vuse |= dv[w] & nu->v[w];
    bool nuout, mask = false;
    if (valu) {
        /* the same result in every active lane of every wave, from uniform
         * operands under the entry's EXEC (which no lane-picking op reads
         * differently: then readfirstlane returns it) */
        uint64_t su[2] = {f->uses.s[0], f->uses.s[1]};
        su[GCN_RS_EXEC >> 6] &= ~(3ull << (GCN_RS_EXEC & 63));      /* the lane mask */
        uint64_t okm[2] = {0, 0};                   /* masks read as masks */
        if (f->alu == GCN_LA_V_CNDMASK || (f->flags & GCN_F_RD_VCC))
            okm[0] = nu->m[0], okm[1] = nu->m[1];
        bool lanes = f->alu == GCN_LA_V_MBCNT_LO || f->alu == GCN_LA_V_MBCNT_HI ||
                     f->alu == GCN_LA_V_READLANE || in->sub == GCN_SUB_DPP ||
                     (f->flags & (GCN_F_RD_LANESEL | GCN_F_WR_SRC0 | GCN_F_WR_EXEC));
        nuout = nu->x || lanes || vuse || ((su[0] & nu->s[0] & ~okm[0]) |
                                           (su[1] & nu->s[1] & ~okm[1])) ||
                u_odd_source(in, true);
        /* a compare's (or carry's) lane mask: the same bit in every active
         * lane; v_readfirstlane: the value itself */
        mask = !nuout && f->alu != GCN_LA_V_READFIRSTLANE;
    } else {
        bool anyvuse = false;
        for (unsigned w = 0; w < 8; w++)
            anyvuse |= f->uses.v[w] != 0;
        nuout = anyvuse || (f->uses.s[0] & nu->s[0]) || (f->uses.s[1] & nu->s[1]) ||
                u_source(f, in->id) || u_odd_source(in, false) || (anyv && f->mem != GCN_LM_NONE);
    }
    for (unsigned w = 0; w < 8; w++)
        nu->v[w] = nuout ? nu->v[w] | dv[w] : nu->v[w] & ~dv[w];
    for (unsigned w = 0; w < 2; w++) {
        if (nuout || (valu && mask)) {
            nu->s[w] |= ds[w];
            nu->m[w] = (nu->m[w] & ~ds[w]) | (mask && !nuout ? ds[w] : 0);
        } else {
            nu->s[w] &= ~ds[w];
            nu->m[w] &= ~ds[w];
        }
    }
    if (ds[GCN_RS_EXEC >> 6] & (3ull << (GCN_RS_EXEC & 63))) {
        /* another EXEC: no VGPR stays uniform, no mask stays one */
        nu->x = 1;
        memset(nu->v, 0xff, sizeof nu->v);
        nu->m[0] = nu->m[1] = 0;
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
    urs c;
    memset(&c, 0, sizeof c);
    if (id == GCN_ID_S_CBRANCH_SCC0 || id == GCN_ID_S_CBRANCH_SCC1)
        u_set(&c, GCN_RS_SCC, 1);
    else if (id == GCN_ID_S_CBRANCH_VCCZ || id == GCN_ID_S_CBRANCH_VCCNZ)
        u_set(&c, GCN_RS_VCC, 2);
    else if (id == GCN_ID_S_CBRANCH_EXECZ || id == GCN_ID_S_CBRANCH_EXECNZ)
        u_set(&c, GCN_RS_EXEC, 2);
    else
        return true;                        /* another condition, or an indirect jump */
    /* a lane mask with the same bit in every active lane, under the entry's
     * EXEC (which has a lane in every wave): zero in every wave or in none */
    bool masks = !((c.s[0] & ~nu->m[0]) | (c.s[1] & ~nu->m[1]));
    return u_meets(nu, c.s) && !masks;
}

/* Registers with one value on every path: written by a single instruction
 * of the kernel, a scalar one (SALU, or an SMEM load) whose register
 * operands are never written (entry values), or are themselves such
 * registers written before it on every path, or (outside loops, where it
 * runs once) the register itself.  That instruction gives the same value
 * every time it runs, in every wave, so after it (where it dominates) the
 * register is the same whichever side of a branch the wave took: a kernel
 * argument reloaded in a loop whose exit parts the waves.  def1[r]: the
 * writing instruction, ~0u none, ~1u several; inv: the registers. */
static void u_invariant(const gcn_cfg *cfg, unsigned *def1, uint64_t *inv)
{
    for (unsigned r = 0; r < 128; r++)
        def1[r] = ~0u;
    inv[0] = inv[1] = 0;
    for (unsigned k = 0; k < cfg->ninsn; k++) {
        const gcn_lfacts *f = &cfg->facts[k];
        for (unsigned r = 0; r < 128; r++)
            if (((f->defs.s[r >> 6] | f->adefs.s[r >> 6]) >> (r & 63)) & 1)
                def1[r] = def1[r] == ~0u ? k : ~1u;
    }
    for (bool ch = true; ch;) {
        ch = false;
        for (unsigned r = 0; r < 128; r++) {
            unsigned d = def1[r];
            if (d >= cfg->ninsn || ((inv[r >> 6] >> (r & 63)) & 1))
                continue;
            const gcn_lfacts *f = &cfg->facts[d];
            const gcn_insn *in = &cfg->insn[d];
            bool ok = !u_valu(in->enc) && (f->mem == GCN_LM_NONE || f->mem == GCN_LM_SMEM) &&
                      !(f->flags & GCN_F_ATOMIC) && !u_source(f, in->id) &&
                      !u_odd_source(in, false) && f->kind == GCN_LK_OTHER;
            for (unsigned w = 0; w < 8 && ok; w++)
                ok = !f->uses.v[w];
            const unsigned db = cfg->block_of[d];
            for (unsigned u = 0; u < 128 && ok; u++) {
                if (!((f->uses.s[u >> 6] >> (u & 63)) & 1) || def1[u] == ~0u)
                    continue;
                if (u == r)
                    ok = cfg->blocks[db].loop == GCN_NOBLOCK && !cfg->blocks[db].header;
                else if (def1[u] >= cfg->ninsn || !((inv[u >> 6] >> (u & 63)) & 1))
                    ok = false;
                else {
                    unsigned ub = cfg->block_of[def1[u]];
                    ok = ub == db ? def1[u] < d : gcn_cfg_dominates(cfg, ub, db);
                }
            }
            if (ok) {
                inv[r >> 6] |= 1ull << (r & 63);
                ch = true;
            }
        }
    }
}

/* The joins of NU branch x: add the registers its region writes to jm[] of
 * each block of the region (or its post-dominator) that two of its
 * successors reach. */
static void u_joins(const gcn_cfg *cfg, unsigned x, const unsigned *ipd, urs *jm,
                    unsigned char *col, unsigned *stack, const unsigned *def1,
                    const uint64_t *inv)
{
    const unsigned nb = cfg->nblocks, J = ipd[x];
    const gcn_block *xb = &cfg->blocks[x];
    memset(col, 0, nb);
    urs defs;
    memset(&defs, 0, sizeof defs);
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
            const gcn_lfacts *f = &cfg->facts[k];
            for (unsigned w = 0; w < 2; w++)
                defs.s[w] |= f->defs.s[w] | f->adefs.s[w];
            for (unsigned w = 0; w < 8; w++)
                defs.v[w] |= f->defs.v[w] | f->adefs.v[w];
        }
    }
    for (unsigned b = 0; b < nb; b++)
        if (col[b] & (col[b] - 1)) {            /* two successors' colours */
            urs d = defs;
            for (unsigned r = 0; r < 128; r++)  /* one value on every path to b */
                if (((d.s[r >> 6] & inv[r >> 6]) >> (r & 63)) & 1) {
                    unsigned db = cfg->block_of[def1[r]];
                    if (db != b && gcn_cfg_dominates(cfg, db, b))
                        d.s[r >> 6] &= ~(1ull << (r & 63));
                }
            u_or_defs(&jm[b], &d);
        }
}

int gcn_lint_uniform_branches(const gcn_cfg *cfg, unsigned char *nub, unsigned *ipdom)
{
    const unsigned nb = cfg->nblocks;
    memset(nub, 0, nb);
    if (!nb)
        return 0;
    unsigned *ipd = malloc(sizeof *ipd * (nb + 1)), *stack = malloc(sizeof *stack * (nb + 1));
    urs *in = calloc(nb, sizeof *in), *jm = calloc(nb, sizeof *jm);
    unsigned char *col = malloc(nb);
    unsigned def1[128];
    uint64_t inv[2];
    int rc = -1;
    if (!ipd || !stack || !in || !jm || !col || gcn_cfg_postdom(cfg, ipd) < 0)
        goto out;
    u_invariant(cfg, def1, inv);
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
                    /* EXEC: a lane mask (every active lane set), not the
                     * same in a partial last wave; SCC: not set yet; the
                     * VGPRs: work-item ids and undefined values */
                    u_set(&s, GCN_RS_EXEC, 2);
                    s.m[GCN_RS_EXEC >> 6] |= 3ull << (GCN_RS_EXEC & 63);
                    u_set(&s, GCN_RS_SCC, 1);
                    memset(s.v, 0xff, sizeof s.v);
                }
                u_or_defs(&s, &jm[b]);
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
                u_joins(cfg, b, ipd, jm, col, stack, def1, inv);
                more = true;
            }
    }
    if (ipdom)
        memcpy(ipdom, ipd, sizeof *ipd * nb);
    rc = 0;
out:
    if (rc < 0)
        for (unsigned b = 0; b < nb; b++) {
            nub[b] = cfg->blocks[b].nsucc > 1;  /* unknown: every branch, */
            if (ipdom)
                ipdom[b] = nb;                  /* which may part for good */
        }
    free(ipd); free(stack); free(in); free(jm); free(col);
    return rc;
}
